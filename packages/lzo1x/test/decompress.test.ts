// The safe decompressor on hand-made streams (every instruction form), on bad streams (every
// refusal with its offset), and under fuzzing: only LzoError, never another exception, a hang or
// an output beyond the limit.
import fc from 'fast-check';
import { defaultIterations } from '@savekit/testkit';
import { compress, decompress, LzoError, lzo1x } from '../src/index';
import { prng, randomBytes, repetitive, text } from './corpus';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (s: string) => new TextEncoder().encode(s);
const EOF = [0x11, 0x00, 0x00];

function refusal(stream: Uint8Array, options?: Parameters<typeof decompress>[1]): LzoError {
  try {
    decompress(stream, options);
  } catch (error) {
    if (error instanceof LzoError) return error;
    throw error;
  }
  throw new Error('expected an LzoError');
}

describe('instruction forms', () => {
  test('empty input compresses to the end marker alone', () => {
    expect(compress(new Uint8Array(0))).toEqual(bytes(...EOF));
    expect(decompress(bytes(...EOF))).toEqual(new Uint8Array(0));
  });

  test('first-byte literals followed directly by a 2-byte match (1–3 literals)', () => {
    // 0x13: two literals "ab"; then 0x04 0x00: 2-byte match at distance 2; then the end marker.
    expect(decompress(bytes(0x13, 0x61, 0x62, 0x04, 0x00, ...EOF))).toEqual(ascii('abab'));
  });

  test('a 3-byte match at 2049+ after a literal run of four or more', () => {
    const literals = randomBytes(2052, 1);
    // Literal run of 2052: 0x00, (2052 - 18) = 2034 = 7 × 255 + 249 → seven zeros, 249.
    const stream = [0x00, 0, 0, 0, 0, 0, 0, 0, 249, ...literals, 0x00, 0x00, ...EOF];
    const out = decompress(Uint8Array.from(stream));
    expect(out.length).toBe(2055);
    expect(out.subarray(2052)).toEqual(literals.subarray(3, 6));
  });

  test('M2, M3 and M4 matches, extended lengths and trailing literals in the state bits', () => {
    const input = new Uint8Array([
      ...ascii('abcdefgh'.repeat(40)),
      ...randomBytes(20000, 2),
      ...ascii('abcdefgh'.repeat(40)),
    ]);
    expect(decompress(compress(input))).toEqual(input);
    expect(decompress(compress(new Uint8Array(100_000)))).toEqual(new Uint8Array(100_000));
  });

  test('lzo1x works as a @savekit/core compressor pair', () => {
    const input = text(5000, 3);
    expect(lzo1x.decompress(lzo1x.compress(input), 1 << 20)).toEqual(input);
    expect(() => lzo1x.decompress(lzo1x.compress(input), 100)).toThrow(LzoError);
  });
});

describe('refusals', () => {
  const valid = compress(text(3000, 4));

  test('truncated at every byte: input overrun, never anything else', () => {
    for (let cut = 0; cut < valid.length; cut++) {
      const error = refusal(valid.subarray(0, cut));
      expect(error.reason).toBe('input-overrun');
      expect(error.offset).toBeLessThanOrEqual(cut);
    }
  });

  test('a match reaching before the start of the output', () => {
    // One literal "a", then a 2-byte match at distance 1 + 1 + (1 << 2) = 6.
    const error = refusal(bytes(0x12, 0x61, 0x04, 0x01, ...EOF));
    expect(error.reason).toBe('lookbehind-overrun');
    expect(error.offset).toBe(2);
  });

  test('bytes after the end marker', () => {
    expect(refusal(bytes(...EOF, 0x00)).reason).toBe('input-not-consumed');
  });

  test('an exact output length that does not match, and a limit that is exceeded', () => {
    expect(refusal(valid, { outputLength: 2999 }).reason).toBe('output-overrun');
    expect(refusal(valid, { outputLength: 3001 }).reason).toBe('output-length-mismatch');
    expect(refusal(valid, { maxOutputLength: 1000 }).reason).toBe('output-overrun');
  });

  test('a stream that claims gigabytes stops at the limit without allocating them', () => {
    // A 2-byte match repeated: an M4 of extended length 255 × 1,000,000 zeros would be 255 MB.
    const zeros = new Uint8Array(1_000_000);
    const bomb = Uint8Array.from([0x12, 0x61, 0x10, ...zeros, 0x01, 0x04, 0x00, ...EOF]);
    const before = process.memoryUsage().arrayBuffers;
    const error = refusal(bomb, { maxOutputLength: 1 << 20 });
    expect(error.reason).toBe('output-overrun');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 << 20);
  });

  test('bad arguments', () => {
    expect(refusal(valid, { maxOutputLength: -1 }).reason).toBe('bad-argument');
    expect(refusal('nope' as unknown as Uint8Array).reason).toBe('bad-argument');
  });
});

describe('fuzz', () => {
  const iterations = defaultIterations();
  const limit = 1 << 18;

  test(`${iterations} random and mutated streams give output or an LzoError, nothing else`, () => {
    const seeds = [text(2000, 5), repetitive(3000, 6), randomBytes(500, 7), new Uint8Array(1000), text(8000, 8)].map(
      compress,
    );
    const next = prng(42);
    const counts = { ok: 0, refused: 0 };
    for (let i = 0; i < iterations; i++) {
      let stream: Uint8Array;
      if (i % 4 === 0) {
        stream = randomBytes(1 + ((next() * 200) | 0), i);
      } else {
        stream = seeds[i % seeds.length]!.slice();
        const edits = 1 + ((next() * 4) | 0);
        for (let e = 0; e < edits; e++) {
          const at = (next() * stream.length) | 0;
          const kind = next();
          if (kind < 0.6) stream[at] = (next() * 256) | 0;
          else if (kind < 0.8) stream = stream.subarray(0, at);
          else {
            const grown = new Uint8Array(stream.length + 1);
            grown.set(stream.subarray(0, at));
            grown[at] = (next() * 256) | 0;
            grown.set(stream.subarray(at), at + 1);
            stream = grown;
          }
        }
      }
      try {
        const out = decompress(stream, { maxOutputLength: limit });
        expect(out.length).toBeLessThanOrEqual(limit);
        counts.ok++;
      } catch (error) {
        if (!(error instanceof LzoError)) throw new Error(`iteration ${i}: ${String(error)}`);
        counts.refused++;
      }
    }
    expect(counts.ok + counts.refused).toBe(iterations);
    expect(counts.refused).toBeGreaterThan(0);
  });

  test('property: compress then decompress is the identity', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 5000 }),
          fc.array(fc.constantFrom(0, 1, 2, 255), { maxLength: 5000 }).map((a) => Uint8Array.from(a)),
        ),
        (input) => {
          expect(decompress(compress(input), { outputLength: input.length })).toEqual(input);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
