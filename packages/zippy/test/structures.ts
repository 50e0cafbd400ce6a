// C structures saved and loaded alone, the way most tests make their files: writeSavefile with
// adataSaver, readSavefile with adataRestorer.
import type { DecodeOptions } from '@savekit/core';
import { adataRestorer, adataSaver, type AData, readSavefile, writeSavefile, type WriteOptions } from '@savekit/zippy';

/** `roots` (C structures only) saved as a ZSAV file. */
export function saveStructures(roots: ReadonlyArray<AData | null>, options?: WriteOptions) {
  return writeSavefile<AData>(roots, adataSaver, options);
}

/** A file of C structures loaded with the shipped restorer. */
export function loadStructures(bytes: Uint8Array, options?: DecodeOptions) {
  return readSavefile(bytes, adataRestorer, options);
}
