// A codec law shared by format tests: an encoding cut short anywhere is refused with a DecodeError
// that has a document path and an offset inside the bytes it was given (never a crash).
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { type Codec, decode, DecodeError, encodeOrThrow } from '@savekit/core';

/** Checks the law over `values`, each cut at a drawn length; returns the error codes met. */
export function checkCutsRefused<A>(codec: Codec<A>, values: fc.Arbitrary<A>, numRuns = 300): Set<string> {
  const codes = new Set<string>();
  fc.assert(
    fc.property(values, fc.nat(), (value, cut) => {
      const bytes = encodeOrThrow(codec, value);
      const prefix = bytes.subarray(0, cut % bytes.length);
      const result = decode(codec, prefix);
      if (E.isRight(result)) throw new Error(`${prefix.length} of ${bytes.length} bytes decoded`);
      const error = result.left;
      expect(error).toBeInstanceOf(DecodeError);
      expect(Array.isArray(error.path)).toBe(true);
      expect(error.offset).toBeGreaterThanOrEqual(0);
      expect(error.offset).toBeLessThanOrEqual(prefix.length);
      codes.add(error.code);
    }),
    { numRuns },
  );
  return codes;
}
