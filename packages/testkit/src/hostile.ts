/**
 * The shared list of hostile inputs every format is held to: huge lengths, deep nesting,
 * decompression bombs, prototype-polluting JSON, escaping paths, invalid text, non-finite floats.
 *
 * @module
 */

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
  /** Nesting deeper than any format allows: a million opening brackets (JSON) and markers. */
  deepJson: () => `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`,
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
