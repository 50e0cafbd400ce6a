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
import { defineCodec, jsonBytes, type Codec } from '@savekit/core';

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
 * The codec of a `starinfo.dat` image (vanilla records of 12 bytes, MegaMod's of 108). Offsets into
 * the table, shared blocks, and blocks that are not whole records are DecodeErrors.
 */
export function starInfo(recordSize: RecordSize = 12): Codec<StarInfo> {
  const world =
    recordSize === 12
      ? t.type({ mineral: t.number, energy: t.number, bio: t.number })
      : t.type({ mineral: t.number, energy: t.number, bio: t.number, partial: jsonBytes(96) });
  const json = t.intersection([
    t.type({ systems: t.array(t.type({ star: t.number, worlds: t.array(world) })) }),
    t.partial({ lead: jsonBytes() }),
  ]) as unknown as t.Type<StarInfo, unknown, unknown>;
  return defineCodec<StarInfo>({
    name: `starInfo(${recordSize})`,
    kind: 'uqmStarInfo',
    json,
    minSize: STAR_TABLE_SIZE,
    read(r) {
      const base = r.pos;
      r.need(STAR_TABLE_SIZE);
      const end = r.end;
      const size = end - base;
      const blocks: Array<{ star: number; offset: number }> = [];
      const path = r.state.path;
      for (let star = 0; star < NUM_SOLAR_SYSTEMS; star++) {
        const offset = r.view.getUint32(base + star * 4, true);
        if (offset === 0) continue;
        path.push('offsets', star);
        if (offset < STAR_TABLE_SIZE)
          throw r.error(`star ${star}: offset ${offset} points into the offset table`, base + star * 4);
        if (offset >= size)
          throw r.error(`star ${star}: offset ${offset} is past the end (${size} bytes)`, base + star * 4);
        path.length -= 2;
        blocks.push({ star, offset });
      }
      blocks.sort((a, b) => a.offset - b.offset);
      const systems: StarSystem[] = [];
      for (let i = 0; i < blocks.length; i++) {
        const { star, offset } = blocks[i]!;
        const following = blocks[i + 1];
        const next = following === undefined ? size : following.offset;
        path.push('systems', star);
        // One unit of work per world record (the records are read below).
        r.work(1 + Math.max(0, Math.floor((next - offset) / recordSize)));
        if (following !== undefined && next === offset)
          throw r.error(`stars ${star} and ${following.star} share the block at ${offset}`, base + following.star * 4);
        if ((next - offset) % recordSize !== 0)
          throw r.error(
            `star ${star}: its block of ${next - offset} bytes is not whole ${recordSize}-byte world records`,
            base + offset,
          );
        const worlds: WorldRecord[] = [];
        for (let at = base + offset; at < base + next; at += recordSize) {
          const record: WorldRecord = {
            mineral: r.view.getUint32(at, true),
            energy: r.view.getUint32(at + 4, true),
            bio: r.view.getUint32(at + 8, true),
          };
          if (recordSize === 108) record.partial = r.bytes.slice(at + 12, at + 108);
          worlds.push(record);
        }
        path.length -= 2;
        systems.push({ star, worlds });
      }
      const first = blocks[0]?.offset ?? size;
      r.pos = end;
      const info: StarInfo = { systems };
      if (first > STAR_TABLE_SIZE) info.lead = r.bytes.slice(base + STAR_TABLE_SIZE, base + first);
      return info;
    },
    write(w, info) {
      if (typeof info !== 'object' || info === null || !Array.isArray(info.systems))
        throw w.error('expected { systems }');
      const table = w.reserve(STAR_TABLE_SIZE);
      const path = w.state.path;
      if (info.lead !== undefined) {
        // Bytes after the table are read back as the lead only when there are some.
        if (!(info.lead instanceof Uint8Array) || info.lead.length === 0) {
          path.push('lead');
          throw w.error('the lead is bytes, at least one (leave it out when there are none)');
        }
        w.append(info.lead);
      }
      const seen = new Set<number>();
      info.systems.forEach((system, i) => {
        path.push('systems', i);
        if (typeof system !== 'object' || system === null) throw w.error('expected { star, worlds }');
        const { star, worlds } = system;
        if (!Number.isInteger(star) || star < 0 || star >= NUM_SOLAR_SYSTEMS)
          throw w.error(`star ${star} is not 0 to ${NUM_SOLAR_SYSTEMS - 1}`);
        if (seen.has(star)) throw w.error(`star ${star} has two blocks`);
        if (!Array.isArray(worlds)) throw w.error(`star ${star}: expected its worlds`);
        if (worlds.length === 0) throw w.error(`star ${star}: a block has at least one world`);
        seen.add(star);
        w.view.setUint32(table + star * 4, w.length - w.origin, true);
        for (const [j, world] of worlds.entries()) {
          if (typeof world !== 'object' || world === null) {
            path.push('worlds', j);
            throw w.error('expected a world record { mineral, energy, bio }');
          }
          const at = w.ensure(recordSize);
          for (const [k, key] of (['mineral', 'energy', 'bio'] as const).entries()) {
            const v = world[key];
            if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw w.error(`${key} mask ${v} is not a 32-bit mask`);
            w.view.setUint32(at + k * 4, v, true);
          }
          if (recordSize === 108) {
            if (!(world.partial instanceof Uint8Array) || world.partial.length !== 96)
              throw w.error('a MegaMod world record needs 96 partial bytes');
            w.buf.set(world.partial, at + 12);
          }
          w.length = at + recordSize;
        }
        path.length -= 2;
      });
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
 * the end, with a zeroed record for each of its `worldCount` worlds (the file does not know how many
 * worlds an untouched system has, so the caller says).
 */
export function take(
  info: StarInfo,
  star: number,
  world: number,
  kind: ScanKind,
  node: number,
  worldCount?: number,
  recordSize: RecordSize = 12,
): void {
  if (!Number.isInteger(node) || node < 0 || node > 31) throw new RangeError(`node ${node} is not 0 to 31`);
  let system = info.systems.find((s) => s.star === star);
  if (system === undefined) {
    if (worldCount === undefined || worldCount < 1)
      throw new RangeError(`star ${star} has no block yet: give its world count`);
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
