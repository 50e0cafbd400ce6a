/**
 * `starinfo.dat` (uqm.md §3) and the `Scan` chunk that carries it byte for byte: 502 offsets, one per
 * star, then one block per system where something was picked up — a record per world (planets and
 * their moons in order): mineral, energy and biological 32-bit masks, bit n set when node n is taken
 * (MegaMod adds 96 bytes of partly-scavenged counts). Nothing stores a system's world count: it is
 * the block's size, the distance to the next block. Blocks are appended and never move, so the
 * layout is planned the way the game makes it: in their order, the next at the end — what the
 * core's `windowsAt` declares.
 *
 * @module
 */
import { array, bytes, struct, u32le, windowsAt, type Codec } from '@savekit/core';
import { layoutWorldCount, systemLayout } from './star-systems.js';

/** Stars with an offset (`NUM_SOLAR_SYSTEMS`). */
export const NUM_SOLAR_SYSTEMS = 502;
/** The offset table's size. */
export const STAR_TABLE_SIZE = NUM_SOLAR_SYSTEMS * 4;

/** What a scan finds: the three kinds of nodes on a world. */
export type ScanKind = 'mineral' | 'energy' | 'bio';

/** One world's record. */
export interface WorldRecord {
  mineral: number;
  energy: number;
  bio: number;
  /** MegaMod: how far each node (32 per kind) has been scavenged, one byte each. */
  partial?: Uint8Array;
}

/** A system's block. */
export interface StarSystem {
  /** Index in the star table (0…501). Sol is 82. */
  star: number;
  worlds: WorldRecord[];
}

/** A decoded `starinfo.dat`. */
export interface StarInfo {
  /** The systems with a block, in the order of their blocks. */
  systems: StarSystem[];
  /** Bytes between the table and the first block, kept when there are any. */
  lead?: Uint8Array;
}

/** Record sizes: vanilla 12 bytes, MegaMod 108. */
export type RecordSize = 12 | 108;

/**
 * The record size a document's records are of: 108 (MegaMod) when any carries `partial`, else 12. A
 * document without blocks is the same image either way.
 */
export function recordSizeOf(info: StarInfo): RecordSize {
  const megaMod = info.systems.some(
    (s) =>
      typeof s === 'object' &&
      s !== null &&
      Array.isArray(s.worlds) &&
      s.worlds.some((w) => typeof w === 'object' && w !== null && w.partial !== undefined),
  );
  return megaMod ? 108 : 12;
}

/** A vanilla world record (12 bytes): the mineral, energy and biological masks. */
export const worldRecord: Codec<WorldRecord> = struct({ mineral: u32le, energy: u32le, bio: u32le });

/** A MegaMod world record (108 bytes): the three masks, then the 96 partly-scavenged counts. */
export const megaModWorldRecord: Codec<WorldRecord> = struct({
  mineral: u32le,
  energy: u32le,
  bio: u32le,
  partial: bytes(96),
}) as Codec<WorldRecord>;

/** The offset table: one u32 per star, 0 for a star without a block. */
export const starOffsets: Codec<number[]> = array(u32le, NUM_SOLAR_SYSTEMS);

const worldLists = {
  12: array(worldRecord, 'rest'),
  108: array(megaModWorldRecord, 'rest'),
} as const;

/**
 * The codec of a `starinfo.dat` image (vanilla records of 12 bytes, MegaMod's of 108): a declaration,
 * the core's `windowsAt` over the star table. A system's block runs to the next offset in sorted
 * order (nothing stores its world count), its star is its table index, and the table is layout:
 * computed on write from where the blocks land, appended in the order of `systems` as the game
 * appends them. Offsets into the table or past the end, shared blocks, and blocks that are not whole
 * records are DecodeErrors; bytes between the table and the first block are kept as `lead`.
 */
export function starInfo(recordSize: RecordSize = 12): Codec<StarInfo> {
  const system = struct({ worlds: worldLists[recordSize] as Codec<WorldRecord[]> });
  return windowsAt(NUM_SOLAR_SYSTEMS, u32le, system, { index: 'star', blocks: 'systems', unit: recordSize });
}

const KIND_INDEX: Record<ScanKind, 'mineral' | 'energy' | 'bio'> = { mineral: 'mineral', energy: 'energy', bio: 'bio' };

function worldOf(info: StarInfo, star: number, world: number): WorldRecord | undefined {
  return info.systems.find((s) => s.star === star)?.worlds[world];
}

/**
 * Whether node `node` (0…31) of kind `kind` on world `world` of star `star` has been taken.
 * Worlds are numbered as the block stores them: each planet, then its moons.
 */
export function isTaken(info: StarInfo, star: number, world: number, kind: ScanKind, node: number): boolean {
  if (!Number.isInteger(node) || node < 0 || node > 31) throw new RangeError(`node ${node} is not 0 to 31`);
  const record = worldOf(info, star, world);
  return record !== undefined && ((record[KIND_INDEX[kind]] >>> node) & 1) === 1;
}

/**
 * Marks a node taken, the way the game's `PutPlanetInfo` does: a system without a block gets one at
 * the end, with a zeroed record for each of its worlds — as many as the game generates for that star
 * (`star-systems.ts`), or `worldCount` when given (a modded game). `takeNode` names worlds by planet.
 * New records are `recordSize` bytes: by default the size of the records `info` has already.
 */
export function take(
  info: StarInfo,
  star: number,
  world: number,
  kind: ScanKind,
  node: number,
  worldCount?: number,
  recordSize: RecordSize = recordSizeOf(info),
): void {
  if (!Number.isInteger(node) || node < 0 || node > 31) throw new RangeError(`node ${node} is not 0 to 31`);
  let system = info.systems.find((s) => s.star === star);
  if (system === undefined) {
    const layout = systemLayout(star);
    worldCount ??= layout === undefined ? undefined : layoutWorldCount(layout);
    if (worldCount === undefined) throw new RangeError(`star ${star} is not 0 to ${NUM_SOLAR_SYSTEMS - 1}`);
    if (!Number.isInteger(worldCount) || worldCount < 1 || worldCount > 255)
      throw new RangeError(`world count ${worldCount} is not 1 to 255`);
    const blank = (): WorldRecord =>
      recordSize === 108
        ? { mineral: 0, energy: 0, bio: 0, partial: new Uint8Array(96) }
        : { mineral: 0, energy: 0, bio: 0 };
    system = { star, worlds: Array.from({ length: worldCount }, blank) };
    info.systems.push(system);
  }
  const record = system.worlds[world];
  if (record === undefined)
    throw new RangeError(`star ${star} has ${system.worlds.length} worlds; there is no world ${world}`);
  const key = KIND_INDEX[kind];
  record[key] = (record[key] | (1 << node)) >>> 0;
}

/** The number of worlds of a system with a block (planets and moons together), or undefined. */
export function worldCount(info: StarInfo, star: number): number | undefined {
  return info.systems.find((s) => s.star === star)?.worlds.length;
}
