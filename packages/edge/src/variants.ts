/**
 * The four variants EDGE shipped (edge.md "Format variants"), told apart by the header's version
 * field, and how each frames and stores its chunks.
 *
 * @module
 */
import { deflateSync } from 'fflate';
import { compress as lzoCompress, decompress as lzoDecompress } from '@savekit/lzo1x';
import {
  adler32,
  encodeOrThrow,
  fourcc,
  layer,
  u32be,
  u32le,
  withHooks,
  xor,
  type ByteLayer,
  type ChunkFraming,
  type Codec,
} from '@savekit/core';
import { bytesEqual, inflateBounded, inflateMatches, OutputLimitError } from '@savekit/core/kit';

/**
 * - `A`: 1.25 … 1.29.00 (version < 0x12901): XOR with `EDGE!`, then LZO1X-1; end markers on every chunk.
 * - `B`: 1.29.01 (0x12901): LZO1X-1 only; no end markers.
 * - `C`: 1.29.02 … 1.35 and 3DGE (≥ 0x12902): zlib level 1, or stored raw when that is not smaller.
 * - `D`: EDGE-classic (version 0xEC): the bytes of C, compressed by miniz.
 */
export type EdgeVariant = 'A' | 'B' | 'C' | 'D';

/** The version EDGE-classic writes (its reader ignores the field). */
export const EDGE_CLASSIC_VERSION = 0xec;

/** A representative version of each variant, for new saves: 1.29.00, 1.29.01, 1.35, EDGE-classic. */
export const VARIANT_VERSIONS: Readonly<Record<EdgeVariant, number>> = {
  A: 0x12900,
  B: 0x12901,
  C: 0x13506,
  D: EDGE_CLASSIC_VERSION,
};

/** The variant a version field means, as the engines decide it. */
export function variantOf(version: number): EdgeVariant {
  if (version === EDGE_CLASSIC_VERSION) return 'D';
  if (version < 0x12901) return 'A';
  if (version === 0x12901) return 'B';
  return 'C';
}

/** The end marker of a chunk in variant A: the start marker in upper case (`Glob` → `GLOB`). */
export const endMarkerOf = (marker: string): string => marker.toUpperCase();

const marker = fourcc({ alnum: true });

/** The seed's rule for ordinary chunks: "the first letter uppercase and the remaining letters lowercase". */
const CAPITALISED = /^[A-Z][a-z0-9]{3}$/;

/**
 * The marker of an ordinary chunk (top-level chunks, `Glob` lumps, `Sdef`/`Adef`): four letters or
 * digits, read with a `marker-case` warning when not capitalised (structure instances are the
 * lowercase ones). The engine checks only that a marker is alphanumeric, so this is a warning.
 */
export const ordinaryMarker: Codec<string> = withHooks(marker, {
  afterRead: (found, { reader }) => {
    if (!CAPITALISED.test(found))
      reader.warn(
        'marker-case',
        `the chunk marker ${JSON.stringify(found)} is not capitalised: ordinary chunks are (Glob, Vari), structure instances lowercase`,
        reader.pos - 4,
      );
  },
});

/** Nested chunks: marker, u32 length of the data padded to 4, data, and in variant A the end marker. */
export function nestedFraming(variant: EdgeVariant): ChunkFraming {
  return { marker, length: u32le, align: 4, ...(variant === 'A' ? { endMarker: endMarkerOf } : {}) };
}

/** Nested ordinary chunks (`Glob` lumps, `Sdef`, `Adef`): {@link nestedFraming} whose markers should be capitalised. */
export function ordinaryFraming(variant: EdgeVariant): ChunkFraming {
  return { ...nestedFraming(variant), marker: ordinaryMarker };
}

/**
 * Top-level chunks: marker (capitalised, else a warning), u32 stored length, u32 original length (the
 * body's uncounted first four bytes), the stored bytes, and in variant A the end marker.
 */
export function topFraming(variant: EdgeVariant): ChunkFraming {
  return {
    marker: ordinaryMarker,
    length: u32le,
    uncounted: 4,
    ...(variant === 'A' ? { endMarker: endMarkerOf } : {}),
  };
}

function expectedOf(name: string, expected: number | undefined): number {
  if (expected === undefined) throw new Error(`${name} needs the chunk's original length`);
  if (expected % 4 !== 0) throw new Error(`original length ${expected} is not a multiple of 4`);
  return expected;
}

/**
 * LZO1X-1 (variants A and B), with the engine's sanity check `stored ≤ orig + orig/16 + 20`
 * (`MAX_COMP_SIZE`) and the output bounded by what LZO can expand to.
 */
export const lzoLayer: ByteLayer = layer(
  'lzo1x',
  (stored, limits) => {
    const expected = expectedOf('lzo1x', limits.expected);
    const most = expected + Math.floor(expected / 16) + 20;
    if (stored.length > most)
      throw new Error(`stored length ${stored.length} is more than ${most}, the most LZO makes of ${expected} bytes`);
    // An LZO1X stream cannot expand a byte into more than 255 bytes: a larger claim is refused
    // before anything is allocated for it.
    const reachable = stored.length * 256 + 64;
    if (expected > reachable) throw new Error(`${stored.length} stored bytes cannot decompress to ${expected}`);
    if (expected > limits.maxOutput) throw new OutputLimitError(limits.maxOutput);
    // The length is known and bounded by now: the output is allocated once, and must come out exact;
    // lzo1x stops at the limit too (its error has code 'output-limit', which the core reports as the
    // decode's budget when that was the limit).
    return lzoDecompress(stored, { outputLength: expected, maxOutputLength: limits.maxOutput });
  },
  (plain) => lzoCompress(plain),
);

/** The XOR with `EDGE!` of variant A, restarting at every top-level chunk. */
export const edgeXorLayer: ByteLayer = xor('EDGE!');

/** zlib's `compressBound`. */
export function zlibBound(length: number): number {
  return length + (length >>> 12) + (length >>> 14) + (length >>> 25) + 13;
}

/**
 * A zlib stream as `compress2(…, 1)` frames it: header `78 01` (zlib marks level 1 "fastest"), the
 * deflate data (fflate's level 1), then the Adler-32 of the input, big-endian.
 */
export function zlibLevel1(plain: Uint8Array): Uint8Array {
  const deflated = deflateSync(plain, { level: 1 });
  const out = new Uint8Array(deflated.length + 6);
  out[0] = 0x78;
  out[1] = 0x01;
  out.set(deflated, 2);
  out.set(encodeOrThrow(u32be, adler32.compute(plain)), deflated.length + 2);
  return out;
}

/**
 * zlib level 1, or the data stored raw when compressing does not make it smaller (variants C, D).
 * The only flag is `stored_len == orig_len`, so the reader checks exactly that.
 */
export const zlibOrStoredLayer: ByteLayer = layer(
  'zlib',
  (stored, limits) => {
    const expected = expectedOf('zlib', limits.expected);
    const most = zlibBound(expected) + 4;
    if (stored.length > most)
      throw new Error(`stored length ${stored.length} is more than ${most}, compressBound(${expected}) + 4`);
    if (expected > limits.maxOutput) throw new OutputLimitError(limits.maxOutput);
    if (stored.length === expected) return stored.slice();
    // The core's bounded inflater: fed in slices, stopped at the limit, exactly `expected` bytes.
    return inflateBounded(stored, 'zlib', { maxOutput: Math.min(expected, limits.maxOutput), expected });
  },
  (plain) => {
    const packed = zlibLevel1(plain);
    return packed.length < plain.length ? packed : plain.slice();
  },
  // A kept stream is checked against the bytes a document writes as it inflates (decode's checks first).
  (stored, plain) => {
    const expected = plain.length;
    if (expected % 4 !== 0 || stored.length > zlibBound(expected) + 4) return false;
    if (stored.length === expected) return bytesEqual(stored, plain);
    return inflateMatches(stored, 'zlib', plain);
  },
);

/** The layers of a variant's top-level chunk data, nearest the file first. */
export function storedLayers(variant: EdgeVariant): [ByteLayer, ...ByteLayer[]] {
  switch (variant) {
    case 'A':
      return [lzoLayer, edgeXorLayer];
    case 'B':
      return [lzoLayer];
    default:
      return [zlibOrStoredLayer];
  }
}
