// The checks EDGE makes on load: a save's MAPSECTOR/MAPLINE/MAPTHING ("count adler") against the
// map lumps of a WAD, and the message the engine gives on a mismatch.
import { checkLevel, createSave, levelInfo, mapChecks, mapLumpsFromWad, parseCountCheck } from '@savekit/edge';
import { adler32 } from './independent';
import { pwad } from './wad';

const fill = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
const things = fill(3 * 10, 1);
const linedefs = fill(4 * 14, 2);
const sectors = fill(2 * 26, 3);
const wad = pwad('MAP03', [
  ['THINGS', things],
  ['LINEDEFS', linedefs],
  ['SIDEDEFS', fill(30, 4)],
  ['VERTEXES', fill(16, 5)],
  ['SECTORS', sectors],
]);

function saveFor(sectorCheck = `2 ${adler32(sectors)}`) {
  return createSave({
    variables: {
      LEVEL: 'MAP03',
      MAPSECTOR: sectorCheck,
      MAPLINE: `4 ${adler32(linedefs)}`,
      MAPTHING: `3 ${adler32(things)}`,
    },
  });
}

test('the checks of a map: record counts from the lump sizes, Adler-32 of the raw bytes', () => {
  expect(mapChecks({ THINGS: things, LINEDEFS: linedefs, SECTORS: sectors })).toEqual({
    sectors: { count: 2, crc: adler32(sectors) },
    lines: { count: 4, crc: adler32(linedefs) },
    things: { count: 3, crc: adler32(things) },
  });
  // Hexen-format maps (with BEHAVIOR) have 16-byte linedefs and 20-byte things.
  expect(
    mapChecks({ THINGS: fill(40, 0), LINEDEFS: fill(32, 0), SECTORS: sectors, BEHAVIOR: fill(8, 0) }),
  ).toMatchObject({ lines: { count: 2 }, things: { count: 2 } });
});

test("a save made on this map passes; the map name defaults to the save's LEVEL", () => {
  expect(checkLevel(saveFor(), { wad })).toEqual({ ok: true, method: 'engine', mismatches: [] });
  expect(mapLumpsFromWad(wad, 'map03').SECTORS).toEqual(sectors);
});

test('another map: "Level data does not match", with what differs', () => {
  const changed = sectors.slice();
  changed[5]! ^= 1;
  const result = checkLevel(saveFor(), { THINGS: things, LINEDEFS: linedefs, SECTORS: changed });
  expect(result.ok).toBe(false);
  expect(result.message).toBe('Level data does not match');
  expect(result.mismatches).toEqual([
    {
      check: 'sectors',
      differs: 'crc',
      saved: { count: 2, crc: adler32(sectors) },
      map: { count: 2, crc: adler32(changed) },
    },
  ]);
});

test('1.29 prints the check value signed; it compares as unsigned', () => {
  const crc = adler32(sectors);
  const signed = crc | 0;
  expect(parseCountCheck(`2 ${signed}`)).toEqual({ count: 2, crc });
  expect(levelInfo(saveFor(`2 ${signed}`)).mapChecks.sectors).toEqual({ count: 2, crc });
  expect(checkLevel(saveFor(`2 ${signed}`), { wad }).ok).toBe(true);
});

test('a WAD without the map, or not a WAD, is an error', () => {
  expect(() => checkLevel(saveFor(), { wad, map: 'MAP04' })).toThrow(/no map MAP04/);
  expect(() => mapLumpsFromWad(new Uint8Array(20), 'MAP01')).toThrow(/not a WAD/);
});
