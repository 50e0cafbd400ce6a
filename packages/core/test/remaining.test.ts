// remaining: the window's size as a value. The laws where it is sound (an array of whole entries up
// to the window's end with the bytes that make no entry kept; a switchOn selecting a layout by size),
// no bytes and no span of its own, and encode refusing what no window size could be.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  bytes,
  decode,
  optional,
  remaining,
  struct,
  switchOn,
  u16le,
  u32le,
  u8,
  withHooks,
  type TypeOf,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

// A table of u16 entries filling its window, then the odd byte when there is one.
const table = withHooks(struct({ entries: array(u16le, remaining(2)), rest: optional(bytes('rest')) }), {
  beforeWrite(value) {
    if (value.rest !== undefined && value.rest.length >= 2) throw new Error('the rest would make whole entries');
  },
});
const tables: fc.Arbitrary<TypeOf<typeof table>> = fc.record({
  entries: fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 }),
  rest: fc.option(fc.uint8Array({ minLength: 1, maxLength: 1 }), { nil: undefined }),
});

// A body whose layout its size names: 1 byte, 4 bytes, or kept as bytes.
type Body = { small: number } | { wide: number } | { raw: Uint8Array };
const body = switchOn(
  remaining(),
  { small: struct({ small: u8 }), wide: struct({ wide: u32le }), raw: struct({ raw: bytes('rest') }) },
  {
    select: (n) => (n === 1 ? 'small' : n === 4 ? 'wide' : 'raw'),
    caseOf: (value: Body) => ('small' in value ? 'small' : 'wide' in value ? 'wide' : 'raw'),
  },
);
const bodies: fc.Arbitrary<Body> = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((small) => ({ small })),
  fc.integer({ min: 0, max: 0xffffffff }).map((wide) => ({ wide })),
  fc
    .uint8Array({ maxLength: 9 })
    .filter((raw) => raw.length !== 1 && raw.length !== 4)
    .map((raw) => ({ raw })),
);

describe('remaining', () => {
  test('whole entries up to the window end, the rest kept: the laws hold', () => {
    checkLaws(table, tables);
    const read = decode(table, hexBytes('0100 0200 07'));
    expect(E.isRight(read) && read.right.value).toEqual({ entries: [1, 2], rest: Uint8Array.of(7) });
  });

  test('a layout chosen by the size of the body: the laws hold', () => {
    checkLaws(body, bodies);
    expect(encodeOk(body, { wide: 1 })).toEqual(hexBytes('01000000'));
  });

  test('no bytes, no span, no path segment; whole units counted', () => {
    expect(remaining(3).size).toBe(0);
    expect(encodeOk(remaining(), 0)).toEqual(new Uint8Array(0));
    const traced = decode(struct({ n: remaining(4), data: bytes('rest') }), hexBytes('0102030405060708 09'), {
      trace: true,
    });
    if (E.isLeft(traced)) throw traced.left;
    expect(traced.right.value.n).toBe(2);
    expect(traced.right.spans?.map((s) => s.path.join('.'))).toEqual(['n', 'data']);
    expect(traced.right.spans?.find((s) => s.path[0] === 'n')).toMatchObject({ start: 0, end: 0 });
  });

  test('errors: a bad unit, a value no window could have, bytes that would read as another case', () => {
    expect(() => remaining(0)).toThrow(RangeError);
    expect(() => remaining(1.5)).toThrow(RangeError);
    expect(encodeFails(remaining(), -1)).toMatchObject({ code: 'wrong-type', path: [] });
    expect(encodeFails(body, { raw: Uint8Array.of(1) }).message).toMatch(/would decode as "small"/);
    expect(encodeFails(table, { entries: [], rest: Uint8Array.of(1, 2) }).message).toMatch(/whole entries/);
    // An entry cut short inside the table is not possible: the count is whole entries only.
    const error = decodeFails(struct({ a: u8, t: array(u32le, remaining(4)), b: u8 }), hexBytes('01 02030405'));
    expect([error.path, error.code]).toEqual([['b'], 'short-read']);
  });
});
