// Bad input: every kind the issue lists gives a DecodeError with a path and an offset — never a
// crash, a hang or a huge allocation — and mutated golden files (100,000 in the heavy test profile,
// 10,000 in the quick one, or SAVEKIT_FUZZ_ITERATIONS) give nothing but DecodeErrors.
import fc from 'fast-check';
import * as lzo from 'lzo';
import * as E from 'fp-ts/lib/Either';
import { Zlib } from 'fflate';
import { decode, DecodeError, encodeOrThrow } from '@savekit/core';
import { edgeSave, format } from '@savekit/edge';
import { arbitrary, defaultIterations, fuzzSuite } from '@savekit/testkit';
import { goldensFor } from './corpus';
import { adler32, le32, writeFile, writeStored } from './independent';

const { files, maybe } = goldensFor('EDGE bad input');

function decodeError(bytes: Uint8Array, options?: Parameters<typeof decode>[2]): DecodeError {
  const result = decode(edgeSave, bytes, options);
  if (E.isRight(result)) throw new Error('decoded without an error');
  expect(result.left).toBeInstanceOf(DecodeError);
  expect(Array.isArray(result.left.path)).toBe(true);
  expect(Number.isInteger(result.left.offset)).toBe(true);
  return result.left;
}

/** The file with its Adler-32 trailer recomputed (so the damage under test is the only one). */
function resealed(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out.set(le32(adler32(out.subarray(0, out.length - 4))), out.length - 4);
  return out;
}

// Plain chunk data by hand, for variant C files made by the independent writer.
const str = (s: string | null): number[] =>
  s === null ? [0xde] : [0xaa, s.length & 0xff, s.length >> 8, ...Buffer.from(s, 'latin1')];
const int = (n: number): number[] => le32(n >>> 0);
const pad4 = (bytes: number[]): number[] => [...bytes, ...new Array((4 - (bytes.length % 4)) % 4).fill(0)];
const nested = (marker: string, data: number[]): number[] => {
  const padded = pad4(data);
  return [...Buffer.from(marker), ...le32(padded.length), ...padded];
};
const structDef = (
  name: string,
  marker: string,
  fields: Array<[kind: number, size: number, name: string, ref?: string]>,
) =>
  pad4([
    ...int(fields.length),
    ...str(name),
    ...str(marker),
    ...fields.flatMap(([kind, size, n, ref]) => [kind, size, 1, 0, ...str(n), ...(ref !== undefined ? str(ref) : [])]),
  ]);

maybe('bad input', () => {
  test('truncated at every offset: a DecodeError with path and offset', () => {
    for (const golden of files) {
      for (let cut = 0; cut < golden.bytes.length; cut++) decodeError(golden.bytes.subarray(0, cut));
    }
  });

  test('a wrong checksum: an error at the trailer, or a warning when asked', () => {
    const golden = files.find((f) => f.name === 'edgeA_xor_lzo_v12900_engine_layout.sav')!;
    const bad = golden.bytes.slice();
    bad[bad.length - 1]! ^= 0x01;
    const error = decodeError(bad);
    expect(error.message).toMatch(/Adler-32 mismatch: stored 0x.+, computed 0x704934b9/);
    expect(error.offset).toBe(bad.length - 4);
    const warned = decode(edgeSave, bad, { checksums: 'warn' });
    expect(E.isRight(warned) && warned.right.warnings.map((w) => w.code)).toEqual(['checksum-mismatch']);
  });

  test('a bad end marker (variant A)', () => {
    const golden = files.find((f) => f.name === 'edgeA_xor_lzo_v12900_engine_layout.sav')!;
    const glob = golden.json.top_level_chunks[0]!;
    const bad = golden.bytes.slice();
    const at = glob.file_offset + 12 + glob.stored_length;
    expect(String.fromCharCode(...bad.subarray(at, at + 4))).toBe('GLOB');
    bad[at + 3] = 0x58; // GLOX
    const error = decodeError(resealed(bad));
    expect(error.message).toMatch(/expected end marker "GLOB", found "GLOX"/);
    expect(error.offset).toBe(at);
  });

  test('a chunk length past the end of the file', () => {
    const golden = files.find((f) => f.name === 'edgeD_classic_miniz_vEC_engine_layout.sav')!;
    const bad = golden.bytes.slice();
    bad.set(le32(0x7fffff00), 20);
    const error = decodeError(resealed(bad));
    expect(error.message).toMatch(/chunk Glob: length 2147483392 \(\+4 uncounted\) is more than the \d+ bytes left/);
    expect(error.path).toEqual(['chunks', 0]);
    expect(error.offset).toBe(20);
  });

  test('an orig_len of 2^32 − 1 is refused before anything is allocated', () => {
    for (const name of ['edgeA_xor_lzo_v12900_engine_layout.sav', 'edgeD_classic_miniz_vEC_engine_layout.sav']) {
      const bad = files.find((f) => f.name === name)!.bytes.slice();
      bad.set(le32(0xffffffff), 24);
      const error = decodeError(resealed(bad));
      expect(error.message).toMatch(/decoded length 4294967295 is over the limit/);
      expect(error.offset).toBe(24);
    }
  });

  test('an LZO stream that expands past orig_len, or claims more than LZO can reach', () => {
    const bomb = new Uint8Array(lzo.compress(Buffer.alloc(64 << 10))); // 64 KiB of zeros in a few hundred bytes
    const file = (orig: number, stored: Uint8Array) => writeStored(0x12901, [{ marker: 'Glob', stored, orig }]);
    const small = decodeError(file(4096, bomb));
    expect(small.message).toMatch(/lzo1x: .*(exceed|overrun)/);
    // 200 MiB from a few hundred bytes is impossible for LZO: refused without decompressing.
    expect(decodeError(file(200 << 20, bomb), { maxTotalOutput: 1 << 30 }).message).toMatch(
      /cannot decompress to 209715200/,
    );
    // With the default budget (64 MiB for a small file) the claim is refused before that, by the budget.
    expect(decodeError(file(200 << 20, bomb))).toMatchObject({ budget: 'output', code: 'budget-exceeded' });
    // And the caller's decode limit is honoured before that.
    expect(decodeError(file(8 << 20, bomb), { maxTransformOutput: 1 << 20 }).message).toMatch(
      /over the limit of 1048576/,
    );
  });

  test('a zlib stream that expands without bound stops at orig_len', () => {
    // 256 MiB of zeros in about 256 KiB, made a slice at a time.
    const parts: Uint8Array[] = [];
    const packer = new Zlib({ level: 9 }, (data) => parts.push(data));
    const zeros = new Uint8Array(1 << 20);
    for (let i = 0; i < 256; i++) packer.push(zeros, i === 255);
    const bomb = Uint8Array.from(Buffer.concat(parts));
    const bytes = writeStored(0x13506, [{ marker: 'Glob', stored: bomb, orig: 1 << 20 }]);
    const before = process.memoryUsage().arrayBuffers;
    const error = decodeError(bytes);
    expect(error.message).toMatch(/zlib: output passes the limit of 1048576 bytes/);
    expect(error.path).toEqual(['chunks', 0, 'body', 'value']);
    // Bounded by one input slice's expansion, far from the 256 MiB the stream would make.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(96 << 20);
  });

  test('a string marker other than AA / DE: the lump is kept as bytes, with the reason, where it is', () => {
    const vari = nested('Vari', [0xab, 4, 0, ...Buffer.from('GAME'), ...str('DOOM')]);
    const bytes = writeFile(0x13506, [{ marker: 'Glob', plain: Uint8Array.from(vari) }]);
    const result = decode(edgeSave, bytes);
    if (E.isLeft(result)) throw result.left;
    const [warning] = result.right.warnings;
    expect(warning?.code).toBe('lump-kept-raw');
    expect(warning?.message).toMatch(/invalid string: marker byte 0xab, expected 0xaa \(string\) or 0xde \(NULL\)/);
    expect(warning?.path).toEqual(['chunks', 0, 'body', 'value', { annotation: 'zlib' }, 0, 'body']);
    expect(warning?.offset).toBe(8);
    expect(Buffer.from(encodeOrThrow(edgeSave, result.right.value)).equals(bytes)).toBe(true);
  });

  test('a string marker other than AA / DE where a value must be read: a DecodeError at the field', () => {
    const sdef = [...le32(1), 0xab, 4, 0, ...Buffer.from('odd_'), ...str('oddt'), ...[1, 4, 1, 0, ...str('n')]];
    const plain = Uint8Array.from([...sdef, ...new Array((4 - (sdef.length % 4)) % 4).fill(0)]);
    const error = decodeError(writeFile(0x13506, [{ marker: 'Stru', plain }]));
    expect(error.message).toMatch(/invalid string: marker byte 0xab, expected 0xaa \(string\) or 0xde \(NULL\)/);
    expect(error.path).toEqual(['chunks', 0, 'body', 'value', { annotation: 'zlib' }, 'name']);
    expect(error.offset).toBe(4);
  });

  test('chunks nested 17 deep (the engine stops at 16); 16 deep is fine', () => {
    const chain = (levels: number) => {
      // s1 holds an s2, …, the last holds an int: Data's top-level chunk plus `levels` instance chunks.
      const defs = Array.from({ length: levels }, (_, i) =>
        structDef(
          `s${i + 1}_t`,
          `s${String(i + 1).padStart(3, '0')}`,
          i + 1 < levels ? [[4, 0, 'child', `s${i + 2}_t`]] : [[1, 4, 'v']],
        ),
      );
      let instance = nested(`s${String(levels).padStart(3, '0')}`, int(7));
      for (let i = levels - 1; i >= 1; i--) instance = nested(`s${String(i).padStart(3, '0')}`, instance);
      return writeFile(0x13506, [
        ...defs.map((d) => ({ marker: 'Stru', plain: Uint8Array.from(d) })),
        { marker: 'Arry', plain: Uint8Array.from(pad4([...int(1), ...str('chain'), ...str('s1_t')])) },
        { marker: 'Data', plain: Uint8Array.from(pad4([...str('chain'), ...instance])) },
      ]);
    };
    expect(E.isRight(decode(edgeSave, chain(15)))).toBe(true);
    const error = decodeError(chain(16));
    expect(error.message).toMatch(/chunks nested deeper than 16/);
    // A structural limit: its own code, which no raw fallback forgives.
    expect(error.code).toBe('too-deep');
    expect(error.path.slice(0, 3)).toEqual(['chunks', 17, 'body']);
  });

  test('an INDEX past the end of its array', () => {
    const defs = structDef('node_t', 'node', [[2, 4, 'next', 'nodes']]);
    const bytes = writeFile(0x13506, [
      { marker: 'Stru', plain: Uint8Array.from(defs) },
      { marker: 'Arry', plain: Uint8Array.from(pad4([...int(1), ...str('nodes'), ...str('node_t')])) },
      { marker: 'Data', plain: Uint8Array.from(pad4([...str('nodes'), ...nested('node', int(2))])) },
    ]);
    const error = decodeError(bytes);
    expect(error.message).toMatch(/INDEX 2 is past the end of nodes \(1 elements\)/);
    expect(error.path).toEqual(['chunks', 2, 'body', 'value', { annotation: 'zlib' }, 'elements', 0, 'next']);
  });

  test(`the conformance kit: ${defaultIterations()} mutated golden files and derived saves give only DecodeErrors`, () => {
    // Seeds: the golden files and saves derived from the codec (every variant, both layouts).
    const derived = fc
      .sample(arbitrary(edgeSave), { numRuns: 12, seed: 18 })
      .map((save) => encodeOrThrow(edgeSave, save));
    const report = fuzzSuite(format, { seeds: [...files.map((f) => f.bytes), ...derived] });
    expect(report.failures).toEqual([]);
  });
});
