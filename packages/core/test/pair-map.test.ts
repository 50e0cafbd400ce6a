// pairMap (two fixed fields decoded as arguments): both laws, and the same values, bytes, errors and
// definition as the fieldsMap it stands for, alone, in structs (read in place), in arrays, compiled or
// interpreted, traced or not.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { type AnyCodec, array, decode, fieldsMap, i32le, magic, struct, u16le, u8, type Codec } from '../src/index';
import { pairMap } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

type Pair = { exponent: number; mantissa: number };
// An integer stored with exponent 0; any other pair is kept raw. Exponent 0xffff is refused.
const join = (exponent: number, mantissa: number): number | Pair => {
  if (exponent === 0xffff) throw new Error('exponent 0xffff is reserved');
  return exponent === 0 ? mantissa : { exponent, mantissa };
};
const split = (value: number | Pair, fields: Record<string, unknown>) => {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`${value} is not an integer`);
    fields.exponent = 0;
    fields.mantissa = value;
  } else {
    fields.exponent = value.exponent;
    fields.mantissa = value.mantissa;
  }
};
const scaled = pairMap(['exponent', u16le], ['mantissa', i32le], { name: 'scaled', decode: join, encode: split });
// What it stands for.
const reference = fieldsMap(
  { exponent: u16le, mantissa: i32le },
  { name: 'scaled', decode: ({ exponent, mantissa }) => join(exponent, mantissa), encode: split },
);

const pairs = fc.record({
  exponent: fc.integer({ min: 1, max: 0xfffe }),
  mantissa: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
});
const values = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), pairs);

/** What a decode gives, errors included, in a comparable form. */
function outcome<A>(codec: Codec<A>, bytes: Uint8Array, options?: object): unknown {
  const r = decode(codec, bytes, options);
  if (E.isLeft(r)) return [r.left.path, r.left.offset, r.left.code, r.left.message];
  return r.right.spans === undefined ? r.right.value : { value: r.right.value, spans: r.right.spans };
}

describe('pairMap', () => {
  test('the size, the in-place read and write, and the definition of the fieldsMap it stands for', () => {
    expect([scaled.size, scaled.minSize]).toEqual([6, 6]);
    expect(scaled.readFixed).toBeDefined();
    expect(scaled.writeFixed).toBeDefined();
    // What tools see: a map over the struct of the two fields, as the fieldsMap's.
    const fieldsOf = (c: AnyCodec) =>
      (c.def as unknown as { stored: { def: { fields: Array<{ name: string }> } } }).stored.def.fields.map(
        (f) => f.name,
      );
    expect(scaled.def.type).toBe('map');
    expect(fieldsOf(scaled)).toEqual(fieldsOf(reference));
    expect(scaled.name).toBe(reference.name);
    expect(struct({ a: u8, b: scaled }).readFixed).toBeDefined();
  });

  test('both laws, alone, in a struct and in an array (read at offsets)', () => {
    checkLaws(scaled, values, { bytes: fc.uint8Array({ minLength: 0, maxLength: 7 }) });
    checkLaws(struct({ id: u8, a: scaled, b: scaled }), fc.record({ id: fc.nat(255), a: values, b: values }), {
      bytes: fc.uint8Array({ minLength: 13, maxLength: 13 }),
    });
    checkLaws(array(scaled, 3), fc.array(values, { minLength: 3, maxLength: 3 }), {
      bytes: fc.uint8Array({ minLength: 18, maxLength: 18 }),
    });
  });

  test('the same values, bytes and errors as the fieldsMap: compiled, interpreted and traced', () => {
    const shapes = [
      [scaled, reference] as [AnyCodec, AnyCodec],
      [array(scaled, 2), array(reference, 2)] as [AnyCodec, AnyCodec],
      [struct({ id: u8, a: scaled, b: scaled }), struct({ id: u8, a: reference, b: reference })] as [
        AnyCodec,
        AnyCodec,
      ],
    ];
    const modes = [{}, { compiled: false }, { trace: true }];
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 14 }),
        fc.boolean(),
        fc.constantFrom(...shapes),
        fc.constantFrom(...modes),
        (bytes, reserved, [ours, theirs], mode) => {
          // Now and then a reserved exponent, refused by decode.
          if (reserved && bytes.length >= 2) bytes.set([0xff, 0xff], 0);
          expect(outcome(ours, bytes, mode)).toEqual(outcome(theirs, bytes, mode));
        },
      ),
      { numRuns: 400, seed: 19 },
    );
    fc.assert(
      fc.property(fc.array(values, { minLength: 2, maxLength: 2 }), (v) => {
        expect(encodeOk(array(scaled, 2), v)).toEqual(encodeOk(array(reference, 2), v));
      }),
    );
  });

  test('errors name the field: a refused stored pair, a short read, a refused value', () => {
    const rec = struct({ a: scaled, b: scaled });
    const reserved = decodeFails(rec, hexBytes('0000 01000000 ffff 02000000'));
    expect([reserved.path, reserved.offset, reserved.message]).toEqual([
      ['b'],
      6,
      'scaled: exponent 0xffff is reserved',
    ]);
    const short = decodeFails(struct({ a: scaled }), hexBytes('0100 0203'));
    expect([short.path, short.offset, short.code]).toEqual([['a', 'mantissa'], 2, 'short-read']);
    const refused = encodeFails(rec, { a: 1, b: 1.5 });
    expect([refused.path, refused.message]).toEqual([['b'], 'scaled: 1.5 is not an integer']);
  });

  test('a decode that reads the same codec again gets its own values (nothing is lent)', () => {
    let again: Codec<number[]> | undefined;
    const nested: Codec<number[]> = pairMap(['a', u8], ['b', u8], {
      decode: (a: number, b: number) =>
        a === 1 ? [a, b, ...(E.isRight(decode(again!, Uint8Array.of(9, 9))) ? [9] : [])] : [a, b],
      encode: (v, fields) => {
        fields.a = v[0];
        fields.b = v[1];
      },
    });
    again = nested;
    const two = decode(array(nested, 2), Uint8Array.of(1, 2, 3, 4));
    expect(E.isRight(two) && two.right.value).toEqual([
      [1, 2, 9],
      [3, 4],
    ]);
  });

  test('its fields must be read in place, and named apart', () => {
    expect(() => pairMap(['a', u8], ['a', u8], { decode: (a: number) => a, encode: () => {} })).toThrow(
      'pairMap: both fields are named a',
    );
    expect(() =>
      pairMap(['m', magic('M')], ['s', array(u8, u8) as unknown as Codec<number>], {
        decode: (_m: string, s: number) => s,
        encode: () => {},
      }),
    ).toThrow(TypeError);
  });
});

test('an encode that writes the same codec again gets a record of its own, and a field left unset is named', () => {
  let again: Codec<number> | undefined;
  const nested: Codec<number> = pairMap(['a', u8], ['b', u8], {
    decode: (a: number, b: number) => a * 256 + b,
    encode: (v, fields) => {
      // Reentrant: this very codec written while its own record is being filled.
      if (v === 258) expect(encodeOk(again!, 0x0909)).toEqual(Uint8Array.of(9, 9));
      fields.a = v >> 8;
      if (v !== 7) fields.b = v & 0xff;
    },
  });
  again = nested;
  expect(encodeOk(array(nested, 2), [258, 0x0304])).toEqual(Uint8Array.of(1, 2, 3, 4));
  const unset = encodeFails(struct({ x: nested }), { x: 7 });
  expect(unset.path).toEqual(['x', 'b']);
});
