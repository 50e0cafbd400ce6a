import * as t from 'io-ts';
import CRC32 from 'crc-32';
import { sha256 } from '@noble/hashes/sha2.js';
test('toolchain', () => {
  expect(t.number.is(1)).toBe(true);
  expect(CRC32.buf(new Uint8Array([1, 2, 3])) >>> 0).toBe(1438416925);
  expect(sha256(new Uint8Array(0)).length).toBe(32);
});
