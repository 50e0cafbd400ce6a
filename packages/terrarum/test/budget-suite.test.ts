// Issue 17's Terrarum attacks through @savekit/testkit's budgetSuite: each decoded in its own Node
// process with a heap limit, held to 2 s of CPU (scaled by the test profile) and 256 MiB over the
// baseline. Runs the built package (`npx tsc -b packages/terrarum packages/testkit` first).
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { encodeOrThrow } from '@savekit/core';
import { budgetSuite, budgetTable, hostileInputs } from '@savekit/testkit';
import { ascii85Encode, encodeLayer, tevdDisk, type TevdDisk, type TevdEntry } from '@savekit/terrarum';
import { ourSaveTree } from './save-fixture';

/**
 * A disk of `depth` nested directories of 250-character names with `files` files at the bottom,
 * and (with `save`) our save's files at the root. Built entry by entry (not through a sorted tree),
 * so a 1,000 × 1,000 disk is quick to make.
 */
function deepDisk(depth: number, files: number, save: boolean): Uint8Array {
  const entries: TevdEntry[] = [];
  const dir = (id: number, parent: number, name: string, children: string[]): TevdEntry => ({
    id: String(id),
    parent: String(parent),
    type: 2,
    name,
    created: 0,
    modified: 0,
    content: { kind: 'directory', children },
  });
  const file = (id: number, parent: number, name: string, data: Uint8Array): TevdEntry => ({
    id: String(id),
    parent: String(parent),
    type: 1,
    name,
    created: 0,
    modified: 0,
    content: { kind: 'file', data },
  });
  let next = 1;
  const rootChildren: string[] = [];
  entries.push(dir(0, 0, '', rootChildren));
  if (save)
    for (const [name, data] of ourSaveTree())
      if (!name.includes('/')) {
        rootChildren.push(String(next));
        entries.push(file(next++, 0, name, data));
      }
  let parent = 0;
  let children = rootChildren;
  for (let d = 0; d < depth; d++) {
    const own: string[] = [];
    children.push(String(next));
    entries.push(dir(next, parent, `${d}`.padStart(250, 'd'), own));
    parent = next++;
    children = own;
  }
  for (let f = 0; f < files; f++) {
    children.push(String(next));
    entries.push(file(next++, parent, `f${f}`, new Uint8Array(0)));
  }
  const disk: TevdDisk = {
    layout: 'tevd-2017',
    version: 3,
    capacity: 0xffffffffffff,
    name: '',
    attributes: new Uint8Array(8),
    entries,
  };
  return encodeOrThrow(tevdDisk, disk);
}

const world = (layers: Record<string, object>) => new TextEncoder().encode(JSON.stringify({ genver: 1, ...layers }));
// The right SHA-256 of the zeros, so only the budget can stop a layer; hashed a MiB at a time (a
// forked child inherits this process's peak RSS, so the parent must not hold the whole output).
const zerosHash = (n: number) => {
  const hash = createHash('sha256');
  const mib = new Uint8Array(2 ** 20);
  for (let done = 0; done < n; done += mib.length) hash.update(mib.subarray(0, Math.min(mib.length, n - done)));
  return hash.digest('hex');
};
const bombLayer = (x: number, y: number, output: number) => ({
  h: x * y * 2 > 256 * 2 ** 20 ? '0'.repeat(64) : zerosHash(output),
  b: ascii85Encode(hostileInputs.gzipBomb(output)),
  x: String(x),
  y: String(y),
});

test('budgetSuite: the Terrarum attacks of issue 17, each a typed error or a value within 2 s and 256 MiB', async () => {
  const report = await budgetSuite({
    module: join(__dirname, '..', 'dist', 'index.js'),
    attacks: [
      {
        name: 'TEVd save, 1,000 nested 250-char directories, 1,000 files (578 KB)',
        input: () => deepDisk(1000, 1000, true),
        expect: 'error',
        code: 'budget-exceeded',
        budget: 'output',
      },
      {
        name: 'TEVd save, 2,000 nested 250-char directories, 2,000 files (1.16 MB)',
        input: () => deepDisk(2000, 2000, true),
        expect: 'error',
        code: 'budget-exceeded',
        budget: 'output',
      },
      { name: 'TEVd without a save, 2,000 × 2,000', input: () => deepDisk(2000, 2000, false), expect: 'ok' },
      {
        name: 'TEVd, a file claiming 2^47 bytes',
        input: () => {
          const bytes = deepDisk(0, 1, false);
          bytes.set([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff], 47 + 281 + 2 + 4 + 281);
          return bytes;
        },
        expect: 'error',
      },
      {
        name: 'JSON world, a 16384×16384 layer of gzipped zeros',
        input: () => world({ layerTerrain: bombLayer(16384, 16384, 512 * 2 ** 20) }),
        expect: 'error',
      },
      {
        name: 'JSON world, a 64 MiB layer with maxTransformOutput 1 MiB',
        input: () => world({ layerTerrain: bombLayer(4096, 8192, 64 * 2 ** 20) }),
        options: { maxTransformOutput: 2 ** 20 },
        expect: 'error',
      },
      {
        name: 'JSON world, 24 layers of 64 MiB each (under the per-layer limit)',
        input: () => {
          const layer = bombLayer(4096, 8192, 64 * 2 ** 20);
          return world(Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`layer${i}`, layer])));
        },
        expect: 'error',
        code: 'budget-exceeded',
        budget: 'allocation',
      },
      {
        name: 'JSON world nested 1,000,000 deep',
        input: () => new TextEncoder().encode(`{"a":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`),
        expect: 'error',
      },
      {
        name: 'gzipped TEMD inflating to 256 MiB',
        input: () => hostileInputs.gzipBomb(256 * 2 ** 20),
        expect: 'error',
        code: 'budget-exceeded',
        budget: 'output',
      },
      {
        name: 'JSON world, an ordinary 1024×1024 layer',
        input: () => world({ layerTerrain: encodeLayer(1024, 1024, new Uint16Array(1024 * 1024).fill(7)) }),
        expect: 'ok',
      },
    ],
  });
  console.log(budgetTable(report));
}, 600_000);
