// fallback and orRaw: try a codec, and where its reading fails roll back and read another way, with a
// warning. The laws hold on both sides (a secondary value whose bytes the primary reads is refused on
// write), the warning has its code, path and offset, and what the primary did is rolled back.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  arrayIndex,
  bytes,
  DecodeError,
  decode,
  encode,
  fallback,
  fromJson,
  magic,
  orRaw,
  sized,
  struct,
  toJson,
  u16le,
  u32le,
  u8,
  withArrayIndexes,
  array,
  type Codec,
} from '../src/index';
import { defineCodec, layoutOf, partsOf, typeNameOf, type Reader } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

/** A u8 whose reading is `read` (to see what a failed or noisy primary leaves behind). */
const u8Reading = (name: string, read: (r: Reader) => number) =>
  defineCodec<number>({
    name,
    def: { type: 'int', bits: 8, signed: false, endian: 'le', min: 0, max: 255 },
    json: u8.json,
    size: 1,
    read,
    write: (w, v) => u8.write(w, v),
  });

const warning = { code: 'kept-raw', message: 'kept as bytes' };

// A record of 6 bytes: a tagged pair when its first byte is 'R', else kept raw.
const pair = struct({ tag: magic('R'), a: u8, b: u32le });
const record = sized(6, orRaw(pair, { warning }));

const records = fc.oneof(
  fc.record({ tag: fc.constant('R'), a: fc.nat(255), b: fc.nat(0xffffffff) }),
  fc
    .uint8Array({ minLength: 6, maxLength: 6 })
    .filter((b) => b[0] !== 0x52)
    .map(($raw) => ({ $raw })),
);

describe('orRaw', () => {
  test('obeys the laws on both sides', () => {
    const accepted = checkLaws(record, records, { bytes: fc.uint8Array({ minLength: 0, maxLength: 8 }) });
    expect(accepted).toBeGreaterThan(0);
  });

  test('a reading that fails is kept as bytes with a warning at the value, where it starts', () => {
    const list = struct({ first: record, second: record });
    const result = decode(list, hexBytes('52 01 02000000  41 42 43 44 45 46'));
    if (E.isLeft(result)) throw result.left;
    expect(result.right.value).toEqual({ first: { tag: 'R', a: 1, b: 2 }, second: { $raw: hexBytes('414243444546') } });
    expect(result.right.warnings).toEqual([
      { code: 'kept-raw', path: ['second'], offset: 6, message: 'kept as bytes' },
    ]);
  });

  test('raw bytes the codec reads are refused on write: they would come back as its value', () => {
    const error = encodeFails(record, { $raw: hexBytes('52 01 02000000') });
    expect(error.message).toMatch(/read as a/);
    expect(error.offset).toBe(0);
  });

  test('the JSON form keeps the raw side apart', () => {
    const raw = { $raw: hexBytes('010203040506') };
    const back = fromJson(record, JSON.parse(JSON.stringify(toJson(record, raw))));
    expect(E.isRight(back) && back.right).toEqual(raw);
  });
});

describe('fallback', () => {
  // A version-2 record, or else a version-1 record (one byte shorter), told apart on write by shape.
  const v2 = struct({ version: magic('\x02'), count: u16le });
  const v1 = struct({ count: u8 });
  const either = fallback(v2, v1, {
    warning: { code: 'old-record', message: (error) => `read as version 1 (${error.message})` },
  });

  test('obeys the laws, the secondary picked on write by its shape', () => {
    const values = fc.oneof(
      fc.nat(0xffff).map((count) => ({ version: '\x02' as const, count })),
      fc.nat(255).map((count) => ({ count })),
    );
    checkLaws(either, values);
    // 02 is the version-2 tag, but one byte is too short for a version-2 record: it reads back as v1.
    expect(decode(either, encodeOk(either, { count: 2 }))).toMatchObject(E.right({ value: { count: 2 } }));
  });

  test('the warning says why, from the primary error', () => {
    const result = decode(either, hexBytes('07'));
    if (E.isLeft(result)) throw result.left;
    expect(result.right.value).toEqual({ count: 7 });
    expect(result.right.warnings[0]).toMatchObject({ code: 'old-record', path: [], offset: 0 });
    expect(result.right.warnings[0]!.message).toMatch(/^read as version 1 \(/);
  });

  test('what the primary did is rolled back: its warnings and the references it read', () => {
    const warns = u8Reading('warns', (r) => {
      r.warn('noise', 'said by the failed reading');
      return u8.read(r);
    });
    const primary = struct({ x: warns, ref: arrayIndex('items'), end: magic('!') });
    const item = sized(6, orRaw(primary, { warning }));
    const items = withArrayIndexes(array(item, 1), (list) => [['items', list]]);
    // The reference (index 9) is past the end of items: had the failed reading's reference been
    // kept, resolving it would fail the decode.
    const result = decode(items, hexBytes('01 09000000 3f'));
    if (E.isLeft(result)) throw result.left;
    expect(result.right.value).toEqual([{ $raw: hexBytes('01 09000000 3f') }]);
    expect(result.right.warnings.map((w) => w.code)).toEqual(['kept-raw']);
  });

  test('a structural limit is not forgiven; a failing secondary is the error', () => {
    const deep = u8Reading('deep', (r) => {
      throw r.error('too-deep', 'too deep');
    });
    expect(decodeFails(fallback(deep, u8, { warning }), hexBytes('01')).code).toBe('too-deep');
    const both = fallback(u16le, u32le as Codec<number>, { warning, isSecondary: (v): v is number => v > 0xffff });
    const error = decodeFails(both, hexBytes('01'));
    expect([error.code, error.offset]).toEqual(['short-read', 0]);
    // recover can be narrowed: here no failure is forgiven.
    const strict = fallback(u16le, bytes(1), { warning, recover: () => false });
    expect(decodeFails(strict, hexBytes('01')).code).toBe('short-read');
  });

  test('tools see both sides', () => {
    expect(record.def.type).toBe('sized');
    const inner = orRaw(pair, { warning });
    expect(inner.def).toMatchObject({ type: 'fallback', primary: pair, warning: 'kept-raw' });
    expect(typeNameOf(inner)).toBe('pair, else raw'.replace('pair', pair.name));
    expect(layoutOf(inner)).toEqual([
      { path: '', offset: 0, size: undefined, type: typeNameOf(inner), parts: partsOf(inner) },
    ]);
    expect(partsOf(inner).map((p) => p.key)).toEqual(['primary', 'secondary']);
    expect(encodeOk(inner, { tag: 'R', a: 1, b: 2 })).toEqual(hexBytes('52 01 02000000'));
    expect(E.isLeft(encode(inner, 5 as never))).toBe(true);
    expect(new DecodeError([], 0, 'x').code).toBe('invalid-value');
  });
});
