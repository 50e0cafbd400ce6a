// scripts/api-report.mjs: a package whose exported declarations differ from its last release needs a
// changeset naming it; comments are not API; recording a release makes the check pass again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(__dirname, '..', 'scripts', 'api-report.mjs');
let repo: string;

function api(...args: string[]) {
  const run = spawnSync(process.execPath, [script, `--root=${repo}`, ...args], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

function declarations(text: string) {
  writeFileSync(join(repo, 'packages', 'demo', 'dist', 'index.d.ts'), text);
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'savekit-api-'));
  mkdirSync(join(repo, 'packages', 'demo', 'dist'), { recursive: true });
  mkdirSync(join(repo, '.changeset'));
  writeFileSync(
    join(repo, 'packages', 'demo', 'package.json'),
    JSON.stringify({ name: '@savekit/demo', version: '0.1.0', exports: { '.': { types: './dist/index.d.ts' } } }),
  );
  declarations('/** Adds. */\nexport declare function add(a: number, b: number): number;\n');
  expect(api('--baseline').status).toBe(0);
});

afterEach(() => rmSync(repo, { recursive: true, force: true }));

test('the check: comments are not API, a changed export needs a changeset naming its package, a release resets', () => {
  // Unchanged, and a changed comment only: both pass.
  declarations('/** Adds two numbers. */\nexport declare function add(a: number, b: number): number;\n');
  expect(api()).toMatchObject({ status: 0, out: expect.stringContaining('0 changed since their last release') });
  // A changed and an added export, and a changeset for another package only: fails, naming both declarations.
  declarations('export declare function add(a: number, b?: number): number;\nexport declare const zero: 0;\n');
  writeFileSync(join(repo, '.changeset', 'other.md'), "---\n'@savekit/other': patch\n---\n\nNot this one.\n");
  const run = api();
  expect(run.status).toBe(1);
  expect(run.out).toContain("@savekit/demo's public API changed");
  expect(run.out).toContain('- add: export declare function add(a: number, b: number): number;');
  expect(run.out).toContain('+ add: export declare function add(a: number, b?: number): number;');
  expect(run.out).toContain('+ zero: ');
  // A changeset naming the package lets it through.
  writeFileSync(join(repo, '.changeset', 'optional-b.md'), '---\n"@savekit/demo": minor\n---\n\n`b` is optional.\n');
  expect(api()).toMatchObject({ status: 0, out: expect.stringContaining('1 changed since their last release') });
  // Released: the changeset is consumed and the API recorded; the check passes with no changeset.
  rmSync(join(repo, '.changeset', 'optional-b.md'));
  expect(api('--baseline').status).toBe(0);
  expect(api().status).toBe(0);
});
