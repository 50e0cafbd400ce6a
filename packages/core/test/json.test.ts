import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import * as t from 'io-ts';
import {
  array,
  bytes,
  chunkList,
  cstring,
  DecodeError,
  decode,
  EncodeError,
  encode,
  f64le,
  fourcc,
  fromJson,
  i64le,
  JsonError,
  lazy,
  struct,
  toJson,
  u16le,
  u32le,
  u8,
  formatPath,
  type Codec,
} from '../src/index';
import { jsonArray, jsonBytes, reportJsonErrors } from '../src/kit';
import { graphImage } from '../src/graph';

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
    // A type's own message is `invalid-value`: a range, a spelling, a text the encoding cannot hold.
    expect(new Set(result.left.problems.map((p) => p.code))).toEqual(new Set(['invalid-value']));
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

describe('deep nesting: a typed error naming the path, never a RangeError', () => {
  interface Node {
    v: number;
    kids: Node[];
  }
  const node: Codec<Node> = struct({ v: u8, kids: lazy(() => array(node, u8)) });
  /** A chain of `depth` nodes below the root, as a value (its JSON form is the same). */
  const chain = (depth: number): Node => {
    let value: Node = { v: 1, kids: [] };
    for (let i = 0; i < depth; i++) value = { v: 1, kids: [value] };
    return value;
  };
  /** The same chain as bytes: v = 1, count = 1 a level, then v = 1, count = 0. */
  const chainBytes = (depth: number) => {
    const out = new Uint8Array(2 * depth + 2).fill(1);
    out[2 * depth + 1] = 0;
    return out;
  };
  /** An array nested `depth` deep around 1. */
  const nested = (depth: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  /** The path to the 513th lazy level: kids[0] 512 times, then kids. */
  const limitPath = [...Array.from({ length: 512 }, () => ['kids', 0]).flat(), 'kids'];

  test.each([10_000, 100_000])('fromJson of a document %i levels deep: JsonError at the cut path', (depth) => {
    const result = fromJson(node, chain(depth));
    if (E.isRight(result)) throw new Error('expected a JsonError');
    expect(result.left).toBeInstanceOf(JsonError);
    expect(result.left.problems).toEqual([
      { path: limitPath, message: 'nesting deeper than 512 levels', code: 'too-deep' },
    ]);
    // The message names the path, cut in the middle with the count of what is left out.
    expect(result.left.message).toBe(
      'at kids[0].kids[0].kids[0].kids[0]…(1013 more)…[0].kids[0].kids: nesting deeper than 512 levels',
    );
  });

  test.each([10_000, 100_000])('toJson of a value %i levels deep throws a JsonError with the path', (depth) => {
    let thrown: unknown;
    try {
      toJson(node, chain(depth));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JsonError);
    expect((thrown as JsonError).problems).toEqual([
      { path: limitPath, message: 'nesting deeper than 512 levels', code: 'too-deep' },
    ]);
  });

  test.each([10_000, 100_000])('encode and decode %i levels deep: EncodeError and DecodeError', (depth) => {
    const encoded = encode(node, chain(depth));
    if (E.isRight(encoded)) throw new Error('expected an EncodeError');
    expect(encoded.left).toBeInstanceOf(EncodeError);
    expect(encoded.left.path.slice(0, 4)).toEqual(['kids', 0, 'kids', 0]);
    expect(encoded.left.message).toBe('nesting deeper than 512 levels');
    const decoded = decode(node, chainBytes(depth));
    if (E.isRight(decoded)) throw new Error('expected a DecodeError');
    expect(decoded.left).toBeInstanceOf(DecodeError);
    expect(decoded.left.path.slice(0, 4)).toEqual(['kids', 0, 'kids', 0]);
    expect(decoded.left.message).toBe('nesting deeper than 512 levels');
  });

  test('a limit raised past what the stack holds is still a typed error', () => {
    const value = chain(100_000);
    const limits = { maxDepth: Number.POSITIVE_INFINITY };
    const parsed = fromJson(node, value, limits);
    expect(E.isLeft(parsed) && parsed.left).toBeInstanceOf(JsonError);
    expect(() => toJson(node, value, limits)).toThrow(JsonError);
    expect(E.isLeft(encode(node, value, limits)) && E.isLeft(decode(node, chainBytes(100_000), limits))).toBe(true);
  });

  test('maxDepth is an option of fromJson and toJson; the count starts afresh after a failure', () => {
    expect(E.isLeft(fromJson(node, chain(20), { maxDepth: 10 }))).toBe(true);
    expect(() => toJson(node, chain(20), { maxDepth: 10 })).toThrow(/nesting deeper than 10 levels/);
    // The default, 512, holds what decode accepts; a failed call leaves no levels counted behind.
    for (const depth of [20, 500]) {
      const json = toJson(node, chain(depth));
      expect(JSON.parse(JSON.stringify(json))).toEqual(chain(depth));
      const back = fromJson(node, json);
      expect(E.isRight(back) && back.right).toEqual(chain(depth));
    }
    expect(E.isRight(fromJson(node, chain(20), { maxDepth: 21 }))).toBe(true);
  });

  test('paths through lazy levels have numeric indexes', () => {
    const result = fromJson(node, { v: 1, kids: [{ v: 1, kids: [{ v: 300, kids: [] }] }] });
    expect(E.isLeft(result) && result.left.problems[0]!.path).toEqual(['kids', 0, 'kids', 0, 'v']);
  });

  test.each([10_000, 100_000])('a value %i deep where a leaf belongs is described in 60 characters', (depth) => {
    const type = { json: t.type({ name: t.string }) as t.Type<{ name: string }, unknown, unknown> };
    for (const name of [nested(depth), { a: nested(depth) }]) {
      const result = fromJson(type, { name });
      if (E.isRight(result)) throw new Error('expected a JsonError');
      const [problem] = result.left.problems;
      expect(problem!.path).toEqual(['name']);
      expect(problem!.message).toMatch(/^expected string, got [[{]/);
      expect(problem!.message.length).toBeLessThanOrEqual('expected string, got '.length + 60);
    }
  });

  test('short values are described as JSON.stringify writes them', () => {
    const type = { json: t.type({ name: t.string }) as t.Type<{ name: string }, unknown, unknown> };
    const samples: unknown[] = [
      [1, 'a', null, true, [2, { b: [] }], {}],
      { x: undefined, y: 1, z: [undefined, Number.NaN] },
      { long: 'x'.repeat(100) },
      Array.from({ length: 100 }, (_, i) => i),
    ];
    for (const name of samples) {
      const result = fromJson(type, { name });
      const text = JSON.stringify(name);
      const expected = text.length > 60 ? `${text.slice(0, 57)}...` : text;
      expect(E.isLeft(result) && result.left.problems[0]!.message).toBe(`expected string, got ${expected}`);
    }
  });
});

describe('jsonArray: t.array that stops at a hole', () => {
  // Items that keep their input (strings) and that decode to something else (hex to bytes: the copy path).
  const items = [t.string, jsonBytes()] as const;
  const arbitraryInput = fc.array(
    fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('00', 'ff10', 'abc'), fc.integer(), fc.constant(null)),
    { maxLength: 12 },
  );

  test.each(items.map((item) => [item.name, item] as const))(
    'agrees with t.array on dense arrays of anything (%s): is, validate (values and error paths) and encode',
    (_, item) => {
      const ours = jsonArray(item as t.Mixed);
      const theirs = t.array(item as t.Mixed);
      fc.assert(
        fc.property(arbitraryInput, (input) => {
          expect(ours.is(input)).toBe(theirs.is(input));
          const a = ours.decode(input);
          const b = theirs.decode(input);
          expect(a._tag).toBe(b._tag);
          if (E.isRight(a) && E.isRight(b)) {
            expect(a.right).toEqual(b.right);
            // Unchanged input comes back as itself, as from t.array.
            expect(a.right === input).toBe(b.right === input);
            expect(ours.encode(a.right)).toEqual(theirs.encode(b.right));
          } else if (E.isLeft(a) && E.isLeft(b)) expect(reportJsonErrors(a.left)).toEqual(reportJsonErrors(b.left));
        }),
        { numRuns: 500, seed: 19 },
      );
    },
  );

  test('a hole in the middle is one problem at its index; the elements before it are still checked', () => {
    const list = jsonArray(t.string);
    /** `before`, one missing element, then `after`. */
    const withHole = (before: unknown[], after: unknown[]): unknown[] => {
      const out = [...before];
      out.length += 1;
      out.push(...after);
      return out;
    };
    const result = list.decode(withHole([5, 'a'], ['b']));
    if (E.isRight(result)) throw new Error('a holey array was read');
    expect(reportJsonErrors(result.left)).toEqual([
      { path: [0], message: 'expected string, got 5', code: 'wrong-type' },
      { path: [2], message: 'the array has no element at [2] (a hole: JSON has none)', code: 'wrong-type' },
    ]);
    expect(list.is(withHole(['a'], ['b']))).toBe(false);
    expect(() => list.encode(withHole(['a'], ['b']) as string[])).toThrow('the array has no element at [1]');
  });

  test('an array of length 2^32 − 1 holding one element is refused at its first hole, at once (t.array runs out of heap)', () => {
    const sparse: unknown[] = ['x'];
    sparse.length = 2 ** 32 - 1;
    const list = jsonArray(t.string);
    expect(list.is(sparse)).toBe(false);
    const result = fromJson({ json: list }, sparse);
    expect(E.isLeft(result) && result.left.problems).toEqual([
      { path: [1], message: 'the array has no element at [1] (a hole: JSON has none)', code: 'wrong-type' },
    ]);
    expect(() => list.encode(sparse as string[])).toThrow(RangeError);
    // Through a codec's own JSON form too.
    const codec = array(u8, u32le);
    const numbers: number[] = [7];
    numbers.length = 2 ** 32 - 1;
    expect(E.isLeft(fromJson(codec, numbers))).toBe(true);
    expect(() => toJson(codec, numbers)).toThrow('the array has no element at [1]');
  });
});

test("graphImage's number columns in JSON: a hole is refused at once, not walked (every skipped holes and walked 2^32 − 1 of them)", () => {
  const columns = { roots: [], kinds: [], kindOf: [], sizes: [], refStart: [], refs: [], segStart: [], dataStart: [] };
  const whole = { ...columns, data: '', externals: [] };
  expect(E.isRight(fromJson(graphImage, whole))).toBe(true);
  for (const column of ['kindOf', 'refs'] as const) {
    const sparse: number[] = [];
    sparse.length = 2 ** 32 - 1;
    const result = fromJson(graphImage, { ...whole, [column]: sparse });
    expect(E.isLeft(result) && result.left.problems.map((p) => p.path)).toEqual([[column]]);
  }
});
