import * as E from 'fp-ts/lib/Either';
import {
  array,
  bytes,
  chunkList,
  cstring,
  f64le,
  fourcc,
  fromJson,
  i64le,
  struct,
  toJson,
  u16le,
  u32le,
  u8,
  formatPath,
} from '../src/index';

const record = struct({
  id: u16le,
  seed: i64le,
  ratio: f64le,
  blob: bytes(u8),
  name: cstring('ascii'),
  items: array(struct({ kind: u8, count: u32le }), u8),
});

describe('lossless JSON', () => {
  const value = {
    id: 7,
    seed: -9007199254740993n,
    ratio: -0,
    blob: Uint8Array.from([0, 255, 16]),
    name: 'ab',
    items: [{ kind: 1, count: 2 }],
  };

  test('bigint as decimal strings, bytes as hex, -0 spelled out, key order kept', () => {
    const json = toJson(record, value);
    expect(JSON.stringify(json)).toBe(
      '{"id":7,"seed":"-9007199254740993","ratio":"-0","blob":"00ff10","name":"ab","items":[{"kind":1,"count":2}]}',
    );
    const back = fromJson(record, JSON.parse(JSON.stringify(json)));
    expect(E.isRight(back) && back.right).toEqual(value);
  });

  test('every problem is reported with its path', () => {
    const result = fromJson(record, {
      id: 70000,
      seed: '1.5',
      ratio: 'x',
      blob: 'zz',
      name: 'é',
      items: [{ kind: 1 }],
    });
    if (E.isRight(result)) throw new Error('expected problems');
    const problems = result.left.problems.map((p) => `${formatPath(p.path)}: ${p.message}`);
    expect(problems).toEqual([
      'id: expected an integer from 0 to 65535',
      'seed: expected a decimal integer string from -9223372036854775808 to 9223372036854775807',
      'ratio: expected a number or "NaN", "Infinity", "-Infinity", "-0"',
      'blob: expected a hex string',
      'name: string has characters ascii cannot hold',
      'items[0].count: expected an integer from 0 to 4294967295',
    ]);
    expect(result.left.toString().split('\n')[0]).toBe('at id: expected an integer from 0 to 65535');
  });

  test('keys from Object.prototype and __proto__ never leak into documents', () => {
    const hostile = JSON.parse(
      '{"__proto__": {"polluted": 1}, "id": 1, "seed": "0", "ratio": 0, "blob": "", "name": "", "items": [], "constructor": 5}',
    );
    const result = fromJson(record, hostile);
    expect(E.isRight(result)).toBe(true);
    if (E.isRight(result)) {
      expect(Object.keys(result.right)).toEqual(['id', 'seed', 'ratio', 'blob', 'name', 'items']);
      expect(Object.getPrototypeOf(result.right)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    // A struct with a field named like an Object.prototype member reads only own properties.
    const tricky = struct({ constructor: u8 });
    expect(E.isLeft(fromJson(tricky, {}))).toBe(true);
  });

  test('chunk lists: known chunks need bodies, unknown ones raw bytes', () => {
    const list = chunkList({ marker: fourcc(), length: u32le }, { Vari: cstring('ascii') });
    expect(
      E.isRight(
        fromJson(list, [
          { id: 'Vari', body: 'x' },
          { id: 'Zzzz', raw: '0102' },
        ]),
      ),
    ).toBe(true);
    expect(E.isLeft(fromJson(list, [{ id: 'Vari', raw: '0102' }]))).toBe(true);
  });
});
