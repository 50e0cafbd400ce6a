import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, type Codec } from '../src/index';
import { bits, float, int, struct } from '../src/index';
import { u8, u16be, u16le, u24be, u24le, u32be, u32le, u48be, u48le, u64be, u64le } from '../src/index';
import { i8, i16be, i16le, i24be, i24le, i32be, i32le, i48be, i48le, i64be, i64le } from '../src/index';
import { f32be, f32le, f64be, f64le } from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const ints: Array<[Codec<number>, number, number]> = [
  [u8, 0, 255],
  [i8, -128, 127],
  [u16le, 0, 65535],
  [u16be, 0, 65535],
  [i16le, -32768, 32767],
  [i16be, -32768, 32767],
  [u24le, 0, 2 ** 24 - 1],
  [u24be, 0, 2 ** 24 - 1],
  [i24le, -(2 ** 23), 2 ** 23 - 1],
  [i24be, -(2 ** 23), 2 ** 23 - 1],
  [u32le, 0, 2 ** 32 - 1],
  [u32be, 0, 2 ** 32 - 1],
  [i32le, -(2 ** 31), 2 ** 31 - 1],
  [i32be, -(2 ** 31), 2 ** 31 - 1],
  [u48le, 0, 2 ** 48 - 1],
  [u48be, 0, 2 ** 48 - 1],
  [i48le, -(2 ** 47), 2 ** 47 - 1],
  [i48be, -(2 ** 47), 2 ** 47 - 1],
];

describe('integers', () => {
  test.each(ints.map((row) => [row[0].name, ...row] as const))(
    '%s obeys the laws over its whole range',
    (_name, codec, min, max) => {
      const values = fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, 0));
      // Every byte string of the right length is accepted.
      const accepted = checkLaws(codec, values, {
        bytes: fc.uint8Array({ minLength: codec.size!, maxLength: codec.size! }),
      });
      expect(accepted).toBe(1000);
    },
  );

  test.each(ints.map((row) => [row[0].name, ...row] as const))(
    '%s refuses out-of-range and non-integer values with an EncodeError',
    (_name, codec, min, max) => {
      expect(encodeFails(codec, max + 1).message).toMatch(/out of range/);
      expect(encodeFails(codec, min - 1).message).toMatch(/out of range/);
      expect(encodeFails(codec, 1.5).message).toMatch(/expected an integer/);
      expect(encodeFails(codec, '1' as unknown as number).message).toMatch(/expected an integer/);
    },
  );

  test('byte orders are what they say', () => {
    expect(encodeOk(u16le, 0x0102)).toEqual(hexBytes('0201'));
    expect(encodeOk(u16be, 0x0102)).toEqual(hexBytes('0102'));
    expect(encodeOk(u24le, 0x010203)).toEqual(hexBytes('030201'));
    expect(encodeOk(u24be, 0x010203)).toEqual(hexBytes('010203'));
    expect(encodeOk(i24le, -2)).toEqual(hexBytes('feffff'));
    expect(encodeOk(u32be, 0x01020304)).toEqual(hexBytes('01020304'));
    expect(encodeOk(u48le, 0x010203040506)).toEqual(hexBytes('060504030201'));
    expect(encodeOk(u48be, 0x010203040506)).toEqual(hexBytes('010203040506'));
    expect(encodeOk(i48le, -1)).toEqual(hexBytes('ffffffffffff'));
    expect(encodeOk(i48be, -(2 ** 47))).toEqual(hexBytes('800000000000'));
    expect(encodeOk(u64be, 0x0102030405060708n)).toEqual(hexBytes('0102030405060708'));
    expect(encodeOk(i64le, -2n)).toEqual(hexBytes('feffffffffffffff'));
  });

  test('a short read names the expected and remaining bytes', () => {
    const error = decodeFails(u32le, hexBytes('0102'));
    expect(error.offset).toBe(0);
    expect(error.message).toBe('expected 4 bytes, 2 left');
    expect(error.toString()).toBe('at (root) (offset 0): expected 4 bytes, 2 left');
  });

  test('int() rejects nothing it should accept', () => {
    expect(int(16, true, 'be').name).toBe('i16be');
  });
});

describe('64-bit integers', () => {
  const cases: Array<[Codec<bigint>, bigint, bigint]> = [
    [u64le, 0n, 2n ** 64n - 1n],
    [u64be, 0n, 2n ** 64n - 1n],
    [i64le, -(2n ** 63n), 2n ** 63n - 1n],
    [i64be, -(2n ** 63n), 2n ** 63n - 1n],
  ];
  test.each(cases.map((row) => [row[0].name, ...row] as const))(
    '%s obeys the laws; JSON holds them as decimal strings',
    (_name, codec, min, max) => {
      checkLaws(codec, fc.bigInt({ min, max }), { bytes: fc.uint8Array({ minLength: 8, maxLength: 8 }) });
      expect(codec.json.encode(max)).toBe(max.toString());
      expect(encodeFails(codec, max + 1n).message).toMatch(/out of range/);
      expect(encodeFails(codec, 1 as unknown as bigint).message).toMatch(/expected a bigint/);
    },
  );
});

describe('floats', () => {
  const sameFloat = (a: number, b: number) => expect(Object.is(a, b)).toBe(true);
  const canonicalOnly = (bits: 32 | 64) => fc.uint8Array({ minLength: bits / 8, maxLength: bits / 8 });

  test.each([
    ['f32le', f32le],
    ['f32be', f32be],
  ] as const)('%s obeys the laws, -0, NaN and infinities included', (_name, codec) => {
    const values = fc.oneof(
      fc.float({ noDefaultInfinity: false }),
      fc.constantFrom(-0, 0, NaN, Infinity, -Infinity, 1e-45),
    );
    checkLaws(codec, values.map(Math.fround), { equal: sameFloat, bytes: canonicalOnly(32) });
  });

  test.each([
    ['f64le', f64le],
    ['f64be', f64be],
  ] as const)('%s obeys the laws, -0, NaN and infinities included', (_name, codec) => {
    const values = fc.oneof(fc.double(), fc.constantFrom(-0, 0, NaN, Infinity, -Infinity, 5e-324));
    checkLaws(codec, values, { equal: sameFloat, bytes: canonicalOnly(64) });
  });

  test('a float32 that would be rounded is refused on encode', () => {
    expect(encodeFails(f32le, 0.1).message).toMatch(/not exactly representable/);
  });

  test('a non-canonical NaN is refused by default, and kept bit for bit with nan: keep', () => {
    const signalling = hexBytes('0100807f'); // 0x7f800001 little-endian
    expect(decodeFails(f32le, signalling).message).toMatch(/NaN with payload 0x7f800001/);
    const keep = float(32, 'le', { nan: 'keep' });
    const decoded = decode(keep, signalling);
    expect(E.isRight(decoded) && decoded.right.value).toEqual({ nan: '7f800001' });
    expect(encodeOk(keep, { nan: '7f800001' })).toEqual(signalling);
    const luaNaN = hexBytes('000000000000f8ff'); // x86's -nan from 0/0
    const keep64 = float(64, 'le', { nan: 'keep' });
    checkLaws(keep64, fc.oneof(fc.double(), fc.constant({ nan: 'fff8000000000000' })), {
      bytes: fc.oneof(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.constant(luaNaN)),
    });
  });

  test('any NaN number is written as the canonical quiet NaN, interpreted and compiled, whatever its own bits', () => {
    // NaNs whose bits the engine keeps: x86's 0/0 (sign bit set) and one with a payload.
    const nans = [0xfff8000000000000n, 0x7ff0000000000001n, 0xfff0000000abcdefn].map(
      (bits) => new Float64Array(new BigUint64Array([bits]).buffer)[0]!,
    );
    const canonical: Array<[Codec<number>, string]> = [
      [f64le, '000000000000f87f'],
      [f64be, '7ff8000000000000'],
      [f32le, '0000c07f'],
      [f32be, '7fc00000'],
    ];
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    for (const nan of nans) {
      expect(Number.isNaN(nan)).toBe(true);
      for (const [codec, bytes] of canonical) expect(hex(encodeOk(codec, nan))).toBe(bytes);
      // A struct of fixed floats is written by a compiled run: it hands NaNs to the interpreter.
      const record = struct({ a: f64le, b: f32be, c: f64be });
      expect(hex(encodeOk(record, { a: nan, b: nan, c: nan }))).toBe('000000000000f87f7fc000007ff8000000000000');
    }
  });

  test('JSON spells what JSON numbers cannot hold', () => {
    expect(f64le.json.encode(-0)).toBe('-0');
    expect(f64le.json.encode(NaN)).toBe('NaN');
    expect(f64le.json.encode(-Infinity)).toBe('-Infinity');
    expect(f64le.json.encode(0.1)).toBe(0.1);
  });
});

describe('bit fields', () => {
  const lsb = bits({ a: 1, b: 3, c: 4, d: 12, e: 4 }, { order: 'lsb' });
  const msb = bits({ a: 1, b: 3, c: 4, d: 12, e: 4 }, { order: 'msb' });
  const values = fc.record({
    a: fc.integer({ min: 0, max: 1 }),
    b: fc.integer({ min: 0, max: 7 }),
    c: fc.integer({ min: 0, max: 15 }),
    d: fc.integer({ min: 0, max: 4095 }),
    e: fc.integer({ min: 0, max: 15 }),
  });

  test.each([
    ['lsb', lsb],
    ['msb', msb],
  ] as const)('%s order obeys the laws', (_name, codec) => {
    const accepted = checkLaws(codec, values, { bytes: fc.uint8Array({ minLength: 3, maxLength: 3 }) });
    expect(accepted).toBe(1000);
  });

  test('least-significant-bit-first order packs the first field into bit 0', () => {
    expect(encodeOk(lsb, { a: 1, b: 0, c: 0, d: 0, e: 0 })).toEqual(hexBytes('010000'));
    expect(encodeOk(lsb, { a: 0, b: 0, c: 0xf, d: 0, e: 0 })).toEqual(hexBytes('f00000'));
    expect(encodeOk(lsb, { a: 0, b: 0, c: 0, d: 0xabc, e: 0 })).toEqual(hexBytes('00bc0a'));
  });

  test('most-significant-bit-first order packs the first field into bit 7', () => {
    expect(encodeOk(msb, { a: 1, b: 0, c: 0, d: 0, e: 0 })).toEqual(hexBytes('800000'));
    expect(encodeOk(msb, { a: 0, b: 0, c: 0, d: 0xabc, e: 0 })).toEqual(hexBytes('00abc0'));
  });

  test('fields at explicit positions, across byte boundaries', () => {
    const placed = bits({ high: { at: 12, width: 4 }, low: { at: 0, width: 12 } }, { order: 'lsb' });
    expect(encodeOk(placed, { high: 0xa, low: 0x123 })).toEqual(hexBytes('23a1'));
    const r = decode(placed, hexBytes('23a1'));
    expect(E.isRight(r) && r.right.value).toEqual({ high: 0xa, low: 0x123 });
  });

  test('an unnamed bit or an overlap is refused when the codec is made', () => {
    expect(() => bits({ a: { at: 1, width: 7 } }, { order: 'lsb' })).toThrow(/bit 0 belongs to no field/);
    expect(() => bits({ a: 4, b: { at: 2, width: 6 } }, { order: 'lsb' })).toThrow(/both claim bit 2/);
  });

  test('a value too wide for its field is an EncodeError naming the field', () => {
    const error = encodeFails(lsb, { a: 2, b: 0, c: 0, d: 0, e: 0 });
    expect(error.path).toEqual(['a']);
    expect(error.message).toMatch(/does not fit in 1 bits/);
  });
});
