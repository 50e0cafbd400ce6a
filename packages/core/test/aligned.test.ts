// aligned: a value padded to a multiple of a boundary, counted from its own start.
import fc from 'fast-check';
import { aligned, array, bytes, struct, u8, u16le, u32be } from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

describe('aligned', () => {
  test('laws: variable and fixed values, other fill bytes, inside arrays', () => {
    checkLaws(aligned(4, bytes(u32be)), fc.uint8Array({ maxLength: 20 }));
    checkLaws(aligned(8, u16le, 0xff), fc.nat({ max: 0xffff }));
    checkLaws(array(aligned(4, bytes(u8)), u8), fc.array(fc.uint8Array({ maxLength: 9 }), { maxLength: 5 }));
  });

  test('pads from the value’s own start; sizes follow', () => {
    expect(encodeOk(aligned(4, bytes(u32be)), Uint8Array.of(7))).toEqual(hexBytes('00000001 07000000'));
    expect(encodeOk(aligned(4, bytes(u32be)), Uint8Array.of(1, 2, 3, 4))).toEqual(hexBytes('00000004 01020304'));
    const inStruct = struct({ head: u8, tail: aligned(4, bytes(u8)) });
    expect(encodeOk(inStruct, { head: 9, tail: Uint8Array.of(5) })).toEqual(hexBytes('09 01 05 0000'));
    expect(aligned(8, u16le).size).toBe(8);
    expect(aligned(4, bytes(u32be)).minSize).toBe(4);
    expect(aligned(4, bytes(u8)).minSize).toBe(4);
    expect(() => aligned(0, u8)).toThrow(RangeError);
    expect(() => aligned(4, u8, 256)).toThrow(RangeError);
  });

  test('errors: non-fill padding and missing padding name the value’s path and the byte', () => {
    const codec = struct({ head: u8, tail: aligned(4, bytes(u8)) });
    const bad = decodeFails(codec, hexBytes('09 01 05 0001'));
    expect([bad.path, bad.offset, bad.message]).toEqual([['tail'], 4, 'padding byte 0x01, expected 0x00']);
    const short = decodeFails(codec, hexBytes('09 01 05 00'));
    expect([short.path, short.offset, short.message]).toEqual([['tail'], 3, 'expected 2 bytes of padding, 1 left']);
    const refused = encodeFails(codec, { head: 1, tail: 'x' as unknown as Uint8Array });
    expect(refused.path).toEqual(['tail']);
  });
});
