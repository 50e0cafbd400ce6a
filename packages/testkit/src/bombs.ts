/**
 * Decompression bombs: zlib, gzip and raw deflate streams of zeros, written directly (no compressor
 * runs, nothing of the output size is allocated), so a 4 GiB bomb costs the 4 MB of its own bytes to
 * make. Each stream is one dynamic-Huffman block whose codes make every 258-byte match of the last
 * byte cost two bits — a ratio of 1,032 to 1, the most deflate allows — and whose match bits are all
 * zero, so the body is zero bytes. Pure functions with no Node API: the kit may be bundled.
 *
 * @module
 */

/** The container around a deflate stream. */
export type BombKind = 'zlib' | 'gzip' | 'deflate-raw';

/** The longest deflate match. */
const MATCH = 258;

/**
 * The block header, as (value, bit count) pairs written least significant bit first, and then
 * Huffman codes written most significant bit first. Codes of the block: literal/length 285 (a
 * 258-byte match) is `0`, literal 0 is `10`, end of block `11`; the one distance code (1) is `0`.
 */
function header(bits: BitWriter): void {
  bits.value(1, 1); // BFINAL
  bits.value(2, 2); // BTYPE: dynamic Huffman
  bits.value(286 - 257, 5); // HLIT: literal/length codes 0..285
  bits.value(0, 5); // HDIST: one distance code
  bits.value(18 - 4, 4); // HCLEN: 18 code-length code lengths follow
  // Code-length code lengths in the order deflate lists them (16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
  // 11, 4, 12, 3, 13, 2, 14, 1): symbol 18 (a run of zeros) gets length 1, symbols 1 and 2 length 2.
  for (const length of [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2]) bits.value(length, 3);
  // With that code, 18 is `0`, 1 is `10` and 2 is `11`. The 287 code lengths:
  bits.code(0b11, 2); // literal 0: length 2
  bits.code(0b0, 1); // 138 zeros (literals 1..138)
  bits.value(138 - 11, 7);
  bits.code(0b0, 1); // 117 zeros (literals 139..255)
  bits.value(117 - 11, 7);
  bits.code(0b11, 2); // end of block (256): length 2
  bits.code(0b0, 1); // 28 zeros (lengths 257..284)
  bits.value(28 - 11, 7);
  bits.code(0b10, 2); // length 285 (a 258-byte match): length 1
  bits.code(0b10, 2); // distance 1: length 1
}

/** Bits into a preallocated, zero-filled buffer; skipping ahead writes zero bits for free. */
class BitWriter {
  position = 0;
  constructor(readonly bytes: Uint8Array) {}
  /** `count` bits of `value`, least significant first (deflate's header fields and extra bits). */
  value(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.bit((value >>> i) & 1);
  }
  /** A Huffman code of `count` bits, most significant first. */
  code(code: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit((code >>> i) & 1);
  }
  bit(bit: number): void {
    if (bit) this.bytes[this.position >>> 3]! |= 1 << (this.position & 7);
    this.position++;
  }
}

/** Bits the header takes (counted once by writing it into a scratch buffer). */
const HEADER_BITS = (() => {
  const bits = new BitWriter(new Uint8Array(64));
  header(bits);
  return bits.position;
})();

function checkSize(outputBytes: number): void {
  if (!Number.isSafeInteger(outputBytes) || outputBytes < 0)
    throw new RangeError(`a bomb's output size must be a whole number of bytes, not ${outputBytes}`);
}

/**
 * A raw deflate stream (RFC 1951) that inflates to `outputBytes` zero bytes, in about
 * `outputBytes / 1032` bytes.
 */
export function deflateRawBomb(outputBytes: number): Uint8Array {
  checkSize(outputBytes);
  // One literal 0, then 258-byte matches of it, then the rest as literals, then end of block.
  const literal = outputBytes > 0 ? 1 : 0;
  const matches = Math.floor(Math.max(0, outputBytes - 1) / MATCH);
  const rest = Math.max(0, outputBytes - 1 - matches * MATCH);
  const total = HEADER_BITS + 2 * literal + 2 * matches + 2 * rest + 2;
  const bits = new BitWriter(new Uint8Array(Math.ceil(total / 8)));
  header(bits);
  if (literal) bits.code(0b10, 2);
  bits.position += 2 * matches; // each match is `0` (length 258) then `0` (distance 1): zero bits
  for (let i = 0; i < rest; i++) bits.code(0b10, 2);
  bits.code(0b11, 2);
  return bits.bytes;
}

/** A zlib stream (RFC 1950) that inflates to `outputBytes` zero bytes, with a correct Adler-32. */
export function zlibBomb(outputBytes: number): Uint8Array {
  const body = deflateRawBomb(outputBytes);
  const out = new Uint8Array(2 + body.length + 4);
  out[0] = 0x78; // deflate, 32 KiB window
  out[1] = 0xda; // best compression; 0x78da is a multiple of 31
  out.set(body, 2);
  // Adler-32 of zeros: a stays 1, b adds 1 per byte.
  const adler = (outputBytes % 65521) * 65536 + 1;
  new DataView(out.buffer).setUint32(2 + body.length, adler, false);
  return out;
}

/** A gzip member (RFC 1952) that inflates to `outputBytes` zero bytes, with a correct CRC-32 and size. */
export function gzipBomb(outputBytes: number): Uint8Array {
  const body = deflateRawBomb(outputBytes);
  const out = new Uint8Array(10 + body.length + 8);
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]); // deflate, no name, no time, best compression, unknown OS
  out.set(body, 10);
  const view = new DataView(out.buffer);
  view.setUint32(10 + body.length, crc32OfZeros(outputBytes), true);
  view.setUint32(14 + body.length, outputBytes % 2 ** 32, true);
  return out;
}

/** A bomb of the given kind. */
export function bomb(kind: BombKind, outputBytes: number): Uint8Array {
  return kind === 'zlib'
    ? zlibBomb(outputBytes)
    : kind === 'gzip'
      ? gzipBomb(outputBytes)
      : deflateRawBomb(outputBytes);
}

/**
 * `count` bombs of `eachBytes` output each (separate copies): for containers that limit each chunk
 * or layer, so only a budget over the whole decode stops them.
 */
export function manyBombs(count: number, eachBytes: number, kind: BombKind = 'zlib'): Uint8Array[] {
  const one = bomb(kind, eachBytes);
  return Array.from({ length: count }, () => one.slice());
}

// CRC-32 of n zero bytes in O(log n): appending a zero bit is a linear map of the register, so n
// bytes are that map to the power 8n, by squaring (as zlib's crc32_combine does).

/** A 32×32 matrix over GF(2), as its 32 columns, times a vector. */
function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function square(matrix: Uint32Array): Uint32Array<ArrayBuffer> {
  return Uint32Array.from(matrix, (column) => times(matrix, column));
}

/** The CRC-32 (IEEE, as gzip and PNG use it) of `n` zero bytes. */
export function crc32OfZeros(n: number): number {
  // One zero bit: shift right, folding the polynomial in when the low bit was set.
  let op: Uint32Array<ArrayBuffer> = Uint32Array.from({ length: 32 }, (_, i) => (i === 0 ? 0xedb88320 : 1 << (i - 1)));
  op = square(square(square(op))); // one zero byte
  let register = 0xffffffff;
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) register = times(op, register);
    op = square(op);
  }
  return (register ^ 0xffffffff) >>> 0;
}
