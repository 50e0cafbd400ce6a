/**
 * Save file ⇄ state files (uqm.md §5.2 "How the loader rebuilds the state files", and `SaveGame`):
 * `Scan` is `starinfo.dat` byte for byte; `Grps` and the random `BtGp` become `randgrp.dat`; each
 * defined `BtGp` a header in `defgrp.dat`, whose offsets go into the game state.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, encode, isRawChunk, type KnownChunk, type TypeOf } from '@savekit/core';
import { DEFINED_GROUPS, groupOffsetEntry, type GameState } from './game-state.js';
import {
  battleGroupSize,
  GROUP_HEADER_SIZE,
  GROUP_SLOTS,
  readDefinedGroups,
  randomGroups,
  stateBattleGroup,
  stateGroupList,
  toIpGroup,
  writeDefinedGroups,
  groupHeader,
  DEFGRP_MAX_SIZE,
  type StateBattleGroup,
} from './groups.js';
import type { BattleGroups, GroupList } from './records.js';
import type { KnownChunks, SaveChunk, UqmSave } from './save.js';
import { starInfo, starOffsets, STAR_TABLE_SIZE, type StarInfo } from './star-info.js';
import { chooseRecordSize } from './starinfo-file.js';

/** The state files a save holds, as the game has them in memory. */
export interface StateFiles {
  /** `starinfo.dat`. */
  starinfo: Uint8Array;
  /** `randgrp.dat`. */
  randgrp: Uint8Array;
  /** `defgrp.dat`. */
  defgrp: Uint8Array;
  /** The game state, its `X_GRPOFFS` entries pointing into this `defgrp.dat`. */
  gameState: GameState;
  /** `GLOBAL(BattleGroupRef)`: the offset of the defined group being fought, or 0. */
  battleGroupRef: number;
}

/** How `defgrp.dat` is laid out when a save is turned into state files. */
export type DefgrpLayout =
  /** Exactly as the game's loader does: headers appended in file order, offsets renumbered. */
  | 'loader'
  /**
   * Where the game state says the writer had them (its offsets are the writer's `defgrp.dat`'s), so
   * the offsets stay and converting back gives the identical save; the loader's when they do not fit.
   */
  | 'writer';

function chunk<K extends keyof KnownChunks>(save: UqmSave, id: K): Array<KnownChunk<K, TypeOf<KnownChunks[K]>>> {
  return save.chunks.filter((c) => c.id === id && !isRawChunk(c)) as unknown as Array<
    KnownChunk<K, TypeOf<KnownChunks[K]>>
  >;
}

function gameStateOf(save: UqmSave): GameState {
  const gm = chunk(save, 'GmSt')[0];
  if (gm === undefined) throw new Error('the save has no GmSt chunk');
  if ('raw' in gm.body) throw new Error("the save's game state is of no known revision");
  return gm.body as GameState;
}

function must<A>(result: E.Either<{ toString(): string }, A>): A {
  if (E.isLeft(result)) throw new Error(result.left.toString());
  return result.right;
}

function nibble(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 15)
    throw new RangeError(`${what} ${value} does not fit the state file's nibble`);
  return value;
}

// The state file packs these four in nibbles: refuse, with the field's name, a value that would not fit.
function nibbles<G extends { sysLoc: number; task: number; destLoc: number; orbitPos: number }>(g: G): G {
  nibble(g.sysLoc, 'sys_loc');
  nibble(g.task, 'task');
  nibble(g.destLoc, 'dest_loc');
  nibble(g.orbitPos, 'orbit_pos');
  return g;
}

function byte(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 255)
    throw new RangeError(`${what} ${value} does not fit the state file's byte (the game would truncate it)`);
  return value;
}

function toStateGroup(group: BattleGroups['groups'][number]): StateBattleGroup {
  return {
    raceType: group.icon,
    ships: group.ships.map((s) => ({
      race: s.raceOuter,
      ship: {
        unused0: 0,
        captainsNameIndex: s.captainsNameIndex,
        pad3: 0,
        unused4: 0,
        raceId: s.raceId,
        index: s.index,
        crewLevel: byte(s.crewLevel, 'crew level'),
        maxCrew: byte(s.maxCrew, 'max crew'),
        energyLevel: s.energyLevel,
        maxEnergy: s.maxEnergy,
        unused12: 0,
        unused14: 0,
      },
    })),
  };
}

function fromStateGroup(group: StateBattleGroup | null): BattleGroups['groups'][number] {
  if (group === null) return { icon: 0, ships: [] }; // a zero offset: written as an empty group (uqm.md §8)
  return {
    icon: group.raceType,
    ships: group.ships.map(({ race, ship }) => ({
      raceOuter: race,
      captainsNameIndex: ship.captainsNameIndex,
      raceId: ship.raceId,
      index: ship.index,
      crewLevel: ship.crewLevel,
      maxCrew: ship.maxCrew,
      energyLevel: ship.energyLevel,
      maxEnergy: ship.maxEnergy,
    })),
  };
}

/** Appends bytes to a growing state file and returns where they went. */
class StateFile {
  bytes = new Uint8Array(0);
  append(data: Uint8Array): number {
    const at = this.bytes.length;
    const next = new Uint8Array(at + data.length);
    next.set(this.bytes);
    next.set(data, at);
    this.bytes = next;
    return at;
  }
  set(at: number, data: Uint8Array): void {
    this.bytes.set(data, at);
  }
}

/**
 * The state files a save becomes when the game loads it. `defgrp.dat` is laid out as the writer had
 * it (default; the game state's offsets stay) or exactly as the loader builds it (offsets renumbered).
 */
export function saveToStateFiles(
  save: UqmSave,
  options: { readonly defgrpLayout?: DefgrpLayout | undefined } = {},
): StateFiles {
  const layout = options.defgrpLayout ?? 'writer';
  const record = save.magic === 'UMS\x01' ? 12 : 108;
  const scan = chunk(save, 'Scan')[0];
  const starinfo = scan === undefined ? new Uint8Array(2008) : must(encode(starInfo(record), scan.body as StarInfo));
  const state: GameState = { ...gameStateOf(save) };

  // randgrp.dat: a fresh header (InitGroupInfo), then Grps and the random BtGp in file order.
  const randgrp = new StateFile();
  const header = {
    numGroups: 0,
    day: 0,
    month: 0,
    pad3: undefined,
    starIndex: 0xffff,
    year: 0,
    offsets: new Array<number>(GROUP_SLOTS + 1).fill(0),
  };
  randgrp.append(new Uint8Array(GROUP_HEADER_SIZE));
  const defined: Array<{ id: number; value: BattleGroups }> = [];
  for (const c of save.chunks) {
    if (isRawChunk(c)) continue;
    if (c.id === 'Grps') {
      const list = c.body as GroupList;
      header.offsets[0] = randgrp.bytes.length;
      const entries = list.groups.entries.map((g) => ({ race: g.raceOuter, group: toIpGroup(nibbles(g)) }));
      randgrp.append(must(encode(stateGroupList, { lastEncGroup: list.lastEncGroup, groups: entries })));
    } else if (c.id === 'BtGp') {
      const value = c.body as BattleGroups;
      if (value.encounterId === 0) {
        Object.assign(header, {
          starIndex: value.starIndex,
          day: value.day,
          month: value.month,
          year: value.year,
          numGroups: value.groups.length,
        });
        value.groups.forEach((g, i) => {
          header.offsets[i + 1] = randgrp.append(must(encode(stateBattleGroup, toStateGroup(g))));
        });
      } else defined.push({ id: value.encounterId, value });
    }
  }
  randgrp.set(0, must(encode(groupHeader, header)));

  // defgrp.dat: the reserved byte, then a header per defined group.
  const stale = new Map(defined.map(({ id }) => [id, state[groupOffsetEntry(id)] ?? 0]));
  const wanted = defined.map(({ id, value }) => ({
    id,
    ...(layout === 'writer' && (stale.get(id) ?? 0) > 0 ? { at: stale.get(id) as number } : {}),
    header: {
      numGroups: value.groups.length,
      day: value.day,
      month: value.month,
      pad3: undefined,
      starIndex: value.starIndex,
      year: value.year,
      offsets: new Array<number>(GROUP_SLOTS + 1).fill(0),
    },
    groups: value.groups.map(toStateGroup),
  }));
  if (layout === 'writer' && !writerLayoutFits(wanted)) {
    for (const w of wanted) delete (w as { at?: number }).at;
  }
  const written = writeDefinedGroups(wanted);
  let battleGroupRef = 0;
  for (const name of DEFINED_GROUPS) state[`${name}_GRPOFFS`] = 0;
  for (const { id, value } of defined) {
    const at = written.offsets.get(id) as number;
    state[groupOffsetEntry(id)] = at;
    if (value.current) battleGroupRef = at;
  }
  const defgrp = written.bytes.length > 0 ? written.bytes : Uint8Array.of(0);
  return { starinfo, randgrp: randgrp.bytes, defgrp, gameState: state, battleGroupRef };
}

/** Whether every defined group can sit where the writer had it (no two over each other). */
function writerLayoutFits(groups: ReadonlyArray<{ at?: number; groups: StateBattleGroup[] }>): boolean {
  const spans = groups.map(
    (g) =>
      [g.at ?? -1, (g.at ?? -1) + GROUP_HEADER_SIZE + g.groups.reduce((n, x) => n + battleGroupSize(x), 0)] as const,
  );
  // Offsets past what a state file holds are stale (a writer's file we do not have): lay out afresh.
  if (spans.some(([a, b]) => a < 1 || b > DEFGRP_MAX_SIZE)) return false;
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  return sorted.every((s, i) => i === 0 || s[0] >= sorted[i - 1]![1]);
}

/**
 * `starinfo.dat` read for `save` (whose magic says the record size), as a DecodeError at path
 * `starinfo` when it is not: its blocks not whole records of that size, or (uqm.md §3) its structure
 * fitting only the other game's records — a MegaMod file would otherwise read as nine times the
 * worlds in a vanilla save.
 */
function scanFor(save: UqmSave, bytes: Uint8Array): StarInfo {
  const record = save.magic === 'UMS\x01' ? 12 : 108;
  const table = decode(starOffsets, bytes.subarray(0, STAR_TABLE_SIZE));
  if (E.isRight(table)) {
    const choice = chooseRecordSize(table.right.value, bytes.length);
    if (choice.basis === 'structure' && choice.recordSize !== record) {
      const game = record === 12 ? 'a vanilla' : `a MegaMod (${save.magic})`;
      throw new DecodeError(
        ['starinfo'],
        choice.offset,
        `this starinfo.dat has ${choice.recordSize}-byte world records (${choice.reason}); ${game} save holds ${record}-byte ones`,
        'size-mismatch',
      );
    }
  }
  const out = decode(starInfo(record), bytes);
  if (E.isLeft(out)) throw out.left.within(['starinfo']);
  return out.right.value;
}

/**
 * The save a game with these state files writes (`SaveGame`): `Scan` from `starinfo.dat`, `Grps` and
 * the random `BtGp` from `randgrp.dat`, a `BtGp` per defined group whose offset is set (ascending
 * encounter id), `GmSt` from the game state. The other chunks are taken from `save`, in place.
 */
export function stateFilesToSave(save: UqmSave, files: StateFiles): UqmSave {
  const scan = scanFor(save, files.starinfo);
  const rand = must(decode(randomGroups, files.randgrp, { trailing: 'keep' })).value.root;
  // SaveGroups reads the list at GroupOffset[0], even when that is 0 (the header's own bytes).
  const list =
    rand.list !== null ? rand.list.target : must(decode(stateGroupList, files.randgrp, { trailing: 'keep' })).value;
  const grps: GroupList = {
    lastEncGroup: list.lastEncGroup,
    groups: {
      entries: list.groups.map(({ race, group }) => ({
        raceOuter: race,
        groupCounter: group.groupCounter,
        raceId: group.raceId,
        sysLoc: group.place.sysLoc,
        task: group.place.task,
        inSystem: group.inSystem,
        destLoc: group.orbit.destLoc,
        orbitPos: group.orbit.orbitPos,
        groupId: group.groupId,
        locX: group.locX,
        locY: group.locY,
      })),
    },
  };
  const random: BattleGroups = {
    encounterId: 0,
    current: 0,
    starIndex: rand.starIndex,
    day: rand.day,
    month: rand.month,
    year: rand.year,
    groups: rand.groups.slice(0, rand.numGroups).map((p) => fromStateGroup(p === null ? null : p.target)),
    rest: undefined,
  };
  const offsets = new Map<number, number>();
  DEFINED_GROUPS.forEach((_, i) => {
    const at = files.gameState[groupOffsetEntry(i + 1)] ?? 0;
    if (at !== 0) offsets.set(i + 1, at);
  });
  const defined = must(readDefinedGroups(files.defgrp, offsets)).map(
    (d): BattleGroups => ({
      encounterId: d.id,
      current: d.at === files.battleGroupRef ? 1 : 0,
      starIndex: d.header.starIndex,
      day: d.header.day,
      month: d.header.month,
      year: d.header.year,
      groups: d.groups.map(fromStateGroup),
      rest: undefined,
    }),
  );
  const battle: SaveChunk[] = [random, ...defined].map((body) => ({ id: 'BtGp', body }) as SaveChunk);
  const chunks: SaveChunk[] = [];
  let placedBattle = false;
  for (const c of save.chunks) {
    if (c.id === 'BtGp') {
      if (!placedBattle) chunks.push(...battle);
      placedBattle = true;
    } else if (c.id === 'Scan' && !isRawChunk(c)) chunks.push({ id: 'Scan', body: scan } as SaveChunk);
    else if (c.id === 'Grps' && !isRawChunk(c)) chunks.push({ id: 'Grps', body: grps } as SaveChunk);
    else if (c.id === 'GmSt' && !isRawChunk(c)) chunks.push({ id: 'GmSt', body: files.gameState } as SaveChunk);
    else chunks.push(c);
  }
  if (!placedBattle) {
    const star = chunks.findIndex((c) => c.id === 'Star');
    chunks.splice(star < 0 ? chunks.length : star, 0, ...battle);
  }
  return { ...save, chunks };
}
