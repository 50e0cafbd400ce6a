/**
 * Short text decoded in JavaScript, for the compiled codecs: below a few dozen bytes a call into
 * `TextDecoder` (and the `subarray` it needs) costs more than the text itself.
 *
 * Code units are gathered in one scratch buffer and the string is made by a single
 * `String.fromCharCode` call with them as arguments: that allocates nothing but the string, where
 * appending a character at a time allocates a string per character (garbage that, in a decode of
 * thousands of records, made the collector the largest cost).
 *
 * @module
 */

/** The most bytes these functions take: every byte gives at most one UTF-16 unit. */
export const SHORT_TEXT = 48;

const units = new Uint16Array(SHORT_TEXT);

/** Eight units (a half of {@link Units16}). */
type Units8 = [number, number, number, number, number, number, number, number];

/** The scratch buffer typed as its first 16 units, so each read is a plain `number` (types only). */
type Units16 = readonly [...Units8, ...Units8];

/** The first `n` units of the scratch buffer as a string (arguments spelt out: no array is made). */
function unitsToString(n: number): string {
  const u = units as unknown as Units16;
  const f = String.fromCharCode;
  switch (n) {
    case 0:
      return '';
    case 1:
      return f(u[0]);
    case 2:
      return f(u[0], u[1]);
    case 3:
      return f(u[0], u[1], u[2]);
    case 4:
      return f(u[0], u[1], u[2], u[3]);
    case 5:
      return f(u[0], u[1], u[2], u[3], u[4]);
    case 6:
      return f(u[0], u[1], u[2], u[3], u[4], u[5]);
    case 7:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6]);
    case 8:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7]);
    case 9:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8]);
    case 10:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9]);
    case 11:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10]);
    case 12:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11]);
    case 13:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12]);
    case 14:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13]);
    case 15:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14]);
    case 16:
      return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    default:
      // Longer text: the units in one call (a view, not a copy).
      return String.fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);
  }
}

/**
 * UTF-8 of `bytes[start, end)` (at most {@link SHORT_TEXT} bytes), or `undefined` where a fatal
 * `TextDecoder` would refuse it (overlong forms, surrogates, code points past U+10FFFF, truncated
 * sequences).
 */
export function shortUtf8(bytes: Uint8Array, start: number, end: number): string | undefined {
  const u = units;
  let n = 0;
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      u[n++] = b;
      i++;
    } else if (b >= 0xc2 && b <= 0xdf) {
      const c1 = bytes[i + 1]!;
      if (i + 1 >= end || (c1 & 0xc0) !== 0x80) return undefined;
      u[n++] = ((b & 0x1f) << 6) | (c1 & 0x3f);
      i += 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      const c1 = bytes[i + 1]!;
      const c2 = bytes[i + 2]!;
      if (i + 2 >= end || (c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return undefined;
      const cp = ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      u[n++] = cp;
      i += 3;
    } else if (b >= 0xf0 && b <= 0xf4) {
      const c1 = bytes[i + 1]!;
      const c2 = bytes[i + 2]!;
      const c3 = bytes[i + 3]!;
      if (i + 3 >= end || (c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return undefined;
      const cp = ((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) return undefined;
      u[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      u[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      i += 4;
    } else {
      return undefined;
    }
  }
  return unitsToString(n);
}

/** ASCII of `bytes[start, end)` (at most {@link SHORT_TEXT} bytes), or `undefined` on a byte over 0x7f. */
export function shortAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  const u = units;
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return undefined;
    u[n++] = b;
  }
  return unitsToString(n);
}
