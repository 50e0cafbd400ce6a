/**
 * Reading and writing saves: a file, or a folder as a save tree.
 *
 * @module
 */
import { mkdirSync, readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { checkTreePath, isSaveTree, type SaveInput, type SaveTree } from '@savekit/core';
import { writeFileAtomic } from '@savekit/core/node';
import { UsageError } from './errors.js';

/** Whether `path` is a folder (false when it does not exist). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Every file under a folder, relative, with `/` separators, in a stable order. Iterative. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const work = [root];
  while (work.length > 0) {
    const dir = work.pop() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) work.push(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  }
  return out.sort();
}

/** Reads a save: a file's bytes, or a folder as a save tree. A missing path is a usage error. */
export function readSave(path: string): SaveInput {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (stats.isDirectory()) {
    const tree = new Map<string, Uint8Array>();
    for (const name of listFiles(path)) tree.set(name, new Uint8Array(readFileSync(join(path, name))));
    return tree;
  }
  return new Uint8Array(readFileSync(path));
}

/** Writes a save atomically: one file, or each file of a tree under a folder. */
export function writeSave(path: string, save: SaveInput, options: { backup?: boolean } = {}): void {
  if (!isSaveTree(save)) {
    writeFileAtomic(path, save, options.backup ? { backup: `${path}.bak` } : {});
    return;
  }
  for (const [name, bytes] of (save as SaveTree).entries()) {
    const problem = checkTreePath(name);
    if (problem !== undefined) throw new UsageError(`refusing to write ${JSON.stringify(name)}: ${problem}`);
    const target = join(path, ...name.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileAtomic(target, bytes, options.backup ? { backup: `${target}.bak` } : {});
  }
}

/** Total size of a save in bytes. */
export function saveSize(save: SaveInput): number {
  if (!isSaveTree(save)) return save.length;
  let total = 0;
  for (const bytes of save.values()) total += bytes.length;
  return total;
}
