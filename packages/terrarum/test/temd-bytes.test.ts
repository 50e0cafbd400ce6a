// Every TEMD file the reader accepts writes back byte for byte: the save reader relies on it (it no
// longer re-encodes worldinfo1 to check), so it is checked here over files built as bytes — both
// byte orders, 3 and 4 layers, raw and gzipped — not only over worlds the writer made.
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { gzipSync } from 'fflate';
import { decode, encode } from '@savekit/core';
import { temdFile, temdSize } from '../src';

/** A TEMD file as bytes: a header in one byte order and planes of random bytes filling it. */
const temdBytes = fc
  .record({
    le: fc.boolean(),
    layers: fc.constantFrom(3, 4),
    reserved: fc.integer({ min: 0, max: 0xffff }),
    width: fc.integer({ min: 1, max: 7 }),
    half: fc.integer({ min: 1, max: 4 }),
    spawnX: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    spawnY: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    seed: fc.integer(),
  })
  .map(({ le, layers, reserved, width, half, spawnX, spawnY, seed }) => {
    const height = half * 2; // an even tile count
    const n = width * height;
    const size = 24 + n * 3 + (layers === 4 ? n : 0);
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    bytes.set([0x54, 0x45, 0x4d, 0x44, 1, layers]);
    view.setUint16(6, reserved, le);
    for (const [i, v] of [width, height, spawnX, spawnY].entries()) view.setInt32(8 + i * 4, v, le);
    let s = seed >>> 0;
    for (let i = 24; i < size; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      bytes[i] = s >>> 24;
    }
    return { bytes, width, height, layers };
  });

describe('TEMD files as bytes', () => {
  test('a raw file the reader accepts writes back the same bytes, and temdSize is its size', () => {
    fc.assert(
      fc.property(temdBytes, ({ bytes, width, height, layers }) => {
        const file = decode(temdFile, bytes);
        expect(E.isRight(file)).toBe(true);
        if (E.isLeft(file)) return;
        expect(file.right.value.gzip).toBe(false);
        expect(temdSize({ width, height, layerCount: layers })).toBe(bytes.length);
        const again = encode(temdFile, file.right.value);
        expect(E.isRight(again) && Buffer.from(again.right).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('a gzipped file writes back the same gzip bytes', () => {
    fc.assert(
      fc.property(temdBytes, ({ bytes }) => {
        const gz = gzipSync(bytes, { level: 9 });
        const file = decode(temdFile, gz);
        expect(E.isRight(file) && file.right.value.gzip).toBe(true);
        if (E.isLeft(file)) return;
        const again = encode(temdFile, file.right.value);
        expect(E.isRight(again) && Buffer.from(again.right).equals(Buffer.from(gz))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  test('temdSize of a size no TEMD file has is the header', () => {
    expect(temdSize({ width: 2, height: 2, layerCount: 3 })).toBe(36);
    expect(temdSize({ width: 2, height: 2, layerCount: 4 })).toBe(40);
    expect(temdSize({ width: Number.NaN, height: 2, layerCount: 3 })).toBe(24);
    expect(temdSize({ width: -2, height: 2, layerCount: 3 })).toBe(24);
    expect(temdSize({ width: 2 ** 20, height: 2 ** 20, layerCount: 4 })).toBe(24);
  });
});
