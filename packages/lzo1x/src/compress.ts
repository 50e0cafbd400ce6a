/**
 * The LZO1X-1 compressor: the fast one (liblzo's `lzo1x_1_compress`, as miniLZO ships it). It hashes
 * the next four bytes into a dictionary of recent positions, emits literal runs and matches in the
 * LZO1X distance classes, and skips ahead faster the longer it finds nothing.
 *
 * The choices follow liblzo 2.09 on a 64-bit machine (blocks of 49,152 bytes with a fresh dictionary,
 * matches extended eight bytes at a time), so the output is byte-for-byte what the native library
 * writes; any LZO1X decompressor reads it. The block loop also runs as WebAssembly
 * (`wasm-module.ts`, the same steps) when the engine allows it; this TypeScript one is the fallback.
 *
 * @module
 */
import { automatic, usingTypeScript, wasmEngine } from './wasm.js';
import { CARRIED_AT, COMPRESS_INPUT_AT, WASM_SLACK } from './wasm-module.js';

const D_BITS = 14;
const BLOCK = 49152;
const M2_MAX_LEN = 8;
const M2_MAX_OFFSET = 0x0800;
const M3_MAX_OFFSET = 0x4000;
const M3_MAX_LEN = 33;
const M4_MAX_LEN = 9;
const M3_MARKER = 32;
const M4_MARKER = 16;

/** The most bytes `compress` can produce for an input of `length` bytes (liblzo's documented bound). */
export function compressBound(length: number): number {
  return length + Math.floor(length / 16) + 64 + 3;
}

/**
 * The largest output built in the buffer kept between calls (4 MiB + its bound's margin): larger
 * outputs get a buffer of their own, so a large input does not pin its memory after the call.
 */
const SCRATCH_MAX = compressBound(4 << 20);

/** The output buffer kept between calls (at most {@link SCRATCH_MAX} bytes), and its view. */
let scratch = new Uint8Array(0);
let scratchView = new DataView(scratch.buffer);

/** The dictionary of recent positions, cleared per block, kept between calls. */
const dictionary = new Uint16Array(1 << D_BITS);

/** How many of the eight bytes at `a` and `b` are equal, counted from the first (0–8). */
function equalBytes8(view: DataView, a: number, b: number): number {
  let x = view.getInt32(a, true) ^ view.getInt32(b, true);
  if (x !== 0) return (31 - Math.clz32(x & -x)) >> 3;
  x = view.getInt32(a + 4, true) ^ view.getInt32(b + 4, true);
  return x === 0 ? 8 : 4 + ((31 - Math.clz32(x & -x)) >> 3);
}

/** Where the last {@link compressBlock} left the output cursor. */
let outputEnd = 0;

/**
 * Emits `count` literals from `input[from…]` at `op`, with the instruction that announces them, and
 * returns the new output position.
 */
function emitLiterals(
  out: Uint8Array,
  outView: DataView,
  op: number,
  input: Uint8Array,
  inView: DataView,
  from: number,
  count: number,
): number {
  if (count <= 3) {
    out[op - 2]! |= count; // carried in the state bits of the previous instruction
  } else if (count <= 18) {
    out[op++] = count - 3;
  } else {
    let rest = count - 18;
    out[op++] = 0;
    while (rest > 255) {
      out[op++] = 0;
      rest -= 255;
    }
    out[op++] = rest;
  }
  if (count > 128) out.set(input.subarray(from, from + count), op);
  else if (from + count + 8 <= input.length && op + count + 8 <= out.length) {
    // Whole 8-byte steps; the bytes written past the run are overwritten by what follows.
    for (let i = 0; i < count; i += 8) {
      outView.setInt32(op + i, inView.getInt32(from + i, true), true);
      outView.setInt32(op + i + 4, inView.getInt32(from + i + 4, true), true);
    }
  } else for (let i = 0; i < count; i++) out[op + i] = input[from + i]!;
  return op + count;
}

/**
 * Compresses one block `input[start, start + length)` into `out` from `op` (the new position goes
 * to {@link outputEnd}). `carried` literals before `start` are still to be emitted. Returns how many
 * literals at the end of the block are left for the caller. Everything hot is a local variable.
 */
function compressBlock(
  input: Uint8Array,
  view: DataView,
  start: number,
  length: number,
  carried: number,
  out: Uint8Array,
  outView: DataView,
  op: number,
  dict: Uint16Array,
): number {
  const ipEnd = start + length - 20;
  let ii = start;
  let ip = start + (carried < 4 ? 4 - carried : 0);
  let ti = carried;
  dict.fill(0);
  ip += 1 + ((ip - ii) >> 5);
  for (;;) {
    // Find a position whose four bytes were seen before.
    let mPos: number;
    for (;;) {
      if (ip >= ipEnd) {
        outputEnd = op;
        return start + length - (ii - ti);
      }
      const dv = view.getInt32(ip, true);
      const index = Math.imul(0x1824429d, dv) >>> (32 - D_BITS);
      mPos = start + dict[index]!; // index < 2^D_BITS = dict.length
      dict[index] = ip - start;
      if (dv === view.getInt32(mPos, true)) break;
      ip += 1 + ((ip - ii) >> 5);
    }
    // Emit the literals before the match (and any carried from the previous block).
    ii -= ti;
    ti = 0;
    if (ip > ii) op = emitLiterals(out, outView, op, input, view, ii, ip - ii);
    // Extend the match eight bytes at a time, as liblzo does on 64-bit machines.
    let mLen = 4;
    let k = equalBytes8(view, ip + 4, mPos + 4);
    let stopped = false;
    if (k === 8) {
      do {
        mLen += 8;
        k = equalBytes8(view, ip + mLen, mPos + mLen);
        if (ip + mLen >= ipEnd) {
          stopped = true;
          break;
        }
      } while (k === 8);
    }
    if (!stopped) mLen += k;
    let mOff = ip - mPos;
    ip += mLen;
    ii = ip;
    if (mLen <= M2_MAX_LEN && mOff <= M2_MAX_OFFSET) {
      mOff -= 1;
      out[op++] = ((mLen - 1) << 5) | ((mOff & 7) << 2);
      out[op++] = mOff >> 3;
    } else {
      let marker: number;
      let lengthMax: number;
      if (mOff <= M3_MAX_OFFSET) {
        mOff -= 1;
        marker = M3_MARKER;
        lengthMax = M3_MAX_LEN;
      } else {
        mOff -= 0x4000;
        marker = M4_MARKER | ((mOff >> 11) & 8);
        lengthMax = M4_MAX_LEN;
      }
      if (mLen <= lengthMax) out[op++] = marker | (mLen - 2);
      else {
        let rest = mLen - lengthMax;
        out[op++] = marker;
        while (rest > 255) {
          out[op++] = 0;
          rest -= 255;
        }
        out[op++] = rest;
      }
      out[op++] = (mOff << 2) & 0xff;
      out[op++] = (mOff >> 6) & 0xff;
    }
  }
}

/**
 * Compresses with LZO1X-1. The output ends with LZO's end-of-stream marker (`11 00 00`) and is at
 * most {@link compressBound} bytes.
 *
 * @example
 * ```ts
 * import { compress } from '@savekit/lzo1x';
 * compress(new Uint8Array(0)); // Uint8Array [0x11, 0x00, 0x00]
 * ```
 */
export function compress(input: Uint8Array): Uint8Array {
  const fast = compressWasm(input);
  if (fast !== undefined) return fast;
  usingTypeScript();
  const bound = compressBound(input.length);
  // Up to SCRATCH_MAX the output is built in a buffer kept between calls and copied out at its
  // exact size: allocating (and zeroing) a worst-case buffer per call cost more than the copy.
  // Every byte before the final position is written by this call before it is read or returned.
  let out: Uint8Array;
  let outView: DataView;
  if (bound <= SCRATCH_MAX) {
    if (scratch.length < bound) {
      scratch = new Uint8Array(bound);
      scratchView = new DataView(scratch.buffer);
    }
    out = scratch;
    outView = scratchView;
  } else {
    out = new Uint8Array(bound);
    outView = new DataView(out.buffer);
  }
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  const dict = dictionary;
  let op = 0;
  let at = 0;
  let left = input.length;
  let carried = 0;
  while (left > 20) {
    const length = Math.min(left, BLOCK);
    // liblzo's pointer-overflow guard also stops here when fewer than 32 bytes are pending: those
    // go out as literals.
    if ((carried + length) >> 5 === 0) break;
    carried = compressBlock(input, view, at, length, carried, out, outView, op, dict);
    op = outputEnd;
    at += length;
    left -= length;
  }
  carried += left;
  if (carried > 0) {
    const from = input.length - carried;
    if (op === 0 && carried <= 238) {
      out[op++] = 17 + carried;
      out.set(input.subarray(from), op);
      op += carried;
    } else {
      op = emitLiterals(out, outView, op, input, view, from, carried);
    }
  }
  out[op++] = M4_MARKER | 1;
  out[op++] = 0;
  out[op++] = 0;
  // Incompressible input fills most of the worst-case buffer: hand it back without a copy then
  // (the scratch buffer with it: the next call allocates another).
  if (op * 10 < out.length * 9) return out.slice(0, op);
  if (out === scratch) {
    // Nothing of an earlier call may be reachable through the view's buffer.
    out.fill(0, op);
    scratch = new Uint8Array(0);
  }
  return out.subarray(0, op);
}

/**
 * {@link compress} through the WebAssembly module (its blocks in `wasm-module.ts`, the same steps as
 * {@link compressBlock}), or `undefined` when the TypeScript code must run. The memory holds the
 * dictionary, then the input, then the output.
 */
function compressWasm(input: Uint8Array): Uint8Array | undefined {
  const length = input.length;
  const outBase = Math.ceil((COMPRESS_INPUT_AT + length + WASM_SLACK) / 8) * 8;
  const engine = wasmEngine(outBase + compressBound(length) + WASM_SLACK);
  if (engine === undefined) return undefined;
  const memory = new Uint8Array(engine.memory.buffer);
  const view = new DataView(engine.memory.buffer);
  // The first block in, the rest after it (not at all for incompressible input, below).
  memory.set(length > BLOCK ? input.subarray(0, BLOCK) : input, COMPRESS_INPUT_AT);
  let op = outBase;
  let at = 0;
  let left = length;
  let carried = 0;
  while (left > 20) {
    const block = Math.min(left, BLOCK);
    if ((carried + block) >> 5 === 0) break;
    try {
      op = engine.compressBlock(COMPRESS_INPUT_AT + at, block, carried, op);
    } catch {
      // A trap (cannot happen: every access is within the memory asked for): TypeScript instead.
      return undefined;
    }
    carried = view.getInt32(CARRIED_AT, true);
    at += block;
    left -= block;
    // Incompressible so far (the first block came out, or is still pending as literals, at 31/32
    // of its size or more), with more to come: the TypeScript code copies its literals once, where
    // here they would be copied in and out besides. It starts again, for the same bytes.
    if (at === BLOCK && left > 0) {
      if (left >= BLOCK && automatic() && (op - outBase + carried) * 32 >= BLOCK * 31) return undefined;
      memory.set(input.subarray(BLOCK), COMPRESS_INPUT_AT + BLOCK);
    }
  }
  carried += left;
  if (carried > 0) {
    const from = COMPRESS_INPUT_AT + length - carried;
    if (op === outBase && carried <= 238) {
      memory[op++] = 17 + carried;
      memory.copyWithin(op, from, from + carried);
      op += carried;
    } else {
      op = emitLiterals(memory, view, op, memory, view, from, carried);
    }
  }
  memory[op++] = M4_MARKER | 1;
  memory[op++] = 0;
  memory[op++] = 0;
  return memory.slice(outBase, op);
}
