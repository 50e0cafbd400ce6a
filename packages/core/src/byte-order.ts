/**
 * Byte order as a parameter: one declaration for both orders, the order chosen by the file (a
 * byte-order mark, a magic that reads differently in each order) and followed by the integers and
 * floats inside, on read and on write.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, readThroughFixed, type Codec } from './codec.js';
import { customDef } from './def.js';
import { describeValue } from './errors.js';
import { latin1Bytes, showBytes } from './literal.js';
import { f32be, f32le, f64be, f64le } from './floats.js';
import { i16be, i16le, i24be, i24le, i32be, i32le, i48be, i48le, i64be, i64le, type Endian } from './integers.js';
import { u16be, u16le, u24be, u24le, u32be, u32le, u48be, u48le, u64be, u64le } from './integers.js';
import type { Reader } from './reader.js';

/** The codecs of one declaration in both byte orders (see {@link byteOrdered}). */
export interface ByteOrdered<A> {
  /** The codec for `order`: built on first use, the same object every time after. */
  (order: Endian): Codec<A>;
  /** The factory, for tools that build their own specialisations (compiled codecs). */
  readonly factory: (order: Endian) => Codec<A>;
}

/**
 * One declaration for both byte orders: `factory(order)` builds the codec for an order, and the
 * result is memoised per order, so each order's codec is built once (with its fast paths) and a
 * dependent struct field can pick it per value at no cost.
 *
 * @example
 * ```ts
 * const header = byteOrdered((order) => struct({ major: u16(order), minor: u16(order), count: u32(order) }));
 * const file = struct({
 *   order: byteOrderMark({ be: 'ZSAV', le: 'VASZ' }),
 *   header: (p: { order: Endian }) => header(p.order),
 * });
 * ```
 */
export function byteOrdered<A>(factory: (order: Endian) => Codec<A>): ByteOrdered<A> {
  let le: Codec<A> | undefined;
  let be: Codec<A> | undefined;
  const select = (order: Endian): Codec<A> => {
    if (order === 'le') {
      le ??= factory('le');
      return le;
    }
    if (order === 'be') {
      be ??= factory('be');
      return be;
    }
    throw new RangeError(`byte order ${JSON.stringify(order)} is neither "le" nor "be"`);
  };
  return Object.assign(select, { factory });
}

/**
 * A byte-order mark: bytes whose value is the byte order they announce — `{ be: 'ZSAV', le: 'VASZ' }`
 * (a magic written as a big-endian integer, byte-swapped in the other order), `{ le: 'II', be: 'MM' }`
 * (TIFF), `{ be: '\xFE\xFF', le: '\xFF\xFE' }` (a UTF-16 BOM). Each mark is a string of byte values,
 * as for `magic`; both have the same length and differ. Anything else is a DecodeError naming both.
 * Use it as the struct field that later fields take their order from, or as the selector of a
 * `lookahead` that picks the declaration of each order.
 */
export function byteOrderMark(marks: { readonly le: string; readonly be: string }): Codec<Endian> {
  const le = latin1Bytes(marks.le, 'byteOrderMark');
  const be = latin1Bytes(marks.be, 'byteOrderMark');
  const size = le.length;
  if (be.length !== size || size === 0)
    throw new RangeError('byteOrderMark: the two marks must have the same, non-zero length');
  if (marks.le === marks.be) throw new RangeError('byteOrderMark: the two marks must differ');
  const matches = (r: Reader, at: number, mark: Uint8Array): boolean => {
    for (let i = 0; i < size; i++) if (r.bytes[at + i] !== mark[i]) return false;
    return true;
  };
  const readFixed = (r: Reader, at: number): Endian => {
    if (matches(r, at, be)) return 'be';
    if (matches(r, at, le)) return 'le';
    throw r.error(
      'bad-magic',
      `expected a byte-order mark ${showBytes(be)} (big-endian) or ${showBytes(le)} (little-endian), found ${showBytes(r.bytes.subarray(at, at + size))}`,
      at,
    );
  };
  return defineCodec<Endian>({
    name: `byteOrderMark(${showBytes(be)} | ${showBytes(le)})`,
    def: customDef('byteOrderMark', { params: { marks }, samples: ['le', 'be'] }),
    json: t.keyof({ le: null, be: null }) as unknown as t.Type<Endian, unknown, unknown>,
    size,
    read: readThroughFixed(size, readFixed),
    readFixed,
    write(w, order) {
      if (order !== 'le' && order !== 'be')
        throw w.error('out-of-range', `expected "le" or "be", got ${describeValue(order)}`);
      w.append(order === 'le' ? le : be);
    },
  });
}

/** A codec of either byte order, chosen by the order (both made up front: they are constants). */
const byOrder =
  <A>(be: Codec<A>, le: Codec<A>) =>
  (order: Endian): Codec<A> =>
    order === 'be' ? be : le;

/** Unsigned 16-bit integer in byte order `order` (`u16le` or `u16be`). */
export const u16 = byOrder<number>(u16be, u16le);
/** Signed 16-bit integer in byte order `order`. */
export const i16 = byOrder<number>(i16be, i16le);
/** Unsigned 24-bit integer in byte order `order`. */
export const u24 = byOrder<number>(u24be, u24le);
/** Signed 24-bit integer in byte order `order`. */
export const i24 = byOrder<number>(i24be, i24le);
/** Unsigned 32-bit integer in byte order `order`. */
export const u32 = byOrder<number>(u32be, u32le);
/** Signed 32-bit integer in byte order `order`. */
export const i32 = byOrder<number>(i32be, i32le);
/** Unsigned 48-bit integer in byte order `order`. */
export const u48 = byOrder<number>(u48be, u48le);
/** Signed 48-bit integer in byte order `order`. */
export const i48 = byOrder<number>(i48be, i48le);
/** Unsigned 64-bit integer (a bigint) in byte order `order`. */
export const u64 = byOrder<bigint>(u64be, u64le);
/** Signed 64-bit integer (a bigint) in byte order `order`. */
export const i64 = byOrder<bigint>(i64be, i64le);
/** 32-bit float in byte order `order`. */
export const f32 = byOrder<number>(f32be, f32le);
/** 64-bit float in byte order `order`. */
export const f64 = byOrder<number>(f64be, f64le);
