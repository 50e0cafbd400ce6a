// inflateBounded through Node's zlib (streams of a recorded length of 64 KiB or more) decides exactly
// as the sliced fflate path does, which runs alone where there is no zlib: the same bytes, the same
// error (class and message), for valid streams of every wrapper and for every way a stream can be wrong.
import fc from 'fast-check';
import { deflateSync, gzipSync, zlibSync } from 'fflate';
import { OutputLimitError } from '../src/budget';
import { type DeflateWrapper, inflateBounded, type InflateLimits, inflateMatches } from '../src/inflate';

type Outcome = { bytes: string } | { error: string; message: string };

/** Bytes as text: compared whole at once (an array of 200,000 numbers is slow to compare). */
const text = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');

function outcome(data: Uint8Array, wrapper: DeflateWrapper, limits: InflateLimits): Outcome {
  try {
    const out = inflateBounded(data, wrapper, limits);
    // A plain Uint8Array, whichever path made it.
    expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
    return { bytes: text(out) };
  } catch (error) {
    const e = error as Error;
    return { error: e instanceof OutputLimitError ? 'OutputLimitError' : e.constructor.name, message: e.message };
  }
}

/** The outcome with Node's zlib out of reach (as in a browser): the sliced path alone. */
function withoutNative<T>(run: () => T): T {
  const saved = (globalThis as { process?: unknown }).process;
  Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
  try {
    return run();
  } finally {
    Object.defineProperty(globalThis, 'process', { value: saved, configurable: true, writable: true });
  }
}

function sameBothWays(data: Uint8Array, wrapper: DeflateWrapper, limits: InflateLimits): Outcome {
  const native = outcome(data, wrapper, limits);
  expect(native).toEqual(withoutNative(() => outcome(data, wrapper, limits)));
  return native;
}

/** Save-like bytes: runs, repeats and noise, so every kind of DEFLATE block shows up. */
function plainOf(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (i >> 7) % 3 === 0 ? s >>> 24 : (i * 7 + (i >> 9)) & 0xff;
  }
  return out;
}

const plain = plainOf(200_000, 5);
const packed: Record<DeflateWrapper, Uint8Array> = {
  zlib: zlibSync(plain),
  gzip: gzipSync(plain),
  raw: deflateSync(plain),
};
const exact = { maxOutput: plain.length, expected: plain.length };

test.each(['zlib', 'gzip', 'raw'] as const)('a valid %s stream inflates to the same bytes both ways', (wrapper) => {
  expect(sameBothWays(packed[wrapper], wrapper, exact)).toEqual({ bytes: text(plain) });
  // The native path did run: its output lies in zlib's buffer of one byte more (the spare one zeroed).
  const out = inflateBounded(packed[wrapper], wrapper, exact);
  expect(out.buffer.byteLength).toBe(plain.length + 1);
  expect(new Uint8Array(out.buffer)[plain.length]).toBe(0);
  expect(withoutNative(() => inflateBounded(packed[wrapper], wrapper, exact).buffer.byteLength)).toBe(plain.length);
});

test('every way a stream is wrong gives the same error (or the same acceptance) both ways', () => {
  const z = packed.zlib;
  const badAdler = z.slice();
  badAdler[badAdler.length - 1]! ^= 1;
  const badCrc = packed.gzip.slice();
  badCrc[badCrc.length - 5]! ^= 1;
  const badBlock = z.slice();
  badBlock[2]! |= 0x06; // block type 3: reserved
  const cases: Array<[string, Uint8Array, DeflateWrapper, InflateLimits]> = [
    ['bytes after the end', Uint8Array.from([...z, 1, 2, 3]), 'zlib', exact],
    ['a wrong Adler-32 (not checked by the sliced path)', badAdler, 'zlib', exact],
    ['a wrong CRC-32', badCrc, 'gzip', exact],
    ['a reserved block type', badBlock, 'zlib', exact],
    ['truncated', z.subarray(0, z.length - 40), 'zlib', exact],
    ['one byte less recorded', z, 'zlib', { maxOutput: plain.length - 1, expected: plain.length - 1 }],
    ['one byte more recorded', z, 'zlib', { maxOutput: plain.length + 1, expected: plain.length + 1 }],
    ['two gzip members', Uint8Array.from([...packed.gzip, ...packed.gzip]), 'gzip', { maxOutput: 4e5, expected: 4e5 }],
    ['a gzip member and zeros', Uint8Array.from([...packed.gzip, 0, 0, 0, 0]), 'gzip', exact],
    ['the wrong wrapper', packed.raw, 'zlib', exact],
  ];
  for (const [name, data, wrapper, limits] of cases) {
    const native = outcome(data, wrapper, limits);
    expect({ name, outcome: native }).toEqual({ name, outcome: withoutNative(() => outcome(data, wrapper, limits)) });
  }
});

test('a bomb stops at the recorded length both ways, with the sliced path’s error', () => {
  const bomb = zlibSync(new Uint8Array(32 << 20));
  const limits = { maxOutput: 100_000, expected: 100_000 };
  const native = sameBothWays(bomb, 'zlib', limits);
  expect(native).toEqual({ error: 'OutputLimitError', message: new OutputLimitError(100_000).message });
});

test('random save-like streams and corruptions of them: the same outcome both ways', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 64 * 1024, max: 90_000 }),
      fc.integer({ min: 1, max: 2 ** 31 }),
      fc.constantFrom<DeflateWrapper>('zlib', 'gzip', 'raw'),
      fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { nil: undefined }),
      (length, seed, wrapper, flip) => {
        const bytes = plainOf(length, seed);
        const data = (wrapper === 'zlib' ? zlibSync : wrapper === 'gzip' ? gzipSync : deflateSync)(bytes);
        if (flip !== undefined) data[flip[0] % data.length]! ^= flip[1];
        const result = sameBothWays(data, wrapper, { maxOutput: length, expected: length });
        if (flip === undefined) expect(result).toEqual({ bytes: text(bytes) });
      },
    ),
    { numRuns: 25, seed: 19 },
  );
});

test('inflateMatches gives the sliced path’s answer, for matching, differing and corrupt streams', () => {
  const z = packed.zlib;
  const differs = plain.slice();
  differs[150_000]! ^= 1;
  const badAdler = z.slice();
  badAdler[badAdler.length - 1]! ^= 1;
  const cases: Array<[string, Uint8Array, Uint8Array, boolean]> = [
    ['the same bytes', z, plain, true],
    ['one byte differs', z, differs, false],
    ['one byte short', z, plain.subarray(0, plain.length - 1), false],
    ['one byte long', z, Uint8Array.from([...plain, 0]), false],
    ['a wrong Adler-32 (not checked by the sliced path)', badAdler, plain, true],
    ['truncated', z.subarray(0, z.length - 40), plain, false],
    [
      'bytes after the end',
      Uint8Array.from([...z, 9, 9]),
      plain,
      withoutNative(() => inflateMatches(Uint8Array.from([...z, 9, 9]), 'zlib', plain)),
    ],
  ];
  for (const [name, data, expected, answer] of cases) {
    expect({ name, native: inflateMatches(data, 'zlib', expected) }).toEqual({ name, native: answer });
    expect({ name, sliced: withoutNative(() => inflateMatches(data, 'zlib', expected)) }).toEqual({
      name,
      sliced: answer,
    });
  }
});
