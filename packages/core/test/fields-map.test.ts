// fieldsMap (a map of fixed fields through one scratch record): both laws, the same bytes, values and
// errors as fixedMap(struct(...)), the fast path in structs, and a field left unset named.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  cstring,
  decode,
  encode,
  fieldsMap,
  fixedMap,
  i32le,
  magic,
  struct,
  u16le,
  u8,
  type Codec,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

/** The value `bytes` decode to (the test fails on an error). */
function decodeOk<A>(codec: Codec<A>, bytes: Uint8Array, options?: { compiled?: boolean }): A {
  const result = decode(codec, bytes, options);
  if (E.isLeft(result)) throw result.left;
  return result.right.value;
}

type Pair = { exponent: number; mantissa: number };
// An integer stored with exponent 0; any other pair is kept raw (copied: the fields are lent).
const decodePair = ({ exponent, mantissa }: Readonly<Pair>): number | Pair =>
  exponent === 0 ? mantissa : { exponent, mantissa };
const scaled = fieldsMap(
  { exponent: u16le, mantissa: i32le },
  {
    name: 'scaled',
    decode: decodePair,
    encode: (value: number | Pair, fields) => {
      if (typeof value === 'number') {
        if (!Number.isInteger(value)) throw new Error(`${value} is not an integer`);
        fields.exponent = 0;
        fields.mantissa = value;
      } else {
        fields.exponent = value.exponent;
        fields.mantissa = value.mantissa;
      }
    },
  },
);
// The same presentation through fixedMap: what fieldsMap must agree with.
const reference = fixedMap(struct({ exponent: u16le, mantissa: i32le }, 'scaled'), {
  name: 'scaled',
  decode: decodePair,
  encode: (value: number | Pair) => {
    if (typeof value !== 'number') return { exponent: value.exponent, mantissa: value.mantissa };
    if (!Number.isInteger(value)) throw new Error(`${value} is not an integer`);
    return { exponent: 0, mantissa: value };
  },
});

const pairs = fc.record({
  exponent: fc.integer({ min: 1, max: 0xffff }),
  mantissa: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
});
const values = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), pairs);

/** What a decode gives, errors included, in a comparable form. */
function outcome<A>(codec: Codec<A>, bytes: Uint8Array): unknown {
  const r = decode(codec, bytes);
  return E.isRight(r) ? r.right.value : [r.left.path, r.left.offset, r.left.code, r.left.message];
}

describe('fieldsMap', () => {
  test('the stored size, the in-place read and write, and a map definition for tools', () => {
    expect([scaled.size, scaled.minSize]).toEqual([6, 6]);
    expect(scaled.readFixed).toBeDefined();
    expect(scaled.writeFixed).toBeDefined();
    expect(scaled.def.type).toBe('map');
    expect(struct({ a: u8, b: scaled }).readFixed).toBeDefined();
  });

  test('both laws, alone, in a struct and in an array (read at offsets)', () => {
    checkLaws(scaled, values, { bytes: fc.uint8Array({ minLength: 0, maxLength: 7 }) });
    const rec = struct({ id: u8, a: scaled, b: scaled });
    checkLaws(rec, fc.record({ id: fc.integer({ min: 0, max: 255 }), a: values, b: values }), {
      bytes: fc.uint8Array({ minLength: 13, maxLength: 13 }),
    });
    checkLaws(array(scaled, 3), fc.array(values, { minLength: 3, maxLength: 3 }), {
      bytes: fc.uint8Array({ minLength: 18, maxLength: 18 }),
    });
  });

  test('the same values, bytes and errors as fixedMap over the struct', () => {
    const inArray = array(scaled, 2);
    const refArray = array(reference, 2);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 14 }), (bytes) => {
        expect(outcome(inArray, bytes)).toEqual(outcome(refArray, bytes));
      }),
    );
    fc.assert(
      fc.property(fc.array(values, { minLength: 2, maxLength: 2 }), (v) => {
        expect(encodeOk(inArray, v)).toEqual(encodeOk(refArray, v));
      }),
    );
  });

  test('decoded values never share the lent fields', () => {
    const both = decode(array(scaled, 2), hexBytes('0900 01000000 0a00 02000000'));
    expect(E.isRight(both) && both.right.value).toEqual([
      { exponent: 9, mantissa: 1 },
      { exponent: 10, mantissa: 2 },
    ]);
  });

  test('a refused value, or a field left unset, is an error with its path (fast path or not)', () => {
    const rec = struct({ a: scaled, b: scaled });
    const refused = encodeFails(rec, { a: 1, b: 1.5 });
    expect([refused.path, refused.message]).toEqual([['b'], 'scaled: 1.5 is not an integer']);
    const forgetful = fieldsMap(
      { marker: magic('M'), n: u8 },
      {
        decode: ({ n }) => n,
        encode: (n: number, fields) => {
          if (n > 1) fields.marker = 'M';
          fields.n = n;
        },
      },
    );
    expect(encodeOk(forgetful, 2)).toEqual(hexBytes('4d02'));
    // The marker is left unset for 1: the previous value's must not be written.
    const unset = encodeFails(struct({ x: forgetful }), { x: 1 });
    expect([unset.path, unset.code]).toEqual([['x', 'marker'], 'bad-magic']);
    const short = decodeFails(struct({ a: scaled }), hexBytes('0100 0203'));
    expect([short.path, short.offset, short.code]).toEqual([['a', 'mantissa'], 2, 'short-read']);
  });

  test('fields must be read and written in place', () => {
    expect(() => fieldsMap({ name: cstring() }, { decode: ({ name }) => name, encode: () => {} })).toThrow(
      'fieldsMap: field name (cstring(utf8)) is not read and written in place',
    );
  });

  test('a magic field is written in place as its alternative', () => {
    const tagged = fieldsMap(
      { tag: magic('AB', 'CD'), n: u8 },
      {
        decode: ({ tag, n }) => ({ tag, n }),
        encode: (v: { tag: 'AB' | 'CD'; n: number }, fields) => {
          fields.tag = v.tag;
          fields.n = v.n;
        },
      },
    );
    expect(
      encodeOk(array(tagged, 2), [
        { tag: 'CD' as const, n: 1 },
        { tag: 'AB' as const, n: 2 },
      ]),
    ).toEqual(hexBytes('434401 414202'));
    expect(E.isLeft(encode(tagged, { tag: 'XY' as never, n: 1 }))).toBe(true);
  });

  test('a bijection that decodes or encodes the same codec, or hands back its record, still gets its own values', () => {
    type AB = { a: number; b: number };
    let inner: Codec<AB> | undefined;
    const nested: Codec<AB> = fieldsMap(
      { a: u8, b: u8 },
      {
        decode: (f) => {
          // Reentrant: a decode of this very codec while its own fields are being read.
          if (f.a === 1) expect(decodeOk(inner!, Uint8Array.of(9, 9))).toEqual({ a: 9, b: 9 });
          return { a: f.a, b: f.b };
        },
        encode: (v, f) => {
          if (v.a === 1) expect(encodeOk(inner!, { a: 9, b: 9 })).toEqual(Uint8Array.of(9, 9));
          f.a = v.a;
          f.b = v.b;
        },
      },
    );
    inner = nested;
    expect(decodeOk(nested, Uint8Array.of(1, 2))).toEqual({ a: 1, b: 2 });
    expect(encodeOk(nested, { a: 1, b: 2 })).toEqual(Uint8Array.of(1, 2));
    // Identity: each element keeps its own fields, as a struct's fresh record would.
    const keep = fieldsMap({ a: u8, b: u8 }, { decode: (f) => f as AB, encode: (v: AB, f) => Object.assign(f, v) });
    const three = Uint8Array.of(1, 2, 3, 4, 5, 6);
    expect(decodeOk(array(keep, 3), three)).toEqual([
      { a: 1, b: 2 },
      { a: 3, b: 4 },
      { a: 5, b: 6 },
    ]);
    expect(decodeOk(array(keep, 3), three)).toEqual(decodeOk(array(keep, 3), three, { compiled: false }));
  });
});
