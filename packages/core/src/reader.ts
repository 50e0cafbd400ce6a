/**
 * The bounds-checked read cursor. Codecs read through it; every read that would run past the end of
 * the current window fails with a {@link DecodeError} naming the field path and offset.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  type ErrorArgs,
  errorOf,
  DecodeError,
  type ErrorCode,
  type PathSegment,
  type Warning,
  type WarningCode,
} from './errors.js';
import { resolveDecodeOptions, type ResolvedDecodeOptions } from './options.js';
import { BudgetError, DecodeBudget } from './budget.js';
import { renamedPath, type StoredRenames } from './dropped.js';

/** A byte range a decoded field came from (collected when decoding with `trace: true`). */
export interface FieldSpan {
  /** The field's path, outermost first. */
  readonly path: ReadonlyArray<PathSegment>;
  /** First byte of the field. */
  readonly start: number;
  /** One past the last byte of the field. */
  readonly end: number;
  /** Which buffer: 0 is the input; transform layers number their outputs from 1. */
  readonly layer: number;
}

/**
 * The key of a context value's own undo: a value in `ReadState.context` that changes inside itself
 * (a list it appends to) implements it, so a rolled-back reading ({@link Reader.attempt}) puts it
 * back too. Called at each checkpoint; returns what restores the value as it is now.
 */
export const ROLLBACK: unique symbol = Symbol('savekit.rollback');

/** A context value with state of its own that {@link Reader.attempt} must restore (see {@link ROLLBACK}). */
export interface Rollbackable {
  [ROLLBACK](): () => void;
}

function isRollbackable(value: unknown): value is Rollbackable {
  return (
    typeof value === 'object' && value !== null && typeof (value as Partial<Rollbackable>)[ROLLBACK] === 'function'
  );
}

/**
 * What every window of one decode shares: where it is in the value, what went wrong on the way,
 * and how deep it is.
 */
export class ReadState {
  /** The current field path. Codecs push a segment before reading a child and pop it after. */
  readonly path: PathSegment[] = [];
  /** Warnings collected so far (at most `maxWarnings`: see {@link ReadState.addWarning}). */
  readonly warnings: Warning[] = [];
  /** Warnings left out once {@link ReadState.warnings} held `maxWarnings` (reported once, at the end). */
  warningsDropped = 0;
  /**
   * Field spans, when tracing; undefined while a byte layer is read untraced (the `traceLayers`
   * decode option, and {@link ReadState.untraced}).
   */
  spans: FieldSpan[] | undefined;
  /** Current nesting depth of codecs that can recurse. */
  depth = 0;
  /** Open pointer arenas, innermost last (managed by `arena` and `pointer`). */
  readonly arenas: unknown[] = [];
  /** Number of transform layers opened so far (to tell their buffers apart in spans). */
  layers = 0;
  /**
   * What codecs of one decode tell each other, by key (a format's own symbols): definitions read
   * from one chunk that decide how a later chunk is read (EDGE's `Stru` before its `Data`).
   */
  readonly context = new Map<unknown, unknown>();
  /**
   * Checks that can only run once the value around them is complete (a `rebuild` field compares
   * its stored value with what the whole parent computes), run by {@link ReadState.settle} at the
   * end of the decode, first registered first run. Add one with {@link Reader.defer}.
   */
  readonly deferred: Array<() => void> = [];
  /**
   * Whether codecs keep what only an error would need: each INDEX reference's path, say, held until
   * the whole value is read in case it points past its array. `decode` reads a first time without it
   * (a save has one INDEX per field of every instance) and again with it when {@link ReadState.detailMissed}
   * says an error was made without it: the second reading gives the error a detailed one would.
   * True unless a driver turns it off.
   */
  errorDetail = true;
  /**
   * Set by a codec whose error lacked the detail {@link ReadState.errorDetail} would have kept (its path is only
   * the enclosing value's). Not rolled back: a failed attempt that lacked it may have shaped what came after.
   */
  detailMissed = false;

  constructor(
    readonly options: ResolvedDecodeOptions,
    /** What this decode may still spend (see {@link DecodeBudget}); shared by nested decodes. */
    readonly budget: DecodeBudget = DecodeBudget.of(undefined, 0),
  ) {
    this.spans = options.trace ? [] : undefined;
  }

  /**
   * Everything a failed reading could leave behind, to put back with {@link ReadState.rollback}:
   * the path, warnings, spans, depth, layer count, deferred checks, the pointer claims of open
   * arenas, the entries of {@link context} and the inside of context values that are
   * {@link Rollbackable}. The work and output budgets are not saved: what a
   * failed attempt spent stays spent (see {@link Reader.attempt}).
   */
  checkpoint(): ReadCheckpoint {
    const claims: Array<[Array<unknown>, number]> = [];
    for (const scope of this.arenas) {
      const list = (scope as { claims?: unknown }).claims;
      if (Array.isArray(list)) claims.push([list, list.length]);
    }
    const restores: Array<() => void> = [];
    for (const value of this.context.values()) if (isRollbackable(value)) restores.push(value[ROLLBACK]());
    return {
      restores,
      path: this.path.slice(),
      warnings: this.warnings.length,
      warningsDropped: this.warningsDropped,
      spans: this.spans?.length ?? 0,
      depth: this.depth,
      arenas: this.arenas.length,
      claims,
      layers: this.layers,
      deferred: this.deferred.length,
      context: new Map(this.context),
    };
  }

  /**
   * Empties the state for another reading with the same options, as fresh as a new one: no path,
   * warnings, spans, depth, arenas, layers, context or deferred checks, and nothing spent of its
   * budget. For a state kept between many small readings (a new state, its arrays, map and budget
   * cost more than reading a few bytes); never while a reading on it is under way.
   */
  empty(): void {
    // Each part only when it holds something: setting an array's length and clearing a map are
    // runtime calls, and a state kept for many small readings is mostly empty already.
    if (this.path.length !== 0) this.path.length = 0;
    if (this.warnings.length !== 0) this.warnings.length = 0;
    this.warningsDropped = 0;
    if (this.spans !== undefined && this.spans.length !== 0) this.spans.length = 0;
    this.depth = 0;
    if (this.arenas.length !== 0) this.arenas.length = 0;
    this.layers = 0;
    if (this.context.size !== 0) this.context.clear();
    if (this.deferred.length !== 0) this.deferred.length = 0;
    this.budget.workSpent = 0;
    this.budget.outputSpent = 0;
    this.detailMissed = false;
  }

  /**
   * Keeps `warning`, or counts it as dropped once `maxWarnings` are kept. Every warning of a decode
   * goes through here (or {@link Reader.warn}, which makes nothing for a warning that will be dropped).
   */
  addWarning(warning: Warning): void {
    if (this.warnings.length < this.options.maxWarnings) this.warnings.push(warning);
    else this.warningsDropped += 1;
  }

  /**
   * The warnings of a finished decode: those kept, and when some were dropped, one `warnings-dropped`
   * warning (at the root) saying how many.
   */
  finalWarnings(): Warning[] {
    if (this.warningsDropped === 0) return this.warnings;
    const kept = this.warnings.length;
    this.warnings.push({
      code: 'warnings-dropped',
      path: [],
      offset: 0,
      message: `${this.warningsDropped} more warnings were not kept: a decode keeps the first ${kept} (DecodeOptions.maxWarnings)`,
    });
    this.warningsDropped = 0;
    return this.warnings;
  }

  /**
   * Runs `read` with no spans recorded (the spans so far are kept, and recording goes on after it).
   * For the inside of a byte layer when `traceLayers` is false.
   */
  untraced<T>(read: () => T): T {
    const spans = this.spans;
    if (spans === undefined) return read();
    this.spans = undefined;
    try {
      return read();
    } finally {
      this.spans = spans;
    }
  }

  /**
   * The `map`s being read whose stored paths are renamed (`Bijection.framing`, `hoisted`,
   * `storedAt`), outermost first, as two parallel lists (a map pushes onto both per value: no object
   * per value): what is recorded now and reported later (a deferred check, a pending reference) takes
   * its path through {@link ReadState.lastingPath}. Bookkeeping of `map` alone.
   *
   * @internal
   */
  readonly renamingDepths: number[] = [];
  /**
   * The renames declared by each `map` in {@link ReadState.renamingDepths}, at the same index.
   *
   * @internal
   */
  readonly renamingRules: StoredRenames[] = [];

  /**
   * The current path as the document names it, for what is reported after the value around it is
   * read (errors made then are outside the `map`s that rename their stored paths).
   */
  lastingPath(): PathSegment[] {
    let path = this.path.slice();
    for (let i = this.renamingDepths.length - 1; i >= 0; i--)
      path = renamedPath(path, this.renamingDepths[i]!, this.renamingRules[i]!) ?? path;
    return path;
  }

  /**
   * Records `span` in `spans`, the list this reading traces into (a codec takes it from
   * {@link ReadState.spans} when it starts, as {@link ReadState.untraced} may swap it later). Past the
   * decode's `maxSpans` the decode stops with a `spans` {@link BudgetError} at that field.
   */
  addSpan(spans: FieldSpan[], span: FieldSpan): void {
    spans.push(span);
    const limit = this.options.maxSpans;
    if (spans.length > limit)
      throw new BudgetError(
        span.path.slice(),
        span.start,
        'spans',
        limit,
        `more than ${limit.toLocaleString('en-US')} field spans to record (DecodeOptions.maxSpans)`,
      );
  }

  /** Puts the state back as it was at `checkpoint` (see {@link ReadState.checkpoint}). */
  rollback(checkpoint: ReadCheckpoint): void {
    this.path.length = 0;
    for (const segment of checkpoint.path) this.path.push(segment);
    this.warnings.length = checkpoint.warnings;
    this.warningsDropped = checkpoint.warningsDropped;
    if (this.spans !== undefined) this.spans.length = checkpoint.spans;
    this.depth = checkpoint.depth;
    this.arenas.length = checkpoint.arenas;
    for (const [list, length] of checkpoint.claims) list.length = length;
    this.layers = checkpoint.layers;
    this.deferred.length = checkpoint.deferred;
    this.context.clear();
    for (const [key, value] of checkpoint.context) this.context.set(key, value);
    for (const restore of checkpoint.restores) restore();
  }

  /**
   * Runs the {@link deferred} checks (once each; a check may defer another, which runs too). Called
   * by `decode` after the root value is read; a codec that drives a {@link Reader} itself calls it
   * at the end.
   */
  settle(): void {
    for (let i = 0; i < this.deferred.length; i++) this.deferred[i]!();
    this.deferred.length = 0;
  }
}

/** What {@link ReadState.checkpoint} saved. Opaque to codecs: hand it back to `rollback`. */
export interface ReadCheckpoint {
  readonly path: ReadonlyArray<PathSegment>;
  readonly warnings: number;
  readonly warningsDropped: number;
  readonly spans: number;
  readonly depth: number;
  readonly arenas: number;
  readonly claims: ReadonlyArray<readonly [Array<unknown>, number]>;
  readonly layers: number;
  readonly deferred: number;
  readonly context: ReadonlyMap<unknown, unknown>;
  /** What puts the {@link Rollbackable} context values back. */
  readonly restores: ReadonlyArray<() => void>;
}

/** Options of {@link Reader.attempt}. */
export interface AttemptOptions {
  /**
   * Called after the state is rolled back, to undo what the reading changed outside the
   * {@link ReadState} (a format's own list of pending references, say). Context entries are put
   * back by the attempt itself, and so are {@link Rollbackable} context values; undo changes made
   * inside other context values here.
   */
  readonly undo?: () => void;
}

/**
 * A cursor over a window `[start, end)` of a byte buffer. Offsets are absolute in the buffer, so an
 * error inside a chunk body still names the file offset.
 */
export class Reader {
  /** The whole buffer this reader walks (windows share it). */
  readonly bytes: Uint8Array;
  /** A DataView over {@link bytes}. */
  readonly view: DataView;
  /** Current absolute offset. */
  pos: number;
  /** First offset of this window. */
  readonly start: number;
  /** One past the last readable offset of this window. */
  readonly end: number;
  /** Which transform layer this buffer belongs to (0 for the input). */
  readonly layer: number;

  constructor(
    bytes: Uint8Array,
    readonly state: ReadState,
    start = 0,
    end = bytes.length,
    view?: DataView,
    layer = 0,
  ) {
    this.bytes = bytes;
    this.view = view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.start = start;
    this.end = end;
    this.pos = start;
    this.layer = layer;
  }

  /** Bytes left in this window. */
  get remaining(): number {
    return this.end - this.pos;
  }

  /** Whether the window is used up. */
  get atEnd(): boolean {
    return this.pos >= this.end;
  }

  /**
   * A DecodeError at the current path; `offset` defaults to the current position. With a code first
   * (`r.error('bad-magic', 'expected …', at)`) the error has that {@link ErrorCode}; without one it is
   * `invalid-value`.
   */
  error(...args: ErrorArgs): DecodeError {
    return errorOf(DecodeError, this.state.path.slice(), this.pos, args);
  }

  /**
   * A DecodeError at a child of the current path (the field `key`), without entering it; a code may
   * come after the key, as in {@link error}.
   */
  errorAt(key: PathSegment, ...args: ErrorArgs): DecodeError {
    return errorOf(DecodeError, [...this.state.path, key], this.pos, args);
  }

  /** Fails unless `count` more bytes can be read (and `count` is a length: not negative, not NaN). */
  need(count: number): void {
    if (count > this.end - this.pos) throw this.shortfall(count);
    // A length read from a signed field can be negative: taking it would move backwards.
    if (!(count >= 0)) throw this.error('out-of-range', `a length of ${count} bytes`);
  }

  /** The error for a read of `count` bytes that does not fit. */
  shortfall(count: number): DecodeError {
    const left = this.end - this.pos;
    const noun = count === 1 ? 'byte' : 'bytes';
    return this.error('short-read', `expected ${count} ${noun}, ${left} left`);
  }

  /**
   * Records a warning said of another part of the document than the one being read (a definition
   * read earlier, at its own path and offset): for format code, which never touches
   * `state.warnings` itself. A rolled-back reading takes it back like any other.
   */
  report(warning: Warning): void {
    this.state.addWarning(warning);
  }

  /** Records a warning at the current path (or the one given). */
  warn(code: WarningCode | (string & {}), message: string, offset: number = this.pos): void {
    const state = this.state;
    if (state.warnings.length >= state.options.maxWarnings) state.warningsDropped += 1;
    else state.warnings.push({ code, path: state.path.slice(), offset, message });
  }

  /** Reads one byte. */
  u8(): number {
    if (this.pos >= this.end) throw this.shortfall(1);
    return this.bytes[this.pos++]!;
  }

  /** Looks at the byte `ahead` bytes on without moving, or `undefined` past the window. */
  peek(ahead = 0): number | undefined {
    const at = this.pos + ahead;
    return at < this.end ? this.bytes[at] : undefined;
  }

  /** Reads `count` bytes as a fresh copy (the caller may keep and change it). */
  take(count: number): Uint8Array {
    this.need(count);
    const out = this.bytes.slice(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  /**
   * Reads `count` bytes as a view into the buffer, without copying. The view is only valid while the
   * input buffer is unchanged; copy it to keep it.
   */
  borrow(count: number): Uint8Array {
    this.need(count);
    const out = this.bytes.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  /** Skips `count` bytes. */
  skip(count: number): void {
    this.need(count);
    this.pos += count;
  }

  /**
   * Opens a window over the next `count` bytes and moves past them. The window cannot read outside
   * its range; it shares this reader's path, warnings and depth.
   */
  window(count: number): Reader {
    this.need(count);
    const child = new Reader(this.bytes, this.state, this.pos, this.pos + count, this.view, this.layer);
    this.pos += count;
    return child;
  }

  /** A reader over the whole buffer this window lives in, positioned at `offset` (for pointers). */
  at(offset: number, start = 0, end = this.bytes.length): Reader {
    const child = new Reader(this.bytes, this.state, start, end, this.view, this.layer);
    child.pos = offset;
    return child;
  }

  /** A reader over another buffer (a transform's output), sharing this decode's state. */
  layerReader(bytes: Uint8Array): Reader {
    this.state.layers += 1;
    return new Reader(bytes, this.state, 0, bytes.length, undefined, this.state.layers);
  }

  /** Enters one nesting level of a recursive codec; fails past the depth limit. Costs a unit of work. */
  descend(): void {
    if (++this.state.depth > this.state.options.maxDepth) {
      throw this.error('too-deep', `nesting deeper than ${this.state.options.maxDepth} levels`);
    }
    this.work(1);
  }

  /** Spends `units` of the decode's work budget (fields, elements, entries); a BudgetError past it. */
  work(units: number): void {
    const budget = this.state.budget;
    const total = budget.workSpent + units;
    if (budget.exceeds(total)) throw budget.workError(this.state.path.slice(), this.pos);
    budget.workSpent = total;
  }

  /** Spends `bytes` of the decode's output budget (what a decompressor produced); a BudgetError past it. */
  output(bytes: number, offset: number = this.pos): void {
    this.state.budget.spendOutput(bytes, this.state.path.slice(), offset);
  }

  /**
   * Checks a size recorded in the file before allocating for it: `count` items of at least
   * `bytesEach` bytes must fit in what is left of this window (or in `available`, for data yet to be
   * produced). An allocation BudgetError naming `what` otherwise.
   */
  claim(count: number, bytesEach: number, what: string, available: number = this.end - this.pos): void {
    this.state.budget.claim(count, bytesEach, available, what, this.state.path.slice(), this.pos);
  }

  /** Leaves a nesting level entered with {@link descend}. */
  ascend(): void {
    this.state.depth -= 1;
  }

  /**
   * Tries a reading: runs `run` on this reader and returns its value as `right`. If it throws a
   * {@link DecodeError}, the position and everything the {@link ReadState} carries (path, warnings,
   * spans, depth, layers, deferred checks, pointer claims, context entries) are put back as they
   * were, `options.undo` runs, and the error is returned as `left`, for the caller to try something
   * else or to throw.
   *
   * Two things are not rolled back. The work and output budgets: what a failed attempt spent stays
   * spent, so a format that tries many readings pays for each and a hostile file cannot make it try
   * forever for free. And a {@link BudgetError} is not caught at all: once the decode's budget is
   * gone there is nothing left to try with. Errors other than DecodeErrors (bugs) propagate as well.
   *
   * To reject a reading that succeeded but does not fit (it left bytes over, say), throw a
   * DecodeError from `run`: the reading is rolled back like a failed one.
   *
   * @example
   * ```ts
   * const tried = r.attempt((r) => entry.read(r));
   * if (E.isLeft(tried)) return { raw: r.take(r.remaining) }; // position is back where it was
   * ```
   */
  attempt<T>(run: (reader: Reader) => T, options?: AttemptOptions): E.Either<DecodeError, T> {
    const pos = this.pos;
    const checkpoint = this.state.checkpoint();
    try {
      return E.right(run(this));
    } catch (error) {
      if (!(error instanceof DecodeError) || error instanceof BudgetError) throw error;
      this.pos = pos;
      this.state.rollback(checkpoint);
      options?.undo?.();
      return E.left(error);
    }
  }

  /**
   * Registers a check to run once the whole value is read (see {@link ReadState.deferred}). A check
   * that throws a DecodeError fails the decode; one that warns adds a warning.
   */
  defer(check: () => void): void {
    this.state.deferred.push(check);
  }
}

// Resolved once: write checks read back every value they write (EDGE writes one per instance).
const REREAD_OPTIONS = resolveDecodeOptions(undefined);

/**
 * A reader over bytes just written (`bytes[start, end)`), with default options and a fresh state: what
 * a write check (a switch's, a fallback's) reads them back with to see how they would decode.
 */
export function rereader(bytes: Uint8Array, start: number, end: number): Reader {
  return new Reader(bytes, new ReadState(REREAD_OPTIONS), start, end);
}

/** The state {@link reread} lends while no reread is running (one in use is never lent twice). */
let spareState: ReadState | undefined;

/**
 * `read` run on a reader over bytes just written (`bytes[start, end)`, `view` over `bytes`), as with
 * {@link rereader} — default options and a state as fresh as a new one — for a check that runs once
 * per value written (a switch reading its selector back). The state is one kept between calls and
 * emptied before each, not a new one per value (a state, its context map and budget cost more than
 * reading a four-byte selector); a reread inside another gets a state of its own.
 */
export function reread<T>(bytes: Uint8Array, start: number, end: number, view: DataView, read: (r: Reader) => T): T {
  const state = spareState ?? new ReadState(REREAD_OPTIONS);
  spareState = undefined;
  state.empty();
  try {
    return read(new Reader(bytes, state, start, end, view));
  } finally {
    spareState = state;
  }
}
