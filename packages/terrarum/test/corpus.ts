// The real Terrarum files: the testkit's corpus ('terrarum' under SAVEKIT_CORPUS or ../shared/vectors-found).
import { corpus } from '@savekit/testkit';

const terrarum = corpus('terrarum');

/** A real file's bytes, or undefined where the corpus (or the file) is absent. */
export function corpusFile(name: string): Uint8Array | undefined {
  return terrarum.file(name);
}

/** Warns, in a test file whose real files are not all `present`, that its real-file tests are skipped. */
export function warnIfAbsent(what: string, present: boolean): void {
  if (present || !terrarum.warnIfAbsent(what)) return;
  console.warn(`${what}: a real file is missing from ${terrarum.dir}; these tests are skipped`);
}
