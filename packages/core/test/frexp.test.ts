// frexp32: the float32 split read from the value's bits, against frexp worked out by arithmetic
// (exact for float32 values: a power of two and a 24-bit fraction), on every kind of float32.
import fc from 'fast-check';
import { frexp32, type Frexp32 } from '../src/kit';

/** frexp by arithmetic: the exponent by halving or doubling (exact in doubles), the fraction × 2^24. */
function reference(value: number): Frexp32 | undefined {
  const v = Math.fround(value);
  if (!Number.isFinite(v)) return undefined;
  if (v === 0) return { exponent: 0, significand: 0 };
  let a = Math.abs(v);
  let exponent = 0;
  while (a >= 1) {
    a /= 2;
    exponent++;
  }
  while (a < 0.5) {
    a *= 2;
    exponent--;
  }
  const significand = a * 2 ** 24;
  return { exponent, significand: v < 0 ? -significand : significand };
}

const split = (value: number): Frexp32 | undefined => {
  const out = { exponent: 0, significand: 0 };
  return frexp32(value, out) ? out : undefined;
};

describe('frexp32', () => {
  it('agrees with frexp on every float32 bit pattern drawn (normal, subnormal, zero, not finite)', () => {
    const bits = new Uint32Array(1);
    const float = new Float32Array(bits.buffer);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (pattern) => {
        bits[0] = pattern;
        const value = float[0]!;
        expect(split(value)).toEqual(reference(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees on subnormals and doubles (rounded to float32 first)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffff }), fc.boolean(), (fraction, negative) => {
        const value = (negative ? -fraction : fraction) * 2 ** -149;
        expect(split(value)).toEqual(reference(value));
      }),
    );
    fc.assert(fc.property(fc.double(), (value) => expect(split(value)).toEqual(reference(value))));
  });

  it('splits the edges as frexpf does', () => {
    expect(split(-3)).toEqual({ exponent: 2, significand: -(3 << 22) });
    expect(split(1)).toEqual({ exponent: 1, significand: 1 << 23 });
    expect(split(2 ** -149)).toEqual({ exponent: -148, significand: 1 << 23 });
    expect(split(-0)).toEqual({ exponent: 0, significand: 0 });
    expect(split(3.4028234663852886e38)).toEqual({ exponent: 128, significand: 0xffffff });
  });

  it('refuses what no float32 holds, leaving the parts as they were', () => {
    for (const value of [NaN, Infinity, -Infinity, 1e39, -Number.MAX_VALUE]) {
      const out = { exponent: 7, significand: 9 };
      expect(frexp32(value, out)).toBe(false);
      expect(out).toEqual({ exponent: 7, significand: 9 });
    }
  });
});
