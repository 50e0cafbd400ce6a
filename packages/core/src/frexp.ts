/**
 * A float32 value split as C's `frexpf` splits it, with the fraction as an integer: read from the
 * value's bits, where `Math.log2` and a power of two per value cost several times more (EDGE stores
 * every float of a save as such a pair).
 *
 * @module
 */

/** What {@link frexp32} writes: `value = significand · 2^(exponent − 24)`. */
export interface Frexp32 {
  /** frexp's exponent: the value is in [2^(exponent−1), 2^exponent) in magnitude. */
  exponent: number;
  /**
   * frexp's fraction × 2^24, signed: an integer whose magnitude is in [2^23, 2^24), or 0 for zero
   * (either sign).
   */
  significand: number;
}

// One float32's four bytes, seen as a number and as its bits (the same bytes: byte order does not matter).
const FLOAT = new Float32Array(1);
const BITS = new Uint32Array(FLOAT.buffer);

/**
 * Splits `value`, rounded to float32 first (as storing it in a C `float` would), into `out`: the
 * exponent and the 24-bit significand of `frexpf`, subnormal values normalised as `frexpf` does.
 * Zero (and −0) gives exponent 0, significand 0. Returns false, leaving `out` as it was, for a value
 * that is not finite as a float32 (NaN, ±Infinity, or beyond float32's range).
 *
 * @example
 * ```ts
 * import { frexp32 } from '@savekit/core/kit';
 * const parts = { exponent: 0, significand: 0 };
 * frexp32(-3, parts); // true; parts: { exponent: 2, significand: -12582912 } (-0.75 · 2^2)
 * ```
 */
export function frexp32(value: number, out: Frexp32): boolean {
  FLOAT[0] = value;
  const bits = BITS[0]!;
  const biased = (bits >>> 23) & 0xff;
  if (biased === 0xff) return false;
  let significand = bits & 0x7fffff;
  let exponent: number;
  if (biased !== 0) {
    significand |= 0x800000;
    exponent = biased - 126;
  } else if (significand === 0) {
    out.exponent = 0;
    out.significand = 0;
    return true;
  } else {
    // Subnormal: the fraction's leading one is moved up to bit 23 (it is below it by `shift`).
    const shift = Math.clz32(significand) - 8;
    significand <<= shift;
    exponent = -125 - shift;
  }
  out.exponent = exponent;
  out.significand = bits >>> 31 === 1 ? -significand : significand;
  return true;
}
