/// <reference types="node" />
/**
 * `@savekit/terrarum/node`: the doc's backup rule for a save on disk. `loadSaveFile` reads
 * `save1.tevd` and falls back to `save1.backup.tevd` when the main save is missing or does not
 * decode (corrupt, cut short); `saveFile` writes atomically — a temporary sibling, fsync, the
 * previous save moved to the backup, a rename into place — so a crash at any point leaves a
 * loadable save.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { writeFileAtomic } from '@savekit/core/node';
import type { DecodeError, DecodeOptions, Warning } from '@savekit/core';
import { format, type TerrarumDocument } from '../format.js';

/** The backup's path for a save path: `save1.tevd` → `save1.backup.tevd`. */
export function backupPath(path: string): string {
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash ? `${path.slice(0, dot)}.backup${path.slice(dot)}` : `${path}.backup`;
}

/** What {@link loadSaveFile} found. */
export interface LoadedSave {
  /** Which file the document came from. */
  readonly from: 'main' | 'backup';
  readonly document: TerrarumDocument;
  readonly warnings: ReadonlyArray<Warning>;
  /** Why the main save was not used, when the backup was. */
  readonly mainProblem?: string;
}

/** Loads a save, falling back to its backup when the main file is missing or does not decode. */
export function loadSaveFile(path: string, options?: DecodeOptions): E.Either<DecodeError | Error, LoadedSave> {
  const attempt = (file: string) => {
    if (!existsSync(file)) return E.left(new Error(`${file} does not exist`));
    return format.decode(new Uint8Array(readFileSync(file)), options);
  };
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
