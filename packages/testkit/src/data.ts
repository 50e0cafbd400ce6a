/**
 * Deterministic test data: a seeded PRNG and generators of random, text-like and repetitive bytes,
 * the same on every run (for corpora, fuzzing and benchmarks).
 *
 * @module
 */

/** A seeded PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` pseudo-random bytes. */
export function randomBytes(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (next() * 256) | 0;
  return out;
}

const WORDS =
  'the quick brown fox jumps over lazy dog save game level player monster weapon door key secret sector line thing map episode skill health armor ammo'.split(
    ' ',
  );

/** English-like text: words from a small vocabulary, with punctuation and line breaks, as UTF-8. */
export function text(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  let s = '';
  while (s.length < length) {
    s += WORDS[(next() * WORDS.length) | 0];
    const r = next();
    s += r < 0.08 ? '.\n' : r < 0.15 ? ', ' : ' ';
  }
  return new TextEncoder().encode(s.slice(0, length));
}

/** Repetitive data: short patterns, runs and slowly drifting values, like save payloads. */
export function repetitive(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  let i = 0;
  while (i < length) {
    const kind = next();
    const run = 1 + ((next() * 300) | 0);
    const value = (next() * 256) | 0;
    for (let k = 0; k < run && i < length; k++, i++) {
      out[i] = kind < 0.4 ? value : kind < 0.8 ? (value + (k % 7)) & 0xff : (i * 13) & 0xff;
    }
  }
  return out;
}
