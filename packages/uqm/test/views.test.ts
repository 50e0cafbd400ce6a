// The views of a UQM save (issue 23): the star map and the escort roster, on the real saves.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, encodeOrThrow, toJson, viewsOf, type VectorPicture, type ViewMark } from '@savekit/core';
import {
  captainName,
  createUqmSave,
  ESCORT_CLASSES,
  flagshipPosition,
  format,
  isStarVisited,
  legacySave,
  rosterView,
  saveToLegacy,
  STAR_CHART,
  STAR_FILLS,
  STAR_MAP_SIZE,
  STAR_MAP_STROKES,
  starMapView,
  toMegaMod,
  uqmDocument,
  uqmSave,
  withStarVisited,
  type UqmDocument,
  type UqmSave,
} from '@savekit/uqm';
import { realSavesFor, throughBytes } from './corpus';

const { saves, load: save, describe: withCorpus } = realSavesFor('UQM views');

function starMap(doc: UqmDocument): VectorPicture<UqmDocument> {
  const picture = starMapView.render(doc);
  if (picture.kind !== 'vector') throw new Error('expected a vector picture');
  return picture;
}

/** The mark of star `index` (the stars come first, in table order). */
const starMark = (doc: UqmDocument, index: number): ViewMark<UqmDocument> => starMap(doc).marks[index]!;

/** Whether a document path (`chunks[6].body.systems[0]`) names a value of the document's JSON. */
function resolves(doc: UqmDocument, path: string): boolean {
  let at: unknown = toJson(uqmDocument, doc);
  for (const segment of path.match(/[^.[\]]+/g) ?? []) {
    if (typeof at !== 'object' || at === null || !(segment in at)) return false;
    at = (at as Record<string, unknown>)[segment];
  }
  return true;
}

describe('the star table', () => {
  it('has the 502 stars of starinfo, Sol at 82 where the game has it', () => {
    expect(STAR_CHART).toHaveLength(502);
    expect(STAR_CHART[82]).toEqual({ index: 82, x: 1752, y: 1450, size: 'dwarf', colour: 'yellow', name: 'Sol' });
    // Sorted by y, as the game's table is.
    expect(STAR_CHART.every((s, i) => i === 0 || STAR_CHART[i - 1]!.y <= s.y)).toBe(true);
    expect(STAR_CHART.every((s) => s.x >= 0 && s.x <= 9999 && s.y >= 0 && s.y <= 9999 && s.name !== '')).toBe(true);
  });

  it('names captains by race and index (NAME_OFFSET 5); the Sa-Matra has none', () => {
    expect(captainName(2, 8)).toBe('Spiff');
    expect(captainName(6, 21)).toBe('Fwiffo');
    expect(captainName(2, 0)).toBeUndefined();
    expect(ESCORT_CLASSES).toHaveLength(24);
    expect(ESCORT_CLASSES[23]).toBeUndefined();
  });
});

withCorpus('the star map of a real save', () => {
  it('draws every star on a 1000-unit map, north up, with the flagship last', () => {
    const doc = save('uqmsave.17');
    const picture = starMap(doc);
    expect([picture.width, picture.height]).toEqual([STAR_MAP_SIZE, STAR_MAP_SIZE]);
    expect(picture.marks).toHaveLength(502 + 3);
    // Sol: (1752, 1450) → (175.2, (9999 − 1450) / 10); a yellow dwarf with a starinfo block (harvested).
    const sol = starMark(doc, 82);
    expect(sol).toMatchObject({
      shape: 'circle',
      r: 3,
      fill: STAR_FILLS.yellow,
      stroke: STAR_MAP_STROKES.harvested,
      label: 'Sol (harvested: 17 worlds on record)',
      path: 'chunks[6].body.systems[0]',
    });
    if (sol.shape !== 'circle') throw new Error('expected a circle');
    expect(sol.x).toBeCloseTo(175.2, 6);
    expect(sol.y).toBeCloseTo(854.9, 6);
    // Alpha Centauri (68), a red super giant, harvested: its block is the third.
    expect(starMark(doc, 68)).toMatchObject({ r: 6, fill: STAR_FILLS.red, path: 'chunks[6].body.systems[2]' });
    // A star the save records nothing of: its colour, no outline, no path, no edit (vanilla has no visits).
    const plain = starMark(doc, 0);
    expect(plain).toEqual({
      shape: 'circle',
      x: 500.7,
      y: 996.4,
      r: 3,
      fill: STAR_FILLS.green,
      label: 'Zeta Serpentis',
    });
  });

  it('marks the harvested stars of each save, and their paths resolve in the document', () => {
    const harvested = (doc: UqmSave) =>
      starMap(doc)
        .marks.slice(0, 502)
        .flatMap((m, i) => (m.stroke === STAR_MAP_STROKES.harvested ? [i] : []));
    expect(harvested(save('01-Start.uqmsave.dat'))).toEqual([]);
    expect(harvested(save('02-SingleRadioactiveFromMercury.uqmsave.dat'))).toEqual([82]);
    expect(harvested(save('uqmsave.12'))).toEqual([72, 82]);
    expect(harvested(save('uqmsave.16'))).toEqual([68, 72, 76, 82]);
    for (const name of saves.keys()) {
      const doc = save(name);
      const paths = starMap(doc).marks.flatMap((m) => (m.path === undefined ? [] : [m.path]));
      expect(paths.every((p) => resolves(doc, p))).toBe(true);
    }
  });

  it("places the flagship from the summary's log position: at the star it is at", () => {
    // 01-Start is at Sol; uqmsave.17 at the Pkunk homeworld (Delta Krueger, 522:525) as its Star chunk says.
    expect(flagshipPosition(save('01-Start.uqmsave.dat'))).toEqual({ x: 1752, y: 1450 });
    const doc = save('uqmsave.17');
    expect(flagshipPosition(doc)).toEqual({ x: 522, y: 525 });
    const ring = starMap(doc).marks[502]!;
    expect(ring).toMatchObject({
      shape: 'circle',
      stroke: STAR_MAP_STROKES.flagship,
      label: 'Vindicator at 52.2 : 52.5',
      path: 'summary.sis.logX',
    });
    if (ring.shape !== 'circle') throw new Error('expected a circle');
    expect([ring.x, ring.y]).toEqual([52.2, (9999 - 525) / 10]);
  });

  it('is pure: the same document draws the same picture, and drawing leaves it untouched', () => {
    const doc = save('uqmsave.16');
    const before = toJson(uqmSave, doc);
    const strip = (p: VectorPicture<UqmDocument>) => p.marks.map(({ edits, ...m }) => ({ ...m, edits: edits?.length }));
    expect(strip(starMap(doc))).toEqual(strip(starMap(doc)));
    expect(toJson(uqmSave, doc)).toEqual(before);
  });

  it('offers no visit edit on a vanilla save, which records no visits', () => {
    const doc = save('uqmsave.12');
    expect(starMap(doc).marks.some((m) => (m.edits?.length ?? 0) > 0)).toBe(false);
    expect(() => withStarVisited(doc, 82)).toThrow(RangeError);
  });
});

withCorpus('marking a star visited on a MegaMod save', () => {
  it('sets its SYS_VISITED bit through the edit; encoded and decoded, the map shows it visited', () => {
    const mega = toMegaMod(save('uqmsave.12'));
    const mark = starMark(mega, 82);
    expect(mark.path).toBe('chunks[6].body.systems[0]');
    // A star without a starinfo block points at its visit entry: star 300 is bit 12 of SYS_VISITED_09.
    expect(starMark(mega, 300)).toMatchObject({ path: 'chunks[1].body.SYS_VISITED_09', label: STAR_CHART[300]!.name });
    const edit = starMark(mega, 300).edits?.[0];
    expect(edit?.label).toBe(`Mark ${STAR_CHART[300]!.name} visited`);
    const before = toJson(uqmSave, mega);
    const edited = edit!.apply(mega) as UqmSave;
    expect(toJson(uqmSave, mega)).toEqual(before); // the edit leaves its argument alone
    const bytes = encodeOrThrow(uqmSave, edited);
    const back = decodeOrThrow(uqmSave, bytes);
    expect(isStarVisited(back, 300)).toBe(true);
    expect(isStarVisited(back, 301)).toBe(false);
    const state = (back.chunks[1] as { body: Record<string, number> }).body;
    expect(state.SYS_VISITED_09).toBe(1 << 12);
    const visited = starMark(back, 300);
    expect(visited).toMatchObject({ stroke: STAR_MAP_STROKES.visited, label: `${STAR_CHART[300]!.name} (visited)` });
    expect(visited.edits).toBeUndefined();
    // Only that bit changed: the rest of the save encodes as before.
    const plain = encodeOrThrow(uqmSave, mega);
    expect(bytes.length).toBe(plain.length);
    expect(bytes.filter((b, i) => b !== plain[i]).length).toBe(1);
  });

  it('sets bit 31 of an entry without going negative', () => {
    const mega = toMegaMod(save('uqmsave.12'));
    const back = throughBytes(withStarVisited(mega, 31));
    expect((back.chunks[1] as { body: Record<string, number> }).body.SYS_VISITED_00).toBe(2 ** 31);
    expect(() => withStarVisited(mega, 502)).toThrow(RangeError);
  });
});

withCorpus('the escort roster of a real save', () => {
  it('lists the flagship, then each escort with its captain and crew, each row with its path', () => {
    const doc = save('uqmsave.17');
    const picture = rosterView.render(doc);
    if (picture.kind !== 'table') throw new Error('expected a table');
    expect(picture.columns).toEqual(['#', 'Ship', 'Captain', 'Crew']);
    expect(picture.rows.map((r) => [r.cells, r.path])).toEqual([
      [['flagship', 'Vindicator', 'Zelnick', '49'], 'summary.shipName'],
      [['1', 'Earthling Cruiser', 'Spiff', '18 / 18'], 'chunks[3].body.entries[0]'],
      [['2', 'Spathi Eluder', 'Fwiffo', '30 / 30'], 'chunks[3].body.entries[1]'],
    ]);
    expect(picture.rows.every((r) => resolves(doc, r.path!))).toBe(true);
    expect(rosterView.render(doc)).toEqual(picture);
  });

  it("follows the save: 01-Start's one cruiser is captained by VanRijn", () => {
    const picture = rosterView.render(save('01-Start.uqmsave.dat'));
    if (picture.kind !== 'table') throw new Error('expected a table');
    expect(picture.rows[1]?.cells).toEqual(['1', 'Earthling Cruiser', 'VanRijn', '18 / 18']);
    expect(picture.rows[1]?.path).toBe('chunks[4].body.entries[0]');
  });
});

withCorpus('the views of a 0.7 save (made from a real one)', () => {
  const legacyOf = (name: string): UqmDocument =>
    decodeOrThrow(legacySave, encodeOrThrow(legacySave, saveToLegacy(save(name))));

  it("the map shows the same stars harvested, each path its block in the stream's decoded starinfo, and no edit", () => {
    const doc = legacyOf('uqmsave.16');
    const marks = starMap(doc).marks;
    const harvested = marks.slice(0, 502).flatMap((m, i) => (m.stroke === STAR_MAP_STROKES.harvested ? [i] : []));
    expect(harvested).toEqual([68, 72, 76, 82]);
    expect(marks[82]).toMatchObject({
      path: 'stream.value.starinfo.systems[0]',
      label: 'Sol (harvested: 17 worlds on record)',
    });
    expect(marks.some((m) => m.edits !== undefined)).toBe(false);
    expect(marks[502]).toMatchObject({ label: 'Vindicator at 84.3 : 43.1', path: 'summary.sis.logX' });
    expect(marks.flatMap((m) => (m.path === undefined ? [] : [m.path])).every((p) => resolves(doc, p))).toBe(true);
  });

  it('the roster lists the escorts of its stream, with their paths', () => {
    const doc = legacyOf('uqmsave.17');
    const picture = rosterView.render(doc);
    if (picture.kind !== 'table') throw new Error('expected a table');
    expect(picture.rows.map((r) => [r.cells, r.path])).toEqual([
      [['flagship', 'Vindicator', 'Zelnick', '49'], 'summary.shipName'],
      [['1', 'Earthling Cruiser', 'Spiff', '18 / 18'], 'stream.value.shipQueue[0]'],
      [['2', 'Spathi Eluder', 'Fwiffo', '30 / 30'], 'stream.value.shipQueue[1]'],
    ]);
    expect(picture.rows.every((r) => resolves(doc, r.path!))).toBe(true);
  });
});

describe('which saves have these views', () => {
  it('both on a 0.8 save, even a new one without escorts; neither on a document without its summary', () => {
    const fresh = createUqmSave({ name: 'New' });
    expect(viewsOf(format, fresh).map((v) => v.id)).toEqual(['star-map', 'roster']);
    const roster = rosterView.render(fresh);
    expect(roster.kind === 'table' && roster.rows.length).toBe(1);
    const broken = { ...fresh, summary: undefined } as unknown as UqmDocument;
    expect(starMapView.available(broken)).toBe(false);
    expect(rosterView.available(broken)).toBe(false);
    expect(viewsOf(format, broken)).toEqual([]);
    expect(() => starMapView.render(broken)).toThrow(RangeError);
    expect(() => rosterView.render(broken)).toThrow(RangeError);
  });

  it('the format offers them through its views hook, found by decoding a file', () => {
    const bytes = encodeOrThrow(uqmSave, createUqmSave({ name: 'Hook' }));
    const decoded = format.decode(bytes);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(viewsOf(format, decoded.right.value).map((v) => v.title)).toEqual(['Star map', 'Escort roster']);
  });
});
