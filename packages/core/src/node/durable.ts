/**
 * Small file-system facts the atomic writers share: flushing a path, and whether a writer's process
 * still runs (its temporaries are then not leftovers).
 *
 * @module
 */
import { closeSync, fsyncSync, openSync } from 'node:fs';

/**
 * Flushes a file or folder to disk (a folder: so the renames in it are durable). Some platforms cannot
 * open folders; flushing them is then not possible, which is not an error.
 */
export function fsyncPath(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    /* not supported here */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether the process `pid` still runs. EPERM means it runs, as another user; only ESRCH says it is
 * gone — so a concurrent writer's temporaries are never mistaken for a killed one's.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
