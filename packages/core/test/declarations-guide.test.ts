// The guide page on declarations (docs/guide/declarations.md) promises that every example runs as
// written: each TypeScript block that starts with an import is compiled and run here, and its own
// asserts check what the page says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import * as core from '../src/index';

const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'guide', 'declarations.md'), 'utf8');
const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .filter((code) => code.startsWith('import'));

function run(source: string): void {
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20' });
  const load = (id: string): unknown => (id === '@savekit/core' ? core : require(id));
  const module = { exports: {} };
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
}

describe('the declarations guide', () => {
  test('has its examples', () => {
    expect(blocks.length).toBe(7);
  });

  test.each(
    blocks.map((code, i) => [
      i + 1,
      code
        .split('\n')
        .find((l) => l.trim() !== '' && !l.startsWith('import') && !l.startsWith('  ') && !l.startsWith('}')) ?? '',
      code,
    ]),
  )('example %i runs (%s…)', (_i, _first, code) => {
    expect(() => run(code as string)).not.toThrow();
  });
});
