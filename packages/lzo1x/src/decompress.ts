/**
 * The safe LZO1X decompressor: every read and write is bounds-checked, and nothing is allocated
 * beyond the output limit. The same loop runs as WebAssembly (`wasm-module.ts`) when the engine
 * allows it; this TypeScript one is the fallback, and gives the error on any stream that one refuses.
 *
 * Stream format (as liblzo's `lzo1x_decompress_safe` reads it). A state says how many literals the
 * previous instruction copied (0, 1–3, or 4+); instructions by their first byte `t`:
 *
 * | t | meaning |
 * |---|---|
 * | first byte > 17 | copy `t − 17` literals (if fewer than 4, a match follows directly) |
 * | 0–15, state 0 | literal run of `t + 3` bytes (`t = 0`: 18 + 255·zeros + next byte) |
 * | 0–15, state 1–3 | 2-byte match, distance `1 + (t >> 2) + (next << 2)` |
 * | 0–15, state 4 | 3-byte match, distance `2049 + (t >> 2) + (next << 2)` |
 * | 16–31 | M4: distance `16384 + ((t & 8) << 11) + (le16 >> 2)`, length `(t & 7) + 2` (extended when 0); distance 16384 ends the stream |
 * | 32–63 | M3: distance `1 + (le16 >> 2)`, length `(t & 31) + 2` (extended when 0) |
 * | 64–255 | M2: distance `1 + ((t >> 2) & 7) + (next << 3)`, length `(t >> 5) + 1` |
 *
 * After a match, the low two bits of the byte two back (the opcode, or the first distance byte) give
 * 0–3 literals to copy before the next instruction.
 *
 * @module
 */
import { LzoError } from './error.js';
import { decompressWasm, usingTypeScript } from './wasm.js';

/** Options of {@link decompress}. */
export interface DecompressOptions {
  /**
   * The exact decompressed length, when known (EDGE stores it): anything else is an error.
   * `undefined` means unknown, so a caller can forward an optional length of its own. It is a
   * claim, often read from a file: one above `maxOutputLength` (or its default), or above what the
   * input could expand to ({@link MAX_EXPANSION} bytes per input byte), is refused before anything
   * is allocated. One over {@link MAX_OUTPUT_LENGTH} (4 GiB − 1), or not a whole number, is a
   * `bad-argument`.
   */
  readonly outputLength?: number | undefined;
  /**
   * The most bytes the output may have (default 256 MiB), also with `outputLength`; a stream that
   * would exceed it is refused with an LzoError whose `code` is `'output-limit'` (and `limit` this
   * value). `undefined` means the default.
   */
  readonly maxOutputLength?: number | undefined;
}

function inputOverrun(ip: number): never {
  throw new LzoError('input-overrun', ip, 'compressed data ends in the middle of an instruction');
}

/**
 * The most output bytes one input byte can account for. Per instruction: a literal copies at most
 * the bytes it consumes; a short match (2 bytes) writes at most 8; an M3 or M4 match with `k` zero
 * bytes of length extension takes `k + 4` bytes (opcode, `k` zeros, the final length byte, two
 * distance bytes) for at most `255k + 31 + 255 + 2 = 255k + 288` bytes, and `255k + 288 ≤ 255(k + 4)`.
 * So a stream of `n` bytes never decompresses to more than `255n`.
 */
export const MAX_EXPANSION = 255;

/** Allocates the output, as a typed error when the engine refuses the size (over its maximum, or no memory). */
function allocate(length: number, at: number): Uint8Array {
  try {
    return new Uint8Array(length);
  } catch (error) {
    if (error instanceof RangeError)
      throw new LzoError('output-overrun', at, `cannot allocate an output of ${length} bytes: ${error.message}`);
    throw error;
  }
}

/** The output after {@link grown}, with what the copies derive from it (one assignment at each call). */
interface Output {
  readonly out: Uint8Array;
  readonly outEnd: number;
  readonly outView: DataView;
  readonly outFastEnd: number;
}

/**
 * The output grown to hold `needed` bytes (the first `used` copied), with its end, view and fast-copy
 * end: an object made only when the output grows. Refused past the limit or what the input can expand to.
 */
function grown(
  out: Uint8Array,
  used: number,
  needed: number,
  limit: number,
  exact: number | undefined,
  at: number,
  reachable: number,
): Output {
  if (needed > reachable && needed <= limit) {
    // Cannot happen (see MAX_EXPANSION); refused rather than written past the allocation.
    throw new LzoError('output-overrun', at, `output would exceed the ${reachable} bytes the input can expand to`);
  }
  if (needed > limit) {
    if (exact !== undefined)
      throw new LzoError('output-overrun', at, `output would exceed the expected ${exact} bytes`);
    throw new LzoError('output-overrun', at, `output would exceed the limit of ${limit} bytes`, limit);
  }
  let capacity = Math.max(64, out.length * 2);
  while (capacity < needed) capacity *= 2;
  // Never beyond what the input can expand to: a growth step does not allocate bytes the stream
  // cannot fill.
  const next = allocate(Math.min(capacity, limit, reachable), at);
  next.set(out.subarray(0, used));
  return {
    out: next,
    outEnd: next.length,
    outView: new DataView(next.buffer),
    outFastEnd: Math.min(next.length, FAST_END),
  };
}

/** Below this, sums of an index and a small step fit in an int32. */
const FAST_END = 0x7fff0000;

/** Where {@link extendedLength} stopped reading. */
let scanEnd = 0;

/**
 * A length continued in zero bytes from `ip`: each zero adds 255, then a final non-zero byte.
 * `exact`: whether `limit` is a declared length (else it is `maxOutputLength`).
 */
function extendedLength(input: Uint8Array, ip: number, base: number, limit: number, exact: boolean): number {
  let length = 0;
  for (;;) {
    if (ip >= input.length) inputOverrun(ip);
    const b = input[ip++]!; // ip < input.length, checked above
    if (b !== 0) {
      scanEnd = ip;
      return length + base + b;
    }
    length += 255;
    // A run of zeros this long cannot fit any output we accept.
    if (length > limit + 255)
      throw new LzoError(
        'output-overrun',
        ip,
        `length field exceeds the output ${exact ? 'length' : 'limit'} of ${limit} bytes`,
        exact ? undefined : limit,
      );
  }
}

/** Default output limit: a hostile stream cannot make the decompressor allocate more than this. */
export const DEFAULT_MAX_OUTPUT_LENGTH = 256 * 1024 * 1024;

/**
 * The largest `outputLength` accepted: 4 GiB − 1, LZO's 32-bit lengths (and more than a typed array
 * may hold on some engines). A larger one is a `bad-argument`, not a size to try.
 */
export const MAX_OUTPUT_LENGTH = 0xffffffff;

/**
 * A length or limit argument: a safe integer from 0 to `max`, or `undefined` for `otherwise`.
 * Anything else is a `bad-argument` LzoError.
 */
function lengthArgument<T extends number | undefined>(
  name: string,
  value: unknown,
  otherwise: T,
  max = Number.MAX_SAFE_INTEGER,
): number | T {
  if (value === undefined) return otherwise;
  if (Number.isSafeInteger(value) && (value as number) >= 0) {
    if ((value as number) <= max) return value as number;
    throw new LzoError('bad-argument', 0, `${name} ${value} is over ${max}, the most it may be`);
  }
  // Shown without calling anything of the value's own (a toString could throw).
  const shown =
    typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? String(value)
      : typeof value === 'string'
        ? JSON.stringify(value)
        : value === null
          ? 'null'
          : typeof value === 'object'
            ? 'an object'
            : `a ${typeof value}`;
  throw new LzoError('bad-argument', 0, `${name} ${shown} is not a non-negative integer`);
}

/**
 * Decompresses an LZO1X stream (any LZO1X compressor's output: 1x-1, 1x-999, miniLZO).
 *
 * @throws {@link LzoError} on a stream that reads past its end, writes past the output limit, copies
 * from before the start of the output, has bytes after its end marker, or (with `outputLength`)
 * decompresses to another length; before reading, on an `outputLength` over the limit or over what
 * the input can expand to, and on an argument that is not a length (`bad-argument`). Nothing else
 * escapes, whatever the options.
 *
 * @example
 * ```ts
 * import { compress, decompress } from '@savekit/lzo1x';
 * const text = new TextEncoder().encode('hello hello hello hello');
 * decompress(compress(text), { outputLength: text.length }); // the same bytes
 * ```
 */
export function decompress(input: Uint8Array, options: DecompressOptions | undefined = {}): Uint8Array {
  // Every argument is checked before anything is allocated.
  const exact = lengthArgument('outputLength', options?.outputLength, undefined, MAX_OUTPUT_LENGTH);
  const maxOutput = lengthArgument('maxOutputLength', options?.maxOutputLength, DEFAULT_MAX_OUTPUT_LENGTH);
  if (!(input instanceof Uint8Array)) throw new LzoError('bad-argument', 0, 'input must be a Uint8Array');
  const inEnd = input.length;
  // What this input can expand to at most: no allocation goes beyond it.
  const reachable = inEnd * MAX_EXPANSION;
  if (exact !== undefined) {
    if (exact > maxOutput)
      throw new LzoError(
        'output-overrun',
        0,
        `expected output of ${exact} bytes exceeds the limit of ${maxOutput} bytes`,
        maxOutput,
      );
    if (exact > reachable)
      throw new LzoError(
        'output-length-mismatch',
        0,
        `${inEnd} bytes of LZO1X cannot decompress to ${exact} bytes (at most ${MAX_EXPANSION} per byte)`,
      );
  }
  const limit = exact ?? maxOutput;

  // The WebAssembly decoder when the engine allows it; on anything it does not finish (a refused
  // stream, no WebAssembly), the TypeScript decoder below runs from the start and gives the error.
  const fast = decompressWasm(input, exact, Math.min(limit, reachable));
  if (fast !== undefined) return fast;
  usingTypeScript();

  // With a known length (justified by the input, checked above) the output is allocated once;
  // otherwise it starts from a guess and grows, never past the limit nor what the input can expand
  // to. (Everything below works on locals: this loop is the hot path.)
  let out: Uint8Array = allocate(exact ?? Math.min(limit, reachable, Math.max(64, inEnd * 4)), 0);
  let outEnd = out.length;
  let outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const inView = new DataView(input.buffer, input.byteOffset, input.byteLength);
  // The 8-byte copies below keep their cursors in int32: they run only while both ends are below
  // FAST_END (a stream past 2 GiB goes on through the general copies).
  let outFastEnd = Math.min(outEnd, FAST_END);
  const inFastEnd = Math.min(inEnd, FAST_END);
  let op = 0;
  let ip = 0;
  let state = 0; // 0: after a match with no literals; 1: after 1–3 literals; 4: after a literal run

  // The helpers below live outside this function: a closure over ip, op or out would move them
  // from registers into a heap context and slow every access in the loop.
  if (inEnd === 0) inputOverrun(ip);
  // Uint8Array reads below are `!`: each index is checked against inEnd or outEnd first.
  if (input[0]! > 17) {
    const count = input[0]! - 17;
    ip = 1;
    if (inEnd - ip < count) inputOverrun(ip);
    if (op + count > outEnd)
      ({ out, outEnd, outView, outFastEnd } = grown(out, op, op + count, limit, exact, 0, reachable));
    for (let i = 0; i < count; i++) out[op + i] = input[ip + i]!;
    ip += count;
    op += count;
    state = count < 4 ? 1 : 4;
  }

  // Per-instruction values are declared in the loop: fewer values live across iterations.
  for (;;) {
    if (ip >= inEnd) inputOverrun(ip);
    const at = ip; // where the instruction started, for error offsets
    let t = input[ip++]!;
    let count: number;
    let distance: number;
    if (t < 16) {
      if (state === 0) {
        // A literal run of 4 or more.
        if (t === 0) {
          count = extendedLength(input, ip, 15, limit, exact !== undefined) + 3;
          ip = scanEnd;
        } else count = t + 3;
        if (inEnd - ip < count) inputOverrun(ip);
        if (op + count > outEnd)
          ({ out, outEnd, outView, outFastEnd } = grown(out, op, op + count, limit, exact, at, reachable));
        if (count > 128) out.set(input.subarray(ip, ip + count), op);
        else if (op + count + 8 <= outFastEnd && ip + count + 8 <= inFastEnd) {
          // Int32 cursors (`| 0`, exact below FAST_END) need no overflow checks; both loads before the
          // stores, as each DataView store makes TurboFan re-check the views it reads next.
          for (let d = op, s = ip, end = op + count; d < end; d = (d + 8) | 0, s = (s + 8) | 0) {
            const low = inView.getInt32(s, true);
            const high = inView.getInt32((s + 4) | 0, true);
            outView.setInt32(d, low, true);
            outView.setInt32((d + 4) | 0, high, true);
          }
        } else {
          for (let i = 0; i < count; i++) out[op + i] = input[ip + i]!;
        }
        ip += count;
        op += count;
        state = 4;
        continue;
      }
      if (ip >= inEnd) inputOverrun(ip);
      distance = (t >> 2) + (input[ip++]! << 2) + (state === 4 ? 2049 : 1);
      count = state === 4 ? 3 : 2;
    } else if (t >= 64) {
      if (ip >= inEnd) inputOverrun(ip);
      distance = 1 + ((t >> 2) & 7) + (input[ip++]! << 3);
      count = (t >> 5) + 1;
    } else if (t >= 32) {
      if ((t & 31) === 0) {
        count = extendedLength(input, ip, 31, limit, exact !== undefined) + 2;
        ip = scanEnd;
      } else count = (t & 31) + 2;
      if (inEnd - ip < 2) inputOverrun(ip);
      t = input[ip]!; // its low bits carry the trailing literal count
      distance = 1 + ((t | (input[ip + 1]! << 8)) >> 2);
      ip += 2;
    } else {
      const high = (t & 8) << 11;
      if ((t & 7) === 0) {
        count = extendedLength(input, ip, 7, limit, exact !== undefined) + 2;
        ip = scanEnd;
      } else count = (t & 7) + 2;
      if (inEnd - ip < 2) inputOverrun(ip);
      t = input[ip]!;
      distance = high + ((t | (input[ip + 1]! << 8)) >> 2);
      ip += 2;
      if (distance === 0) break; // the end-of-stream marker
      distance += 0x4000;
    }
    // Copy the match (byte by byte when it overlaps its own output).
    const from = op - distance;
    if (from < 0)
      throw new LzoError('lookbehind-overrun', at, `match reaches ${-from} bytes before the start of the output`);
    if (op + count > outEnd)
      ({ out, outEnd, outView, outFastEnd } = grown(out, op, op + count, limit, exact, at, reachable));
    // Builtin copies cost a call each: short copies go four bytes at a time through a DataView
    // (TurboFan turns those into plain loads and stores), which is safe while the source is at
    // least four bytes behind.
    if (count <= 128 && distance >= 4) {
      let i = 0;
      if (op + count + 8 <= outFastEnd) {
        // Like liblzo, copy whole 8-byte steps and let the last one run past the match: those bytes
        // lie beyond the output written so far and the next instruction overwrites them.
        for (let d = op, s = from, end = op + count; d < end; d = (d + 8) | 0, s = (s + 8) | 0) {
          outView.setInt32(d, outView.getInt32(s, true), true);
          outView.setInt32((d + 4) | 0, outView.getInt32((s + 4) | 0, true), true);
        }
      } else {
        for (; i + 4 <= count; i += 4) outView.setInt32(op + i, outView.getInt32(from + i, true), true);
        for (; i < count; i++) out[op + i] = out[from + i]!;
      }
    } else if (count <= 16) {
      for (let i = 0; i < count; i++) out[op + i] = out[from + i]!;
    } else if (distance >= count) {
      out.copyWithin(op, from, from + count);
    } else if (distance === 1) {
      out.fill(out[from]!, op, op + count);
    } else {
      // An overlapping match repeats its first `distance` bytes: copy in growing whole periods.
      for (let done = 0; done < count; ) {
        const chunk = Math.min(count - done, distance + done);
        out.copyWithin(op + done, from, from + chunk);
        done += chunk;
      }
    }
    op += count;
    // Then 0–3 literals, from the low bits of the opcode or the first distance byte.
    count = t & 3;
    if (count === 0) {
      state = 0;
    } else {
      if (inEnd - ip < count) inputOverrun(ip);
      if (op + count > outEnd)
        ({ out, outEnd, outView, outFastEnd } = grown(out, op, op + count, limit, exact, at, reachable));
      if (op + 4 <= outEnd && ip + 4 <= inEnd) outView.setInt32(op, inView.getInt32(ip, true), true);
      else {
        out[op] = input[ip]!;
        if (count > 1) out[op + 1] = input[ip + 1]!;
        if (count > 2) out[op + 2] = input[ip + 2]!;
      }
      ip += count;
      op += count;
      state = 1;
    }
  }

  if (ip < inEnd) throw new LzoError('input-not-consumed', ip, `${inEnd - ip} bytes follow the end-of-stream marker`);
  if (exact !== undefined && op !== exact) {
    throw new LzoError('output-length-mismatch', ip, `decompressed to ${op} bytes, expected ${exact}`);
  }
  return out.length === op ? out : trimmed(out, op);
}

/** The first `length` bytes of a grown output: a copy of its size, or (when the engine refuses that allocation) a view. */
function trimmed(out: Uint8Array, length: number): Uint8Array {
  try {
    return out.slice(0, length);
  } catch (error) {
    if (error instanceof RangeError) return out.subarray(0, length);
    throw error;
  }
}
