/**
 * The scaling suite: a structure built at sizes n, 2n and 4n, decoded in-process, must cost about
 * twice as much at each doubling — linear or n log n, never quadratic.
 *
 * Why CPU time, the least of several runs, and a ratio: a test cannot say how fast a decode must be
 * on an unknown machine, but it can say how the cost grows. CPU time (`process.cpuUsage`, user and
 * system) does not count the time the process waited for a core, so other test workers on the same
 * machine barely move it; the noise left (garbage collections, JIT compilation, caches) only ever
 * adds time, so the least of N runs is the best estimate of the decode's own cost. Sizes start where
 * the smallest decode takes at least `minMs` (30 ms by default; n is doubled until it does), far
 * above the timer's resolution. Quadratic work costs 4× per doubling, linear 2×, n log n a little
 * over 2×; the default limit, 2.6× on average over the two doublings, sits between them, so noise of
 * 20–30 % on a measure does not change the verdict either way. A format that counts its own work can
 * pass `cost` instead, and the check is then exact.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { isSaveTree, type DecodeOptions, type SaveFormat, type SaveInput } from '@savekit/core';
import { recordBudget } from './budget-suite.js';
import { finish, type SuiteFailure, type SuiteReport } from './report.js';

/** Options of {@link scalingSuite}. */
export interface ScalingOptions {
  /** What grows (`fields`, `depth`, `entries`), for the report. */
  readonly name: string;
  /** Builds an input whose structure has size `n` (n fields, n levels, n entries). */
  readonly build: (n: number) => SaveInput;
  /** The first size to try; doubled until a decode takes `minMs` (not with `cost`). */
  readonly n: number;
  /** Decode options (default: the format's). */
  readonly decodeOptions?: DecodeOptions;
  /** Decodes per size; the least CPU time counts (default 5). */
  readonly repeats?: number;
  /** The CPU time the smallest size must take, in milliseconds, so the timer's noise is small (default 30). */
  readonly minMs?: number;
  /** The largest first size the doubling may reach (default n × 1024). */
  readonly maxN?: number;
  /**
   * The most the cost may grow per doubling, on average over n → 2n → 4n (default 2.6: linear is 2,
   * quadratic 4).
   */
  readonly maxRatio?: number;
  /**
   * A deterministic cost of decoding an input (operations the format counted, such as the work a
   * decode budget spent), used instead of CPU time: each size is decoded once, at the `n` given.
   */
  readonly cost?: (input: SaveInput) => number;
  /**
   * The CPU clock, in milliseconds (default: `process.cpuUsage`, user and system). A test of the
   * CPU-time mode itself passes a clock the decoder advances, so its outcome does not depend on how
   * busy the machine is.
   */
  readonly cpuClock?: () => number;
  /** Add this run to the CI totals and the budget report file (default true; the kit's own tests say false). */
  readonly record?: boolean;
}

/** One measured size of {@link scalingSuite}. */
export interface ScalingSize {
  readonly n: number;
  /** Bytes of the input (a tree: all its files). */
  readonly inputBytes: number;
  /** The least CPU time of the decodes in milliseconds, or the `cost` given. */
  readonly cost: number;
  /** How the decode ended: `ok` or `decode-error`. */
  readonly outcome: 'ok' | 'decode-error';
}

/** The report of {@link scalingSuite}: the suite report, the sizes measured and the growth per doubling. */
export interface ScalingReport extends SuiteReport {
  readonly suite: 'scaling';
  /** n, 2n and 4n, measured. */
  readonly sizes: ReadonlyArray<ScalingSize>;
  /** The cost's growth per doubling, on average: √(cost(4n) / cost(n)). */
  readonly ratio: number;
  /** What was measured: `cpu` time or the caller's `cost`. */
  readonly measure: 'cpu' | 'cost';
}

const inputBytes = (input: SaveInput) =>
  isSaveTree(input) ? [...input.values()].reduce((sum, f) => sum + f.length, 0) : input.length;

/**
 * Decodes `build(n)`, `build(2n)` and `build(4n)` and fails when the cost grows more than `maxRatio`
 * per doubling on average (see the module's notes for why CPU time, the least of several runs, and
 * this limit). A decode that throws or answers with something other than a value or a DecodeError
 * fails too. Returns the report; throws a `SuiteError` listing what failed.
 *
 * @example
 * ```ts
 * scalingSuite(format, { name: 'fields', n: 1000, build: (n) => saveWithFields(n) });
 * ```
 */
export function scalingSuite<Doc>(format: SaveFormat<Doc>, options: ScalingOptions): ScalingReport {
  const repeats = Math.max(1, options.repeats ?? 5);
  const minMs = options.minMs ?? 30;
  const maxN = options.maxN ?? options.n * 1024;
  const maxRatio = options.maxRatio ?? 2.6;
  const failures: SuiteFailure[] = [];
  const check = `scaling of ${options.name}`;
  const clock = options.cpuClock ?? processCpuMs;

  /** Decodes once; the outcome, or a failure. */
  const decodeOnce = (input: SaveInput, n: number): ScalingSize['outcome'] | undefined => {
    try {
      const result = format.decode(input, options.decodeOptions);
      if (E.isRight(result)) return 'ok';
      if (result.left?.name === 'DecodeError') return 'decode-error';
      failures.push({ check, message: `n = ${n}: decode failed with something other than a DecodeError` });
    } catch (error) {
      failures.push({
        check,
        message: `n = ${n}: decode threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      });
    }
    return undefined;
  };
  /** The least CPU time of `runs` decodes of `input`, in milliseconds. */
  const cpu = (input: SaveInput, runs: number) => {
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const before = clock();
      format.decode(input, options.decodeOptions);
      best = Math.min(best, clock() - before);
    }
    return best;
  };
  /** Size n measured: the caller's cost, or the least CPU time of `runs` decodes after a first one (which warms up the JIT). */
  const measure = (n: number, runs = repeats): ScalingSize | undefined => {
    const input = options.build(n);
    const outcome = decodeOnce(input, n);
    if (outcome === undefined) return undefined;
    const cost = options.cost ? options.cost(input) : cpu(input, runs);
    return { n, inputBytes: inputBytes(input), cost, outcome };
  };

  const sizes: ScalingSize[] = [];
  let n = options.n;
  // The search for a size that takes minMs times one decode; only the sizes kept take every repeat.
  if (!options.cost) {
    let probe = measure(n, 1);
    while (probe !== undefined && probe.cost < minMs && n * 2 <= maxN) {
      n *= 2;
      probe = measure(n, 1);
    }
  }
  const first = measure(n);
  if (first !== undefined) {
    sizes.push(first);
    const second = measure(2 * n);
    const third = second && measure(4 * n);
    if (second) sizes.push(second);
    if (third) sizes.push(third);
  }
  let ratio = Number.NaN;
  if (sizes.length === 3) {
    const [a, , c] = sizes as [ScalingSize, ScalingSize, ScalingSize];
    ratio = Math.sqrt(c.cost / Math.max(a.cost, Number.MIN_VALUE));
    const shown = sizes.map((s) => `n = ${s.n}: ${s.cost.toFixed(options.cost ? 0 : 1)}`).join(', ');
    // Too fast to measure even at the largest size: nothing here can grow quadratically enough to matter.
    const measurable = options.cost !== undefined || c.cost >= minMs;
    if (measurable && ratio > maxRatio)
      failures.push({
        check,
        message: `the cost grows ${ratio.toFixed(2)}× per doubling, over ${maxRatio}× (${shown}${options.cost ? '' : ' ms of CPU'})`,
      });
  }
  const record = options.record ?? true;
  const report: ScalingReport = {
    suite: 'scaling',
    format: format.id,
    iterations: sizes.length,
    failures,
    sizes: sizes.map((s) => ({ ...s, cost: Math.round(s.cost * 100) / 100 })),
    ratio: Math.round(ratio * 100) / 100,
    measure: options.cost ? 'cost' : 'cpu',
  };
  if (record) recordBudget(format.id, [{ scaling: options.name, sizes: report.sizes, ratio: report.ratio }]);
  return finish(report, record) as ScalingReport;
}

/** The process's CPU time so far (user and system), in milliseconds. */
function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
