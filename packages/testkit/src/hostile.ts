/**
 * The shared list of hostile inputs every format is held to: huge lengths, deep nesting,
 * decompression bombs, prototype-polluting JSON, escaping paths, invalid text, non-finite floats.
 * Everything here is plain data or a pure function (no Node API), so the kit may be bundled.
 *
 * @module
 */
import { type BombKind, deflateRawBomb, gzipBomb, manyBombs, zlibBomb } from './bombs.js';

/** A hostile byte pattern, meant to be spliced into a valid save. */
export interface HostileBytes {
  readonly name: string;
  readonly bytes: Uint8Array;
}

const u32 = (value: number, le: boolean) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, value, le);
  return b;
};

const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

/** Sizes and counts that claim everything, in both byte orders and the usual widths. */
const sizeClaims: ReadonlyArray<HostileBytes> = [
  { name: 'u16 65535', bytes: filled(2, 0xff) },
  { name: 'u32le 2^32-1', bytes: u32(0xffffffff, true) },
  { name: 'u32be 2^32-1', bytes: u32(0xffffffff, false) },
  { name: 'u32le 2^31', bytes: u32(0x80000000, true) },
  { name: 'u32be 2^31', bytes: u32(0x80000000, false) },
  { name: 'u32le 2^31-1', bytes: u32(0x7fffffff, true) },
  { name: 'u32be 2^31-1', bytes: u32(0x7fffffff, false) },
  { name: 'u32le 2^28', bytes: u32(0x10000000, true) },
  { name: 'u32be 2^28', bytes: u32(0x10000000, false) },
  { name: 'u48 2^48-1', bytes: filled(6, 0xff) },
  { name: 'u64 2^64-1', bytes: filled(8, 0xff) },
];

/** JSON nested `depth` levels: arrays (`[[[…]]]`) or objects (`{"a":{"a":…0}}`). */
function deepJson(depth = 1_000_000, shape: 'array' | 'object' = 'array'): string {
  return shape === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
}

/** JSON `width` wide: an array of `width` zeros, or an object of `width` distinct keys (`k0` … ). */
function wideJson(width: number, shape: 'array' | 'object' = 'array'): string {
  if (width <= 0) return shape === 'array' ? '[]' : '{}';
  if (shape === 'array') return `[${'0,'.repeat(width - 1)}0]`;
  const keys: string[] = [];
  for (let i = 0; i < width; i++) keys.push(`"k${i}":0`);
  return `{${keys.join(',')}}`;
}

/** Hostile inputs, by kind. */
export const hostileInputs = {
  /** Byte patterns: lengths and counts that claim everything, non-finite floats, invalid UTF-8. */
  bytes: [
    { name: 'u32 2^32-1', bytes: u32(0xffffffff, true) },
    { name: 'u32 2^31', bytes: u32(0x80000000, true) },
    { name: 'u32be 2^32-1', bytes: u32(0xffffffff, false) },
    { name: 'u16 65535', bytes: Uint8Array.of(0xff, 0xff) },
    { name: 'u48 2^48-1', bytes: new Uint8Array(6).fill(0xff) },
    { name: 'f64 NaN', bytes: Uint8Array.of(0, 0, 0, 0, 0, 0, 0xf8, 0x7f) },
    { name: 'f64 -Infinity', bytes: Uint8Array.of(0, 0, 0, 0, 0, 0, 0xf0, 0xff) },
    { name: 'f32 signalling NaN', bytes: Uint8Array.of(1, 0, 0x80, 0x7f) },
    { name: 'invalid UTF-8', bytes: Uint8Array.of(0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80) },
    { name: 'overlong NUL', bytes: Uint8Array.of(0xc0, 0x80) },
    // An LZO1X stream whose M4 match length runs on in zero bytes: claims gigabytes.
    {
      name: 'LZO bomb',
      bytes: Uint8Array.from([0x12, 0x61, 0x10, ...new Uint8Array(4096), 0x01, 0x04, 0x00, 0x11, 0x00, 0x00]),
    },
    // A zlib stream header followed by a stored block claiming 65535 bytes it does not have.
    { name: 'truncated zlib', bytes: Uint8Array.of(0x78, 0x01, 0x00, 0xff, 0xff, 0x00, 0x00) },
  ] as ReadonlyArray<HostileBytes>,
  /** Sizes and counts that claim everything: u16, u32 (2^32−1, 2^31, 2^31−1, 2^28), u48 and u64, LE and BE. */
  sizeClaims: sizeClaims as ReadonlyArray<HostileBytes>,
  /**
   * JSON nested `depth` levels (default a million, deeper than any format allows): arrays
   * (`[[[…]]]`, the default) or objects (`{"a":{"a":…0}}`).
   */
  deepJson: deepJson as (depth?: number, shape?: 'array' | 'object') => string,
  /** JSON `width` wide: an array of `width` zeros (the default), or an object of `width` distinct keys. */
  wideJson: wideJson as (width: number, shape?: 'array' | 'object') => string,
  /**
   * A zlib stream (RFC 1950) inflating to `outputBytes` zeros, about 1,032 times smaller (256 MiB in
   * 260 KB), with a correct checksum. Made without compressing or allocating the output.
   */
  zlibBomb: zlibBomb as (outputBytes: number) => Uint8Array,
  /** A gzip member (RFC 1952) inflating to `outputBytes` zeros, with a correct CRC-32 and size. */
  gzipBomb: gzipBomb as (outputBytes: number) => Uint8Array,
  /** A raw deflate stream (RFC 1951) inflating to `outputBytes` zeros. */
  deflateRawBomb: deflateRawBomb as (outputBytes: number) => Uint8Array,
  /**
   * `count` bombs of `eachBytes` each (`kind`: `'zlib'`, the default, `'gzip'` or `'deflate-raw'`),
   * for containers with a per-chunk or per-layer limit: each bomb stays under it, so only a budget
   * over the whole decode stops them.
   */
  manyBombs: manyBombs as (count: number, eachBytes: number, kind?: BombKind) => Uint8Array[],
  /** JSON documents that try prototype pollution. */
  json: [
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"a": {"__proto__": {"polluted": true}}}',
  ] as ReadonlyArray<string>,
  /** Entry names a container must refuse: escaping, absolute, NUL. */
  paths: [
    '../escape',
    'a/../../escape',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    'a\\..\\b',
    'name\0.txt',
    '',
    '.',
    'a//b',
  ] as ReadonlyArray<string>,
} as const;
