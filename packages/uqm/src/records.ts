/**
 * The fixed records of 0.8 save chunks (uqm.md §5.2), little-endian, as core structs.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  array,
  bytes,
  fixedString,
  i16le,
  i32le,
  map,
  optional,
  remaining,
  struct,
  u16le,
  u32le,
  u8,
  withHooks,
  type Codec,
  type TypeOf,
} from '@savekit/core';
import { bytesEqual, jsonBytes, utf8 } from '@savekit/core/kit';

/**
 * A NUL-padded name field of `size` bytes. A name that fills it has no NUL: the game never writes one
 * (`utf8StringCopy` always ends the field with a NUL) and reads names as C strings, so it would read
 * on into the next field; such a name is read as it is (and written back), with a warning.
 */
function nameField(size: 16 | 32) {
  return withHooks(fixedString(size, 'utf8', { tail: 'keep' }), {
    afterRead(value, { reader, start }) {
      if (typeof value === 'string' && utf8.encode(value).length === size)
        reader.warn(
          'name-without-nul',
          `the name ${JSON.stringify(value)} fills its ${size}-byte field with no NUL: the game would read on into the next field`,
          start,
        );
    },
  });
}

/** A name in a NUL-padded 16-byte field (bytes after the NUL kept when not zero). */
export const name16 = nameField(16);
/** MegaMod's 32-byte names. */
export const name32 = nameField(32);

/**
 * A point's two fields, `<name>X` then `<name>Y`, of one codec: how the game stores its POINTs and
 * coordinate pairs.
 */
function xy<N extends string, C>(name: N, codec: C): Record<`${N}X` | `${N}Y`, C> {
  return { [`${name}X`]: codec, [`${name}Y`]: codec } as Record<`${N}X` | `${N}Y`, C>;
}

/**
 * Bytes a chunk holds after what its fields use (a size mismatch the game only logs): usually none,
 * so `undefined`; kept bytes are at least one.
 */
const chunkRest = optional(bytes('rest'));

/** The SIS state up to the names (74 bytes): position, resources, modules, landers, elements. */
export const sisCore = struct({
  ...xy('log', i32le),
  resUnits: u32le,
  fuelOnBoard: u32le,
  crewEnlisted: u16le,
  totalElementMass: u16le,
  totalBioMass: u16le,
  moduleSlots: array(u8, 16),
  driveSlots: array(u8, 11),
  jetSlots: array(u8, 8),
  numLanders: u8,
  elementAmounts: array(u16le, 8),
});

/** The fields of {@link summaryTail}, for a summary whose date has a model (the 0.7 one). */
export const summaryTailFields = {
  activity: u8,
  flags: u8,
  day: u8,
  month: u8,
  year: u16le,
  mCreditLo: u8,
  mCreditHi: u8,
  numShips: u8,
  numDevices: u8,
  shipList: array(u8, 12),
  deviceList: array(u8, 16),
};

/** The load-menu summary after the SIS state (38 bytes). */
export const summaryTail = struct(summaryTailFields);

/** Text a save's name is when it is UTF-8 that encodes back to the same bytes; else `undefined`. */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return bytesEqual(utf8.encode(text), bytes) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a value is a name kept as bytes. */
const isKeptBytes = (u: unknown): u is { bytes: Uint8Array } =>
  typeof u === 'object' && u !== null && (u as { bytes?: unknown }).bytes instanceof Uint8Array;

/**
 * Text filling the rest of its chunk (a save's name): UTF-8 when it is, else the bytes as
 * `{ bytes }`, so nothing is lost. A bijection over `bytes('rest')`: a string is written as its UTF-8
 * (a lone surrogate has none), and bytes that are UTF-8 text are refused as `{ bytes }` (they read
 * back as the string). Its JSON is the text, or `{ bytes }`.
 */
export const restText: Codec<string | { bytes: Uint8Array }> = map(bytes('rest'), {
  name: 'restText',
  decode: (raw): string | { bytes: Uint8Array } => utf8Text(raw) ?? { bytes: raw },
  encode: (value) => {
    if (typeof value === 'string') {
      if (!utf8.canEncode(value)) throw new Error('the text has a lone surrogate, which UTF-8 cannot encode');
      return utf8.encode(value);
    }
    if (!isKeptBytes(value)) throw new Error('expected a string or { bytes }');
    if (utf8Text(value.bytes) !== undefined)
      throw new Error('these bytes are UTF-8 text: give them as a string, not { bytes }');
    return value.bytes;
  },
  is: (u): u is string | { bytes: Uint8Array } => typeof u === 'string' || isKeptBytes(u),
  json: t.union([t.string, t.type({ bytes: jsonBytes() })]) as unknown as t.Type<
    string | { bytes: Uint8Array },
    unknown,
    unknown
  >,
});

/**
 * The flagship's place and heading in the global state (autopilot target, interplanetary location,
 * origin, facing, planet, orbit); the same 20 bytes in `GlSt` and in the 0.7 globals.
 */
export const navigationFields = {
  ...xy('autopilot', i16le),
  ...xy('ipLocation', i16le),
  ...xy('shipOrigin', i16le),
  shipFacing: u16le,
  ipPlanet: u8,
  inOrbit: u8,
};

/** `GlSt`: exactly 75 bytes. */
export const globalState = struct({
  globFlags: u8,
  crewCost: u8,
  fuelCost: u8,
  moduleCost: array(u8, 20),
  elementWorth: array(u8, 8),
  currentActivity: u16le,
  day: u8,
  month: u8,
  year: u16le,
  tickCount: u16le,
  dayInTicks: u16le,
  ...navigationFields,
  travelAngle: u16le,
  vectorWidth: i16le,
  vectorHeight: i16le,
  fractWidth: i16le,
  fractHeight: i16le,
  errorWidth: i16le,
  errorHeight: i16le,
  incrWidth: i16le,
  incrHeight: i16le,
});

/**
 * A race-queue entry's fields, the crew counts in `crew` (u16 in `RacQ`, u8 in the 0.7 layout);
 * shared by {@link raceEntry} and the 0.7 `legacyRaceEntry`.
 */
export const raceFields = (crew: Codec<number>) => ({
  index: u16le,
  alliedState: u16le,
  daysLeft: u8,
  growthFract: u8,
  crewLevel: crew,
  maxCrew: crew,
  growth: u8,
  maxEnergy: u8,
  ...xy('loc', i16le),
  actualStrength: u16le,
  knownStrength: u16le,
  ...xy('knownLoc', i16le),
  growthErrTerm: u8,
  funcIndex: u8,
  ...xy('destLoc', i16le),
});

/** A `RacQ` entry (30 bytes): a race's fleet on the star map. */
export const raceEntry = struct(raceFields(u16le));

// A ship's fields after its race, shared by the queue entries and the battle groups.
const shipFields = {
  /** Which of its race's captain names the ship's captain has (an index into the game's name list). */
  captainsNameIndex: u8,
  /** The ship's race (`races.h`: ARILOU 0 … SAMATRA 23; `RACES[raceId]`). */
  raceId: u8,
  /** The ship's place in its fleet (escorts: 0, 1, … in the order the flagship's display shows them). */
  index: u8,
  crewLevel: u16le,
  maxCrew: u16le,
  energyLevel: u8,
  maxEnergy: u8,
};

/** A `ShpQ` / `NpcQ` / `StwQ` entry (11 bytes): a ship. */
export const shipEntry = struct({ race: u16le, ...shipFields });

// A group's fields, shared by the interplanetary queue and the group list.
const groupFields = {
  groupCounter: u16le,
  raceId: u8,
  sysLoc: u8,
  task: u8,
  inSystem: u8,
  destLoc: u8,
  orbitPos: u8,
  groupId: u8,
  ...xy('loc', i16le),
};

/** An `IGpQ` entry (13 bytes): a group in interplanetary space. */
export const ipGroupEntry = struct(groupFields);

/** An `Evts` entry (5 bytes): a scheduled event. */
export const eventEntry = struct({ day: u8, month: u8, year: u16le, funcIndex: u8 });

/** One of an encounter's seven ships. */
export const encounterShip = struct({ raceId: u8, crew: u16le, maxCrew: u16le, maxEnergy: u8 });

/** An `Enct` entry (65 bytes): an encounter in hyperspace. */
export const encounterEntry = struct({
  transitionState: i16le,
  ...xy('origin', i16le),
  radius: u16le,
  ...xy('loc', i16le),
  raceId: u8,
  numShips: u8,
  flags: u8,
  ships: array(encounterShip, 7),
  ...xy('log', i32le),
});

/** A `Grps` entry (14 bytes): a group on the interplanetary map, nibbles unpacked. */
export const groupListEntry = struct({ raceOuter: u8, ...groupFields });

/** `Grps`: the last encountered group, then the groups. */
export const groupList = struct({ lastEncGroup: u8, groups: queue(groupListEntry) });

/** A ship of a `BtGp` group (10 bytes). */
export const battleShip = struct({ raceOuter: u8, ...shipFields });

/** A group of a `BtGp` chunk: the race shown, then its ships. */
export const battleGroupEntry = struct({ icon: u8, ships: array(battleShip, u8) });

/**
 * `BtGp`: encounter id (0 = the random groups, 1…14 = a defined group), whether it is the group being
 * fought (`current`), the star and expiry date, then the groups.
 */
export const battleGroups = struct({
  encounterId: u32le,
  current: u8,
  starIndex: u16le,
  day: u8,
  month: u8,
  year: u16le,
  groups: array(battleGroupEntry, u8),
  rest: chunkRest,
});

/** `Star`: the current star's position and description. */
export const starDesc = struct({ x: i16le, y: i16le, type: u8, index: u8, prefix: u8, postfix: u8, rest: chunkRest });

/**
 * Bytes a chunk holds after what its fields use (a size mismatch the game only logs): usually none.
 *
 * @deprecated It is the core's `optional(bytes('rest'))`; use that.
 */
export function trailing(): Codec<Uint8Array | undefined> {
  return optional(bytes('rest'));
}

/**
 * Whole entries of `entry` up to the end of the chunk (as many as {@link remaining} says fit), then the
 * bytes left that make no entry, kept in `rest` (fewer than one entry's size: more would be read back
 * as entries, so encoding refuses them).
 */
export function queue<A>(entry: Codec<A>): Codec<{ entries: A[]; rest?: Uint8Array }> {
  const size = entry.size;
  if (size === undefined || size === 0) throw new RangeError('queue entries must have a fixed size');
  const declared = struct({ entries: array(entry, remaining(size)), rest: chunkRest });
  return withHooks(
    declared,
    {
      beforeWrite(value, { writer }) {
        const rest = typeof value === 'object' && value !== null ? value.rest : undefined;
        if (rest instanceof Uint8Array && rest.length >= size)
          throw writer.errorAt('rest', `kept rest of ${rest.length} bytes would make whole entries`);
      },
    },
    `queue(${entry.name})`,
  ) as Codec<{ entries: A[]; rest?: Uint8Array }>;
}

/** Decoded record types. */
export type GlobalState = TypeOf<typeof globalState>;
export type RaceEntry = TypeOf<typeof raceEntry>;
/**
 * A ship of the escort (`ShpQ`), NPC (`NpcQ`) or MegaMod stowed (`StwQ`) queue (11 bytes):
 *
 * - `race`: the queue entry's race, as a 16-bit value (the game writes the race id here too; in every
 *   real save it equals `raceId`). Kept separate because the file stores both.
 * - `raceId`: the ship's race id (`races.h`, 0…23; `RACES[raceId]` is its name) — what the game uses.
 * - `index`: the ship's place in its fleet (escorts: 0, 1, … as the flagship's display orders them).
 * - `captainsNameIndex`: which of the race's captain names its captain has (an index into the game's
 *   list of names for that race).
 * - `crewLevel` / `maxCrew`: crew on board and capacity; `energyLevel` / `maxEnergy`: the same for energy.
 *
 * `setEscorts` writes these from a race, a captain and a crew.
 */
export type ShipEntry = TypeOf<typeof shipEntry>;
export type BattleGroups = TypeOf<typeof battleGroups>;
export type GroupList = TypeOf<typeof groupList>;
