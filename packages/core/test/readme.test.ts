// Every TypeScript example in the core README (and the repository README) type-checks against the
// sources, and every example that declares nothing it does not define also runs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vm from 'node:vm';
import ts from 'typescript';
import * as core from '../src/index';
import * as Either from 'fp-ts/lib/Either';

const root = join(__dirname, '..', '..', '..');
const readmes = [join(__dirname, '..', 'README.md'), join(root, 'README.md')];
const outDir = join(root, 'test-output', 'readme-snippets');

interface Snippet {
  readonly name: string;
  readonly code: string;
}

function snippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const file of readmes) {
    const text = readFileSync(file, 'utf8');
    const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    blocks.forEach((code, i) => out.push({ name: `${file.includes('packages') ? 'core' : 'root'}-${i}`, code }));
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
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    baseUrl: root,
    paths: { '@savekit/core': ['packages/core/src/index.ts'] },
    ignoreDeprecations: '6.0',
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(problems).toEqual([]);
});

test.each(all.filter((s) => !/\bdeclare\b/.test(s.code)).map((s) => [s.name, s] as const))('example %s runs', (_name, snippet) => {
  const js = ts.transpileModule(snippet.code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const modules: Record<string, unknown> = { '@savekit/core': core, 'fp-ts/lib/Either.js': Either };
  const sandboxRequire = (id: string) => {
    if (id in modules) return modules[id];
    throw new Error(`README example imports ${id}`);
  };
  const logged: unknown[] = [];
  const context = vm.createContext({ require: sandboxRequire, exports: {}, module: { exports: {} }, console: { log: (...args: unknown[]) => logged.push(args) }, TextEncoder, TextDecoder, Uint8Array, DataView });
  vm.runInContext(js, context, { filename: `${snippet.name}.js` });
});
