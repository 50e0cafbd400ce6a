/**
 * The game-state bitfield (uqm.md §4): named entries packed least-significant bit first, as core bit
 * fields. Vanilla 0.8 (155 bytes), the 0.7 layout of the same entries (the legacy save's), and
 * MegaMod's revisions 1–5 (157 … 309 bytes). The 14 defined-group offsets are 32-bit entries
 * `X_GRPOFFS`, assembled from vanilla's `X_GRPOFFS0..3` bytes.
 *
 * @module
 */
import { bits, type BitFieldSpec, type Codec } from '@savekit/core';
import { MEGAMOD_REVISIONS, VANILLA_STATE } from './state-tables.js';

/** A decoded game state: entry name → value (the unused high bits of the last byte in `$pad`). */
export type GameState = Record<string, number>;

function parse(text: string): Array<[string, number]> {
  return text
    .trim()
    .split(/\s+/)
    .map((item) => {
      const [name, width] = item.split('/');
      return [name!, Number(width)]; // split gives at least one part
    });
}

/** Every vanilla entry with its width, in bit order. */
export const VANILLA_ENTRIES: ReadonlyArray<readonly [string, number]> = parse(VANILLA_STATE);

/** The defined encounters (DEFGRP index = BtGp encounter id, 1…14) and their offset entries. */
export const DEFINED_GROUPS: ReadonlyArray<string> = [
  'SHOFIXTI',
  'ZOQFOT',
  'MELNORME0',
  'MELNORME1',
  'MELNORME2',
  'MELNORME3',
  'MELNORME4',
  'MELNORME5',
  'MELNORME6',
  'MELNORME7',
  'MELNORME8',
  'URQUAN_PROBE',
  'COLONY',
  'SAMATRA',
];

/** The game-state entry holding encounter `id`'s defgrp offset (`URQUAN_PROBE_GRPOFFS` for 12). */
export function groupOffsetEntry(id: number): string {
  const name = DEFINED_GROUPS[id - 1];
  if (name === undefined)
    throw new RangeError(`encounter ${id} is not a defined group (1 to ${DEFINED_GROUPS.length})`);
  return `${name}_GRPOFFS`;
}

function sequential(entries: ReadonlyArray<readonly [string, number]>, bytes: number): Record<string, BitFieldSpec> {
  const fields: Record<string, BitFieldSpec> = {};
  let at = 0;
  for (const [name, width] of entries) {
    fields[name] = { at, width };
    at += width;
  }
  if (bytes * 8 > at) fields.$pad = { at, width: bytes * 8 - at };
  return fields;
}

/** Byte sizes of MegaMod's game-state revisions 0–5 (`getGameStateRevByBytes`). */
export const MEGAMOD_STATE_SIZES: ReadonlyArray<number> = [155, 157, 229, 297, 305, 309];

const revisionEntries = (revision: number) => [
  ...VANILLA_ENTRIES,
  ...MEGAMOD_REVISIONS.slice(0, revision).flatMap(parse),
];

const cache = new Map<number, Codec<GameState>>();

/**
 * The game state of MegaMod revision `revision` (0 = vanilla 0.8, 155 bytes; 5 = MMV4, 309 bytes),
 * least-significant bit first.
 */
export function gameState(revision = 0): Codec<GameState> {
  let codec = cache.get(revision);
  if (codec === undefined) {
    const size = MEGAMOD_STATE_SIZES[revision];
    if (size === undefined) throw new RangeError(`no game-state revision ${revision}`);
    codec = bits(sequential(revisionEntries(revision), size), { order: 'lsb', bytes: size }) as Codec<GameState>;
    cache.set(revision, codec);
  }
  return codec;
}

/** The revision a game-state size means, or undefined. */
export function revisionOfSize(bytes: number): number | undefined {
  const revision = MEGAMOD_STATE_SIZES.indexOf(bytes);
  return revision < 0 ? undefined : revision;
}

// The 0.7 layout (`InterpretLegacyGameState`): ranges copied to 0.8 positions, and the group offsets
// where 0.7 kept them.
const TRANSPOSE: ReadonlyArray<readonly [from07: number, to08: number, length: number]> = [
  [0, 0, 52],
  [404, 52, 47],
  [483, 99, 396],
  [911, 495, 20],
  [963, 515, 275],
];
const LEGACY_GROUP_OFFSETS = [52, 84, 116, 148, 180, 212, 244, 276, 308, 340, 372, 451, 879, 931];

function legacyFields(): Record<string, BitFieldSpec> {
  const fields: Record<string, BitFieldSpec> = {};
  let at08 = 0;
  for (const [name, width] of VANILLA_ENTRIES) {
    const start = at08;
    at08 += width;
    const group = DEFINED_GROUPS.findIndex((g) => `${g}_GRPOFFS` === name);
    if (group >= 0) {
      fields[name] = { at: LEGACY_GROUP_OFFSETS[group]!, width }; // one offset per defined group
      continue;
    }
    const range = TRANSPOSE.find(([, to, length]) => start >= to && start + width <= to + length);
    if (range === undefined) throw new Error(`entry ${name} crosses a transposed range`);
    fields[name] = { at: range[0] + (start - range[1]), width };
  }
  fields.$pad = { at: 1238, width: 2 };
  return fields;
}

let legacy: Codec<GameState> | undefined;

/** The 0.7 layout of the same entries (155 bytes), as the legacy save stores it. */
export function legacyGameState(): Codec<GameState> {
  legacy ??= bits(legacyFields(), { order: 'lsb', bytes: 155 }) as Codec<GameState>;
  return legacy;
}
