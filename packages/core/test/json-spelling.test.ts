// toHex and fromHex, the bytes of every JSON form: against the plainest spelling of each, for short
// runs (joined strings), long ones (spelled a block at a time) and strings that are not hex; and
// numberList, the number lists of JSON forms, against Array.from.
import fc from 'fast-check';
import { fromHex, toHex } from '../src';
import { numberList } from '../src/kit';

const plainHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const plainParse = (hex: string) =>
  hex.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(hex)
    ? Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16))
    : undefined;

test('toHex spells every byte as two lower-case digits, short or long, and fromHex reads it back', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000, size: 'max' }), (bytes) => {
      const hex = toHex(bytes);
      expect(hex).toBe(plainHex(bytes));
      expect(fromHex(hex)).toEqual(bytes);
      expect(fromHex(hex.toUpperCase())).toEqual(bytes);
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('runs past one block of spelling (64 KiB) come out whole', () => {
  const bytes = Uint8Array.from({ length: (1 << 16) * 2 + 77 }, (_, i) => (i * 131 + (i >> 9)) & 0xff);
  const hex = toHex(bytes);
  expect(hex).toBe(plainHex(bytes));
  expect(fromHex(hex)).toEqual(bytes);
});

test('fromHex refuses what is not hex of even length, as a pattern test would', () => {
  // Digits mixed with near misses: letters past f, signs, spaces, and characters whose low byte is a
  // digit's code (U+0130, U+0661) or that lie above ASCII.
  const chars = fc.constantFrom(...'0123456789abcdefABCDEFgG -x\u0130\u0661é\u{1f600}'.split(''));
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 12 }), (parts) => {
      const hex = parts.join('');
      expect(fromHex(hex)).toEqual(plainParse(hex));
    }),
    { numRuns: 2000, seed: 8 },
  );
  expect(fromHex('abc')).toBeUndefined();
  expect(fromHex('0g')).toBeUndefined();
  expect(fromHex('')).toEqual(new Uint8Array(0));
});

test('numberList lists a typed array as Array.from does, as a plain array', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint16Array({ maxLength: 300 }),
        fc.int32Array({ maxLength: 300 }),
        fc.float64Array({ maxLength: 300 }),
      ),
      (values) => {
        const listed = numberList(values);
        expect(Array.isArray(listed)).toBe(true);
        expect(listed).toStrictEqual(Array.from(values));
      },
    ),
    { numRuns: 300, seed: 9 },
  );
});
