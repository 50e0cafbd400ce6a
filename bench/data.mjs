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

/**
 * The flat-struct input: `count` records of four u32le (16 bytes each), with the hand-written
 * DataView decoder and encoder the compiled codecs are measured against (flat-struct, many-shapes).
 */
export function flatRecords(count) {
  const bytes = new Uint8Array(count * 16);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) & 0xff;
  const view = new DataView(bytes.buffer);
  const handDecode = () => {
    const out = [];
    for (let i = 0, at = 0; i < count; i++, at += 16) {
      out.push({
        a: view.getUint32(at, true),
        b: view.getUint32(at + 4, true),
        c: view.getUint32(at + 8, true),
        d: view.getUint32(at + 12, true),
      });
    }
    return out;
  };
  const values = handDecode();
  const handEncode = () => {
    const out = new Uint8Array(count * 16);
    const dv = new DataView(out.buffer);
    for (let i = 0, at = 0; i < count; i++, at += 16) {
      const v = values[i];
      dv.setUint32(at, v.a, true);
      dv.setUint32(at + 4, v.b, true);
      dv.setUint32(at + 8, v.c, true);
      dv.setUint32(at + 12, v.d, true);
    }
    return out;
  };
  return { bytes, values, handDecode, handEncode };
}
