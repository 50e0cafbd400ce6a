/**
 * Growable columns for graph images: a typed array that doubles ({@link Growing}) and bytes kept in
 * megabyte chunks joined once ({@link ChunkedBytes}). {@link Growing} is public (`@savekit/core/graph`):
 * a saver keeps columns of its own per object with it, outside the collector's heap.
 *
 * @module
 */

/**
 * A growable typed array: {@link Growing.items} holds the values `[0, length)` (and spare room),
 * doubling as values are pushed. Read and write `items[i]` for `i < length` directly.
 *
 * @example
 * ```ts
 * import { Growing } from '@savekit/core/graph';
 *
 * const column = new Growing(new Int32Array(16), (n) => new Int32Array(n));
 * for (let i = 0; i < 100; i++) column.push(i * 2);
 * column.items[3]; // 6
 * column.done().length; // 100
 * ```
 */
export class Growing<T extends Uint32Array | Int32Array> {
  /** How many values were pushed. */
  length = 0;
  /**
   * @param items - The first storage (its length is the first capacity).
   * @param make - Makes storage of `n` values, as `items` is (`(n) => new Int32Array(n)`).
   */
  constructor(
    /** The storage: values `[0, length)`, then spare room. Replaced when it grows. */
    public items: T,
    private readonly make: (n: number) => T,
  ) {}
  /** Appends `value`. */
  push(value: number): void {
    if (this.length === this.items.length) this.grow(this.length + 1);
    this.items[this.length++] = value;
  }
  /** Makes room for at least `needed` values in all. */
  grow(needed: number): void {
    let capacity = Math.max(16, this.items.length * 2);
    while (capacity < needed) capacity *= 2;
    const next = this.make(capacity);
    next.set(this.items.subarray(0, this.length));
    this.items = next;
  }
  /** A copy of the values, and `extra` values of the spare room after them. */
  done(extra = 0): T {
    return this.items.slice(0, this.length + extra) as T;
  }
}

/** Bytes of one chunk of {@link ChunkedBytes}. */
const CHUNK = 1 << 20;

/**
 * Copies `source[from, to)` into `target` at `at`. Up to 64 bytes by a loop: the builtin's copy needs
 * a view of the range made first, and graph segments (a million of them in a save) are mostly short.
 */
export function copyRange(target: Uint8Array, at: number, source: Uint8Array, from: number, to: number): void {
  const n = to - from;
  if (n <= 64) for (let i = 0; i < n; i++) target[at + i] = source[from + i]!;
  else target.set(source.subarray(from, to), at);
}

/**
 * Appended bytes kept in chunks of a megabyte and joined once at the end: a large graph's data is
 * never copied while it grows, and no buffer twice its size is ever made (a doubling buffer made
 * and dropped ever larger ones, which cost a million-object save its garbage collections).
 */
export class ChunkedBytes {
  /** Bytes appended so far. */
  length = 0;
  private readonly full: Uint8Array[] = [];
  private chunk = new Uint8Array(256);
  private used = 0;

  append(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.used + n > this.chunk.length) this.next(n);
    const chunk = this.chunk;
    const at = this.used;
    // Small segments are the common case: a loop beats a builtin call for them.
    if (n <= 16) for (let i = 0; i < n; i++) chunk[at + i] = bytes[i]!;
    else chunk.set(bytes, at);
    this.used = at + n;
    this.length += n;
  }

  /** Appends `bytes[from, to)` (with no view of them made when they are few; see {@link copyRange}). */
  appendRange(bytes: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (this.used + n > this.chunk.length) this.next(n);
    copyRange(this.chunk, this.used, bytes, from, to);
    this.used += n;
    this.length += n;
  }

  /** Closes the current chunk and starts one with room for `n` more bytes. */
  private next(n: number): void {
    // The first chunks grow from small (most graphs are small), the later are a megabyte each.
    if (this.full.length === 0 && this.length + n <= CHUNK) {
      let capacity = this.chunk.length * 2;
      while (capacity < this.used + n) capacity *= 2;
      const grown = new Uint8Array(Math.min(capacity, CHUNK));
      grown.set(this.chunk.subarray(0, this.used));
      this.chunk = grown;
      return;
    }
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = new Uint8Array(Math.max(CHUNK, n));
    this.used = 0;
  }

  /**
   * Every byte appended, in one array: the current chunk itself when it holds them all (a view of its
   * written part, no copy), else {@link ChunkedBytes.done}'s joined copy. For an owner that appends
   * nothing more: the view shares the chunk later appends would write to.
   */
  take(): Uint8Array {
    return this.full.length === 0 ? this.chunk.subarray(0, this.used) : this.done();
  }

  /** Every byte appended, in one array of exactly their length. */
  done(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.full) {
      out.set(part, at);
      at += part.length;
    }
    out.set(this.chunk.subarray(0, this.used), at);
    return out;
  }
}
