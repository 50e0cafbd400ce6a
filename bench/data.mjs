// Deterministic benchmark inputs (the same every run): the testkit's generators, and save-like records.
import { prng, randomBytes, text } from '@savekit/testkit';

export { prng, randomBytes, text };
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
