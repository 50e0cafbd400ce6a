// borrowedBytes: the laws of `bytes`, with values that are views into the decoded buffer.
import fc from 'fast-check';
import { borrowedBytes, bytes, decodeOrThrow, struct, u16le, u32be, u8 } from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk } from './laws';

describe('borrowedBytes', () => {
  test('laws: a fixed size, a length prefix, the rest of the window', () => {
    checkLaws(borrowedBytes(3), fc.uint8Array({ minLength: 3, maxLength: 3 }));
    checkLaws(borrowedBytes(u16le), fc.uint8Array({ maxLength: 40 }));
    checkLaws(
      struct({ tag: u8, rest: borrowedBytes('rest') }),
      fc.record({ tag: fc.nat({ max: 255 }), rest: fc.uint8Array({ maxLength: 40 }) }),
    );
  });

  test('the value is a view into the input, not a copy; bytes() copies', () => {
    const input = Uint8Array.of(0, 0, 0, 2, 0xab, 0xcd);
    const view = decodeOrThrow(borrowedBytes(u32be), input);
    expect([...view]).toEqual([0xab, 0xcd]);
    expect(view.buffer).toBe(input.buffer);
    expect(view.byteOffset).toBe(4);
    expect(decodeOrThrow(bytes(u32be), input).buffer).not.toBe(input.buffer);
  });

  test('writes what bytes() writes', () => {
    const value = Uint8Array.of(1, 2, 3);
    expect(encodeOk(borrowedBytes(u16le), value)).toEqual(encodeOk(bytes(u16le), value));
  });

  test('errors name the path and the offset', () => {
    const codec = struct({ head: u8, body: borrowedBytes(u16le) });
    const error = decodeFails(codec, Uint8Array.of(7, 5, 0, 1, 2));
    expect([error.path, error.offset, error.message]).toEqual([['body'], 1, 'length 5 is more than the 2 bytes left']);
    const refused = encodeFails(codec, { head: 1, body: 'no' as unknown as Uint8Array });
    expect(refused.path).toEqual(['body']);
    expect(refused.message).toMatch(/expected a Uint8Array/);
  });
});
