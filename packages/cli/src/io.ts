/**
 * Reading and writing saves — a file, or a folder as a save tree — as a careful tool does: only
 * regular files and folders are read (a FIFO, a device or a socket is refused before it is opened),
 * never more than the size limit, and every write goes to a temporary sibling first, so a failed
 * write leaves the old save as it was. File-system errors are one-line failures, not internal errors.
 *
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { type FormatRegistry, isSaveTree, type SaveInput } from '@savekit/core';
import { grouped } from '@savekit/core/kit';
import { FileSystemError, readTree, writeFileAtomic, writeTreeAtomic } from '@savekit/core/node';
import { SaveFailure, UsageError } from './errors.js';
import { showName } from './show.js';

/**
 * The default size limit of a save (a file, or all the files of a folder save): 1 GiB, far above
 * the largest real saves of every format (a few MB to some hundred MB for the largest worlds).
 * `--max-size` or `SAVEKIT_MAX_SIZE` sets another.
 */
export const DEFAULT_MAX_SAVE_BYTES = 1024 ** 3;

/** The largest limit that can be set: one file is read into one buffer, which cannot be larger. */
export const LARGEST_MAX_SAVE_BYTES = 2 ** 32 - 1;

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * A size as `--max-size` and `SAVEKIT_MAX_SIZE` take it: bytes, or a number with a binary unit
 * (`64k`, `512M`, `2G`, `1.5GiB`). `undefined` when it is not one, or over {@link LARGEST_MAX_SAVE_BYTES}.
 */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (match === null) return undefined;
  const bytes = Math.floor(Number(match[1]) * (UNITS[match[2]!.toLowerCase()] ?? 1));
  return Number.isSafeInteger(bytes) && bytes > 0 && bytes <= LARGEST_MAX_SAVE_BYTES ? bytes : undefined;
}

/** A byte count for people: `1 GiB`, `3.0 GiB (3,221,225,472 bytes)`, `120 bytes`. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes < size) continue;
    if (bytes % size === 0) return `${bytes / size} ${unit}`;
    return `${(bytes / size).toFixed(1)} ${unit} (${grouped(bytes)} bytes)`;
  }
  return `${grouped(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** What a file that is not a regular file is, for a message: `a FIFO (named pipe)`, `a character device`, … */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return 'a file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** One-line descriptions of the file-system errors a save's reader or writer meets. */
const FILE_SYSTEM_ERRORS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EFBIG: 'file too large for the file system or the file size limit (ulimit -f)',
  EISDIR: 'is a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such file or folder',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many levels of symbolic links',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EBUSY: 'busy',
  ETXTBSY: 'busy',
  EXDEV: 'on another file system',
  ENXIO: 'no such device',
  EAGAIN: 'not ready (non-blocking)',
  EEXIST: 'already exists',
  ENOTEMPTY: 'folder not empty',
};

/**
 * A file-system error (a Node error with a `code` such as `ENOSPC`) as a short phrase with its
 * code: `no space left on the device (ENOSPC)`; `undefined` for any other error.
 */
export function fileSystemMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  return `${FILE_SYSTEM_ERRORS[code] ?? 'file-system error'} (${code})`;
}

/**
 * The failure of reading or writing `file`: a one-line {@link SaveFailure} for a file-system error
 * (`cannot write: no space left on the device (ENOSPC); the old save is unchanged`), or the error
 * itself when it is something else.
 */
export function fileSystemFailure(error: unknown, file: string, action: 'read' | 'write', existed = false): unknown {
  if (error instanceof SaveFailure || error instanceof UsageError) return error;
  if (error instanceof FileSystemError) return treeFailure(error, file, action);
  const message = fileSystemMessage(error);
  if (message === undefined) return error;
  const after = action === 'read' ? '' : existed ? '; the old save is unchanged' : '; nothing was written';
  return new SaveFailure(file, `cannot ${action}: ${message}${after}`);
}

/** What a {@link FileSystemError} of a folder save means, in a line. */
function treeFailure(error: FileSystemError, file: string, action: 'read' | 'write'): SaveFailure {
  const nothing = action === 'write' ? '; nothing was written' : '';
  switch (error.code) {
    case 'special-file':
      return new SaveFailure(
        error.path,
        `not a regular file (a FIFO, a device or a socket) in the save folder ${showName(file)}: savekit reads regular files only${nothing}`,
      );
    case 'symlink-escape':
      return new SaveFailure(
        error.path,
        `a symbolic link out of the save folder ${showName(file)} (or to nothing): never followed${nothing}`,
      );
    case 'symlink-folder':
      return new SaveFailure(error.path, `a symbolic link to a folder in a save folder: never followed${nothing}`);
    case 'too-large':
      return new SaveFailure(error.path, `too large: over the size limit${nothing}`);
    case 'not-a-folder':
      return new SaveFailure(
        file,
        `not a folder (a file, or a symbolic link to nothing): a folder save needs one${nothing}`,
      );
    case 'bad-path':
      return new SaveFailure(file, `${error.message}${nothing}`);
    case 'cross-device':
      return new SaveFailure(file, `the backup ${showName(error.path)} is on another file system${nothing}`);
    default:
      return new SaveFailure(file, `${error.message}${nothing}`);
  }
}

/** The limit, said in a message, and how to change it. */
function overLimit(size: number | undefined, maxBytes: number): string {
  const what = size === undefined ? 'larger than' : `${formatSize(size)}, over`;
  return `too large: ${what} the limit of ${formatSize(maxBytes)} (--max-size or SAVEKIT_MAX_SIZE sets another)`;
}

/**
 * The stats of what `path` names (through symbolic links). A missing path is a usage error;
 * anything else the file system says is a one-line failure.
 */
function statOf(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${showName(path)}: no such file or folder`);
    throw fileSystemFailure(error, path, 'read');
  }
}

/** Refuses anything but a regular file, and a file over the limit, from its stats. */
function checkReadable(path: string, stats: Stats, maxBytes: number): void {
  if (!stats.isFile())
    throw new SaveFailure(path, `${fileKind(stats)}, not a save: savekit reads regular files and folders only`);
  if (stats.size > maxBytes) throw new SaveFailure(path, overLimit(stats.size, maxBytes));
}

/**
 * A regular file's bytes, at most `maxBytes` of them. The path is looked at (stat) before it is
 * opened, so a FIFO with no writer, a device such as /dev/zero, or a socket is refused without
 * ever being opened; a file over the limit is refused before a byte is read. It is then opened
 * without blocking and checked again (the same file, still regular), and read in a loop that stops
 * one byte past the limit: a file that grows while it is read is refused, not followed.
 */
export function readFileBounded(path: string, maxBytes: number = DEFAULT_MAX_SAVE_BYTES): Uint8Array {
  const stats = statOf(path);
  checkReadable(path, stats, maxBytes);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    throw fileSystemFailure(error, path, 'read');
  }
  try {
    const opened = fstatSync(fd);
    if (opened.ino !== stats.ino || opened.dev !== stats.dev)
      throw new SaveFailure(path, 'replaced while it was being opened; try again');
    checkReadable(path, opened, maxBytes);
    const limit = maxBytes + 1; // one byte more than allowed: reading it means the file is too large
    let buffer = Buffer.allocUnsafeSlow(Math.min(limit, Math.max(opened.size + 1, 64 * 1024)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length >= limit) break;
        const larger = Buffer.allocUnsafeSlow(Math.min(limit, buffer.length * 2));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw new SaveFailure(path, overLimit(undefined, maxBytes));
    return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
  } catch (error) {
    throw fileSystemFailure(error, path, 'read');
  } finally {
    closeSync(fd);
  }
}

/** A text file (a JSON document), read as {@link readFileBounded} reads a save. */
export function readTextBounded(path: string, maxBytes: number = DEFAULT_MAX_SAVE_BYTES): string {
  const bytes = readFileBounded(path, maxBytes);
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  } catch (error) {
    // Past the longest string the JavaScript engine makes (about 512 MiB).
    throw new SaveFailure(
      path,
      `too large to read as text (one text holds at most about 512 MiB): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Whether `path` is a folder (false when it does not exist). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every regular file under a folder, relative, with `/` separators, in a stable order. Iterative.
 * FIFOs, devices, sockets and symbolic links are not listed (a walk never follows a link out of
 * the folder). A name that is not UTF-8 cannot be opened by its name as text: it is passed to
 * `unreadable` (shown escaped) instead of being listed.
 */
export function listFiles(root: string, unreadable?: (name: string) => void): string[] {
  const out: string[] = [];
  const work = [''];
  while (work.length > 0) {
    const dir = work.pop() as string;
    const full = dir === '' ? root : join(root, dir);
    for (const entry of readdirSync(full, { withFileTypes: true, encoding: 'buffer' })) {
      const name = entry.name.toString('utf8');
      const relative = dir === '' ? name : `${dir}/${name}`;
      if (!Buffer.from(name, 'utf8').equals(entry.name)) {
        unreadable?.(`${showName(dir === '' ? '' : `${dir}/`)}${showName(entry.name)}`);
        continue;
      }
      if (entry.isDirectory()) work.push(relative);
      else if (entry.isFile()) out.push(relative);
    }
  }
  return out.sort();
}

/**
 * Reads a save: a file's bytes, or a folder as a save tree, at most `maxBytes` in all. A missing
 * path is a usage error; a special file, a file over the limit, or a file-system error is a
 * one-line failure.
 */
export function readSave(path: string, maxBytes: number = DEFAULT_MAX_SAVE_BYTES): SaveInput {
  const stats = statOf(path);
  if (stats.isDirectory()) {
    try {
      return readTree(path, { maxFileBytes: maxBytes, maxTotalBytes: maxBytes });
    } catch (error) {
      if (error instanceof FileSystemError && error.code === 'too-large')
        throw new SaveFailure(error.path, overLimit(undefined, maxBytes));
      throw fileSystemFailure(error, path, 'read');
    }
  }
  return readFileBounded(path, maxBytes);
}

/** Where a save was written, and where the previous one was kept. */
export interface Written {
  /** The path written: the output itself, or a symbolic link's target. */
  readonly path: string;
  /** The previous save, when one was kept. */
  readonly backup?: string;
}

/**
 * The file a single-file save at `path` is written to. A symbolic link is written through: its
 * target (which must exist) gets the new save and the link stays. A FIFO, a device, a socket or a
 * folder is refused — a save is never written into one, and none is replaced by a file.
 */
export function outputTarget(path: string): { target: string; existed: boolean } {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { target: path, existed: false };
    throw fileSystemFailure(error, path, 'write');
  }
  let target = path;
  if (stats.isSymbolicLink()) {
    try {
      target = realpathSync(path);
      stats = statSync(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw new SaveFailure(
          path,
          'a symbolic link to a file that does not exist: savekit writes through a link only to an existing file; nothing was written',
        );
      throw fileSystemFailure(error, path, 'write');
    }
  }
  if (stats.isDirectory())
    throw new SaveFailure(path, 'is a folder (EISDIR): give the name of a file; nothing was written');
  if (!stats.isFile())
    throw new SaveFailure(
      path,
      `${target === path ? '' : `a symbolic link to ${showName(target)}, `}${fileKind(stats)}: savekit writes saves only to regular files; nothing was written`,
    );
  return { target, existed: true };
}

/**
 * Writes one file atomically (a temporary sibling, flushed, renamed over the old one), through a
 * symbolic link to its target (see {@link outputTarget}); with `backup`, the previous file is kept
 * as `TARGET.bak`. Any file-system error is a one-line failure with the old file unchanged.
 */
export function writeFileSafely(
  path: string,
  bytes: Uint8Array | Iterable<Uint8Array>,
  options: { backup?: boolean } = {},
): Written {
  const { target, existed } = outputTarget(path);
  const backup = options.backup && existed ? `${target}.bak` : undefined;
  try {
    writeFileAtomic(target, bytes, backup !== undefined ? { backup } : {});
  } catch (error) {
    throw fileSystemFailure(error, path, 'write', existed);
  }
  return { path: target, ...(backup !== undefined ? { backup } : {}) };
}

/** How {@link writeSave} writes. */
export interface WriteSaveOptions {
  /** Keep the previous save: `SAVE.bak` (a file), `FOLDER.bak` (a folder beside it). */
  readonly backup?: boolean;
  /**
   * For a folder save over an existing folder: the formats, to check that the folder is a save
   * (it is replaced whole; any other folder is refused). Without, any existing folder is replaced.
   */
  readonly registry?: FormatRegistry;
  /** The size limit when that folder is read to check it. */
  readonly maxBytes?: number | undefined;
}

/**
 * Where a folder save goes, and whether one is there already. A symbolic link to a folder is
 * written through (its target replaced, the link kept). An existing folder is replaced whole, so
 * with a `registry` it must be empty or a save some format recognises; a folder savekit cannot
 * read as a save (other files, a link out of it, a FIFO in it) is refused.
 */
function folderTarget(path: string, options: WriteSaveOptions): { target: string; existed: boolean } {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      try {
        lstatSync(path);
      } catch {
        return { target: path, existed: false }; // nothing there: a new folder
      }
      throw new SaveFailure(path, 'a symbolic link to nothing: a folder save needs a folder; nothing was written');
    }
    throw fileSystemFailure(error, path, 'write');
  }
  if (!stats.isDirectory())
    throw new SaveFailure(
      path,
      `${fileKind(stats)}, not a folder: a ${options.registry === undefined ? '' : 'multi-file '}save is written as a folder; nothing was written`,
    );
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch (error) {
    throw fileSystemFailure(error, path, 'write');
  }
  if (options.registry !== undefined) {
    let empty: boolean;
    try {
      empty = readdirSync(target).length === 0;
    } catch (error) {
      throw fileSystemFailure(error, path, 'write', true);
    }
    if (!empty) {
      let found: boolean;
      try {
        found = options.registry.detect(readSave(path, options.maxBytes), path) !== undefined;
      } catch (error) {
        const why = error instanceof SaveFailure ? `: ${error.message}` : '';
        throw new SaveFailure(
          path,
          `not replaced: it is not a save savekit can read${why}; give a new or empty folder, or remove it first`,
        );
      }
      if (!found)
        throw new SaveFailure(
          path,
          'not replaced: a folder of other files, not a save (a folder save replaces the folder whole); give a new or empty folder',
        );
    }
  }
  return { target, existed: true };
}

/**
 * Writes a save atomically: one file ({@link writeFileSafely}), or a folder of files, replaced
 * whole (a sibling temporary folder, flushed, then renamed; nothing is ever written through a
 * symbolic link inside the folder). With `backup`, the previous save is kept as `SAVE.bak` (a file
 * or a folder beside it). A file-system error is a one-line failure with the old save unchanged.
 */
export function writeSave(path: string, save: SaveInput, options: WriteSaveOptions = {}): Written {
  if (!isSaveTree(save)) return writeFileSafely(path, save, options);
  const { target, existed } = folderTarget(path, options);
  const backup = options.backup && existed ? `${target.replace(/\/+$/, '')}.bak` : undefined;
  try {
    writeTreeAtomic(target, save, backup !== undefined ? { backup } : {});
  } catch (error) {
    throw fileSystemFailure(error, path, 'write', existed);
  }
  return { path: target, ...(backup !== undefined ? { backup } : {}) };
}

/** Total size of a save in bytes. */
export function saveSize(save: SaveInput): number {
  if (!isSaveTree(save)) return save.length;
  let total = 0;
  for (const bytes of save.values()) total += bytes.length;
  return total;
}
