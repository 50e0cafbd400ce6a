/**
 * Typed edits a player wants — resource units, fuel, crew, the ship roster, a star system's harvested
 * minerals — made through the document, so re-encoding changes those bytes and nothing else.
 *
 * @module
 */
import { isRawChunk, type KnownChunk, type TypeOf } from '@savekit/core';
import type { GameState } from './game-state.js';
import type { ShipEntry } from './records.js';
import type { KnownChunks, Summary, UqmSave } from './save.js';
import { isTaken, take, type ScanKind, type StarInfo } from './star-info.js';
import { isNodeTaken, takeNode, type NodeRef } from './star-map.js';

/** The race ids of `races.h` (ship and fleet `race_id`). */
export const RACES: ReadonlyArray<string> = [
  'ARILOU',
  'CHMMR',
  'HUMAN',
  'ORZ',
  'PKUNK',
  'SHOFIXTI',
  'SPATHI',
  'SUPOX',
  'THRADDASH',
  'UTWIG',
  'VUX',
  'YEHAT',
  'MELNORME',
  'DRUUGE',
  'ILWRATH',
  'MYCON',
  'SLYLANDRO',
  'UMGAH',
  'URQUAN',
  'ZOQFOTPIK',
  'SYREEN',
  'BLACK_URQUAN',
  'YEHAT_REBEL',
  'SAMATRA',
];

/** The chunk with this tag (the first), decoded. */
export function chunkOf<K extends keyof KnownChunks>(
  save: UqmSave,
  id: K,
): KnownChunk<K, TypeOf<KnownChunks[K]>> | undefined {
  return save.chunks.find((c) => c.id === id && !isRawChunk(c)) as KnownChunk<K, TypeOf<KnownChunks[K]>> | undefined;
}

/** The game state (`GmSt`), when its size is a known revision. */
export function gameStateOf(save: UqmSave): GameState | undefined {
  const body = chunkOf(save, 'GmSt')?.body;
  return body === undefined || 'raw' in body ? undefined : (body as GameState);
}

/** The SIS state and load-menu summary. */
export function summaryOf(save: UqmSave): Summary {
  return save.summary;
}

// The value, refused (a RangeError naming `what`) unless it is a whole number the field's width holds.
function unsigned(value: number, width: 16 | 32, what: string, verb: 'do' | 'does' = 'does'): number {
  if (!Number.isInteger(value) || value < 0 || value > 2 ** width - 1)
    throw new RangeError(`${what} ${value} ${verb} not fit ${width} bits`);
  return value;
}

/** Resource units (`ResUnits`). */
export function resourceUnits(save: UqmSave): number {
  return save.summary.sis.resUnits;
}

/** Sets the resource units. */
export function setResourceUnits(save: UqmSave, value: number): void {
  save.summary.sis.resUnits = unsigned(value, 32, 'resource units', 'do');
}

/**
 * Fuel on board, in the game's units (`FuelOnBoard`; the display shows it divided by 100,
 * `FUEL_TANK_SCALE`).
 */
export function fuel(save: UqmSave): number {
  return save.summary.sis.fuelOnBoard;
}

/** Sets the fuel on board (game units). */
export function setFuel(save: UqmSave, value: number): void {
  save.summary.sis.fuelOnBoard = unsigned(value, 32, 'fuel');
}

/** Crew on the flagship (`CrewEnlisted`). */
export function crew(save: UqmSave): number {
  return save.summary.sis.crewEnlisted;
}

/** Sets the flagship's crew. */
export function setCrew(save: UqmSave, value: number): void {
  save.summary.sis.crewEnlisted = unsigned(value, 16, 'crew');
}

/** The escort ships (`ShpQ`), with their race names. */
export function roster(save: UqmSave): Array<ShipEntry & { raceName: string }> {
  const entries = (chunkOf(save, 'ShpQ')?.body.entries ?? []) as ShipEntry[];
  return entries.map((s) => ({ ...s, raceName: RACES[s.raceId] ?? `race ${s.raceId}` }));
}

/**
 * Replaces the escort ships. The load menu's ship list (`Summ.summary.shipList`, `numShips`) follows,
 * as the game's `PrepareSummary` makes it; an empty roster drops the `ShpQ` chunk, as the game omits
 * empty queues.
 */
export function setRoster(save: UqmSave, ships: ReadonlyArray<ShipEntry>): void {
  if (ships.length > 12) throw new RangeError(`at most 12 escorts; got ${ships.length}`);
  const existing = save.chunks.findIndex((c) => c.id === 'ShpQ');
  const body = { entries: ships.map((s) => ({ ...s })) };
  if (ships.length === 0) {
    if (existing >= 0) save.chunks.splice(existing, 1);
  } else if (existing >= 0) (save.chunks[existing] as { body: unknown }).body = body;
  else {
    // After RacQ/NpcQ/IGpQ, before Evts — where the game writes it.
    const after = Math.max(...['GmSt', 'RacQ', 'NpcQ', 'IGpQ'].map((id) => save.chunks.findIndex((c) => c.id === id)));
    save.chunks.splice(after + 1, 0, { id: 'ShpQ', body } as never);
  }
  const summary = save.summary.summary;
  summary.numShips = ships.length;
  summary.shipList = Array.from({ length: 12 }, (_, i) => (i < ships.length ? ships[i]!.raceId : 0));
}

/** The `Scan` chunk's star info (harvested nodes per world). */
export function scanOf(save: UqmSave): StarInfo | undefined {
  return chunkOf(save, 'Scan')?.body as StarInfo | undefined;
}

/** Whether node `node` of `kind` on world `world` of star `star` has been harvested. */
export function isHarvested(save: UqmSave, star: number, world: number, kind: ScanKind, node: number): boolean {
  const scan = scanOf(save);
  return scan !== undefined && isTaken(scan, star, world, kind, node);
}

/**
 * Marks a node harvested, as the game does on pickup (a system's first pickup adds its block, as many
 * worlds as the game generates there; `worldCount` overrides that for a modded game). {@link harvestNode}
 * names the world.
 */
export function harvest(
  save: UqmSave,
  star: number,
  world: number,
  kind: ScanKind,
  node: number,
  worldCount?: number,
): void {
  const scan = scanOf(save);
  if (scan === undefined) throw new Error('the save has no Scan chunk');
  take(scan, star, world, kind, node, worldCount, save.magic === 'UMS\x01' ? 12 : 108);
}

/**
 * Marks a node on a named world harvested: `harvestNode(save, { star: 'Sol', planet: 'Mercury', kind:
 * 'mineral', node: 14 })`. See `takeNode` for the world count of a new block.
 */
export function harvestNode(save: UqmSave, ref: NodeRef, options: { worldCount?: number } = {}): void {
  const scan = scanOf(save);
  if (scan === undefined) throw new Error('the save has no Scan chunk');
  takeNode(scan, ref, { ...options, recordSize: save.magic === 'UMS\x01' ? 12 : 108 });
}

/** Whether a node on a named world has been harvested. */
export function isNodeHarvested(save: UqmSave, ref: NodeRef): boolean {
  const scan = scanOf(save);
  return scan !== undefined && isNodeTaken(scan, ref);
}
