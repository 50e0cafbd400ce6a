/**
 * The design layout's level and DDF checks, as the seed defines them: per class a count and the
 * rotate-XOR combination ({@link combineCrcs}) of one CRC per entry, in entry order. The engine's
 * checks (Adler-32 of raw lumps, in `Vari` text) are in `map-checks`.
 *
 * What the seed leaves open, and how it is read here (docs/formats/edge.md, "Level and DDF checks"):
 *
 * - **Which CRC.** EDGE's "CRC" routines are Adler-32 (start value 1; edge.md §1 of the spec), so an
 *   entry's CRC is Adler-32 — not CRC-32 — over its values.
 * - **How a value enters the CRC.** As EDGE's int helper feeds it: 4 bytes, most significant first
 *   (two's complement). Map values are the map lump's integers (map units, BAM-less degrees for
 *   thing angles), not the engine's floats.
 * - **What an entry holds, in order** (the seed's "Level CRCS" list, in its order):
 *   - sector: tag, special (type), floor height, ceiling height, bounding box (top, bottom, left,
 *     right: Doom's box order; the true min/max over the vertices of the sector's lines, or Doom's
 *     cleared box `-2^31, 2^31-1, 2^31-1, -2^31` for a sector without lines), number of lines (a line
 *     counts for its front sector, and for its back sector when that is another one, as Doom groups
 *     lines);
 *   - linedef: tag, special (type), v1 x, v1 y, v2 x, v2 y, the flags masked to blocking (1),
 *     block-monsters (2) and pass-through (0x200), then a side mask (1 right side present, 2 left);
 *   - thing: type, x, y, angle, options;
 *   - RTS script and DDF entry: the seed lists what they cover but savekit parses neither RTS nor DDF,
 *     so their per-entry CRCs are the caller's.
 * - Only Doom-format maps: the seed predates Hexen-format maps in EDGE.
 *
 * @module
 */
import { adler32, array, DecodeError, encodeOrThrow, isRawChunk, type Path, u32be } from '@savekit/core';
import { globEntries, type CountCheck } from './document.js';
import { DDF_CLASSES, type GlobEntry } from './glob.js';
import {
  fieldOffset,
  linedefRecord,
  lumpRecords,
  type MapLumps,
  recordSize,
  sectorRecord,
  sidedefRecord,
  thingRecord,
  vertexRecord,
} from './doom-map.js';
import type { EdgeSave } from './save.js';

/**
 * The seed's combination of per-entry CRCs: `cur = rotl32(cur, 12) XOR crc[i]`, from 0. Entry `i` of
 * `n` ends up rotated by `12 × (n-1-i)` bits, and 12 × 8 = 96 is a multiple of 32: swapping two entries
 * 8 places apart does not change the result (a weakness of the formula, kept as the seed gives it).
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

/** The values an entry's CRC covers: 4-byte big-endian ints, as many as there are. */
const bigEndianInts = array(u32be, 'rest');

/**
 * An entry's CRC: Adler-32 over its values, each as EDGE's CRC helper feeds an int — 4 bytes, most
 * significant first.
 *
 * @example
 * ```ts
 * import { entryCrc } from '@savekit/edge';
 * entryCrc([1]); // Adler-32 of 00 00 00 01
 * ```
 */
export function entryCrc(values: ReadonlyArray<number>): number {
  return adler32.compute(
    encodeOrThrow(
      bigEndianInts,
      values.map((v) => v >>> 0),
    ),
  );
}

/** The count and combined CRC of a class of entries, from their per-entry CRCs. */
export function countCheckOf(crcs: ReadonlyArray<number>): CountCheck {
  return { count: crcs.length, crc: combineCrcs(crcs) };
}

/** The design layout's `Lvck` body: a count and a combined CRC per class. */
export interface LevelChecks {
  sectors: CountCheck;
  linedefs: CountCheck;
  things: CountCheck;
  scripts: CountCheck;
}

/** The per-entry CRCs of a map, in map order (what {@link designLevelChecks} combines). */
export interface MapEntryCrcs {
  readonly sectors: number[];
  readonly linedefs: number[];
  readonly things: number[];
}

/** A map's lumps for the design checks: the engine checks' lumps plus vertices and sidedefs. */
export type DesignMapLumps = MapLumps & { readonly VERTEXES: Uint8Array; readonly SIDEDEFS: Uint8Array };

/** Linedef flags the seed's linedef check covers: blocking, block monsters, pass-through (Boom). */
export const CHECKED_LINE_FLAGS = 0x0001 | 0x0002 | 0x0200;
const NO_SIDE = 0xffff;

const badPointer = (path: Path, offset: number, message: string) =>
  new DecodeError(path, offset, message, 'bad-pointer');

/**
 * The per-entry CRCs of a Doom-format map (see the module notes for what each entry covers). A
 * reference out of range (a linedef's vertex or sidedef, a sidedef's sector) is a DecodeError at the
 * record and its byte offset in the lump; a partial record at a lump's end is ignored, as Doom does.
 */
export function mapEntryCrcs(lumps: MapLumps): MapEntryCrcs {
  if (lumps.BEHAVIOR !== undefined)
    throw new RangeError('the design checks are defined for Doom-format maps; this map is in Hexen format');
  const { VERTEXES, SIDEDEFS } = lumps;
  if (VERTEXES === undefined || SIDEDEFS === undefined)
    throw new RangeError('the design checks need the map VERTEXES and SIDEDEFS lumps');
  // The lumps' records, read with the doom-map declarations.
  const vertices = lumpRecords(VERTEXES, vertexRecord);
  const sides = lumpRecords(SIDEDEFS, sidedefRecord);
  const lines = lumpRecords(lumps.LINEDEFS, linedefRecord);
  const sectors = lumpRecords(lumps.SECTORS, sectorRecord);
  const things = lumpRecords(lumps.THINGS, thingRecord);

  // Each sector's line count and bounding box (top, bottom, left, right), from its lines' vertices.
  const lineCount = new Array<number>(sectors.length).fill(0);
  const box = Array.from({ length: sectors.length }, () => [-(2 ** 31), 2 ** 31 - 1, 2 ** 31 - 1, -(2 ** 31)]);
  // Line `line`'s field `slot` names entry `index` of a list of `count`: a DecodeError.
  const outOfRange = (line: number, slot: 'v1' | 'v2' | 'right' | 'left', what: string, index: number, count: number) =>
    badPointer(
      ['LINEDEFS', line, slot],
      line * recordSize(linedefRecord) + fieldOffset(linedefRecord, slot),
      `${what} ${index} is out of range: the map has ${count}`,
    );
  const sectorOfSide = (line: number, slot: 'right' | 'left', side: number): number => {
    const sidedef = sides[side];
    if (sidedef === undefined) throw outOfRange(line, slot, 'sidedef', side, sides.length);
    const { sector } = sidedef;
    if (sector < 0 || sector >= sectors.length)
      throw badPointer(
        ['SIDEDEFS', side, 'sector'],
        side * recordSize(sidedefRecord) + fieldOffset(sidedefRecord, 'sector'),
        `sector ${sector} is out of range: the map has ${sectors.length}`,
      );
    return sector;
  };
  const vertex = (line: number, slot: 'v1' | 'v2'): [number, number] => {
    const v = lines[line]![slot];
    const point = vertices[v];
    if (point === undefined) throw outOfRange(line, slot, 'vertex', v, vertices.length);
    return [point.x, point.y];
  };

  const linedefs: number[] = [];
  lines.forEach((line, i) => {
    const v1 = vertex(i, 'v1');
    const v2 = vertex(i, 'v2');
    const { right, left } = line;
    const front = right === NO_SIDE ? undefined : sectorOfSide(i, 'right', right);
    const back = left === NO_SIDE ? undefined : sectorOfSide(i, 'left', left);
    for (const s of front === back ? [front] : [front, back]) {
      if (s === undefined) continue;
      lineCount[s]!++;
      const b = box[s]!;
      for (const [x, y] of [v1, v2]) {
        b[0] = Math.max(b[0]!, y);
        b[1] = Math.min(b[1]!, y);
        b[2] = Math.min(b[2]!, x);
        b[3] = Math.max(b[3]!, x);
      }
    }
    const flags = line.flags & CHECKED_LINE_FLAGS;
    const sideMask = (right === NO_SIDE ? 0 : 1) | (left === NO_SIDE ? 0 : 2);
    linedefs.push(entryCrc([line.tag, line.special, v1[0], v1[1], v2[0], v2[1], flags, sideMask]));
  });

  const sectorCrcs = sectors.map(({ tag, special, floor, ceiling }, i) =>
    entryCrc([tag, special, floor, ceiling, ...box[i]!, lineCount[i]!]),
  );
  const thingCrcs = things.map(({ type, x, y, angle, options }) => entryCrc([type, x, y, angle, options]));
  return { sectors: sectorCrcs, linedefs, things: thingCrcs };
}

/**
 * The design layout's `Lvck` body for a map: per class the entry count and the combined entry CRCs.
 * RTS scripts are the caller's per-script CRCs (none by default: a map without scripts).
 *
 * @example
 * ```ts
 * import { designLevelChecks, mapLumpsFromWad } from '@savekit/edge';
 * declare const wad: Uint8Array;
 * const checks = designLevelChecks(mapLumpsFromWad(wad, 'MAP01'));
 * checks.sectors; // { count, crc }
 * ```
 */
export function designLevelChecks(lumps: MapLumps, scripts: ReadonlyArray<number> = []): LevelChecks {
  const crcs = mapEntryCrcs(lumps);
  return {
    sectors: countCheckOf(crcs.sectors),
    linedefs: countCheckOf(crcs.linedefs),
    things: countCheckOf(crcs.things),
    scripts: countCheckOf(scripts),
  };
}

// The DDF classes are declared with the `Dfck` lump (glob.ts), whose fields they are.
export { DDF_CLASSES };
/** A DDF class of `Dfck`. */
export type DdfClass = (typeof DDF_CLASSES)[number];
/** The design layout's `Dfck` body: a count and a combined CRC per DDF class. */
export type DdfChecks = Record<DdfClass, CountCheck>;

/**
 * The `Dfck` body from per-entry DDF CRCs supplied by the caller (savekit does not parse DDF), each
 * class in the engine's entry order; a class not given has no entries.
 *
 * @example
 * ```ts
 * import { ddfChecks } from '@savekit/edge';
 * ddfChecks({ weapons: [0x1234, 0x5678] }).weapons; // { count: 2, crc: 0x01231678 }
 * ```
 */
export function ddfChecks(entries: Partial<Record<DdfClass, ReadonlyArray<number>>>): DdfChecks {
  const out = {} as DdfChecks;
  for (const c of DDF_CLASSES) out[c] = countCheckOf(entries[c] ?? []);
  return out;
}

// Replaces the save's decoded `marker` lump in its `Glob`, or adds it at the end.
function setLump(save: EdgeSave, marker: 'Lvck' | 'Dfck', body: LevelChecks | DdfChecks): void {
  if (!save.chunks.some((c) => c.id === 'Glob' && !isRawChunk(c))) throw new RangeError('the save has no Glob chunk');
  const entries = globEntries(save);
  const at = entries.findIndex((e) => e.id === marker && !isRawChunk(e));
  const entry = { id: marker, body } as GlobEntry;
  if (at >= 0) entries[at] = entry;
  else entries.push(entry);
}

/**
 * Stores level checks (from {@link designLevelChecks}) in a save's `Lvck` lump, replacing the one it
 * has or adding one at the end of its `Glob`. Only the `Glob` chunk changes.
 *
 * @example
 * ```ts
 * import { designLevelChecks, setLevelChecks, type EdgeSave, type MapLumps } from '@savekit/edge';
 * declare const save: EdgeSave, lumps: MapLumps;
 * setLevelChecks(save, designLevelChecks(lumps));
 * ```
 */
export function setLevelChecks(save: EdgeSave, checks: LevelChecks): void {
  setLump(save, 'Lvck', checks);
}

/** Stores DDF checks (from {@link ddfChecks}) in a save's `Dfck` lump, as {@link setLevelChecks} does. */
export function setDdfChecks(save: EdgeSave, checks: DdfChecks): void {
  setLump(save, 'Dfck', checks);
}
