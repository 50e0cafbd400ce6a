/**
 * The checks EDGE makes when a save is loaded: the map the save came from must be the map being
 * loaded into. A save stores, per map lump, a count and the Adler-32 of the lump's raw bytes
 * (`MAPSECTOR`, `MAPLINE`, `MAPTHING`); the design doc's draft also combines per-entry CRCs with a
 * rotate-XOR.
 *
 * @module
 */
import { adler32, array, decodeOrThrow, fixedString, i32le, magic, struct, type TypeOf } from '@savekit/core';
import { levelInfo, type CountCheck } from './document.js';
import type { EdgeSave } from './save.js';

/**
 * The design doc's combination of per-entry CRCs: `cur = rotl32(cur, 12) XOR crc[i]`, from 0.
 * No EDGE release used it; it is here for the draft's `Lvck`/`Dfck`.
 *
 * @example
 * ```ts
 * import { combineCrcs } from '@savekit/edge';
 * combineCrcs([1, 2, 3]); // 0x01002003
 * ```
 */
export function combineCrcs(crcs: Iterable<number>): number {
  let cur = 0;
  for (const crc of crcs) cur = (((cur << 12) | (cur >>> 20)) ^ crc) >>> 0;
  return cur;
}

/** A map's lumps as raw bytes (what the checks are computed over). */
export interface MapLumps {
  readonly THINGS: Uint8Array;
  readonly LINEDEFS: Uint8Array;
  readonly SECTORS: Uint8Array;
  /** Present in Hexen-format maps, whose things and linedefs are larger. */
  readonly BEHAVIOR?: Uint8Array;
}

/** The checks of a map: counts from the lump sizes (Doom or Hexen records), Adler-32 of the bytes. */
export function mapChecks(lumps: MapLumps): { sectors: CountCheck; lines: CountCheck; things: CountCheck } {
  const hexen = lumps.BEHAVIOR !== undefined;
  const check = (bytes: Uint8Array, record: number): CountCheck => ({
    count: Math.floor(bytes.length / record),
    crc: adler32.compute(bytes),
  });
  return {
    sectors: check(lumps.SECTORS, 26),
    lines: check(lumps.LINEDEFS, hexen ? 16 : 14),
    things: check(lumps.THINGS, hexen ? 20 : 10),
  };
}

/** A WAD's header: `IWAD` or `PWAD`, the lump count and where the directory starts. */
const wadHeader = struct({ magic: magic('IWAD', 'PWAD'), numlumps: i32le, infotableofs: i32le });
/** A directory entry: where a lump is, its size and its NUL-padded name (bytes after the NUL kept). */
const wadEntry = struct({ filepos: i32le, size: i32le, name: fixedString(8, 'cp437', { tail: 'keep' }) });

/** Reads a map's lumps out of a WAD (IWAD or PWAD): the lumps after the map's marker lump. */
export function mapLumpsFromWad(wad: Uint8Array, map: string): MapLumps {
  // Core declarations of the WAD header and directory: bad input is a DecodeError naming the field.
  let header: TypeOf<typeof wadHeader>;
  try {
    header = decodeOrThrow(wadHeader, wad, { trailing: 'keep' });
  } catch (error) {
    throw new Error(`not a WAD: ${String(error)}`, { cause: error });
  }
  const { numlumps, infotableofs } = header;
  if (infotableofs < 0 || infotableofs > wad.length) throw new Error('WAD directory is outside the file');
  const entries = decodeOrThrow(array(wadEntry, numlumps), wad.subarray(infotableofs), { trailing: 'keep' }).map(
    (e) => ({ name: (typeof e.name === 'string' ? e.name : e.name.text).toUpperCase(), at: e.filepos, size: e.size }),
  );
  // The last marker of that name wins, as in Doom (a PWAD replaces the IWAD's map).
  let start = -1;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.name === map.toUpperCase()) start = i;
  if (start < 0) throw new Error(`the WAD has no map ${map}`);
  const found: Record<string, Uint8Array> = {};
  const MAP_LUMPS = new Set([
    'THINGS',
    'LINEDEFS',
    'SIDEDEFS',
    'VERTEXES',
    'SEGS',
    'SSECTORS',
    'NODES',
    'SECTORS',
    'REJECT',
    'BLOCKMAP',
    'BEHAVIOR',
    'SCRIPTS',
  ]);
  for (let i = start + 1; i < entries.length && MAP_LUMPS.has(entries[i]!.name); i++) {
    const { name, at, size } = entries[i]!;
    if (at < 0 || size < 0 || at + size > wad.length) throw new Error(`lump ${name} is outside the file`);
    found[name] = wad.subarray(at, at + size);
  }
  const needed = (name: string): Uint8Array => {
    const lump = found[name];
    if (lump === undefined) throw new Error(`map ${map} has no ${name} lump`);
    return lump;
  };
  return {
    THINGS: needed('THINGS'),
    LINEDEFS: needed('LINEDEFS'),
    SECTORS: needed('SECTORS'),
    ...(found.BEHAVIOR !== undefined ? { BEHAVIOR: found.BEHAVIOR } : {}),
  };
}

/** The outcome of comparing a save's map checks with a map. */
export interface LevelCheck {
  /** Whether every stored check matches. */
  readonly ok: boolean;
  /** `undefined`, or EDGE's message: "Level data does not match". */
  readonly message?: string;
  /** Each check that differs: which, what the save says, what the map gives. */
  readonly mismatches: ReadonlyArray<{
    readonly check: 'sectors' | 'lines' | 'things';
    readonly saved: CountCheck;
    readonly map: CountCheck;
  }>;
}

/**
 * Compares a save's sector, linedef and thing checks with a map's lumps (bytes, or a WAD and the
 * map's name), the way EDGE does on load: any difference in a count or a check value is a mismatch.
 *
 * @example
 * ```ts
 * import { checkLevel, type EdgeSave } from '@savekit/edge';
 * declare const save: EdgeSave, wad: Uint8Array;
 * const result = checkLevel(save, { wad, map: 'MAP01' });
 * if (!result.ok) console.log(result.message); // "Level data does not match"
 * ```
 */
export function checkLevel(
  save: EdgeSave,
  level: MapLumps | { readonly wad: Uint8Array; readonly map?: string },
): LevelCheck {
  const info = levelInfo(save);
  const lumps = 'wad' in level ? mapLumpsFromWad(level.wad, level.map ?? String(info.level ?? '')) : level;
  const actual = mapChecks(lumps);
  const mismatches: Array<LevelCheck['mismatches'][number]> = [];
  for (const key of ['sectors', 'lines', 'things'] as const) {
    const saved = info.mapChecks[key];
    if (saved === undefined) continue;
    if (saved.count !== actual[key].count || saved.crc >>> 0 !== actual[key].crc >>> 0)
      mismatches.push({ check: key, saved, map: actual[key] });
  }
  return mismatches.length === 0
    ? { ok: true, mismatches }
    : { ok: false, message: 'Level data does not match', mismatches };
}
