// Shared short texts (`share` on pstring and cstring): values and errors are those of the codec
// without it, whatever the table already holds; the table is bounded; options are checked.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { array, cstring, decode, encode, pstring, struct, u8, type Codec, type EncodingName } from '../src/index';
import { SharedText } from '../src/shared-text';
import { encodeOk, hexBytes } from './laws';

/** What a decode gives, errors included, in a comparable form. */
function outcome<A>(codec: Codec<A>, bytes: Uint8Array): unknown {
  const r = decode(codec, bytes);
  return E.isRight(r) ? r.right.value : [r.left.path, r.left.offset, r.left.code, r.left.message];
}

/** Bytes drawn from a few short words (so repeats are common), bad bytes and odd lengths included. */
const words = ['', 'a', 'ab', 'abc', 'zombie', 'ZOMBIEMAN', '\xc3\xa9', '\xff\xfe', '\x80', 'longer than eight'];
const pieces = fc.array(
  fc.oneof(
    fc.constantFrom(...words).map((w) => Uint8Array.from([w.length, ...Array.from(w, (c) => c.charCodeAt(0))])),
    fc.uint8Array({ maxLength: 6 }),
  ),
  { maxLength: 8 },
);
const joined = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

describe.each<EncodingName>(['utf8', 'ascii', 'cp437'])('shared texts in %s', (encoding) => {
  test('pstring: the same values and errors as without sharing, over many decodes', () => {
    // One codec across every run: the table fills (and stays full) as runs go on.
    const shared = array(pstring(u8, encoding, { share: { most: 4, longest: 8 } }), u8);
    const plain = array(pstring(u8, encoding), u8);
    fc.assert(
      fc.property(pieces, (parts) => {
        const bytes = joined([Uint8Array.of(parts.length), ...parts]);
        expect(outcome(shared, bytes)).toEqual(outcome(plain, bytes));
      }),
      { numRuns: 500 },
    );
  });

  test('cstring: the same values and errors as without sharing', () => {
    const shared = array(cstring(encoding, { share: true }), 3);
    const plain = array(cstring(encoding), 3);
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 12 }).map((b) => b.map((x) => (x % 5 === 0 ? 0 : x))),
        (bytes) => {
          expect(outcome(shared, bytes)).toEqual(outcome(plain, bytes));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('encoding: the same bytes and errors as without sharing', () => {
    const shared = array(pstring(u8, encoding, { share: { most: 3 } }), u8);
    const plain = array(pstring(u8, encoding), u8);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'é', '\u2603', 'abc', '', 'x'.repeat(40)), { maxLength: 6 }),
        (texts) => {
          const a = encode(shared, texts);
          const b = encode(plain, texts);
          expect(E.isRight(a) ? a.right : a.left.message).toEqual(E.isRight(b) ? b.right : b.left.message);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the table', () => {
  test('finds a kept text by its bytes, anywhere in a buffer', () => {
    const table = new SharedText({ most: 2, longest: 4 });
    const bytes = hexBytes('00 616263 00 616263');
    expect(table.find(bytes, 1, 4)).toBeUndefined();
    table.keep(bytes, 1, 4, 'abc');
    expect(table.find(bytes, 5, 8)).toBe('abc');
    // A prefix or a longer run is another text.
    expect(table.find(bytes, 5, 7)).toBeUndefined();
    // Past `longest`: never kept.
    expect(table.find(bytes, 0, 5)).toBeUndefined();
    table.keep(bytes, 0, 5, 'x');
    expect(table.find(bytes, 0, 5)).toBeUndefined();
  });

  test('is bounded: past `most` texts, new ones are not kept (and still decode)', () => {
    const table = new SharedText({ most: 2 });
    const bytes = hexBytes('616263');
    for (const [s, e] of [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as const) {
      expect(table.find(bytes, s, e)).toBeUndefined();
      table.keep(bytes, s, e, String.fromCharCode(bytes[s]!));
    }
    expect([table.find(bytes, 0, 1), table.find(bytes, 1, 2), table.find(bytes, 2, 3)]).toEqual(['a', 'b', undefined]);
    const codec = array(pstring(u8, 'ascii', { share: { most: 1 } }), 3);
    const texts = ['p', 'q', 'r'];
    expect(outcome(codec, encodeOk(codec, texts))).toEqual(texts);
    expect(outcome(codec, encodeOk(codec, texts))).toEqual(texts);
  });

  test('options are checked where the codec is declared', () => {
    expect(() => pstring(u8, 'utf8', { share: { most: 0 } })).toThrow('share: most must be an integer');
    expect(() => cstring('utf8', { share: { longest: -1 } })).toThrow('share: longest must be an integer');
    expect(pstring(u8, 'utf8', { share: false }).name).toBe(pstring(u8, 'utf8').name);
  });

  test('a shared text keeps sharing inside a struct that runs its compiled plan (past its 8th call)', () => {
    const find = jest.spyOn(SharedText.prototype, 'find');
    try {
      for (const encoding of ['utf8', 'ascii', 'cp437'] as const) {
        const record = struct({ id: u8, name: pstring(u8, encoding, { share: true }) });
        const bytes = encodeOk(record, { id: 1, name: 'IMP' });
        find.mockClear();
        for (let i = 0; i < 20; i++) {
          const result = decode(record, bytes);
          expect(E.isRight(result) && result.right.value).toEqual({ id: 1, name: 'IMP' });
        }
        // Every read looked the text up, the planned ones (from the 8th) too.
        expect({ encoding, lookups: find.mock.calls.length }).toEqual({ encoding, lookups: 20 });
      }
    } finally {
      find.mockRestore();
    }
  });
});
