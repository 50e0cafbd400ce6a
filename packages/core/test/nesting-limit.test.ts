// nestingLimit (nesting-limit.ts): a format's own limit on values open at once while reading, and the
// work each costs — its laws, its error (code, path, offset), its work charge, a count shared by key,
// a count a rolled-back attempt puts back, and the same limit on writing.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { array, decode, encode, EncodeError, lazy, nestingLimit, struct, u8, type Codec } from '../src/index';
import { Reader, ReadState, resolveDecodeOptions } from '../src/kit';
import { checkLaws, decodeFails } from './laws';

interface Node {
  tag: number;
  children: Node[];
}

/** A tree of nodes, at most `most` open at once, each costing `cost` units. */
function tree(most: number, cost = 1, key: object = {}): Codec<Node> {
  const node: Codec<Node> = nestingLimit(
    struct({
      tag: u8,
      children: array(
        lazy(() => node),
        u8,
      ),
    }),
    {
      key,
      most,
      message: `nodes nested deeper than ${most}`,
      cost: () => cost,
    },
  );
  return node;
}

/** Trees of at most `depth` levels. */
const trees = (depth: number): fc.Arbitrary<Node> =>
  fc.letrec<{ node: Node }>((tie) => ({
    node: fc.record({
      tag: fc.nat({ max: 255 }),
      children: fc.oneof(
        { depthSize: 'small', maxDepth: depth - 1 },
        fc.constant([] as Node[]),
        fc.array(tie('node'), { maxLength: 3 }),
      ),
    }),
  })).node;

describe('nestingLimit', () => {
  test('the laws: the value, its bytes and its JSON form are the codec’s', () => {
    checkLaws(tree(8), trees(4));
  });

  test('past the limit: too-deep at the value that would open one too many, by path and offset', () => {
    const three = tree(2);
    // tag 1, one child (tag 2, one child (tag 3, no children)): three open at once.
    const bytes = Uint8Array.of(1, 1, 2, 1, 3, 0);
    expect(E.isRight(decode(tree(3), bytes))).toBe(true);
    const error = decodeFails(three, bytes);
    expect(error.code).toBe('too-deep');
    expect(error.message).toMatch('nodes nested deeper than 2');
    expect(error.path).toEqual(['children', 0, 'children', 0]);
    expect(error.offset).toBe(4);
    // Siblings are not nested: many at one level are fine.
    expect(E.isRight(decode(three, Uint8Array.of(1, 3, 2, 0, 3, 0, 4, 0)))).toBe(true);
  });

  test('writing counts too: too-deep at the value that would open one too many, by path', () => {
    const deep: Node = { tag: 1, children: [{ tag: 2, children: [{ tag: 3, children: [] }] }] };
    const ok = encode(tree(3), deep);
    expect(E.isRight(ok) && [...ok.right]).toEqual([1, 1, 2, 1, 3, 0]);
    const refused = encode(tree(2), deep);
    if (E.isRight(refused)) throw new Error('expected the encode to be refused');
    expect(refused.left).toBeInstanceOf(EncodeError);
    expect(refused.left.code).toBe('too-deep');
    expect(refused.left.message).toMatch('nodes nested deeper than 2');
    expect(refused.left.path).toEqual(['children', 0, 'children', 0]);
    // Siblings are not nested, and each encode counts from nothing.
    const wide: Node = { tag: 1, children: [2, 3, 4].map((tag) => ({ tag, children: [] })) };
    const limited = tree(2);
    expect(E.isRight(encode(limited, wide))).toBe(true);
    expect(E.isRight(encode(limited, wide))).toBe(true);
  });

  test('each value is charged its cost before it is read', () => {
    const bytes = Uint8Array.of(1, 3, 2, 0, 3, 0, 4, 0);
    const cheap = decode(tree(4, 1), bytes, { maxWork: 40 });
    const dear = decode(tree(4, 100), bytes, { maxWork: 40 });
    expect(E.isRight(cheap)).toBe(true);
    expect(E.isLeft(dear) && dear.left.message).toMatch(/maxWork/);
  });

  test('codecs under one key count together; under another key apart', () => {
    const shared = {};
    const inner = nestingLimit(u8, { key: shared, most: 1, message: 'one at a time' });
    const outerShared = nestingLimit(struct({ a: inner }), { key: shared, most: 1, message: 'one at a time' });
    const outerApart = nestingLimit(struct({ a: inner }), { key: {}, most: 1, message: 'one at a time' });
    expect(decodeFails(outerShared, Uint8Array.of(7)).path).toEqual(['a']);
    expect(E.isRight(decode(outerApart, Uint8Array.of(7)))).toBe(true);
  });

  test('a rolled-back attempt puts the count back', () => {
    const key = {};
    const limited = nestingLimit(u8, { key, most: 1, message: 'one at a time' });
    const failing = nestingLimit(struct({ a: u8, b: u8 }), { key, most: 1, message: 'one at a time' });
    const r = new Reader(Uint8Array.of(5, 6), new ReadState(resolveDecodeOptions(undefined)));
    expect(limited.read(r)).toBe(5); // the count is in the context from here on
    // The failed reading (it runs out of bytes inside) would stay counted as open: the attempt puts it back.
    expect(E.isLeft(r.attempt(() => failing.read(r)))).toBe(true);
    expect(limited.read(r)).toBe(6);
  });

  test('a negative or fractional limit is refused when the codec is made', () => {
    expect(() => nestingLimit(u8, { key: {}, most: -1, message: '' })).toThrow(RangeError);
    expect(() => nestingLimit(u8, { key: {}, most: 1.5, message: '' })).toThrow(RangeError);
  });
});
