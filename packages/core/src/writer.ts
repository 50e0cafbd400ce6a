/**
 * The growing write cursor. It can reserve a slot and patch it later (lengths, offsets and checksums
 * written after their data) and open a sub-writer for a body that is transformed before it lands.
 *
 * @module
 */
import { type ErrorArgs, errorOf, EncodeError, type ErrorCode, type PathSegment } from './errors.js';

/** What every writer of one encode shares. */
export class WriteState {
  /** The current field path. */
  readonly path: PathSegment[] = [];
  /** Current nesting depth of codecs that can recurse. */
  depth = 0;
  /** Open pointer arenas, innermost last (managed by `arena` and `pointer`). */
  readonly arenas: unknown[] = [];
  /** What codecs of one encode tell each other, by key (see `ReadState.context`). */
  readonly context = new Map<unknown, unknown>();

  constructor(readonly maxDepth: number) {}
}

/** A growable output buffer with a cursor at its end. */
export class Writer {
  /** The backing buffer; only `[0, length)` is written. Replaced when it grows. */
  buf: Uint8Array;
  /** A DataView over {@link buf}. Replaced when it grows. */
  view: DataView;
  /** Bytes written so far (the next write goes here). */
  length = 0;
  /** Where the current window (chunk body, sized field) began; alignment is counted from here. */
  origin = 0;

  constructor(
    readonly state: WriteState,
    initialCapacity = 256,
  ) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  /**
   * An EncodeError at the current path and output offset. With a code first
   * (`w.error('out-of-range', '300 does not fit', at)`) the error has that {@link ErrorCode}; without
   * one it is `invalid-value`.
   */
  error(...args: ErrorArgs): EncodeError {
    return errorOf(EncodeError, this.state.path.slice(), this.length, args);
  }

  /**
   * An EncodeError at a child of the current path — the field `key` the value is refused for —
   * without entering it (no path to push and pop around a check made before writing the field). A
   * code may come after the key, as in {@link error}.
   */
  errorAt(key: PathSegment, ...args: ErrorArgs): EncodeError {
    return errorOf(EncodeError, [...this.state.path, key], this.length, args);
  }

  /** Makes room for `count` more bytes and returns the offset they go to. */
  ensure(count: number): number {
    const at = this.length;
    const needed = at + count;
    if (needed > this.buf.length) this.grow(needed);
    return at;
  }

  private grow(needed: number): void {
    let capacity = this.buf.length * 2;
    while (capacity < needed) capacity *= 2;
    this.resize(capacity);
  }

  private resize(capacity: number): void {
    const next = new Uint8Array(capacity);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /**
   * Makes room for exactly `count` more bytes, for a codec that knows the size of what it is about to
   * write: the buffer is grown once to that size (not doubled), so a large save is neither copied
   * while it grows nor rounded up, and {@link finish} can hand the buffer over without a copy.
   */
  presize(count: number): void {
    const needed = this.length + count;
    if (needed > this.buf.length) this.resize(needed);
  }

  /** Writes one byte (0–255; the caller has range-checked it). */
  u8(value: number): void {
    if (this.length >= this.buf.length) this.grow(this.length + 1);
    this.buf[this.length++] = value;
  }

  /** Appends bytes. */
  append(bytes: Uint8Array): void {
    const n = bytes.length;
    const at = this.ensure(n);
    const buf = this.buf;
    // Short runs (a field's bytes, a small segment) are the common case: a loop beats a builtin call.
    if (n <= 16) for (let i = 0; i < n; i++) buf[at + i] = bytes[i]!;
    else buf.set(bytes, at);
    this.length = at + n;
  }

  /** Appends `count` copies of `fill`. */
  fill(count: number, fill = 0): void {
    const at = this.ensure(count);
    const buf = this.buf;
    // A few bytes (a chunk's length slot, its padding) are the common case: a loop beats a builtin call.
    if (count <= 16) for (let i = 0; i < count; i++) buf[at + i] = fill;
    else buf.fill(fill, at, at + count);
    this.length = at + count;
  }

  /** Reserves `count` zero bytes to be patched later; returns their offset. */
  reserve(count: number): number {
    const at = this.length;
    this.fill(count, 0);
    return at;
  }

  /** A new, empty writer sharing this encode's path and depth (for bodies that are transformed). */
  sub(initialCapacity = 64): Writer {
    return new Writer(this.state, initialCapacity);
  }

  /** The bytes written so far, as a view (valid until the next write). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /**
   * The bytes written, for the end of an encode: the buffer itself when it is exactly full (no copy
   * of a large save), else a copy of the written part. The writer must not be used afterwards.
   */
  finish(): Uint8Array {
    return this.length === this.buf.length ? this.buf : this.buf.slice(0, this.length);
  }

  /** Enters one nesting level of a recursive codec; fails past the depth limit. */
  descend(): void {
    if (++this.state.depth > this.state.maxDepth) {
      throw this.error('too-deep', `nesting deeper than ${this.state.maxDepth} levels`);
    }
  }

  /** Leaves a nesting level entered with {@link descend}. */
  ascend(): void {
    this.state.depth -= 1;
  }
}
