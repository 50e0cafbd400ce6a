/**
 * One decode's work budget. A small file must not cost minutes or gigabytes, however it is built:
 * every decode carries a {@link DecodeBudget} that counts what the input makes the decoder do, across
 * every chunk, layer, nested decode and format-specific loop, and stops the decode with a
 * {@link BudgetError} naming the budget when it runs out.
 *
 * - **output**: bytes produced by decompressors and other byte layers, in total (a bomb split over
 *   many chunks, each under the per-layer limit, still adds up);
 * - **work**: structural units — fields, array elements, chunks, entries, nesting steps — so a wide
 *   or deep structure costs in proportion to its size, and a file cannot ask for more than a budget;
 * - **allocation**: memory a size recorded in the file asks for, which must be justified by bytes
 *   actually present (or by output budget left) before anything is allocated.
 *
 * Defaults grow with the input (a large real save gets a large budget) from a floor that fits every
 * small real save; each is overridable in `DecodeOptions`.
 *
 * @module
 */
import { DecodeError, type Path } from './errors.js';

/** Which budget ran out. */
export type BudgetName = 'output' | 'work' | 'allocation' | 'spans';

/** The `DecodeOptions` field that raises each budget (named in every {@link BudgetError}). */
export const BUDGET_OPTION: Readonly<Record<BudgetName, string>> = {
  output: 'maxTotalOutput',
  work: 'maxWork',
  allocation: 'maxTotalOutput',
  spans: 'maxSpans',
};

/**
 * A decode stopped because the input asked for more than its budget: `budget` says which, `limit`
 * what it was. The message names the `DecodeOptions` field that raises it.
 */
export class BudgetError extends DecodeError {
  declare readonly code: 'budget-exceeded';
  constructor(
    path: Path,
    offset: number,
    /** Which budget ran out. */
    readonly budget: BudgetName,
    /** The budget's size (bytes for output and allocation, units for work, spans for spans). */
    readonly limit: number,
    message: string,
  ) {
    super(path, offset, message, 'budget-exceeded');
  }
}

/**
 * What a decompressor or other byte layer throws when its output would pass the limit it was
 * given. The core turns it into a {@link BudgetError} when the limit was the decode's budget, and
 * into an ordinary DecodeError when it was the per-layer limit. (Any error with
 * `code === 'output-limit'` counts, so packages that do not depend on the core can throw their own.)
 */
export class OutputLimitError extends RangeError {
  override readonly name = 'OutputLimitError';
  /** A stable, machine-readable code. */
  readonly code = 'output-limit';
  constructor(
    /** The limit that would have been passed, in bytes. */
    readonly limit: number,
    message = `output passes the limit of ${limit} bytes`,
  ) {
    super(message);
  }
}

/** Whether `error` says that an output limit was reached (see {@link OutputLimitError}). */
export function isOutputLimitError(error: unknown): boolean {
  return (
    error instanceof OutputLimitError ||
    (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'output-limit')
  );
}

/** Floor of the total output budget: 64 MiB, more than any real save of the four formats inflates to. */
export const MIN_TOTAL_OUTPUT = 64 * 1024 * 1024;
/** The total output budget grows with the input: this many bytes of output per input byte. */
export const OUTPUT_PER_INPUT_BYTE = 32;
/** Floor of the work budget: 4 Mi units (fields, elements, chunks, entries). */
export const MIN_WORK = 4 * 1024 * 1024;
/** The work budget grows with the input: this many units per input byte (each unit reads at least half a byte). */
export const WORK_PER_INPUT_BYTE = 2;
/**
 * The default work budget also grows with the data decompressors produce: this many units per byte of
 * output. A compressed save holds more fields than its file has bytes (an EDGE save inflating 6:1
 * needs about 2.2 units per file byte); every unit still reads at least half a byte of data, and the
 * output is itself bounded by `maxTotalOutput`, so the work stays bounded.
 */
export const WORK_PER_OUTPUT_BYTE = 2;
/**
 * The work decompressed output adds is at most this many units per input byte. A save of 100,000
 * blank EDGE mobjs, zlib compressing 140:1, needs 62 units per file byte from its output (real saves
 * need under 2); a bomb inflating 700:1 into millions of tiny chunks would otherwise be allowed two
 * units per byte of its output — 134 million from a 64 KB file, gigabytes of document.
 */
export const OUTPUT_WORK_PER_INPUT_BYTE = 128;

/**
 * The work a chunk costs besides its marker and length. A unit is about one field — 8 to 24 bytes of
 * document — and a chunk makes several objects (its entry, a window on its body, its kept bytes or
 * its body's value: some 200 to 300 bytes), so a file of millions of empty chunks runs out of work in
 * proportion to the memory it would take, not the bytes it reads.
 */
export const UNITS_PER_CHUNK = 16;

/** The sizes of a budget. */
export interface BudgetLimits {
  /** Total bytes all byte layers and decompressors of the decode may produce. */
  readonly maxTotalOutput: number;
  /** Total structural units (fields, elements, chunks, entries, nesting steps) the decode may take. */
  readonly maxWork: number;
  /**
   * Units of work each byte of decompressed output adds to `maxWork` (default 0: `maxWork` is the
   * whole limit). The defaults set it to {@link WORK_PER_OUTPUT_BYTE}; an explicit `maxWork` option
   * leaves it 0, so a limit a caller gives is exact. The work limit is never more than
   * `maxWork + workPerOutputByte × maxTotalOutput`.
   */
  readonly workPerOutputByte?: number;
  /**
   * The most units decompressed output adds to `maxWork` in all (default: unbounded; the defaults
   * set it to {@link OUTPUT_WORK_PER_INPUT_BYTE} per input byte, so what a small file can make the
   * decoder do stays in proportion to the file, however far it inflates).
   */
  readonly maxOutputWork?: number | undefined;
}

/**
 * The default budget for an input of `inputBytes` bytes: `max(floor, per-byte × input)` for each, and
 * work growing with decompressed output ({@link WORK_PER_OUTPUT_BYTE}), by at most
 * {@link OUTPUT_WORK_PER_INPUT_BYTE} per input byte.
 */
export function defaultBudgetLimits(inputBytes: number): BudgetLimits {
  return {
    maxTotalOutput: Math.max(MIN_TOTAL_OUTPUT, OUTPUT_PER_INPUT_BYTE * inputBytes),
    maxWork: Math.max(MIN_WORK, WORK_PER_INPUT_BYTE * inputBytes),
    workPerOutputByte: WORK_PER_OUTPUT_BYTE,
    maxOutputWork: OUTPUT_WORK_PER_INPUT_BYTE * inputBytes,
  };
}

/** The budget options of `DecodeOptions` (kept apart so this module does not import the options). */
export interface BudgetOptions {
  readonly maxTotalOutput?: number | undefined;
  readonly maxWork?: number | undefined;
  readonly budget?: DecodeBudget | undefined;
}

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * What one decode may still spend. Codecs reach it as `reader.state.budget` (or through
 * `Reader.work`/`Reader.output`/`Reader.claim`); a format's own loops — a tree builder, a
 * decompressor, an interpreter restoring objects — take it from {@link DecodeBudget.of} and pass the
 * same one, as `DecodeOptions.budget`, to every nested decode, so one decode has one budget.
 */
export class DecodeBudget {
  /** Bytes of output spent so far. */
  outputSpent = 0;
  /** Units of work spent so far. */
  workSpent = 0;

  constructor(readonly limits: BudgetLimits) {}

  /**
   * The budget to use for a decode of `inputBytes` bytes with `options`: the one passed in
   * `options.budget` (a nested decode shares its caller's), else a fresh one from the options and
   * the defaults.
   */
  static of(options: BudgetOptions | undefined, inputBytes: number): DecodeBudget {
    if (options?.budget !== undefined) return options.budget;
    const defaults = defaultBudgetLimits(inputBytes);
    const maxWork = options?.maxWork;
    return new DecodeBudget({
      maxTotalOutput: options?.maxTotalOutput ?? defaults.maxTotalOutput,
      // A work limit the caller gives is exact; the default one grows with decompressed output.
      ...(maxWork === undefined
        ? { maxWork: defaults.maxWork, workPerOutputByte: WORK_PER_OUTPUT_BYTE, maxOutputWork: defaults.maxOutputWork }
        : { maxWork }),
    });
  }

  /** Output bytes left. */
  get outputLeft(): number {
    return this.limits.maxTotalOutput - this.outputSpent;
  }

  /** Spends `bytes` of output; throws a {@link BudgetError} at `path`/`offset` past the budget. */
  spendOutput(bytes: number, path: Path, offset: number): void {
    if (bytes > this.outputLeft) throw this.outputError(bytes, path, offset);
    this.outputSpent += bytes;
  }

  /** The error for an output of `bytes` that does not fit. */
  outputError(bytes: number, path: Path, offset: number): BudgetError {
    const limit = this.limits.maxTotalOutput;
    return new BudgetError(
      path,
      offset,
      'output',
      limit,
      `decompressed output of ${grouped(this.outputSpent + bytes)} bytes in total is over the budget of ${grouped(limit)} (DecodeOptions.maxTotalOutput)`,
    );
  }

  /**
   * The work limit now: `maxWork`, plus what the output produced so far adds (see
   * {@link BudgetLimits.workPerOutputByte}), up to {@link BudgetLimits.maxOutputWork}.
   */
  get workLimit(): number {
    const { maxWork, workPerOutputByte = 0, maxOutputWork = Number.POSITIVE_INFINITY } = this.limits;
    return workPerOutputByte === 0 ? maxWork : maxWork + Math.min(workPerOutputByte * this.outputSpent, maxOutputWork);
  }

  /** Whether `total` units of work pass the limit (`maxWork` checked first: the common case needs no getter). */
  exceeds(total: number): boolean {
    return total > this.limits.maxWork && total > this.workLimit;
  }

  /** Spends `units` of work; throws a {@link BudgetError} at `path`/`offset` past the budget. */
  spendWork(units: number, path: Path, offset: number): void {
    const total = this.workSpent + units;
    if (this.exceeds(total)) throw this.workError(path, offset);
    this.workSpent = total;
  }

  /** The error for work past the budget. */
  workError(path: Path, offset: number): BudgetError {
    const limit = this.workLimit;
    return new BudgetError(
      path,
      offset,
      'work',
      limit,
      `more than ${grouped(limit)} fields, elements and entries to read (DecodeOptions.maxWork)`,
    );
  }

  /**
   * Checks a size recorded in the file before allocating for it: `count` items of at least
   * `bytesEach` bytes must fit in the `available` bytes that could back them (what is left of the
   * input, or of the output budget for data that will be produced). Throws an `allocation`
   * {@link BudgetError} naming `what` otherwise.
   */
  claim(count: number, bytesEach: number, available: number, what: string, path: Path, offset: number): void {
    if (Number.isFinite(count) && count >= 0 && count * bytesEach <= available) return;
    throw new BudgetError(
      path,
      offset,
      'allocation',
      available,
      `${what}: ${grouped(count)} × ${bytesEach} bytes claimed, only ${grouped(available)} can back it`,
    );
  }
}
