/// <reference types="node" />
/**
 * Atomic file replacement for Node: a save is either the old content or the new, never a mix.
 *
 * @module
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync, existsSync, linkSync, copyFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Keep the previous file as this path (e.g. `save.bak`) before replacing it. */
  readonly backup?: string;
  /** File mode of a new file (default 0o666 less the umask). */
  readonly mode?: number;
}

function fsyncDirectory(dir: string): void {
  // Makes the rename itself durable. Some platforms cannot open directories; that is not an error.
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* not supported here */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `bytes` to `path` atomically: to a temporary sibling first, which is flushed to disk
 * (fsync), then renamed over `path`, and the folder is flushed too. A crash at any point leaves
 * either the old file or the new one. With `backup`, the previous file is kept under that name
 * first (hard-linked where possible, else copied), so it too is complete at every moment.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from '@savekit/core/node';
 * writeFileAtomic('save1.sav', bytes, { backup: 'save1.sav.bak' });
 * ```
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', options.mode ?? 0o666);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  closeSync(fd);
  try {
    if (options.backup !== undefined && existsSync(path)) {
      const backupTemp = `${options.backup}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        linkSync(path, backupTemp);
      } catch {
        copyFileSync(path, backupTemp);
      }
      renameSync(backupTemp, options.backup);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  fsyncDirectory(dir);
}
