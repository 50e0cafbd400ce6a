// beforeTrailer: a body read up to a fixed-size trailer, with the laws of the struct it sits in.
import fc from 'fast-check';
import { array, beforeTrailer, bytes, magic, struct, u16be, u16le, u8 } from '../src/index';
import { checkLaws, decodeFails, encodeOk, hexBytes } from './laws';

describe('beforeTrailer', () => {
  const file = struct({
    head: u8,
    entries: beforeTrailer(4, array(u16le, 'rest')),
    mark: magic('\xFE\xFE'),
    flags: u16be,
  });
  const values = fc.record({
    head: fc.nat({ max: 255 }),
    entries: fc.array(fc.nat({ max: 0xffff }), { maxLength: 20 }),
    mark: fc.constant('\xFE\xFE' as const),
    flags: fc.nat({ max: 0xffff }),
  });

  test('laws: entries until the trailer, then the trailer', () => {
    expect(checkLaws(file, values)).toBeGreaterThan(0);
  });

  test('laws: a trailer of size 0 is the rest of the window', () => {
    checkLaws(beforeTrailer(0, bytes('rest')), fc.uint8Array({ maxLength: 40 }));
  });

  test('the body stops where the trailer begins; the trailer reads the last bytes', () => {
    const value = { head: 1, entries: [0x0201, 0x0403], mark: '\xFE\xFE' as const, flags: 0x0a0b };
    expect(encodeOk(file, value)).toEqual(hexBytes('01 0102 0304 FEFE 0A0B'));
  });

  test('too few bytes for the trailer is a short read at the body; bytes the body leaves are refused', () => {
    const short = decodeFails(file, hexBytes('01 FE FE 0A'));
    expect([short.code, short.path, short.offset]).toEqual(['short-read', ['entries'], 1]);
    const left = decodeFails(struct({ body: beforeTrailer(2, u16le), end: bytes(2) }), hexBytes('0102 03 0405'));
    expect([left.code, left.path, left.offset]).toEqual(['trailing-bytes', ['body'], 2]);
  });

  test('a negative or fractional trailer size is a RangeError when declared', () => {
    expect(() => beforeTrailer(-1, bytes('rest'))).toThrow(RangeError);
    expect(() => beforeTrailer(1.5, bytes('rest'))).toThrow(RangeError);
  });
});
