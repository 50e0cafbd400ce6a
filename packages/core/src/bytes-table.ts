/**
 * A bounded table keyed by short byte strings, looked up where the bytes lie: a decoder that meets
 * the same short name again and again (a class name per object, a key per table) finds what it
 * made of it the first time — a string, a slot, a handle — from a hash and a compare, without a
 * view of the bytes, a copy or a string per lookup.
 *
 * Laws, for any input (tested in bytes-table.test.ts):
 * - a lookup after a {@link BytesTable.keep} that returned true finds the value kept, for as long as
 *   the table lives (nothing is ever evicted or moved out of reach);
 * - a lookup never gives the value of other bytes: a hit compares the key byte by byte;
 * - the table never holds more than `most` keys, nor a key longer than `longest`, nor more than
 *   `bucket` keys per bucket, so a lookup costs at most `bucket` compares of at most `longest`
 *   bytes, whatever a hostile file does to the hash; what does not fit is simply not kept.
 *
 * @module
 */

/** Bounds of a {@link BytesTable}. */
export interface BytesTableOptions {
  /** The most keys kept (1 to 2^20); once full, new keys are not kept. */
  readonly most: number;
  /** The longest key kept, in bytes (0 to 1024); longer keys are never found nor kept. */
  readonly longest: number;
  /**
   * The most keys per bucket (1 to 64, default 8): keys whose hashes meet in a bucket past this are
   * not kept, so bytes crafted to collide cannot make lookups slow.
   */
  readonly bucket?: number;
}

/** The default of {@link BytesTableOptions.bucket}. */
const BUCKET = 8;
/** Buckets hold on average at most a quarter of their room: full buckets are rare by chance alone. */
const FILL = 4;

/**
 * Short byte strings (`bytes[start, end)`, read in place) to values of the caller's type, bounded
 * as {@link BytesTableOptions} says. It starts small and doubles as keys come, up to what `most`
 * needs; each key is copied once, when kept.
 *
 * @example
 * ```ts
 * const names = new BytesTable<string>({ most: 1024, longest: 32 });
 * const file = new Uint8Array([3, 0x66, 0x6f, 0x6f, 3, 0x66, 0x6f, 0x6f]);
 * const first = names.find(file, 1, 4) ?? 'foo'; // a miss: decode the bytes, then keep the result
 * names.keep(file, 1, 4, first);
 * names.find(file, 5, 8); // 'foo', the same string, from a hash and a compare
 * ```
 */
export class BytesTable<V> {
  /** The longest key kept, in bytes. */
  readonly longest: number;
  /** The most keys kept. */
  readonly most: number;
  private readonly bucket: number;
  /** The most buckets there will be: enough for `most` keys at the average fill. */
  private readonly maxBuckets: number;
  /** Buckets − 1 (a power of two minus one): a hash's bucket is `hash & mask`. */
  private mask: number;
  /** Per slot, bucket by bucket (`bucket` slots each, filled from the first): hash, key, value. */
  private hashes: Int32Array;
  private keys: Array<Uint8Array | undefined>;
  private values: Array<V | undefined>;
  private count = 0;
  /** The hash of the last missed lookup's key, to keep it without hashing again. */
  private missBytes: Uint8Array | undefined;
  private missStart = 0;
  private missEnd = 0;
  private missHash = 0;

  constructor(options: BytesTableOptions) {
    const { most, longest } = options;
    const bucket = options.bucket ?? BUCKET;
    if (!(Number.isInteger(most) && most >= 1 && most <= 1 << 20))
      throw new RangeError(`BytesTable: most must be an integer from 1 to ${1 << 20}, got ${most}`);
    if (!(Number.isInteger(longest) && longest >= 0 && longest <= 1024))
      throw new RangeError(`BytesTable: longest must be an integer from 0 to 1024, got ${longest}`);
    if (!(Number.isInteger(bucket) && bucket >= 1 && bucket <= 64))
      throw new RangeError(`BytesTable: bucket must be an integer from 1 to 64, got ${bucket}`);
    this.most = most;
    this.longest = longest;
    this.bucket = bucket;
    let buckets = 1;
    while (buckets * bucket < most * FILL) buckets *= 2;
    this.maxBuckets = buckets;
    this.mask = 0;
    this.hashes = new Int32Array(bucket);
    this.keys = new Array<Uint8Array | undefined>(bucket).fill(undefined);
    this.values = new Array<V | undefined>(bucket).fill(undefined);
  }

  /** The number of keys kept. */
  get size(): number {
    return this.count;
  }

  /** FNV-1a over the length and the bytes. */
  private static hash(bytes: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5 ^ (end - start);
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    return h;
  }

  /**
   * The value kept for the bytes `bytes[start, end)` (any range of any array: compared, never
   * copied), or `undefined`: then make the value and, if it should be found again, {@link BytesTable.keep} it.
   */
  find(bytes: Uint8Array, start: number, end: number): V | undefined {
    const n = end - start;
    if (n > this.longest || !(n >= 0)) return undefined;
    const h = BytesTable.hash(bytes, start, end);
    const { keys, hashes, bucket } = this;
    const first = (h & this.mask) * bucket;
    for (let s = first, last = first + bucket; s < last; s++) {
      const key = keys[s];
      if (key === undefined) break; // a bucket fills from its first slot, and nothing leaves it
      if (hashes[s] !== h || key.length !== n) continue;
      let i = 0;
      while (i < n && key[i] === bytes[start + i]) i++;
      if (i === n) return this.values[s];
    }
    this.missBytes = bytes;
    this.missStart = start;
    this.missEnd = end;
    this.missHash = h;
    return undefined;
  }

  /**
   * Whether {@link BytesTable.keep} would keep `bytes[start, end)` now (not too long, the table not full, room
   * in the key's bucket): for a caller whose value costs something to make, made only if kept.
   */
  canKeep(bytes: Uint8Array, start: number, end: number): boolean {
    const n = end - start;
    if (n > this.longest || !(n >= 0) || this.count >= this.most) return false;
    this.growIfDue();
    return this.freeSlot(this.hashOf(bytes, start, end)) >= 0;
  }

  /**
   * Keeps `value` for a copy of `bytes[start, end)`, which {@link BytesTable.find} does not hold; returns
   * whether it was kept (false: too long, the table full, or the key's bucket full). Keeping bytes
   * already held is the caller's error: the first value stays the one found. The value should not
   * be `undefined` (a lookup could not tell it from a miss).
   */
  keep(bytes: Uint8Array, start: number, end: number, value: V): boolean {
    const n = end - start;
    if (n > this.longest || !(n >= 0) || this.count >= this.most) return false;
    const h = this.hashOf(bytes, start, end);
    this.missBytes = undefined;
    this.growIfDue();
    const s = this.freeSlot(h);
    if (s < 0) return false;
    this.hashes[s] = h;
    this.keys[s] = bytes.slice(start, end);
    this.values[s] = value;
    this.count++;
    return true;
  }

  /** The hash of `bytes[start, end)`: the one of the lookup that just missed them, if it was that one. */
  private hashOf(bytes: Uint8Array, start: number, end: number): number {
    return bytes === this.missBytes && start === this.missStart && end === this.missEnd
      ? this.missHash
      : BytesTable.hash(bytes, start, end);
  }

  /** Doubles the buckets before one more key would fill them past the average fill, up to the most. */
  private growIfDue(): void {
    if ((this.count + 1) * FILL > (this.mask + 1) * this.bucket && this.mask + 1 < this.maxBuckets) this.grow();
  }

  /** The first free slot of the bucket of `h`, or −1 when it is full. */
  private freeSlot(h: number): number {
    const first = (h & this.mask) * this.bucket;
    for (let s = first, last = first + this.bucket; s < last; s++) if (this.keys[s] === undefined) return s;
    return -1;
  }

  /**
   * Twice the buckets. A bucket's keys go to the bucket of the same number or to the one that many
   * buckets after it, never anywhere else, so every key finds room again and stays found.
   */
  private grow(): void {
    const { hashes, keys, values } = this;
    const slots = hashes.length * 2;
    this.mask = this.mask * 2 + 1;
    this.hashes = new Int32Array(slots);
    this.keys = new Array<Uint8Array | undefined>(slots).fill(undefined);
    this.values = new Array<V | undefined>(slots).fill(undefined);
    for (let s = 0; s < keys.length; s++) {
      const key = keys[s];
      if (key === undefined) continue;
      const to = this.freeSlot(hashes[s]!);
      this.hashes[to] = hashes[s]!;
      this.keys[to] = key;
      this.values[to] = values[s];
    }
  }
}
