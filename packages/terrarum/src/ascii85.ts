/**
 * Terrarum's Ascii85 (terrarum.md §5.3): its own 85-character alphabet — digits (0–9), a–z (10–35),
 * A–Z (36–61), then ``!#%&'()*+-.:;<=>?@^_`|~`` (62–84) — big-endian groups of 4 bytes as 5
 * characters, no `z` shortcut, a partial last group truncated.
 *
 * @module
 */

/** The alphabet, value order. */
export const TERRARUM_ASCII85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#%&'()*+-.:;<=>?@^_`|~";

const VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < TERRARUM_ASCII85.length; i++) VALUE[TERRARUM_ASCII85.charCodeAt(i)] = i;

/** Encodes bytes. */
export function ascii85Encode(bytes: Uint8Array): string {
  const out: string[] = [];
  const chars = new Array<string>(5);
  for (let i = 0; i < bytes.length; i += 4) {
    const n = Math.min(4, bytes.length - i);
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 256 + (k < n ? bytes[i + k]! : 0);
    for (let k = 4; k >= 0; k--) {
      chars[k] = TERRARUM_ASCII85[v % 85]!;
      v = Math.floor(v / 85);
    }
    out.push(n === 4 ? chars.join('') : chars.slice(0, n + 1).join(''));
  }
  return out.join('');
}

/** Why a text is not Terrarum Ascii85: the message and the character's position. */
export class Ascii85Error extends Error {
  override readonly name = 'Ascii85Error';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Decodes text (refusing characters outside the alphabet, a 1-character last group, and overflow). */
export function ascii85Decode(text: string): Uint8Array {
  const full = Math.floor(text.length / 5);
  const rest = text.length % 5;
  if (rest === 1) throw new Ascii85Error('a last group of one character holds no byte', text.length - 1);
  const out = new Uint8Array(full * 4 + (rest === 0 ? 0 : rest - 1));
  let o = 0;
  for (let i = 0; i < text.length; i += 5) {
    const n = Math.min(5, text.length - i);
    let v = 0;
    for (let k = 0; k < 5; k++) {
      let d = 84; // padding of a partial group: the largest digit
      if (k < n) {
        const c = text.charCodeAt(i + k);
        d = c < 128 ? VALUE[c]! : -1;
        if (d < 0)
          throw new Ascii85Error(`${JSON.stringify(text[i + k])} is not in Terrarum's Ascii85 alphabet`, i + k);
      }
      v = v * 85 + d;
    }
    if (v > 0xffffffff && n === 5) throw new Ascii85Error('a group is over 2^32', i);
    for (let k = 0; k < n - 1; k++) out[o++] = Math.floor(v / 256 ** (3 - k)) % 256;
  }
  return out;
}
