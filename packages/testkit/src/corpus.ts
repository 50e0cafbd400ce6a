/**
 * The corpus of real files the tests check against: one folder per format (`edge/`, `uqm/`, …) under
 * a corpus root. The root is `SAVEKIT_CORPUS` when it is set, else the nearest `shared/vectors-found`
 * above the working directory (beside the repository, or beside a worktree's parent). Where a format's
 * folder is absent its files are empty and {@link Corpus.warnIfAbsent} says so once per test file:
 * the tests that need it are skipped, saying why, rather than failing or passing silently.
 *
 * ```ts
 * const saves = corpus('uqm');
 * saves.warnIfAbsent('UQM real saves');
 * const maybe = saves.present ? describe : describe.skip;
 * maybe('the real saves', () => {
 *   test.each([...saves.files((name) => !name.endsWith('.txt'))])('%s round-trips', (name, bytes) => {…});
 * });
 * ```
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The environment variable naming the corpus root (a folder holding one folder per format). */
export const CORPUS_VARIABLE = 'SAVEKIT_CORPUS';

/** The corpus root's path below each folder searched: `<folder>/shared/vectors-found`. */
export const CORPUS_FOLDER = join('shared', 'vectors-found');

/** Where to look for the corpus. */
export interface CorpusOptions {
  /**
   * The corpus root, taken as it is (existing or not). Default: `SAVEKIT_CORPUS`, else the nearest
   * `shared/vectors-found` in {@link from} or a folder above it.
   */
  readonly root?: string | undefined;
  /** Where the upward search starts (default: the working directory). */
  readonly from?: string | undefined;
}

/** One format's real files. */
export interface Corpus {
  /** The format folder's name under the root (`uqm`). */
  readonly format: string;
  /** The format's folder, whether or not it exists (undefined when no root was found at all). */
  readonly dir: string | undefined;
  /** Whether the format's folder exists. */
  readonly present: boolean;
  /** The file names in the folder, sorted, that pass `filter` (none when it is absent). */
  names(filter?: (name: string) => boolean): string[];
  /** A file's bytes, or undefined when it (or the folder) is absent. */
  file(name: string): Uint8Array | undefined;
  /** A text file (UTF-8), or undefined when it is absent. */
  text(name: string): string | undefined;
  /** The files that pass `filter`, by name, in name order. */
  files(filter?: (name: string) => boolean): Map<string, Uint8Array>;
  /**
   * When the folder is absent, warns (`console.warn`) that the tests of `what` are skipped and why,
   * and returns false; returns true when it is present. Call it once per test file.
   */
  warnIfAbsent(what: string): boolean;
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * The corpus root: `options.root`, else `SAVEKIT_CORPUS`, else the nearest `shared/vectors-found` in
 * `options.from` (default: the working directory) or a folder above it; undefined when none is found.
 */
export function corpusRoot(options: CorpusOptions = {}): string | undefined {
  if (options.root !== undefined) return resolve(options.root);
  const fromEnv = process.env[CORPUS_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  let folder = resolve(options.from ?? process.cwd());
  for (;;) {
    const candidate = join(folder, CORPUS_FOLDER);
    if (isFolder(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** The real files of one format (the folder `format` under {@link corpusRoot}). */
export function corpus(format: string, options: CorpusOptions = {}): Corpus {
  if (format === '' || /[\\/]|^\.\.?$/.test(format))
    throw new RangeError(`a corpus format is one folder name, not ${JSON.stringify(format)}`);
  const root = corpusRoot(options);
  const dir = root === undefined ? undefined : join(root, format);
  const present = dir !== undefined && isFolder(dir);
  const names = (filter: (name: string) => boolean = () => true): string[] =>
    present
      ? readdirSync(dir as string)
          .filter((name) => !isFolder(join(dir as string, name)) && filter(name))
          .sort()
      : [];
  const path = (name: string): string | undefined => {
    if (!present || name === '' || /[\\/]/.test(name)) return undefined;
    const file = join(dir as string, name);
    return existsSync(file) && !isFolder(file) ? file : undefined;
  };
  return {
    format,
    dir,
    present,
    names,
    file(name) {
      const file = path(name);
      return file === undefined ? undefined : new Uint8Array(readFileSync(file));
    },
    text(name) {
      const file = path(name);
      return file === undefined ? undefined : readFileSync(file, 'utf8');
    },
    files(filter) {
      const out = new Map<string, Uint8Array>();
      for (const name of names(filter)) out.set(name, new Uint8Array(readFileSync(join(dir as string, name))));
      return out;
    },
    warnIfAbsent(what) {
      if (present) return true;
      const where = dir ?? `${CORPUS_FOLDER} (not found above ${resolve(options.from ?? process.cwd())})`;
      console.warn(`${what}: the corpus folder ${where} is absent (set ${CORPUS_VARIABLE}); these tests are skipped`);
      return false;
    },
  };
}
