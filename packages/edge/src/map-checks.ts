/**
 * The checks EDGE makes when a save is loaded: the map the save came from must be the map being
 * loaded into. A save stores, per map lump, a count and the Adler-32 of the lump's raw bytes
 * (`MAPSECTOR`, `MAPLINE`, `MAPTHING`). A design-layout save holds the seed's checks instead (an
 * `Lvck` lump of per-class counts and combined per-entry CRCs, and a `Dfck` of DDF checks): they are
 * computed in `design-checks` and compared here.
 *
 * @module
 */
import { adler32 } from '@savekit/core';
import { designLevelChecks, type DdfChecks, type DdfClass, ddfChecks, DDF_CLASSES } from './design-checks.js';
import { globLump, levelInfo, type CountCheck } from './document.js';
import { linedefRecord, type MapLumps, mapLumpsFromWad, recordSize, sectorRecord, thingRecord } from './doom-map.js';
import type { EdgeSave } from './save.js';

// Record sizes of Hexen-format map lumps (only counted here).
const HEXEN_LINEDEF = 16;
const HEXEN_THING = 20;

/** The checks of a map: counts from the lump sizes (Doom or Hexen records), Adler-32 of the bytes. */
export function mapChecks(lumps: MapLumps): { sectors: CountCheck; lines: CountCheck; things: CountCheck } {
  const hexen = lumps.BEHAVIOR !== undefined;
  const check = (bytes: Uint8Array, record: number): CountCheck => ({
    count: Math.floor(bytes.length / record),
    crc: adler32.compute(bytes),
  });
  return {
    sectors: check(lumps.SECTORS, recordSize(sectorRecord)),
    lines: check(lumps.LINEDEFS, hexen ? HEXEN_LINEDEF : recordSize(linedefRecord)),
    things: check(lumps.THINGS, hexen ? HEXEN_THING : recordSize(thingRecord)),
  };
}

/** Which part of a count check differs. */
export type CheckDifference = 'count' | 'crc' | 'count and crc';

/** A check that differs: which class, which part, what the save says, what the map (or DDF) gives. */
export interface CheckMismatch<C extends string> {
  readonly check: C;
  readonly differs: CheckDifference;
  readonly saved: CountCheck;
  readonly map: CountCheck;
}

/** The outcome of comparing a save's map checks with a map. */
export interface LevelCheck {
  /** Whether every stored check that could be compared matches. */
  readonly ok: boolean;
  /** `undefined`, or EDGE's message: "Level data does not match". */
  readonly message?: string;
  /**
   * How the checks were made: `engine` (the `Vari` MAPSECTOR/MAPLINE/MAPTHING, Adler-32 of raw lumps)
   * or `design` (the `Lvck` lump, combined per-entry CRCs).
   */
  readonly method: 'engine' | 'design';
  /** Each check that differs. */
  readonly mismatches: ReadonlyArray<CheckMismatch<'sectors' | 'lines' | 'things' | 'scripts'>>;
  /** Stored checks not compared: a design save's `scripts` when no script CRCs were given. */
  readonly unchecked?: ReadonlyArray<'scripts'>;
}

/** Options of {@link checkLevel}. */
export interface CheckLevelOptions {
  /** Per-script CRCs of the map's RTS scripts in order, for a design save's `scripts` check. */
  readonly scripts?: ReadonlyArray<number>;
}

function compare<C extends string>(check: C, saved: CountCheck, map: CountCheck): CheckMismatch<C> | undefined {
  const count = saved.count >>> 0 !== map.count >>> 0;
  const crc = saved.crc >>> 0 !== map.crc >>> 0;
  if (!count && !crc) return undefined;
  return { check, differs: count && crc ? 'count and crc' : count ? 'count' : 'crc', saved, map };
}

/**
 * Compares a save's level checks with a map's lumps (bytes, or a WAD and the map's name), the way EDGE
 * does on load: any difference in a count or a check value is a mismatch. An engine-layout save's
 * `Vari` checks are Adler-32 of the raw SECTORS, LINEDEFS and THINGS lumps; a design-layout save's
 * `Lvck` (when it has one) is compared with {@link designLevelChecks} of the map, and its `scripts`
 * check with the script CRCs given in `options` (unchecked without them).
 *
 * @example
 * ```ts
 * import { checkLevel, type EdgeSave } from '@savekit/edge';
 * declare const save: EdgeSave, wad: Uint8Array;
 * const result = checkLevel(save, { wad, map: 'MAP01' });
 * if (!result.ok) console.log(result.message, result.mismatches); // "Level data does not match"
 * ```
 */
export function checkLevel(
  save: EdgeSave,
  level: MapLumps | { readonly wad: Uint8Array; readonly map?: string },
  options: CheckLevelOptions = {},
): LevelCheck {
  const info = levelInfo(save);
  const lumps = 'wad' in level ? mapLumpsFromWad(level.wad, level.map ?? String(info.level ?? '')) : level;
  const mismatches: Array<LevelCheck['mismatches'][number]> = [];
  const push = (m: LevelCheck['mismatches'][number] | undefined) => {
    if (m !== undefined) mismatches.push(m);
  };
  const stored = globLump(save, 'Lvck');
  let method: LevelCheck['method'] = 'engine';
  let unchecked: LevelCheck['unchecked'];
  if (stored !== undefined) {
    method = 'design';
    const actual = designLevelChecks(lumps, options.scripts ?? []);
    push(compare('sectors', stored.sectors, actual.sectors));
    push(compare('lines', stored.linedefs, actual.linedefs));
    push(compare('things', stored.things, actual.things));
    if (options.scripts !== undefined) push(compare('scripts', stored.scripts, actual.scripts));
    else unchecked = ['scripts'];
  } else {
    const actual = mapChecks(lumps);
    for (const key of ['sectors', 'lines', 'things'] as const) {
      const saved = info.mapChecks[key];
      if (saved !== undefined) push(compare(key, saved, actual[key]));
    }
  }
  return {
    ok: mismatches.length === 0,
    ...(mismatches.length === 0 ? {} : { message: 'Level data does not match' }),
    method,
    mismatches,
    ...(unchecked === undefined ? {} : { unchecked }),
  };
}

/** The outcome of comparing a design save's `Dfck` with DDF entry CRCs. */
export interface DdfCheck {
  /** Whether every class compared matches. */
  readonly ok: boolean;
  /** Each class that differs (`map` holds what the given entries give). */
  readonly mismatches: ReadonlyArray<CheckMismatch<DdfClass>>;
  /** Classes not compared, because no entries were given for them. */
  readonly unchecked: ReadonlyArray<DdfClass>;
}

/**
 * Compares a design-layout save's `Dfck` with per-entry DDF CRCs the caller supplies (see
 * {@link ddfChecks}); classes not given are left unchecked. A RangeError when the save has no `Dfck`
 * (engine-layout saves never fill in their DDF checks).
 *
 * @example
 * ```ts
 * import { checkDdf, type EdgeSave } from '@savekit/edge';
 * declare const save: EdgeSave;
 * checkDdf(save, { weapons: [0x1234, 0x5678] }).ok;
 * ```
 */
export function checkDdf(save: EdgeSave, entries: Partial<Record<DdfClass, ReadonlyArray<number>>>): DdfCheck {
  const stored: DdfChecks | undefined = globLump(save, 'Dfck');
  if (stored === undefined)
    throw new RangeError('the save has no Dfck lump (only design-layout saves hold DDF checks)');
  const actual = ddfChecks(entries);
  const mismatches: Array<CheckMismatch<DdfClass>> = [];
  const unchecked: DdfClass[] = [];
  for (const c of DDF_CLASSES) {
    if (entries[c] === undefined) {
      unchecked.push(c);
      continue;
    }
    const m = compare(c, stored[c], actual[c]);
    if (m !== undefined) mismatches.push(m);
  }
  return { ok: mismatches.length === 0, mismatches, unchecked };
}
