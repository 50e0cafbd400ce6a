/**
 * DEFLATE decompression that cannot be made to produce more than it is allowed: the compressed
 * stream is fed in small slices and the output counted as it arrives, so a bomb stops at the limit
 * (plus one slice's worth of work), never after inflating whole.
 *
 * @module
 */
import { Gunzip, Inflate, Unzlib } from 'fflate';
import { OutputLimitError } from './budget.js';
import { bytesEqual, concatBytes } from './bytes.js';

/** How the DEFLATE data is wrapped: a zlib stream (RFC 1950), gzip members (RFC 1952) or raw (RFC 1951). */
export type DeflateWrapper = 'zlib' | 'gzip' | 'raw';

/** Limits of {@link inflateBounded}. */
export interface InflateLimits {
  /** The most bytes the stream may inflate to; past it an {@link OutputLimitError} is thrown. */
  readonly maxOutput: number;
  /** The exact length the output must have, when the format records it (checked, and allocated once). */
  readonly expected?: number | undefined;
}

/**
 * Compressed bytes fed per step. DEFLATE expands at most about 1032:1, so one step inflates at most
 * some 4 MiB before the output is counted.
 */
const SLICE = 4096;

/**
 * Compressed bytes fed per step when the output's length is recorded (at most some 16 MiB per step
 * before the count). Each step costs the inflater a fresh window-sized buffer and copies, so larger
 * steps make save-sized streams markedly faster to inflate.
 */
const SLICE_EXPECTED = 16384;

/**
 * Inflates `data` (wrapped as `wrapper`), producing at most `limits.maxOutput` bytes, and exactly
 * `limits.expected` when given. Throws an {@link OutputLimitError} past the limit, and an `Error`
 * saying why for a corrupt or truncated stream.
 *
 * @example
 * ```ts
 * import { inflateBounded } from '@savekit/core';
 * import { zlibSync } from 'fflate';
 * const packed = zlibSync(new Uint8Array(1000));
 * inflateBounded(packed, 'zlib', { maxOutput: 1000 }).length; // 1000
 * inflateBounded(packed, 'zlib', { maxOutput: 999 }); // throws OutputLimitError
 * ```
 */
export function inflateBounded(data: Uint8Array, wrapper: DeflateWrapper, limits: InflateLimits): Uint8Array {
  const { maxOutput, expected } = limits;
  if (expected !== undefined && expected > maxOutput) throw new OutputLimitError(maxOutput);
  if (expected !== undefined && expected >= NATIVE_LEAST) {
    const fast = inflateNative(data, wrapper, expected);
    if (fast !== undefined) return fast;
  }
  return inflateSliced(data, wrapper, maxOutput, expected);
}

/** The sliced inflater: fflate's stream, fed {@link SLICE} bytes at a time and counted as it goes. */
function inflateSliced(
  data: Uint8Array,
  wrapper: DeflateWrapper,
  maxOutput: number,
  expected: number | undefined,
): Uint8Array {
  const whole = expected !== undefined ? new Uint8Array(expected) : undefined;
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const take = (chunk: Uint8Array, final: boolean) => {
    if (total + chunk.length > maxOutput) throw new OutputLimitError(maxOutput);
    if (whole !== undefined) {
      if (total + chunk.length > whole.length)
        throw new Error(`the stream inflates past the ${whole.length} bytes recorded for it`);
      whole.set(chunk, total);
    } else parts.push(chunk);
    total += chunk.length;
    if (final) ended = true;
  };
  const stream = wrapper === 'zlib' ? new Unzlib(take) : wrapper === 'gzip' ? new Gunzip(take) : new Inflate(take);
  try {
    const slice = whole !== undefined ? SLICE_EXPECTED : SLICE;
    for (let at = 0; at < data.length; at += slice) {
      const end = Math.min(data.length, at + slice);
      stream.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) stream.push(data, true);
  } catch (error) {
    if (error instanceof OutputLimitError) throw error;
    throw new Error(`corrupt ${wrapper} stream: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!ended) throw new Error(`the ${wrapper} stream ends early`);
  if (whole !== undefined) {
    if (total !== whole.length)
      throw new Error(`the stream inflates to ${total} bytes, ${whole.length} were recorded for it`);
    return whole;
  }
  return concatBytes(parts);
}

/**
 * Outputs shorter than this are inflated by the sliced path alone: below it the native call's fixed
 * cost is not worth it, and Node would hand out a view of its shared buffer pool.
 */
const NATIVE_LEAST = 64 * 1024;

/** What {@link inflateNative} uses of Node's `zlib`. */
interface NativeZlib {
  inflateSync: NativeInflate;
  gunzipSync: NativeInflate;
  inflateRawSync: NativeInflate;
}

type NativeInflate = (
  data: Uint8Array,
  options: { chunkSize: number; maxOutputLength: number; info: true },
) => { buffer: Uint8Array; engine: { bytesWritten: number } };

/**
 * Node's `zlib`, reached without a static import (browser bundles need none); null where there is
 * none. Looked up per call (a table lookup, once per stream of 64 KiB or more), not kept.
 */
function zlibModule(): NativeZlib | null {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const zlib = host.process?.getBuiltinModule?.('node:zlib') as Partial<NativeZlib> | undefined;
    return typeof zlib?.inflateSync === 'function' &&
      typeof zlib.gunzipSync === 'function' &&
      typeof zlib.inflateRawSync === 'function'
      ? (zlib as NativeZlib)
      : null;
  } catch {
    return null;
  }
}

/**
 * Inflates `data` to exactly `expected` bytes with Node's zlib, some four times faster than the
 * sliced stream; undefined (nothing decided) where there is no zlib, or when the stream does not
 * inflate to exactly `expected` bytes using all of `data`: the sliced path then runs and says why, in
 * its own words. Bounded as the sliced path is: zlib writes into one buffer of `expected + 1` bytes
 * and stops once it is full (one byte past the recorded length is already wrong), so a bomb costs
 * no more output, or work, than the length the format recorded.
 */
function inflateNative(data: Uint8Array, wrapper: DeflateWrapper, expected: number): Uint8Array | undefined {
  const zlib = zlibModule();
  if (zlib === null) return undefined;
  const run = wrapper === 'zlib' ? zlib.inflateSync : wrapper === 'gzip' ? zlib.gunzipSync : zlib.inflateRawSync;
  let result: ReturnType<NativeInflate>;
  try {
    result = run(data, { chunkSize: expected + 1, maxOutputLength: expected, info: true });
  } catch {
    return undefined;
  }
  const { buffer: out, engine } = result;
  // Exactly the recorded length, from every input byte: anything else (bytes after the stream's end,
  // and a stored Adler-32 or CRC that zlib checks and fflate does not) is left to the sliced path's verdict.
  if (out.length !== expected || engine.bytesWritten !== data.length) return undefined;
  // A plain Uint8Array over zlib's output (not Node's subclass), its spare byte zeroed: never uninitialised memory.
  const whole = new Uint8Array(
    out.buffer,
    out.byteOffset,
    Math.min(expected + 1, out.buffer.byteLength - out.byteOffset),
  );
  if (whole.length > expected) whole[expected] = 0;
  return whole.subarray(0, expected);
}

/** Thrown inside {@link inflateMatches}'s output callback to stop at the first difference. */
const DIFFERS = Symbol('differs');

/**
 * Whether `data` (wrapped as `wrapper`) inflates to exactly `expected`, compared as the output
 * arrives (on the sliced path nothing of `expected`'s size is allocated), stopping at the first byte that
 * differs or lies past `expected`'s end. A corrupt or truncated stream does not match. The same
 * answer as comparing {@link inflateBounded}`(data, wrapper, { maxOutput: n, expected: n })` with
 * `expected` (n its length), for the price of the inflating alone: a re-encoded save checks its kept
 * streams with it. Where Node's zlib is at hand, a stream of 64 KiB or more is inflated whole by it
 * (some four times faster, for one buffer of `expected`'s size) and compared after.
 *
 * @example
 * ```ts
 * import { inflateMatches } from '@savekit/core/kit';
 * import { zlibSync } from 'fflate';
 * const plain = new Uint8Array(1000).fill(7);
 * inflateMatches(zlibSync(plain), 'zlib', plain); // true
 * inflateMatches(zlibSync(plain), 'zlib', plain.subarray(1)); // false
 * ```
 */
export function inflateMatches(data: Uint8Array, wrapper: DeflateWrapper, expected: Uint8Array): boolean {
  if (expected.length >= NATIVE_LEAST) {
    // Through Node's zlib when it inflates to as many bytes: then fflate would give the same bytes.
    const fast = inflateNative(data, wrapper, expected.length);
    if (fast !== undefined) return bytesEqual(fast, expected);
  }
  return matchesSliced(data, wrapper, expected);
}

/** {@link inflateMatches} through fflate's stream, compared slice by slice. */
function matchesSliced(data: Uint8Array, wrapper: DeflateWrapper, expected: Uint8Array): boolean {
  let total = 0;
  let ended = false;
  const take = (chunk: Uint8Array, final: boolean) => {
    const end = total + chunk.length;
    if (end > expected.length) throw DIFFERS;
    if (!bytesEqual(chunk, expected.subarray(total, end))) throw DIFFERS;
    total = end;
    if (final) ended = true;
  };
  const stream = wrapper === 'zlib' ? new Unzlib(take) : wrapper === 'gzip' ? new Gunzip(take) : new Inflate(take);
  try {
    const slice = SLICE_EXPECTED;
    for (let at = 0; at < data.length; at += slice) {
      const end = Math.min(data.length, at + slice);
      stream.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) stream.push(data, true);
  } catch {
    // A difference, or a stream that does not inflate: either way not the expected bytes.
    return false;
  }
  return ended && total === expected.length;
}
