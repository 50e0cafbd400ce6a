// Every variant, written by the package and read by the independent reader (native liblzo2 for LZO,
// Node's zlib, fflate's Adler-32): the variant is detected from the version and chosen on write.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, encode, encodeOrThrow } from '@savekit/core';
import {
  convertVariant,
  edgeSave,
  elementsOf,
  levelInfo,
  variantOf,
  VARIANT_VERSIONS,
  zlibBound,
  zlibOrStoredLayer,
  type EdgeVariant,
} from '@savekit/edge';
import { fromHex, goldensFor, toHex } from './corpus';
import { readFile } from './independent';

const { files, maybe } = goldensFor('EDGE variants');

test('variant detection follows the engines: < 0x12901 A, 0x12901 B, ≥ 0x12902 C, 0xEC D', () => {
  expect([0x12500, 0x12700, 0x12900, 0x12901, 0x12902, 0x13506, 0x21007, 0xec, 0x125].map(variantOf)).toEqual([
    'A',
    'A',
    'A',
    'B',
    'C',
    'C',
    'C',
    'D',
    'A',
  ]);
  for (const v of ['A', 'B', 'C', 'D'] as const) expect(variantOf(VARIANT_VERSIONS[v])).toBe(v);
});

maybe('written variants', () => {
  const a = files.find((f) => f.name === 'edgeA_xor_lzo_v12900_engine_layout.sav')!;
  const d = files.find((f) => f.name === 'edgeD_classic_miniz_vEC_engine_layout.sav')!;
  // Variant A nests end markers inside the data; B, C and D do not: their plain payloads are D's.
  const plains = (file: typeof a) => file.json.top_level_chunks.map((c) => c.plain_payload_hex);

  test.each(['A', 'B', 'C', 'D'] as const)(
    "the engine-layout save converted to %s: the independent reader gets the engine's payloads",
    (variant: EdgeVariant) => {
      for (const source of [a, d]) {
        const save = convertVariant(decodeOrThrow(edgeSave, source.bytes), variant);
        const bytes = encodeOrThrow(edgeSave, save);
        const file = readFile(bytes);
        expect(file.checksumOk).toBe(true);
        expect(variantOf(file.version)).toBe(variant);
        expect(file.chunks.map((c) => toHex(c.plain))).toEqual(variant === 'A' ? plains(a) : plains(d));
        if (variant === 'C' || variant === 'D') {
          // zlib level 1, or stored raw exactly when that is not smaller.
          for (const c of file.chunks)
            expect(
              c.storedLength === c.origLength
                ? c.stored[0] !== 0x78 || c.origLength <= c.storedLength
                : c.stored[0] === 0x78 && c.stored[1] === 0x01,
            ).toBe(true);
        }
        // And the package reads its own output to the same values.
        const back = decodeOrThrow(edgeSave, bytes);
        expect(levelInfo(back)).toEqual(levelInfo(save));
        expect(elementsOf(back, 'buttonlist')).toEqual(elementsOf(save, 'buttonlist'));
        expect(encodeOrThrow(edgeSave, back)).toEqual(bytes);
      }
    },
  );

  test('an incompressible chunk is stored raw in C (stored_len = orig_len), as the golden file has it', () => {
    const golden = files.find((f) => f.name === 'edgeC_zlib_v13506_incompressible.sav')!;
    const chunk = golden.json.top_level_chunks[0]!;
    expect(chunk.stored_length).toBe(chunk.orig_length);
    const file = readFile(golden.bytes);
    expect(toHex(file.chunks[0]!.plain)).toBe(chunk.plain_payload_hex);
    expect(fromHex(chunk.stored_bytes_hex)).toEqual(file.chunks[0]!.stored);
  });

  test('the variant must agree with the version; the header padding of the seed is accepted and kept', () => {
    const save = decodeOrThrow(edgeSave, a.bytes);
    const wrong = encode(edgeSave, { ...save, variant: 'C' });
    expect(E.isLeft(wrong) && wrong.left.message).toMatch(/variant C does not match version 0x12900 \(variant A\)/);
    const seedPadding = { ...save, padding: Uint8Array.of(0x0d, 0x0a, 0x1a, 0x00) };
    const bytes = encodeOrThrow(edgeSave, seedPadding);
    expect([...bytes.subarray(8, 12)]).toEqual([0x0d, 0x0a, 0x1a, 0x00]);
    expect(decodeOrThrow(edgeSave, bytes).padding).toEqual(Uint8Array.of(0x0d, 0x0a, 0x1a, 0x00));
    expect(readFile(bytes).checksumOk).toBe(true);
  });

  test("an unknown chunk cannot be converted across compressions (its stored bytes are the old variant's)", () => {
    const prim = files.find((f) => f.name === 'edgeA_xor_lzo_v12900_primitives.sav')!;
    expect(() => convertVariant(decodeOrThrow(edgeSave, prim.bytes), 'C')).toThrow(/chunk Prim is not known/);
    const primC = files.find((f) => f.name === 'edgeC_zlib_v13506_primitives.sav')!;
    const asD = encodeOrThrow(edgeSave, convertVariant(decodeOrThrow(edgeSave, primC.bytes), 'D'));
    expect(toHex(readFile(asD).chunks[0]!.plain)).toBe(primC.json.top_level_chunks[0]!.plain_payload_hex);
  });
});

test("zlib's kept-stream check gives the answer of decoding the stream and comparing", () => {
  const plain = Uint8Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? i & 0xff : 3));
  const packed = zlibOrStoredLayer.encode(plain);
  const noise = Uint8Array.from({ length: 64 }, (_, i) => (i * 151 + 7) & 0xff);
  const decodesTo = (stored: Uint8Array, inner: Uint8Array): boolean => {
    try {
      return Buffer.from(zlibOrStoredLayer.decode(stored, { maxOutput: inner.length, expected: inner.length })).equals(
        Buffer.from(inner),
      );
    } catch {
      return false;
    }
  };
  const edited = plain.slice();
  edited[2000] = 9;
  const cases: Array<[Uint8Array, Uint8Array]> = [
    [packed, plain], // compressed, unchanged
    [packed, edited], // compressed, one byte changed
    [packed, plain.subarray(0, 3996)], // shorter by a word
    [packed, plain.subarray(0, 3999)], // not a multiple of 4: the engine never writes it
    [zlibOrStoredLayer.encode(noise), noise], // stored raw (incompressible), unchanged
    [zlibOrStoredLayer.encode(noise), noise.map((b) => b ^ 1)], // stored raw, changed
    [new Uint8Array(zlibBound(4) + 5), new Uint8Array(4)], // longer than compressBound allows
  ];
  expect(zlibOrStoredLayer.encode(noise).length).toBe(noise.length);
  for (const [stored, inner] of cases)
    expect(zlibOrStoredLayer.matches?.(stored, inner)).toBe(decodesTo(stored, inner));
  expect(cases.map(([stored, inner]) => decodesTo(stored, inner))).toEqual([
    true,
    false,
    false,
    false,
    true,
    false,
    false,
  ]);
});
