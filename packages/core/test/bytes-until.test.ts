// bytesUntil: bytes up to the first place a lead reads (and a predicate accepts), or the end. The
// laws standalone and inside records, the lead only looked at (no spans, no warnings), the position
// given to the predicate, write refusing bytes the lead would end, and a bounded, iterative scan.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { array, bytes, bytesUntil, decode, literal, struct, u16le, u32le, u8, type Codec } from '../src/index';
import { checkLaws, encodeFails, encodeOk, hexBytes } from './laws';

const MARK = 0xfe;
const record = struct({ tag: literal(u8, MARK), body: bytesUntil(literal(u8, MARK)) });
const records = array(record, 'rest');
const noMark = fc.uint8Array({ maxLength: 12 }).map((b) => b.map((x) => (x === MARK ? 0 : x)));
const recordValues = fc.array(fc.record({ tag: fc.constant(MARK), body: noMark }), { maxLength: 5 });

// A lead that is a whole "header": u16 1, then a u16 giving its own offset (as `defgrp.dat`'s do).
const header = struct({ one: u16le, self: u16le });
const selfPlaced = bytesUntil(header, { where: (h, at) => h.one === 1 && h.self === at, need: 6 });

describe('bytesUntil', () => {
  test('the laws hold for records whose bodies run to the next mark', () => {
    checkLaws(records, recordValues);
    const read = decode(records, hexBytes('fe 0102 fe fe 03'));
    expect(E.isRight(read) && read.right.value).toEqual([
      { tag: MARK, body: Uint8Array.of(1, 2) },
      { tag: MARK, body: new Uint8Array(0) },
      { tag: MARK, body: Uint8Array.of(3) },
    ]);
  });

  test('the laws hold standalone, with a predicate on the lead and the place it is at', () => {
    checkLaws(
      selfPlaced,
      fc.uint8Array({ maxLength: 24 }).filter((b) => E.isRight(encodeWith(selfPlaced, b))),
    );
    // 0100 0200 at offset 2 is a header placed at 2: the bytes before it, 2 of them.
    const codec = struct({ stale: selfPlaced, rest: bytes('rest') });
    const read = decode(codec, hexBytes('aabb 0100 0200 0000 0100 0700'));
    expect(E.isRight(read) && read.right.value.stale).toEqual(hexBytes('aabb'));
    // A header that names another place, or too few bytes left after it, is no match.
    const far = decode(codec, hexBytes('aabb 0100 0900 0000'));
    expect(E.isRight(far) && far.right.value.stale.length).toBe(8);
    const short = decode(codec, hexBytes('aabb 0100 0200 00'));
    expect(E.isRight(short) && short.right.value.stale.length).toBe(7);
  });

  test('the lead is only looked at: no spans or warnings of it, and a throwing predicate is no match', () => {
    const codec = struct({ body: bytesUntil(struct({ m: literal(u8, MARK) })), rest: bytes('rest') });
    const traced = decode(codec, hexBytes('0102 fe03'), { trace: true });
    if (E.isLeft(traced)) throw traced.left;
    expect(traced.right.value).toEqual({ body: hexBytes('0102'), rest: hexBytes('fe03') });
    expect(traced.right.warnings).toEqual([]);
    const paths = (traced.right.spans ?? []).map((s) => s.path.join('.'));
    expect(paths.filter((p) => p !== '').sort()).toEqual(['body', 'rest']);
    const throwing = bytesUntil(u8, {
      where: () => {
        throw new Error('a bug');
      },
    });
    const read = decode(throwing, hexBytes('010203'));
    expect(E.isRight(read) && read.right.value).toEqual(hexBytes('010203'));
  });

  test('write refuses bytes in which the lead is found, at the place, and what is not bytes', () => {
    const error = encodeFails(record, { tag: MARK, body: Uint8Array.of(1, MARK, 2) });
    expect([error.code, error.path, error.offset]).toEqual(['invalid-value', ['body'], 2]);
    expect(encodeFails(record, { tag: MARK, body: 'x' as never }).code).toBe('wrong-type');
    expect(encodeOk(record, { tag: MARK, body: Uint8Array.of(1, 2) })).toEqual(hexBytes('fe0102'));
  });

  test('a long scan charges the work budget and stops with a DecodeError; it is a loop', () => {
    const long = new Uint8Array(50_000);
    const read = decode(bytesUntil(literal(u32le, 0xdeadbeef)), long);
    expect(E.isRight(read) && read.right.value.length).toBe(50_000);
    const budget = decode(bytesUntil(literal(u32le, 0xdeadbeef)), long, { maxWork: 1000 });
    expect(E.isLeft(budget) && budget.left.code).toBe('budget-exceeded');
  });

  test('refuses a lead of no bytes', () => {
    expect(() => bytesUntil(bytes(0))).toThrow(RangeError);
    expect(() => bytesUntil(u8, { need: 0 })).toThrow(RangeError);
  });
});

function encodeWith<A>(codec: Codec<A>, value: A) {
  return E.tryCatch(
    () => encodeOk(codec, value),
    (e) => e,
  );
}
