// The container's CRC-32: the runtime's native one (Node's zlib.crc32) gives the core's digests,
// whole and continued, and without one the core's algorithm is used as it is.
import { crc32 } from '@savekit/core';
import fc from 'fast-check';
import { fastCrc32 } from '../src/crc';

test('the native CRC-32 gives the digests of the core one, whole and continued over parts', () => {
  const native = fastCrc32();
  expect(native).not.toBe(crc32); // Node runs the tests: the native one is there
  expect(native.name).toBe(crc32.name);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
      expect(native.compute(a)).toBe(crc32.compute(a));
      expect(native.continue!(native.compute(a), b)).toBe(crc32.continue!(crc32.compute(a), b));
      expect(native.continue!(crc32.compute(a), b)).toBe(crc32.compute(Uint8Array.from([...a, ...b])));
    }),
    { numRuns: 300, seed: 19 },
  );
  expect(native.show(native.compute(Uint8Array.of(1, 2, 3)))).toBe(crc32.show(crc32.compute(Uint8Array.of(1, 2, 3))));
});

test('without a native CRC-32 the core one is used', () => {
  expect(fastCrc32(null)).toBe(crc32);
});
