// scripts/codemod-core-subpaths.mjs on a workspace of its own: a core whose kit and graph entries
// export some names, and files that import them from the front door every way the repository does —
// one line and many, `import type` and `type` modifiers, renames, re-exports, lists to merge into,
// Markdown code blocks, the core's own relative imports, `import('…').Name` types. What moved is read
// from the entries, so adding a name to the kit moves it on the next run; a second run changes nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Spelled apart where the text would otherwise be rewritten when the codemod runs over this file.
const CORE = '@savekit/core';
const script = join(__dirname, '..', 'scripts', 'codemod-core-subpaths.mjs');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function run(root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [script, `--root=${root}`, ...args], { encoding: 'utf8' });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

let root: string;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'savekit-codemod-fixture-'));
  const core = join(root, 'packages', 'core');
  const entry = (name: string) => ({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` });
  write(
    join(core, 'package.json'),
    JSON.stringify({
      name: '@savekit/core',
      type: 'module',
      exports: {
        '.': entry('index'),
        './kit': entry('kit'),
        './graph': entry('graph'),
        './package.json': './package.json',
      },
    }),
  );
  write(
    join(core, 'src', 'codec.ts'),
    [
      'export interface Codec<A> { read(): A }',
      'export function decode(): void {}',
      'export function defineCodec(): void {}',
      '',
    ].join('\n'),
  );
  write(
    join(core, 'src', 'reader.ts'),
    'export class Reader {}\nexport class ReadState {}\nexport class Writer {}\nexport const plural = 1;\n',
  );
  write(join(core, 'src', 'index.ts'), "export { decode, type Codec } from './codec.js';\n");
  write(join(core, 'src', 'kit.ts'), "export * from './reader.js';\nexport { defineCodec } from './codec.js';\n");
  write(join(core, 'src', 'graph.ts'), 'export function readGraph(): void {}\nexport interface GraphImage {}\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('a multi-line list splits by subpath, keeping type modifiers, renames and the rest in place', () => {
  write(
    join(root, 'packages', 'fmt', 'src', 'a.ts'),
    [
      "import * as t from 'io-ts';",
      'import {',
      '  decode,',
      '  defineCodec as make,',
      '  readGraph,',
      '  Reader,',
      '  type Codec,',
      '  type GraphImage,',
      '  type ReadState,',
      "} from '@savekit/core';",
      "import { other } from './other.js';",
      '',
    ].join('\n'),
  );
  const result = run(root);
  expect(result.status).toBe(0);
  expect(read('packages/fmt/src/a.ts')).toBe(
    [
      "import * as t from 'io-ts';",
      "import { decode, type Codec } from '@savekit/core';",
      "import { defineCodec as make, Reader, type ReadState } from '@savekit/core/kit';",
      "import { readGraph, type GraphImage } from '@savekit/core/graph';",
      "import { other } from './other.js';",
      '',
    ].join('\n'),
  );
  expect(result.out).toContain('1 file(s) rewritten');
});

test('type-only lists stay type-only; an emptied list is replaced; re-exports move too', () => {
  write(
    join(root, 'test', 'b.ts'),
    [
      "import type { Codec, Reader } from '@savekit/core';",
      "import { readGraph } from '@savekit/core';",
      "export { Writer, decode } from '@savekit/core';",
      '',
    ].join('\n'),
  );
  expect(run(root).status).toBe(0);
  expect(read('test/b.ts')).toBe(
    [
      "import type { Codec } from '@savekit/core';",
      "import type { Reader } from '@savekit/core/kit';",
      "import { readGraph } from '@savekit/core/graph';",
      "export { decode } from '@savekit/core';",
      "export { Writer } from '@savekit/core/kit';",
      '',
    ].join('\n'),
  );
});

test('moved names merge into an import of the subpath the file already has, without duplicates', () => {
  write(
    join(root, 'examples', 'c.ts'),
    [
      "import { decode, Reader, Writer, type ReadState } from '@savekit/core';",
      "import { Writer } from '@savekit/core/kit';",
      "import { decode as d2, plural } from '@savekit/core';",
      '',
    ].join('\n'),
  );
  expect(run(root).status).toBe(0);
  expect(read('examples/c.ts')).toBe(
    [
      "import { decode } from '@savekit/core';",
      "import { Writer, Reader, type ReadState, plural } from '@savekit/core/kit';",
      "import { decode as d2 } from '@savekit/core';",
      '',
    ].join('\n'),
  );
});

test('Markdown code blocks are rewritten each on its own; import() types and require() follow', () => {
  write(
    join(root, 'docs', 'guide', 'd.md'),
    [
      '# Title',
      '',
      '```ts',
      "import { decode, Reader } from '@savekit/core';",
      '```',
      '',
      'Text.',
      '',
      '```ts',
      "import { Writer } from '@savekit/core/kit';",
      "import { defineCodec } from '@savekit/core';",
      `type R = import('${CORE}').Reader;`,
      `const p = require('${CORE}').plural;`,
      `const c = require('${CORE}').decode;`,
      '```',
      '',
    ].join('\n'),
  );
  expect(run(root).status).toBe(0);
  expect(read('docs/guide/d.md')).toBe(
    [
      '# Title',
      '',
      '```ts',
      "import { decode } from '@savekit/core';",
      "import { Reader } from '@savekit/core/kit';",
      '```',
      '',
      'Text.',
      '',
      '```ts',
      "import { Writer, defineCodec } from '@savekit/core/kit';",
      "type R = import('@savekit/core/kit').Reader;",
      "const p = require('@savekit/core/kit').plural;",
      "const c = require('@savekit/core').decode;",
      '```',
      '',
    ].join('\n'),
  );
});

test("the core's own files import the entries by relative path", () => {
  write(
    join(root, 'packages', 'core', 'test', 'e.test.ts'),
    "import { decode, readGraph, Reader } from '../src/index';\n",
  );
  write(join(root, 'packages', 'core', 'test', 'f.test.ts'), "import { Reader } from '../src/index.js';\n");
  expect(run(root).status).toBe(0);
  expect(read('packages/core/test/e.test.ts')).toBe(
    "import { decode } from '../src/index';\nimport { Reader } from '../src/kit';\nimport { readGraph } from '../src/graph';\n",
  );
  expect(read('packages/core/test/f.test.ts')).toBe("import { Reader } from '../src/kit.js';\n");
});

test('a second run changes nothing, and --check says whether a run is needed', () => {
  const file = join(root, 'packages', 'fmt', 'src', 'g.ts');
  const before = "import {\n  decode,\n  Reader,\n} from '@savekit/core';\n";
  write(file, before);
  const checked = run(root, '--check');
  expect(checked.status).toBe(1);
  expect(checked.out).toContain('would rewrite packages/fmt/src/g.ts');
  expect(readFileSync(file, 'utf8')).toBe(before);
  expect(run(root).status).toBe(0);
  const after = readFileSync(file, 'utf8');
  expect(after).toBe("import { decode } from '@savekit/core';\nimport { Reader } from '@savekit/core/kit';\n");
  const again = run(root);
  expect(again.out).toContain('0 file(s) rewritten');
  expect(readFileSync(file, 'utf8')).toBe(after);
  expect(run(root, '--check').status).toBe(0);
});

test('what moved is read from the entries: a name added to the kit moves on the next run', () => {
  write(join(root, 'bench', 'h.mjs'), "import { decode } from '@savekit/core';\n");
  expect(run(root).out).toContain('0 file(s) rewritten');
  // decode leaves the front door for the kit.
  write(join(root, 'packages', 'core', 'src', 'index.ts'), "export { type Codec } from './codec.js';\n");
  write(
    join(root, 'packages', 'core', 'src', 'kit.ts'),
    "export * from './reader.js';\nexport { decode, defineCodec } from './codec.js';\n",
  );
  expect(run(root).status).toBe(0);
  expect(read('bench/h.mjs')).toBe("import { decode } from '@savekit/core/kit';\n");
  const list = run(root, '--list');
  expect(list.out).toContain('@savekit/core/kit (6): decode, defineCodec, plural, Reader, ReadState, Writer');
  expect(list.out).toContain('@savekit/core/graph (2): GraphImage, readGraph');
});

test('namespace imports that use a moved name, and lists with comments, are reported for a hand edit', () => {
  write(join(root, 'test', 'i.ts'), "import * as core from '@savekit/core';\nnew core.Reader();\ncore.decode();\n");
  write(join(root, 'test', 'j.ts'), "import {\n  decode, // the front door\n  Reader,\n} from '@savekit/core';\n");
  const result = run(root);
  expect(result.status).toBe(1);
  expect(result.err).toContain('test/i.ts: namespace import core uses moved names: Reader (kit)');
  expect(result.err).toContain('test/j.ts:1: an import list with comments');
  expect(read('test/j.ts')).toContain('Reader,');
});

test('a name exported by two subpaths is refused before any file is touched', () => {
  write(join(root, 'packages', 'core', 'src', 'graph.ts'), 'export class Reader {}\n');
  write(join(root, 'test', 'k.ts'), "import { Reader } from '@savekit/core';\n");
  const result = run(root);
  expect(result.status).toBe(2);
  expect(result.err).toContain('Reader is exported by kit and graph');
  expect(read('test/k.ts')).toBe("import { Reader } from '@savekit/core';\n");
});
