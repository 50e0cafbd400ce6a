// The raw fallback: an instance of a structure whose NUMERIC fields no release table knows (declared
// 4 bytes: an int, or a float the engine writes as 6?) is read by the guess, and when the guess does
// not fit its chunk the reading is rolled back (Reader.attempt) and the instance kept as `{ $raw }`.
// Rolled back means everything the guess did: the INDEX references it read must not be resolved.
import * as E from 'fp-ts/lib/Either';
import { decode, encode, encodeOrThrow, formatPath } from '@savekit/core';
import type { Instance } from '@savekit/core/schema';
import { edgeSave, type DataBody } from '@savekit/edge';
import { le32, writeFile } from './independent';

const C = 0x13506;
const str = (s: string): number[] => [0xaa, s.length & 0xff, s.length >> 8, ...Buffer.from(s, 'latin1')];
const pad4 = (bytes: number[]): number[] => [...bytes, ...new Array((4 - (bytes.length % 4)) % 4).fill(0)];
const chunk = (marker: string, data: number[]): number[] => [
  ...Buffer.from(marker),
  ...le32(pad4(data).length),
  ...pad4(data),
];

/** `odd_t`: an INDEX into `odds`, then three NUMERIC fields declared 4 bytes (no release knows them). */
const stru = pad4([
  ...le32(4),
  ...str('odd_t'),
  ...str('oddt'),
  ...[2, 4, 1, 0, ...str('link'), ...str('odds')],
  ...[1, 4, 1, 0, ...str('f0')],
  ...[1, 4, 1, 0, ...str('f1')],
  ...[1, 4, 1, 0, ...str('f2')],
]);

/** A save of one `odds` element whose fields take `fieldBytes` (after its INDEX `link`). */
function saveOf(link: number, fieldBytes: number[]): Uint8Array {
  return writeFile(C, [
    { marker: 'Stru', plain: Uint8Array.from(stru) },
    { marker: 'Arry', plain: Uint8Array.from(pad4([...le32(1), ...str('odds'), ...str('odd_t')])) },
    {
      marker: 'Data',
      plain: Uint8Array.from(pad4([...str('odds'), ...chunk('oddt', [...le32(link), ...fieldBytes])])),
    },
  ]);
}

function elementsOf(bytes: Uint8Array) {
  const result = decode(edgeSave, bytes);
  if (E.isLeft(result)) throw result.left;
  const data = result.right.value.chunks.find((c) => c.id === 'Data')!;
  const body = (data as unknown as { body: { value: DataBody } }).body.value;
  return { value: result.right.value, elements: body.elements, warnings: result.right.warnings };
}

test('a guess that fits is kept: three ints, and the INDEX resolves to its element', () => {
  const bytes = saveOf(1, [...le32(7), ...le32(8), ...le32(9)]);
  const { value, elements, warnings } = elementsOf(bytes);
  const [odd] = elements as [Instance & { link: { index: number; target?: Instance } }];
  expect(odd).toMatchObject({ f0: 7, f1: 8, f2: 9, link: { $ref: 'odds', index: 1 } });
  expect(odd.link.target).toBe(odd);
  expect(warnings.map((w) => w.code)).not.toContain('instance-kept-raw');
  expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
});

test('a guess that leaves bytes over is rolled back: the instance is kept raw, its INDEX forgotten', () => {
  // Three 6-byte floats where the guess reads three ints: 6 bytes (and the padding) are left over.
  // The INDEX, 9, is past the end of odds: had the guess's reference not been rolled back with it,
  // resolving it at the end would fail the decode.
  const floats = [0x01, 0x01, 0, 0, 0, 0x20, 0x01, 0x01, 0, 0, 0, 0x20, 0x01, 0x01, 0, 0, 0, 0x20];
  const bytes = saveOf(9, floats);
  const { value, elements, warnings } = elementsOf(bytes);
  const [odd] = elements;
  expect(Object.keys(odd!)).toEqual(['$raw']);
  expect(Array.from(odd!.$raw as Uint8Array)).toEqual(pad4([...le32(9), ...floats]));
  const kept = warnings.filter((w) => w.code === 'instance-kept-raw');
  expect(kept).toHaveLength(1);
  // Said at the element, where it is in the document; nothing the guess warned about is left.
  expect(kept[0]!.path.slice(-2)).toEqual(['elements', 0]);
  expect(warnings.filter((w) => w.code !== 'instance-kept-raw' && w.code !== 'unknown-struct')).toEqual([]);
  expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
});

test('a guess that fails outright is rolled back the same way', () => {
  // Two bytes of fields where the guess needs twelve: a short read inside the chunk.
  const bytes = saveOf(9, [1, 2]);
  const { value, elements, warnings } = elementsOf(bytes);
  expect(Array.from(elements[0]!.$raw as Uint8Array)).toEqual(pad4([...le32(9), 1, 2]));
  expect(warnings.map((w) => w.code)).toContain('instance-kept-raw');
  expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
});

test('an instance kept as bytes is written back as them, unless the guess would read them', () => {
  const floats = [0x01, 0x01, 0, 0, 0, 0x20, 0x01, 0x01, 0, 0, 0, 0x20, 0x01, 0x01, 0, 0, 0, 0x20];
  const { value } = elementsOf(saveOf(9, floats));
  const data = value.chunks.find((c) => c.id === 'Data') as unknown as { body: { value: DataBody } };
  // Bytes the guess reads (a link and three ints) would come back as fields: refused.
  data.body.value.elements[0] = { $raw: Uint8Array.from([...le32(0), ...le32(7), ...le32(8), ...le32(9)]) };
  const refused = encode(edgeSave, value);
  expect(E.isLeft(refused) && refused.left.message).toMatch(/would decode as one/);
  expect(E.isLeft(refused) && refused.left.path.slice(-2)).toEqual(['elements', 0]);
});

test('a Data chunk with an empty array name is refused on decode, as on encode (no array is named "")', () => {
  const bytes = writeFile(C, [
    { marker: 'Stru', plain: Uint8Array.from(stru) },
    { marker: 'Arry', plain: Uint8Array.from(pad4([...le32(0), ...str('odds'), ...str('odd_t')])) },
    { marker: 'Data', plain: Uint8Array.from(pad4(str(''))) },
  ]);
  const result = decode(edgeSave, bytes);
  expect(E.isLeft(result) && [result.left.code, result.left.message]).toEqual([
    'invalid-value',
    expect.stringMatching(/the array name is empty/),
  ]);
  expect(E.isLeft(result) && formatPath(result.left.path)).toBe('chunks[2].body.value <zlib> .array');
});
