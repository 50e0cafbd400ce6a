// graphDirectory: an image written straight from its columns is, byte for byte, what the core's
// directory writes for the same objects as documents (entry + struct body of references and aligned
// segments); reading gives the image back, and damaged bytes are refused with the directory's error.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import {
  aligned,
  array,
  borrowedBytes,
  decode,
  directory,
  encode,
  struct,
  u8,
  u16be,
  u16le,
  u32le,
  type Codec,
  type DecodeError,
} from '../src';
import { DecodeBudget } from '../src/kit';
import { GraphImageBuilder, graphDirectory, graphObject, type GraphImage } from '../src/graph';

interface Entry {
  kind: number;
  size: number;
  refs: number;
  segs: number;
  at: number;
  length: number;
}

const entry = struct({ kind: u8, size: u32le, refs: u8, segs: u8, at: u32le, length: u16le });
/** Kind names are one character; segment 0 starts with it (the leading value, one byte). */
const kindName = (stored: number) => String.fromCharCode(stored);
function kindValue(name: string): number {
  if (name.length !== 1 || name.charCodeAt(0) > 0xff) throw new Error(`kind ${JSON.stringify(name)} is not one byte`);
  return name.charCodeAt(0);
}
const NOT_KIND = 'segment 0 does not start with the kind';
/** The kind check: a check of the application's, or the leading value's declared check on reading. */
function check(e: Entry, segments: ReadonlyArray<Uint8Array>): void {
  if (segments[0]?.[0] !== e.kind) throw new Error(NOT_KIND);
}
/** What graphDirectory checks first on reading, with its message. */
function checkCount(e: Entry, segments: ReadonlyArray<Uint8Array>): void {
  if (segments.length !== e.segs)
    throw new Error(`the directory says ${e.segs} segments, the body holds ${segments.length}`);
}

/**
 * The same table both ways: the image one, and the directory of document objects it must equal.
 * `declared`: the kind is checked as the leading value's declared check (the table is then read
 * straight into columns when it can be), else by a `check` of the application's.
 */
function tables(count: number, align: number, length: Codec<number>, declared = false) {
  const refused = (name: string) => `segment 0 must start with ${JSON.stringify(name)}`;
  const image = graphDirectory<Entry, keyof Entry>({
    count,
    entry,
    place: { offset: 'at', length: 'length' },
    fields: { kind: 'kind', size: 'size', references: 'refs', segments: 'segs' },
    kindName,
    kindValue,
    reference: u16be,
    segment: { length, align },
    ...(declared
      ? { leading: { value: u8, refused, missing: NOT_KIND, mismatch: () => NOT_KIND } }
      : { leading: { value: u8, refused }, check }),
  });
  interface Doc {
    kind: string;
    size: number;
    references: number[];
    segments: Uint8Array[];
  }
  const segment = aligned(align, borrowedBytes(length));
  const document = directory<Entry, 'at' | 'length', { references: number[]; segments: Uint8Array[] }, Doc>({
    count,
    entry,
    place: { offset: 'at', length: 'length' },
    body: (e) => struct({ references: array(u16be, e.refs), segments: array(segment, 'rest') }),
    join(e, body) {
      checkCount(e, body.segments);
      check(e, body.segments);
      return { kind: kindName(e.kind), size: e.size, ...body };
    },
    split: (o: Doc) => ({
      entry: { kind: kindValue(o.kind), size: o.size, refs: o.references.length, segs: o.segments.length },
      body: o,
    }),
    json: t.unknown as unknown as t.Type<Doc, unknown, unknown>,
  });
  return { image, document };
}

const object = fc
  .record({
    kind: fc.constantFrom('a', 'b', 'Z'),
    size: fc.nat(),
    references: fc.array(fc.nat(0xffff), { maxLength: 4 }),
    first: fc.uint8Array({ maxLength: 30 }),
    // Past 64 bytes too (`size: max`: fast-check keeps arrays short otherwise): short segments are
    // copied by a loop, longer ones by the builtin.
    more: fc.array(fc.uint8Array({ maxLength: 100, size: 'max' }), { maxLength: 3 }),
  })
  .map(({ kind, size, references, first, more }) => ({
    kind,
    size,
    references,
    segments: [Uint8Array.of(kind.charCodeAt(0), ...first), ...more],
  }));

function imageOf(objects: ReadonlyArray<{ kind: string; size: number; references: number[]; segments: Uint8Array[] }>) {
  const builder = new GraphImageBuilder();
  for (const o of objects) builder.add(builder.kind(o.kind), o.size, o.references, o.segments);
  return builder.image([], []);
}

const ok = <A>(result: E.Either<unknown, A>): A => {
  if (E.isLeft(result)) throw result.left;
  return result.right;
};
const seen = (e: DecodeError) => ({ message: e.message, path: e.path, offset: e.offset, code: e.code });

test.each([
  ['a check of its own', false],
  ['the declared checks (read straight into columns)', true],
])(
  'the bytes written from an image are the bytes the directory writes for its objects, and read back to it (%s)',
  (_, declared) => {
    fc.assert(
      fc.property(
        fc.array(object, { maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(u8, u16le, u32le),
        (objects, align, length) => {
          fc.pre(objects.every((o) => o.segments.every((s) => s.length <= 0xff)));
          const { image, document } = tables(objects.length, align, length, declared);
          const bytes = ok(encode(image, imageOf(objects)));
          expect(Buffer.from(bytes).equals(Buffer.from(ok(encode(document, objects))))).toBe(true);
          const back = ok(decode(image, bytes)).value;
          for (const [i, o] of objects.entries()) expect(graphObject(back, i + 1)).toEqual(o);
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  },
);

test.each([
  ['a check of its own', false],
  ['the declared checks (read straight into columns)', true],
])('damaged bytes are refused with the error the directory gives, or read as the same objects (%s)', (_, declared) => {
  const objects = fc.sample(object, { numRuns: 12, seed: 5 });
  const { image, document } = tables(objects.length, 4, u16le, declared);
  const bytes = ok(encode(image, imageOf(objects)));
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 3 }), fc.nat(), (flips, cut) => {
      const damaged = bytes.slice(0, cut % (bytes.length + 1));
      for (const [at, value] of flips) if (damaged.length > 0) damaged[at % damaged.length] = value;
      // The same work charged both ways, whichever way the image is read.
      const spentA = DecodeBudget.of(undefined, damaged.length);
      const spentB = DecodeBudget.of(undefined, damaged.length);
      const a = decode(image, damaged, { budget: spentA });
      const b = decode(document, damaged, { budget: spentB });
      if (E.isRight(a)) expect(spentA.workSpent).toBe(spentB.workSpent);
      expect(E.isLeft(a)).toBe(E.isLeft(b));
      if (E.isLeft(a) && E.isLeft(b)) expect(seen(a.left)).toEqual(seen(b.left));
      if (E.isRight(a) && E.isRight(b))
        for (const [i, o] of b.right.value.entries()) expect(graphObject(a.right.value, i + 1)).toEqual(o);
    }),
    { numRuns: 400, seed: 22 },
  );
});

describe('what writing refuses, at the object', () => {
  const objects = [
    { kind: 'a', size: 1, references: [1], segments: [Uint8Array.of(97, 1)] },
    { kind: 'b', size: 0, references: [], segments: [Uint8Array.of(98)] },
  ];
  const { image } = tables(2, 4, u16le);
  const refused = (img: GraphImage) => {
    const result = encode(image, img);
    if (E.isRight(result)) throw new Error('expected a refusal');
    return { path: result.left.path, message: result.left.message, code: result.left.code };
  };

  test('a count other than the table’s', () => {
    expect(refused(imageOf(objects.slice(0, 1)))).toMatchObject({ code: 'size-mismatch', path: [] });
  });
  test('a kind that cannot be stored names its first object', () => {
    const bad = [objects[0]!, { ...objects[1]!, kind: 'bb' }];
    expect(refused(imageOf(bad))).toEqual({
      path: [1],
      message: expect.stringContaining('not one byte'),
      code: 'invalid-value',
    });
  });
  test('segment 0 not starting with the kind, or missing', () => {
    expect(refused(imageOf([objects[0]!, { ...objects[1]!, segments: [Uint8Array.of(97)] }])).path).toEqual([1]);
    expect(refused(imageOf([{ ...objects[0]!, segments: [] }, objects[1]!])).message).toMatch(/segment 0 must start/);
  });
  test('a reference its codec refuses names the reference', () => {
    const bad = imageOf([{ ...objects[0]!, references: [0, 70_000] }, objects[1]!]);
    expect(refused(bad)).toMatchObject({ path: [0, 'references', 1], code: 'out-of-range' });
  });
  test('a value the entry cannot hold names the entry field', () => {
    const big = imageOf([{ ...objects[0]!, references: Array.from({ length: 300 }, () => 0) }, objects[1]!]);
    expect(refused(big).path).toEqual([0, 'refs']);
  });
  test('columns of different lengths', () => {
    const img = imageOf(objects);
    expect(refused({ ...img, sizes: img.sizes.subarray(0, 1) }).message).toMatch(/columns/);
  });
  test('an entry that is not a struct of the six fields is a RangeError when the table is made', () => {
    expect(() =>
      graphDirectory({
        count: 0,
        entry: struct({ kind: u8, size: u8 }),
        place: { offset: 'kind', length: 'size' },
        fields: { kind: 'kind', size: 'size', references: 'kind', segments: 'size' },
        kindName,
        kindValue,
        reference: u8,
        segment: { length: u8, align: 1 },
      }),
    ).toThrow(RangeError);
  });
});
