// Every TypeScript example in the READMEs (the repository's and each package's) type-checks against
// the sources, and every example that declares nothing it does not define also runs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    const js = ts.transpileModule(snippet.code, {
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
    // Run in this realm (not a vm context): values the packages make and literals the example makes
    // share their prototypes, so the example's own `assert.deepStrictEqual` compares them as a user's
    // program would.
    const run = new Function('require', 'exports', 'module', 'console', js) as (...args: unknown[]) => void;
    const module = { exports: {} };
    // README examples are not part of CI's conformance totals.
    const totals = process.env.SAVEKIT_TESTKIT_TOTALS;
    delete process.env.SAVEKIT_TESTKIT_TOTALS;
    try {
      run(sandboxRequire, module.exports, module, { log: (...args: unknown[]) => logged.push(args) });
    } finally {
      if (totals !== undefined) process.env.SAVEKIT_TESTKIT_TOTALS = totals;
    }
  },
);
