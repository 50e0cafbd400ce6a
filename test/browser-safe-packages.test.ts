// The core, LZO1X and the four format packages run in browsers (their READMEs: no `Buffer`, no
// `fs`): nothing they ship names a Node built-in, `Buffer` or `process`, outside a `node/` entry that
// exists to hold Node-only helpers. Comments aside (a comment may say why there is no Buffer).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGES = ['core', 'lzo1x', 'edge', 'uqm', 'zippy', 'terrarum'];
const forbidden = [
  /\bBuffer\b/,
  /from ['"](node:)?(fs|path|os|child_process|crypto|zlib|worker_threads)['"]/,
  /require\(['"](node:)?(fs|path|os|child_process|crypto|zlib|worker_threads)['"]\)/,
  /\bprocess\./,
];

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'node'
        ? []
        : files(join(dir, entry.name), ext)
      : entry.name.endsWith(ext) && !entry.name.endsWith(`.test${ext}`)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The code of a TypeScript or JavaScript file without its comments (line and block). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

test.each(PACKAGES)('%s: its sources and its build name no Node built-in, Buffer or process', (name) => {
  const root = join(__dirname, '..', 'packages', name);
  const shipped = [
    ...files(join(root, 'src'), '.ts'),
    ...(existsSync(join(root, 'dist')) ? files(join(root, 'dist'), '.js') : []),
  ];
  // `npm test` builds first: the build is checked too, not only the sources.
  expect(existsSync(join(root, 'dist'))).toBe(true);
  expect(shipped.length).toBeGreaterThan(0);
  const hits: string[] = [];
  for (const file of shipped) {
    const text = code(readFileSync(file, 'utf8'));
    for (const pattern of forbidden) if (pattern.test(text)) hits.push(`${file}: ${pattern}`);
  }
  expect(hits).toEqual([]);
});
