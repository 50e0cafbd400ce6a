// The real UQM saves (../shared/vectors-found/uqm, or SAVEKIT_CORPUS/uqm).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The corpus folder, or undefined where it is absent. */
export function corpusDir(): string | undefined {
  const dir = process.env.SAVEKIT_CORPUS ?? join(__dirname, '..', '..', '..', '..', 'shared', 'vectors-found');
  return existsSync(dir) ? dir : undefined;
}

/** The real saves by file name (empty where the corpus is absent). */
export function realSaves(): Map<string, Uint8Array> {
  const dir = corpusDir();
  const out = new Map<string, Uint8Array>();
  if (dir === undefined) return out;
  const uqm = join(dir, 'uqm');
  for (const name of readdirSync(uqm)
    .filter((f) => !f.endsWith('.txt'))
    .sort())
    out.set(name, new Uint8Array(readFileSync(join(uqm, name))));
  return out;
}

/** Warns, in each test file that needs the corpus, that it is absent. */
export function warnIfAbsent(what: string): void {
  if (corpusDir() === undefined)
    console.warn(`${what}: ../shared/vectors-found is absent (set SAVEKIT_CORPUS); the real-save tests are skipped`);
}
