// The safe decompressor on hand-made streams (every instruction form), on bad streams (every
// refusal with its offset), and under fuzzing: only LzoError, never another exception, a hang or
// an output beyond the limit.
import { hostileStream } from './hostile-streams';
import fc from 'fast-check';
import { defaultIterations, testBudget } from '@savekit/testkit';
import * as E from 'fp-ts/lib/Either';
import { BudgetError, bytes as bytesCodec, compression, decode, transform } from '@savekit/core';
import {
  compress,
  DEFAULT_MAX_OUTPUT_LENGTH,
  decompress,
  LzoError,
  lzo1x,
  MAX_EXPANSION,
  MAX_OUTPUT_LENGTH,
} from '../src/index';
import { chooseEngine, lastEngine } from '../src/wasm';
import { prng, randomBytes, records, repetitive, text } from './corpus';

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

// Every case runs through both decoders: WebAssembly (the fast path, which reruns the TypeScript
// decoder for the error on any stream it refuses) and TypeScript alone (the fallback).
describe.each(['wasm', 'typescript'] as const)('%s engine', (engine) => {
  beforeAll(() => chooseEngine(engine));
  afterAll(() => chooseEngine('auto'));

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

    test('an allocation the engine refuses is an LzoError, never a RangeError', () => {
      // The engine is made to refuse every byte array of 64 KiB or more (as when memory runs out):
      // the output, its growth, the trimmed copy and WebAssembly's copy out of its memory.
      const whileRefusing = <T>(run: () => T, refuseNew = true): T => {
        const original = globalThis.Uint8Array;
        const slice = original.prototype.slice;
        const refuse = (length: number) => {
          if (length >= 1 << 16) throw new RangeError('Array buffer allocation failed');
        };
        globalThis.Uint8Array = new Proxy(original, {
          construct(target, args, newTarget) {
            if (refuseNew && typeof args[0] === 'number') refuse(args[0]);
            return Reflect.construct(target, args, newTarget) as object;
          },
        });
        original.prototype.slice = function (this: Uint8Array, start?: number, end?: number) {
          refuse((end ?? this.length) - (start ?? 0));
          return slice.call(this, start, end);
        };
        try {
          return run();
        } finally {
          globalThis.Uint8Array = original;
          original.prototype.slice = slice;
        }
      };
      const plain = text(1 << 20, 11);
      const packed = compress(plain);
      for (const options of [{ outputLength: plain.length }, {}]) {
        const error = whileRefusing(() => refusal(packed, options));
        expect(error.reason).toBe('output-overrun');
        expect(error.message).toMatch(/cannot allocate an output of \d+ bytes: Array buffer allocation failed/);
      }
      // What fits is still decompressed under the same refusals.
      const small = text(1000, 12);
      expect(whileRefusing(() => decompress(compress(small)))).toEqual(small);
      // An output that was allocated but whose trimmed copy is refused is handed back as a view of it.
      const grown = whileRefusing(() => decompress(packed), false);
      expect(Buffer.from(grown).equals(Buffer.from(plain))).toBe(true);
      expect(grown.buffer.byteLength).toBeGreaterThan(grown.length);
    });

    test('outputs are arrays of their own: a later call changes none, and none is a view of a larger buffer', () => {
      const a = text(100_000, 13);
      const b = records(100_000, 14);
      const outputs = [decompress(compress(a), { outputLength: a.length }), decompress(compress(a))];
      const copies = outputs.map((out) => out.slice());
      decompress(compress(b), { outputLength: b.length });
      decompress(compress(b));
      for (const [i, out] of outputs.entries()) {
        expect(Buffer.from(out).equals(Buffer.from(copies[i]!))).toBe(true);
        expect(Buffer.from(out).equals(Buffer.from(a))).toBe(true);
        expect(out.byteOffset).toBe(0);
        expect(out.buffer.byteLength).toBe(out.length);
      }
    });
  });

  describe('declared output lengths (issue 17): checked before anything is allocated', () => {
    const hello = compress(ascii('hello hello hello hello'));

    /** The sizes of the outputs `run` allocates (`new Uint8Array(length)`); `instanceof` still works. */
    function allocations(run: () => unknown): number[] {
      const sizes: number[] = [];
      const original = globalThis.Uint8Array;
      globalThis.Uint8Array = new Proxy(original, {
        construct(target, args) {
          const made = Reflect.construct(target, args) as Uint8Array;
          sizes.push(made.byteLength);
          return made;
        },
      });
      try {
        run();
      } catch (error) {
        if (!(error instanceof LzoError)) throw error;
      } finally {
        globalThis.Uint8Array = original;
      }
      return sizes;
    }

    test('outputLength 4e9 with maxOutputLength 1024: output-overrun, nothing allocated', () => {
      const before = process.memoryUsage().arrayBuffers;
      const error = refusal(hello, { outputLength: 4e9, maxOutputLength: 1024 });
      expect(error).toBeInstanceOf(LzoError);
      expect(error.reason).toBe('output-overrun');
      expect(error.offset).toBe(0);
      // The old code reserved the 4 GB here (arrayBuffers grew by 4,000,000,000) before reading.
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    });

    test('outputLength of 2^32 and more: bad-argument (a typed error, never a RangeError), whatever the limit', () => {
      const large = new Uint8Array(20 << 20);
      for (const outputLength of [2 ** 32 + 4, 2 ** 32, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
        for (const maxOutputLength of [undefined, 1024, Number.MAX_SAFE_INTEGER]) {
          const error = refusal(hello, { outputLength, maxOutputLength });
          expect([error.reason, error.code, error.offset]).toEqual(['bad-argument', 'bad-argument', 0]);
          expect(error.message).toContain(`outputLength ${outputLength} is over ${MAX_OUTPUT_LENGTH}`);
        }
        // Also when the input is large enough to justify gigabytes: refused before allocating.
        expect(allocations(() => decompress(large, { outputLength }))).toEqual([]);
      }
      // The largest accepted length is still checked against the limit and what the input can reach.
      expect(refusal(hello, { outputLength: MAX_OUTPUT_LENGTH }).code).toBe('output-limit');
      const raised = refusal(hello, { outputLength: MAX_OUTPUT_LENGTH, maxOutputLength: Number.MAX_SAFE_INTEGER });
      expect(raised.reason).toBe('output-length-mismatch'); // over what 26 bytes can expand to
      expect(raised.message).toContain('cannot decompress to');
    });

    test("past maxOutputLength the error's code is 'output-limit' with the limit; other overruns keep their reason", () => {
      const big = compress(new Uint8Array(100_000).fill(7));
      // Growing past the limit, a declared length over it, and an extended length field over it.
      const grown = refusal(big, { maxOutputLength: 1000 });
      const declared = refusal(big, { outputLength: 100_000, maxOutputLength: 1000 });
      const bomb = Uint8Array.from([0x12, 0x61, 0x20, ...new Uint8Array(100), 0x01, 0x00, 0x00, ...EOF]);
      const field = refusal(bomb, { maxOutputLength: 1000 });
      for (const error of [grown, declared, field]) {
        expect([error.reason, error.code, error.limit]).toEqual(['output-overrun', 'output-limit', 1000]);
      }
      // Longer than a declared length is not a limit: no code 'output-limit', no limit.
      const exact = refusal(big, { outputLength: 99_999 });
      expect([exact.reason, exact.code, exact.limit]).toEqual(['output-overrun', 'output-overrun', undefined]);
      expect(refusal(big, { outputLength: 50, maxOutputLength: 1_000_000 }).code).toBe('output-overrun');
      expect(refusal(big.subarray(0, 10)).code).toBe('input-overrun');
    });

    test('through the core: a bomb under the per-layer limit but over the decode budget is a BudgetError', () => {
      const codec = transform(bytesCodec('rest'), compression(lzo1x));
      const plain = new Uint8Array(1 << 20).fill(1);
      const packed = compress(plain);
      const within = decode(codec, packed, { maxTotalOutput: 2 << 20 });
      expect(E.isRight(within) && within.right.value.length).toBe(1 << 20);
      const over = decode(codec, packed, { maxTotalOutput: 64 << 10, maxTransformOutput: 4 << 20 });
      if (E.isRight(over)) throw new Error('expected a refusal');
      expect(over.left).toBeInstanceOf(BudgetError);
      expect((over.left as BudgetError).budget).toBe('output');
      // The per-layer limit binding is an ordinary DecodeError naming the layer.
      const layer = decode(codec, packed, { maxTransformOutput: 64 << 10 });
      if (E.isRight(layer)) throw new Error('expected a refusal');
      expect(layer.left).not.toBeInstanceOf(BudgetError);
      expect(layer.left.message).toMatch(/^lzo1x: output would exceed the limit of 65536 bytes/);
      // Any limit the core computes is accepted by the pair (no bad-argument for Infinity or a fraction).
      // (Compared as Buffers: jest's deep equality walks a megabyte slowly.)
      const same = (out: Uint8Array) => Buffer.from(out).equals(Buffer.from(plain));
      expect(same(lzo1x.decompress(packed, Number.POSITIVE_INFINITY))).toBe(true);
      expect(same(lzo1x.decompress(packed, (1 << 20) + 0.5))).toBe(true);
    });

    test('a length within the limit but beyond what the input can expand to is refused before allocating', () => {
      const claim = hello.length * MAX_EXPANSION + 1;
      expect(refusal(hello, { outputLength: claim }).reason).toBe('output-length-mismatch');
      expect(allocations(() => decompress(hello, { outputLength: claim }))).toEqual([]);
      // One byte less is allowed to allocate (the input could justify it) and fails at the end instead.
      expect(refusal(hello, { outputLength: claim - 1 }).reason).toBe('output-length-mismatch');
    });

    test('outputLength and maxOutputLength that are not lengths: bad-argument', () => {
      const notLengths: unknown[] = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0.5, 2 ** 53, '23', null, {}, 23n];
      for (const value of notLengths) {
        expect(refusal(hello, { outputLength: value as number }).reason).toBe('bad-argument');
        expect(refusal(hello, { maxOutputLength: value as number }).reason).toBe('bad-argument');
      }
      // A value whose toString throws is described without calling it.
      const hostile = {
        toString: () => {
          throw new Error('no');
        },
      };
      expect(refusal(hello, { outputLength: hostile as unknown as number }).message).toContain('an object');
      // No options at all, as a JavaScript caller may pass them.
      expect(decompress(hello, null as unknown as undefined)).toEqual(ascii('hello hello hello hello'));
    });

    test('the expansion bound is reached by real streams, and never exceeded', () => {
      // One literal, then an M3 match at distance 1 whose length runs over k zero bytes:
      // 1 + 255k + 288 bytes out of k + 9 bytes in — the most any LZO1X stream expands.
      const k = testBudget({ quick: 20_000, heavy: 1_000_000 });
      const stream = Uint8Array.from([0x12, 0x61, 0x20, ...new Uint8Array(k), 0xff, 0x00, 0x00, ...EOF]);
      const expected = 1 + 255 * k + 288;
      expect(expected).toBeLessThanOrEqual(stream.length * MAX_EXPANSION);
      expect(expected / stream.length).toBeGreaterThan(MAX_EXPANSION - 1);
      const out = decompress(stream, { outputLength: expected });
      expect(out.length).toBe(expected);
      expect(out.every((b) => b === 0x61)).toBe(true);
      // The growing path: no step allocates beyond what the stream can expand to (doubling alone
      // would reach 2^23 or more here), whatever the limit.
      const reachable = stream.length * MAX_EXPANSION;
      for (const maxOutputLength of [undefined, 2 ** 40]) {
        expect(decompress(stream, { maxOutputLength }).length).toBe(expected);
        const sizes = allocations(() => decompress(stream, { maxOutputLength }));
        if (engine === 'typescript') expect(Math.max(...sizes)).toBeLessThanOrEqual(reachable);
        else {
          // The WebAssembly decoder's working memory holds the input and the output together (the
          // output within the same bound), in 64 KiB pages; the instance kept between calls holds
          // at most 16 MiB. Only the output is handed back. (A view per attempt: the memory grows
          // while the output does not fit.)
          const memory = Math.max(16 << 20, stream.length + reachable + 65536 + 64);
          expect(Math.max(...sizes)).toBeLessThanOrEqual(memory);
        }
      }
      // And every real compressor output of highly compressible data stays under it.
      const zeros = compress(new Uint8Array(1 << 20));
      expect(zeros.length * MAX_EXPANSION).toBeGreaterThanOrEqual(1 << 20);
    });

    test('property: any (outputLength, maxOutputLength) gives the output or an LzoError, never another error', () => {
      const lengthLike = fc.oneof(
        fc.constant(undefined),
        fc.nat({ max: 4096 }),
        fc.integer(),
        fc.constantFrom(2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 4, 2 ** 40, Number.MAX_SAFE_INTEGER, 2 ** 53, 4e9),
        fc.constantFrom(DEFAULT_MAX_OUTPUT_LENGTH, DEFAULT_MAX_OUTPUT_LENGTH + 1),
        fc.double(),
        fc.constantFrom<unknown>(null, '16', true, {}, [], 1n),
      );
      const streams = fc.oneof(
        fc.uint8Array({ maxLength: 600 }).map((plain) => ({ stream: compress(plain), plain })),
        fc.uint8Array({ maxLength: 64 }).map((stream) => ({ stream, plain: undefined })),
      );
      fc.assert(
        fc.property(streams, lengthLike, lengthLike, ({ stream, plain }, outputLength, maxOutputLength) => {
          const options = { outputLength, maxOutputLength } as Parameters<typeof decompress>[1];
          let out: Uint8Array;
          try {
            out = decompress(stream, options);
          } catch (error) {
            if (!(error instanceof LzoError)) throw error;
            return;
          }
          // Accepted: only with lengths that are lengths, and the output keeps to them.
          expect(outputLength === undefined || out.length === outputLength).toBe(true);
          expect(out.length).toBeLessThanOrEqual((maxOutputLength as number | undefined) ?? DEFAULT_MAX_OUTPUT_LENGTH);
          if (plain !== undefined) expect(out).toEqual(plain);
        }),
        { numRuns: testBudget({ quick: 2000, heavy: 20_000 }) },
      );
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
        const stream = hostileStream(i, seeds, next);
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

  test('the decoder chosen is the one that ran', () => {
    expect(decompress(compress(text(5000, 3)))).toEqual(text(5000, 3));
    expect(lastEngine()).toBe(engine);
  });
});
