/**
 * 0.7 saves (`starcon2.NN`, uqm.md §5.1): a 164-byte summary, then an LZHUF stream (our own coder,
 * `lzhuf.ts`) holding the global state, the game state in its 0.7 layout, the queues, and the three
 * state files — decoded into the same documents as their standalone formats (`starInfo`,
 * `randomGroups`, `definedGroupsFile`), or kept as `{ $raw }` bytes (with a warning) when one does not
 * decode.
 *
 * @module
 */

import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  array,
  bytes,
  decode,
  i16le,
  i32le,
  layer,
  literal,
  map,
  orRaw,
  padding,
  sized,
  struct,
  transformKeeping,
  u16le,
  u32le,
  u8,
  type AnyCodec,
  type Codec,
  type Kept,
  type Raw,
  type TypeOf,
} from '@savekit/core';
import { definedGroupsFile } from './defgrp-file.js';
import { randomGroups } from './groups.js';
import { starInfo } from './star-info.js';
import { legacyGameState } from './game-state.js';
import { ipGroup, shipFragment, toIpGroup } from './groups.js';
import { lzhufDecode, lzhufEncode } from './lzhuf.js';
import { saveToStateFiles } from './convert.js';
import { chunkOf } from './edits.js';
import {
  name16,
  navigationFields,
  raceFields,
  sisCore,
  starDesc,
  summaryTailFields,
  type GlobalState,
  type ShipEntry,
} from './records.js';
import type { KnownChunks, UqmSave } from './save.js';

/** A date field stored as `stored`, with a model for tools of the values the game writes (`first`…`last`). */
function dated(stored: Codec<number>, name: string, first: number, last: number): Codec<number> {
  const values = Array.from({ length: last - first + 1 }, (_, i) => first + i) as [number, ...number[]];
  const model = literal(stored, ...values);
  return map(stored, { name, decode: (v) => v, encode: (v) => v, model: () => model });
}

/**
 * The 0.7 load-menu summary: its date with a model of the dates the game writes — day 1–31, month
 * 1–12, a year from the start (2155) to the end of the game's calendar before 2186, the range by
 * which {@link looksLegacy} knows a 0.7 save (generated saves are then ones it knows).
 */
const legacySummaryTail = struct({
  ...summaryTailFields,
  day: dated(u8, 'day', 1, 31),
  month: dated(u8, 'month', 1, 12),
  year: dated(u16le, 'year', 2155, 2185),
});

/** The uncompressed summary (164 bytes). */
export const legacySummary = struct({
  sis: sisCore,
  shipName: name16,
  commanderName: name16,
  planetName: name16,
  pad122: padding(2),
  summary: legacySummaryTail,
  pad162: padding(2),
});

/** The global state at the start of the stream (376 bytes, the 0.7 game state inside). */
export const legacyGlobals = struct({
  curState: u8,
  globFlags: u8,
  crewCost: u8,
  fuelCost: u8,
  moduleCost: array(u8, 20),
  elementWorth: array(u8, 8),
  displayArray: bytes(4),
  currentActivity: u16le,
  pad38: padding(2),
  day: u8,
  month: u8,
  year: u16le,
  tickCount: u16le,
  dayInTicks: u16le,
  clockDummies: bytes(12),
  eventQueueDummy: bytes(24),
  ...navigationFields,
  velocity: array(u16le, 9),
  pad118: padding(2),
  battleGroupRef: u32le,
  queueDummies: bytes(96),
  gameState: legacyGameState(),
  pad375: padding(1),
});

/** A 0.7 race-queue entry (30 bytes; crew as bytes). */
export const legacyRaceEntry = struct({ ...raceFields(u8), pad28: padding(2) });

/** A ship in a 0.7 queue: u16 race, then a SHIP_FRAGMENT. */
export const legacyShip = struct({ race: u16le, ship: shipFragment });
/** A group in the 0.7 IP queue: u16 race, then an IP_GROUP. */
export const legacyIpGroup = struct({ race: u16le, group: ipGroup });
/** A 0.7 event (16 bytes). */
export const legacyEvent = struct({
  dummies: bytes(8),
  day: u8,
  month: u8,
  year: u16le,
  funcIndex: u8,
  pad13: padding(3),
});
/** One of a 0.7 encounter's ships (24 bytes). */
export const legacyEncounterShip = struct({
  shipFlags: u16le,
  raceId: u8,
  var2: u8,
  crew: u8,
  maxCrew: u8,
  energy: u8,
  maxEnergy: u8,
  locX: u16le,
  locY: u16le,
  raceStrings: u32le,
  dummies: bytes(8),
});
/** A 0.7 encounter (204 bytes). */
export const legacyEncounter = struct({
  dummies: bytes(12),
  transitionState: i16le,
  originX: i16le,
  originY: i16le,
  radius: u16le,
  starX: i16le,
  starY: i16le,
  type: u8,
  index: u8,
  pad26: padding(2),
  ships: array(legacyEncounterShip, 7),
  logX: i32le,
  logY: i32le,
});

const START_ENCOUNTER = 0x0400;
const START_INTERPLANETARY = 0x0800;
const IN_INTERPLANETARY = 4;

/** The queue after the race queue, chosen by CurrentActivity (uqm.md §5.1 C). */
function conditionalQueue(activity: number): AnyCodec {
  if (activity & START_INTERPLANETARY) return struct({});
  if (activity & START_ENCOUNTER) return struct({ npcShips: array(legacyShip, u16le) });
  if ((activity & 0xff) === IN_INTERPLANETARY) return struct({ ipGroups: array(legacyIpGroup, u16le) });
  return struct({ empty: array(legacyShip, u16le) });
}

/** A state file in the stream: its document, or its bytes when they do not decode (kept, with a warning). */
function stateFile<A>(codec: Codec<A>, name: string): Codec<A | Raw> {
  return orRaw(codec, {
    warning: { code: 'state-file-kept-raw', message: (e) => `${name} kept as bytes: ${e.message}` },
  });
}

/** The decompressed stream. */
export const legacyStream = struct({
  globals: legacyGlobals,
  raceQueue: array(legacyRaceEntry, u16le),
  activityQueue: (p: { globals: { currentActivity: number } }) => conditionalQueue(p.globals.currentActivity),
  shipQueue: array(legacyShip, u16le),
  events: array(legacyEvent, u16le),
  encounters: array(legacyEncounter, u16le),
  starinfo: sized(u32le, stateFile(starInfo(12), 'starinfo.dat')),
  defgrp: sized(u32le, stateFile(definedGroupsFile, 'defgrp.dat')),
  randgrp: sized(u32le, stateFile(randomGroups, 'randgrp.dat')),
  star: starDesc,
});

/** The LZHUF layer: code to bytes of the length the stream's header gives. */
export const lzhufLayer = layer(
  'lzhuf',
  (code, limits) => {
    if (limits.expected === undefined) throw new Error("LZHUF needs the stream's length");
    return lzhufDecode(code, limits.expected, { maxOutput: limits.maxOutput });
  },
  (plain) => lzhufEncode(plain),
);

/** A decoded 0.7 save. */
export interface LegacySave {
  summary: TypeOf<typeof legacySummary>;
  /**
   * The compressed part: its value, and the file's code in `stored` — written back while the value is
   * unchanged (checked by decompressing it on encode), a changed value compressed afresh.
   */
  stream: Kept<TypeOf<typeof legacyStream>>;
}

/**
 * A 0.7 save file (`starcon2.NN`). Decoding never compresses: the file's code is kept as it is
 * (`keep: 'always'`), so a decode costs one decompression, bounded by the decode's output budget.
 */
export const legacySave: Codec<LegacySave> = struct({
  summary: legacySummary,
  stream: strictKeys(transformKeeping(legacyStream, { decodedLength: u32le, keep: 'always' }, lzhufLayer)),
}) as unknown as Codec<LegacySave>;

/**
 * `codec` whose JSON refuses names it does not know: `{ value, stored }` with a misspelt `stored`
 * would otherwise be dropped silently (and the stream compressed afresh).
 */
function strictKeys<A>(codec: Codec<Kept<A>>): Codec<Kept<A>> {
  const inner = codec.json;
  const json = new t.Type<Kept<A>, unknown, unknown>(
    inner.name,
    (u): u is Kept<A> => inner.is(u),
    (u, c) => {
      if (typeof u === 'object' && u !== null && !Array.isArray(u)) {
        const unknown = Object.keys(u).find((k) => k !== 'value' && k !== 'stored');
        if (unknown !== undefined)
          return t.failure(u, c, `unknown name ${JSON.stringify(unknown)}: the stream is { value, stored? }`);
      }
      return inner.validate(u, c);
    },
    (a) => inner.encode(a),
  );
  return { ...codec, json };
}

/** What {@link looksLegacy} reads: the summary's month and year, and the stream's length after it. */
const legacyLead = struct({
  before: bytes(127),
  month: u8,
  year: u16le,
  after: bytes(34),
  length: u32le,
});

/** Whether bytes look like a 0.7 save: a summary whose year is in the game's range, then a plausible stream. */
export function looksLegacy(input: Uint8Array): boolean {
  if (input.length < 164 + 4 + 1) return false;
  const lead = decode(legacyLead, input.subarray(0, legacyLead.size as number));
  if (E.isLeft(lead)) return false;
  const { year, month, length } = lead.right.value;
  return year >= 2155 && year < 2186 && month >= 1 && month <= 12 && length >= 376 && length < 16 << 20;
}

/** Fits a value into a byte, as the 0.7 structures need (refusing what the game would truncate). */
function byte(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 255)
    throw new RangeError(`${what} ${value} does not fit the 0.7 format's byte`);
  return value;
}

const zeroShip = { unused0: 0, pad3: 0, unused4: 0, unused12: 0, unused14: 0 };

/** The tags of the queue chunks, and the entries each holds. */
type QueueTag = 'RacQ' | 'NpcQ' | 'IGpQ' | 'ShpQ' | 'Evts' | 'Enct';
type QueueEntry<K extends QueueTag> = TypeOf<KnownChunks[K]>['entries'][number];

/**
 * The 0.7 save a vanilla 0.8 save corresponds to: the same summary, global and game state (in the
 * 0.7 layout), queues and encounters in their 0.7 records, and the state files the 0.8 save holds
 * (as `saveToStateFiles` builds them), compressed with our LZHUF coder.
 */
export function saveToLegacy(save: UqmSave): LegacySave {
  if (save.magic !== 'UMS\x01') throw new RangeError('only vanilla 0.8 saves have a 0.7 form');
  const files = saveToStateFiles(save);
  const gl = chunkOf(save, 'GlSt')?.body as GlobalState | undefined;
  if (gl === undefined) throw new Error('the save has no GlSt chunk');
  const entries = <K extends QueueTag>(id: K) => (chunkOf(save, id)?.body.entries ?? []) as QueueEntry<K>[];
  const ship = (s: ShipEntry) => ({
    race: s.race,
    ship: {
      ...zeroShip,
      captainsNameIndex: s.captainsNameIndex,
      raceId: s.raceId,
      index: s.index,
      crewLevel: byte(s.crewLevel, 'crew'),
      maxCrew: byte(s.maxCrew, 'max crew'),
      energyLevel: s.energyLevel,
      maxEnergy: s.maxEnergy,
    },
  });
  const activity = gl.currentActivity;
  const activityQueue =
    activity & START_INTERPLANETARY
      ? {}
      : activity & START_ENCOUNTER
        ? { npcShips: entries('NpcQ').map(ship) }
        : (activity & 0xff) === IN_INTERPLANETARY
          ? {
              ipGroups: entries('IGpQ').map((g) => ({ race: g.raceId, group: toIpGroup(g) })),
            }
          : { empty: [] };
  const star = chunkOf(save, 'Star')?.body ?? { x: 0, y: 0, type: 0, index: 0, prefix: 0, postfix: 0, rest: undefined };
  const stream: TypeOf<typeof legacyStream> = {
    globals: {
      curState: 0,
      globFlags: gl.globFlags,
      crewCost: gl.crewCost,
      fuelCost: gl.fuelCost,
      moduleCost: gl.moduleCost,
      elementWorth: gl.elementWorth,
      displayArray: new Uint8Array(4),
      currentActivity: gl.currentActivity,
      pad38: undefined,
      day: gl.day,
      month: gl.month,
      year: gl.year,
      tickCount: gl.tickCount,
      dayInTicks: gl.dayInTicks,
      clockDummies: new Uint8Array(12),
      eventQueueDummy: new Uint8Array(24),
      autopilotX: gl.autopilotX,
      autopilotY: gl.autopilotY,
      ipLocationX: gl.ipLocationX,
      ipLocationY: gl.ipLocationY,
      shipOriginX: gl.shipOriginX,
      shipOriginY: gl.shipOriginY,
      shipFacing: gl.shipFacing,
      ipPlanet: gl.ipPlanet,
      inOrbit: gl.inOrbit,
      velocity: [
        gl.travelAngle,
        gl.vectorWidth,
        gl.vectorHeight,
        gl.fractWidth,
        gl.fractHeight,
        gl.errorWidth,
        gl.errorHeight,
        gl.incrWidth,
        gl.incrHeight,
      ].map((v) => v & 0xffff),
      pad118: undefined,
      battleGroupRef: files.battleGroupRef,
      queueDummies: new Uint8Array(96),
      gameState: files.gameState,
      pad375: undefined,
    },
    raceQueue: entries('RacQ').map((r) => ({
      ...r,
      crewLevel: byte(r.crewLevel, 'race crew'),
      maxCrew: byte(r.maxCrew, 'race max crew'),
      pad28: undefined,
    })),
    activityQueue,
    shipQueue: entries('ShpQ').map(ship),
    events: entries('Evts').map((e) => ({
      dummies: new Uint8Array(8),
      day: e.day,
      month: e.month,
      year: e.year,
      funcIndex: e.funcIndex,
      pad13: undefined,
    })),
    encounters: entries('Enct').map((e) => ({
      dummies: new Uint8Array(12),
      transitionState: e.transitionState,
      originX: e.originX,
      originY: e.originY,
      radius: e.radius,
      starX: e.locX,
      starY: e.locY,
      type: e.raceId,
      index: (e.numShips & 0x0f) | (e.flags & 0xf0),
      pad26: undefined,
      ships: e.ships.map((s: { raceId: number; crew: number; maxCrew: number; maxEnergy: number }) => ({
        shipFlags: 0,
        raceId: s.raceId,
        var2: 0,
        crew: byte(s.crew, 'encounter crew'),
        maxCrew: byte(s.maxCrew, 'encounter max crew'),
        energy: 0,
        maxEnergy: s.maxEnergy,
        locX: 0,
        locY: 0,
        raceStrings: 0,
        dummies: new Uint8Array(8),
      })),
      logX: e.logX,
      logY: e.logY,
    })),
    starinfo: stateDocument(starInfo(12), files.starinfo),
    defgrp: stateDocument(definedGroupsFile, files.defgrp),
    randgrp: stateDocument(randomGroups, files.randgrp),
    star,
  };
  const s = save.summary;
  return {
    summary: {
      sis: s.sis,
      shipName: s.shipName,
      commanderName: s.commanderName,
      planetName: s.planetName,
      pad122: undefined,
      summary: s.summary,
      pad162: undefined,
    },
    stream: { value: stream },
  };
}

/** A state file's document as the stream holds it: decoded, or `{ $raw }` when it does not decode. */
function stateDocument<A>(codec: Codec<A>, bytes: Uint8Array): A | Raw {
  const out = decode(codec, bytes);
  return E.isRight(out) ? out.right.value : { $raw: bytes };
}
