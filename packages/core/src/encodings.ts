/**
 * Text encodings of strings in savegames: UTF-8, ASCII and IBM code page 437 (the DOS character set;
 * `TextDecoder` has no cp437, so the 128 upper code points are a table here).
 *
 * @module
 */

/** The encodings string codecs support. */
export type EncodingName = 'utf8' | 'ascii' | 'cp437';

/** A failure to decode or encode text: `index` is the byte (decode) or UTF-16 unit (encode) at fault. */
export class TextCodingError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/** A text encoding: bytes to string and back, failing rather than substituting. */
export interface TextEncoding {
  /** The encoding's name. */
  readonly name: EncodingName;
  /** Decodes bytes; throws {@link TextCodingError} on a byte sequence the encoding does not allow. */
  decode(bytes: Uint8Array): string;
  /** Encodes text; throws {@link TextCodingError} on a character the encoding cannot hold. */
  encode(text: string): Uint8Array;
  /** Whether every character of `text` can be encoded (for generators and validation). */
  canEncode(text: string): boolean;
}

/**
 * Code points of cp437 bytes 0x80–0xFF (bytes 0x00–0x7F are ASCII, as in the IANA and Unicode
 * mappings; the DOS glyphs for control codes are not used, so control bytes stay control bytes).
 */
export const CP437_UPPER: string =
  'ÇüéâäàåçêëèïîìÄÅ' + // 0x80
  'ÉæÆôöòûùÿÖÜ¢£¥₧ƒ' + // 0x90
  'áíóúñÑªº¿⌐¬½¼¡«»' + // 0xA0
  '░▒▓│┤╡╢╖╕╣║╗╝╜╛┐' + // 0xB0
  '└┴┬├─┼╞╟╚╔╩╦╠═╬╧' + // 0xC0
  '╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀' + // 0xD0
  'αßΓπΣσµτΦΘΩδ∞φε∩' + // 0xE0
  '≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0'; // 0xF0

function bytesToLatin(bytes: Uint8Array, table: string | undefined): string {
  // String.fromCharCode over slices: fast, and bounded in argument count.
  let out = '';
  const step = 8192;
  for (let start = 0; start < bytes.length; start += step) {
    const part = bytes.subarray(start, Math.min(bytes.length, start + step));
    if (table === undefined) {
      out += String.fromCharCode.apply(null, part as unknown as number[]);
    } else {
      let piece = '';
      for (let i = 0; i < part.length; i++) {
        const b = part[i]!;
        piece += b < 0x80 ? String.fromCharCode(b) : table[b - 0x80];
      }
      out += piece;
    }
  }
  return out;
}

/** 7-bit ASCII: bytes 0x80–0xFF and characters above U+007F are refused. */
export const ascii: TextEncoding = {
  name: 'ascii',
  decode(bytes) {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b > 0x7f) throw new TextCodingError(`byte 0x${b.toString(16)} is not ASCII`, i);
    }
    return bytesToLatin(bytes, undefined);
  },
  encode(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) throw new TextCodingError(`character ${JSON.stringify(text[i])} is not ASCII`, i);
      out[i] = c;
    }
    return out;
  },
  canEncode(text) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included, is what can be encoded
    return /^[\x00-\x7f]*$/.test(text);
  },
};

const CP437_REVERSE: ReadonlyMap<number, number> = new Map(
  Array.from(CP437_UPPER, (ch, i) => [ch.charCodeAt(0), 0x80 + i] as const),
);

/** IBM code page 437: every byte is a character, so decoding never fails. */
export const cp437: TextEncoding = {
  name: 'cp437',
  decode(bytes) {
    return bytesToLatin(bytes, CP437_UPPER);
  },
  encode(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const b = c < 0x80 ? c : CP437_REVERSE.get(c);
      if (b === undefined) throw new TextCodingError(`character ${JSON.stringify(text[i])} is not in cp437`, i);
      out[i] = b;
    }
    return out;
  },
  canEncode(text) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80 && !CP437_REVERSE.has(c)) return false;
    }
    return true;
  },
};

/** Index of the first byte that breaks UTF-8 (only called once TextDecoder has refused the bytes). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

// fatal: refuse bad bytes instead of substituting U+FFFD; ignoreBOM: keep a leading BOM as text.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** UTF-8: invalid byte sequences and lone surrogates are refused, never replaced. */
export const utf8: TextEncoding = {
  name: 'utf8',
  decode(bytes) {
    try {
      return utf8Decoder.decode(bytes);
    } catch {
      const at = firstInvalidUtf8(bytes);
      throw new TextCodingError(`invalid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16)})`, at);
    }
  },
  encode(text) {
    const bad = firstLoneSurrogate(text);
    if (bad >= 0) throw new TextCodingError('a lone surrogate cannot be encoded as UTF-8', bad);
    return utf8Encoder.encode(text);
  },
  canEncode(text) {
    return firstLoneSurrogate(text) < 0;
  },
};

/** The encoding of a name. */
export function textEncoding(name: EncodingName): TextEncoding {
  switch (name) {
    case 'utf8':
      return utf8;
    case 'ascii':
      return ascii;
    case 'cp437':
      return cp437;
  }
}
