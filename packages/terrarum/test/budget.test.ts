// Issue 17 for Terrarum: every loop, decompressor and allocation of a decode goes through the decode's
// one budget, and each attack of the issue is a typed error (or the right answer) whose cost is
// proved by counting what the budget was charged — never by timing.
import { gzipSync as nodeGzip } from 'node:zlib';
import * as E from 'fp-ts/lib/Either';
import { BudgetError, DecodeError, decode, encodeOrThrow, pathAnnotation } from '@savekit/core';
import { DecodeBudget } from '@savekit/core/kit';
import { testBudget } from '@savekit/testkit';
import {
  decodeLayer,
  diskToTree,
  encodeLayer,
  format,
  jsonWorld,
  temdFile,
  tevdDisk,
  treeToDisk,
  type TevdDisk,
} from '@savekit/terrarum';
import { ourSaveTree } from './save-fixture';

const big = () => new DecodeBudget({ maxTotalOutput: 2 ** 40, maxWork: 2 ** 40 });
const left = <A>(result: E.Either<DecodeError, A>): DecodeError => {
  if (E.isRight(result)) throw new Error('expected an error');
  return result.left;
};

/** A save on a disk, plus `files` files under `depth` nested directories of `nameLength`-character names. */
function deepSaveDisk(depth: number, files: number, nameLength = 250): Uint8Array {
  const tree = ourSaveTree();
  const prefix = Array.from({ length: depth }, (_, i) => `${i}`.padStart(nameLength, 'd')).join('/');
  for (let i = 0; i < files; i++) tree.set(`${prefix}/f${i}`, Uint8Array.of(i & 0xff));
  return encodeOrThrow(tevdDisk, treeToDisk(tree));
}

describe('TEVd directory trees (item 2)', () => {
  // The case was 1,000 × 1,000 (578 KB, 36 s; 250 MB of path text); here 200 × 200 (10 MB of
  // paths) against a 4 MiB budget, which builds quickly. The by-hand measure is in the report.
  test('nested directories of 250-character names with many files: a budget error at the budget, not minutes', () => {
    const bytes = deepSaveDisk(200, 200);
    const budget = new DecodeBudget({ maxTotalOutput: 4 * 2 ** 20, maxWork: 4 * 2 ** 20 });
    const error = left(format.decode(bytes, { budget }));
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).budget).toBe('output');
    expect(error.message).toMatch(/maxTotalOutput/);
    // The paths were charged before they were built: nothing past the budget was made.
    expect(budget.outputSpent).toBeLessThanOrEqual(4 * 2 ** 20);
    // Each entry was resolved once (the old code walked 200 ancestors for each of 200 files).
    expect(budget.workSpent).toBeLessThan(5_000);
  });

  test('the same tree without a save decodes: its paths are never asked for', () => {
    const tree = new Map<string, Uint8Array>();
    const prefix = Array.from({ length: 200 }, (_, i) => `${i}`.padStart(250, 'd')).join('/');
    for (let i = 0; i < 200; i++) tree.set(`${prefix}/f${i}`, Uint8Array.of(1));
    const budget = big();
    const decoded = format.decode(encodeOrThrow(tevdDisk, treeToDisk(tree)), { budget });
    expect(E.isRight(decoded) && decoded.right.value.kind).toBe('disk');
    expect(budget.outputSpent).toBe(0);
  });

  test('with a budget that holds them, the paths are right, and charged exactly their length', () => {
    const bytes = deepSaveDisk(200, 50, 40);
    const budget = big();
    const decoded = format.decode(bytes, { budget });
    if (E.isLeft(decoded) || decoded.right.value.kind !== 'disk') throw new Error('expected a disk');
    const files = decoded.right.value.save!.files;
    const deep = Object.keys(files).filter((p) => p.includes('/f'));
    expect(deep).toHaveLength(50);
    expect(deep[0]!.split('/')).toHaveLength(201);
    const total = [...diskToTree(decoded.right.value.disk).keys()].reduce((n, p) => n + p.length, 0);
    expect(budget.outputSpent).toBe(total);
  });

  // Work counted by the budget: one unit per entry read and per step taken up a parent chain. The
  // old diskToTree walked every ancestor of every file: depth × files steps.
  const treeWork = (depth: number, files: number) => {
    const tree = new Map<string, Uint8Array>();
    const prefix = Array.from({ length: depth }, (_, i) => `d${i}`).join('/');
    for (let i = 0; i < files; i++) tree.set(`${prefix}/f${i}`, Uint8Array.of(1));
    const disk = treeToDisk(tree);
    const budget = new DecodeBudget({ maxTotalOutput: 2 ** 52, maxWork: 2 ** 52 });
    diskToTree(disk, budget);
    return budget.workSpent;
  };
  test('scaling: doubling the depth and the width of a tree at most about doubles the work of its paths', () => {
    const n = testBudget({ quick: 500, heavy: 1000 }); // the work is counted: a bigger tree proves no more, and building its paths costs depth × files
    const base = treeWork(n, n);
    const deeper = treeWork(2 * n, n);
    const wider = treeWork(n, 2 * n);
    const both = treeWork(2 * n, 2 * n);
    expect(deeper / base).toBeLessThan(2.2);
    expect(wider / base).toBeLessThan(2.2);
    expect(both / base).toBeLessThan(2.2);
    // Linear: about one unit per entry (depth + files + the root).
    expect(both).toBeLessThanOrEqual(2 * (4 * n + 1));
  });

  test('the entries of a disk are work: a disk of more entries than the budget is a work BudgetError', () => {
    const tree = new Map<string, Uint8Array>();
    for (let i = 0; i < 2000; i++) tree.set(`f${i}`, new Uint8Array(0));
    const bytes = encodeOrThrow(tevdDisk, treeToDisk(tree));
    const error = left(format.decode(bytes, { maxWork: 1000 }));
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).budget).toBe('work');
    // Each entry and each child a directory lists is a unit: 2,001 entries, 2,000 children.
    const budget = big();
    expect(E.isRight(format.decode(bytes, { budget }))).toBe(true);
    expect(budget.workSpent).toBeGreaterThanOrEqual(4001);
  });

  test('a deep parent chain that loops decodes without recursion, cut where it repeats', () => {
    const n = 100_000;
    const tree = new Map([[`${Array.from({ length: n }, (_, i) => `d${i}`).join('/')}/f`, Uint8Array.of(7)]]);
    const disk = treeToDisk(tree);
    // The outermost directory's parent made the innermost: a loop of 100,000 directories.
    const looped: TevdDisk = {
      ...disk,
      entries: disk.entries.map((e) => (e.id === '1' ? { ...e, parent: String(n) } : e)),
    };
    const paths = [...diskToTree(looped).keys()];
    expect(paths).toHaveLength(1);
    expect(paths[0]!.split('/')).toHaveLength(n + 1);
  });

  test('size claims in entry headers are checked against the bytes present before anything is allocated', () => {
    const bytes = encodeOrThrow(tevdDisk, treeToDisk(new Map([['a', Uint8Array.of(1, 2, 3)]])));
    // The file entry's 48-bit length (after the root's 281 + 2 + 4 bytes and its own 281-byte header).
    const lengthAt = 47 + 281 + 2 + 4 + 281;
    const claimed = bytes.slice();
    claimed.set([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff], lengthAt);
    const error = left(decode(tevdDisk, claimed, { checksums: 'warn' }));
    expect(error.message).toMatch(/is more than the 3 bytes left/);
    // A directory claiming 65,535 children it does not have.
    const dir = bytes.slice();
    dir.set([0xff, 0xff], 47 + 281);
    expect(left(decode(tevdDisk, dir, { checksums: 'warn' })).message).toMatch(
      /65535 elements of at least 4 bytes do not fit/,
    );
  });
});

/** A JSON world of `layers` layers (keys layer0…), each `layer`. */
function worldText(layer: object, layers: number): Uint8Array {
  const fields: Record<string, unknown> = { genver: 1 };
  for (let i = 0; i < layers; i++) fields[`layer${i}`] = layer;
  return new TextEncoder().encode(JSON.stringify(fields));
}

describe('JSON-era world layers (item 4)', () => {
  test('a 16384×16384 layer is refused before anything is inflated', () => {
    // The size is claimed first: the stream itself does not matter (the was 652 KB of gzipped zeros).
    const layer = { ...encodeLayer(2, 1, Uint16Array.of(1, 2)), x: '16384', y: '16384' };
    const budget = big();
    const error = left(format.decode(worldText(layer, 1), { budget }));
    expect(error.message).toMatch(
      /over the limit of 268435456 bytes for one layer \(DecodeOptions.maxTransformOutput\)/,
    );
    expect(error.path).toEqual(['world', 'text', pathAnnotation('layer0')]);
    expect(budget.outputSpent).toBe(0);
  });

  test('maxTransformOutput holds for each layer: a 64 MiB layer with the limit at 1 MiB', () => {
    const layer = { h: '0'.repeat(64), b: '', x: 4096, y: 8192 };
    const budget = big();
    const error = left(format.decode(worldText(layer, 1), { budget, maxTransformOutput: 2 ** 20 }));
    expect(error.message).toMatch(/over the limit of 1048576 bytes for one layer/);
    expect(budget.outputSpent).toBe(0);
  });

  test('many layers each under the per-layer limit share one output budget: claimed before inflating', () => {
    const side = 1024; // 2 MiB of tiles each, ~2 KB gzipped
    const layer = encodeLayer(side, side, new Uint16Array(side * side));
    const count = 40; // 80 MiB in all
    const budget = new DecodeBudget({ maxTotalOutput: 16 * 2 ** 20, maxWork: 2 ** 30 });
    const error = left(format.decode(worldText(layer, count), { budget }));
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).budget).toBe('allocation');
    expect(error.path).toEqual(['world', 'text', pathAnnotation('layer8')]); // in the world's text; layers 0…7 fit 16 MiB exactly
    expect(budget.outputSpent).toBe(16 * 2 ** 20);
  });

  test('a layer inflating past its x·y·2 bytes stops there', () => {
    const bomb = encodeLayer(1024, 1024, new Uint16Array(1024 * 1024));
    const error = left(format.decode(worldText({ ...bomb, x: 16, y: 16 }, 1)));
    expect(error.message).toMatch(/passes the limit of 512 bytes/);
  });

  test('decodeLayer takes the limits and the budget too', () => {
    const layer = encodeLayer(64, 64, new Uint16Array(64 * 64).fill(3));
    expect(() => decodeLayer(layer, { maxOutput: 100 })).toThrow(/over the limit of 100 bytes/);
    const budget = new DecodeBudget({ maxTotalOutput: 1000, maxWork: 10 });
    expect(() => decodeLayer(layer, { budget, path: ['layerTerrain'] })).toThrow(BudgetError);
    expect(budget.outputSpent).toBe(0);
    expect(decodeLayer(layer).tiles[4095]).toBe(3);
  });

  test('a world nested 100,000 deep is a DecodeError, found before parsing', () => {
    const text = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = left(decode(jsonWorld, new TextEncoder().encode(text)));
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.message).toMatch(/nested deeper than 512 levels/);
  });
});

describe('TEMD gzip bombs (item 6)', () => {
  test('a gzipped TEMD past the output budget stops at the budget', () => {
    const bomb = nodeGzip(new Uint8Array(16 * 2 ** 20), { level: 9 });
    const budget = new DecodeBudget({ maxTotalOutput: 2 ** 20, maxWork: 2 ** 30 });
    const error = left(decode(temdFile, bomb, { budget }));
    expect(error).toBeInstanceOf(BudgetError);
    expect((error as BudgetError).budget).toBe('output');
    expect(budget.outputSpent).toBeLessThanOrEqual(2 ** 20);
    // Through the format, with the default budget for its size, the 16 MiB fit (and are no TEMD).
    expect(left(format.decode(bomb)).message).toMatch(/TEMD/);
  });
});

describe('a save charges per file, row and field', () => {
  test('a folder save of many files is work', () => {
    const tree = ourSaveTree();
    const budget = big();
    expect(E.isRight(format.decode(tree, { budget }))).toBe(true);
    const before = budget.workSpent;
    for (let i = 0; i < 1000; i++) tree.set(`extra/${i}`, Uint8Array.of(1));
    const again = big();
    expect(E.isRight(format.decode(tree, { budget: again }))).toBe(true);
    expect(again.workSpent - before).toBe(1000);
    const error = left(format.decode(tree, { maxWork: 500 }));
    expect((error as BudgetError).budget).toBe('work');
  });

  test('an actor nested 100,000 deep is a DecodeError naming it', () => {
    const tree = ourSaveTree();
    tree.set('ABC', new TextEncoder().encode(`${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    const error = left(format.decode(tree));
    expect(error.path).toEqual(['save', 'actors', 'ABC']);
    expect(error.message).toMatch(/nested deeper than 512 levels/);
  });
});
