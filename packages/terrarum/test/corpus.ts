// The real Terrarum files (../shared/vectors-found/terrarum, or SAVEKIT_CORPUS/terrarum).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function corpusFile(name: string): Uint8Array | undefined {
  const dir = process.env.SAVEKIT_CORPUS ?? join(__dirname, '..', '..', '..', '..', 'shared', 'vectors-found');
  const path = join(dir, 'terrarum', name);
  return existsSync(path) ? new Uint8Array(readFileSync(path)) : undefined;
}

export function warnIfAbsent(what: string, present: boolean): void {
  if (!present)
    console.warn(`${what}: ../shared/vectors-found is absent (set SAVEKIT_CORPUS); the real-file tests are skipped`);
}
