/// <reference types="node" />
/**
 * `@savekit/terrarum/node`: the doc's backup rule for a save on disk. `loadSaveFile` reads
 * `save1.tevd` and falls back to `save1.backup.tevd` when the main save is missing or does not
 * decode (corrupt, cut short); `saveFile` writes atomically — a temporary sibling, fsync, the
 * previous save moved to the backup, a rename into place — so a crash at any point leaves a
 * loadable save. `saveFolder` and `loadSaveFolder` do the same for a save written as a folder (the
 * design doc's save directory): the whole folder is written beside the old one and swapped in by
 * renames, the old folder becoming the backup folder.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { readTree, writeFileAtomic, writeTreeAtomic, type TreeReadOptions } from '@savekit/core/node';
import type { DecodeError, DecodeOptions, SaveTree, Warning } from '@savekit/core';
import { format, type TerrarumDocument } from '../format.js';

/**
 * The backup's path for a save path: `save1.tevd` → `save1.backup.tevd`, `save1` → `save1.backup`
 * (a trailing `/` of a folder path is dropped first: `save1.tevd/` → `save1.backup.tevd`).
 */
export function backupPath(save: string): string {
  const path = save.replace(/(?<=.)[\\/]+$/, '');
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash ? `${path.slice(0, dot)}.backup${path.slice(dot)}` : `${path}.backup`;
}

/** What {@link loadSaveFile} or {@link loadSaveFolder} found. */
export interface LoadedSave {
  /** Which file (or folder) the document came from. */
  readonly from: 'main' | 'backup';
  readonly document: TerrarumDocument;
  readonly warnings: ReadonlyArray<Warning>;
  /** Why the main save was not used, when the backup was. */
  readonly mainProblem?: string;
}

/** Loads a save, falling back to its backup when the main file is missing or does not decode. */
export function loadSaveFile(path: string, options?: DecodeOptions): E.Either<DecodeError | Error, LoadedSave> {
  return withBackup(path, (file) => {
    if (!existsSync(file)) return E.left(new Error(`${file} does not exist`));
    return format.decode(new Uint8Array(readFileSync(file)), options);
  });
}

/** A decoded save, or why it could not be read. */
type Attempt = E.Either<DecodeError | Error, { value: TerrarumDocument; warnings: ReadonlyArray<Warning> }>;

/** The doc's backup rule, for a file or a folder: the main save, else its backup, else the main's error. */
function withBackup(path: string, attempt: (at: string) => Attempt): E.Either<DecodeError | Error, LoadedSave> {
  const main = attempt(path);
  if (E.isRight(main)) return E.right({ from: 'main', document: main.right.value, warnings: main.right.warnings });
  const backup = attempt(backupPath(path));
  if (E.isRight(backup))
    return E.right({
      from: 'backup',
      document: backup.right.value,
      warnings: backup.right.warnings,
      mainProblem: main.left.message,
    });
  return E.left(main.left);
}

/** Writes a save atomically, keeping the previous one as the backup. */
export function saveFile(path: string, bytes: Uint8Array): void {
  writeFileAtomic(path, bytes, { backup: backupPath(path) });
}

/** Options of {@link loadSaveFolder}: decoding options and the folder reader's size limits. */
export interface LoadSaveFolderOptions extends DecodeOptions, TreeReadOptions {}

/**
 * Loads a save folder (`save1.tevd/` holding `world`, `worldinfo1`, …), falling back to the backup
 * folder (`save1.backup.tevd/`) when the main folder is missing (a save killed between its two
 * renames leaves only the backup, the previous save), cannot be read safely (a special file or an
 * outside symlink in it, files over the limits: `FileSystemError` from `@savekit/core/node`), or does
 * not decode ("Save file corrupted": checksums in `world` that do not match). With both unusable, the
 * main folder's error. Savekit temporaries in a folder are never read as save content.
 *
 * @param path - the save folder
 * @param options - decoding options and size limits (`maxFileBytes`, `maxTotalBytes`)
 */
export function loadSaveFolder(
  path: string,
  options: LoadSaveFolderOptions = {},
): E.Either<DecodeError | Error, LoadedSave> {
  const limits: TreeReadOptions = { maxFileBytes: options.maxFileBytes, maxTotalBytes: options.maxTotalBytes };
  return withBackup(path, (folder) => {
    if (!existsSync(folder)) return E.left(new Error(`${folder} does not exist`));
    let tree: SaveTree;
    try {
      tree = readTree(folder, limits);
    } catch (error) {
      return E.left(error instanceof Error ? error : new Error(String(error)));
    }
    return format.decode(tree, options);
  });
}

/**
 * Writes a save folder atomically, keeping the previous one as the backup folder ({@link backupPath}):
 * the tree goes to a temporary sibling folder, fsynced, then the old folder becomes the backup and the
 * new one is renamed into place, so a crash at any moment leaves a loadable save for
 * {@link loadSaveFolder} (the folder, or the backup). Refuses entry names that could leave the folder
 * (`FileSystemError` `bad-path`); I/O errors (ENOSPC, EFBIG, …) are thrown with the old save intact.
 *
 * @param path - the save folder
 * @param tree - the save's files (e.g. `encodeSave(save)`)
 */
export function saveFolder(path: string, tree: SaveTree): void {
  writeTreeAtomic(path, tree, { backup: backupPath(path) });
}
