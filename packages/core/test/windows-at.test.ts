// windowsAt: blocks placed by a sparse, unsorted offset table, each running to the next-higher offset.
// The laws over generated tables, where the bytes go (table, lead, blocks in value order), and the
// hostile tables: offsets into the table, past the end, shared, blocks not filling their window.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { array, decode, encode, u16le, u32le, u8, windowsAt, type WindowsAt } from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const COUNT = 5;
// Blocks of u16 lists to the next offset (a list of none is refused on write).
const table = windowsAt(COUNT, u16le, array(u16le, 'rest'));

const tables: fc.Arbitrary<WindowsAt<number[]>> = fc
  .record({
    blocks: fc.uniqueArray(
      fc.record({
        index: fc.integer({ min: 0, max: COUNT - 1 }),
        value: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 4 }),
      }),
      { selector: (b) => b.index, maxLength: COUNT },
    ),
    lead: fc.option(fc.uint8Array({ minLength: 1, maxLength: 3 }), { nil: undefined }),
  })
  .map(({ blocks, lead }) => (lead === undefined ? { blocks } : { blocks, lead }));

describe('windowsAt', () => {
  test('the laws hold over generated tables, and hostile bytes are DecodeErrors', () => {
    const accepted = checkLaws(table, tables);
    expect(accepted).toBeGreaterThan(0);
  });

  test('writes the table, the lead, then the blocks in value order; reads them back in file order', () => {
    const value: WindowsAt<number[]> = {
      blocks: [
        { index: 3, value: [7] },
        { index: 0, value: [1, 2] },
      ],
      lead: Uint8Array.of(0xaa),
    };
    const bytes = encodeOk(table, value);
    // Entries 0 … 4 (10 bytes), the lead at 10, index 3's block at 11, index 0's at 13.
    expect(bytes).toEqual(hexBytes('0d00 0000 0000 0b00 0000 aa 0700 0100 0200'));
    const read = decode(table, bytes);
    expect(E.isRight(read) && read.right.value).toEqual(value);
  });

  test('an unsorted table: each block runs to the next-higher offset, the last to the end', () => {
    // Index 0 at 12 (to the end), index 1 at 8 (to 12), index 2 none; two bytes of lead.
    const read = decode(windowsAt(3, u16le, array(u8, 'rest')), hexBytes('0c00 0800 0000 0000 01020304 0506'));
    expect(E.isRight(read) && read.right.value).toEqual({
      blocks: [
        { index: 1, value: [1, 2, 3, 4] },
        { index: 0, value: [5, 6] },
      ],
      lead: Uint8Array.of(0, 0),
    });
  });

  test('a null offset other than 0, and a table without blocks: all bytes after it are the lead', () => {
    const codec = windowsAt(2, u8, u8, { nullOffset: 0xff });
    expect(encodeOk(codec, { blocks: [{ index: 1, value: 9 }] })).toEqual(hexBytes('ff02 09'));
    const none = decode(codec, hexBytes('ffff 0102'));
    expect(E.isRight(none) && none.right.value).toEqual({ blocks: [], lead: Uint8Array.of(1, 2) });
  });

  test('hostile tables: an error at the table entry or block, with its path, offset and code', () => {
    const into = decodeFails(table, hexBytes('0400 0000 0000 0000 0000 0100'));
    expect([into.code, into.offset, into.path]).toEqual(['bad-pointer', 0, []]);
    const past = decodeFails(table, hexBytes('0000 0c00 0000 0000 0000 0100'));
    expect([past.code, past.offset, past.path]).toEqual(['bad-pointer', 2, []]);
    const shared = decodeFails(table, hexBytes('0a00 0000 0a00 0000 0000 0100'));
    expect([shared.code, shared.offset, shared.path]).toEqual(['bad-pointer', 4, []]);
    // Index 1's block is 3 bytes: one u16 and a byte left over.
    const odd = decodeFails(table, hexBytes('0000 0a00 0000 0000 0000 010002'));
    expect([odd.code, odd.path]).toEqual([expect.any(String), ['blocks', 0, 'value', 1]]);
    const oddWhole = decodeFails(windowsAt(2, u8, u16le), hexBytes('0200 010203'));
    expect([oddWhole.code, oddWhole.offset, oddWhole.path]).toEqual(['trailing-bytes', 4, ['blocks', 0]]);
    const short = decodeFails(table, hexBytes('0a00 0000'));
    expect([short.code, short.offset]).toEqual(['short-read', 0]);
  });

  test('values the table cannot hold are EncodeErrors at the block', () => {
    const twice = encodeFails(table, {
      blocks: [
        { index: 1, value: [1] },
        { index: 1, value: [2] },
      ],
    });
    expect([twice.code, twice.path]).toEqual(['invalid-value', ['blocks', 1]]);
    const range = encodeFails(table, { blocks: [{ index: COUNT, value: [1] }] });
    expect([range.code, range.path]).toEqual(['invalid-value', ['blocks', 0]]);
    const empty = encodeFails(table, { blocks: [{ index: 0, value: [] }] });
    expect([empty.code, empty.path]).toEqual(['invalid-value', ['blocks', 0]]);
    expect(encodeFails(table, { blocks: [], lead: new Uint8Array(0) }).path).toEqual(['lead']);
    const atNull = encodeFails(windowsAt(1, u8, u8, { nullOffset: 1 }), { blocks: [{ index: 0, value: 1 }] });
    expect(atNull.code).toBe('invalid-value');
    // An offset its codec cannot hold.
    const wide = {
      blocks: [
        { index: 0, value: new Array<number>(300).fill(0) },
        { index: 1, value: [1] },
      ],
    };
    expect(E.isLeft(encode(windowsAt(2, u8, array(u8, 'rest')), wide))).toBe(true);
  });

  test('a large table of hostile offsets: bounded work, no allocation past the table, no recursion', () => {
    // 20,000 entries all pointing at one byte after the table: the first shared pair is refused.
    const count = 20000;
    const bytes = new Uint8Array(count * 4 + 1);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < count; i++) view.setUint32(i * 4, count * 4, true);
    const error = decodeFails(windowsAt(count, u32le, u8), bytes);
    expect([error.code, error.offset]).toEqual(['bad-pointer', 4]);
    // 20,000 one-byte blocks in reverse order read iteratively.
    const many = new Uint8Array(count * 4 + count);
    const v = new DataView(many.buffer);
    for (let i = 0; i < count; i++) v.setUint32(i * 4, count * 4 + (count - 1 - i), true);
    const read = decode(windowsAt(count, u32le, u8), many);
    expect(E.isRight(read) && read.right.value.blocks.length).toBe(count);
    expect(E.isRight(read) && read.right.value.blocks[0]!.index).toBe(count - 1);
  });

  test('refuses a table it cannot describe', () => {
    expect(() => windowsAt(0, u16le, u8)).toThrow(RangeError);
    expect(() => windowsAt(2, array(u8, 'rest') as never, u8)).toThrow(RangeError);
  });
});
