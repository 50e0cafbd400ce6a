// GraphImageBuilder: objects appended one at a time come back out of the image exactly, whatever
// their count, references and segments; the builder can go on after an image; finish gives the same
// image from the builder's own storage and ends it; misuse is a RangeError.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { GraphImageBuilder, graphObject, graphSize, writeGraph } from '../src/graph';

const object = fc.record({
  kind: fc.constantFrom('a', 'bb', 'LUA\0'),
  size: fc.nat(),
  references: fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 5 }),
  segments: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 4 }),
});

test('every object appended is the object read back, in order', () => {
  fc.assert(
    fc.property(fc.array(object, { maxLength: 60 }), (objects) => {
      const builder = new GraphImageBuilder();
      for (const o of objects) builder.add(builder.kind(o.kind), o.size, o.references, o.segments);
      const image = builder.image([1], ['ext']);
      expect(graphSize(image)).toBe(objects.length);
      expect(builder.objects).toBe(objects.length);
      for (const [i, o] of objects.entries()) expect(graphObject(image, i + 1)).toEqual(o);
      expect(image.refStart.length).toBe(objects.length + 1);
      expect(image.dataStart[image.dataStart.length - 1]).toBe(image.data.length);
    }),
    { numRuns: 200, seed: 20 },
  );
});

test('begin, reference, segment and end build the same object as add', () => {
  const one = new GraphImageBuilder();
  one.add(one.kind('k'), 9, [0, 2, -1], [Uint8Array.of(1, 2), new Uint8Array(0)]);
  const steps = new GraphImageBuilder();
  steps.begin(steps.kind('k'));
  for (const r of [0, 2, -1]) steps.reference(r);
  steps.segment(Uint8Array.of(1, 2));
  steps.segment(new Uint8Array(0));
  expect(steps.dataLength).toBe(2);
  steps.end(9);
  expect(steps.image([1], [])).toEqual(one.image([1], []));
});

test('segmentRange appends the bytes of a range as segment does a view of them, small or large', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.nat(), fc.nat()), { maxLength: 8 }),
      (parts) => {
        const views = new GraphImageBuilder();
        const ranges = new GraphImageBuilder();
        views.begin(views.kind('k'));
        ranges.begin(ranges.kind('k'));
        for (const [bytes, a, b] of parts) {
          const from = bytes.length === 0 ? 0 : a % (bytes.length + 1);
          const to = from + (bytes.length === 0 ? 0 : b % (bytes.length - from + 1));
          views.segment(bytes.subarray(from, to));
          ranges.segmentRange(bytes, from, to);
        }
        views.end(0);
        ranges.end(0);
        expect(ranges.dataLength).toBe(views.dataLength);
        expect(ranges.image([], [])).toEqual(views.image([], []));
      },
    ),
    { numRuns: 200, seed: 31 },
  );
});

test('an image leaves the builder as it was: later objects extend it', () => {
  const builder = new GraphImageBuilder();
  const k = builder.kind('node');
  builder.add(k, 1, [1], [Uint8Array.of(1)]);
  const first = builder.image([1], []);
  builder.add(k, 2, [1, 2], [Uint8Array.of(2, 3)]);
  const second = builder.image([2], []);
  expect(graphSize(first)).toBe(1);
  expect(Array.from(first.refStart)).toEqual([0, 1]);
  expect(graphSize(second)).toBe(2);
  expect(graphObject(second, 1)).toEqual(graphObject(first, 1));
  expect(graphObject(second, 2)).toEqual({
    kind: 'node',
    size: 2,
    references: [1, 2],
    segments: [Uint8Array.of(2, 3)],
  });
});

test('an empty builder gives the image writeGraph gives for no objects', () => {
  const written = writeGraph([], { kindOf: () => 'x', save: () => {} });
  expect(E.isRight(written) && written.right).toEqual(new GraphImageBuilder().image([], []));
});

test('misuse is a RangeError: an unknown kind, an object not ended, an end with none begun', () => {
  const builder = new GraphImageBuilder();
  expect(() => builder.begin(0)).toThrow(RangeError);
  const k = builder.kind('k');
  expect(() => builder.end(0)).toThrow(RangeError);
  builder.begin(k);
  expect(() => builder.begin(k)).toThrow(RangeError);
  expect(() => builder.image([], [])).toThrow(RangeError);
  builder.end(0);
  expect(graphSize(builder.image([], []))).toBe(1);
});

test('finish gives the image image gives, for small graphs and graphs past one chunk of bytes', () => {
  fc.assert(
    fc.property(
      fc.array(object, { maxLength: 60 }),
      // Past a megabyte the bytes are kept in several chunks, joined by finish as by image.
      fc.boolean(),
      (objects, large) => {
        const builder = new GraphImageBuilder();
        for (const o of objects) builder.add(builder.kind(o.kind), o.size, o.references, o.segments);
        if (large) builder.add(builder.kind('big'), 0, [], [new Uint8Array(1 << 20).fill(7), Uint8Array.of(1)]);
        const image = builder.image([1], ['ext']);
        const finished = builder.finish([1], ['ext']);
        expect(finished).toEqual(image);
        // The same typed-array kinds and exact lengths: a reader cannot tell the two apart.
        for (const key of ['kindOf', 'sizes', 'refStart', 'refs', 'segStart', 'dataStart', 'data'] as const) {
          expect(finished[key].constructor).toBe(image[key].constructor);
          expect(finished[key].length).toBe(image[key].length);
        }
      },
    ),
    { numRuns: 100, seed: 41 },
  );
});

test('finish hands over the storage: no column is copied, and small bytes are not either', () => {
  const builder = new GraphImageBuilder();
  const k = builder.kind('node');
  for (let i = 0; i < 100; i++) builder.add(k, i, [i + 1], [Uint8Array.of(i)]);
  const image = builder.finish([1], []);
  // Views into the builder's doubled storage, not arrays of exactly their length.
  for (const column of [image.kindOf, image.sizes, image.refStart, image.refs, image.segStart, image.dataStart])
    expect(column.buffer.byteLength).toBeGreaterThan(column.byteLength);
  expect(image.data.buffer.byteLength).toBeGreaterThan(image.data.byteLength);
  expect(graphObject(image, 100)).toEqual({ kind: 'node', size: 99, references: [100], segments: [Uint8Array.of(99)] });
});

test('a finished builder refuses more objects and another image; finishing an open object is refused', () => {
  const open = new GraphImageBuilder();
  open.begin(open.kind('k'));
  expect(() => open.finish([], [])).toThrow(/not ended/);
  const builder = new GraphImageBuilder();
  const k = builder.kind('k');
  builder.add(k, 0, [], []);
  const image = builder.finish([], []);
  expect(() => builder.begin(k)).toThrow(/finished/);
  expect(() => builder.add(k, 0, [], [])).toThrow(/finished/);
  expect(() => builder.image([], [])).toThrow(/finished/);
  expect(() => builder.finish([], [])).toThrow(/finished/);
  expect(graphSize(image)).toBe(1);
});
