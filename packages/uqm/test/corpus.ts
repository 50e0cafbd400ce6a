// The real UQM saves: the testkit's corpus ('uqm' under SAVEKIT_CORPUS or ../shared/vectors-found).
import { corpus } from '@savekit/testkit';

const uqm = corpus('uqm');

/** The real saves by file name (empty where the corpus is absent); the README is not a save. */
export function realSaves(): Map<string, Uint8Array> {
  return uqm.files((name) => !name.endsWith('.txt'));
}

/** Warns, in each test file that needs the corpus, that it is absent. */
export function warnIfAbsent(what: string): void {
  uqm.warnIfAbsent(what);
}
