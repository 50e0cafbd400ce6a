// Every TypeScript example in the READMEs (the repository's and each package's) type-checks against
// the sources, and every example that declares nothing it does not define also runs; what a
// `console.log(…)` line's comment says it prints is what it prints.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatWithOptions } from 'node:util';
import ts from 'typescript';
import * as Either from 'fp-ts/lib/Either';

const root = join(__dirname, '..');
const packageNames = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'src', 'index.ts')),
);
/** The docs site's pages (not the generated API reference or tables). */
function docPages(dir = join(root, 'docs')): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['api', 'generated', 'node_modules', '.vitepress', 'public'].includes(entry.name) ? [] : docPages(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
const readmes = [
  join(root, 'README.md'),
  ...packageNames.map((name) => join(root, 'packages', name, 'README.md')).filter(existsSync),
  join(root, 'examples', 'README.md'),
  ...docPages(),
];
const outDir = join(root, 'test-output', 'readme-snippets');

interface Snippet {
  readonly name: string;
  readonly code: string;
}

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const file of readmes) {
    const text = readFileSync(file, 'utf8');
    const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const label =
      file === join(root, 'README.md')
        ? 'root'
        : file === join(root, 'examples', 'README.md')
          ? 'examples'
          : file.startsWith(join(root, 'docs'))
            ? `docs-${file
                .slice(join(root, 'docs').length + 1)
                .replace(/\.md$/, '')
                .replace(/\//g, '-')}`
            : file.split('/').slice(-2)[0];
    blocks.forEach((code, i) => {
      out.push({ name: `${label}-${i}`, code });
    });
  }
  return out;
}

const all = snippets();

test('the READMEs have examples', () => {
  expect(all.length).toBeGreaterThan(8);
});

test('every example type-checks', () => {
  mkdirSync(outDir, { recursive: true });
  const files = all.map((s) => {
    const path = join(outDir, `${s.name}.ts`);
    writeFileSync(path, `${s.code}\nexport {};\n`);
    return path;
  });
  // fengari ships no types: the package's declaration of the part it uses (for examples that make Lua states).
  const program = ts.createProgram([...files, join(root, 'packages', 'zippy', 'src', 'lua', 'fengari.d.ts')], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    baseUrl: root,
    paths: {
      ...Object.fromEntries(packageNames.map((name) => [`@savekit/${name}`, [`packages/${name}/src/index.ts`]])),
      // Subpath entries (`@savekit/core/kit`, `/graph`, `/schema`, `/node`) from the sources too.
      ...Object.fromEntries(packageNames.map((name) => [`@savekit/${name}/*`, [`packages/${name}/src/*`]])),
      '@savekit/examples/skirmish': ['examples/src/skirmish.ts'],
      '@savekit/examples/wad': ['examples/src/wad.ts'],
      '@savekit/zippy/lua': ['packages/zippy/src/lua/index.ts'],
    },
    ignoreDeprecations: '6.0',
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(problems).toEqual([]);
});

// Snippets that declare what they do not define, or say `@check-only`, are only type-checked.
test.each(all.filter((s) => !/\bdeclare\b|@check-only/.test(s.code)).map((s) => [s.name, s] as const))(
  'example %s runs',
  (_name, snippet) => {
    // `console.log(…); // what it prints`: the line is run through `logAt(line, …)`, and what it printed
    // is compared with the comment (`…` stands for any text).
    const promised = new Map<number, string>();
    const code = snippet.code
      .split('\n')
      .map((line, n) => {
        const match = /^(.*)console\.log\((.*)\);\s*\/\/\s*(.+)$/.exec(line);
        if (match === null) return line;
        promised.set(n, match[3]!.trim());
        return `${match[1]}console.logAt(${n}, ${match[2]});`;
      })
      .join('\n');
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const sandboxRequire = (id: string) => {
      if (id === 'fp-ts/lib/Either.js') return Either;
      const match = /^@savekit\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(id);
      if (match && packageNames.includes(match[1]!))
        return require(`../packages/${match[1]}/src/${match[2] ?? 'index'}`);
      // Examples may check what they show with Node's assert (and nothing else from Node).
      if (id === 'node:assert/strict' || id === 'node:assert' || id === 'fengari') return require(id);
      if (id === '@savekit/examples/skirmish') return require('../examples/src/skirmish');
      // The runtime libraries every savekit user has (codec JSON types are io-ts types).
      if (id === 'io-ts' || id.startsWith('fp-ts/')) return require(id);
      if (id === '@savekit/lzo1x') return require('../packages/lzo1x/src/index');
      throw new Error(`README example imports ${id}`);
    };
    const logged: unknown[] = [];
    const printed = new Map<number, string>();
    // Run in this realm (not a vm context): values the packages make and literals the example makes
    // share their prototypes, so the example's own `assert.deepStrictEqual` compares them as a user's
    // program would.
    const run = new Function('require', 'exports', 'module', 'console', js) as (...args: unknown[]) => void;
    const module = { exports: {} };
    // README examples are not part of CI's conformance totals.
    const totals = process.env.SAVEKIT_TESTKIT_TOTALS;
    delete process.env.SAVEKIT_TESTKIT_TOTALS;
    try {
      run(sandboxRequire, module.exports, module, {
        log: (...args: unknown[]) => logged.push(args),
        logAt: (line: number, ...args: unknown[]) => printed.set(line, formatWithOptions({ colors: false }, ...args)),
      });
    } finally {
      if (totals !== undefined) process.env.SAVEKIT_TESTKIT_TOTALS = totals;
    }
    const wrong: string[] = [];
    for (const [line, comment] of promised) {
      const text = printed.get(line);
      if (text === undefined) continue; // a branch the example did not take
      if (!printsAsSaid(text, comment))
        wrong.push(`line ${line + 1}: printed ${JSON.stringify(text)}, the comment says ${JSON.stringify(comment)}`);
    }
    expect(wrong).toEqual([]);
  },
);

/**
 * Whether printed text is what an example's comment says: either the comment's parts between `…`
 * appear in it in order (whitespace runs count as one space), or the comment starts with what was
 * printed — a string quoted or not — and goes on to explain it (`true — the same bytes`, `24: …`).
 */
function printsAsSaid(text: string, comment: string): boolean {
  const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();
  let at = 0;
  const flat = squeeze(text);
  const inOrder = comment
    .split('…')
    .map(squeeze)
    .every((part) => {
      if (part === '') return true;
      const found = flat.indexOf(part, at);
      at = found + part.length;
      return found >= 0;
    });
  if (inOrder) return true;
  const bare = (s: string) => s.replace(/\s+/g, '');
  const printed = bare(text);
  const said = bare(comment);
  for (const form of [printed, `'${printed}'`, `"${printed}"`]) {
    if (!said.startsWith(form)) continue;
    const rest = comment.replace(/\s+/g, ' ').trim();
    // What follows explains the value: a colon, a dash, a parenthesis, or nothing.
    const after = said.slice(form.length);
    if (after === '' || /^[:—(,;]/.test(after) || rest.length === 0) return true;
  }
  return false;
}
