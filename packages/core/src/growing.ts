/**
 * Growable columns for graph images: a typed array that doubles ({@link Growing}) and bytes kept in
 * megabyte chunks joined once ({@link ChunkedBytes}). Internal to the core's graph modules.
 *
 * @module
 */

/** A growable typed array. */
export class Growing<T extends Uint32Array | Int32Array> {
  length = 0;
  constructor(
    public items: T,
    private readonly make: (n: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.items.length) this.grow(this.length + 1);
    this.items[this.length++] = value;
  }
  grow(needed: number): void {
    let capacity = Math.max(16, this.items.length * 2);
    while (capacity < needed) capacity *= 2;
    const next = this.make(capacity);
    next.set(this.items.subarray(0, this.length));
    this.items = next;
  }
  done(extra = 0): T {
    return this.items.slice(0, this.length + extra) as T;
  }
}

/** Bytes of one chunk of {@link ChunkedBytes}. */
const CHUNK = 1 << 20;

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
