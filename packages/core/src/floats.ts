/**
 * IEEE 754 floats of 32 and 64 bits in both byte orders.
 *
 * JavaScript numbers cannot carry a NaN's payload bits reliably, so by default a NaN other than the
 * canonical quiet NaN is refused on decode rather than silently changed. A format that stores
 * meaningful NaNs (a Lua `0/0` is `-nan` on x86) uses `float(bits, endian, { nan: 'keep' })`, whose
 * values are `number | NaNBits`.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import * as t from 'io-ts';
import type { Codec } from './codec.js';
import { jsonFloat } from './json.js';
import type { Endian } from './integers.js';
import type { Reader } from './reader.js';

/** A NaN with its exact bit pattern (hex, most significant byte first), from a `nan: 'keep'` float. */
export interface NaNBits {
  readonly nan: string;
}

/** What a float codec does with NaNs whose bits are not the canonical quiet NaN. */
export interface FloatOptions<K extends 'refuse' | 'keep'> {
  /** `refuse` (default): a DecodeError; `keep`: the value is a {@link NaNBits}. */
  readonly nan?: K;
}

const CANONICAL_NAN_32 = 0x7fc00000;
const CANONICAL_NAN_64_HIGH = 0x7ff80000;

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

const nanBitsJson = t.type({ nan: t.string }, 'NaNBits');

/** A float codec that refuses non-canonical NaNs. */
export function float(bits: 32 | 64, endian?: Endian, options?: FloatOptions<'refuse'>): Codec<number>;
/** A float codec that keeps non-canonical NaNs as {@link NaNBits}. */
export function float(bits: 32 | 64, endian: Endian, options: FloatOptions<'keep'>): Codec<number | NaNBits>;
export function float(
  bits: 32 | 64,
  endian: Endian = 'le',
  options: FloatOptions<'refuse' | 'keep'> = {},
): Codec<number> | Codec<number | NaNBits> {
  const le = endian === 'le';
  const size = bits / 8;
  const keep = options.nan === 'keep';
  const name = `f${bits}${endian}`;
  const wide = bits === 64;
  // Reads the raw bits of a NaN as hex, or undefined when they are the canonical quiet NaN.
  const oddNaN = (view: DataView, at: number): string | undefined => {
    if (!wide) {
      const raw = view.getUint32(at, le);
      return raw === CANONICAL_NAN_32 ? undefined : hex(raw, 8);
    }
    const high = view.getUint32(le ? at + 4 : at, le);
    const low = view.getUint32(le ? at : at + 4, le);
    return high === CANONICAL_NAN_64_HIGH && low === 0 ? undefined : hex(high, 8) + hex(low, 8);
  };
  const readFixed = (r: Reader, at: number): number | NaNBits => {
    const value = wide ? r.view.getFloat64(at, le) : r.view.getFloat32(at, le);
    if (Number.isNaN(value)) {
      const odd = oddNaN(r.view, at);
      if (odd !== undefined) {
        if (keep) return { nan: odd };
        throw r.error(
          'invalid-value',
          `NaN with payload 0x${odd} cannot be kept as a number; use float(${bits}, '${endian}', { nan: 'keep' })`,
          at,
        );
      }
    }
    return value;
  };
  return defineExactCodec<number | NaNBits>({
    name: keep ? `${name}(nan: keep)` : name,
    def: { type: 'float', bits, endian, nan: keep ? 'keep' : 'refuse' },
    // Without 'keep' the codec reads and writes numbers only (the overloads say so), so the narrower
    // JSON type stands in for the union one.
    json: (keep ? t.union([jsonFloat, nanBitsJson]) : jsonFloat) as t.Type<number | NaNBits, unknown, unknown>,
    size,
    read(r) {
      const at = r.pos;
      if (at + size > r.end) throw r.shortfall(size);
      const value = readFixed(r, at);
      r.pos = at + size;
      return value;
    },
    readFixed,
    write(w, value: number | NaNBits) {
      if (typeof value === 'object' && value !== null && keep && typeof value.nan === 'string') {
        const digits = size * 2;
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(value.nan)) {
          throw w.error('invalid-value', `NaN bits must be ${digits} hex digits, got ${JSON.stringify(value.nan)}`);
        }
        const at = w.ensure(size);
        for (let i = 0; i < size; i++) {
          const byte = parseInt(value.nan.substr(i * 2, 2), 16);
          w.buf[at + (le ? size - 1 - i : i)] = byte;
        }
        w.length = at + size;
        return;
      }
      if (typeof value !== 'number') throw w.error('wrong-type', `expected a number for ${name}, got ${typeof value}`);
      if (!wide && !Number.isNaN(value) && Math.fround(value) !== value) {
        throw w.error('out-of-range', `${value} is not exactly representable as a 32-bit float`);
      }
      const at = w.ensure(size);
      // Any NaN as the canonical quiet one: the engine keeps a NaN's own bits through arithmetic
      // (x86's 0/0 has its sign bit set), and the same document must give the same bytes.
      if (Number.isNaN(value)) {
        if (wide) {
          w.view.setUint32(le ? at + 4 : at, CANONICAL_NAN_64_HIGH, le);
          w.view.setUint32(le ? at : at + 4, 0, le);
        } else w.view.setUint32(at, CANONICAL_NAN_32, le);
      } else if (wide) w.view.setFloat64(at, value, le);
      else w.view.setFloat32(at, value, le);
      w.length = at + size;
    },
  });
}

/** 32-bit little-endian float. */
export const f32le: Codec<number> = float(32, 'le');
/** 32-bit big-endian float. */
export const f32be: Codec<number> = float(32, 'be');
/** 64-bit little-endian float. */
export const f64le: Codec<number> = float(64, 'le');
/** 64-bit big-endian float. */
export const f64be: Codec<number> = float(64, 'be');
