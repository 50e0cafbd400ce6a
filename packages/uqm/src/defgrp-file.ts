/**
 * `defgrp.dat` on its own (uqm.md §2.5): the reserved zero byte, then one block per defined encounter
 * the game spawned, appended in the order it spawned them — a GROUP_HEADER (NumGroups 1, GroupOffset[0]
 * 0, GroupOffset[1] = the header's offset + 268) and its group right after it. The file does not say
 * which encounter a block is: the game state's `X_GRPOFFS` entries do ({@link definedGroupsIn}).
 *
 * A group the game rewrote in place after a battle (`PutGroupInfo`) can be shorter than it was: the
 * bytes it no longer uses stay in the file until the next header; they are kept as the block's
 * `stale` bytes, so a file reads back byte for byte.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  array,
  bytes,
  bytesUntil,
  map,
  maybe,
  padding,
  patch,
  struct,
  u16le,
  u32le,
  u8,
  type Codec,
} from '@savekit/core';
import { customDef, defineCodec, jsonArray, jsonBytes, readChild, writeChild } from '@savekit/core/kit';
import {
  battleGroupSize,
  defgrpReservedByte,
  GROUP_HEADER_SIZE,
  GROUP_SLOTS,
  groupHeader,
  groupHeaderLead,
  groupSlotsJson,
  stateBattleGroup,
  type GroupHeader,
  type StateBattleGroup,
} from './groups.js';
import type { GameState } from './game-state.js';
import { DEFINED_GROUPS, groupOffsetEntry } from './game-state.js';

/** One spawned defined encounter: its header's dates and star, its groups, and bytes left after them. */
export interface DefinedGroupBlock {
  /** Expiry day, month and year the header holds (the game never checks them for defined groups). */
  day: number;
  month: number;
  year: number;
  /** The star the group was spawned at (index into the star table, 0…501). */
  starIndex: number;
  /** Its padding byte, when not zero. */
  pad3?: Uint8Array;
  /** The groups (NumGroups of them); `null` for a zero offset. The game writes exactly one. */
  groups: Array<StateBattleGroup | null>;
  /** Bytes after the groups, before the next header: what a group rewritten shorter left behind. */
  stale?: Uint8Array;
}

/** A decoded `defgrp.dat`. */
export interface DefinedGroupsFile {
  /** The blocks in file order; block i's header is at 1 + the sizes of the blocks before it. */
  blocks: DefinedGroupBlock[];
}

/**
 * A block's stale bytes: up to the next place whose bytes read as a header the game appends
 * (NumGroups 1…64, GroupOffset[0] 0, GroupOffset[1] its own offset + 268, the whole header in the
 * file), or the end — the core's `bytesUntil` over the header's lead; none is `undefined`.
 */
const staleBytes = map(
  bytesUntil(groupHeaderLead, {
    need: GROUP_HEADER_SIZE,
    where: (lead, at) => lead.numGroups >= 1 && lead.offsets[0] === 0 && lead.offsets[1] === at + GROUP_HEADER_SIZE,
  }),
  {
    name: 'stale',
    decode: (stale): Uint8Array | undefined => (stale.length === 0 ? undefined : stale),
    encode: (stale: Uint8Array | undefined) => stale ?? new Uint8Array(0),
  },
);

/** The byte size a block takes in the file (header, groups, stale bytes). */
export function blockSize(block: DefinedGroupBlock): number {
  let size = GROUP_HEADER_SIZE + (block.stale?.length ?? 0);
  for (const g of block.groups) if (g !== null) size += battleGroupSize(g);
  return size;
}

/**
 * Where each block's header is (what the game state's `X_GRPOFFS` entries hold): 1, then each after
 * the one before.
 */
export function blockOffsets(file: DefinedGroupsFile): number[] {
  let at = 1;
  return file.blocks.map((b) => {
    const here = at;
    at += blockSize(b);
    return here;
  });
}

/**
 * The encounter each block is (uqm.md §4's DEFGRP ids, 1…14), from the game state's offsets: for each
 * encounter whose `X_GRPOFFS` is not 0, its id and the block index, or -1 when no block starts there.
 */
export function definedGroupsIn(
  file: DefinedGroupsFile,
  state: GameState,
): Array<{ id: number; name: string; block: number }> {
  const offsets = blockOffsets(file);
  const out: Array<{ id: number; name: string; block: number }> = [];
  DEFINED_GROUPS.forEach((name, i) => {
    const at = state[groupOffsetEntry(i + 1)] ?? 0;
    if (at !== 0) out.push({ id: i + 1, name, block: offsets.indexOf(at) });
  });
  return out;
}

const OFFSET_SIZE = u32le.size as number;

/** Where GroupOffset[k] is in a GROUP_HEADER: its lead (the declaration's) ends with GroupOffset[0] and [1]. */
const offsetAt = (k: number): number => (groupHeaderLead.size as number) - (2 - k) * OFFSET_SIZE;

/** A GROUP_HEADER's layout: how many slots it uses and where their groups are. */
type HeaderLayout = Pick<GroupHeader, 'numGroups' | 'offsets'>;

/** The layout of each header {@link blockHeader} read, by the value it gave. */
const headerLayout = new WeakMap<object, HeaderLayout>();

/**
 * A block's GROUP_HEADER as the block shows it: its date, star and padding. NumGroups and the
 * offsets are layout — the block's groups say them — so they are kept aside for reading the groups
 * ({@link headerLayout}), and trace spans show them as annotations rather than document paths.
 */
const blockHeader = map(groupHeader, {
  name: 'definedGroupHeader',
  decode: ({ numGroups, offsets, ...date }) => {
    headerLayout.set(date, { numGroups, offsets });
    return date;
  },
  encode: (date) => ({
    ...date,
    ...(headerLayout.get(date) ?? { numGroups: 0, offsets: new Array<number>(GROUP_SLOTS + 1).fill(0) }),
  }),
});

/** Whether a header (read at `at`) is one the game appends: a first group right after it, no list. */
function looksAppended(header: HeaderLayout, at: number): boolean {
  return header.numGroups >= 1 && header.offsets[0] === 0 && header.offsets[1] === at + GROUP_HEADER_SIZE;
}

const blockJson = t.intersection([
  t.type({
    day: t.number,
    month: t.number,
    year: t.number,
    starIndex: t.number,
    groups: groupSlotsJson,
  }),
  t.partial({ pad3: jsonBytes(), stale: jsonBytes() }),
]);

const SAMPLE: DefinedGroupsFile = {
  blocks: [{ day: 8, month: 2, year: 2155, starIndex: 82, groups: [{ raceType: 18, ships: [] }] }],
};

/**
 * A block's groups, each right after the one before in slot order: read against the header's
 * `offsets` (a group elsewhere is a DecodeError at that GroupOffset), written filling them in.
 *
 * A codec of its own, not `pointer`s: the game's rule is that the groups follow the header in slot
 * order, contiguous — pointers would accept them anywhere and plan another layout on write.
 */
function groupList(
  offsets: number[],
  numGroups: number,
  base: number,
  at: number,
): Codec<Array<StateBattleGroup | null>> {
  return defineCodec<Array<StateBattleGroup | null>>({
    name: 'definedGroupList',
    def: customDef('uqmDefinedGroupList', { samples: [[null]] }),
    json: groupSlotsJson,
    minSize: 0,
    read(r) {
      const groups: Array<StateBattleGroup | null> = [];
      for (let g = 1; g <= GROUP_SLOTS; g++) {
        const offset = offsets[g] as number; // GROUP_SLOTS + 1 offsets
        const where = at + offsetAt(g);
        if (g > numGroups) {
          if (offset !== 0) throw r.error(`GroupOffset[${g}] is past NumGroups but not 0`, where);
        } else if (offset === 0) groups.push(null);
        else if (offset !== r.pos - base)
          throw r.errorAt(
            g - 1,
            `group ${g} is at ${offset}, not right after what comes before it (${r.pos - base})`,
            where,
          );
        else groups.push(readChild(r, g - 1, stateBattleGroup));
      }
      return groups;
    },
    write(w, groups) {
      groups.forEach((g, i) => {
        if (g === null) return;
        offsets[i + 1] = w.length - w.origin;
        writeChild(w, i, stateBattleGroup, g);
      });
    },
  });
}

/**
 * One block: its header, groups and stale bytes, read at `r.pos`, the next header found after it.
 *
 * Its stale bytes are a declaration ({@link staleBytes}, the core's `bytesUntil`: where a block ends is
 * stored nowhere, they run to the next place that reads as an appended header). The header and its
 * groups remain a codec of their own: the header's offsets are file positions (GroupOffset[1] = the
 * block's own offset + 268) no document field holds, and the groups must follow it contiguously in
 * slot order ({@link groupList}) — no core combinator says either.
 */
const definedGroupBlock: Codec<DefinedGroupBlock> = defineCodec<DefinedGroupBlock>({
  name: 'definedGroupBlock',
  def: customDef('uqmDefinedGroupBlock', { samples: SAMPLE.blocks }),
  json: blockJson as unknown as t.Type<DefinedGroupBlock, unknown, unknown>,
  minSize: GROUP_HEADER_SIZE,
  read(r) {
    // Offsets are the file's: from the start of the window the blocks are read in.
    const base = r.start;
    const at = r.pos;
    const date = blockHeader.read(r);
    const header = headerLayout.get(date) as HeaderLayout; // set by blockHeader's decode
    if (!looksAppended(header, at - base))
      throw r.error(`the header at ${at - base} is not one the game appends (GroupOffset[1] = its offset + 268)`, at);
    const groups = readChild(r, 'groups', groupList(header.offsets, header.numGroups, base, at));
    const stale = readChild(r, 'stale', staleBytes);
    const block: DefinedGroupBlock = {
      day: date.day,
      month: date.month,
      year: date.year,
      starIndex: date.starIndex,
      groups,
    };
    if (date.pad3 !== undefined) block.pad3 = date.pad3;
    if (stale !== undefined) block.stale = stale;
    return block;
  },
  write(w, block) {
    if (typeof block !== 'object' || block === null || !Array.isArray(block.groups))
      throw w.error('expected { day, month, year, starIndex, groups }');
    if (block.groups.length < 1 || block.groups.length > GROUP_SLOTS)
      throw w.errorAt('groups', `a header holds 1 to ${GROUP_SLOTS} groups, not ${block.groups.length}`);
    const { day, month, year, starIndex, pad3 } = block;
    const header = { numGroups: block.groups.length, day, month, pad3, starIndex, year };
    // The header first with its offsets 0, patched once the groups say where they are.
    const slot = w.length;
    const offsets = new Array<number>(GROUP_SLOTS + 1).fill(0);
    groupHeader.write(w, { ...header, offsets: offsets.slice() });
    writeChild(w, 'groups', groupList(offsets, header.numGroups, 0, 0), block.groups);
    patch(w, slot, groupHeader, { ...header, offsets });
    writeChild(w, 'stale', staleBytes, block.stale);
  },
});

/**
 * For tools: a codec whose values are the documents {@link definedGroupsFile} writes and reads back —
 * blocks of 1 to 64 groups whose first is there (the game appends a header with its group right
 * after it), stale bytes of at least one byte when there are any.
 */
function definedGroupsModel(): Codec<DefinedGroupsFile> {
  const slot = map(struct({ used: u8, group: (p: { used: number }) => maybe(p.used !== 0, stateBattleGroup) }), {
    decode: ({ group }): StateBattleGroup | null => group ?? null,
    encode: (group: StateBattleGroup | null) => (group === null ? { used: 0, group: undefined } : { used: 1, group }),
  });
  const block = map(
    struct({
      day: u8,
      month: u8,
      year: u16le,
      starIndex: u16le,
      pad3: padding(1),
      first: stateBattleGroup,
      more: array(slot, u8),
      stale: bytes(u8),
    }),
    {
      decode: ({ first, more, stale, pad3, ...date }): DefinedGroupBlock => {
        if (more.length >= GROUP_SLOTS) throw new Error(`a header holds at most ${GROUP_SLOTS} groups`);
        return {
          ...date,
          ...(pad3 === undefined ? {} : { pad3 }),
          groups: [first, ...more],
          ...(stale.length === 0 ? {} : { stale }),
        };
      },
      encode: ({ groups, stale, pad3, day, month, year, starIndex }: DefinedGroupBlock) => ({
        day,
        month,
        year,
        starIndex,
        pad3,
        first: groups[0] as StateBattleGroup,
        more: groups.slice(1),
        stale: stale ?? new Uint8Array(0),
      }),
    },
  );
  return struct({ blocks: array(block, u8) });
}

/**
 * The codec of a standalone `defgrp.dat`: its reserved zero byte, then blocks to the end. Blocks are
 * read from offset 1 on: a header whose groups follow it in slot order (a zero offset for an empty
 * slot), the bytes up to the next header kept as `stale`. A file whose headers point elsewhere — not
 * something the game writes — is a DecodeError at the offset that does not fit. Writing lays the blocks
 * out again one after another, computing the offsets; with the document unchanged that is the file as
 * read.
 */
export const definedGroupsFile: Codec<DefinedGroupsFile> = map(
  struct({ reserved: defgrpReservedByte, blocks: array(definedGroupBlock, 'rest') }),
  {
    name: 'definedGroupsFile',
    decode: ({ blocks }): DefinedGroupsFile => ({ blocks }),
    encode: (file: DefinedGroupsFile) => ({ reserved: 0, blocks: file.blocks }),
    json: t.type({ blocks: jsonArray(blockJson) }) as unknown as t.Type<DefinedGroupsFile, unknown, unknown>,
    model: definedGroupsModel,
  },
);
