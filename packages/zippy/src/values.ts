/**
 * Values inside data segments (zippy.md §3.1): a type byte, then the payload — numbers as
 * big-endian doubles (−0 and NaN kept), Lua 5.3 integers as big-endian 64-bit integers, strings as a
 * u32 length and raw bytes, references as a slot in the current object's reference list (each
 * distinct object is referenced once, in order of first mention).
 *
 * @module
 */
import { f64be, i64be, u8, u32be } from '@savekit/core';
import { DEFAULT_MAX_DEPTH, Writer, WriteState } from '@savekit/core/kit';
import { ValueType } from './tags.js';

/** A Lua integer (5.3's integer subtype), kept apart from floats so `1` and `1.0` stay what they were. */
export class LuaInteger {
  constructor(readonly value: bigint) {}
}

/** A value in a segment: nil, a boolean, a float, an integer, a string's bytes, or a reference to an object. */
export type ZValue = null | boolean | number | LuaInteger | Uint8Array | { readonly ref: object };

/** Builds one data segment, big-endian, on the core's {@link Writer} with the core's integer and float codecs. */
export class SegmentWriter {
  private readonly out = new Writer(new WriteState(DEFAULT_MAX_DEPTH), 64);
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
    u32be.write(this.out, v >>> 0);
  }
  /** NaN is written as the canonical quiet NaN, as the core's float codecs do. */
  f64(v: number): void {
    f64be.write(this.out, v);
  }
  i64(v: bigint): void {
    i64be.write(this.out, v);
  }
  bytes(b: Uint8Array): void {
    this.out.append(b);
  }

  /** The slot of `target` in this object's references (added on first mention). */
  slot(target: object): number {
    let s = this.slots.get(target);
    if (s === undefined) {
      s = this.references.length;
      this.references.push(target);
      this.slots.set(target, s);
    }
    return s;
  }

  /** Writes a value. */
  value(v: ZValue): void {
    if (v === null || v === undefined) this.u8(ValueType.nil);
    else if (v === false) this.u8(ValueType.false);
    else if (v === true) this.u8(ValueType.true);
    else if (typeof v === 'number') {
      this.u8(ValueType.number);
      this.f64(v);
    } else if (v instanceof LuaInteger) {
      this.u8(ValueType.integer);
      this.i64(v.value);
    } else if (v instanceof Uint8Array) {
      this.u8(ValueType.string);
      this.u32(v.length);
      this.bytes(v);
    } else {
      this.u8(ValueType.reference);
      this.u32(this.slot(v.ref));
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

  /** Empties the writer for the next segment (its buffer is reused). */
  reset(): void {
    this.out.length = 0;
    this.references.length = 0;
    this.slots.clear();
  }
}

/** Why a segment could not be read: the message and the offset in the segment. */
export class SegmentError extends Error {
  override readonly name = 'SegmentError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Reads one data segment, big-endian, with bounds checks. */
export class SegmentReader {
  pos = 0;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    /** Resolves a slot to the referenced object (or null / an external). */
    private readonly resolve: (slot: number, at: number) => object | null,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    if (this.pos + n > this.bytes.length)
      throw new SegmentError(`expected ${n} more bytes, ${this.bytes.length - this.pos} left`, this.pos);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8(): number {
    return this.bytes[this.need(1)]!;
  }
  u32(): number {
    return this.view.getUint32(this.need(4), false);
  }
  f64(): number {
    return this.view.getFloat64(this.need(8), false);
  }
  take(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }
  /** A count of items of at least `minSize` bytes each, refused when the segment cannot hold it. */
  count(minSize: number): number {
    const at = this.pos;
    const n = this.u32();
    if (n * minSize > this.bytes.length - this.pos)
      throw new SegmentError(`a count of ${n} cannot fit in the ${this.bytes.length - this.pos} bytes left`, at);
    return n;
  }
  get atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** Reads a value; references resolve to objects (`{ ref }`). */
  value(): ZValue {
    const at = this.pos;
    const type = this.u8();
    switch (type) {
      case ValueType.nil:
        return null;
      case ValueType.false:
        return false;
      case ValueType.true:
        return true;
      case ValueType.number:
        return this.f64();
      case ValueType.integer:
        return new LuaInteger(this.view.getBigInt64(this.need(8), false));
      case ValueType.string: {
        const n = this.count(1);
        return this.take(n).slice();
      }
      case ValueType.reference: {
        const slotAt = this.pos;
        const target = this.resolve(this.u32(), slotAt);
        return target === null ? null : { ref: target };
      }
      default:
        throw new SegmentError(`unknown value type 0x${type.toString(16).padStart(2, '0')}`, at);
    }
  }
}
