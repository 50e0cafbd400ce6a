/**
 * `starinfo.dat` (uqm.md §3) and the `Scan` chunk that carries it byte for byte: 502 offsets, one per
 * star, then one block per system where something was picked up — a record per world (planets and
 * their moons in order): mineral, energy and biological 32-bit masks, bit n set when node n is taken
 * (MegaMod adds 96 bytes of partly-scavenged counts). Nothing stores a system's world count: it is
 * the block's size, the distance to the next block. Blocks are appended and never move, so the
 * layout is planned the way the game makes it: in their order, the next at the end.
 *
 * @module
 */
import * as t from 'io-ts';
import { array, bytes, literal, map, optional, patch, struct, u16le, u32le, type Codec } from '@savekit/core';
import { customDef, defineCodec, jsonBytes, readChild, writeChild, type Reader } from '@savekit/core/kit';
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

/** Bytes between the table and the first block (none in the game's files). */
const leadBytes = optional(bytes('rest'));

const worldLists = {
  12: array(worldRecord, 'rest'),
  108: array(megaModWorldRecord, 'rest'),
} as const;

/**
 * The blocks after the table, in file order, as `systems`: read by the star table (`offsets`, checked
 * already: each in the image, none in the table), each block up to the next; written in the order of
 * the systems, each at the end, filling in `offsets`. Built per decode or encode around that table.
 *
 * A codec of its own, not a declaration: each block's window is sized by the next offset in sorted
 * order (another entry's value), and its star is the index of its table entry — no core combinator
 * sizes a window by the distance to the next target of an offset table.
 */
function systemBlocks(recordSize: RecordSize, offsets: number[], base: number): Codec<StarSystem[]> {
  const worlds = worldLists[recordSize] as Codec<WorldRecord[]>;
  const system = struct({ worlds });
  return defineCodec<StarSystem[]>({
    name: `systemBlocks(${recordSize})`,
    def: customDef<StarSystem[]>('uqmStarSystems', {
      params: { recordSize },
      samples: starInfoSamples(recordSize).map((info) => info.systems),
    }),
    json: t.array(t.type({ star: t.number, worlds: worlds.json })) as unknown as t.Type<StarSystem[], unknown, unknown>,
    minSize: 0,
    read(r) {
      const blocks = offsets
        .map((offset, star) => ({ star, offset }))
        .filter((b) => b.offset !== 0)
        .sort((a, b) => a.offset - b.offset);
      const size = r.end - base;
      return blocks.map(({ star, offset }, i) => {
        const following = blocks[i + 1];
        const next = following === undefined ? size : following.offset;
        // One unit of work per world record, before they are checked and read.
        r.work(1 + Math.max(0, Math.floor((next - offset) / recordSize)));
        if (following !== undefined && next === offset)
          throw r.errorAt(
            i,
            `stars ${star} and ${following.star} share the block at ${offset}`,
            base + following.star * 4,
          );
        if ((next - offset) % recordSize !== 0)
          throw r.errorAt(
            i,
            `star ${star}: its block of ${next - offset} bytes is not whole ${recordSize}-byte world records`,
            base + offset,
          );
        return { star, worlds: readChild(blockReader(r, base + offset, base + next), i, system).worlds };
      });
    },
    write(w, systems) {
      if (!Array.isArray(systems)) throw w.error('expected the systems');
      const seen = new Set<number>();
      for (const [i, value] of systems.entries()) {
        if (typeof value !== 'object' || value === null) throw w.errorAt(i, 'expected { star, worlds }');
        const { star, worlds: records } = value;
        if (!Number.isInteger(star) || star < 0 || star >= NUM_SOLAR_SYSTEMS)
          throw w.errorAt(i, `star ${star} is not 0 to ${NUM_SOLAR_SYSTEMS - 1}`);
        if (seen.has(star)) throw w.errorAt(i, `star ${star} has two blocks`);
        if (!Array.isArray(records)) throw w.errorAt(i, `star ${star}: expected its worlds`);
        if (records.length === 0) throw w.errorAt(i, `star ${star}: a block has at least one world`);
        seen.add(star);
        offsets[star] = w.length - w.origin;
        writeChild(w, i, system, { worlds: records });
      }
    },
  });
}

/** A reader over one block `[start, end)` of the image (blocks are read in file order, one after another). */
function blockReader(r: Reader, start: number, end: number): Reader {
  const block = r.at(start, start, end);
  r.pos = end;
  return block;
}

/** Example images: none scanned, and Sol (star 82) with a node taken on its first two worlds. */
function starInfoSamples(recordSize: RecordSize): StarInfo[] {
  const world = (mineral: number): WorldRecord =>
    recordSize === 108 ? { mineral, energy: 0, bio: 0, partial: new Uint8Array(96) } : { mineral, energy: 0, bio: 0 };
  return [{ systems: [] }, { systems: [{ star: 82, worlds: [world(1), world(4)] }] }];
}

/** `codec`'s non-empty lists or byte runs (a map that refuses the empty one). */
function nonEmpty<A extends { readonly length: number }>(codec: Codec<A>): Codec<A> {
  return map(codec, {
    decode: (list) => {
      if (list.length === 0) throw new Error('the list is empty');
      return list;
    },
    encode: (list) => list,
  });
}

/**
 * For tools: a codec whose values are exactly the images {@link starInfo} writes — systems of distinct
 * stars, each with at least one world, and a lead of at least one byte when there is one.
 */
function starInfoModel(recordSize: RecordSize): Codec<StarInfo> {
  const stars = Array.from({ length: NUM_SOLAR_SYSTEMS }, (_, star) => star) as [number, ...number[]];
  const system = struct({
    star: literal(u16le, ...stars),
    worlds: nonEmpty(worldLists[recordSize] as Codec<WorldRecord[]>),
  });
  const systems = map(array(system, 'rest'), {
    decode: (list) => {
      if (new Set(list.map((s) => s.star)).size !== list.length) throw new Error('a star has two blocks');
      return list;
    },
    encode: (list: StarSystem[]) => list,
  });
  return map(struct({ systems, lead: optional(nonEmpty(bytes('rest'))) }), {
    decode: ({ systems, lead }): StarInfo => (lead === undefined ? { systems } : { systems, lead }),
    encode: (info: StarInfo) => ({ systems: info.systems, lead: info.lead }),
  });
}

/**
 * The codec of a `starinfo.dat` image (vanilla records of 12 bytes, MegaMod's of 108). Offsets into
 * the table, shared blocks, and blocks that are not whole records are DecodeErrors. A codec of its own
 * rather than a declaration: a block's size is stored nowhere — it is the distance to the next block
 * in offset order — and the offset table is layout, not document: computed on write from where the
 * blocks land, and read before the blocks it sizes. Its records are read through the core's
 * `worldRecord` structs.
 */
export function starInfo(recordSize: RecordSize = 12): Codec<StarInfo> {
  const world = worldLists[recordSize] as Codec<WorldRecord[]>;
  const json = t.intersection([
    t.type({ systems: t.array(t.type({ star: t.number, worlds: world.json })) }),
    t.partial({ lead: jsonBytes() }),
  ]) as unknown as t.Type<StarInfo, unknown, unknown>;
  return defineCodec<StarInfo>({
    name: `starInfo(${recordSize})`,
    // Its values as a model (stars unique, blocks non-empty), and samples: a new game's and Sol scanned.
    def: customDef<StarInfo>('uqmStarInfo', {
      params: { recordSize },
      model: starInfoModel(recordSize),
      samples: starInfoSamples(recordSize),
    }),
    json,
    minSize: STAR_TABLE_SIZE,
    read(r) {
      const base = r.pos;
      r.need(STAR_TABLE_SIZE);
      const size = r.end - base;
      // The table is layout, not document: read entry by entry with no path segment (and so no traced
      // span) of its own; its errors are at the document value (this image), at the entry's offset.
      const offsets = Array.from({ length: NUM_SOLAR_SYSTEMS }, () => u32le.read(r));
      let first = size;
      for (const [star, offset] of offsets.entries()) {
        if (offset === 0) continue;
        if (offset < STAR_TABLE_SIZE)
          throw r.error(`star ${star}: offset ${offset} points into the offset table`, base + star * 4);
        if (offset >= size)
          throw r.error(`star ${star}: offset ${offset} is past the end (${size} bytes)`, base + star * 4);
        first = Math.min(first, offset);
      }
      const lead =
        first > STAR_TABLE_SIZE ? readChild(r.window(first - STAR_TABLE_SIZE), 'lead', bytes('rest')) : undefined;
      const systems = readChild(r, 'systems', systemBlocks(recordSize, offsets, base));
      return lead === undefined ? { systems } : { systems, lead };
    },
    write(w, info) {
      if (typeof info !== 'object' || info === null || !Array.isArray(info.systems))
        throw w.error('expected { systems }');
      const table = w.reserve(STAR_TABLE_SIZE);
      // Bytes after the table are read back as the lead only when there are some.
      writeChild(w, 'lead', leadBytes, info.lead);
      const offsets = new Array<number>(NUM_SOLAR_SYSTEMS).fill(0);
      writeChild(w, 'systems', systemBlocks(recordSize, offsets, 0), info.systems);
      patch(w, table, starOffsets, offsets);
    },
  });
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
