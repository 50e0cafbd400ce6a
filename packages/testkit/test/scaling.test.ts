// The scaling suite tells linear decoders from quadratic ones: exactly with a counted cost, and by
// CPU time where the gap (2× against 4× per doubling) is far wider than the noise of a measure.
import * as E from 'fp-ts/lib/Either';
import { fileFormat, array, DecodeError, encode, u16le, u32le, type SaveFormat } from '@savekit/core';
import { scalingSuite, SuiteError } from '../src/index';

const values = array(u16le, u32le);
const linear: SaveFormat<number[]> = fileFormat(values, {
  id: 'scaling-linear',
  title: 'scaling fixture',
  sniff: () => 1,
});
/** The element count of an input of `build`. */
const count = (input: Uint8Array | ReadonlyMap<string, Uint8Array>) => ((input as Uint8Array).length - 4) / 2;
const build = (n: number) => {
  const bytes = encode(
    values,
    Array.from({ length: n }, (_, i) => i & 0xffff),
  );
  if (E.isLeft(bytes)) throw bytes.left;
  return bytes.right;
};
describe('with a counted cost (exact)', () => {
  test('a linear cost passes at the n given, n log n too', () => {
    const report = scalingSuite(linear, { name: 'values', n: 100, build, cost: count, record: false });
    expect(report).toMatchObject({ measure: 'cost', ratio: 2 });
    expect(report.sizes.map((s) => s.n)).toEqual([100, 200, 400]);
    const nLogN = (input: Uint8Array | ReadonlyMap<string, Uint8Array>) => {
      const n = count(input);
      return n * Math.log2(n);
    };
    expect(scalingSuite(linear, { name: 'values', n: 1000, build, cost: nLogN, record: false }).failures).toEqual([]);
  });

  test('a quadratic cost fails, naming the sizes and costs', () => {
    expect(() =>
      scalingSuite(linear, { name: 'values', n: 100, build, cost: (input) => count(input) ** 2, record: false }),
    ).toThrow(
      /scaling of values: the cost grows 4\.00× per doubling, over 2\.6× \(n = 100: 10000, n = 200: 40000, n = 400: 160000\)/,
    );
  });
});

describe('with CPU time (the least of several decodes)', () => {
  // The CPU-time mode measured with a clock the decoders advance by the work they do (n for the
  // linear decoder, n² / 1000 for the quadratic one): the mode's search for a size, its repeats and
  // its verdict are tested exactly, on a busy machine as on a quiet one. The real clock is
  // `process.cpuUsage`, used when no clock is given.
  let ticks = 0;
  const cpuClock = () => ticks;
  const ticking = (format: SaveFormat<number[]>, work: (n: number) => number): SaveFormat<number[]> => ({
    ...format,
    decode: (input, options) => {
      ticks += work(count(input));
      return format.decode(input, options);
    },
  });

  test('a linear decoder passes; n is doubled until a decode takes 30 ms', () => {
    const report = scalingSuite(
      ticking(linear, (n) => n / 1000),
      { name: 'values', n: 1000, build, record: false, cpuClock },
    );
    expect(report.measure).toBe('cpu');
    expect(report.sizes.map((s) => s.n)).toEqual([32_000, 64_000, 128_000]);
    expect(report.sizes.map((s) => s.cost)).toEqual([32, 64, 128]);
    expect(report.ratio).toBe(2);
    expect(report.failures).toEqual([]);
  });

  test('a quadratic decoder fails', () => {
    let error: unknown;
    try {
      scalingSuite(
        ticking(linear, (n) => (n * n) / 1e6),
        { name: 'values', n: 1000, build, repeats: 3, minMs: 20, record: false, cpuClock },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SuiteError);
    expect(String(error)).toMatch(/^SuiteError/);
    expect(String(error)).toMatch(
      /the cost grows 4\.00× per doubling, over 2\.6× \(n = 8000: 64\.0, n = 16000: 256\.0, n = 32000: 1024\.0 ms of CPU\)/,
    );
  });

  test('without a clock given, the process CPU time is measured', () => {
    // Any ratio is accepted: at these sizes real CPU time is noise, and this test only checks the clock is read.
    const report = scalingSuite(linear, {
      name: 'values',
      n: 1000,
      build,
      repeats: 1,
      minMs: 0,
      maxRatio: Number.POSITIVE_INFINITY,
      record: false,
    });
    expect(report.measure).toBe('cpu');
    expect(report.sizes).toHaveLength(3);
    for (const size of report.sizes) expect(size.cost).toBeGreaterThanOrEqual(0);
  });
});

test('a decoder that throws or answers with something other than a DecodeError fails', () => {
  const throws = { ...linear, decode: () => E.left(new DecodeError([], 0, 'ok')) as never };
  expect(scalingSuite(throws, { name: 'x', n: 10, build, cost: () => 1, record: false }).sizes[0]!.outcome).toBe(
    'decode-error',
  );
  const wrong = {
    ...linear,
    decode: () => {
      throw new TypeError('boom');
    },
  };
  expect(() => scalingSuite(wrong, { name: 'x', n: 10, build, record: false })).toThrow(
    /n = 10: decode threw TypeError: boom/,
  );
});
