// A function of a format's own (a map's encode or decode, a rebuild's computation, a field's codec
// chooser) refuses a part of the value it was given with a FieldError: the typed error names the value's
// path followed by that part, with the FieldError's code and message.
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  decode,
  DecodeError,
  encode,
  EncodeError,
  FieldError,
  JsonError,
  map,
  rebuild,
  struct,
  toJson,
  u8,
} from '../src/index';
import { writeGraph } from '../src/graph';
import { denseList } from '../src/kit';

/** A list written after its count, which the rebuild computes and checks for a list first. */
const listOfItems = struct({
  count: rebuild(u8, (p: { items: unknown }) => {
    if (!Array.isArray(p.items)) throw new FieldError(['items'], 'expected a list', 'wrong-type');
    return p.items.length;
  }),
  items: (p: { count: number }) => array(u8, p.count),
});
const file = struct({ name: u8, list: listOfItems });

function refusal<A>(result: E.Either<A, unknown>): A {
  if (E.isRight(result)) throw new Error('expected a refusal');
  return result.left;
}

test("a rebuild's computation names the part of the parent it refuses, at the parent's path", () => {
  const error = refusal(encode(file, { name: 1, list: { items: 7 } } as never));
  expect(error).toBeInstanceOf(EncodeError);
  expect(error.path).toEqual(['list', 'items']);
  expect(error.code).toBe('wrong-type');
  expect(error.message).toBe('expected a list');
  expect(error.offset).toBe(1); // the writer stood after `name`
  // A well-shaped value is written as before.
  expect(encode(file, { name: 1, list: { items: [4, 5] } } as never)).toEqual(E.right(Uint8Array.of(1, 2, 4, 5)));
});

test("a map's encode and decode name the part they refuse", () => {
  const pair = map(struct({ a: u8, b: u8 }), {
    name: 'pair',
    decode: ({ a, b }) => {
      if (b < a) throw new FieldError(['second'], `${b} is less than ${a}`, 'out-of-range');
      return { first: a, second: b };
    },
    encode: (v: { first: unknown; second: unknown }) => {
      if (typeof v.first !== 'number') throw new FieldError(['first'], 'expected a number', 'wrong-type');
      return { a: v.first, b: v.second as number };
    },
  });
  const holder = struct({ pairs: array(pair, 2) });
  const written = refusal(
    encode(holder, {
      pairs: [
        { first: 1, second: 2 },
        { first: 'x', second: 2 },
      ],
    } as never),
  );
  expect([written.path, written.code, written.message]).toEqual([
    ['pairs', 1, 'first'],
    'wrong-type',
    'expected a number',
  ]);
  const read = refusal(decode(holder, Uint8Array.of(1, 2, 9, 3)));
  expect(read).toBeInstanceOf(DecodeError);
  expect([read.path, read.code, read.message]).toEqual([['pairs', 1, 'second'], 'out-of-range', '3 is less than 9']);
});

test("a field's codec chooser names the part it refuses", () => {
  const chosen = struct({
    kind: u8,
    body: (p: { kind: number }) => {
      if (p.kind > 1) throw new FieldError(['kind'], `kind ${p.kind} has no body`, 'unknown-tag');
      return u8;
    },
  });
  const error = refusal(decode(struct({ head: chosen }), Uint8Array.of(5, 0)));
  expect([error.path, error.code]).toEqual([['head', 'kind'], 'unknown-tag']);
});

test('writing a graph names a root that is not an object at its place among the roots', () => {
  const saver = { kindOf: () => 'node', save: () => {} };
  const error = refusal(writeGraph([{}, null, 5 as never], saver));
  expect([error.path, error.code]).toEqual([['roots', 2], 'wrong-type']);
});

test('toJson of a value not of the shape is a JsonError at the part that is not', () => {
  // A text written upper-cased: io-ts encodes through it, trusting that every name is an object.
  const upper = new t.Type<string, string, unknown>(
    'Upper',
    (u): u is string => typeof u === 'string',
    t.string.validate,
    (s) => s.toUpperCase(),
  );
  const type = t.type({ header: t.type({ names: t.array(t.type({ text: upper })) }) });
  expect(toJson({ json: type }, { header: { names: [{ text: 'a' }] } })).toEqual({
    header: { names: [{ text: 'A' }] },
  });
  const codec = { json: type } as const;
  const value = { header: { names: [{ text: 'a' }, null] } };
  let thrown: unknown;
  try {
    toJson(codec, value as never);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(JsonError);
  expect((thrown as JsonError).problems).toHaveLength(1);
  expect((thrown as JsonError).problems[0]!.path).toEqual(['header', 'names', 1]);
  expect((thrown as JsonError).problems[0]!.message).toMatch(/^not \{ text: Upper \}: /);
});

test('denseList refuses what is not a list, and a hole, at the first hole, without walking a sparse list', () => {
  const thrown = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof FieldError ? [error.at, error.code, error.message] : error;
    }
    throw new Error('expected a FieldError');
  };
  const list = [1, 2];
  expect(denseList(list, ['rows'], 'row')).toBe(list);
  expect(thrown(() => denseList(null, ['disk', 'entries'], 'entry', 'entries'))).toEqual([
    ['disk', 'entries'],
    'wrong-type',
    'expected a list of entries, got null',
  ]);
  // biome-ignore lint/suspicious/noSparseArray: the hole is the point
  expect(thrown(() => denseList([1, , 3], ['rows'], 'row'))).toEqual([
    ['rows', 1],
    'wrong-type',
    'row 1 is missing: the list has a hole',
  ]);
  const sparse: unknown[] = [];
  sparse.length = 2 ** 32 - 1;
  expect(thrown(() => denseList(sparse, ['chunks'], 'chunk'))).toEqual([
    ['chunks', 0],
    'wrong-type',
    'chunk 0 is missing: the list has a hole',
  ]);
});
