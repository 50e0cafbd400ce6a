// writeSavefile encodes the image writeGraph fills through zippyImageFile. It must give, for any
// graph and options, the bytes zippyFile gives for the same objects as a document
// (fromGraphImage), or the same error (message, path, offset and code).
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { encode, type EncodeError } from '@savekit/core';
import { writeGraph, type GraphSaver } from '@savekit/core/graph';
import { fromGraphImage, writeSavefile, zippyFile, type WriteOptions } from '@savekit/zippy';

/** A node of the graph as the saver sees it: its tag, size, references and segments. */
interface Node {
  tag: string;
  size: number;
  refs: Array<number | null>;
  segments: Uint8Array[];
}

/** The tag's four bytes in the byte order (a tag that is not four one-byte characters: its char codes, cut). */
function tagBytes(tag: string, order: 'be' | 'le'): number[] {
  const codes = Array.from(tag, (c) => c.charCodeAt(0) & 0xff).slice(0, 4);
  return order === 'be' ? codes : codes.reverse();
}

/** Graphs whose nodes refer to each other by index (null: a null reference), some refusable. */
const graph = fc
  .array(
    fc.record({
      // Valid tags, and some a file cannot hold (too long, not one byte a character).
      tag: fc.constantFrom('LUA\0', 'DATA', 'Thng', 'toolong', 'é€ab'),
      size: fc.oneof(fc.nat(64), fc.constant(0x1_0000_0000)),
      refs: fc.array(fc.option(fc.nat(20), { nil: null }), { maxLength: 3 }),
      // Segment 0 starts with the tag unless `badHead`; more segments may follow; or none at all.
      head: fc.uint8Array({ maxLength: 12 }),
      badHead: fc.boolean(),
      noSegments: fc.boolean(),
      more: fc.array(fc.uint8Array({ maxLength: 9 }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .chain((specs) =>
    fc.record({
      specs: fc.constant(specs),
      roots: fc.array(fc.option(fc.nat(specs.length - 1), { nil: null }), { minLength: 1, maxLength: 3 }),
      options: fc.record(
        {
          byteOrder: fc.constantFrom<'be' | 'le'>('be', 'le'),
          crc: fc.boolean(),
          numberFormat: fc.constantFrom(0, 1, 2),
        },
        { requiredKeys: [] },
      ),
    }),
  );

function nodesOf(
  specs: ReadonlyArray<{
    tag: string;
    size: number;
    refs: Array<number | null>;
    head: Uint8Array;
    badHead: boolean;
    noSegments: boolean;
    more: Uint8Array[];
  }>,
  order: 'be' | 'le',
): Node[] {
  return specs.map((s) => ({
    tag: s.tag,
    size: s.size,
    refs: s.refs.map((r) => (r === null ? null : r % specs.length)),
    segments: s.noSegments
      ? []
      : [Uint8Array.of(...(s.badHead ? [0x21, 0x21, 0x21, 0x21] : tagBytes(s.tag, order)), ...s.head), ...s.more],
  }));
}

function saverOf(nodes: Node[]): GraphSaver<Node> {
  return {
    kindOf: (node) => node.tag,
    save(node, sink) {
      for (const r of node.refs) sink.writeReference(r === null ? null : nodes[r]!);
      for (const segment of node.segments) sink.writeData(segment);
    },
    sizeOf: (node) => node.size,
  };
}

/** The earlier writeSavefile: the image made a document, encoded by zippyFile. */
function throughDocument(roots: Array<Node | null>, saver: GraphSaver<Node>, options: WriteOptions) {
  const image = writeGraph(roots, saver);
  if (E.isLeft(image)) return undefined; // writeSavefile's own error, whichever way it encodes
  return encode(zippyFile, fromGraphImage(image.right, options));
}

const seen = (e: EncodeError) => ({ message: e.message, path: e.path, offset: e.offset, code: e.code });

test('writeSavefile gives the bytes zippyFile gives for the same objects, or the same error', () => {
  const outcomes = new Set<string>();
  fc.assert(
    fc.property(graph, ({ specs, roots, options }) => {
      const nodes = nodesOf(specs, options.byteOrder ?? 'be');
      const rootNodes = roots.map((r) => (r === null ? null : nodes[r]!));
      const saver = saverOf(nodes);
      const written = writeSavefile(rootNodes, saver, options);
      if (options.numberFormat === 2) {
        expect(E.isLeft(written)).toBe(true);
        return;
      }
      const expected = throughDocument(rootNodes, saver, options);
      if (expected === undefined) return;
      if (E.isLeft(expected)) {
        outcomes.add(`refused: ${expected.left.message.replace(/[0-9"]+/g, '')}`);
        expect(E.isLeft(written) && seen(written.left)).toEqual(seen(expected.left));
      } else {
        outcomes.add('written');
        expect(E.isRight(written) && Buffer.from(written.right).equals(Buffer.from(expected.right))).toBe(true);
      }
    }),
    { numRuns: 500, seed: 23 },
  );
  // Files written and refusals of both kinds (a tag, a segment 0) were compared.
  expect(outcomes.has('written')).toBe(true);
  expect([...outcomes].some((o) => o.includes('is not four characters'))).toBe(true);
  expect([...outcomes].some((o) => o.includes('must start with its tag'))).toBe(true);
});
