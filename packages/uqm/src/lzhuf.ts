/**
 * LZHUF as UQM 0.7 uses it for its saves (uqm.md §5.1): Okumura's LZSS with Yoshizaki's adaptive
 * Huffman coding (1988), with a 4096-byte ring, a 16-byte look-ahead, matches of 3…16 bytes, bits
 * packed most significant first; a stream is a u32 little-endian uncompressed length, then the code.
 * Written from that description; the encoder breaks ties the classic way (on equal lengths the
 * nearer position wins), which is what makes its output the game's, byte for byte.
 *
 * @module
 */
import { encodeOrThrow, struct, u32le } from '@savekit/core';
import { fixedField, OutputLimitError } from '@savekit/core/kit';

const N = 4096; // ring buffer
const F = 16; // look-ahead (classic LZHUF: 60)
const THRESHOLD = 2; // matches longer than this are coded
const NIL = N;
const N_CHAR = 256 - THRESHOLD + F; // 270 symbols: 256 literals, 14 match lengths
const T = N_CHAR * 2 - 1; // Huffman tree size
const R = T - 1; // root
const MAX_FREQ = 0x8000;

/** The head of a stream ({@link lzhufCompress}, {@link lzhufDecompress}): the length it decompresses to. */
const streamHead = struct({ size: u32le }, 'lzhufHead');
const streamSize = fixedField(streamHead, 'size');

/** Upper 6 bits of a position: code lengths and codes (the classic LZHUF table). */
const P_LEN = Uint8Array.from([
  3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
]);
const P_CODE = Uint8Array.from([
  0x00, 0x20, 0x30, 0x40, 0x50, 0x58, 0x60, 0x68, 0x70, 0x78, 0x80, 0x88, 0x90, 0x94, 0x98, 0x9c, 0xa0, 0xa4, 0xa8,
  0xac, 0xb0, 0xb4, 0xb8, 0xbc, 0xc0, 0xc2, 0xc4, 0xc6, 0xc8, 0xca, 0xcc, 0xce, 0xd0, 0xd2, 0xd4, 0xd6, 0xd8, 0xda,
  0xdc, 0xde, 0xe0, 0xe2, 0xe4, 0xe6, 0xe8, 0xea, 0xec, 0xee, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
  0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
]);

// The decoder's tables, derived from the encoder's: for each first byte, the upper position bits
// and how many bits that prefix code takes.
const D_CODE = new Uint8Array(256);
const D_LEN = new Uint8Array(256);
for (let upper = 0; upper < 64; upper++) {
  const span = 1 << (8 - P_LEN[upper]!);
  for (let k = 0; k < span; k++) {
    D_CODE[P_CODE[upper]! + k] = upper;
    D_LEN[P_CODE[upper]! + k] = P_LEN[upper]!;
  }
}

/** Why an LZHUF stream was refused. */
export class LzhufError extends Error {
  override readonly name = 'LzhufError';
  constructor(
    message: string,
    /** Offset in the stream (header included) where it went wrong. */
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The adaptive Huffman coder shared by both directions. */
class Huffman {
  readonly freq = new Uint16Array(T + 1);
  readonly prnt = new Int32Array(T + N_CHAR);
  readonly son = new Int32Array(T);

  constructor() {
    const { freq, prnt, son } = this;
    for (let i = 0; i < N_CHAR; i++) {
      freq[i] = 1;
      son[i] = i + T;
      prnt[i + T] = i;
    }
    for (let i = 0, j = N_CHAR; j <= R; i += 2, j++) {
      freq[j] = freq[i]! + freq[i + 1]!;
      son[j] = i;
      prnt[i] = prnt[i + 1] = j;
    }
    freq[T] = 0xffff;
    prnt[R] = 0;
  }

  /** Halves the frequencies and rebuilds the tree (when the root reaches MAX_FREQ). */
  private reconst(): void {
    const { freq, prnt, son } = this;
    let j = 0;
    for (let i = 0; i < T; i++) {
      if (son[i]! >= T) {
        freq[j] = (freq[i]! + 1) >>> 1;
        son[j] = son[i]!;
        j++;
      }
    }
    for (let i = 0, k = N_CHAR; k < T; i += 2, k++) {
      const f = freq[i]! + freq[i + 1]!;
      freq[k] = f;
      let l = k - 1;
      while (f < freq[l]!) l--;
      l++;
      freq.copyWithin(l + 1, l, k);
      freq[l] = f;
      son.copyWithin(l + 1, l, k);
      son[l] = i;
    }
    for (let i = 0; i < T; i++) {
      const k = son[i]!;
      if (k >= T) prnt[k] = i;
      else prnt[k] = prnt[k + 1] = i;
    }
  }

  /** Counts symbol `c` and keeps the tree ordered by frequency. */
  update(symbol: number): void {
    const { freq, prnt, son } = this;
    if (freq[R] === MAX_FREQ) this.reconst();
    let c = prnt[symbol + T]!;
    do {
      const k = ++freq[c]!;
      let l = c + 1;
      if (k > freq[l]!) {
        while (k > freq[++l]!);
        l--;
        freq[c] = freq[l]!;
        freq[l] = k;
        const i = son[c]!;
        prnt[i] = l;
        if (i < T) prnt[i + 1] = l;
        const j = son[l]!;
        son[l] = i;
        prnt[j] = c;
        if (j < T) prnt[j + 1] = c;
        son[c] = j;
        c = l;
      }
      c = prnt[c]!;
    } while (c !== 0);
  }
}

/** A growing output of bits, most significant first. */
class BitWriter {
  private out = new Uint8Array(1024);
  length = 0;
  private buf = 0; // up to 16 pending bits, left-aligned in a 16-bit word
  private bits = 0;

  private push(byte: number): void {
    if (this.length === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.length++] = byte;
  }

  /** Writes the top `count` bits of the 16-bit `code` (as LZHUF's Putcode). */
  put(count: number, code: number): void {
    this.buf = (this.buf | (code >>> this.bits)) & 0xffff;
    this.bits += count;
    if (this.bits >= 8) {
      this.push(this.buf >>> 8);
      this.bits -= 8;
      if (this.bits >= 8) {
        this.push(this.buf & 0xff);
        this.bits -= 8;
        this.buf = (code << (count - this.bits)) & 0xffff;
      } else {
        this.buf = (this.buf << 8) & 0xffff;
      }
    }
  }

  /** Flushes the last bits, zero-padded, as one byte. */
  finish(): Uint8Array {
    if (this.bits > 0) this.push(this.buf >>> 8);
    return this.out.slice(0, this.length);
  }
}

/**
 * Compresses `input` into a UQM LZHUF stream: u32 little-endian length, then the code.
 *
 * @example
 * ```ts
 * import { lzhufCompress, lzhufDecompress } from '@savekit/uqm';
 * const text = new TextEncoder().encode('starcon2 starcon2 starcon2');
 * lzhufDecompress(lzhufCompress(text)); // the same bytes
 * ```
 */
export function lzhufCompress(input: Uint8Array): Uint8Array {
  const huff = new Huffman();
  const bits = new BitWriter();
  const text = new Uint8Array(N + F - 1);
  const lson = new Int32Array(N + 1);
  const rson = new Int32Array(N + 257);
  const dad = new Int32Array(N + 1);
  rson.fill(NIL, N + 1, N + 257);
  dad.fill(NIL, 0, N);
  let matchPosition = 0;
  let matchLength = 0;

  const insertNode = (r: number) => {
    let cmp = 1;
    let p = N + 1 + text[r]!;
    rson[r] = lson[r] = NIL;
    matchLength = 0;
    for (;;) {
      if (cmp >= 0) {
        if (rson[p] !== NIL) p = rson[p]!;
        else {
          rson[p] = r;
          dad[r] = p;
          return;
        }
      } else if (lson[p] !== NIL) p = lson[p]!;
      else {
        lson[p] = r;
        dad[r] = p;
        return;
      }
      let i = 1;
      for (; i < F; i++) {
        cmp = text[r + i]! - text[p + i]!;
        if (cmp !== 0) break;
      }
      if (i > THRESHOLD) {
        const position = ((r - p) & (N - 1)) - 1;
        if (i > matchLength) {
          matchPosition = position;
          matchLength = i;
          if (matchLength >= F) break;
        }
        if (i === matchLength && position < matchPosition) matchPosition = position;
      }
    }
    dad[r] = dad[p]!;
    lson[r] = lson[p]!;
    rson[r] = rson[p]!;
    dad[lson[p]!] = r;
    dad[rson[p]!] = r;
    if (rson[dad[p]!] === p) rson[dad[p]!] = r;
    else lson[dad[p]!] = r;
    dad[p] = NIL;
  };

  const deleteNode = (p: number) => {
    if (dad[p] === NIL) return;
    let q: number;
    if (rson[p] === NIL) q = lson[p]!;
    else if (lson[p] === NIL) q = rson[p]!;
    else {
      q = lson[p]!;
      if (rson[q] !== NIL) {
        do q = rson[q]!;
        while (rson[q] !== NIL);
        rson[dad[q]!] = lson[q]!;
        dad[lson[q]!] = dad[q]!;
        lson[q] = lson[p]!;
        dad[lson[p]!] = q;
      }
      rson[q] = rson[p]!;
      dad[rson[p]!] = q;
    }
    dad[q] = dad[p]!;
    if (rson[dad[p]!] === p) rson[dad[p]!] = q;
    else lson[dad[p]!] = q;
    dad[p] = NIL;
  };

  const encodeChar = (c: number) => {
    let code = 0;
    let length = 0;
    let k = huff.prnt[c + T]!;
    // Walk up to the root, collecting the code from its last bit.
    do {
      code >>>= 1;
      if (k & 1) code += 0x8000;
      length++;
      k = huff.prnt[k]!;
    } while (k !== R);
    bits.put(length, code);
    huff.update(c);
  };

  const encodePosition = (c: number) => {
    const upper = c >>> 6;
    bits.put(P_LEN[upper]!, P_CODE[upper]! << 8);
    bits.put(6, (c & 0x3f) << 10);
  };

  let s = 0;
  let r = N - F;
  text.fill(0x20, 0, r);
  let read = 0;
  let len = 0;
  for (; len < F && read < input.length; len++) text[r + len] = input[read++]!;
  for (let i = 1; i <= F; i++) insertNode(r - i);
  insertNode(r);
  while (len > 0) {
    if (matchLength > len) matchLength = len;
    if (matchLength <= THRESHOLD) {
      matchLength = 1;
      encodeChar(text[r]!);
    } else {
      encodeChar(255 - THRESHOLD + matchLength);
      encodePosition(matchPosition);
    }
    const last = matchLength;
    let i = 0;
    for (; i < last && read < input.length; i++) {
      deleteNode(s);
      const c = input[read++]!;
      text[s] = c;
      if (s < F - 1) text[s + N] = c;
      s = (s + 1) & (N - 1);
      r = (r + 1) & (N - 1);
      insertNode(r);
    }
    while (i++ < last) {
      deleteNode(s);
      s = (s + 1) & (N - 1);
      r = (r + 1) & (N - 1);
      if (--len) insertNode(r);
    }
  }
  const code = bits.finish();
  const out = new Uint8Array(streamHead.size! + code.length);
  out.set(encodeOrThrow(streamHead, { size: input.length }));
  out.set(code, streamHead.size!);
  return out;
}

/** Options of {@link lzhufDecompress}. */
export interface LzhufOptions {
  /**
   * The most bytes the stream may produce (default 256 MiB; `undefined` too, so a caller can forward
   * an unset limit): a stream that claims more is refused with an `OutputLimitError` before decoding.
   * Inside a decode this is what the decode's budget has left (`LayerLimits.maxOutput`).
   */
  readonly maxOutput?: number | undefined;
}

/** The default of {@link LzhufOptions.maxOutput}: 256 MiB. */
export const LZHUF_DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * The most bytes `codeBytes` bytes of LZHUF code can decode to. Every symbol takes at least one bit
 * (the Huffman tree has two subtrees), and a match — at most 16 bytes — also takes a position of at
 * least 9 bits (8, then 1 to 6 more): so at most 16 bytes per 10 bits, 12.8 bytes per byte of code.
 * A length beyond it cannot be true, and is refused before anything is allocated.
 */
export function lzhufMaxDecodedLength(codeBytes: number): number {
  return Math.floor((codeBytes * 8 * F) / 10);
}

/**
 * Decompresses a UQM LZHUF stream. A length over `maxOutput` is an `OutputLimitError` (from
 * `@savekit/core`); a length the code cannot hold, or code that ends before the length is reached,
 * is an {@link LzhufError} with its offset. Memory: the output, allocated once at its length after
 * both checks — never more than 12.8 bytes per byte of code, and never more than `maxOutput`.
 */
export function lzhufDecompress(stream: Uint8Array, options: LzhufOptions = {}): Uint8Array {
  const size = streamSize.read(stream);
  if (size === undefined)
    throw new LzhufError(`an LZHUF stream starts with its 4-byte length; ${stream.length} bytes given`, 0);
  return decodeStream(stream, streamHead.size!, size, options);
}

/** Decodes LZHUF code (no length header) into exactly `size` bytes (checked as {@link lzhufDecompress} checks). */
export function lzhufDecode(code: Uint8Array, size: number, options: LzhufOptions = {}): Uint8Array {
  return decodeStream(code, 0, size, options);
}

/** Encodes bytes as LZHUF code, without the length header. */
export function lzhufEncode(input: Uint8Array): Uint8Array {
  return lzhufCompress(input).subarray(streamHead.size!);
}

function decodeStream(stream: Uint8Array, start: number, size: number, options: LzhufOptions): Uint8Array {
  const limit = options.maxOutput ?? LZHUF_DEFAULT_MAX_OUTPUT;
  if (!Number.isSafeInteger(size) || size < 0)
    throw new LzhufError(`the stream's length ${size} is not a byte count`, 0);
  if (size > limit) throw new OutputLimitError(limit, `the stream claims ${size} bytes, over the limit of ${limit}`);
  // Refuse what the code cannot hold before allocating for it (see lzhufMaxDecodedLength).
  const codeBytes = stream.length - start;
  if (size > lzhufMaxDecodedLength(codeBytes))
    throw new LzhufError(
      `${codeBytes} bytes of code cannot hold ${size} bytes (at most ${lzhufMaxDecodedLength(codeBytes)})`,
      0,
    );
  // Justified twice over (by the limit and by the code present): allocated once, at its size.
  const out = new Uint8Array(size);
  const huff = new Huffman();
  const text = new Uint8Array(N);
  text.fill(0x20, 0, N - F);
  let r = N - F;
  let ip = start;
  let getbuf = 0;
  let getlen = 0;
  let count = 0;
  const end = stream.length;
  // Like the game, read ahead and take missing bytes as zeros; but a symbol that needs bits past the
  // end means the code was cut short.
  const fill = () => {
    while (getlen <= 8) {
      getbuf |= (ip < end ? stream[ip]! : 0) << (8 - getlen);
      ip++;
      getlen += 8;
    }
  };
  const available = (end - start) * 8;
  const consumed = () => (ip - start) * 8 - getlen;
  const bit = () => {
    if (getlen <= 0) fill();
    const b = (getbuf >>> 15) & 1;
    getbuf = (getbuf << 1) & 0xffff;
    getlen--;
    return b;
  };
  const byte = () => {
    if (getlen < 8) fill();
    const b = getbuf >>> 8;
    getbuf = (getbuf << 8) & 0xffff;
    getlen -= 8;
    return b;
  };
  while (count < size) {
    let c = huff.son[R]!;
    while (c < T) c = huff.son[c + bit()]!;
    c -= T;
    if (consumed() > available) throw new LzhufError(`the code ends before its ${size} bytes (after ${count})`, end);
    huff.update(c);
    if (c < 256) {
      out[count++] = c;
      text[r] = c;
      r = (r + 1) & (N - 1);
    } else {
      let i = byte();
      const upper = D_CODE[i]! << 6;
      let j = D_LEN[i]! - 2;
      while (j-- > 0) i = (i << 1) + bit();
      const position = upper | (i & 0x3f);
      if (consumed() > available) throw new LzhufError(`the code ends before its ${size} bytes (after ${count})`, end);
      const from = (r - position - 1) & (N - 1);
      const length = c - 255 + THRESHOLD;
      if (count + length > size) throw new LzhufError(`a match runs past the ${size} bytes the stream claims`, ip);
      for (let k = 0; k < length; k++) {
        const b = text[(from + k) & (N - 1)]!;
        out[count++] = b;
        text[r] = b;
        r = (r + 1) & (N - 1);
      }
    }
  }
  return out;
}
