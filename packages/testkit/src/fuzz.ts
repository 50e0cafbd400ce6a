/**
 * The fuzz suite: mutations of valid saves — byte flips, truncations, insertions, inflated length
 * fields, duplicated and reordered regions, hostile patterns spliced in — fed to a format's decoder,
 * which must answer with a value or a DecodeError: never another exception, never beyond the time
 * limit, never a huge allocation.
 *
 * @module
 */
import { getHeapStatistics } from 'node:v8';
import * as E from 'fp-ts/lib/Either.js';
import { isSaveTree, type SaveFormat, type SaveInput } from '@savekit/core';
import { concatBytes } from '@savekit/core/kit';
import { testBudget } from './budget.js';
import { prng } from './data.js';
import { hostileInputs } from './hostile.js';
import { finish, preview, type SuiteFailure, type SuiteReport } from './report.js';

/** Options of {@link fuzzSuite}. */
export interface FuzzOptions {
  /** Valid saves to mutate. */
  readonly seeds: ReadonlyArray<SaveInput>;
  /** How many mutated inputs (default: {@link defaultIterations}). */
  readonly iterations?: number;
  /**
   * The most one decode may take (default 2,000 ms). A decode over it is timed twice more and fails
   * only when it is over every time, so a pause of the machine is not reported as a hang.
   */
  readonly timeoutMs?: number;
  /** The most one decode may grow the heap and buffers by (default 512 MiB). */
  readonly maxAllocationBytes?: number;
  /** Seed of the mutation generator, for reproducing a run (default 1). */
  readonly seed?: number;
  /** Add this run to the CI totals (default true; the kit's own tests of broken formats say false). */
  readonly record?: boolean;
  /**
   * The first iteration to decode (default 0). Earlier inputs are still generated, not decoded, so
   * iteration `i` is the same input in every run: `{ from: i, iterations: i + 1 }` repeats one.
   */
  readonly from?: number;
}

/**
 * The default iteration count: `SAVEKIT_FUZZ_ITERATIONS` when set, else 10,000 in watch mode and
 * under the quick test profile (the default), 100,000 under `SAVEKIT_TEST_PROFILE=heavy`.
 */
export function defaultIterations(): number {
  const fromEnv = Number(process.env.SAVEKIT_FUZZ_ITERATIONS);
  if (Number.isSafeInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const watching = process.argv.some((arg) => arg === '--watch' || arg === '--watchAll');
  return watching ? 10_000 : testBudget({ quick: 10_000, heavy: 100_000 });
}

/** A source of uniform numbers in [0, 1), such as the testkit's seeded `prng`. */
export type Random = () => number;

const MUTATIONS = ['flip', 'truncate', 'insert', 'inflate', 'duplicate', 'swap', 'zero', 'hostile'] as const;
type Mutation = (typeof MUTATIONS)[number];

/** One mutation of `input`; returns the new bytes. */
export function mutate(input: Uint8Array, kind: Mutation, random: Random): Uint8Array {
  const n = input.length;
  const at = n === 0 ? 0 : Math.floor(random() * n);
  const span = 1 + Math.floor(random() * Math.min(64, Math.max(1, n)));
  switch (kind) {
    case 'flip': {
      const copy = input.slice();
      const count = 1 + Math.floor(random() * 4);
      for (let i = 0; i < count && n > 0; i++) copy[Math.floor(random() * n)] = Math.floor(random() * 256);
      return copy;
    }
    case 'truncate':
      return input.slice(0, at);
    case 'insert':
      return concatBytes([
        input.subarray(0, at),
        Uint8Array.from({ length: span }, () => Math.floor(random() * 256)),
        input.subarray(at),
      ]);
    case 'inflate': {
      // Lengths and counts are usually 2 or 4 bytes: make one claim everything.
      const copy = input.slice();
      const width = random() < 0.5 ? 4 : 2;
      copy.fill(random() < 0.8 ? 0xff : 0x7f, at, Math.min(n, at + width));
      return copy;
    }
    case 'duplicate':
      return concatBytes([input.subarray(0, at + span), input.subarray(at, at + span), input.subarray(at + span)]);
    case 'swap': {
      const other = Math.floor(random() * Math.max(1, n - span));
      const [a, b] = at < other ? [at, other] : [other, at];
      if (b < a + span || b + span > n) return input.slice();
      return concatBytes([
        input.subarray(0, a),
        input.subarray(b, b + span),
        input.subarray(a + span, b),
        input.subarray(a, a + span),
        input.subarray(b + span),
      ]);
    }
    case 'zero': {
      const copy = input.slice();
      copy.fill(0, at, Math.min(n, at + span));
      return copy;
    }
    case 'hostile': {
      const pattern = pick(hostileInputs.bytes, random).bytes;
      return random() < 0.5
        ? concatBytes([input.subarray(0, at), pattern, input.subarray(at + pattern.length)])
        : concatBytes([input.subarray(0, at), pattern, input.subarray(at)]);
    }
  }
}

/** How many times a decode over the time limit is timed again before it is reported. */
const SLOW_RETRIES = 2;

/** Milliseconds one decode of `input` takes (it already ran once without throwing). */
function timeDecode<Doc>(format: SaveFormat<Doc>, input: SaveInput): number {
  const start = performance.now();
  format.decode(input);
  return performance.now() - start;
}

/**
 * The heap in use plus the memory outside it (array buffers among it), from V8's own counters:
 * `process.memoryUsage()` also reads the resident set from the operating system, and that call
 * (~10 µs, twice per iteration) was a sixth of a fuzz loop over small saves.
 */
const allocated = () => {
  const m = getHeapStatistics();
  return m.used_heap_size + m.external_memory;
};

/**
 * Fuzzes a format's decoder and returns the report; throws a `SuiteError` listing what failed. Tree
 * seeds are fuzzed one entry at a time.
 */
export function fuzzSuite<Doc>(format: SaveFormat<Doc>, options: FuzzOptions): SuiteReport {
  return finish(fuzzLoop(format, options), options.record ?? true);
}

/** One of `items` (not empty), chosen by `random`. */
function pick<T>(items: ReadonlyArray<T>, random: Random): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Throws unless every seed has something to mutate: at least one seed, no empty folder. */
function checkSeeds(seeds: ReadonlyArray<SaveInput>): void {
  if (seeds.length === 0) throw new Error('fuzzSuite needs at least one seed');
  seeds.forEach((seed, k) => {
    if (isSaveTree(seed) && seed.size === 0)
      throw new Error(`fuzzSuite: seed ${k} is an empty folder, with no file to mutate`);
  });
}

/**
 * Iteration `i`'s input: the seeds taken in turn, a mutation and, in a folder, one file mutated.
 * The loop and {@link fuzzInput} both go through here, so a reported input is regenerated exactly.
 */
function nextInput(
  seeds: ReadonlyArray<SaveInput>,
  i: number,
  random: Random,
): { kind: Mutation; input: SaveInput; shown: string } {
  const seed = seeds[i % seeds.length]!; // checkSeeds: not empty
  const kind = pick(MUTATIONS, random);
  if (!isSaveTree(seed)) {
    const input = mutate(seed, kind, random);
    return { kind, input, shown: preview(input) };
  }
  const name = pick([...seed.keys()], random); // checkSeeds: no empty folder
  const file = mutate(seed.get(name)!, kind, random);
  const tree = new Map(seed);
  tree.set(name, file);
  return { kind, input: tree, shown: `${name}: ${preview(file)}` };
}

/** The fuzz loop itself; `progress`, when given, receives each iteration number before its decode. */
export function fuzzLoop<Doc>(
  format: SaveFormat<Doc>,
  options: FuzzOptions,
  progress?: (iteration: number) => void,
): SuiteReport {
  const iterations = options.iterations ?? defaultIterations();
  const timeoutMs = options.timeoutMs ?? 2000;
  const maxAllocation = options.maxAllocationBytes ?? 512 * 1024 * 1024;
  const random = prng(options.seed ?? 1);
  const failures: SuiteFailure[] = [];
  let slowest = { ms: 0, mutation: '' };
  let retimed = 0;
  checkSeeds(options.seeds);
  for (let i = 0; i < iterations && failures.length < 20; i++) {
    const { kind, input, shown } = nextInput(options.seeds, i, random);
    if (i < (options.from ?? 0)) continue;
    progress?.(i);
    const before = allocated();
    const start = performance.now();
    let result: ReturnType<typeof format.decode>;
    try {
      result = format.decode(input);
    } catch (error) {
      failures.push({
        check: `iteration ${i} (${kind})`,
        message: `decode threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        input: shown,
      });
      continue;
    }
    let ms = performance.now() - start;
    if (ms > timeoutMs) {
      // A slow decode is timed again before it counts: a real hang repeats, while a garbage
      // collection or a busy machine (CI runs suites side by side on two cores) does not.
      const first = ms;
      for (let retry = 0; retry < SLOW_RETRIES && ms > timeoutMs; retry++) ms = Math.min(ms, timeDecode(format, input));
      if (ms > timeoutMs)
        failures.push({
          check: `iteration ${i} (${kind})`,
          message: `decode took ${first.toFixed(0)} ms, over ${timeoutMs} ms, and ${ms.toFixed(0)} ms at best when timed again`,
          input: shown,
        });
      else retimed++;
    }
    if (ms > slowest.ms) slowest = { ms, mutation: kind };
    const grew = allocated() - before;
    if (grew > maxAllocation)
      failures.push({
        check: `iteration ${i} (${kind})`,
        message: `decode grew memory by ${(grew / 2 ** 20).toFixed(0)} MiB`,
        input: shown,
      });
    if (
      E.isLeft(result) &&
      (result.left === null ||
        typeof result.left !== 'object' ||
        result.left.name !== 'DecodeError' ||
        !Array.isArray(result.left.path) ||
        typeof result.left.offset !== 'number')
    ) {
      failures.push({
        check: `iteration ${i} (${kind})`,
        message: `decode failed with something other than a DecodeError: ${String(result.left)}`,
        input: shown,
      });
    }
  }
  return {
    suite: 'fuzz',
    format: format.id,
    iterations,
    failures,
    slowest: { ms: Math.round(slowest.ms * 100) / 100, mutation: slowest.mutation },
    retimed,
  };
}

/** The input of iteration `target`, regenerated exactly as the loop made it (for hang reports). */
export function fuzzInput(options: FuzzOptions, target: number): { kind: string; input: string } {
  checkSeeds(options.seeds);
  const random = prng(options.seed ?? 1);
  for (let i = 0; ; i++) {
    const { kind, shown } = nextInput(options.seeds, i, random);
    if (i === target) return { kind, input: shown };
  }
}
