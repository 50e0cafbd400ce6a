// Hostile UQM saves for the budget tests (issue 17): LZHUF bombs and length claims in 0.7 saves, and
// 0.8 saves of many chunks, many game states, wide scans, long queues and many battle groups.
import { encodeOrThrow } from '@savekit/core';
import {
  createUqmSave,
  legacySave,
  lzhufMaxDecodedLength,
  saveToLegacy,
  STAR_TABLE_SIZE,
  uqmSave,
  type UqmSave,
} from '@savekit/uqm';
import { randomBytes } from '@savekit/testkit';

type Chunk = UqmSave['chunks'][number];

/** A new 0.8 save with `extra` chunks before its Star chunk. */
function withChunks(extra: Chunk[], scan?: UqmSave['chunks'][number]): Uint8Array {
  const save = createUqmSave();
  if (scan !== undefined) save.chunks[2] = scan;
  // Not splice(..., ...extra): a spread of 260,000 arguments overflows the stack.
  save.chunks = [...save.chunks.slice(0, -1), ...extra, ...save.chunks.slice(-1)];
  return encodeOrThrow(uqmSave, save);
}

/** `n` more GmSt chunks (163 bytes, 410 entries in 1,238 bits each). */
export function manyGameStates(n: number): Uint8Array {
  const state = createUqmSave().chunks[1]!;
  return withChunks(Array.from({ length: n }, () => state));
}

/** `n` empty unknown chunks (8 bytes each). */
export function manyChunks(n: number): Uint8Array {
  return withChunks(Array.from({ length: n }, () => ({ id: 'Xtra', raw: new Uint8Array(0) }) as Chunk));
}

/** A Scan chunk whose one block holds `n` world records (12 bytes each). */
export function wideScan(n: number): Uint8Array {
  const worlds = Array.from({ length: n }, (_, i) => ({ mineral: i, energy: 0, bio: 0 }));
  return withChunks([], { id: 'Scan', body: { systems: [{ star: 82, worlds }] } } as Chunk);
}

/** A race queue of `n` entries (30 bytes each). */
export function longRaceQueue(n: number): Uint8Array {
  const race = {
    index: 1,
    alliedState: 0,
    daysLeft: 0,
    growthFract: 0,
    crewLevel: 1,
    maxCrew: 1,
    growth: 0,
    maxEnergy: 0,
    locX: 0,
    locY: 0,
    actualStrength: 0,
    knownStrength: 0,
    knownLocX: 0,
    knownLocY: 0,
    growthErrTerm: 0,
    funcIndex: 0,
    destLocX: 0,
    destLocY: 0,
  };
  return withChunks([{ id: 'RacQ', body: { entries: Array.from({ length: n }, () => race) } } as Chunk]);
}

/** `n` BtGp chunks of 255 groups of one ship (2,562 bytes each). */
export function manyBattleGroups(n: number): Uint8Array {
  const ship = {
    raceOuter: 1,
    captainsNameIndex: 0,
    raceId: 1,
    index: 0,
    crewLevel: 1,
    maxCrew: 1,
    energyLevel: 0,
    maxEnergy: 0,
  };
  const body = {
    encounterId: 0,
    current: 0,
    starIndex: 82,
    day: 1,
    month: 1,
    year: 2155,
    groups: Array.from({ length: 255 }, () => ({ icon: 1, ships: [ship] })),
    rest: undefined,
  };
  return withChunks(Array.from({ length: n }, () => ({ id: 'BtGp', body }) as Chunk));
}

/** A new save whose Summ chunk claims `size` bytes. */
export function summaryClaim(size: number): Uint8Array {
  const bytes = encodeOrThrow(uqmSave, createUqmSave());
  new DataView(bytes.buffer).setUint32(8, size, true);
  return bytes;
}

/** A new save whose GlSt chunk (after Summ) claims `size` bytes. */
export function chunkClaim(size: number): Uint8Array {
  const bytes = encodeOrThrow(uqmSave, createUqmSave());
  const summ = new DataView(bytes.buffer).getUint32(8, true);
  new DataView(bytes.buffer).setUint32(4 + 8 + summ + 4, size, true);
  return bytes;
}

/** A 0.7 save (from a new 0.8 one) whose starinfo holds `bytes` zeros (its table, then zeros): LZHUF packs them 12.8 to 1. */
export function legacyZeros(bytes: number): Uint8Array {
  const legacy = saveToLegacy(createUqmSave());
  legacy.stream.value.starinfo = { systems: [], lead: new Uint8Array(bytes - STAR_TABLE_SIZE) };
  return encodeOrThrow(legacySave, legacy);
}

/** A 0.7 save whose stream's length field claims `claim` bytes. */
export function legacyClaim(claim: number): Uint8Array {
  const bytes = encodeOrThrow(legacySave, saveToLegacy(createUqmSave()));
  new DataView(bytes.buffer).setUint32(164, claim, true);
  return bytes;
}

/** A 0.7 save's summary, then `codeBytes` of random code claiming the most they could decode to. */
export function legacyGarbage(codeBytes: number): Uint8Array {
  const good = encodeOrThrow(legacySave, saveToLegacy(createUqmSave()));
  const out = new Uint8Array(168 + codeBytes);
  out.set(good.subarray(0, 164));
  new DataView(out.buffer).setUint32(164, lzhufMaxDecodedLength(codeBytes), true);
  out.set(randomBytes(codeBytes, 17), 168);
  return out;
}
