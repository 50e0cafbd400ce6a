/// <reference types="node" />
/**
 * Folder saves on disk: reading a folder as a {@link SaveTree} with the file system treated as
 * hostile (special files, outside symlinks and oversized files refused before reading), and writing a
 * tree atomically (a sibling temporary folder, fsynced, moved into place by renames), so a crash at
 * any moment leaves a complete save, old or new.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { checkTreePath, type SaveTree } from '../format.js';
import { fsyncPath, isProcessRunning } from './durable.js';

/** Why {@link FileSystemError} refused a path. */
export type FileSystemErrorCode =
  /** A FIFO, device or socket (or a symlink to one) inside a save folder. */
  | 'special-file'
  /** A file over `maxFileBytes`, or a folder over `maxTotalBytes` (checked with stat, before reading). */
  | 'too-large'
  /** A symlink inside a save folder that resolves outside it, or to nothing. */
  | 'symlink-escape'
  /** A symlink inside a save folder pointing to a folder (refused: it could loop). */
  | 'symlink-folder'
  /** The save path exists but is not a folder (a file, a FIFO, a dangling symlink). */
  | 'not-a-folder'
  /** A tree entry name refused by `checkTreePath`, reserved for temporaries, or both a file and a folder. */
  | 'bad-path'
  /** The backup is on another file system than the save folder, so it cannot be renamed there. */
  | 'cross-device';

/**
 * A file-system refusal by {@link readTree}, {@link loadTree} or {@link writeTreeAtomic}: something
 * the save folder should not contain, or a write that cannot be made safely. Raised before anything is
 * read or replaced. Plain I/O failures (ENOENT, EACCES, ENOSPC, EFBIG, EROFS, …) are Node's own errors
 * with their `code`, not this class.
 */
export class FileSystemError extends Error {
  /** Why the path was refused. */
  readonly code: FileSystemErrorCode;
  /** The file-system path concerned (for `bad-path`, the tree entry name). */
  readonly path: string;

  /**
   * @param code - why the path was refused
   * @param path - the path concerned
   * @param message - a one-line explanation, naming the path
   */
  constructor(code: FileSystemErrorCode, path: string, message: string) {
    super(message);
    this.name = 'FileSystemError';
    this.code = code;
    this.path = path;
  }
}

/** Default {@link TreeReadOptions.maxFileBytes}: 512 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;
/** Default {@link TreeReadOptions.maxTotalBytes}: 1 GiB. */
export const DEFAULT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

/** Limits of {@link readTree}; `undefined` is the same as absent (the default). */
export interface TreeReadOptions {
  /** Largest file read (default {@link DEFAULT_MAX_FILE_BYTES}); a larger one is a `too-large` refusal. */
  readonly maxFileBytes?: number | undefined;
  /** Largest sum of file sizes (default {@link DEFAULT_MAX_TOTAL_BYTES}); more is a `too-large` refusal. */
  readonly maxTotalBytes?: number | undefined;
}

/** Options of {@link loadTree}: the limits of {@link readTree} and the backup to recover from. */
export interface LoadTreeOptions extends TreeReadOptions {
  /** The backup path given to {@link writeTreeAtomic}, read when the folder itself is missing. */
  readonly backup?: string | undefined;
}

/** What {@link loadTree} read. */
export interface LoadedTree {
  /** The save's files. */
  readonly tree: SaveTree;
  /**
   * `folder`: the folder itself. `backup`: the folder was missing (a write killed between its two
   * renames) and the backup, the previous save, was read. `interrupted`: the folder was missing, no
   * backup is kept, and the previous save a killed write had set aside was read.
   */
  readonly from: 'folder' | 'backup' | 'interrupted';
  /** The folder actually read. */
  readonly path: string;
}

/** Options of {@link writeTreeAtomic}; `undefined` is the same as absent (no backup). */
export interface TreeWriteOptions {
  /**
   * Keep the previous save as this folder (e.g. `save1.backup.tevd`): the previous backup is removed
   * and the old save becomes the backup. Must be on the same file system as the save folder.
   */
  readonly backup?: string | undefined;
}

const TEMP_MARK = '.savekit-tmp-';
const OLD_MARK = '.savekit-old-';
const TEMPORARY = /^\..+\.savekit-(?:tmp|old)-\d+-[0-9a-f]{12}$/;
const FILE_TEMPORARY = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;

/**
 * Whether a file or folder name is a savekit temporary, never save content: `.<name>.savekit-tmp-<pid>-<hex>`
 * and `.<name>.savekit-old-<pid>-<hex>` (folder saves in progress, or the old save set aside during
 * one), and `writeFileAtomic`'s `.<name>.<pid>.<hex>.tmp`. {@link readTree} skips them and
 * {@link writeTreeAtomic} refuses tree entries named so.
 */
export function isSavekitTemporary(name: string): boolean {
  return TEMPORARY.test(name) || FILE_TEMPORARY.test(name);
}

function siblingName(path: string, mark: string): string {
  return join(dirname(path), `.${basename(path)}${mark}${process.pid}-${randomBytes(6).toString('hex')}`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Temporaries of `path` left in its parent by killed writers (pid no longer running). */
function leftovers(path: string): string[] {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const match = /^savekit-(?:tmp|old)-(\d+)-[0-9a-f]{12}$/.exec(rest) ?? /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(rest);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || isProcessRunning(pid)) continue;
    out.push(join(dirname(path), name));
  }
  return out;
}

function removeLeftovers(path: string): void {
  for (const leftover of leftovers(path)) rmSync(leftover, { recursive: true, force: true });
}

/** Where a symlink leads; a link to nothing is a FileSystemError `code` naming it as `shown`. */
function linkTarget(link: string, code: FileSystemErrorCode, shown: string): string {
  try {
    return realpathSync(link);
  } catch {
    throw new FileSystemError(code, shown, `${shown} is a symlink to nothing`);
  }
}

/** Where a save folder really is: itself, or a symlink's target (the link is kept). */
function resolveFolder(folder: string): { path: string; exists: boolean } {
  const absolute = resolve(folder);
  const stats = lstatOrUndefined(absolute);
  if (stats === undefined) return { path: absolute, exists: false };
  const real = stats.isSymbolicLink() ? linkTarget(absolute, 'not-a-folder', folder) : absolute;
  if (!statSync(real).isDirectory()) throw new FileSystemError('not-a-folder', folder, `${folder} is not a folder`);
  return { path: real, exists: true };
}

/** Refuses names that cannot be written as a folder, before anything is written. */
function checkNames(tree: SaveTree): string[] {
  const names = [...tree.keys()].sort();
  const folders = new Set<string>();
  for (const name of names) {
    const problem = checkTreePath(name);
    if (problem !== undefined)
      throw new FileSystemError('bad-path', name, `refusing to write ${JSON.stringify(name)}: ${problem}`);
    const segments = name.split('/');
    for (const segment of segments) {
      if (isSavekitTemporary(segment))
        throw new FileSystemError('bad-path', name, `refusing to write ${JSON.stringify(name)}: a temporary's name`);
    }
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
  }
  for (const name of names) {
    if (folders.has(name))
      throw new FileSystemError(
        'bad-path',
        name,
        `refusing to write ${JSON.stringify(name)}: both a file and a folder`,
      );
  }
  return names;
}

/** Writes every file of `tree` under the fresh folder `temp`, each fsynced, then every folder. */
function writeInto(temp: string, tree: SaveTree, names: ReadonlyArray<string>): void {
  mkdirSync(temp);
  const folders = [temp];
  const made = new Set<string>();
  for (const name of names) {
    const segments = name.split('/');
    for (let i = 1; i < segments.length; i++) {
      const sub = segments.slice(0, i).join('/');
      if (made.has(sub)) continue;
      made.add(sub);
      const dir = join(temp, ...segments.slice(0, i));
      mkdirSync(dir);
      folders.push(dir);
    }
    const bytes = tree.get(name) as Uint8Array;
    // 'wx': the folder is new, so nothing can be there to follow; refuse rather than follow anyway.
    const fd = openSync(join(temp, ...segments), 'wx');
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  for (let i = folders.length - 1; i >= 0; i--) fsyncPath(folders[i] as string);
}

/**
 * Writes a save folder atomically: a reader never sees a half-written save.
 *
 * The whole tree goes to a fresh sibling folder `.<name>.savekit-tmp-<pid>-<random>` (same parent,
 * created here, so no symlink can be in it to be followed: a `computers` symlink in the old folder
 * cannot send `computers/evil.txt` outside, and the new save has a real `computers` folder). Every
 * file and folder is fsynced, then renames replace the save: with `backup`, the previous backup is
 * set aside and removed, the old folder renamed to `backup`, the new one renamed to `folder`;
 * without, the old folder is set aside as `.<name>.savekit-old-<pid>-<random>`, the new one renamed
 * in, the old one removed. The parent folder is fsynced. A kill at any moment leaves `folder`
 * complete (old or new) — or, between the two renames, `folder` missing and the old save complete as
 * the backup (or set aside), which {@link loadTree} reads. The next write after such a kill writes
 * `folder` and keeps the backup as it is (it already is the old save).
 *
 * Entry names are checked first (`checkTreePath`, not a temporary's name, not both a file and a
 * folder: a `bad-path` {@link FileSystemError}), before anything is written. When `folder` is a
 * symlink to a folder, the save is written at the link's target and the link kept; when it exists
 * but is not a folder, `not-a-folder`. A missing parent folder is created. An I/O error (ENOSPC,
 * EFBIG, EACCES, …) is thrown as Node's error with the old save untouched and the temporary folder
 * removed. After a successful write, temporaries left by killed writers (whose process is gone) are
 * removed: folders beside `folder` and `backup`, and `writeFileAtomic`'s temporary files there.
 *
 * @param folder - the save folder
 * @param tree - the save's files, relative `/`-separated paths to bytes
 * @param options - the backup to keep
 *
 * @example
 * ```ts
 * import { writeTreeAtomic } from '@savekit/core/node';
 * writeTreeAtomic('saves/save1', tree, { backup: 'saves/save1.backup' });
 * ```
 */
export function writeTreeAtomic(folder: string, tree: SaveTree, options: TreeWriteOptions = {}): void {
  const names = checkNames(tree);
  const target = resolveFolder(folder);
  const parent = dirname(target.path);
  mkdirSync(parent, { recursive: true });
  const backup = options.backup === undefined ? undefined : resolve(options.backup);
  if (backup !== undefined) {
    mkdirSync(dirname(backup), { recursive: true });
    if (statSync(dirname(backup)).dev !== statSync(parent).dev)
      throw new FileSystemError('cross-device', options.backup as string, `${options.backup}: not on the save's disk`);
  }
  const temp = siblingName(target.path, TEMP_MARK);
  try {
    writeInto(temp, tree, names);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }

  // The old save's new place, and the previous backup's place while it is removed.
  let aside: string | undefined;
  let oldBackup: string | undefined;
  let moved = false;
  try {
    if (target.exists) {
      if (backup !== undefined) {
        if (lstatOrUndefined(backup) !== undefined) {
          oldBackup = siblingName(backup, TEMP_MARK);
          renameSync(backup, oldBackup);
        }
        aside = backup;
      } else {
        aside = siblingName(target.path, OLD_MARK);
      }
      renameSync(target.path, aside);
      moved = true;
    }
    renameSync(temp, target.path);
  } catch (error) {
    // Put back what was moved; the old save stays as it was.
    if (moved && aside !== undefined) renameSync(aside, target.path);
    if (oldBackup !== undefined && backup !== undefined) renameSync(oldBackup, backup);
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  fsyncPath(parent);
  if (backup !== undefined && dirname(backup) !== parent) fsyncPath(dirname(backup));
  if (oldBackup !== undefined) rmSync(oldBackup, { recursive: true, force: true });
  if (aside !== undefined && aside !== backup) rmSync(aside, { recursive: true, force: true });
  removeLeftovers(target.path);
  if (backup !== undefined) removeLeftovers(backup);
}

interface Pending {
  readonly name: string;
  /** The path to open: the file itself, or a symlink's target inside the folder. */
  readonly path: string;
  readonly size: number;
}

/**
 * Reads a save folder as a tree: relative paths with `/` separators, in sorted order, in a `Map`
 * (so a file named `__proto__`, `constructor` or `prototype` is an ordinary entry).
 *
 * The walk is iterative (any depth). Savekit temporaries ({@link isSavekitTemporary}) are skipped,
 * never read as content. Refused with a {@link FileSystemError}, before any file is read: special
 * files (FIFOs, devices, sockets: `special-file`); symlinks resolving outside the folder or to
 * nothing (`symlink-escape`) or to a folder (`symlink-folder`); a file over `maxFileBytes` or files
 * summing over `maxTotalBytes` (`too-large`, from stat); names `checkTreePath` refuses (`bad-path`).
 * A symlink to a regular file inside the folder is read as that file's content under the link's
 * name. Files are opened without following links and without blocking, checked again with fstat,
 * and read up to the size stat reported. When `folder` itself is a symlink to a folder, its target is
 * read. This reads exactly `folder`: a missing folder is Node's ENOENT error (see {@link loadTree}
 * for the recovery after a killed write).
 *
 * @param folder - the save folder
 * @param options - size limits
 * @returns the save's files
 */
export function readTree(folder: string, options: TreeReadOptions = {}): SaveTree {
  const maxFile = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const stats = statSync(folder);
  if (!stats.isDirectory()) throw new FileSystemError('not-a-folder', folder, `${folder} is not a folder`);
  const root = realpathSync(folder);
  const pending: Pending[] = [];
  let total = 0;
  const work: Array<{ dir: string; prefix: string }> = [{ dir: root, prefix: '' }];
  while (work.length > 0) {
    const { dir, prefix } = work.pop() as { dir: string; prefix: string };
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (isSavekitTemporary(entry.name)) continue;
      const name = prefix + entry.name;
      const full = join(dir, entry.name);
      const shown = join(folder, ...name.split('/'));
      const problem = checkTreePath(name);
      if (problem !== undefined) throw new FileSystemError('bad-path', shown, `${shown}: ${problem}`);
      let stats = lstatSync(full);
      let path = full;
      if (stats.isSymbolicLink()) {
        path = linkTarget(full, 'symlink-escape', shown);
        if (!path.startsWith(root.endsWith(sep) ? root : root + sep))
          throw new FileSystemError('symlink-escape', shown, `${shown} is a symlink out of the save folder`);
        stats = statSync(path);
        if (stats.isDirectory())
          throw new FileSystemError('symlink-folder', shown, `${shown} is a symlink to a folder (not followed)`);
      } else if (stats.isDirectory()) {
        work.push({ dir: full, prefix: `${name}/` });
        continue;
      }
      if (!stats.isFile()) throw new FileSystemError('special-file', shown, `${shown} is not a regular file`);
      if (stats.size > maxFile)
        throw new FileSystemError('too-large', shown, `${shown} is over the limit of ${maxFile} bytes`);
      total += stats.size;
      if (total > maxTotal)
        throw new FileSystemError('too-large', folder, `${folder} holds over the limit of ${maxTotal} bytes`);
      pending.push({ name, path, size: stats.size });
    }
  }
  pending.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const tree = new Map<string, Uint8Array>();
  for (const file of pending) tree.set(file.name, readBounded(file, join(folder, ...file.name.split('/'))));
  return tree;
}

/** One file's bytes: opened without following a link or blocking, checked again, read up to its stat size. */
function readBounded(file: Pending, shown: string): Uint8Array {
  const fd = openSync(file.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FileSystemError('special-file', shown, `${shown} is not a regular file`);
    const bytes = new Uint8Array(Math.min(stats.size, file.size));
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === bytes.length ? bytes : bytes.slice(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** The old save a killed no-backup write set aside beside `folder`, newest first. */
function setAside(folder: string): string | undefined {
  const prefix = `.${basename(folder)}${OLD_MARK}`;
  let best: { path: string; time: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(dirname(folder));
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !TEMPORARY.test(name)) continue;
    const path = join(dirname(folder), name);
    const stats = lstatOrUndefined(path);
    if (stats === undefined || !stats.isDirectory()) continue;
    if (best === undefined || stats.mtimeMs > best.time) best = { path, time: stats.mtimeMs };
  }
  return best?.path;
}

/**
 * Reads a save folder with the recovery rule of {@link writeTreeAtomic}. When `folder` exists it is
 * read ({@link readTree}, `from: 'folder'`). When it is missing — a write killed between its two
 * renames — the old save is read instead and `from` says so: the old save a no-backup write set aside
 * (`interrupted`), else `options.backup` when it exists (`backup`). With none of these, Node's ENOENT
 * error for `folder`. Recovery reads only; the next {@link writeTreeAtomic} restores `folder`.
 *
 * @param folder - the save folder
 * @param options - size limits and the backup path given to {@link writeTreeAtomic}
 * @returns the tree, where it came from, and the folder read
 */
export function loadTree(folder: string, options: LoadTreeOptions = {}): LoadedTree {
  const limits: TreeReadOptions = { maxFileBytes: options.maxFileBytes, maxTotalBytes: options.maxTotalBytes };
  if (lstatOrUndefined(folder) === undefined) {
    const aside = setAside(resolve(folder));
    if (aside !== undefined) return { tree: readTree(aside, limits), from: 'interrupted', path: aside };
    if (options.backup !== undefined && lstatOrUndefined(options.backup) !== undefined)
      return { tree: readTree(options.backup, limits), from: 'backup', path: options.backup };
  }
  return { tree: readTree(folder, limits), from: 'folder', path: folder };
}
