// Issue 17 item 13 for Terrarum: what encodes must decode, to the same document. `encode` refuses the
// rest with an EncodeError at the document path; nothing untyped escapes it. The encode suite of
// @savekit/testkit mutates the package's samples and the real files one value at a time.
import * as E from 'fp-ts/lib/Either';
import { encode, encodeOrThrow, type EncodeError, fromJson, toJson } from '@savekit/core';
import { encodeSuite } from '@savekit/testkit';
import {
  encodeLayer,
  format,
  temd,
  tevdDisk,
  treeToDisk,
  type TerrarumDocument,
  type TevdDisk,
} from '@savekit/terrarum';
import { corpusFile, warnIfAbsent } from './corpus';
import { ourSave, ourSaveTree } from './save-fixture';

/** A TEMD world of two tiles. */
const twoTileWorld = {
  byteOrder: 'le' as const,
  bytesPerTile: 1,
  layerCount: 3,
  reserved: 0,
  width: 2,
  height: 1,
  spawnX: 0,
  spawnY: 0,
  terrain: Uint16Array.of(1, 2),
  wall: Uint16Array.of(3, 4),
};

const refused = (doc: TerrarumDocument): EncodeError => {
  let result: ReturnType<typeof format.encode>;
  expect(() => {
    result = format.encode(doc);
  }).not.toThrow();
  if (E.isRight(result!)) throw new Error('expected an EncodeError');
  expect(result!.left.name).toBe('EncodeError');
  return result!.left;
};

const disk = (): TevdDisk =>
  treeToDisk(
    new Map([
      ['a/b', Uint8Array.of(1)],
      ['c', Uint8Array.of(2)],
    ]),
  );
const withEntry = (d: TevdDisk, k: number, change: object): TerrarumDocument => ({
  kind: 'disk',
  disk: { ...d, entries: d.entries.map((e, i) => (i === k ? { ...e, ...change } : e)) },
});

describe('TEVd entries', () => {
  test('an entry id "" was written as a second id 0: refused, as every id not written plainly', () => {
    for (const id of ['', ' 1', '01', '-0', '0x1', '1.5', '2147483648']) {
      const error = refused(withEntry(disk(), 2, { id }));
      expect(error.path).toEqual(['disk', 'entries', 2, 'id']);
    }
    expect(refused(withEntry(disk(), 2, { id: '3' })).message).toMatch(/entry id 3 is used twice/);
  });

  test('names: empty, dot segments, slashes, NUL, lone surrogates, too long, or twice in one directory', () => {
    for (const name of ['', '.', '..', 'x/y', 'x\\y', 'x\0', '\ud800', 'é'.repeat(129)]) {
      const error = refused(withEntry(disk(), 2, { name }));
      expect(error.path).toEqual(['disk', 'entries', 2, 'name']);
    }
    // Entry 3 (`c`) renamed `a`: a file and a directory of one name in the root.
    expect(refused(withEntry(disk(), 3, { name: 'a' })).message).toMatch(/second entry named "a"/);
  });

  test('parents: an entry that is not on the disk, or a chain that loops (checked iteratively, 100,000 deep)', () => {
    expect(refused(withEntry(disk(), 2, { parent: '77' })).path).toEqual(['disk', 'entries', 2, 'parent']);
    const n = 100_000;
    const deep = treeToDisk(
      new Map([[`${Array.from({ length: n }, (_, i) => `d${i}`).join('/')}/f`, Uint8Array.of(1)]]),
    );
    const looped = withEntry(deep, 1, { parent: String(n) });
    expect(refused(looped).message).toMatch(/loop: a directory tree has no cycles/);
    expect(E.isRight(format.encode({ kind: 'disk', disk: deep }))).toBe(true);
  });

  test('a type that does not say the content, and TVDA names', () => {
    expect(refused(withEntry(disk(), 3, { type: 2 })).message).toMatch(/does not say file/);
    const tvda: TevdDisk = { ...disk(), layout: 'tvda', version: 254, name: '', attributes: new Uint8Array(17) };
    expect(refused(withEntry(tvda, 0, {})).message).toMatch(/TVDA entries have no names/);
  });

  test('a lone surrogate in the disk name is an EncodeError, not a TextCodingError', () => {
    expect(refused({ kind: 'disk', disk: { ...disk(), name: 'x\udc00' } }).path).toEqual(['disk', 'name']);
  });
});

describe('saves', () => {
  test('lone surrogates in any text: an EncodeError at its path', () => {
    const cases: Array<[(s: ReturnType<typeof ourSave>) => void, Array<string | number>]> = [
      [(s) => (s.worldinfo5 = '\ud800'), ['save', 'worldinfo5']],
      [(s) => (s.worldinfo2 = { rows: [['a', '\udfff']] }), ['save', 'worldinfo2', 'rows', 0, 1]],
      [(s) => (s.worldinfo3 = { rows: [], text: '\ud800' }), ['save', 'worldinfo3', 'text']],
      // (An actor's value is written by JSON.stringify, which escapes a lone surrogate: no refusal there.)
      [
        (s) => (s.lists = { 'Tiles_list.txt': { rows: [['\ud800']] } }),
        ['save', 'lists', 'Tiles_list.txt', 'rows', 0, 0],
      ],
      [(s) => (s.loadOrder = '\ud800'), ['save', 'loadOrder']],
      [(s) => (s.meta.name = '\ud800'), ['save', 'meta', 'name']],
    ];
    for (const [change, path] of cases) {
      const save = ourSave();
      change(save);
      expect(refused({ kind: 'save', save }).path).toEqual(path);
    }
  });

  test('what a folder would not read back the same: empty rows, own file names, hex names, a file that is a folder', () => {
    const cases: Array<[(s: ReturnType<typeof ourSave>) => void, RegExp]> = [
      [(s) => (s.worldinfo4 = { rows: [['a'], []] }), /no fields/],
      [(s) => (s.files.world = Uint8Array.of(1)), /the save's own file/],
      [(s) => (s.files.ABC = Uint8Array.of(1)), /is an actor/],
      [(s) => (s.files['tapestries/1/x'] = Uint8Array.of(1)), /is a file and the folder of tapestries\/1\/x/],
    ];
    for (const [change, message] of cases) {
      const save = ourSave();
      change(save);
      expect(refused({ kind: 'save', save }).message).toMatch(message);
    }
  });
});

describe('JSON worlds and TEMD', () => {
  test('a world whose text would not decode: a lone surrogate, an array, a layer with the wrong hash', () => {
    const layer = encodeLayer(2, 1, Uint16Array.of(1, 2));
    expect(refused({ kind: 'world', world: { text: '{"a":"\ud800"}' } }).path).toEqual(['world']);
    expect(refused({ kind: 'world', world: { text: '[]' } }).message).toMatch(/is an object/);
    const text = JSON.stringify({ layerTerrain: { ...layer, h: '0'.repeat(64) } });
    expect(refused({ kind: 'world', world: { text } }).message).toMatch(/layer layerTerrain: SHA-256/);
    expect(E.isRight(format.encode({ kind: 'world', world: { text: JSON.stringify({ layerTerrain: layer }) } }))).toBe(
      true,
    );
  });

  test('TEMD header values past their fields, and a big-endian header that reads as little-endian', () => {
    const world = twoTileWorld;
    expect(E.isRight(encode(temd, world))).toBe(true);
    for (const change of [{ spawnX: 2 ** 31 }, { reserved: -1 }, { bytesPerTile: 2 }, { width: 1.5 }]) {
      const r = encode(temd, { ...world, ...change });
      expect(E.isLeft(r) && r.left.path).toEqual([Object.keys(change)[0]]);
    }
    // Big-endian 65536×1 swaps to 256×16777216 (no fit); a 2×2 big-endian header swaps to a size too large: both fine.
    expect(E.isRight(encode(temd, { ...world, byteOrder: 'be' }))).toBe(true);
  });
});

test('encodeSuite: whatever encodes decodes, to the same document (samples, folder save, JSON world, TEMD)', () => {
  const tevd = corpusFile('TerranVirtualDisk_tevd-test-suite-00.tevd');
  const world = corpusFile('Terrarum_demoworld_2021-09-08.json');
  warnIfAbsent('encodeSuite on the real Terrarum files', tevd !== undefined && world !== undefined);
  const temdBytes = encodeOrThrow(temd, {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 4,
    reserved: 0,
    width: 4,
    height: 2,
    spawnX: 1,
    spawnY: 1,
    terrain: Uint16Array.from({ length: 8 }, (_, i) => i * 300),
    wall: Uint16Array.from({ length: 8 }, (_, i) => i),
    wire: new Uint8Array(8).fill(5),
  });
  const samples = [
    ...(tevd === undefined ? [] : [tevd]),
    ...(world === undefined ? [] : [world]),
    temdBytes,
    new TextEncoder().encode(
      JSON.stringify({ genver: 1, layerTerrain: encodeLayer(2, 2, Uint16Array.of(1, 2, 3, 4)) }),
    ),
  ];
  const report = encodeSuite(format, { samples });
  expect(report.encoded).toBeGreaterThan(0);
});

// A save recomputes its meta's CRCs and hash, and a CSV's text is regenerated when its rows change:
// what encodes is held to be a fixed point (it decodes to a document that encodes to the same files).
test('encodeSuite on a folder save: whatever encodes decodes to a document that encodes the same', () => {
  const report = encodeSuite(format, { samples: [ourSaveTree()], check: 'fixed-point' });
  expect(report.encoded).toBeGreaterThan(0);
});

test('encodeSuite on a save on a disk: whatever encodes is a fixed point (the save is written into the disk)', () => {
  const bytes = encodeOrThrow(tevdDisk, treeToDisk(ourSaveTree(), { name: 'save1' }));
  const report = encodeSuite(format, { samples: [bytes], check: 'fixed-point' });
  expect(report.encoded).toBeGreaterThan(0);
});

test('TEMD tiles and wires in JSON: a hole or a bad number is refused at its index before any array is made', () => {
  const world = { ...(toJson(temd, twoTileWorld) as object), wire: [5, 6] };
  expect(E.isRight(fromJson(temd, world))).toBe(true);
  // A script's array of length 2^32 − 1: its typed array (4 or 8 GiB) was allocated before the check.
  const sparse: number[] = [7];
  sparse.length = 2 ** 32 - 1;
  for (const [layer, what, kind] of [
    ['terrain', 'tile 1 is not a 16-bit number', 'Uint16Array'],
    ['wire', 'wire 1 is not a byte', 'Uint8Array'],
  ] as const) {
    // Counted by standing in for the constructor while the import runs (the length of each made).
    const original = globalThis[kind];
    const made: number[] = [];
    (globalThis as Record<string, unknown>)[kind] = new Proxy(original, {
      construct(target, args) {
        const array = Reflect.construct(target, args) as Uint8Array;
        made.push(array.length);
        return array;
      },
    });
    let result: ReturnType<typeof fromJson>;
    try {
      result = fromJson(temd, { ...world, [layer]: sparse });
    } finally {
      (globalThis as Record<string, unknown>)[kind] = original;
    }
    expect(E.isLeft(result) && result.left.problems).toEqual([{ path: [layer], message: what, code: 'invalid-value' }]);
    expect(made.filter((length) => length > 1000)).toEqual([]);
  }
  const bad = fromJson(temd, { ...world, wall: [3, 65536] });
  expect(E.isLeft(bad) && bad.left.problems).toEqual([
    { path: ['wall'], message: 'tile 1 is not a 16-bit number', code: 'invalid-value' },
  ]);
});
