// The core must run in browsers: no Node Buffer, fs or other built-in modules in what it ships.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(__dirname, '..', 'dist');
const src = join(__dirname, '..', 'src');

// Everything but the `node/` entry, which exists to hold the Node-only helpers.
function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'node'
        ? []
        : files(join(dir, entry.name), ext)
      : entry.name.endsWith(ext)
        ? [join(dir, entry.name)]
        : [],
  );
}

const forbidden = [
  /\bBuffer\b/,
  /from ['"](node:)?(fs|path|os|child_process|crypto|zlib)['"]/,
  /require\(['"](node:)?(fs|path|os|child_process|crypto|zlib)['"]\)/,
  /\bprocess\./,
];

test('the built core references neither Buffer nor fs nor other Node built-ins', () => {
  expect(existsSync(dist)).toBe(true); // `npm test` builds first
  const built = files(dist, '.js');
  expect(built.length).toBeGreaterThan(10);
  for (const file of built) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of forbidden) expect({ file, hit: pattern.test(text) }).toEqual({ file, hit: false });
  }
});

test('nor does its source', () => {
  for (const file of files(src, '.ts')) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of forbidden) expect({ file, hit: pattern.test(text) }).toEqual({ file, hit: false });
  }
});
