// The real UQM saves: the testkit's corpus ('uqm' under SAVEKIT_CORPUS or ../shared/vectors-found).
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import { legacySave, saveToLegacy, toMegaMod, uqmSave, type UqmSave } from '@savekit/uqm';
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

/**
 * The real saves for one test file, warning once that they are absent, with the `describe` and `test`
 * to run them under (the skipping ones where there are none) and a loader decoding one by name.
 */
export function realSavesFor(what: string): {
  saves: Map<string, Uint8Array>;
  /** A real save by file name, decoded (a save the corpus does not have throws). */
  load: (name: string) => UqmSave;
  describe: jest.Describe;
  test: jest.It;
} {
  warnIfAbsent(what);
  const saves = realSaves();
  const present = saves.size > 0;
  const load = (name: string): UqmSave => {
    const bytes = saves.get(name);
    if (bytes === undefined) throw new Error(`the corpus has no save ${name}`);
    return decodeOrThrow(uqmSave, bytes);
  };
  return { saves, load, describe: present ? describe : describe.skip, test: present ? test : test.skip };
}

/** `save` written and read back (what a save is once it has been through its bytes). */
export function throughBytes(save: UqmSave): UqmSave {
  return decodeOrThrow(uqmSave, encodeOrThrow(uqmSave, save));
}

/** The real 0.8 saves decoded, and samples of every kind: their bytes, and the 0.7 and MMV4 saves made from them. */
export function everyKind(saves: Map<string, Uint8Array>): { vanilla: UqmSave[]; samples: Uint8Array[] } {
  const vanilla = [...saves.values()].map((b) => decodeOrThrow(uqmSave, b));
  const samples = [
    ...saves.values(),
    ...vanilla.map((s) => encodeOrThrow(legacySave, saveToLegacy(s))),
    ...vanilla.map((s) => encodeOrThrow(uqmSave, toMegaMod(s))),
  ];
  return { vanilla, samples };
}
