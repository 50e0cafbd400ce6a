/**
 * The battle-group state files (uqm.md §2): `randgrp.dat` — a GROUP_HEADER whose 65 offsets point to
 * the group list and the random groups — and `defgrp.dat` — a reserved zero byte, then a header per
 * defined encounter at the offsets the game state holds. Offsets are core pointers: reading refuses
 * one into a header, outside the file or over another group; writing plans the layout.
 *
 * @module
 */
import {
  arena,
  array,
  bits,
  BudgetError,
  DecodeError,
  decode,
  encode,
  i16le,
  padding,
  pointer,
  struct,
  u16le,
  u32le,
  u8,
  type Arena,
  type Codec,
  type DecodeOptions,
  type Pointer,
  type TypeOf,
  withHooks,
} from '@savekit/core';
import { DecodeBudget } from '@savekit/core/kit';
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

/** GROUP_HEADER's fields before the offsets (8 bytes). */
const headerStart = {
  numGroups: u8,
  day: u8,
  month: u8,
  pad3: padding(1),
  starIndex: u16le,
  year: u16le,
};

/** A GROUP_HEADER with its offsets as numbers (268 bytes): how `defgrp.dat` headers are read. */
export const groupHeader = struct({ ...headerStart, offsets: array(u32le, 65) });

/** The GROUP_HEADER of `randgrp.dat`, its offsets as pointers to the list and the groups. */
export const randomGroupHeader = struct({
  ...headerStart,
  list: pointer(u32le, stateGroupList),
  groups: array(pointer(u32le, stateBattleGroup), 64),
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

/**
 * `randgrp.dat`: a header at 0, the group list and groups wherever its offsets say — which must not
 * overlap each other or the header (the one rule the game has, uqm.md §2.4).
 */
export const randomGroups: Codec<RandomGroups> = withHooks(
  randomArena,
  {
    beforeWrite(value) {
      // The game's header has 64 slots; a larger NumGroups would read back as another file.
      const n = (value as RandomGroups | undefined)?.root?.numGroups;
      if (typeof n === 'number' && n > 64)
        throw new Error(`NumGroups ${n} is more than the 64 slots a GROUP_HEADER has`);
    },
    afterRead(value, { start, path }) {
      if (value.root.numGroups > 64)
        throw new DecodeError(
          [...path, 'root', 'numGroups'],
          start,
          `NumGroups ${value.root.numGroups} is more than the 64 slots a GROUP_HEADER has`,
        );
      const extents: Array<[number, number, string]> = [];
      const add = <A>(p: Pointer<A> | null, codec: Codec<A>, what: string) => {
        if (p !== null && p.at !== undefined) extents.push([p.at, p.at + sizeOf(codec, p.target), what]);
      };
      add(value.root.list, stateGroupList, 'the group list');
      value.root.groups.forEach((g, i) => {
        add(g, stateBattleGroup, `group ${i + 1}`);
      });
      extents.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < extents.length; i++) {
        const [at, , what] = extents[i]!;
        const [prevStart, prevEnd, prevWhat] = extents[i - 1]!;
        if (at === prevStart)
          throw new DecodeError([...path, 'root'], at, `${what} and ${prevWhat} are at the same offset ${at}`);
        if (at < prevEnd)
          throw new DecodeError(
            [...path, 'root'],
            at,
            `${what} at ${at} overlaps ${prevWhat} (${prevStart}–${prevEnd})`,
          );
      }
    },
  },
  'randomGroups',
);

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

/**
 * Reads the headers of `defgrp.dat` at the offsets the game state gives (encounter id → offset), and
 * their groups. Byte 0 must be the reserved zero; a header or group outside the file, over byte 0 or
 * over another one is a DecodeError, its path that of the value in the result (`[0].groups[2]`, the
 * third group of the first encounter by id). `options` are those of a decode: the headers and groups are
 * read with one budget (`DecodeBudget.of(options, bytes.length)`, or `options.budget` when given).
 */
export function readDefinedGroups(
  bytes: Uint8Array,
  offsets: ReadonlyMap<number, number>,
  options?: DecodeOptions,
): E.Either<DecodeError, DefinedGroup[]> {
  if (bytes.length === 0 || bytes[0] !== 0)
    return E.left(new DecodeError([], 0, 'defgrp.dat must start with its reserved zero byte'));
  // One budget for the whole file: every header and group is a nested decode that spends from it.
  const budget = DecodeBudget.of(options, bytes.length);
  const nested: DecodeOptions = { ...options, trailing: 'keep', budget };
  const out: DefinedGroup[] = [];
  const extents: Array<[number, number, string]> = [[0, 1, 'the reserved byte']];
  for (const [id, at] of [...offsets].sort((a, b) => a[0] - b[0])) {
    // Errors name the encounter's place in the result (`[index].header.numGroups`, `[index].groups[0]`).
    const index = out.length;
    if (!Number.isSafeInteger(at) || at < 0 || at >= bytes.length)
      return E.left(
        new DecodeError([index, 'at'], 0, `encounter ${id}: offset ${at} is outside the file (${bytes.length} bytes)`),
      );
    const header = decode(groupHeader, bytes.subarray(at), nested);
    if (E.isLeft(header) && header.left instanceof BudgetError) return E.left(header.left);
    if (E.isLeft(header))
      return E.left(
        new DecodeError([index, 'header', ...header.left.path], at + header.left.offset, header.left.message),
      );
    extents.push([at, at + 268, `the header of encounter ${id}`]);
    const groups: Array<StateBattleGroup | null> = [];
    for (let g = 1; g <= header.right.value.numGroups && g < 65; g++) {
      const offset = header.right.value.offsets[g]!; // g < 65, and the header holds 65 offsets
      if (offset === 0) {
        groups.push(null);
        continue;
      }
      const group =
        offset < bytes.length
          ? decode(stateBattleGroup, bytes.subarray(offset), nested)
          : E.left(new DecodeError([], 0, `offset ${offset} is past the end (${bytes.length} bytes)`));
      if (E.isLeft(group) && group.left instanceof BudgetError) return E.left(group.left);
      if (E.isLeft(group))
        return E.left(
          new DecodeError([index, 'groups', g - 1, ...group.left.path], offset + group.left.offset, group.left.message),
        );
      extents.push([offset, offset + 2 + 17 * group.right.value.ships.length, `group ${g} of encounter ${id}`]);
      groups.push(group.right.value);
    }
    if (header.right.value.numGroups > 64)
      return E.left(
        new DecodeError(
          [index, 'header', 'numGroups'],
          at,
          `encounter ${id}: NumGroups ${header.right.value.numGroups} is more than the 64 slots`,
        ),
      );
    out.push({ id, at, header: header.right.value, groups });
  }
  extents.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < extents.length; i++) {
    const [start, , what] = extents[i]!;
    const [prevStart, prevEnd, prevWhat] = extents[i - 1]!;
    if (start < prevEnd)
      return E.left(new DecodeError([], start, `${what} at ${start} overlaps ${prevWhat} (${prevStart}–${prevEnd})`));
  }
  return E.right(out);
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
      `encounter ${id}: defgrp.dat offset ${offset} is not 1 to ${DEFGRP_MAX_SIZE - 268} (the file is at most ${DEFGRP_MAX_SIZE} bytes)`,
    );
    this.name = 'DefinedGroupOffsetError';
  }
}

/**
 * Writes `defgrp.dat`: the reserved zero byte, then each header — at its `at` when given and free
 * (its groups right after it), else at the end — and returns the bytes and each encounter's offset.
 * An `at` outside 1…{@link DEFGRP_MAX_SIZE} − 268 is a {@link DefinedGroupOffsetError}.
 */
export function writeDefinedGroups(groups: ReadonlyArray<Omit<DefinedGroup, 'at'> & { at?: number }>): {
  bytes: Uint8Array;
  offsets: Map<number, number>;
} {
  // A wanted offset sizes the file: refuse one that would make it larger than a state file gets.
  for (const g of groups) {
    if (g.at !== undefined && (!Number.isSafeInteger(g.at) || g.at < 1 || g.at > DEFGRP_MAX_SIZE - 268))
      throw new DefinedGroupOffsetError(g.id, g.at);
  }
  const blocks = groups.map((g) => {
    const body = g.groups.map((group) => (group === null ? new Uint8Array(0) : must(encode(stateBattleGroup, group))));
    return { g, size: 268 + body.reduce((n, b) => n + b.length, 0), body };
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
    let cursor = at + 268;
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
