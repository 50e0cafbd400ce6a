// Checking a kept stream without decoding it into a buffer of its own: `inflateMatches`, a layer's
// `matches` as `transformKeeping` uses it, and the word-at-a-time `bytesEqual` behind both.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { deflateSync, gzipSync, zlibSync } from 'fflate';
import { cstring, decode, layer, sized, struct, transformKeeping, u32le, u8, xor, type ByteLayer } from '../src/index';
import { bytesEqual, inflateBounded, inflateMatches, type DeflateWrapper } from '../src/kit';
import { encodeOk, hexBytes } from './laws';

const packers: Record<DeflateWrapper, (data: Uint8Array) => Uint8Array> = {
  zlib: (data) => zlibSync(data),
  gzip: (data) => gzipSync(data),
  raw: (data) => deflateSync(data),
};

/** Save-like bytes: runs and noise, long enough to take several inflating steps. */
function sample(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = i % 97 < 60 ? (i >>> 6) & 0xff : x >>> 24;
  }
  return out;
}

describe('inflateMatches', () => {
  const plain = sample(300_000, 1);
  test.each(['zlib', 'gzip', 'raw'] as const)(
    '%s: true for exactly the inflated bytes, false for any other',
    (wrapper) => {
      const packed = packers[wrapper](plain);
      expect(inflateMatches(packed, wrapper, plain)).toBe(true);
      // Shorter, longer, one byte changed (first, middle, last), another wrapper, a cut stream.
      expect(inflateMatches(packed, wrapper, plain.subarray(0, plain.length - 1))).toBe(false);
      expect(inflateMatches(packed, wrapper, Uint8Array.from([...plain, 0]))).toBe(false);
      for (const at of [0, 150_001, plain.length - 1]) {
        const edited = plain.slice();
        edited[at]! ^= 1;
        expect(inflateMatches(packed, wrapper, edited)).toBe(false);
      }
      expect(inflateMatches(packed.subarray(0, packed.length >> 1), wrapper, plain)).toBe(false);
      expect(inflateMatches(packed, wrapper === 'zlib' ? 'gzip' : 'zlib', plain)).toBe(false);
    },
  );

  test('the same answer as inflating and comparing, for any bytes and any stream', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const packed = zlibSync(a);
        expect(inflateMatches(packed, 'zlib', a)).toBe(true);
        expect(inflateMatches(packed, 'zlib', b)).toBe(inflatesTo(packed, b));
        // Arbitrary bytes as the stream: almost never one, and then whatever it inflates to decides.
        expect(inflateMatches(b, 'zlib', a)).toBe(inflatesTo(b, a));
      }),
      { numRuns: 300 },
    );
  });

  test('a bomb is no match for a shorter expected output, and matches its whole output', () => {
    const bomb = zlibSync(new Uint8Array(8 << 20));
    expect(inflateMatches(bomb, 'zlib', new Uint8Array(1000))).toBe(false);
    expect(inflateMatches(bomb, 'zlib', new Uint8Array(8 << 20))).toBe(true);
  });
});

/** The reference answer: inflating `data` whole, exactly `expected.length` bytes, then comparing. */
function inflatesTo(data: Uint8Array, expected: Uint8Array): boolean {
  let inflated: Uint8Array;
  try {
    inflated = inflateBounded(data, 'zlib', { maxOutput: expected.length, expected: expected.length });
  } catch {
    return false;
  }
  return bytesEqual(inflated, expected);
}

describe('bytesEqual', () => {
  test('word-aligned and unaligned views of long arrays: equal only when every byte is', () => {
    const a = sample(1000, 2);
    for (const offset of [0, 1, 4, 7]) {
      const backing = new Uint8Array(a.length + 8);
      backing.set(a, offset);
      const b = backing.subarray(offset, offset + a.length);
      expect(bytesEqual(a, b)).toBe(true);
      for (const at of [0, 3, 4, 500, 997, 998, 999]) {
        b[at]! ^= 0x80;
        expect(bytesEqual(a, b)).toBe(false);
        expect(bytesEqual(b, a)).toBe(false);
        b[at]! ^= 0x80;
      }
    }
    expect(bytesEqual(a, a.subarray(0, 999))).toBe(false);
  });
});

describe('transformKeeping with a layer that matches', () => {
  // A layer whose stream is the bytes reversed, with a `matches` that counts its calls.
  const calls = { decode: 0, matches: 0 };
  const reversed: ByteLayer = layer(
    'reversed',
    (data) => {
      calls.decode++;
      return data.slice().reverse();
    },
    (data) => data.slice().reverse(),
    (data, inner) => {
      calls.matches++;
      return bytesEqual(data.slice().reverse(), inner);
    },
  );
  const inner = struct({ name: cstring('ascii'), level: u8 });
  const codec = sized(u32le, transformKeeping(inner, { decodedLength: u32le, keep: 'always' }, reversed));

  test('an unchanged value is checked with matches (nothing decoded) and written from its kept stream', () => {
    const fileBytes = Uint8Array.from([...hexBytes('08000000'), ...hexBytes('04000000'), 7, 0, 0x62, 0x61]);
    const decoded = decode(codec, fileBytes);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.value).toEqual({ value: { name: 'ab', level: 7 }, stored: Uint8Array.of(7, 0, 0x62, 0x61) });
    calls.decode = 0;
    calls.matches = 0;
    expect(encodeOk(codec, decoded.right.value)).toEqual(fileBytes);
    expect(calls).toEqual({ decode: 0, matches: 1 });
    // A kept stream that no longer matches the value is replaced by the value's own.
    const changed = encodeOk(codec, { ...decoded.right.value, value: { name: 'abc', level: 7 } });
    expect(changed).toEqual(
      Uint8Array.from([...hexBytes('09000000'), ...hexBytes('05000000'), 7, 0, 0x63, 0x62, 0x61]),
    );
    expect(calls.matches).toBe(2);
  });

  test('a matches that throws counts as no match', () => {
    const throwing = layer(
      'reversed',
      (data) => data.slice().reverse(),
      (data) => data.slice().reverse(),
      () => {
        throw new Error('cannot tell');
      },
    );
    const c = sized(u32le, transformKeeping(inner, { decodedLength: u32le, keep: 'always' }, throwing));
    // A kept stream of other bytes than ours for the same value: not confirmed, so ours is written.
    const kept = { value: { name: 'ab', level: 7 }, stored: Uint8Array.of(1, 2, 3, 4) };
    expect(encodeOk(c, kept)).toEqual(
      Uint8Array.from([...hexBytes('08000000'), ...hexBytes('04000000'), 7, 0, 0x62, 0x61]),
    );
  });
});

describe('the innermost layer matches after the others decode', () => {
  test("xor's matches is decoding and comparing", () => {
    const key = xor('EDGE!');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (bytes, inner) => {
        const decoded = key.decode(bytes, { maxOutput: inner.length, expected: inner.length });
        expect(key.matches?.(bytes, inner)).toBe(bytesEqual(decoded, inner));
        expect(key.matches?.(key.encode(inner), inner)).toBe(true);
      }),
    );
  });

  test('a reversing layer nearest the file, then XOR: unchanged values keep their stream, changed ones do not', () => {
    const decodes = { count: 0 };
    const reversedPlain = layer(
      'reversed',
      (data) => {
        decodes.count++;
        return data.slice().reverse();
      },
      (data) => data.slice().reverse(),
    );
    const inner = struct({ name: cstring('ascii'), level: u8 });
    const codec = sized(
      u32le,
      transformKeeping(inner, { decodedLength: u32le, keep: 'always' }, reversedPlain, xor('k')),
    );
    const fileBytes = encodeOk(codec, { value: { name: 'ab', level: 7 } });
    const decoded = decode(codec, fileBytes);
    if (E.isLeft(decoded)) throw decoded.left;
    decodes.count = 0;
    expect(encodeOk(codec, decoded.right.value)).toEqual(fileBytes);
    expect(decodes.count).toBe(1);
    // A kept stream of the same length that XORs to other bytes is not reused.
    const stored = decoded.right.value.stored!.slice();
    stored[0]! ^= 1;
    expect(encodeOk(codec, { ...decoded.right.value, stored })).toEqual(fileBytes);
  });
});
