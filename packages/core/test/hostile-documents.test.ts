// Documents a script or an editor's user hands to encode that no codec expects: values whose
// description throws, getters and Proxies that throw. Each is an EncodeError at the value's path,
// never an exception out of encode (found by a helper's hunt over the four formats' documents).
import * as E from 'fp-ts/lib/Either';
import { array, bits, byteOrderMark, encode, EncodeError, struct, u8, u16le } from '../src/index';

function refusal(result: E.Either<EncodeError, Uint8Array>): EncodeError {
  if (E.isRight(result)) throw new Error('expected the encode to be refused');
  expect(result.left).toBeInstanceOf(EncodeError);
  return result.left;
}

describe('hostile values given to encode', () => {
  test('a null-prototype object, a bigint or a cycle where a number goes: wrong-type, described', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const record = struct({ a: u8, b: u16le });
    for (const bad of [Object.create(null), 5n, cyclic, Symbol('s')]) {
      const error = refusal(encode(record, { a: 1, b: bad } as never));
      expect(error).toMatchObject({ code: 'wrong-type', path: ['b'] });
      expect(error.message).toMatch(/^expected an integer for u16le, got /);
    }
    expect(refusal(encode(u8, Object.create(null) as never)).message).toBe('expected an integer for u8, got {}');
  });

  test('bit fields and a byte order given values that cannot be shown: out-of-range, described', () => {
    const flags = bits({ a: 3, b: 5 }, { order: 'lsb' });
    expect(refusal(encode(flags, { a: Object.create(null), b: 0 } as never))).toMatchObject({
      code: 'out-of-range',
      path: ['a'],
      message: '{} does not fit in 3 bits',
    });
    expect(refusal(encode(byteOrderMark({ le: 'II', be: 'MM' }), 5n as never)).message).toBe(
      'expected "le" or "be", got 5n',
    );
  });

  test('a getter or a Proxy that throws: invalid-value at the path being written', () => {
    const record = struct({ a: u8, list: array(u8, u8) });
    const value = { a: 1, list: [1, 2, 3] };
    Object.defineProperty(value.list, 1, {
      get() {
        throw new Error('getter boom');
      },
    });
    const error = refusal(encode(record, value));
    expect(error).toMatchObject({ code: 'invalid-value', path: ['list', 1] });
    expect(error.message).toBe('cannot write this value: getter boom');
    const trap = new Proxy(
      {},
      {
        get() {
          throw Object.create(null); // not even an Error, and String() of it throws
        },
      },
    );
    expect(refusal(encode(record, trap as never))).toMatchObject({ code: 'invalid-value' });
  });

  test('a sparse array of length 2^32 − 1 is refused at once, not walked', () => {
    const list: number[] = [];
    list.length = 2 ** 32 - 1;
    expect(refusal(encode(array(u8, u16le), list)).message).toMatch(/4294967295/); // the count does not fit
    const open = refusal(encode(struct({ n: u8, list: array(u8, 'rest') }), { n: 1, list }));
    expect(open).toMatchObject({ code: 'wrong-type', path: ['list', 0] });
  });
});
