/// <reference types="node" />
/**
 * Atomic file replacement for Node: a save is either the old content or the new, never a mix.
 *
 * @module
 */
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
  existsSync,
  linkSync,
  copyFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncPath, isProcessRunning } from './durable.js';

/** Options of {@link writeFileAtomic}; `undefined` is the same as absent (no backup, the default mode). */
export interface AtomicWriteOptions {
  /** Keep the previous file as this path (e.g. `save.bak`) before replacing it. */
  readonly backup?: string | undefined;
  /** File mode of a new file (default 0o666 less the umask). */
  readonly mode?: number | undefined;
}

/** A fresh temporary sibling of `target`, named after the writing process so leftovers can be told apart. */
function temporarySibling(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Removes temporary siblings of `target` left by writers that were killed mid-save: only those whose
 * process no longer runs, so a concurrent writer's file is never touched.
 */
function removeLeftovers(target: string): void {
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessRunning(pid)) continue;
    try {
      unlinkSync(join(dirname(target), name));
    } catch {
      /* another writer cleaned it first */
    }
  }
}

/**
 * Writes `bytes` (one array, or parts in order: a text streamed as it is made) to `path` atomically:
 * to a temporary sibling first, which is flushed to disk (fsync), then renamed over `path`, and the
 * folder is flushed too. A crash at any point leaves
 * either the old file or the new one. With `backup`, the previous file is kept under that name
 * first (hard-linked where possible, else copied), so it too is complete at every moment. Temporary
 * files left by earlier writers that were killed mid-save are removed after a successful write.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from '@savekit/core/node';
 * writeFileAtomic('save1.sav', bytes, { backup: 'save1.sav.bak' });
 * ```
 */
export function writeFileAtomic(
  path: string,
  bytes: Uint8Array | Iterable<Uint8Array>,
  options: AtomicWriteOptions = {},
): void {
  const dir = dirname(path);
  const temp = temporarySibling(path);
  const fd = openSync(temp, 'wx', options.mode ?? 0o666);
  try {
    // Parts are written as they come (a JSON text too long for one string); one that fails to come
    // leaves the old file in place, as a failed write does.
    for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
      let written = 0;
      while (written < part.length) written += writeSync(fd, part, written, part.length - written);
    }
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
      const backupTemp = temporarySibling(options.backup);
      try {
        linkSync(path, backupTemp);
      } catch {
        copyFileSync(path, backupTemp);
      }
      renameSync(backupTemp, options.backup);
      // When the backup already is the save (a writer killed between its two renames), both names
      // are links to one file and rename does nothing, leaving the temporary name behind.
      if (existsSync(backupTemp)) unlinkSync(backupTemp);
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
  fsyncPath(dir);
  removeLeftovers(path);
  if (options.backup !== undefined) removeLeftovers(options.backup);
}
