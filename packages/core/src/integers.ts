/**
 * Integers of 8, 16, 24, 32, 48 and 64 bits, signed and unsigned, little- and big-endian. Values up to
 * 48 bits are `number`s; 64-bit values are `bigint`s.
 *
 * @module
 */
import { describeValue } from './errors.js';
import { defineExactCodec } from './exact.js';
import type { Codec } from './codec.js';
import { jsonBigInt, jsonInt } from './json.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** Byte order. */
export type Endian = 'le' | 'be';

/** Widths an integer codec can have. */
export type IntBits = 8 | 16 | 24 | 32 | 48;

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeValue(value);
}

function checkInt(w: Writer, name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw w.error('wrong-type', `expected an integer for ${name}, got ${describe(value)}`);
  }
  if (value < min || value > max)
    throw w.error('out-of-range', `${value} is out of range for ${name} (${min} to ${max})`);
}

type RawRead = (r: Reader, at: number) => number;
type RawWrite = (w: Writer, at: number, value: number) => void;

function rawAccess(bits: IntBits, signed: boolean, le: boolean): [RawRead, RawWrite] {
  switch (bits) {
    case 8:
      return signed
        ? [(r, at) => r.view.getInt8(at), (w, at, v) => w.view.setInt8(at, v)]
        : [(r, at) => r.bytes[at]!, (w, at, v) => (w.buf[at] = v)];
    case 16:
      return signed
        ? [(r, at) => r.view.getInt16(at, le), (w, at, v) => w.view.setInt16(at, v, le)]
        : [(r, at) => r.view.getUint16(at, le), (w, at, v) => w.view.setUint16(at, v, le)];
    case 32:
      return signed
        ? [(r, at) => r.view.getInt32(at, le), (w, at, v) => w.view.setInt32(at, v, le)]
        : [(r, at) => r.view.getUint32(at, le), (w, at, v) => w.view.setUint32(at, v, le)];
    case 24: {
      const read: RawRead = (r, at) => {
        const b = r.bytes;
        const u = le
          ? b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)
          : (b[at]! << 16) | (b[at + 1]! << 8) | b[at + 2]!;
        return signed && u & 0x800000 ? u - 0x1000000 : u;
      };
      const write: RawWrite = (w, at, v) => {
        const u = v < 0 ? v + 0x1000000 : v;
        const b = w.buf;
        b[at + (le ? 0 : 2)] = u & 0xff;
        b[at + 1] = (u >> 8) & 0xff;
        b[at + (le ? 2 : 0)] = (u >> 16) & 0xff;
      };
      return [read, write];
    }
    case 48: {
      // Split into a 32-bit low part and a 16-bit high part; both are exact in a double.
      const read: RawRead = (r, at) => {
        const low = r.view.getUint32(le ? at : at + 2, le);
        const high = signed ? r.view.getInt16(le ? at + 4 : at, le) : r.view.getUint16(le ? at + 4 : at, le);
        return high * 0x100000000 + low;
      };
      const write: RawWrite = (w, at, v) => {
        const low = ((v % 0x100000000) + 0x100000000) % 0x100000000;
        const high = (v - low) / 0x100000000;
        w.view.setUint32(le ? at : at + 2, low, le);
        w.view.setUint16(le ? at + 4 : at, high & 0xffff, le);
      };
      return [read, write];
    }
  }
}

/**
 * An integer codec of any supported width, signedness and byte order. The named constants
 * (`u8`, `u16le`, …) are made with it.
 */
export function int(bits: IntBits, signed: boolean, endian: Endian = 'le'): Codec<number> {
  const size = bits / 8;
  const name = `${signed ? 'i' : 'u'}${bits}${bits === 8 ? '' : endian}`;
  const min = signed ? -(2 ** (bits - 1)) : 0;
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  const [rawRead, rawWrite] = rawAccess(bits, signed, endian === 'le');
  return defineExactCodec<number>({
    name,
    def: { type: 'int', bits, signed, endian, min, max },
    json: jsonInt(name, min, max),
    size,
    read(r) {
      const at = r.pos;
      if (at + size > r.end) throw r.shortfall(size);
      r.pos = at + size;
      return rawRead(r, at);
    },
    readFixed: rawRead,
    write(w, value) {
      checkInt(w, name, value, min, max);
      const at = w.ensure(size);
      rawWrite(w, at, value);
      w.length = at + size;
    },
    writeFixed(w, at, value) {
      if (typeof value !== 'number' || !(value >= min && value <= max) || !Number.isInteger(value))
        checkInt(w, name, value, min, max);
      rawWrite(w, at, value);
    },
  });
}

/** A 64-bit integer codec (values are `bigint`). */
export function int64(signed: boolean, endian: Endian = 'le'): Codec<bigint> {
  const name = `${signed ? 'i' : 'u'}64${endian}`;
  const le = endian === 'le';
  const min = signed ? -(2n ** 63n) : 0n;
  const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  return defineExactCodec<bigint>({
    name,
    def: { type: 'int', bits: 64, signed, endian, min, max },
    json: jsonBigInt(name, min, max),
    size: 8,
    read(r) {
      const at = r.pos;
      if (at + 8 > r.end) throw r.shortfall(8);
      r.pos = at + 8;
      return signed ? r.view.getBigInt64(at, le) : r.view.getBigUint64(at, le);
    },
    readFixed: signed ? (r, at) => r.view.getBigInt64(at, le) : (r, at) => r.view.getBigUint64(at, le),
    write(w, value) {
      if (typeof value !== 'bigint')
        throw w.error('wrong-type', `expected a bigint for ${name}, got ${describe(value)}`);
      if (value < min || value > max)
        throw w.error('out-of-range', `${value} is out of range for ${name} (${min} to ${max})`);
      const at = w.ensure(8);
      if (signed) w.view.setBigInt64(at, value, le);
      else w.view.setBigUint64(at, value, le);
      w.length = at + 8;
    },
  });
}

/** Unsigned 8-bit integer. */
export const u8: Codec<number> = int(8, false);
/** Signed 8-bit integer. */
export const i8: Codec<number> = int(8, true);
/** Unsigned 16-bit little-endian integer. */
export const u16le: Codec<number> = int(16, false, 'le');
/** Unsigned 16-bit big-endian integer. */
export const u16be: Codec<number> = int(16, false, 'be');
/** Signed 16-bit little-endian integer. */
export const i16le: Codec<number> = int(16, true, 'le');
/** Signed 16-bit big-endian integer. */
export const i16be: Codec<number> = int(16, true, 'be');
/** Unsigned 24-bit little-endian integer. */
export const u24le: Codec<number> = int(24, false, 'le');
/** Unsigned 24-bit big-endian integer. */
export const u24be: Codec<number> = int(24, false, 'be');
/** Signed 24-bit little-endian integer. */
export const i24le: Codec<number> = int(24, true, 'le');
/** Signed 24-bit big-endian integer. */
export const i24be: Codec<number> = int(24, true, 'be');
/** Unsigned 32-bit little-endian integer. */
export const u32le: Codec<number> = int(32, false, 'le');
/** Unsigned 32-bit big-endian integer. */
export const u32be: Codec<number> = int(32, false, 'be');
/** Signed 32-bit little-endian integer. */
export const i32le: Codec<number> = int(32, true, 'le');
/** Signed 32-bit big-endian integer. */
export const i32be: Codec<number> = int(32, true, 'be');
/** Unsigned 48-bit little-endian integer (Terrarum's 6-byte times and lengths). */
export const u48le: Codec<number> = int(48, false, 'le');
/** Unsigned 48-bit big-endian integer. */
export const u48be: Codec<number> = int(48, false, 'be');
/** Signed 48-bit little-endian integer. */
export const i48le: Codec<number> = int(48, true, 'le');
/** Signed 48-bit big-endian integer. */
export const i48be: Codec<number> = int(48, true, 'be');
/** Unsigned 64-bit little-endian integer, as `bigint`. */
export const u64le: Codec<bigint> = int64(false, 'le');
/** Unsigned 64-bit big-endian integer, as `bigint`. */
export const u64be: Codec<bigint> = int64(false, 'be');
/** Signed 64-bit little-endian integer, as `bigint`. */
export const i64le: Codec<bigint> = int64(true, 'le');
/** Signed 64-bit big-endian integer, as `bigint`. */
export const i64be: Codec<bigint> = int64(true, 'be');
