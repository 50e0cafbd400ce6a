// CRC-32 through the runtime's native zlib (Node runs the tests, so it is there) gives crc-32's
// digests, whole and continued over parts, signed or unsigned running values alike.
import CRC32 from 'crc-32';
import fc from 'fast-check';
import { crc32, nativeCrc32 } from '../src/checksum';

test('the native CRC-32 is found under Node and gives the digests of crc-32, whole and continued', () => {
  const native = nativeCrc32();
  expect(native).toBeDefined();
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
      expect(native!(a) >>> 0).toBe(CRC32.buf(a) >>> 0);
      // crc-32 hands its running value on signed; the native one must take it as it is.
      expect(native!(b, CRC32.buf(a)) >>> 0).toBe(CRC32.buf(b, CRC32.buf(a)) >>> 0);
      expect(crc32.continue!(crc32.compute(a), b)).toBe(crc32.compute(Uint8Array.from([...a, ...b])));
    }),
    { numRuns: 300, seed: 19 },
  );
  expect(crc32.compute(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
});

test('without a runtime that has one, nothing native is found', () => {
  const host = globalThis as { process?: unknown };
  const saved = host.process;
  try {
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    expect(nativeCrc32()).toBeUndefined();
  } finally {
    Object.defineProperty(globalThis, 'process', { value: saved, configurable: true, writable: true });
  }
});
