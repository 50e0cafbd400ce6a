// What a `map` declares of its stored value's paths (`framing`, `hoisted`, `storedAt`), and what a
// `switchOn` selector and a chunk list's end marker do to an error's path: every error, warning and
// span names a place of the document as `dump` shows it. The law, on random values: the spans of a
// traced decode and the errors of every cut of the bytes resolve in the document's JSON form.
import fc from 'fast-check';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  chunkList,
  decode,
  documentPath,
  encode,
  fourcc,
  magic,
  map,
  pathAnnotation,
  struct,
  switchOn,
  u8,
  u16le,
  u32le,
  type Codec,
} from '../src/index';
import { encodeOk } from './laws';
import { checkDecodedPaths, checkErrorPaths } from '@savekit/testkit';

/** A counted list in a frame: stored `{ magic, count, items }`, presented as the items alone. */
const framedList: Codec<number[]> = map(
  struct({
    magic: magic('LS'),
    count: u8,
    items: (p: { count: number }) => array(u16le, p.count),
  }) as unknown as Codec<{
    magic: string;
    count: number;
    items: number[];
  }>,
  {
    name: 'framedList',
    json: t.array(t.number),
    framing: ['magic', 'count'],
    hoisted: 'items',
    decode: ({ items }) => items,
    encode: (items: number[]) => ({ magic: 'LS', count: items.length, items }),
  },
);

/** A pair presented under `pair`, beside a constant. */
const heldPair = map(struct({ a: u8, b: u16le }), {
  name: 'heldPair',
  storedAt: 'pair',
  json: t.type({ kind: t.literal('pair'), pair: t.type({ a: t.number, b: t.number }) }),
  decode: (pair) => ({ kind: 'pair' as const, pair }),
  encode: (held: { kind: 'pair'; pair: { a: number; b: number } }) => held.pair,
});

type File = { version: number; list: number[]; held: { kind: 'pair'; pair: { a: number; b: number } } };
const file = struct({ version: u8, list: framedList, held: heldPair }) as unknown as Codec<File>;

const files: fc.Arbitrary<File> = fc.record({
  version: fc.nat(255),
  list: fc.array(fc.nat(65535), { maxLength: 6 }),
  held: fc.record({ kind: fc.constant('pair' as const), pair: fc.record({ a: fc.nat(255), b: fc.nat(65535) }) }),
});

const enc = (value: File) => encodeOk(file, value);

function left<A>(result: E.Either<{ path: ReadonlyArray<unknown> }, A>) {
  if (E.isRight(result)) throw new Error('expected a failure');
  return result.left;
}

describe("a map's stored paths", () => {
  test('law: spans, and the errors of every cut, are places of the document', () => {
    fc.assert(
      fc.property(files, (value) => {
        const bytes = enc(value);
        expect(checkDecodedPaths(file as never, bytes)).toEqual([]);
        expect(checkErrorPaths(file as never, bytes)).toEqual([]);
      }),
      { numRuns: 100, seed: 3 },
    );
  });

  test('framing: an error inside a framing field names it as an annotation', () => {
    const bytes = enc({ version: 1, list: [7, 8], held: { kind: 'pair', pair: { a: 1, b: 2 } } });
    expect(left(decode(file, bytes.subarray(0, 2))).path).toEqual(['list', pathAnnotation('magic')]);
    expect(left(decode(file, bytes.subarray(0, 3))).path).toEqual(['list', pathAnnotation('count')]);
  });

  test('hoisted: an error inside the hoisted field names the presented value’s own place', () => {
    const bytes = enc({ version: 1, list: [7, 8], held: { kind: 'pair', pair: { a: 1, b: 2 } } });
    // Cut inside the items: the list is short (its count claims more than is left), at list, not list.items.
    expect(left(decode(file, bytes.subarray(0, 7))).path).toEqual(['list']);
    const bad = encode(file, { version: 1, list: [7, 70000], held: { kind: 'pair', pair: { a: 1, b: 2 } } });
    expect(left(bad).path).toEqual(['list', 1]);
    const traced = decode(file, bytes, { trace: true });
    if (E.isLeft(traced)) throw traced.left;
    expect(traced.right.spans!.map((s) => documentPath(s.path).join('.'))).toContain('list.1');
  });

  test('storedAt: an error inside the stored value is named under the key that holds it', () => {
    const bytes = enc({ version: 1, list: [], held: { kind: 'pair', pair: { a: 1, b: 2 } } });
    expect(left(decode(file, bytes.subarray(0, bytes.length - 1))).path).toEqual(['held', 'pair', 'b']);
    const bad = encode(file, { version: 1, list: [], held: { kind: 'pair', pair: { a: 1, b: -1 } } });
    expect(left(bad).path).toEqual(['held', 'pair', 'b']);
  });

  test('an error and its class, code, offset and message are kept; only the path is renamed', () => {
    const bytes = enc({ version: 1, list: [7, 8], held: { kind: 'pair', pair: { a: 1, b: 2 } } });
    const error = left(decode(file, bytes.subarray(0, 2))) as unknown as { code: string; offset: number };
    expect(error).toMatchObject({ code: 'short-read', offset: 1, name: 'DecodeError' });
  });
});

describe('what the document has no place for', () => {
  test("a switch's selector, read ahead: an error inside it is named as annotations", () => {
    const head = struct({ tag: u8, size: u32le });
    const picked = switchOn(
      head,
      { small: u8, large: u16le },
      {
        select: (h) => (h.tag === 1 ? 'small' : 'large'),
        caseOf: (v: number) => (v < 256 ? 'small' : 'large'),
      },
    );
    const codec = struct({ body: picked });
    expect(left(decode(codec, Uint8Array.of(1, 0))).path).toEqual(['body', pathAnnotation('size')]);
  });

  test('a chunk list cut inside its end marker is short at the marker, not at a chunk it never had', () => {
    const framing = { marker: fourcc({ alnum: true }), length: u32le };
    const codec = struct({ chunks: chunkList(framing, { Data: u8 }, { until: ['ENDE'] }), end: magic('ENDE') });
    const bytes = encodeOk(codec, { chunks: [{ id: 'Data', body: 5 }], end: 'ENDE' } as never);
    for (let cut = bytes.length - 3; cut < bytes.length; cut++)
      expect(left(decode(codec, bytes.subarray(0, cut))).path).toEqual(['end']);
  });
});
