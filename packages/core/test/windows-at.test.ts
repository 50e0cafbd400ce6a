// windowsAt: blocks placed by a sparse, unsorted offset table, each running to the next-higher offset.
// The laws over generated tables, where the bytes go (table, lead, blocks in list order), and the
// hostile tables: offsets into the table, past the end, shared, blocks not filling their window.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { array, decode, encode, struct, u16le, u32le, u8, windowsAt, type WindowsAt } from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const COUNT = 5;
// Blocks of u16 lists to the next offset (a list of none is refused on write).
const table = windowsAt(COUNT, u16le, struct({ items: array(u16le, 'rest') }));
type Table = WindowsAt<{ items: number[] }>;

const tables: fc.Arbitrary<Table> = fc
  .record({
    blocks: fc.uniqueArray(
      fc.record({
        index: fc.integer({ min: 0, max: COUNT - 1 }),
        items: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 4 }),
      }),
      { selector: (b) => b.index, maxLength: COUNT },
    ),
    lead: fc.option(fc.uint8Array({ minLength: 1, maxLength: 3 }), { nil: undefined }),
  })
  .map(({ blocks, lead }) => (lead === undefined ? { blocks } : { blocks, lead }));

const one = struct({ b: u8 });
const bytesBlock = struct({ data: array(u8, 'rest') });

describe('windowsAt', () => {
  test('the laws hold over generated tables, and hostile bytes are DecodeErrors', () => {
    expect(checkLaws(table, tables)).toBeGreaterThan(0);
  });

  test('writes the table, the lead, then the blocks in list order; reads them back in file order', () => {
    const value: Table = {
      blocks: [
        { index: 3, items: [7] },
        { index: 0, items: [1, 2] },
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
    const read = decode(windowsAt(3, u16le, bytesBlock), hexBytes('0c00 0800 0000 0000 01020304 0506'));
    expect(E.isRight(read) && read.right.value).toEqual({
      blocks: [
        { index: 1, data: [1, 2, 3, 4] },
        { index: 0, data: [5, 6] },
      ],
      lead: Uint8Array.of(0, 0),
    });
  });

  test('renamed keys, a null offset other than 0, and a table without blocks: the rest is the lead', () => {
    const codec = windowsAt(2, u8, one, { nullOffset: 0xff, index: 'star', blocks: 'systems' });
    expect(encodeOk(codec, { systems: [{ star: 1, b: 9 }] })).toEqual(hexBytes('ff02 09'));
    const none = decode(codec, hexBytes('ffff 0102'));
    expect(E.isRight(none) && none.right.value).toEqual({ systems: [], lead: Uint8Array.of(1, 2) });
  });

  test('hostile tables: an error at the table entry or block, with its path, offset and code', () => {
    const into = decodeFails(table, hexBytes('0400 0000 0000 0000 0000 0100'));
    expect([into.code, into.offset, into.path, into.message]).toEqual([
      'bad-pointer',
      0,
      [],
      'index 0: offset 4 points into the offset table',
    ]);
    const past = decodeFails(table, hexBytes('0000 0c00 0000 0000 0000 0100'));
    expect([past.code, past.offset, past.path]).toEqual(['bad-pointer', 2, []]);
    const shared = decodeFails(table, hexBytes('0a00 0000 0a00 0000 0000 0100'));
    expect([shared.code, shared.offset, shared.path]).toEqual(['bad-pointer', 4, []]);
    const odd = decodeFails(windowsAt(2, u8, one), hexBytes('0200 0102'));
    expect([odd.code, odd.offset, odd.path]).toEqual(['trailing-bytes', 3, ['blocks', 0]]);
    const records = decodeFails(windowsAt(2, u8, bytesBlock, { unit: 2, index: 'star' }), hexBytes('0002 010203'));
    expect([records.code, records.offset, records.path, records.message]).toEqual([
      'invalid-value',
      2,
      ['blocks', 0],
      'star 1: its block of 3 bytes is not whole 2-byte records',
    ]);
    const notObject = decodeFails(windowsAt(1, u8, u8 as never), hexBytes('01 07'));
    expect([notObject.code, notObject.path]).toEqual(['wrong-type', ['blocks', 0]]);
    // A block with a field named like the index would lose it to the index (and not write back).
    const clash = decodeFails(windowsAt(1, u8, struct({ index: u8 })), hexBytes('01 07'));
    expect([clash.code, clash.offset, clash.path]).toEqual(['invalid-value', 1, ['blocks', 0]]);
    const short = decodeFails(table, hexBytes('0a00 0000'));
    expect([short.code, short.offset]).toEqual(['short-read', 0]);
  });

  test('values the table cannot hold are EncodeErrors at the block', () => {
    const twice = encodeFails(table, {
      blocks: [
        { index: 1, items: [1] },
        { index: 1, items: [2] },
      ],
    });
    expect([twice.code, twice.path]).toEqual(['invalid-value', ['blocks', 1]]);
    const range = encodeFails(table, { blocks: [{ index: COUNT, items: [1] }] });
    expect([range.code, range.path]).toEqual(['invalid-value', ['blocks', 0]]);
    const empty = encodeFails(table, { blocks: [{ index: 0, items: [] }] });
    expect([empty.code, empty.path]).toEqual(['invalid-value', ['blocks', 0]]);
    expect(encodeFails(table, { blocks: [], lead: new Uint8Array(0) }).path).toEqual(['lead']);
    const atNull = encodeFails(windowsAt(1, u8, one, { nullOffset: 1 }), { blocks: [{ index: 0, b: 1 }] });
    expect(atNull.code).toBe('invalid-value');
    const inner = encodeFails(table, { blocks: [{ index: 0, items: [0x10000] }] });
    expect(inner.path).toEqual(['blocks', 0, 'items', 0]);
    // An offset its codec cannot hold.
    const wide = {
      blocks: [
        { index: 0, data: new Array<number>(300).fill(0) },
        { index: 1, data: [1] },
      ],
    };
    expect(E.isLeft(encode(windowsAt(2, u8, bytesBlock), wide))).toBe(true);
  });

  test('large hostile tables: bounded work, no allocation past the table, iterative', () => {
    // 20,000 entries all pointing at one byte after the table: the first shared pair is refused.
    const count = 20000;
    const bytes = new Uint8Array(count * 4 + 1);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < count; i++) view.setUint32(i * 4, count * 4, true);
    const error = decodeFails(windowsAt(count, u32le, one), bytes);
    expect([error.code, error.offset]).toEqual(['bad-pointer', 4]);
    // 20,000 one-byte blocks in reverse order are read in file order.
    const many = new Uint8Array(count * 4 + count);
    const v = new DataView(many.buffer);
    for (let i = 0; i < count; i++) v.setUint32(i * 4, count * 4 + (count - 1 - i), true);
    const read = decode(windowsAt(count, u32le, one), many);
    expect(E.isRight(read) && read.right.value.blocks.length).toBe(count);
    expect(E.isRight(read) && read.right.value.blocks[0]!.index).toBe(count - 1);
    // A tight budget is charged per block (and per record) and runs out with a DecodeError.
    const tight = decode(windowsAt(count, u32le, one), many, { maxWork: 1000 });
    expect(E.isLeft(tight) && tight.left.code).toBe('budget-exceeded');
  });

  test('refuses a table it cannot describe', () => {
    expect(() => windowsAt(0, u16le, one)).toThrow(RangeError);
    expect(() => windowsAt(2, array(u8, 'rest') as never, one)).toThrow(RangeError);
    expect(() => windowsAt(2, u8, one, { unit: 0 })).toThrow(RangeError);
    expect(() => windowsAt(2, u8, one, { blocks: 'lead' })).toThrow(RangeError);
  });
});
