/**
 * Runs the WebAssembly decoder ({@link wasmModuleBytes}) when the engine allows it, and says when
 * the TypeScript decoder must run instead: WebAssembly missing or refused (a Content Security
 * Policy without `'wasm-unsafe-eval'`, an engine without bulk memory), an output too large for
 * it, or a stream it refuses (the TypeScript decoder then finds the reason and offset).
 *
 * @module
 */
import { WASM_FULL, WASM_SLACK, wasmModuleBytes } from './wasm-module.js';

/** Which decoder `decompress` runs: `'auto'` (WebAssembly when available), or one forced (tests). */
export type DecoderChoice = 'auto' | 'wasm' | 'typescript';

/** One instance: its memory and decoding function. */
interface Engine {
  readonly memory: WebAssembly.Memory;
  readonly decode: (inEnd: number, outBase: number, outEnd: number) => number;
}

let choice: DecoderChoice = 'auto';
/** The compiled module: `undefined` until first tried, `null` when the engine refused it. */
let compiled: WebAssembly.Module | null | undefined;
/** The instance kept between calls, for inputs and outputs of up to {@link SHARED_MAX} bytes together. */
let shared: Engine | undefined;
/** Which decoder produced the last result or error (for tests). */
let last: 'wasm' | 'typescript' = 'typescript';

/**
 * The most memory the kept instance grows to (16 MiB): a larger call gets an instance of its own,
 * dropped after it, so one large file does not pin its memory.
 */
const SHARED_MAX = 16 << 20;
/** Above this (1 GiB of input and output together), the TypeScript decoder runs. */
const WASM_MAX = 1 << 30;
const PAGE = 65536;

/** Forces a decoder, or `'auto'` again. Internal: for tests running every case through each path. */
export function chooseDecoder(next: DecoderChoice): void {
  choice = next;
}

/** Which decoder ran for the last `decompress` call. Internal: for tests. */
export function lastDecoder(): 'wasm' | 'typescript' {
  return last;
}

/** Records that the TypeScript decoder runs. */
export function usingTypeScript(): void {
  last = 'typescript';
}

/** The compiled module, or null when WebAssembly is missing or refuses to compile it. */
function compile(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      // Synchronous compilation: the module is about 1 KB, under the 4 KB browsers allow on the main thread.
      compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(wasmModuleBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

function instantiate(module: WebAssembly.Module): Engine {
  const exports = new WebAssembly.Instance(module, {}).exports;
  return {
    memory: exports.m as WebAssembly.Memory,
    decode: exports.d as (inEnd: number, outBase: number, outEnd: number) => number,
  };
}

/**
 * Decompresses `input` with the WebAssembly decoder: the output, or `undefined` when the TypeScript
 * decoder must run. Arguments are already checked: `exact` the declared length or undefined, `max`
 * the most bytes the output may have (the limit, and what the input can expand to).
 */
export function decompressWasm(input: Uint8Array, exact: number | undefined, max: number): Uint8Array | undefined {
  if (choice === 'typescript') return undefined;
  // A stream of mostly literals (at least 3/4 of its declared output: incompressible data) is a
  // few long copies, which the TypeScript decoder makes straight into its output; through
  // WebAssembly they would be copied twice more (the input in, the output out).
  if (choice === 'auto' && exact !== undefined && input.length * 4 >= exact * 3) return undefined;
  const module = compile();
  if (module === null) {
    if (choice === 'wasm') throw new Error('the WebAssembly decoder is unavailable here');
    return undefined;
  }
  last = 'wasm';
  const inEnd = input.length;
  // Output after the input and the input's slack, 8-byte aligned.
  const outBase = Math.ceil((inEnd + WASM_SLACK) / 8) * 8;
  // Without a declared length, start from a guess and double it while the output does not fit.
  let capacity = exact ?? Math.min(max, Math.max(64, inEnd * 4));
  for (;;) {
    const needed = outBase + capacity + WASM_SLACK;
    if (needed > WASM_MAX) return undefined;
    try {
      let engine: Engine;
      if (needed <= SHARED_MAX) {
        shared ??= instantiate(module);
        engine = shared;
      } else engine = instantiate(module);
      const pages = Math.ceil(needed / PAGE) - engine.memory.buffer.byteLength / PAGE;
      if (pages > 0) engine.memory.grow(pages);
      const memory = new Uint8Array(engine.memory.buffer);
      memory.set(input);
      const length = engine.decode(inEnd, outBase, outBase + capacity);
      if (length >= 0) {
        return exact === undefined || length === exact ? memory.slice(outBase, outBase + length) : undefined;
      }
      if (length !== WASM_FULL || exact !== undefined || capacity >= max) return undefined;
    } catch {
      // Memory the engine would not grow (a RangeError), or a trap: the TypeScript decoder decides.
      return undefined;
    }
    capacity = Math.min(max, capacity * 2);
  }
}
