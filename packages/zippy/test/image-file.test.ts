// zippyImageFile: the container declared once more with its objects going into a graph image. It
// must accept and refuse exactly what zippyFile does (same error, path, offset and code), decode to
// the image toGraphImage makes of zippyFile's document, and encode back to the same bytes.
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { decode, encode, type DecodeError } from '@savekit/core';
import { toGraphImage, zippyFile, zippyImageFile, type ZippyFile } from '@savekit/zippy';
import { loadLua } from '@savekit/zippy/lua';
import { classChain, savedLua } from './attacks';
import { newState } from './lua-helpers';
import { workedExample } from './worked-example';

const samples: ReadonlyArray<[string, Uint8Array]> = [
  ['the worked example', workedExample()],
  ['the worked example byte-swapped', workedExample('le')],
  [
    'a Lua chain with shared tables, strings and a metatable',
    savedLua(
      `local s = {x = 1.5, [true] = 'yes'}; T = {n = 0, s, s, 'a', setmetatable({}, s)}; T.next = {n = 1, back = T}`,
    ),
  ],
  ['a Lua table, little-endian', savedLua('T = {1, 2, 3, k = {}}', 'T', 'le')],
  ['a superclass chain', classChain(20)],
  ['no objects', encoded({ ...decodeFile(workedExample()), roots: [], externals: [], objects: [] })],
  ['a Lua table without the CRC trailer', encoded({ ...decodeFile(savedLua('T = {a = {1}, b = "x"}')), crc: false })],
];

function encoded(file: ZippyFile): Uint8Array {
  const bytes = encode(zippyFile, file);
  if (E.isLeft(bytes)) throw bytes.left;
  return bytes.right;
}
function decodeFile(bytes: Uint8Array): ZippyFile {
  const file = decode(zippyFile, bytes);
  if (E.isLeft(file)) throw file.left;
  return file.right.value;
}

/** An error as compared: everything a caller sees of it. */
const seen = (e: DecodeError) => ({ message: e.message, path: e.path, offset: e.offset, code: e.code });

/** What both declarations make of `bytes`, as comparable plain values. */
function both(bytes: Uint8Array, maxWork?: number) {
  const options = maxWork === undefined ? {} : { maxWork };
  const document = decode(zippyFile, bytes, options);
  const image = decode(zippyImageFile, bytes, options);
  const asDocument = E.isLeft(document)
    ? { error: seen(document.left) }
    : (() => {
        const { objects: _objects, roots, externals, ...header } = document.right.value;
        const { kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data } = toGraphImage(document.right.value);
        const columns = { kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data };
        return { header, roots, externals, columns: columnsOf(columns) };
      })();
  const asImage = E.isLeft(image)
    ? { error: seen(image.left) }
    : (() => {
        const { image: img, ...header } = image.right.value;
        const { kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data } = img;
        const columns = { kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data };
        return { header, roots: img.roots, externals: img.externals, columns: columnsOf(columns) };
      })();
  return { asDocument, asImage };
}

/** Columns as plain arrays (a view and a whole array of the same numbers compare equal). */
function columnsOf(columns: Record<string, ArrayLike<unknown>>): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Array.from(v)]));
}

describe.each(samples)('%s', (_name, bytes) => {
  test('decodes to the image of the document, and encodes back to the same bytes', () => {
    const { asDocument, asImage } = both(bytes);
    expect(asImage).toEqual(asDocument);
    expect('error' in asImage).toBe(false);
    const decoded = decode(zippyImageFile, bytes);
    if (E.isLeft(decoded)) throw decoded.left;
    const again = encode(zippyImageFile, decoded.right.value);
    if (E.isLeft(again)) throw again.left;
    expect(Buffer.from(again.right).equals(Buffer.from(bytes))).toBe(true);
  });
});

test('a damaged file (or one over a small work budget) is refused with the same error by both declarations, or decodes to the same objects', () => {
  const refused = new Set<string>();
  fc.assert(
    fc.property(
      fc.constantFrom(...samples.map(([, bytes]) => bytes)),
      fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 4 }),
      fc.option(fc.nat(), { nil: undefined }),
      fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
      (bytes, flips, cut, maxWork) => {
        const damaged = bytes.slice(0, cut === undefined ? bytes.length : cut % (bytes.length + 1));
        for (const [at, value] of flips) if (damaged.length > 0) damaged[at % damaged.length] = value;
        const { asDocument, asImage } = both(damaged, maxWork);
        expect(asImage).toEqual(asDocument);
        if ('error' in asImage) refused.add(asImage.error.code ?? '');
      },
    ),
    { numRuns: 600, seed: 19 },
  );
  // The damage reached more than one kind of check.
  expect(refused.size).toBeGreaterThan(2);
});

test("loadLua's file is the document zippyFile decodes, made when first read", () => {
  const bytes = samples[2]![1];
  const loaded = loadLua(newState(), bytes);
  if (E.isLeft(loaded)) throw loaded.left;
  expect(loaded.right.file).toEqual(decodeFile(bytes));
  expect(loaded.right.file).toBe(loaded.right.file);
});
