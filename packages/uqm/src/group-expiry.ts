/**
 * When the game throws encounter groups away (uqm.md §2.4, and V `grpinfo.c` `GetGroupInfo`). On
 * entering a system (`GROUP_INIT_IP`, also right after loading a save made there) the game reads
 * `randgrp.dat`'s header and erases every random group unless both hold:
 *
 * - the header's star is the system entered, and
 * - its expiry date has not passed: `clock.c` `ValidateEvent(ABSOLUTE_EVENT, …)` is true while the
 *   date is not before today (the expiry day itself still counts).
 *
 * The groups are then built afresh (`BuildGroups`) with an expiry a week on (`PutGroupInfo`). Defined
 * groups (`defgrp.dat`: the probe, the Melnorme traders, …) carry a date too, but only random groups
 * are checked: they never expire.
 *
 * @module
 */
import { isRawChunk } from '@savekit/core';
import { chunkOf } from './edits.js';
import { DEFINED_GROUPS } from './game-state.js';
import type { BattleGroups, GlobalState } from './records.js';
import type { LegacySave } from './legacy.js';
import type { UqmSave } from './save.js';
import type { GameDate } from './sis-edits.js';

/** What the game will do with one set of encounter groups. */
export interface GroupExpiry {
  /** 0 for the random groups, else the defined encounter's id (1…14). */
  encounterId: number;
  /** `RANDOM` or the `DEFGRP` name (`URQUAN_PROBE`). */
  name: string;
  /** The star the groups are at (0xFFFF: none, a fresh header). */
  star: number;
  /** The groups' expiry date as stored. */
  expires: GameDate;
  /** How many group slots (random: NumGroups; defined: 1). */
  groups: number;
  /** Whether the date is before the game clock's today (only random groups act on it). */
  expired: boolean;
  /**
   * Whether the game will throw the groups away and build new ones when the player next enters a
   * system: always for expired random groups or those of no star; for random groups still in date,
   * only when the system entered is not `star` — true when `options.currentStar` is given and differs,
   * else false (they survive a visit to `star`). Never for defined groups.
   */
  regenerated: boolean;
}

/** Whether date `a` is before date `b` (`ValidateEvent`'s comparison). */
export function isBefore(a: GameDate, b: GameDate): boolean {
  if (a.year !== b.year) return a.year < b.year;
  if (a.month !== b.month) return a.month < b.month;
  return a.day < b.day;
}

function entry(
  encounterId: number,
  head: { starIndex: number; day: number; month: number; year: number },
  groups: number,
  today: GameDate,
  currentStar: number | undefined,
): GroupExpiry {
  const expires = { day: head.day, month: head.month, year: head.year };
  const expired = isBefore(expires, today);
  const random = encounterId === 0;
  const elsewhere = head.starIndex === 0xffff || (currentStar !== undefined && currentStar !== head.starIndex);
  return {
    encounterId,
    name: random ? 'RANDOM' : (DEFINED_GROUPS[encounterId - 1] ?? `encounter ${encounterId}`),
    star: head.starIndex,
    expires,
    groups,
    expired,
    regenerated: random && (expired || elsewhere),
  };
}

/**
 * The encounter groups of a save (0.8/MegaMod `BtGp` chunks, or a 0.7 save's `randgrp.dat`), with
 * what the game will do with each when the player next enters a system — `currentStar` being the
 * star-table index of that system when the caller knows it.
 */
export function groupExpiry(save: UqmSave | LegacySave, options: { currentStar?: number } = {}): GroupExpiry[] {
  const { currentStar } = options;
  if (!('magic' in save)) {
    const stream = save.stream.value;
    const today = { day: stream.globals.day, month: stream.globals.month, year: stream.globals.year };
    const rand = stream.randgrp;
    if ('$raw' in rand) return []; // a randgrp.dat that did not decode: nothing to tell
    return [entry(0, rand.root, rand.root.numGroups, today, currentStar)];
  }
  const gl = chunkOf(save, 'GlSt')?.body as GlobalState | undefined;
  if (gl === undefined) return [];
  const today = { day: gl.day, month: gl.month, year: gl.year };
  return save.chunks
    .flatMap((c) => (c.id === 'BtGp' && !isRawChunk(c) ? [c.body as BattleGroups] : []))
    .map((b) => {
      return entry(b.encounterId, b, b.groups.length, today, currentStar);
    });
}
