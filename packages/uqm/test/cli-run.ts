// What the UQM tests that drive the built CLI share: a spawned run of it, and files written to a
// scratch folder of the test file's own (made before its tests, removed after them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = join(__dirname, '..', '..', 'cli', 'dist', 'bin.js');

/** Runs the built CLI; its exit code, standard output and error. */
export function cli(...args: string[]): { status: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/**
 * A scratch folder named from `prefix`, with `file(name, bytes)` writing a file into it and giving
 * its path. Call at a test file's top level: it registers the `beforeAll` / `afterAll` that make and
 * remove the folder.
 */
export function scratchFiles(prefix: string): {
  readonly dir: string;
  file: (name: string, bytes: Uint8Array) => string;
} {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    file(name, bytes) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
  };
}
