// Temporary folders for tests that write saves to disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temporary folder for every test of the enclosing file or `describe` (made before each
 * test, removed with its contents after it): call at that level, and call the result in a test.
 */
export function freshFolderEachTest(prefix: string): () => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error('the temporary folder exists only while a test runs');
    return dir;
  };
}
