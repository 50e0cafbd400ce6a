/**
 * The battle-group state files (uqm.md §2): `randgrp.dat` — a GROUP_HEADER whose 65 offsets point to
 * the group list and the random groups — and `defgrp.dat` — a reserved zero byte, then a header per
 * defined encounter at the offsets the game state holds. Offsets are core pointers: reading refuses
 * one into a header, outside the file or over another group; writing plans the layout.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  arena,
  array,
  bits,
  DecodeError,
  decode,
  encode,
  i16le,
  map,
  padding,
  pointer,
  struct,
  u16le,
  u32le,
  u8,
  type Arena,
  type Codec,
  type DecodeOptions,
  type Fields,
  type Pointer,
  type TypeOf,
  withHooks,
} from '@savekit/core';
import { customDef, defineCodec, jsonArray, readChild } from '@savekit/core/kit';
import * as E from 'fp-ts/lib/Either.js';
import type { ipGroupEntry } from './records.js';

/** IP_GROUP as a state file stores it (16 bytes; the nibble pairs decoded). */
export const ipGroup = struct({
  unused0: u16le,
  unused2: u8,
  pad3: u8,
  groupCounter: u16le,
  raceId: u8,
  place: bits({ sysLoc: 4, task: 4 }, { order: 'lsb' }),
  inSystem: u8,
  unused9: u8,
  orbit: bits({ destLoc: 4, orbitPos: 4 }, { order: 'lsb' }),
  groupId: u8,
  locX: i16le,
  locY: i16le,
});

/**
 * A save's group (an `IGpQ` or `Grps` entry, nibbles unpacked) as the IP_GROUP a state file or a 0.7
 * save stores, the unused fields zero. The nibbles are not checked here: encoding refuses one too wide.
 */
export function toIpGroup(g: TypeOf<typeof ipGroupEntry>): TypeOf<typeof ipGroup> {
  return {
    unused0: 0,
    unused2: 0,
    pad3: 0,
    groupCounter: g.groupCounter,
    raceId: g.raceId,
    place: { sysLoc: g.sysLoc, task: g.task },
    inSystem: g.inSystem,
    unused9: 0,
    orbit: { destLoc: g.destLoc, orbitPos: g.orbitPos },
    groupId: g.groupId,
    locX: g.locX,
    locY: g.locY,
  };
}

/** SHIP_FRAGMENT as a state file stores it (16 bytes; crew truncated to a byte). */
export const shipFragment = struct({
  unused0: u16le,
  captainsNameIndex: u8,
  pad3: u8,
  unused4: u16le,
  raceId: u8,
  index: u8,
  crewLevel: u8,
  maxCrew: u8,
  energyLevel: u8,
  maxEnergy: u8,
  unused12: u16le,
  unused14: u16le,
});

/** The group list (group 0 of `randgrp.dat`): last encountered group, then race + IP_GROUP per group. */
export const stateGroupList = struct({ lastEncGroup: u8, groups: array(struct({ race: u8, group: ipGroup }), u8) });

/** A battle group: the race shown, then race + SHIP_FRAGMENT per ship (none when the group died). */
export const stateBattleGroup = struct({ raceType: u8, ships: array(struct({ race: u8, ship: shipFragment }), u8) });

/** The group slots a GROUP_HEADER has (`MAX_BATTLE_GROUPS`): offsets 1…64, after the list's at 0. */
export const GROUP_SLOTS = 64;

/** NumGroups, refused past the header's {@link GROUP_SLOTS} slots (either way). */
const numGroups = map(u8, {
  name: 'numGroups',
  decode: slotsUsed,
  encode: slotsUsed,
  model: () => map(u8, { decode: (n) => n % (GROUP_SLOTS + 1), encode: (n: number) => n }),
});

function slotsUsed(n: number): number {
  if (n > GROUP_SLOTS) throw new RangeError(`NumGroups ${n} is more than the ${GROUP_SLOTS} slots a GROUP_HEADER has`);
  return n;
}

/**
 * GROUP_HEADER (uqm.md §2.3) — NumGroups, the expiry date, the star, then 65 u32 offsets — declared
 * once: `offsets` is how a use reads the offsets (numbers, pointers, or just the first two).
 */
function groupHeaderWith<F extends Fields>(offsets: F) {
  return struct({ numGroups, day: u8, month: u8, pad3: padding(1), starIndex: u16le, year: u16le, ...offsets });
}

/** A GROUP_HEADER with its offsets as numbers: how `defgrp.dat` headers are read. */
export const groupHeader = groupHeaderWith({ offsets: array(u32le, GROUP_SLOTS + 1) });

/** The size of a GROUP_HEADER (268 bytes). */
export const GROUP_HEADER_SIZE = groupHeader.size as number;

/**
 * A GROUP_HEADER's first 16 bytes (its fields and GroupOffset[0] and [1]): what tells a header from
 * other bytes, for sniffers and for finding `defgrp.dat`'s next header.
 */
export const groupHeaderLead = groupHeaderWith({ offsets: array(u32le, 2) });

/** The GROUP_HEADER of `randgrp.dat`, its offsets as pointers to the list and the groups. */
export const randomGroupHeader = groupHeaderWith({
  list: pointer(u32le, stateGroupList),
  groups: array(pointer(u32le, stateBattleGroup), GROUP_SLOTS),
});

/** A decoded `randgrp.dat`. */
export type RandomGroups = Arena<TypeOf<typeof randomGroupHeader>>;
export type StateBattleGroup = TypeOf<typeof stateBattleGroup>;
export type StateGroupList = TypeOf<typeof stateGroupList>;
export type GroupHeader = TypeOf<typeof groupHeader>;

const randomArena = arena(randomGroupHeader);

function sizeOf<A>(codec: Codec<A>, value: A): number {
  const out = encode(codec, value);
  return E.isRight(out) ? out.right.length : 0;
}

/** The bytes a battle group takes, as {@link stateBattleGroup} writes it (0 for one it refuses). */
export function battleGroupSize(group: StateBattleGroup): number {
  return sizeOf(stateBattleGroup, group);
}

/**
 * `randgrp.dat`: a header at 0, the group list and groups wherever its offsets say — which must not
 * overlap each other or the header (the one rule the game has, uqm.md §2.4).
 */
export const randomGroups: Codec<RandomGroups> = withHooks(
  randomArena,
  {
    afterRead(value, { start, path }) {
      const extents: Extent[] = [];
      const add = <A>(p: Pointer<A> | null, codec: Codec<A>, what: string) => {
        if (p !== null && p.at !== undefined) extents.push([p.at, p.at + sizeOf(codec, p.target), what]);
      };
      add(value.root.list, stateGroupList, 'the group list');
      value.root.groups.forEach((g, i) => {
        add(g, stateBattleGroup, `group ${i + 1}`);
      });
      const clash = overlapIn(extents);
      if (clash !== undefined) throw new DecodeError([...path, 'root'], clash.at ?? start, clash.message);
    },
  },
  'randomGroups',
);

/** A byte range of a state file, and what it holds. */
type Extent = [start: number, end: number, what: string];

/** The first two extents that overlap (or start together), said in a sentence with where. */
function overlapIn(extents: Extent[]): { at: number; message: string } | undefined {
  const sorted = [...extents].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < sorted.length; i++) {
    const [at, , what] = sorted[i]!;
    const [prevStart, prevEnd, prevWhat] = sorted[i - 1]!;
    if (at === prevStart) return { at, message: `${what} and ${prevWhat} are at the same offset ${at}` };
    if (at < prevEnd) return { at, message: `${what} at ${at} overlaps ${prevWhat} (${prevStart}–${prevEnd})` };
  }
  return undefined;
}

/** A header of `defgrp.dat` with its groups, and where it was. */
export interface DefinedGroup {
  /** Encounter id (1…14, the DEFGRP index). */
  id: number;
  /** The header's offset in `defgrp.dat` (what the game state holds). */
  at: number;
  header: GroupHeader;
  /** The groups its offsets 1…numGroups point to (`null` for a zero offset). */
  groups: Array<StateBattleGroup | null>;
}

/** `defgrp.dat`'s first byte, reserved: always 0. */
export const defgrpReservedByte = map(u8, {
  name: 'reservedByte',
  decode: (b) => {
    if (b !== 0) throw new Error('defgrp.dat must start with its reserved zero byte');
    return b;
  },
  encode: (b: number) => b,
  model: () => map(u8, { decode: () => 0, encode: (b: number) => b }),
});

/** The JSON form of a header's groups (`null` for a zero offset). */
export const groupSlotsJson = jsonArray(t.union([t.null, stateBattleGroup.json])) as unknown as t.Type<
  Array<StateBattleGroup | null>,
  unknown,
  unknown
>;

const definedGroupJson = t.type({
  id: t.number,
  at: t.number,
  header: groupHeader.json,
  groups: groupSlotsJson,
}) as unknown as t.Type<DefinedGroup, unknown, unknown>;

/**
 * The groups a header's offsets 1…NumGroups point to, each read where its offset says (`null` for a
 * zero offset); `extents` gets the bytes each took. Only read: {@link writeDefinedGroups} lays out.
 *
 * A codec of its own, not `pointer`s: the offsets are file positions relative to a header that is
 * itself placed from outside the file, and every group's extent joins one overlap check for the file.
 */
function groupsAt(header: GroupHeader, extents: Extent[], id: number): Codec<Array<StateBattleGroup | null>> {
  return defineCodec<Array<StateBattleGroup | null>>({
    name: 'definedGroupsAt',
    def: customDef('uqmGroupsAt', { samples: [[]] }),
    json: groupSlotsJson,
    minSize: 0,
    read(r) {
      return header.offsets.slice(1, header.numGroups + 1).map((offset, i) => {
        if (offset === 0) return null;
        if (offset >= r.end - r.start)
          throw r.errorAt(i, `offset ${offset} is past the end (${r.end - r.start} bytes)`, r.start + offset);
        const at = r.at(r.start + offset, r.start, r.end);
        const group = readChild(at, i, stateBattleGroup);
        extents.push([offset, at.pos - r.start, `group ${i + 1} of encounter ${id}`]);
        return group;
      });
    },
    write(w) {
      throw w.error('the groups are written by writeDefinedGroups');
    },
  });
}

/**
 * The encounters' headers of a `defgrp.dat` at the offsets given (encounter id → offset, in id
 * order), with their groups; nothing may overlap. Only read (the layout is planned by
 * {@link writeDefinedGroups}).
 *
 * A codec of its own, not a declaration: where each header is comes from outside the file (the game
 * state's `X_GRPOFFS`), so no field of the file points to it, and blocks may lie anywhere in any order.
 */
function definedGroupsAt(offsets: ReadonlyArray<readonly [id: number, at: number]>): Codec<DefinedGroup[]> {
  return defineCodec<DefinedGroup[]>({
    name: 'definedGroupsAt',
    def: customDef('uqmDefinedGroupsAt', { samples: [[]] }),
    json: jsonArray(definedGroupJson) as unknown as t.Type<DefinedGroup[], unknown, unknown>,
    minSize: 1,
    read(r) {
      const size = r.end - r.start;
      defgrpReservedByte.read(r);
      const extents: Extent[] = [[0, 1, 'the reserved byte']];
      const out = offsets.map(([id, at], index): DefinedGroup => {
        if (!Number.isSafeInteger(at) || at < 0 || at >= size)
          throw r.errorAt(index, `encounter ${id}: offset ${at} is outside the file (${size} bytes)`, r.start);
        const block = r.at(r.start + at, r.start, r.end);
        return readChild(block, index, definedGroupAt(id, extents));
      });
      const clash = overlapIn(extents.filter(([a, b]) => a < b));
      if (clash !== undefined) throw r.error(clash.message, r.start + clash.at);
      r.pos = r.end;
      return out;
    },
    write(w) {
      throw w.error('defgrp.dat is written by writeDefinedGroups');
    },
  });
}

/**
 * One encounter's header, at the reader's position, and its groups.
 *
 * A codec of its own, not a struct: its `id` and `at` come from the game state, not from bytes.
 */
function definedGroupAt(id: number, extents: Extent[]): Codec<DefinedGroup> {
  return defineCodec<DefinedGroup>({
    name: 'definedGroupAt',
    def: customDef('uqmDefinedGroupAt', { samples: [] }),
    json: definedGroupJson,
    minSize: GROUP_HEADER_SIZE,
    read(r) {
      const at = r.pos - r.start;
      const header = readChild(r, 'header', groupHeader);
      extents.push([at, r.pos - r.start, `the header of encounter ${id}`]);
      return { id, at, header, groups: readChild(r, 'groups', groupsAt(header, extents, id)) };
    },
    write(w) {
      throw w.error('defgrp.dat is written by writeDefinedGroups');
    },
  });
}

/**
 * Reads the headers of `defgrp.dat` at the offsets the game state gives (encounter id → offset), and
 * their groups. Byte 0 must be the reserved zero; a header or group outside the file, over byte 0 or
 * over another one is a DecodeError, its path that of the value in the result (`[0].groups[2]`, the
 * third group of the first encounter by id). `options` are those of a decode: the headers and groups are
 * read with one budget.
 */
export function readDefinedGroups(
  bytes: Uint8Array,
  offsets: ReadonlyMap<number, number>,
  options?: DecodeOptions,
): E.Either<DecodeError, DefinedGroup[]> {
  const codec = definedGroupsAt([...offsets].sort((a, b) => a[0] - b[0]));
  return E.map((decoded: { value: DefinedGroup[] }) => decoded.value)(decode(codec, bytes, options));
}

/**
 * The largest `defgrp.dat` {@link writeDefinedGroups} lays out: 64 KiB, the top of the state files'
 * range (the statefiles doc: "largish (10-64KB)"); the game's own holds at most 14 small blocks.
 */
export const DEFGRP_MAX_SIZE = 0x10000;

/** A defined group asked to sit at an offset `defgrp.dat` cannot have (0, negative, or past {@link DEFGRP_MAX_SIZE}). */
export class DefinedGroupOffsetError extends RangeError {
  /** The encounter id (1…14) and the offset asked for. */
  constructor(
    readonly id: number,
    readonly offset: number,
  ) {
    super(
      `encounter ${id}: defgrp.dat offset ${offset} is not 1 to ${DEFGRP_MAX_SIZE - GROUP_HEADER_SIZE} (the file is at most ${DEFGRP_MAX_SIZE} bytes)`,
    );
    this.name = 'DefinedGroupOffsetError';
  }
}

/**
 * Writes `defgrp.dat`: the reserved zero byte, then each header — at its `at` when given and free
 * (its groups right after it), else at the end — and returns the bytes and each encounter's offset.
 * An `at` outside 1…{@link DEFGRP_MAX_SIZE} − {@link GROUP_HEADER_SIZE} is a {@link DefinedGroupOffsetError}.
 */
export function writeDefinedGroups(groups: ReadonlyArray<Omit<DefinedGroup, 'at'> & { at?: number }>): {
  bytes: Uint8Array;
  offsets: Map<number, number>;
} {
  // A wanted offset sizes the file: refuse one that would make it larger than a state file gets.
  for (const g of groups) {
    if (g.at !== undefined && (!Number.isSafeInteger(g.at) || g.at < 1 || g.at > DEFGRP_MAX_SIZE - GROUP_HEADER_SIZE))
      throw new DefinedGroupOffsetError(g.id, g.at);
  }
  const blocks = groups.map((g) => {
    const body = g.groups.map((group) => (group === null ? new Uint8Array(0) : must(encode(stateBattleGroup, group))));
    return { g, size: GROUP_HEADER_SIZE + body.reduce((n, b) => n + b.length, 0), body };
  });
  // Place the blocks that ask for an offset first (in offset order), where they fit; then the rest.
  const placed = new Map<number, number>();
  const taken: Array<[number, number]> = [[0, 1]];
  const fits = (at: number, size: number) => taken.every(([a, b]) => at + size <= a || at >= b);
  for (const block of [...blocks]
    .filter((b) => b.g.at !== undefined)
    .sort((a, b) => (a.g.at as number) - (b.g.at as number))) {
    const at = block.g.at as number;
    if (at >= 1 && fits(at, block.size)) {
      placed.set(block.g.id, at);
      taken.push([at, at + block.size]);
    }
  }
  let end = Math.max(...taken.map(([, b]) => b));
  for (const block of blocks) {
    if (placed.has(block.g.id)) continue;
    placed.set(block.g.id, end);
    taken.push([end, end + block.size]);
    end += block.size;
  }
  const out = new Uint8Array(Math.max(...taken.map(([, b]) => b)));
  for (const block of blocks) {
    const at = placed.get(block.g.id) as number;
    const offsets = block.g.header.offsets.slice();
    let cursor = at + GROUP_HEADER_SIZE;
    block.g.groups.forEach((group, i) => {
      offsets[i + 1] = group === null ? 0 : cursor;
      const body = block.body[i]!; // body is groups.map(...)
      out.set(body, cursor);
      cursor += body.length;
    });
    out.set(must(encode(groupHeader, { ...block.g.header, offsets })), at);
  }
  return { bytes: out, offsets: placed };
}

function must<A>(result: E.Either<{ toString(): string }, A>): A {
  if (E.isLeft(result)) throw new Error(result.left.toString());
  return result.right;
}
