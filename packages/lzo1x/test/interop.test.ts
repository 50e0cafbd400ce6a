// Our LZO1X against liblzo 2.09 (the native `lzo` package): both directions, the same bytes, and
// the EDGE golden files written by miniLZO 1.06.
import * as native from 'lzo';
import { compress, compressBound, decompress, LzoError } from '../src/index';
import { chooseEngine } from '../src/wasm';
import { edgeChunks, edgeCorpus, interopCorpus, prng, randomBytes, records, text } from './corpus';

const corpus = interopCorpus();
const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
// jest's deep equality walks arrays element by element: far too slow for megabytes.
const same = (a: Uint8Array, b: Uint8Array | undefined) =>
  b !== undefined && Buffer.compare(asBuffer(a), asBuffer(b)) === 0;

// Every case runs through both engines: WebAssembly (compress and decompress), and TypeScript alone (the fallback).
describe.each(['wasm', 'typescript'] as const)('%s engine', (engine) => {
  beforeAll(() => chooseEngine(engine));
  afterAll(() => chooseEngine('auto'));

  test('the corpus has at least 200 inputs, up to 4 MiB', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(Math.max(...corpus.map(([, b]) => b.length))).toBe(4 << 20);
  });

  describe.each(corpus.map(([name, bytes]) => [name, bytes] as const))('%s', (_name, input) => {
    test('native-compressed → our decompress gives the original', () => {
      const packed = new Uint8Array(native.compress(asBuffer(input)));
      expect(same(decompress(packed, { outputLength: input.length }), input)).toBe(true);
      expect(same(decompress(packed), input)).toBe(true);
    });

    test("our compress → native decompress gives the original, and our bytes are liblzo's", () => {
      const ours = compress(input);
      expect(ours.length).toBeLessThanOrEqual(compressBound(input.length));
      if (input.length > 0) expect(same(native.decompress(asBuffer(ours), input.length), input)).toBe(true);
      // Stronger than the 2% the issue asks: the compressor follows liblzo 2.09 byte for byte.
      expect(Buffer.compare(asBuffer(ours), native.compress(asBuffer(input)))).toBe(0);
    });
  });

  test('compressed sizes on text and repetitive inputs are within 2% of native', () => {
    let ours = 0;
    let theirs = 0;
    for (const [name, input] of corpus) {
      if (!/^(text|repetitive)/.test(name)) continue;
      ours += compress(input).length;
      theirs += native.compress(asBuffer(input)).length;
    }
    expect(Math.abs(ours - theirs) / theirs).toBeLessThanOrEqual(0.02);
  });

  test('compress reuses a buffer between calls: earlier results stay intact, and none exposes another call', () => {
    // 4 MiB of noise fills the kept buffer at its largest: it is handed over, and the next call
    // starts a fresh one (whatever the tests before left). Through WebAssembly every result is a
    // copy out of the instance's memory, of its exact size.
    const big = randomBytes(4 << 20, 8);
    const packedBig = compress(big);
    expect(packedBig.buffer.byteLength).toBe(engine === 'wasm' ? packedBig.length : compressBound(big.length));
    expect(same(native.decompress(asBuffer(packedBig), big.length), big)).toBe(true);
    const a = records(100_000, 5);
    const b = text(100_000, 6);
    const packedA = compress(a);
    const copyA = packedA.slice();
    const packedB = compress(b);
    // The second call built its output where the first did: the first result is a copy of its own.
    expect(same(packedA, copyA)).toBe(true);
    expect(packedA.buffer.byteLength).toBe(packedA.length);
    expect(same(native.decompress(asBuffer(packedB), b.length), b)).toBe(true);
    // Incompressible input is handed back as a view of the buffer it was built in: past its end that
    // buffer holds zeros, nothing of the calls before.
    const noise = randomBytes(100_000, 7);
    const packedNoise = compress(noise);
    if (engine === 'wasm') expect(packedNoise.buffer.byteLength).toBe(packedNoise.length);
    else expect(packedNoise.buffer.byteLength).toBeGreaterThan(packedNoise.length);
    expect(new Uint8Array(packedNoise.buffer, packedNoise.byteOffset + packedNoise.length).every((x) => x === 0)).toBe(
      true,
    );
    expect(same(native.decompress(asBuffer(packedNoise), noise.length), noise)).toBe(true);
    expect(same(compress(a), copyA)).toBe(true);
  });

  test('damaged streams: our decompressor and liblzo agree on every one (the same bytes, or both refuse)', () => {
    // The fast path (no bounds checks of its own far from either end) and the checked path must give
    // liblzo's result on any stream, valid or not, and wherever it stops.
    const limit = 1 << 16;
    const seeds = [records(20_000, 1), records(3000, 2), text(20_000, 3), randomBytes(600, 4)].map(compress);
    const next = prng(99);
    const counts = { same: 0, refused: 0 };
    for (let i = 0; i < 3000; i++) {
      const stream = seeds[i % seeds.length]!.slice();
      const edits = 1 + ((next() * 3) | 0);
      for (let e = 0; e < edits; e++) stream[(next() * stream.length) | 0] = (next() * 256) | 0;
      const cut = next() < 0.3 ? stream.subarray(0, (next() * stream.length) | 0) : stream;
      let theirs: Uint8Array | undefined;
      try {
        theirs = new Uint8Array(native.decompress(asBuffer(cut), limit));
      } catch {
        theirs = undefined;
      }
      let ours: Uint8Array | undefined;
      try {
        ours = decompress(cut, { maxOutputLength: limit });
      } catch (error) {
        if (!(error instanceof LzoError)) throw error;
        ours = undefined;
      }
      if (theirs === undefined) {
        expect(ours).toBeUndefined();
        counts.refused++;
      } else {
        expect(same(theirs, ours)).toBe(true);
        counts.same++;
      }
    }
    expect(counts.refused).toBeGreaterThan(100);
    expect(counts.same).toBeGreaterThan(100);
  });

  const edge = edgeChunks().filter((c) => c.storedForm.startsWith('lzo1x_1'));
  const describeEdge =
    edgeCorpus.warnIfAbsent('LZO tests on the EDGE golden files') && edge.length > 0 ? describe : describe.skip;

  describeEdge('EDGE variant A golden files (miniLZO 1.06)', () => {
    test.each(edge.map((c) => [`${c.file} ${c.marker}`, c] as const))(
      '%s: stored bytes decompress to the XOR-ed payload',
      (_name, chunk) => {
        const unpacked = decompress(chunk.stored, { outputLength: chunk.origLength });
        expect(unpacked).toEqual(chunk.xored);
        // Undo the XOR with "EDGE!" and the payload the JSON gives comes out.
        const key = new TextEncoder().encode('EDGE!');
        expect(unpacked.map((b, i) => b ^ key[i % 5]!)).toEqual(chunk.plain);
        // And our compressor's output for the same payload reads back the same.
        expect(decompress(compress(unpacked), { outputLength: chunk.origLength })).toEqual(unpacked);
      },
    );
  });
});
