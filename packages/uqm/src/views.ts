/**
 * Pictures of a UQM save (the `views` hook of the format contract): the star map as the game's
 * navigation screen shows it — the 502 stars, the ones the save records as visited or harvested
 * styled apart, and the flagship where it is — and the escort roster with the flagship first.
 *
 * What a save records about stars: vanilla 0.8 has no per-star "visited" flag; its `Scan` chunk
 * (`starinfo`; in a 0.7 save, the copy inside its stream) holds a block for each system where
 * something was picked up from a world (mineral, energy or biological node), so the map marks those
 * stars **harvested**. MegaMod from game-state
 * revision 2 (MMV3, MMV4) records visits in `SYS_VISITED_00…15` (bit `i % 32` of entry `i / 32`,
 * as its `isStarVisited`), so there the map marks stars **visited** and offers `Mark <star> visited`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, type SaveView, type TablePicture, type VectorPicture, type ViewMark } from '@savekit/core';
import { gameStateOf, RACES } from './edits.js';
import type { UqmDocument } from './format.js';
import type { ShipEntry } from './records.js';
import type { UqmSave } from './save.js';
import { starInfo, type StarInfo } from './star-info.js';
import { CAPTAIN_NAME_OFFSET, ESCORT_CLASSES, STAR_CHART, type ChartStar, type StarColour } from './views-data.js';

/** Whether a document is a 0.8 or MegaMod save (as `isChunkedSave`; not imported: `format` imports this module). */
function isChunkedSave(doc: UqmDocument): doc is UqmSave {
  return typeof doc === 'object' && doc !== null && 'magic' in doc;
}

/** Whether a document has the summary's SIS state both views read (any decoded save has). */
function hasSummary(doc: UqmDocument): boolean {
  const sis = typeof doc === 'object' && doc !== null ? (doc.summary as { sis?: unknown } | undefined)?.sis : undefined;
  return typeof sis === 'object' && sis !== null;
}

/** The star map's side in picture units: universe units (0…9999) divided by 10, as the game shows them. */
export const STAR_MAP_SIZE = 1000;

/** The largest universe coordinate (`MAX_X_UNIVERSE`, `MAX_Y_UNIVERSE`). */
const MAX_UNIVERSE = 9999;

/** Fill colours of the star colours on the map. */
export const STAR_FILLS: Readonly<Record<StarColour, string>> = Object.freeze({
  blue: '#5a8cff',
  green: '#3cc85a',
  orange: '#ff9628',
  red: '#ff3c3c',
  white: '#f0f0f0',
  yellow: '#ffe646',
});

/** Outline colours: a visited star (MegaMod's flag), a harvested one (a `starinfo` block), the flagship. */
export const STAR_MAP_STROKES = Object.freeze({ visited: '#ffffff', harvested: '#40e0ff', flagship: '#ff40ff' });

/** The radius of a star's mark by its size. */
const RADII = { dwarf: 3, giant: 4.5, supergiant: 6 } as const;

/** A universe point in map picture units (x / 10; y flipped, north up, as the game draws it). */
export function universeToMap(x: number, y: number): { x: number; y: number } {
  return { x: x / 10, y: (MAX_UNIVERSE - y) / 10 };
}

/**
 * The flagship's place in universe units, from the summary's `log_x`/`log_y`: the hyperspace
 * position, which in a star system is where the ship entered it (the star's). Converted as the game's
 * `LOGX_TO_UNIVERSE`/`LOGY_TO_UNIVERSE` with the original resolution's factors (`oldLogxToUniverse`:
 * 6250/99840 and 625/12000, y from the top), the units saves store. Sol's saves give (1752, 1450).
 */
export function flagshipPosition(save: UqmDocument): { x: number; y: number } {
  const { logX, logY } = save.summary.sis;
  return {
    x: Math.floor((logX * 6250 + 49920) / 99840),
    y: MAX_UNIVERSE - Math.floor((logY * 625 + 6000) / 12000),
  };
}

/** The index of the first decoded chunk with this tag (the one `chunkOf` gives), or -1. */
function chunkIndex(save: UqmSave, id: string): number {
  return save.chunks.findIndex((c) => c.id === id && 'body' in c);
}

/** The game-state entry recording visits to star `star` (MegaMod revision 2 on). */
function visitEntry(star: number): string {
  return `SYS_VISITED_${String(Math.floor(star / 32)).padStart(2, '0')}`;
}

/** Whether the save's game state records star visits (MegaMod from revision 2). */
function recordsVisits(save: UqmSave): boolean {
  const state = gameStateOf(save);
  return state !== undefined && typeof state.SYS_VISITED_00 === 'number';
}

/** Whether star `star` is marked visited in the game state (false where the save records no visits). */
export function isStarVisited(save: UqmSave, star: number): boolean {
  const value = gameStateOf(save)?.[visitEntry(star)];
  return typeof value === 'number' && ((value >>> (star % 32)) & 1) === 1;
}

/**
 * The save with star `star` marked visited, as MegaMod's `setStarVisited` does (its `SYS_VISITED`
 * bit set); `save` is left untouched. A RangeError where the save records no visits (vanilla 0.8).
 */
export function withStarVisited(save: UqmSave, star: number): UqmSave {
  if (!Number.isInteger(star) || star < 0 || star >= STAR_CHART.length)
    throw new RangeError(`star ${star} is not 0 to ${STAR_CHART.length - 1}`);
  const at = chunkIndex(save, 'GmSt');
  if (at < 0 || !recordsVisits(save)) throw new RangeError('this save records no star visits (vanilla 0.8 has none)');
  const entry = visitEntry(star);
  const state = (save.chunks[at] as { body: Record<string, number> }).body;
  const body = { ...state, [entry]: (state[entry]! | (1 << (star % 32))) >>> 0 };
  const chunks = save.chunks.map((c, i) => (i === at ? ({ ...c, body } as typeof c) : c));
  return { ...save, chunks };
}

/** A save's `starinfo` and the document path of its block `i`. */
interface HarvestRecords {
  readonly info: StarInfo;
  pathOf(block: number): string;
}

/**
 * The save's `starinfo`: a 0.8 save's `Scan` chunk; a 0.7 save's copy inside its stream — bytes (read
 * here; no finer path than the bytes) or, where decoded, systems.
 */
function harvestRecords(doc: UqmDocument): HarvestRecords | undefined {
  if (isChunkedSave(doc)) {
    const at = chunkIndex(doc, 'Scan');
    if (at < 0) return undefined;
    return { info: (doc.chunks[at] as { body: StarInfo }).body, pathOf: (i) => `chunks[${at}].body.systems[${i}]` };
  }
  const held: unknown = doc.stream?.value?.starinfo;
  if (held instanceof Uint8Array) {
    const read = decode(starInfo(12), held);
    return E.isLeft(read) ? undefined : { info: read.right.value, pathOf: () => 'stream.value.starinfo' };
  }
  if (typeof held === 'object' && held !== null && Array.isArray((held as StarInfo).systems))
    return { info: held as StarInfo, pathOf: (i) => `stream.value.starinfo.systems[${i}]` };
  return undefined;
}

/** A star's mark: its circle, styled by what the save records, with its path and edits. */
function starMark(
  doc: UqmDocument,
  star: ChartStar,
  scan: HarvestRecords | undefined,
  visits: { at: number } | undefined,
): ViewMark<UqmDocument> {
  const { x, y } = universeToMap(star.x, star.y);
  const block = scan?.info.systems.findIndex((s) => s.star === star.index) ?? -1;
  const visited = visits !== undefined && isChunkedSave(doc) && isStarVisited(doc, star.index);
  const notes = [
    ...(visited ? ['visited'] : []),
    ...(block >= 0 ? [`harvested: ${scan!.info.systems[block]!.worlds.length} worlds on record`] : []),
  ];
  const path =
    block >= 0
      ? scan!.pathOf(block)
      : visits !== undefined
        ? `chunks[${visits.at}].body.${visitEntry(star.index)}`
        : undefined;
  const edits =
    visits !== undefined && !visited
      ? [
          {
            label: `Mark ${star.name} visited`,
            apply: (edited: UqmDocument) => {
              if (!isChunkedSave(edited)) throw new RangeError('a 0.7 save records no star visits');
              return withStarVisited(edited, star.index);
            },
          },
        ]
      : undefined;
  return {
    shape: 'circle',
    x,
    y,
    r: RADII[star.size],
    fill: STAR_FILLS[star.colour],
    ...(visited ? { stroke: STAR_MAP_STROKES.visited } : block >= 0 ? { stroke: STAR_MAP_STROKES.harvested } : {}),
    label: notes.length > 0 ? `${star.name} (${notes.join(', ')})` : star.name,
    ...(path === undefined ? {} : { path }),
    ...(edits === undefined ? {} : { edits }),
  };
}

/** The star map of a save. */
function drawStarMap(doc: UqmDocument): VectorPicture<UqmDocument> {
  if (!hasSummary(doc)) throw new RangeError('the save has no summary to place the flagship by');
  const scan = harvestRecords(doc);
  const visits = isChunkedSave(doc) && recordsVisits(doc) ? { at: chunkIndex(doc, 'GmSt') } : undefined;
  const marks: Array<ViewMark<UqmDocument>> = STAR_CHART.map((star) => starMark(doc, star, scan, visits));
  const ship = flagshipPosition(doc);
  const at = universeToMap(ship.x, ship.y);
  const name = nameText(doc.summary.shipName);
  const where = `${(ship.x / 10).toFixed(1)} : ${(ship.y / 10).toFixed(1)}`;
  // The flagship last, drawn over the stars: a ring and a cross.
  marks.push(
    {
      shape: 'circle',
      x: at.x,
      y: at.y,
      r: 10,
      stroke: STAR_MAP_STROKES.flagship,
      label: `${name} at ${where}`,
      path: 'summary.sis.logX',
    },
    { shape: 'line', x: at.x - 14, y: at.y, x2: at.x + 14, y2: at.y, stroke: STAR_MAP_STROKES.flagship },
    { shape: 'line', x: at.x, y: at.y - 14, x2: at.x, y2: at.y + 14, stroke: STAR_MAP_STROKES.flagship },
  );
  return { kind: 'vector', width: STAR_MAP_SIZE, height: STAR_MAP_SIZE, background: '#000014', marks };
}

/**
 * The star map: every star of the game (`STAR_CHART`) at its position (universe units / 10, north
 * up), filled with its colour, sized by its type; outlined white where MegaMod records it visited,
 * cyan where the save's `starinfo` has its block (something harvested there). A star's `path` is its
 * `starinfo` block (`chunks[6].body.systems[0]`) or, in MegaMod, its `SYS_VISITED` entry; a star not
 * yet visited offers `Mark <star> visited` where the save records visits. The flagship is a magenta
 * ring and cross at {@link flagshipPosition} (path `summary.sis.logX`). Every kind of save: in a 0.7
 * save a harvested star's path is its stream's `starinfo` (`stream.value.starinfo`), and no edit.
 */
export const starMapView: SaveView<UqmDocument> = {
  id: 'star-map',
  title: 'Star map',
  available: hasSummary,
  render: drawStarMap,
};

/** The name a ship's captain has (the race's `captainsNameIndex`-th string), or undefined. */
export function captainName(raceId: number, captainsNameIndex: number): string | undefined {
  return ESCORT_CLASSES[raceId]?.captains[captainsNameIndex - CAPTAIN_NAME_OFFSET];
}

/** A name field as text: a string, a name's text before its NUL (`{ text, tail }`), or a note for other bytes. */
function nameText(name: unknown): string {
  if (typeof name === 'string') return name;
  const text = typeof name === 'object' && name !== null ? (name as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : '(not text)';
}

/** A ship of the escort queue as the roster reads it, with its document path. */
type Escort = Pick<ShipEntry, 'raceId' | 'captainsNameIndex' | 'crewLevel' | 'maxCrew'> & { path: string };

/** The escorts: a 0.8 save's `ShpQ` entries, a 0.7 save's `shipQueue` ships. */
function escortsOf(doc: UqmDocument): Escort[] {
  if (isChunkedSave(doc)) {
    const at = chunkIndex(doc, 'ShpQ');
    const entries = at < 0 ? [] : ((doc.chunks[at] as { body?: { entries?: ShipEntry[] } }).body?.entries ?? []);
    return entries.map((ship, i) => ({ ...ship, path: `chunks[${at}].body.entries[${i}]` }));
  }
  const queue: unknown = doc.stream?.value?.shipQueue;
  if (!Array.isArray(queue)) return [];
  return queue.map((entry: { ship: ShipEntry }, i) => ({ ...entry.ship, path: `stream.value.shipQueue[${i}]` }));
}

/** The escort roster of a save. */
function drawRoster(doc: UqmDocument): TablePicture<UqmDocument> {
  if (!hasSummary(doc)) throw new RangeError('the save has no summary to name the flagship by');
  const sis = doc.summary.sis;
  const rows: Array<TablePicture<UqmDocument>['rows'][number]> = [
    {
      cells: [
        'flagship',
        nameText(doc.summary.shipName),
        nameText(doc.summary.commanderName),
        String(sis.crewEnlisted),
      ],
      label: 'The flagship: its name and commander',
      path: 'summary.shipName',
    },
  ];
  for (const [i, ship] of escortsOf(doc).entries()) {
    const kind = ESCORT_CLASSES[ship.raceId];
    const race = kind === undefined ? (RACES[ship.raceId] ?? `race ${ship.raceId}`) : `${kind.race} ${kind.ship}`;
    const captain = captainName(ship.raceId, ship.captainsNameIndex) ?? `captain ${ship.captainsNameIndex}`;
    rows.push({
      cells: [String(i + 1), race, captain, `${ship.crewLevel} / ${ship.maxCrew}`],
      label: `${captain}'s ${race}`,
      path: ship.path,
    });
  }
  return { kind: 'table', columns: ['#', 'Ship', 'Captain', 'Crew'], rows };
}

/**
 * The escort roster: the flagship first (its name, commander and crew; path `summary.shipName`),
 * then each escort of `ShpQ` — its race and ship class (`Earthling Cruiser`), its captain's name (the
 * race's captain list, `captainsNameIndex`), crew of maximum crew; path `chunks[4].body.entries[0]`
 * (a 0.7 save: `stream.value.shipQueue[0]`).
 */
export const rosterView: SaveView<UqmDocument> = {
  id: 'roster',
  title: 'Escort roster',
  available: hasSummary,
  render: drawRoster,
};

/** The views of a UQM save: {@link starMapView} and {@link rosterView}. */
export const uqmViews: ReadonlyArray<SaveView<UqmDocument>> = [starMapView, rosterView];
