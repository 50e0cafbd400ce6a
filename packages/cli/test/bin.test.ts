// `npx savekit` as a user meets it in the repository: npm links node_modules/.bin/savekit to the
// committed stub in bin/, which runs the built command (or says to build it first).
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'packages', 'cli');
const stub = join(cli, 'bin', 'savekit.js');
const manifest = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
};

test('package.json points "bin" at the committed stub, and ships it', () => {
  expect(manifest.bin).toEqual({ savekit: './bin/savekit.js' });
  expect(manifest.files).toContain('bin');
  expect(readFileSync(stub, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  expect(() => accessSync(stub, constants.X_OK)).not.toThrow();
});

test('node_modules/.bin/savekit is the stub, and runs --help', () => {
  const linked = join(root, 'node_modules', '.bin', 'savekit');
  expect(realpathSync(linked)).toBe(realpathSync(stub));
  // Run as a shell runs it: through the link and the stub's #! line.
  const run = spawnSync(linked, ['--help'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^Usage: savekit \[options\] \[command\]/);
  expect(run.stdout).toContain('Examples:');
});

test('npm exec savekit runs the workspace command, without asking the registry', () => {
  // --no: never install; a missing link fails here instead of fetching some other "savekit".
  const run = spawnSync('npm', ['exec', '--no', '--', 'savekit', '--version'], { cwd: root, encoding: 'utf8' });
  expect(run.status).toBe(0);
  expect(run.stdout.trim()).toBe(manifest.version);
});

test('before the build, the stub says what to do in one line', () => {
  // The stub alone, with no dist/ beside it: a fresh clone after npm ci, before npm run build.
  const fresh = mkdtempSync(join(tmpdir(), 'savekit-unbuilt-'));
  try {
    mkdirSync(join(fresh, 'bin'));
    copyFileSync(stub, join(fresh, 'bin', 'savekit.js'));
    const run = spawnSync(process.execPath, [join(fresh, 'bin', 'savekit.js'), '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('savekit: the command is not built yet: run npm run build first\n');
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});
