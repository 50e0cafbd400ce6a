// The WebAssembly decoder against the TypeScript one: the same bytes or the same error on every
// stream, its memory, and the automatic fallback when WebAssembly is missing or refused (a page
// whose Content Security Policy lacks 'wasm-unsafe-eval' refuses to compile it).
import { hostileStream } from './hostile-streams';
import { defaultIterations } from '@savekit/testkit';
import { compress, decompress, LzoError } from '../src/index';
import { chooseEngine, lastEngine } from '../src/wasm';
import { wasmModuleBytes } from '../src/wasm-module';
import { prng, randomBytes, records, repetitive, text } from './corpus';

type Outcome = { bytes: Uint8Array } | { reason: string; code: string; offset: number; message: string };

/** What `decompress` gives with one decoder: the output, or the error's every field. */
function outcome(
  decoder: 'wasm' | 'typescript',
  stream: Uint8Array,
  options?: Parameters<typeof decompress>[1],
): Outcome {
  chooseEngine(decoder);
  try {
    return { bytes: decompress(stream, options) };
  } catch (error) {
    if (!(error instanceof LzoError)) throw error;
    return { reason: error.reason, code: error.code, offset: error.offset, message: error.message };
  } finally {
    chooseEngine('auto');
  }
}

/** Asserts two outcomes are the same (bytes compared as buffers: jest's deep equality is slow on them). */
function expectSame(fast: Outcome, slow: Outcome): void {
  if ('bytes' in fast && 'bytes' in slow) expect(Buffer.compare(fast.bytes, slow.bytes)).toBe(0);
  else expect(fast).toEqual(slow);
}

/** Asserts `actual` holds the bytes of `expected`. */
function expectBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length);
  expect(Buffer.compare(actual, expected)).toBe(0);
}

test('the module is small enough for synchronous compilation on a browser main thread (4 KB)', () => {
  const bytes = wasmModuleBytes();
  expect(bytes.length).toBeLessThan(4096);
  expect(WebAssembly.validate(bytes)).toBe(true);
});

test('WebAssembly is what runs by default here, and it decodes every kind of data', () => {
  const incompressible = randomBytes(100_000, 4);
  for (const input of [text(100_000, 1), records(100_000, 2), repetitive(100_000, 3), incompressible]) {
    expectBytes(decompress(compress(input), { outputLength: input.length }), input);
    // Except for incompressible data with its length declared: long literal runs, copied directly.
    expect(lastEngine()).toBe(input === incompressible ? 'typescript' : 'wasm');
    // Without a declared length the output grows (each time from the start) until it fits.
    expectBytes(decompress(compress(input)), input);
    expect(lastEngine()).toBe('wasm');
  }
  expectBytes(decompress(compress(new Uint8Array(1 << 20))), new Uint8Array(1 << 20));
  expect(lastEngine()).toBe('wasm');
});

test('compress: incompressible input past its first block goes to TypeScript, for the same bytes', () => {
  const compressed = (engine: 'auto' | 'wasm' | 'typescript', input: Uint8Array) => {
    chooseEngine(engine);
    try {
      return { bytes: compress(input), engine: lastEngine() };
    } finally {
      chooseEngine('auto');
    }
  };
  const noise = randomBytes(200_000, 12);
  const auto = compressed('auto', noise);
  expect(auto.engine).toBe('typescript');
  expectBytes(auto.bytes, compressed('wasm', noise).bytes);
  expectBytes(auto.bytes, compressed('typescript', noise).bytes);
  // Less than two blocks of noise, or compressible data: WebAssembly throughout.
  expect(compressed('auto', randomBytes(90_000, 13)).engine).toBe('wasm');
  expect(compressed('auto', records(200_000, 14)).engine).toBe('wasm');
  // Noise after a compressible first block does not switch.
  const mixed = new Uint8Array(200_000);
  mixed.set(randomBytes(150_000, 15), 50_000);
  const fromMixed = compressed('auto', mixed);
  expect(fromMixed.engine).toBe('wasm');
  expectBytes(fromMixed.bytes, compressed('typescript', mixed).bytes);
});

test('an output over the kept instance (16 MiB) decodes in an instance of its own', () => {
  const input = repetitive(20 << 20, 5);
  const packed = compress(input);
  chooseEngine('wasm');
  try {
    expectBytes(decompress(packed, { outputLength: input.length }), input);
    expect(lastEngine()).toBe('wasm');
    // And the kept instance still works after it.
    expect(decompress(compress(text(3000, 6)))).toEqual(text(3000, 6));
  } finally {
    chooseEngine('auto');
  }
});

test('inputs that are views into a larger buffer', () => {
  const packed = compress(text(10_000, 7));
  const padded = new Uint8Array(packed.length + 100).fill(0xee);
  padded.set(packed, 37);
  const view = padded.subarray(37, 37 + packed.length);
  expectSame(outcome('wasm', view), outcome('typescript', view));
  expectSame(outcome('wasm', view), { bytes: text(10_000, 7) });
});

test('after a first literal run, an opcode under 16 is a 2-byte match (1–3 literals) or a 3-byte one at 2049+ (4 or more)', () => {
  const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
  // 2 literals "ab", then a 2-byte match at distance 1, then the end marker: "abbb".
  const short = hex('1361620000110000');
  expectSame(outcome('wasm', short), { bytes: Uint8Array.of(0x61, 0x62, 0x62, 0x62) });
  expectSame(outcome('wasm', short), outcome('typescript', short));
  // 26 literals, then a match 2049 back: before the output's start, refused by both (found by the
  // heavy differential run, where WebAssembly had the two cases swapped).
  const far = hex('2b000000000020000000b210000c000000000000000000000000000000110000');
  expectSame(outcome('wasm', far), outcome('typescript', far));
  expect('bytes' in outcome('wasm', far)).toBe(false);
});

describe('differential: the same bytes or the same error as the TypeScript decoder', () => {
  const iterations = defaultIterations();
  const seeds = [text(2000, 5), records(3000, 9), repetitive(3000, 6), randomBytes(500, 7), new Uint8Array(1000)].map(
    compress,
  );

  const hostile = (i: number, next: () => number) => hostileStream(i, seeds, next);

  test.each([
    ['no options', () => undefined],
    ['a small limit (the output grows, then stops)', () => ({ maxOutputLength: 3000 })],
    ['a declared length', (plain: number) => ({ outputLength: plain })],
  ] as const)(`${iterations} hostile streams, %s`, (_name, options) => {
    const next = prng(99);
    const counts = { same: 0, decoded: 0, refused: 0 };
    for (let i = 0; i < iterations; i++) {
      const stream = hostile(i, next);
      // The declared length: the seed's, or a length near it.
      const opts = options(i % 3 === 0 ? 2000 : i % 3 === 1 ? 3000 : (next() * 4000) | 0);
      const fast = outcome('wasm', stream, opts);
      const slow = outcome('typescript', stream, opts);
      if ('bytes' in fast) counts.decoded++;
      else counts.refused++;
      expectSame(fast, slow);
      counts.same++;
    }
    expect(counts.same).toBe(iterations);
    expect(counts.refused).toBeGreaterThan(0);
    expect(counts.decoded).toBeGreaterThan(0);
  });

  test('every truncation of real streams', () => {
    for (const seed of seeds) {
      for (let at = 0; at <= seed.length; at += Math.max(1, seed.length >> 8)) {
        const cut = seed.subarray(0, at);
        expectSame(outcome('wasm', cut), outcome('typescript', cut));
      }
    }
  });
});

describe('the fallback to TypeScript is automatic', () => {
  /**
   * `@savekit/lzo1x` loaded afresh (its WebAssembly not yet compiled) while `setup` is in force,
   * decoding 200 KB (more than the module's first 64 KiB page of memory).
   */
  function freshWith(setup: () => () => void): { decoded: Uint8Array; decoder: string; error: unknown } {
    const restore = setup();
    try {
      let result: { decoded: Uint8Array; decoder: string; error: unknown } | undefined;
      jest.isolateModules(() => {
        const lzo = require('../src/index') as typeof import('../src/index');
        const engine = require('../src/wasm') as typeof import('../src/wasm');
        const decoded = lzo.decompress(lzo.compress(text(200_000, 11)));
        let error: unknown;
        try {
          lzo.decompress(Uint8Array.from([0x11, 0x00]));
        } catch (caught) {
          error = caught;
        }
        result = { decoded, decoder: engine.lastEngine(), error };
      });
      return result!;
    } finally {
      restore();
    }
  }

  const replace = <K extends keyof typeof WebAssembly>(key: K, value: unknown) => {
    const original = WebAssembly[key];
    Object.defineProperty(WebAssembly, key, { value, configurable: true, writable: true });
    return () => Object.defineProperty(WebAssembly, key, { value: original, configurable: true, writable: true });
  };

  test.each([
    [
      'compilation refused, as under a CSP without wasm-unsafe-eval',
      () =>
        replace('Module', function refused() {
          throw new WebAssembly.CompileError('WebAssembly.Module(): Wasm code generation disallowed by embedder');
        }),
    ],
    [
      'no WebAssembly at all',
      () => {
        const original = globalThis.WebAssembly;
        Object.defineProperty(globalThis, 'WebAssembly', { value: undefined, configurable: true, writable: true });
        return () =>
          Object.defineProperty(globalThis, 'WebAssembly', { value: original, configurable: true, writable: true });
      },
    ],
    [
      'instantiation refused',
      () =>
        replace('Instance', function refused() {
          throw new RangeError('WebAssembly.Instance(): Out of memory');
        }),
    ],
  ] as const)('%s', (_name, setup) => {
    const { decoded, decoder, error } = freshWith(setup);
    expectBytes(decoded, text(200_000, 11));
    expect(decoder).toBe('typescript');
    // The errors are the TypeScript decoder's, as always (a fresh module has its own LzoError class).
    expect(error).toMatchObject({ name: 'LzoError', reason: 'input-overrun', offset: 1 });
  });

  test('memory that will not grow: the TypeScript decoder runs, with the same result', () => {
    const grow = WebAssembly.Memory.prototype.grow;
    WebAssembly.Memory.prototype.grow = () => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    };
    try {
      const { decoded, decoder } = freshWith(() => () => {});
      expectBytes(decoded, text(200_000, 11));
      expect(decoder).toBe('typescript');
    } finally {
      WebAssembly.Memory.prototype.grow = grow;
    }
  });
});
