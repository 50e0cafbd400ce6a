/**
 * Values inside data segments (zippy.md §3.1): a type byte, then the payload — numbers as doubles
 * (−0 and NaN kept; 4-byte floats under number format 1), Lua 5.3 integers as 64-bit integers,
 * strings as a u32 length and raw bytes, references as a slot in the current object's reference list
 * (each distinct object is referenced once, in order of first mention). Every integer and number is
 * in the file's byte order ({@link SegmentFormat}).
 *
 * @module
 */
import {
  bytes,
  DecodeError,
  EncodeError,
  float,
  i64be,
  i64le,
  map,
  nothing,
  taggedUnion,
  u8,
  u32be,
  u32le,
  type Codec,
  type ErrorCode,
  type NaNBits,
  type Path,
} from '@savekit/core';
import {
  type BytesTable,
  DEFAULT_MAX_DEPTH,
  Reader,
  ReadState,
  resolveDecodeOptions,
  Writer,
  WriteState,
} from '@savekit/core/kit';
import type { ObjectSink } from '@savekit/core/graph';
import { ValueType } from './tags.js';

/**
 * How a file stores what is inside its segments: the byte order of its integers and numbers (the
 * container's, `VASZ` being `le`) and its number format (header flag bits 8–11: 0 = 8-byte doubles,
 * 1 = 4-byte floats).
 */
export interface SegmentFormat {
  /** `be` (magic `ZSAV`, the default) or `le` (magic `VASZ`). */
  readonly byteOrder?: 'be' | 'le';
  /** 0 = f64 (the default), 1 = f32. */
  readonly numberFormat?: number;
  /**
   * Under number format 1, write a number a 4-byte float cannot hold exactly as the nearest one
   * (default false: such a number is an EncodeError, since the file would load another value).
   */
  readonly allowPrecisionLoss?: boolean;
}

/** Thrown by {@link SegmentWriter} for a number number format 1 cannot hold (see {@link SegmentFormat}). */
export class PrecisionError extends Error {
  override readonly name = 'PrecisionError';
  constructor(
    readonly value: number,
    /** The offset of the number in the segment. */
    readonly offset: number,
  ) {
    super(
      `${value} is not exactly a 4-byte float (it would load as ${Math.fround(value)}): number format 1 refuses it unless allowPrecisionLoss is set`,
    );
  }
}

/** The codecs of one byte order and number width. */
function makeCodecs(le: boolean, wide: boolean) {
  const u32 = le ? u32le : u32be;
  const i64 = le ? i64le : i64be;
  // Every NaN is read (as NaN), as Lua's own loader does; the writer writes the quiet one.
  const number = float(wide ? 64 : 32, le ? 'le' : 'be', { nan: 'keep' });
  const string = bytes(u32);
  return {
    u32,
    i64,
    number,
    wide,
    le,
    string,
    value: storedValue(u32, string, i64, number, `${le ? 'le' : 'be'}${wide ? 64 : 32}`),
  };
}

/**
 * A value as its segment stores it: a reference is a slot in the object's reference list (the
 * graph layer resolves it to the object; see {@link SegmentReader}).
 */
export type StoredValue = null | boolean | number | NaNBits | LuaInteger | Uint8Array | { readonly slot: number };

/** Whether a stored number is a NaN kept as its bits. */
function isNaNBits(value: unknown): value is NaNBits {
  return value !== null && typeof value === 'object' && 'nan' in value;
}

/** The value types, each as the core's taggedUnion stores and presents it. */
type StoredTagged =
  | { tag: 0 | 1 | 2; value: undefined }
  | { tag: 3; value: number | NaNBits }
  | { tag: 4; value: Uint8Array }
  | { tag: 5 | 6; value: number | bigint };

/**
 * The declaration of a value (zippy.md §3.1): a type byte, then nothing (nil, false, true), a number
 * (8 or 4 bytes), a u32 length and the string's bytes, a u32 reference slot, or a 64-bit integer.
 */
function storedValue(
  u32: Codec<number>,
  string: Codec<Uint8Array>,
  i64: Codec<bigint>,
  number: Codec<number | NaNBits>,
  variant: string,
): Codec<StoredValue> {
  const union = taggedUnion(u8, {
    [ValueType.nil]: nothing,
    [ValueType.false]: nothing,
    [ValueType.true]: nothing,
    [ValueType.number]: number,
    [ValueType.string]: string,
    [ValueType.reference]: u32,
    [ValueType.integer]: i64,
  }) as unknown as Codec<StoredTagged>;
  return map(union, {
    name: `zvalue(${variant})`,
    decode(stored): StoredValue {
      switch (stored.tag) {
        case ValueType.nil:
          return null;
        case ValueType.false:
          return false;
        case ValueType.true:
          return true;
        case ValueType.number:
          return stored.value; // a NaN with a payload as its bits, so its bytes round-trip
        case ValueType.string:
          return stored.value;
        case ValueType.reference:
          return { slot: stored.value as number };
        default:
          return new LuaInteger(stored.value as bigint);
      }
    },
    encode(value): StoredTagged {
      if (value === null || value === undefined) return { tag: ValueType.nil, value: undefined };
      if (value === false) return { tag: ValueType.false, value: undefined };
      if (value === true) return { tag: ValueType.true, value: undefined };
      if (typeof value === 'number' || isNaNBits(value)) return { tag: ValueType.number, value };
      if (value instanceof LuaInteger) return { tag: ValueType.integer, value: value.value };
      if (value instanceof Uint8Array) return { tag: ValueType.string, value };
      return { tag: ValueType.reference, value: value.slot };
    },
  });
}

/**
 * The declared value codec of a segment format (byte order, number format): {@link StoredValue}s,
 * references as slots. {@link SegmentReader} and {@link SegmentWriter} read and write values with it.
 */
export function segmentValue(format: SegmentFormat = {}): Codec<StoredValue> {
  return codecsOf(format).value;
}

// Made once: a segment reader or writer is made per object, so its codecs must not be.
const SEGMENT_CODECS = {
  be64: makeCodecs(false, true),
  be32: makeCodecs(false, false),
  le64: makeCodecs(true, true),
  le32: makeCodecs(true, false),
} as const;

/** The codecs of a segment format (one set per byte order and number width, made once). */
function codecsOf(format: SegmentFormat = {}) {
  if (format.numberFormat !== undefined && format.numberFormat !== 0 && format.numberFormat !== 1)
    throw new RangeError(`number format ${format.numberFormat} is not 0 (f64) or 1 (f32)`);
  // Chosen without building a key: a reader is made per object.
  const wide = (format.numberFormat ?? 0) === 0;
  if (format.byteOrder === 'le') return wide ? SEGMENT_CODECS.le64 : SEGMENT_CODECS.le32;
  return wide ? SEGMENT_CODECS.be64 : SEGMENT_CODECS.be32;
}

/** A Lua integer (5.3's integer subtype), kept apart from floats so `1` and `1.0` stay what they were. */
export class LuaInteger {
  constructor(readonly value: bigint) {}
}

/** A value in a segment: nil, a boolean, a float, an integer, a string's bytes, or a reference to an object. */
export type ZValue = null | boolean | number | LuaInteger | Uint8Array | { readonly ref: object };

/** Up to this many references a segment writer finds slots by a scan; from here on, by its map. */
const FEW_REFERENCES = 8;

/**
 * Builds one data segment, in the file's byte order and number format ({@link SegmentFormat}; by
 * default big-endian doubles), on the core's {@link Writer} with the core's integer and float codecs.
 */
export class SegmentWriter {
  private readonly out = new Writer(new WriteState(DEFAULT_MAX_DEPTH), 64);
  private readonly codecs: ReturnType<typeof codecsOf>;
  private readonly lossy: boolean;

  constructor(readonly format: SegmentFormat = {}) {
    this.codecs = codecsOf(format);
    this.lossy = format.allowPrecisionLoss === true;
  }
  /** The object's references in slot order (first mention first). */
  readonly references: Array<object | null> = [];
  private readonly slots = new Map<object, number>();

  /** Bytes written to this segment so far. */
  get length(): number {
    return this.out.length;
  }

  u8(v: number): void {
    u8.write(this.out, v);
  }
  u32(v: number): void {
    this.codecs.u32.write(this.out, v >>> 0);
  }
  /**
   * A Lua number: 8 bytes, or 4 under number format 1 — where a number that would load as another
   * value is a {@link PrecisionError} unless precision loss is allowed. NaN is written as the
   * canonical quiet NaN, as the core's float codecs do.
   */
  f64(v: number): void {
    if (!this.codecs.wide && !this.lossy && !Number.isNaN(v) && !Object.is(Math.fround(v), v))
      throw new PrecisionError(v, this.out.length);
    this.codecs.number.write(this.out, this.codecs.wide ? v : Math.fround(v));
  }
  i64(v: bigint): void {
    this.codecs.i64.write(this.out, v);
  }
  /**
   * A safe integer as the 64-bit integer {@link i64} writes for it, as two 32-bit halves: a Lua
   * integer read from a state is a JavaScript number, and a BigInt per integer costs a save of a
   * million of them more than the writing does.
   */
  integer(v: number): void {
    const high = Math.floor(v / 0x1_0000_0000) >>> 0;
    const low = v >>> 0;
    const u32 = this.codecs.u32;
    if (this.codecs.le) {
      u32.write(this.out, low);
      u32.write(this.out, high);
    } else {
      u32.write(this.out, high);
      u32.write(this.out, low);
    }
  }
  bytes(b: Uint8Array): void {
    this.out.append(b);
  }

  /** The slot of `target` in this object's references (added on first mention). */
  slot(target: object): number {
    const references = this.references;
    const n = references.length;
    // A few references (most objects): found by a scan, no map to fill and empty per object.
    if (n < FEW_REFERENCES) {
      for (let i = 0; i < n; i++) if (references[i] === target) return i;
      references.push(target);
      if (n + 1 === FEW_REFERENCES) for (let i = 0; i <= n; i++) this.slots.set(references[i]!, i);
      return n;
    }
    let s = this.slots.get(target);
    if (s === undefined) {
      s = this.references.length;
      this.references.push(target);
      this.slots.set(target, s);
    }
    return s;
  }

  /** Writes a value (a reference as its slot, added on first mention). */
  value(v: ZValue): void {
    if (typeof v === 'number' && !this.codecs.wide && !this.lossy && !Number.isNaN(v) && !Object.is(Math.fround(v), v))
      throw new PrecisionError(v, this.out.length + 1);
    this.codecs.value.write(this.out, this.stored(v));
  }

  /**
   * A value as the segment stores it: a reference as its slot (added on first mention), a number
   * as the nearest 4-byte float under number format 1 when precision loss is allowed.
   */
  stored(v: ZValue): StoredValue {
    if (v !== null && typeof v === 'object' && 'ref' in v) return { slot: this.slot(v.ref) };
    return typeof v === 'number' ? this.number(v) : (v ?? null);
  }

  /** A number as written: itself, or under number format 1 with precision loss allowed the nearest float. */
  number(v: number): number {
    return this.lossy && !this.codecs.wide ? Math.fround(v) : v;
  }

  /**
   * Writes `value` with a declared codec of this segment's format; a number number format 1 cannot
   * hold is a {@link PrecisionError} at its offset.
   */
  write<A>(codec: Codec<A>, value: A): void {
    try {
      codec.write(this.out, value);
    } catch (error) {
      if (!(error instanceof EncodeError)) throw error;
      const v = valueAt(value, error.path);
      if (typeof v === 'number' && !Object.is(Math.fround(v), v)) throw new PrecisionError(v, error.offset);
      throw error;
    }
  }

  /** The segment's bytes. */
  done(): Uint8Array {
    return this.out.written().slice();
  }

  /** The segment's bytes as a view, valid until the next write or reset (for callers that copy them). */
  written(): Uint8Array {
    return this.out.written();
  }

  /**
   * Hands the segment's bytes to `sink` (a graph writer's, which copies them) as its buffer and
   * length: no view of them is made (one per saved object, where a save has a million).
   */
  writeTo(sink: Pick<ObjectSink<never>, 'writeData'>): void {
    sink.writeData(this.out.buf, this.out.length);
  }

  /** Empties the writer for the next segment (its buffer is reused). */
  reset(): void {
    this.out.length = 0;
    // Only when they hold something (a clear is a runtime call, per object).
    const references = this.references;
    if (references.length !== 0) {
      if (references.length >= FEW_REFERENCES) this.slots.clear();
      // Emptied by popping: a length set to 0 drops the array's storage, and the next object's
      // first reference made it anew (a million-table save made a million of them).
      while (references.length !== 0) references.pop();
    }
  }
}

/** Why a segment could not be read: the message, the offset in the segment, and the kind of failure. */
export class SegmentError extends Error {
  override readonly name = 'SegmentError';
  constructor(
    message: string,
    readonly offset: number,
    /** The code of the DecodeError this becomes (see `segmentFailure`). */
    readonly code: ErrorCode = 'invalid-value',
  ) {
    super(message);
  }
}

/** Options of the reader under a segment: the defaults (a segment is read value by value, not as one decode). */
const SEGMENT_OPTIONS = resolveDecodeOptions(undefined);
/**
 * The read state under every segment reader, emptied as each reader is made (its budget too: each
 * segment is bounded by its own bytes, as when every reader had a state of its own) — a state per
 * segment (its arrays, map and budget) cost a million-object load more than the segments' reads did.
 * No read is under way when a reader is made: a reader paused between two values (its object
 * waits for another to be restored first) finds the state empty, as it left it.
 */
const SEGMENT_STATE = new ReadState(SEGMENT_OPTIONS);

/**
 * Reads one data segment in the file's byte order and number format (pass the decoded file, or any
 * {@link SegmentFormat}; by default big-endian doubles), on the core's {@link Reader} with the core's
 * integer and float codecs (bounds-checked); what they refuse is a {@link SegmentError} at the offset
 * in the segment.
 */
export class SegmentReader {
  private readonly reader: Reader;
  private readonly codecs: ReturnType<typeof codecsOf>;
  /**
   * Where the segment starts in the buffer the reader walks: segments are views into one buffer
   * (the file's, the graph image's), read through one byte array and DataView over all of it — a
   * DataView per segment cost a million-object load more than the reading did. Offsets this reader
   * gives and takes count from the segment's start, as they always have.
   */
  private readonly base: number;
  /** The segment as a view, made when {@link bytes} is first asked for (a reader {@link within} a buffer has none). */
  private segment: Uint8Array | undefined;

  constructor(
    bytes: Uint8Array,
    /** Resolves a slot to the referenced object (or null / an external). */
    private readonly resolve: (slot: number, at: number) => object | null,
    readonly format: SegmentFormat = {},
    /** Where the segment is in `bytes`, when it is a range of them (see {@link within}). */
    range?: { readonly from: number; readonly to: number },
  ) {
    SEGMENT_STATE.empty();
    this.codecs = codecsOf(format);
    const whole = wholeBuffer(bytes);
    const shift = bytes.byteOffset - whole.bytes.byteOffset;
    if (range !== undefined) {
      // The segment is a range of `bytes`: no view of it is made.
      this.base = shift + range.from;
      this.reader = new Reader(whole.bytes, SEGMENT_STATE, this.base, shift + range.to, whole.view);
      return;
    }
    this.segment = bytes;
    this.base = shift;
    this.reader = new Reader(whole.bytes, SEGMENT_STATE, shift, shift + bytes.length, whole.view);
  }

  /**
   * A reader of the segment `data[from, to)` — a segment of a graph image's `data`, say — made
   * without a view of it (for a million segments, a view each cost a load more than reading them).
   * Offsets it gives and takes count from `from`.
   *
   * @throws RangeError when `from`–`to` is not a range of `data`.
   */
  static within(
    data: Uint8Array,
    from: number,
    to: number,
    resolve: (slot: number, at: number) => object | null,
    format: SegmentFormat = {},
  ): SegmentReader {
    if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= data.length))
      throw new RangeError(`${from}–${to} is not a range of the ${data.length} bytes`);
    return new SegmentReader(data, resolve, format, { from, to });
  }

  /** The segment's bytes (a view into the buffer it lies in). */
  get bytes(): Uint8Array {
    this.segment ??= this.reader.bytes.subarray(this.base, this.reader.end);
    return this.segment;
  }

  /** The segment's length in bytes. */
  get length(): number {
    return this.reader.end - this.base;
  }

  /** The next byte, without moving (undefined at the end). */
  peek(): number | undefined {
    return this.reader.peek();
  }

  /**
   * The value `table` holds for the next `n` bytes, looked up where they lie (no view made of them),
   * without moving; undefined when it holds none or fewer than `n` bytes are left.
   */
  find<V>(table: BytesTable<V>, n: number): V | undefined {
    const at = this.reader.pos;
    return n > this.reader.end - at ? undefined : table.find(this.reader.bytes, at, at + n);
  }

  /**
   * The order of the segment's bytes `[a, aEnd)` and `[b, bEnd)` (offsets in the segment), compared
   * where they lie: negative, zero or positive as the first sorts before, with or after the second
   * (byte by byte, a prefix first).
   */
  compareBytes(a: number, aEnd: number, b: number, bEnd: number): number {
    const bytes = this.reader.bytes;
    const base = this.base;
    const n = Math.min(aEnd - a, bEnd - b);
    for (let i = 0; i < n; i++) {
      const d = bytes[base + a + i]! - bytes[base + b + i]!;
      if (d !== 0) return d;
    }
    return aEnd - a - (bEnd - b);
  }

  /** The offset of the next byte to read. */
  get pos(): number {
    return this.reader.pos - this.base;
  }
  set pos(at: number) {
    this.reader.pos = at + this.base;
  }

  /** Reads with a declared codec of this segment's format; what it refuses is a {@link SegmentError}. */
  read<A>(codec: Codec<A>): A {
    try {
      return codec.read(this.reader);
    } catch (error) {
      throw segmentError(error, this.base);
    }
  }
  u8(): number {
    return this.read(u8);
  }
  u32(): number {
    return this.read(this.codecs.u32);
  }
  /** A Lua number (8 bytes, or 4 under number format 1). */
  f64(): number {
    const value = this.read(this.codecs.number);
    return typeof value === 'number' ? value : Number.NaN;
  }
  i64(): bigint {
    return this.read(this.codecs.i64);
  }
  /**
   * What {@link i64} reads, as a number when it is a safe integer (a BigInt per integer costs a load
   * of a million of them more than the reading does), else as a bigint.
   */
  integer(): number | bigint {
    if (this.reader.remaining < 8) return this.i64(); // its error, at its offset
    const first = this.u32();
    const second = this.u32();
    const high = this.codecs.le ? second : first;
    const low = this.codecs.le ? first : second;
    // |value| < 2^53 when the high half is a sign extension of at most 21 bits.
    if (high < 0x20_0000 || high > 0xffe0_0000 || (high === 0xffe0_0000 && low !== 0))
      return (high | 0) * 0x1_0000_0000 + low;
    return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low));
  }
  /** A string's bytes (a u32 length, then the bytes), read as a value's string payload is. */
  string(): Uint8Array {
    return this.read(this.codecs.string);
  }
  /** The next `n` bytes, as a view into the segment. */
  take(n: number): Uint8Array {
    try {
      return this.reader.borrow(n);
    } catch (error) {
      throw segmentError(error, this.base);
    }
  }
  /** Bytes of a Lua number in this segment (8, or 4 under number format 1). */
  get numberSize(): number {
    return this.codecs.wide ? 8 : 4;
  }
  /** A count of items of at least `minSize` bytes each, refused when the segment cannot hold it. */
  count(minSize: number): number {
    const at = this.pos;
    const n = this.u32();
    if (n * minSize > this.reader.remaining)
      throw new SegmentError(
        `a count of ${n} cannot fit in the ${this.reader.remaining} bytes left`,
        at,
        'count-too-large',
      );
    return n;
  }
  get atEnd(): boolean {
    return this.reader.atEnd;
  }

  /** Reads a value; references resolve to objects (`{ ref }`). */
  value(): ZValue {
    const at = this.pos;
    return this.resolved(this.read(this.codecs.value), at);
  }

  /**
   * A stored value as the graph sees it: a reference resolved to its object (a slot past the
   * object's references is a SegmentError at the value, `at`), every NaN the one NaN Lua has.
   */
  resolved(stored: StoredValue, at: number): ZValue {
    if (isNaNBits(stored)) return Number.NaN;
    if (stored === null || typeof stored !== 'object' || !('slot' in stored)) return stored;
    const target = this.resolve(stored.slot, at + 1);
    return target === null ? null : { ref: target };
  }
}

/** The part of `value` at `path` (an EncodeError's), or undefined. */
function valueAt(value: unknown, path: Path): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || (typeof key !== 'string' && typeof key !== 'number')) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/**
 * A core DecodeError from reading a segment as a {@link SegmentError}, its offset made one in the
 * segment (which starts at `base` of the buffer read).
 */
function segmentError(error: unknown, base: number): unknown {
  return error instanceof DecodeError ? new SegmentError(error.message, error.offset - base, error.code) : error;
}

/** A byte array and a DataView over the whole of a buffer. */
interface WholeBuffer {
  readonly bytes: Uint8Array;
  readonly view: DataView;
}

/**
 * The whole buffer under the segments read last, weakly held (a reader never keeps a file alive
 * past its load), and under a segment that owns its buffer alone, nothing shared.
 */
let lastWhole: WeakRef<WholeBuffer> | undefined;

/**
 * A byte array and DataView over all of `segment`'s buffer (the last one made, when the segment
 * is in the same buffer): one per file, not one per segment.
 */
function wholeBuffer(segment: Uint8Array): WholeBuffer {
  const known = lastWhole?.deref();
  if (known !== undefined && known.bytes.buffer === segment.buffer) return known;
  const { buffer } = segment;
  const made: WholeBuffer =
    segment.byteOffset === 0 && segment.byteLength === buffer.byteLength
      ? { bytes: segment, view: new DataView(buffer, 0, segment.byteLength) }
      : { bytes: new Uint8Array(buffer), view: new DataView(buffer) };
  lastWhole = new WeakRef(made);
  return made;
}
