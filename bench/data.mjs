// Deterministic benchmark inputs (the same every run).
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(length, seed) {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (next() * 256) | 0;
  return out;
}

const WORDS = 'the quick brown fox jumps over lazy dog save game level player monster weapon door key secret sector line thing map episode skill health armor ammo'.split(' ');

export function text(length, seed) {
  const next = prng(seed);
  let s = '';
  while (s.length < length) {
    s += WORDS[(next() * WORDS.length) | 0];
    const r = next();
    s += r < 0.08 ? '.\n' : r < 0.15 ? ', ' : ' ';
  }
  return new TextEncoder().encode(s.slice(0, length));
}

/** Save-like payloads: records of small integers, fixed-point coordinates, names and padding. */
export function savePayload(length, seed) {
  const next = prng(seed);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  const names = ['MAP01', 'IMP', 'ZOMBIEMAN', 'MEDIKIT', 'SHOTGUN', 'T:SKY1', 'F:FLOOR4_8'];
  let at = 0;
  while (at + 48 <= length) {
    view.setUint32(at, (next() * 2000) | 0, true);
    view.setInt32(at + 4, ((next() - 0.5) * 65536 * 4096) | 0, true);
    view.setInt32(at + 8, ((next() - 0.5) * 65536 * 4096) | 0, true);
    view.setUint16(at + 12, (next() * 360) | 0, true);
    const name = new TextEncoder().encode(names[(next() * names.length) | 0]);
    out.set(name.subarray(0, 16), at + 16);
    at += 48;
  }
  return out;
}
