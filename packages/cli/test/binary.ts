// What the CLI's tests share: where the built `savekit` binary and the example plugin are, a spawned
// run of the binary, and a scratch folder per test file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository root. */
export const root = join(__dirname, '..', '..', '..');
/** The built binary (`npm test` builds first). */
export const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
/** The example format, built, as `--plugin` loads it. */
export const plugin = join(root, 'examples', 'dist', 'skirmish.js');
/** A save of the example format. */
export const sample = join(root, 'examples', 'saves', 'skirmish-01.sks');
/** Not a speed limit: only so that a regression (a run that never ends) fails instead of hanging. */
export const HANG_GUARD_MS = 120_000;

/** What a spawned run of the binary gave. */
export interface Run {
  /** The exit code; `null` when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built binary with the example plugin in its own process, without colours. */
export function savekit(args: string[], env: Record<string, string> = {}, cwd = root): Run {
  const run = spawnSync(process.execPath, [bin, '--plugin', plugin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: HANG_GUARD_MS,
  });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A scratch folder made before the test file's tests and removed after them; with `binary`, it first
 * checks that the binary is built. Read `path` inside tests (it is set in `beforeAll`).
 */
export function scratchFolder(
  prefix: string,
  options: { binary: boolean } = { binary: true },
): { readonly path: string } {
  let path: string | undefined;
  beforeAll(() => {
    if (options.binary) expect(existsSync(bin)).toBe(true);
    path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (path !== undefined) rmSync(path, { recursive: true, force: true });
  });
  return {
    get path(): string {
      if (path === undefined) throw new Error('the scratch folder is made before the tests run');
      return path;
    },
  };
}
