// The LZHUF coder: round trips on 10,000 random inputs (and the sizes around the ring and the
// Huffman rebuild), the stream format, and streams that are cut short, never end or claim 4 GB.
import fc from 'fast-check';
import { bytes, cstring } from '@savekit/core';
import { utf8 } from '@savekit/core/kit';
import { LzhufError, lzhufCompress, lzhufDecompress } from '@savekit/uqm';
import { arbitrary, randomBytes, repetitive, text } from '@savekit/testkit';

test('10,000 random inputs round-trip', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        // Any bytes, and text repeated (so the coder finds matches): values of core codecs.
        arbitrary(bytes('rest'), { maxLength: 150 }),
        arbitrary(cstring('utf8'), { maxLength: 400 }).map((s) => utf8.encode(s.repeat(3))),
      ),
      (input) => {
        expect(lzhufDecompress(lzhufCompress(input))).toEqual(input);
      },
    ),
    { numRuns: 10_000 },
  );
});

test.each([0, 1, 2, 3, 15, 16, 17, 4079, 4080, 4096, 4097, 70_000, 300_000])(
  '%d bytes of text, random and repetitive data round-trip (ring wrap, tree rebuild)',
  (size) => {
    for (const input of [text(size, size + 1), randomBytes(size, size + 2), repetitive(size, size + 3)])
      expect(lzhufDecompress(lzhufCompress(input))).toEqual(input);
  },
);

test('the stream: u32 little-endian length, then the code; long runs compress', () => {
  const zeros = new Uint8Array(10_000);
  const stream = lzhufCompress(zeros);
  expect([...stream.subarray(0, 4)]).toEqual([0x10, 0x27, 0, 0]);
  expect(stream.length).toBeLessThan(1200);
  expect([...lzhufCompress(new Uint8Array(0))]).toEqual([0, 0, 0, 0]);
});

test('a stream cut short, one that claims 4 GB, and one whose code cannot hold its length are LzhufErrors', () => {
  const input = text(5000, 7);
  const stream = lzhufCompress(input);
  for (const cut of [5, 10, stream.length >> 1, stream.length - 2])
    expect(() => lzhufDecompress(stream.subarray(0, cut))).toThrow(LzhufError);
  const huge = stream.slice();
  huge.set([0xff, 0xff, 0xff, 0xff], 0);
  expect(() => lzhufDecompress(huge)).toThrow(/claims 4294967295 bytes, over the limit/);
  const long = stream.slice();
  new DataView(long.buffer).setUint32(0, 200 << 20, true);
  expect(() => lzhufDecompress(long)).toThrow(/cannot hold 209715200 bytes/);
  expect(() => lzhufDecompress(Uint8Array.of(1, 0))).toThrow(/4-byte length/);
});
