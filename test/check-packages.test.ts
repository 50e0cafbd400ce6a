// scripts/check-packages.mjs finds what it is there to find: a workspace whose one package gets every
// check wrong (a throwing and mistyped README example, types that masquerade as CommonJS, a Node
// built-in in its browser entry, a build-info file shipped, no LICENSE or repository, no word on
// CommonJS) fails each step, named, with exit 1. The real packages pass it in CI (`.ci/run`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '..', 'scripts', 'check-packages.mjs');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test('a broken package fails every check, each named in the summary', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'savekit-check-fixture-'));
  try {
    write(
      join(workspace, 'package.json'),
      JSON.stringify({ name: 'fixture', private: true, workspaces: ['packages/*'] }),
    );
    const pkg = join(workspace, 'packages', 'broken');
    write(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: '@fixture/broken',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './lib/index.d.cts', default: './lib/index.js' } },
        files: ['lib', 'README.md'],
      }),
    );
    write(
      join(pkg, 'lib', 'index.js'),
      "import { readFileSync } from 'node:fs';\nexport function answer() { return typeof readFileSync === 'function' ? 42 : 0; }\n",
    );
    write(join(pkg, 'lib', 'index.d.cts'), 'export declare function answer(): string;\n');
    write(join(pkg, 'lib', '.tsbuildinfo'), '{}\n');
    write(
      join(pkg, 'README.md'),
      "# @fixture/broken\n\n<!-- example -->\n```ts\nimport { answer } from '@fixture/broken';\nconst n: number = answer();\nif (n !== 41) throw new Error('wrong answer ' + n);\n```\n",
    );

    const run = spawnSync(process.execPath, [script, '--root', workspace, '--browser', 'broken'], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    const out = run.stdout;
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 1, stderr: '' });
    const problems = out
      .split('\n- ')
      .slice(1)
      .map((p) => p.split('\n')[0] ?? '');
    const byStep = (step: string) => problems.filter((p) => p.startsWith(`broken ${step}:`)).join('\n');
    expect(byStep('files')).toMatch(/missing LICENSE/);
    expect(byStep('files')).toMatch(/ships lib\/\.tsbuildinfo/);
    expect(byStep('files')).toMatch(/lacks repository with directory/);
    expect(out).toMatch(/broken example: example-broken-0: [\s\S]*Error: wrong answer 42/);
    expect(byStep('nodenext')).toMatch(/example-broken-0\.ts/);
    expect(out).toMatch(/broken nodenext: [\s\S]*'string' is not assignable to type 'number'/);
    expect(byStep('bundler')).toMatch(/example-broken-0\.ts/);
    expect(byStep('attw')).toMatch(/^broken attw:/);
    expect(out).toMatch(/Masquerading as CJS|FalseCJS|false-cjs/i);
    expect(byStep('cjs')).toMatch(/does not say whether `require/);
    expect(byStep('bundle')).toMatch(/node:fs/);
    expect(byStep('browser')).toMatch(/example-broken-0\.mjs bundled for the browser: .*node:fs/);
    expect(out).toMatch(/check-packages: 1 packages, 8 problems/);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
