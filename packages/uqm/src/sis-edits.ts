/**
 * Setters for what save editors change — landers, names, modules, escorts and their captains,
 * devices, the date, the position — each checked against what the game itself allows or can read
 * back, in the manner of `setResourceUnits`. Facts from the UQM source (V, uqm.md §0): `sis.h`
 * (slot counts, the module enum, `EMPTY_SLOT`), `MAX_LANDERS`, `gameopt.c` (names copied with
 * `utf8StringCopy(field, sizeof field, text)`), `clock.c` (dates); empty-slot values as the real
 * saves hold them.
 *
 * @module
 */
import type { ShipEntry } from './records.js';
import type { UqmSave } from './save.js';
import { chunkOf, RACES, setRoster } from './edits.js';
import { utf8 } from '@savekit/core/kit';

/**
 * A name as the document holds it (`Summ.shipName`, `commanderName`, `planetName`): the text, or —
 * only when the 16-byte field held bytes after the NUL (stale memory the game left there) — `{ text,
 * tail }`, the tail kept so the file reads back byte for byte. Read names with {@link nameText}; the
 * setters here write a plain string (the tail dropped, the field NUL-padded as the game pads it).
 */
export type SisName = string | { text: string; tail: Uint8Array };

/** The text of a {@link SisName}, whichever shape it has. */
export function nameText(name: SisName): string {
  return typeof name === 'string' ? name : name.text;
}

/** A value refused by a setter: what, the value, and the range the game allows. */
export class UqmEditError extends RangeError {
  constructor(
    readonly what: string,
    readonly value: unknown,
    message: string,
  ) {
    super(`${what}: ${message}`);
    this.name = 'UqmEditError';
  }
}

function whole(what: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UqmEditError(what, value, `${value} is not a whole number from ${min} to ${max}`);
  return value;
}

/** `SIS_NAME_SIZE`: the ship, commander and planet name fields (vanilla; MegaMod MMV4/MMV3 use 32). */
export const SIS_NAME_SIZE = 16;

/**
 * The longest name the game writes into a `size`-byte field: `size − 1` UTF-8 bytes. The game copies
 * names with `utf8StringCopy(field, sizeof field, text)`, which always ends the field with a NUL and
 * cuts whole characters; its readers treat the field as a C string. A 16-byte name with no NUL is
 * never written by the game and would be read on into the next field, so it is refused.
 */
function checkedName(what: string, text: string, size: number): string {
  if (typeof text !== 'string') throw new UqmEditError(what, text, 'expected a string');
  if (!utf8.canEncode(text)) throw new UqmEditError(what, text, 'has a lone surrogate, which UTF-8 cannot encode');
  if (text.includes('\0')) throw new UqmEditError(what, text, 'contains a NUL, which would end it early');
  const bytes = utf8.encode(text).length;
  if (bytes > size - 1)
    throw new UqmEditError(
      what,
      text,
      `${bytes} UTF-8 bytes; the game keeps at most ${size - 1} (its ${size}-byte field ends with a NUL)`,
    );
  return text;
}

function nameSize(save: UqmSave): number {
  return save.magic === 'MMV4' || save.magic === 'MMV3' ? 32 : SIS_NAME_SIZE;
}

/** Sets the flagship's name (at most 15 UTF-8 bytes in vanilla, 31 in MegaMod's 32-byte fields). */
export function setShipName(save: UqmSave, name: string): void {
  save.summary.shipName = checkedName('ship name', name, nameSize(save));
}

/** Sets the commander's name (the same limits as {@link setShipName}). */
export function setCommanderName(save: UqmSave, name: string): void {
  save.summary.commanderName = checkedName('commander name', name, nameSize(save));
}

/**
 * Sets the save's name (the load menu's; the rest of `Summ`). The game's reader keeps at most 63
 * bytes of it (`LoadSummary`), so a longer one is refused.
 */
export function setSaveName(save: UqmSave, name: string): void {
  save.summary.name = checkedName('save name', name, 64);
}

/** `MAX_LANDERS`: the landers the flagship can carry. */
export const MAX_LANDERS = 10;

/** Sets the landers on board (0…{@link MAX_LANDERS}). */
export function setLanders(save: UqmSave, count: number): void {
  save.summary.sis.numLanders = whole('landers', count, 0, MAX_LANDERS);
}

/** The module ids of `sis.h` (the index is the id). */
export const MODULES: ReadonlyArray<string> = [
  'PLANET_LANDER',
  'FUSION_THRUSTER',
  'TURNING_JETS',
  'CREW_POD',
  'STORAGE_BAY',
  'FUEL_TANK',
  'HIGHEFF_FUELSYS',
  'DYNAMO_UNIT',
  'SHIVA_FURNACE',
  'GUN_WEAPON',
  'BLASTER_WEAPON',
  'CANNON_WEAPON',
  'TRACKING_SYSTEM',
  'ANTIMISSILE_DEFENSE',
  'BOMB_MODULE_0',
  'BOMB_MODULE_1',
  'BOMB_MODULE_2',
  'BOMB_MODULE_3',
  'BOMB_MODULE_4',
  'BOMB_MODULE_5',
];

/**
 * What an empty slot holds, per kind of slot: `EMPTY_SLOT` (= `NUM_MODULES`, 20) plus 0 for a drive
 * slot, 1 for a jet slot, 2 for a module slot — as every real save shows (20, 21 and 22).
 */
export const EMPTY_SLOTS = { drive: 20, jet: 21, module: 22 } as const;

/** A module by id or `sis.h` name (`'CREW_POD'`), or `null` for an empty slot. */
export type ModuleRef = number | string | null;

function moduleId(what: string, ref: ModuleRef): number {
  if (ref === null || ref === EMPTY_SLOTS.module) return EMPTY_SLOTS.module;
  const id = typeof ref === 'string' ? MODULES.indexOf(ref) : whole(what, ref, 0, MODULES.length - 1);
  if (id < 0) throw new UqmEditError(what, ref, `no module is called ${ref} (see MODULES)`);
  // Landers, thrusters and jets are not modules: they have counts and slots of their own.
  if (id <= 2) throw new UqmEditError(what, ref, `${MODULES[id]} does not go in a module slot`);
  return id;
}

/** The 16 module slots, front to back, as `MODULES` names (`null` for an empty slot). */
export function modules(save: UqmSave): Array<string | null> {
  return save.summary.sis.moduleSlots.map((id) => (id === EMPTY_SLOTS.module ? null : (MODULES[id] ?? `module ${id}`)));
}

/**
 * Sets the 16 module slots (front to back) by id or name; a shorter list leaves the rest empty.
 * Landers, thrusters and jets are refused here (they have slots of their own).
 */
export function setModules(save: UqmSave, slots: ReadonlyArray<ModuleRef>): void {
  if (slots.length > 16) throw new UqmEditError('modules', slots.length, `${slots.length} slots; there are 16`);
  save.summary.sis.moduleSlots = Array.from({ length: 16 }, (_, i) => moduleId(`module slot ${i}`, slots[i] ?? null));
}

/** Sets which of the 11 drive slots hold a fusion thruster (`true`) or are empty. */
export function setDriveSlots(save: UqmSave, filled: ReadonlyArray<boolean>): void {
  if (filled.length !== 11) throw new UqmEditError('drive slots', filled.length, 'give all 11 slots');
  save.summary.sis.driveSlots = filled.map((f) => (f ? 1 : EMPTY_SLOTS.drive));
}

/** Sets which of the 8 jet slots hold turning jets (`true`) or are empty. */
export function setJetSlots(save: UqmSave, filled: ReadonlyArray<boolean>): void {
  if (filled.length !== 8) throw new UqmEditError('jet slots', filled.length, 'give all 8 slots');
  save.summary.sis.jetSlots = filled.map((f) => (f ? 2 : EMPTY_SLOTS.jet));
}

/**
 * Sets the devices on board (`DeviceList`, at most 16 device ids of 0…255) and their count; the
 * list's unused entries are zero.
 */
export function setDevices(save: UqmSave, devices: ReadonlyArray<number>): void {
  if (devices.length > 16) throw new UqmEditError('devices', devices.length, `${devices.length} devices; at most 16`);
  const list = devices.map((d, i) => whole(`device ${i}`, d, 0, 255));
  save.summary.summary.numDevices = list.length;
  save.summary.summary.deviceList = Array.from({ length: 16 }, (_, i) => list[i] ?? 0);
}

/** An escort as an editor names it: the race (id or `RACES` name), its captain, and its crew. */
export interface Escort {
  /** Race id (0…23, `races.h`) or name (`'SPATHI'`). */
  race: number | string;
  /**
   * Which of the race's captain names the ship has (`captains_name_index`): an index into the race's
   * list of captain names in the game's strings (0…255).
   */
  captain: number;
  /** Crew on board, 0…`maxCrew`. */
  crew: number;
  /** The ship's crew capacity (default: `crew`). */
  maxCrew?: number;
  /** Energy capacity (`max_energy`, default 0: the game refills it from the race's data in battle). */
  maxEnergy?: number;
}

function raceId(what: string, race: number | string): number {
  if (typeof race === 'string') {
    const id = RACES.indexOf(race);
    if (id < 0) throw new UqmEditError(what, race, `no race is called ${race} (see RACES)`);
    return id;
  }
  return whole(what, race, 0, RACES.length - 1);
}

/**
 * Replaces the escorts (`ShpQ`, at most 12) with ships of the given races, captains and crews, in
 * fleet order: each entry's `race` and `raceId` are the race id and its `index` its place in the list
 * (as the real saves have them). Crew above capacity is refused.
 */
export function setEscorts(save: UqmSave, escorts: ReadonlyArray<Escort>): void {
  if (escorts.length > 12) throw new UqmEditError('escorts', escorts.length, `${escorts.length} ships; at most 12`);
  const ships: ShipEntry[] = escorts.map((e, i) => {
    const id = raceId(`escort ${i} race`, e.race);
    const maxCrew = whole(`escort ${i} max crew`, e.maxCrew ?? e.crew, 0, 0xffff);
    return {
      race: id,
      captainsNameIndex: whole(`escort ${i} captain`, e.captain, 0, 255),
      raceId: id,
      index: i,
      crewLevel: whole(`escort ${i} crew`, e.crew, 0, maxCrew),
      maxCrew,
      energyLevel: 0,
      maxEnergy: whole(`escort ${i} max energy`, e.maxEnergy ?? 0, 0, 255),
    };
  });
  setRoster(save, ships);
}

/** A game date. */
export interface GameDate {
  day: number;
  month: number;
  year: number;
}

function daysIn(month: number, year: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

/**
 * Sets the game clock's date (`GlSt`) and the load menu's copy of it (`Summ`). The year must be one a
 * 0.7 reader accepts too (2155…2185, `LoadLegacyGame`'s range); the day must exist in that month.
 */
export function setDate(save: UqmSave, date: GameDate): void {
  const year = whole('year', date.year, 2155, 2185);
  const month = whole('month', date.month, 1, 12);
  const day = whole('day', date.day, 1, daysIn(month, year));
  const gl = chunkOf(save, 'GlSt')?.body;
  if (gl === undefined) throw new UqmEditError('date', date, 'the save has no GlSt chunk');
  Object.assign(gl, { day, month, year });
  Object.assign(save.summary.summary, { day, month, year });
}

/**
 * Sets the flagship's position in HyperSpace (`log_x`/`log_y`, signed 32-bit logical units; the
 * star map's units are these divided by `UNIVERSE_TO_LOGX`'s scale).
 */
export function setLocation(save: UqmSave, x: number, y: number): void {
  save.summary.sis.logX = whole('log_x', x, -(2 ** 31), 2 ** 31 - 1);
  save.summary.sis.logY = whole('log_y', y, -(2 ** 31), 2 ** 31 - 1);
}
