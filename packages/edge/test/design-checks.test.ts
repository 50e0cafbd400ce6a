// The design layout's level and DDF checks (issue 20, item 6): per-entry CRCs of a WAD map's
// sectors, linedefs and things combined with the seed's rotate-XOR, stored in a design save's Lvck,
// compared by checkLevel; Dfck from caller-supplied DDF entry CRCs. Expected values are built here
// from the Doom record layouts and an independent Adler-32.
import fc from 'fast-check';
import { DecodeError, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  checkDdf,
  checkLevel,
  combineCrcs,
  createSave,
  ddfChecks,
  designLevelChecks,
  dfck,
  edgeSave,
  entryCrc,
  lvck,
  mapEntryCrcs,
  mapLumpsFromWad,
  setDdfChecks,
  setLevelChecks,
  type EdgeSave,
  type LevelChecks,
} from '@savekit/edge';
import { designSaveOf, globChunk } from './design-fixtures';
import { adler32 } from './independent';
import { lumpsOf, mapLumps, pwad, twoRooms, type DoomMap } from './wad';

/** Adler-32 of ints, each as 4 big-endian bytes (EDGE's CRC helper for an int). */
const crcOf = (values: number[]): number => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => {
    b.writeInt32BE(v | 0, i * 4);
  });
  return adler32(b);
};
const rotl12 = (x: number) => ((x << 12) | (x >>> 20)) >>> 0;
const MIN = -(2 ** 31);
const MAX = 2 ** 31 - 1;

const wadOf = (map: DoomMap) => pwad('MAP01', mapLumps(map));

/** A design-layout save whose Glob holds the level name, and the given checks. */
function designSave(checks: LevelChecks): EdgeSave {
  const save = designSaveOf('A', 0x125, [
    globChunk([{ id: 'Wher', body: { game: 'HELL_ON_EARTH', level: 'MAP01', flags: 0, gravity: 8 } }]),
  ]);
  setLevelChecks(save, checks);
  return save;
}
const reread = (save: EdgeSave) => decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, save));

describe('per-entry CRCs of a Doom map, as the seed lists what each entry covers', () => {
  const crcs = mapEntryCrcs(lumpsOf(twoRooms()));

  test('sectors: tag, type, floor, ceiling, bounding box (top, bottom, left, right), line count', () => {
    // Sector 0: lines 0, 4, 5 and the middle line's front; sector 1: lines 1-3 and its back.
    expect(crcs.sectors).toEqual([crcOf([0, 0, 0, 128, 128, 0, 0, 64, 4]), crcOf([7, 9, 16, 96, 128, 0, 64, 128, 4])]);
  });

  test('linedefs: tag, type, both vertices, blocking/pass-through flags, a bit per side present', () => {
    expect(crcs.linedefs).toEqual([
      crcOf([0, 0, 0, 0, 64, 0, 1, 1]),
      crcOf([0, 0, 64, 0, 128, 0, 1, 1]),
      crcOf([0, 0, 128, 0, 128, 128, 1, 1]),
      crcOf([0, 0, 128, 128, 64, 128, 1, 1]),
      crcOf([0, 0, 64, 128, 0, 128, 1, 1]),
      crcOf([0, 0, 0, 128, 0, 0, 1, 1]),
      // two-sided (4) and secret (0x10) are not covered; pass-through (0x200) is; both sides present.
      crcOf([7, 1, 64, 0, 64, 128, 0x200, 3]),
    ]);
  });

  test('things: type, x, y, angle, options', () => {
    expect(crcs.things).toEqual([
      crcOf([1, 32, 32, 90, 7]),
      crcOf([3001, 96, 64, 180, 12]),
      crcOf([2011, 100, 100, 0, 7]),
    ]);
  });

  test("Lvck is each class's count and rotate-XOR of its entries, in map order; scripts are the caller's", () => {
    const checks = designLevelChecks(lumpsOf(twoRooms()), [0xdead, 0xbeef]);
    expect(checks).toEqual({
      sectors: { count: 2, crc: (rotl12(crcs.sectors[0]!) ^ crcs.sectors[1]!) >>> 0 },
      linedefs: { count: 7, crc: combineCrcs(crcs.linedefs) },
      things: { count: 3, crc: (rotl12(rotl12(crcs.things[0]!) ^ crcs.things[1]!) ^ crcs.things[2]!) >>> 0 },
      scripts: { count: 2, crc: 0x0dead000 ^ 0xbeef },
    });
    expect(designLevelChecks(lumpsOf(twoRooms())).scripts).toEqual({ count: 0, crc: 0 });
  });

  test("a sector without lines has Doom's cleared box and no lines", () => {
    const map = twoRooms();
    map.sectors.push([8, 8, 'F', 'C', 0, 0, 3]);
    expect(mapEntryCrcs(lumpsOf(map)).sectors[2]).toBe(crcOf([3, 0, 8, 8, MIN, MAX, MAX, MIN, 0]));
  });

  test('the WAD reader hands over VERTEXES and SIDEDEFS; a partial record at a lump end is ignored', () => {
    const lumps = mapLumpsFromWad(wadOf(twoRooms()), 'MAP01');
    expect(lumps.VERTEXES).toHaveLength(6 * 4);
    expect(lumps.SIDEDEFS).toHaveLength(8 * 30);
    const things = new Uint8Array([...lumpsOf(twoRooms()).THINGS, 1, 2, 3]);
    expect(mapEntryCrcs({ ...lumps, THINGS: things }).things).toEqual(crcs.things);
  });

  test('a reference out of range is a DecodeError (bad-pointer) at the record and its offset', () => {
    const map = twoRooms();
    map.lines[2]![1] = 6;
    const error = (() => {
      try {
        mapEntryCrcs(lumpsOf(map));
      } catch (e) {
        return e;
      }
    })() as DecodeError;
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ code: 'bad-pointer', path: ['LINEDEFS', 2, 'v2'], offset: 2 * 14 + 2 });
    const badSide = twoRooms();
    badSide.lines[6]![6] = 8;
    expect(() => mapEntryCrcs(lumpsOf(badSide))).toThrow(expect.objectContaining({ path: ['LINEDEFS', 6, 'left'] }));
    const badSector = twoRooms();
    badSector.sides[3]![5] = 2;
    expect(() => mapEntryCrcs(lumpsOf(badSector))).toThrow(
      expect.objectContaining({ code: 'bad-pointer', path: ['SIDEDEFS', 3, 'sector'], offset: 3 * 30 + 28 }),
    );
  });

  test('Hexen-format maps, or lumps without vertices and sidedefs, are refused', () => {
    const lumps = lumpsOf(twoRooms());
    expect(() => mapEntryCrcs({ ...lumps, BEHAVIOR: new Uint8Array(4) })).toThrow(/Hexen/);
    expect(() => mapEntryCrcs({ THINGS: lumps.THINGS, LINEDEFS: lumps.LINEDEFS, SECTORS: lumps.SECTORS })).toThrow(
      /VERTEXES and SIDEDEFS/,
    );
  });
});

describe('the Lvck and Dfck lumps: declarations of counts and check values', () => {
  test('Lvck is 4 × (u32 count, u32 crc) little-endian; Dfck 7 ×; both round-trip', () => {
    const checks = designLevelChecks(lumpsOf(twoRooms()), [5]);
    const bytes = encodeOrThrow(lvck, checks);
    const words = Array.from({ length: 8 }, (_, i) => Buffer.from(bytes).readUInt32LE(i * 4));
    expect(words).toEqual([2, checks.sectors.crc, 7, checks.linedefs.crc, 3, checks.things.crc, 1, 5]);
    expect(decodeOrThrow(lvck, bytes)).toEqual(checks);
    const ddf = ddfChecks({ attacks: [1, 2], weapons: [0xffffffff] });
    const ddfBytes = encodeOrThrow(dfck, ddf);
    expect(ddfBytes).toHaveLength(56);
    expect(decodeOrThrow(dfck, ddfBytes)).toEqual(ddf);
  });
});

describe('checkLevel on a design-layout save', () => {
  const wad = wadOf(twoRooms());
  const save = reread(designSave(designLevelChecks(lumpsOf(twoRooms()))));

  test('a save made on this map matches (scripts unchecked unless script CRCs are given)', () => {
    expect(save.layout).toBe('design');
    expect(checkLevel(save, { wad })).toEqual({ ok: true, method: 'design', mismatches: [], unchecked: ['scripts'] });
    expect(checkLevel(save, { wad }, { scripts: [] })).toEqual({ ok: true, method: 'design', mismatches: [] });
  });

  test('a changed sector: "Level data does not match", the sector check differs in its CRC only', () => {
    const map = twoRooms();
    map.sectors[1]![0] = 24; // floor height 16 → 24
    const result = checkLevel(save, { wad: wadOf(map) });
    expect(result.ok).toBe(false);
    expect(result.message).toBe('Level data does not match');
    expect(result.mismatches).toEqual([
      {
        check: 'sectors',
        differs: 'crc',
        saved: designLevelChecks(lumpsOf(twoRooms())).sectors,
        map: designLevelChecks(lumpsOf(map)).sectors,
      },
    ]);
  });

  test('another thing: the thing count and CRC differ; other scripts: the scripts check differs', () => {
    const map = twoRooms();
    map.things.push([0, 0, 0, 1, 7]);
    expect(checkLevel(save, { wad: wadOf(map) }).mismatches.map((m) => [m.check, m.differs])).toEqual([
      ['things', 'count and crc'],
    ]);
    expect(checkLevel(save, { wad }, { scripts: [0] }).mismatches).toEqual([
      { check: 'scripts', differs: 'count', saved: { count: 0, crc: 0 }, map: { count: 1, crc: 0 } },
    ]);
  });

  test('sectors in another order: same count, another check (the combination is order-sensitive)', () => {
    const map = twoRooms();
    map.sectors.reverse();
    for (const side of map.sides) side[5] = 1 - side[5];
    const result = checkLevel(save, { wad: wadOf(map) });
    expect(result.mismatches.map((m) => [m.check, m.differs])).toEqual([['sectors', 'crc']]);
  });

  test('an engine-layout save is still compared by Adler-32 of the raw lumps', () => {
    expect(checkLevel(createSave({ variables: { LEVEL: 'MAP01' } }), { wad }).method).toBe('engine');
  });
});

describe('checkDdf', () => {
  const entries = { attacks: [0x11, 0x22, 0x33], things: [0xabcdef01], weapons: [] as number[] };
  const save = designSave(designLevelChecks(lumpsOf(twoRooms())));
  setDdfChecks(save, ddfChecks(entries));
  const read = reread(save);

  test('the same DDF entries match; classes not given are unchecked', () => {
    expect(checkDdf(read, entries)).toEqual({
      ok: true,
      mismatches: [],
      unchecked: ['games', 'levels', 'lines', 'sectors'],
    });
  });

  test('a changed weapon list: the weapons check differs', () => {
    expect(checkDdf(read, { ...entries, weapons: [1] }).mismatches).toEqual([
      { check: 'weapons', differs: 'count and crc', saved: { count: 0, crc: 0 }, map: { count: 1, crc: 1 } },
    ]);
  });

  test('setting checks again replaces the lump; an engine save has no Dfck', () => {
    const copy = reread(read);
    setDdfChecks(copy, ddfChecks({ weapons: [1] }));
    expect(checkDdf(reread(copy), { weapons: [1] }).ok).toBe(true);
    expect(() => checkDdf(createSave(), entries)).toThrow(/no Dfck/);
  });
});

describe('laws of the rotate-XOR combination and the entry CRC', () => {
  const crc = fc.integer({ min: 0, max: 0xffffffff });

  test('appending an entry rotates the previous result by 12 bits and XORs the entry', () => {
    fc.assert(
      fc.property(fc.array(crc), crc, (xs, y) => combineCrcs([...xs, y]) === (rotl12(combineCrcs(xs)) ^ y) >>> 0),
    );
  });

  test('one entry is itself; no entries are 0; it is linear over XOR for lists of one length', () => {
    fc.assert(fc.property(crc, (x) => combineCrcs([x]) === x));
    expect(combineCrcs([])).toBe(0);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(crc, crc)),
        (pairs) =>
          combineCrcs(pairs.map(([a, b]) => (a ^ b) >>> 0)) ===
          (combineCrcs(pairs.map(([a]) => a)) ^ combineCrcs(pairs.map(([, b]) => b))) >>> 0,
      ),
    );
  });

  test('order-sensitive: swapping neighbours a, b changes the result unless a XOR b is rotation-invariant', () => {
    fc.assert(
      fc.property(fc.array(crc), crc, crc, fc.array(crc), (before, a, b, after) => {
        const swapped = combineCrcs([...before, b, a, ...after]) !== combineCrcs([...before, a, b, ...after]);
        const d = (a ^ b) >>> 0;
        return swapped === (rotl12(d) !== d);
      }),
    );
    // 0x11111111 is the same under a 12-bit rotation: those two orders collide.
    expect(combineCrcs([0x11111111, 0])).toBe(combineCrcs([0, 0x11111111]));
  });

  test("the seed's weakness: 12 × 8 bits is a whole number of turns, so entries 8 apart can swap unseen", () => {
    fc.assert(
      fc.property(fc.array(crc, { minLength: 9, maxLength: 40 }), fc.nat(), (xs, seed) => {
        const i = seed % (xs.length - 8);
        const ys = xs.slice();
        [ys[i], ys[i + 8]] = [ys[i + 8]!, ys[i]!];
        return combineCrcs(ys) === combineCrcs(xs);
      }),
    );
  });

  test('an entry CRC is Adler-32 of its ints, most significant byte first', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: MIN, max: MAX }), { maxLength: 12 }), (values) => {
        return entryCrc(values) === crcOf(values);
      }),
    );
    expect(entryCrc([])).toBe(1);
    expect(entryCrc([0x01020304])).toBe(adler32(Uint8Array.of(1, 2, 3, 4)));
  });
});
