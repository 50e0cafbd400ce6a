// File and actor names are data: a save folder's `__proto__`, `constructor`, `prototype` and
// `hasOwnProperty` files are ordinary entries through decode, JSON, encode, and the CLI's
// dump → build (issue 17, item 12).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { actorOf, decodeSave, encodeSave, format, type TerrarumDocument } from '@savekit/terrarum';
import { scratchFolder } from '../../cli/test/binary';
import { inProcessCli } from '../../cli/test/in-process';
import { ourSave, ourSaveTree } from './save-fixture';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../../cli/src/version', () => ({ version: '0.0.0-test' }));

const NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty'] as const;
const contents = (name: string) => new TextEncoder().encode(`the file named ${name}\n`);

/** Our save folder plus a file of each hostile name, at the top and in a subfolder. */
function hostileTree(): Map<string, Uint8Array> {
  const tree = ourSaveTree();
  for (const name of NAMES) {
    tree.set(name, contents(name));
    tree.set(`computers/${name}`, contents(`computers/${name}`));
  }
  return tree;
}

function decoded(tree: ReadonlyMap<string, Uint8Array>) {
  const result = format.decode(tree, {});
  if (E.isLeft(result)) throw result.left;
  const doc = result.right.value;
  if (doc.kind !== 'save') throw new Error('a save');
  return doc;
}

const sortedTree = (tree: ReadonlyMap<string, Uint8Array>) => [...tree].sort(([a], [b]) => (a < b ? -1 : 1));

test('decode: each name is an own key of files with its own contents; the records have no prototype', () => {
  const { save } = decoded(hostileTree());
  expect(Object.getPrototypeOf(save.files)).toBeNull();
  expect(Object.getPrototypeOf(save.actors)).toBeNull();
  for (const name of NAMES) {
    expect(Object.hasOwn(save.files, name)).toBe(true);
    expect(save.files[name]).toEqual(contents(name));
    expect(save.files[`computers/${name}`]).toEqual(contents(`computers/${name}`));
  }
  expect(Object.keys(save.files)).toHaveLength(1 + 2 * NAMES.length);
  expect(Object.keys(save.actors).sort()).toEqual(['2A93BC5F', '91A7E2']);
  expect(format.summary?.(decoded(hostileTree()))[0]).toMatch(/2 actors, 9 other files/);
  // Names absent from the save are absent, not Object.prototype's members.
  const plain = decodeSave(ourSaveTree());
  if (E.isLeft(plain)) throw plain.left;
  for (const name of NAMES) {
    expect(plain.right.value.files[name]).toBeUndefined();
    expect(plain.right.value.actors[name]).toBeUndefined();
  }
});

test('encode writes every file back byte for byte', () => {
  const tree = hostileTree();
  const again = format.encode(decoded(tree), {});
  if (E.isLeft(again)) throw again.left;
  expect(again.right instanceof Map && sortedTree(again.right)).toEqual(sortedTree(tree));
});

test('JSON (as dump writes and build reads it) keeps the names, and the save encodes the same', () => {
  const tree = hostileTree();
  const text = JSON.stringify(format.json.encode(decoded(tree)));
  for (const name of NAMES) expect(text).toContain(`"${name}":`);
  const back = format.json.decode(JSON.parse(text));
  if (E.isLeft(back)) throw new Error('decodes');
  const doc = back.right as TerrarumDocument;
  if (doc.kind !== 'save') throw new Error('a save');
  expect(Object.getPrototypeOf(doc.save.files)).toBeNull();
  for (const name of NAMES) expect(doc.save.files[name]).toEqual(contents(name));
  const again = format.encode(doc, {});
  if (E.isLeft(again)) throw again.left;
  expect(again.right instanceof Map && sortedTree(again.right)).toEqual(sortedTree(tree));
});

test('actors keyed by these names survive JSON and are refused on encode, not silently dropped', () => {
  const json = format.json.encode({ kind: 'save', save: ourSave() }) as { save: { actors: Record<string, string> } };
  const text = JSON.stringify(json).replace(
    '"actors":{',
    `"actors":{${NAMES.map((n) => `"${n}":{"value":{}},`).join('')}`,
  );
  const back = format.json.decode(JSON.parse(text));
  if (E.isLeft(back)) throw new Error('decodes');
  const doc = back.right as TerrarumDocument;
  if (doc.kind !== 'save') throw new Error('a save');
  expect(Object.getPrototypeOf(doc.save.actors)).toBeNull();
  expect(Object.keys(doc.save.actors).sort()).toEqual([...NAMES, '2A93BC5F', '91A7E2'].sort());
  for (const name of NAMES) expect(doc.save.actors[name]).toEqual({ value: {} });
  const encoded = encodeSave(doc.save);
  expect(E.isLeft(encoded) && encoded.left.path).toEqual(['actors', '__proto__']);
});

test('actorOf finds own actors only', () => {
  const save = ourSave();
  for (const name of NAMES) expect(actorOf(save, name)).toBeUndefined();
  expect(actorOf(save, '2A93BC5F')).toEqual({ referenceID: 714325087 });
});

describe('the CLI', () => {
  const scratch = scratchFolder('savekit-own-names-', { binary: false });
  const savekit = inProcessCli([format], { noColor: true });
  function writeFolder(folder: string, tree: ReadonlyMap<string, Uint8Array>) {
    for (const [path, bytes] of tree) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), bytes);
    }
  }
  function readFolder(folder: string, prefix = ''): Array<[string, Uint8Array]> {
    return readdirSync(join(folder, prefix))
      .flatMap((name): Array<[string, Uint8Array]> => {
        const path = prefix === '' ? name : `${prefix}/${name}`;
        return statSync(join(folder, path)).isDirectory()
          ? readFolder(folder, path)
          : [[path, new Uint8Array(readFileSync(join(folder, path)))]];
      })
      .sort(([a], [b]) => (a < b ? -1 : 1));
  }

  test('inspect and verify see every file; dump → build gives the same folder', async () => {
    const folder = join(scratch.path, 'save');
    writeFolder(folder, hostileTree());
    const inspect = await savekit('inspect', folder);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/9 other files/);
    for (const name of NAMES) expect(inspect.stdout).toContain(`${name}:`);
    const verify = await savekit('verify', folder);
    expect(verify.stdout).toMatch(/^ok /m);
    expect(verify.code).toBe(0);
    const dumped = join(scratch.path, 'save.json');
    expect((await savekit('dump', folder, '-o', dumped)).code).toBe(0);
    const rebuilt = join(scratch.path, 'rebuilt');
    const build = await savekit('build', dumped, '-o', rebuilt);
    expect(build.stderr).toMatch(/wrote/);
    expect(build.code).toBe(0);
    expect(readFolder(rebuilt)).toEqual(readFolder(folder));
    expect(readFolder(rebuilt).map(([path]) => path)).toEqual(expect.arrayContaining([...NAMES]));
  });

  test('build refuses an actor keyed __proto__ instead of dropping it', async () => {
    const folder = join(scratch.path, 'plain');
    writeFolder(folder, ourSaveTree());
    const dumped = join(scratch.path, 'plain.json');
    expect((await savekit('dump', folder, '-o', dumped)).code).toBe(0);
    const text = readFileSync(dumped, 'utf8').replace(/"actors": ?\{/, (m) => `${m}"__proto__":{"value":{}},`);
    expect(text).toContain('"__proto__":{"value":{}}');
    writeFileSync(dumped, text);
    const build = await savekit('build', dumped, '-o', join(scratch.path, 'plain-rebuilt'));
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(/__proto__/);
  });
});
