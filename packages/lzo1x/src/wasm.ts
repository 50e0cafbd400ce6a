/**
 * The WebAssembly engine ({@link wasmModuleBytes}): compiled on first use when the engine allows it,
 * with memory for one call at a time. `undefined` from here means the TypeScript code runs instead:
 * WebAssembly missing or refused (a Content Security Policy without `'wasm-unsafe-eval'`, an engine
 * without bulk memory), memory it will not grow, or (when decoding) a stream it refuses — the
 * TypeScript decoder then finds the reason and offset.
 *
 * @module
 */
import { WASM_FULL, WASM_SLACK, wasmModuleBytes } from './wasm-module.js';

/**
 * Which code runs `compress` and `decompress`: `'auto'` (the default: WebAssembly where the
 * engine allows it, the TypeScript code otherwise), `'typescript'` (never WebAssembly), or `'wasm'`
 * (always WebAssembly where a call can use it; a call then throws when WebAssembly is unavailable).
 */
export type EngineChoice = 'auto' | 'wasm' | 'typescript';

/** One instance: its memory, the decoder and the compressor's block function. */
export interface Engine {
  /** The instance's memory (grown to the size asked for). */
  readonly memory: WebAssembly.Memory;
  /** See `wasm-module.ts`: the decompressed length, or a negative code. */
  readonly decode: (inEnd: number, outBase: number, outEnd: number) => number;
  /** See `wasm-module.ts`: one block compressed; returns the output position. */
  readonly compressBlock: (start: number, length: number, carried: number, op: number) => number;
}

let choice: EngineChoice = 'auto';
/** The compiled module: `undefined` until first tried, `null` when the engine refused it. */
let compiled: WebAssembly.Module | null | undefined;
/** The instance kept between calls, for calls needing up to {@link SHARED_MAX} bytes of memory. */
let shared: Engine | undefined;
/** Which code produced the last result or error (for tests). */
let last: 'wasm' | 'typescript' = 'typescript';

/**
 * The most memory the kept instance grows to (16 MiB): a larger call gets an instance of its own,
 * dropped after it, so one large file does not pin its memory.
 */
const SHARED_MAX = 16 << 20;
/** Above this (1 GiB of input and output together), the TypeScript code runs. */
const WASM_MAX = 1 << 30;
const PAGE = 65536;

/**
 * Chooses the code every later `compress` and `decompress` call runs, for the whole module
 * (bytes and errors are the same either way). `'typescript'` is for pages served with a Content
 * Security Policy whose `script-src` lacks `'wasm-unsafe-eval'`: called before the first call, it
 * keeps the module from trying to compile WebAssembly at all, so the browser reports no
 * `securitypolicyviolation` (with `'auto'` the refused compile reports one, and the TypeScript code
 * runs anyway). `'wasm'` makes a call throw where WebAssembly is unavailable (a check that it runs).
 *
 * @example
 * ```ts
 * import { chooseEngine, compress, decompress } from '@savekit/lzo1x';
 *
 * chooseEngine('typescript');
 * const data = new TextEncoder().encode('save save save save save');
 * const back = decompress(compress(data), { outputLength: data.length });
 * console.log(back.length === data.length); // true
 * chooseEngine('auto');
 * ```
 */
export function chooseEngine(next: EngineChoice): void {
  if (next !== 'auto' && next !== 'wasm' && next !== 'typescript')
    throw new TypeError(`chooseEngine: 'auto', 'wasm' or 'typescript', not ${String(next)}`);
  choice = next;
}

/** Which code ran for the last `compress` or `decompress` call (its result or its error). */
export function lastEngine(): 'wasm' | 'typescript' {
  return last;
}

/** Records that the TypeScript code runs. */
export function usingTypeScript(): void {
  last = 'typescript';
}

/** Whether the heuristics may pick the TypeScript code (not when a test forces WebAssembly). */
export function automatic(): boolean {
  return choice === 'auto';
}

/** The compiled module, or null when WebAssembly is missing or refuses to compile it. */
function compile(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      // Synchronous compilation: the module is under 2 KB, below the 4 KB browsers allow on the main thread.
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
    decode: exports.d as Engine['decode'],
    compressBlock: exports.c as Engine['compressBlock'],
  };
}

/**
 * An instance with at least `bytes` of memory, or `undefined` when the TypeScript code must run
 * (not chosen, not available, too large, or memory refused).
 */
export function wasmEngine(bytes: number): Engine | undefined {
  if (choice === 'typescript' || bytes > WASM_MAX) return undefined;
  const module = compile();
  if (module === null) {
    if (choice === 'wasm') throw new Error("WebAssembly is unavailable here (chooseEngine('wasm'))");
    return undefined;
  }
  try {
    let engine: Engine;
    if (bytes <= SHARED_MAX) {
      shared ??= instantiate(module);
      engine = shared;
    } else engine = instantiate(module);
    const pages = Math.ceil(bytes / PAGE) - engine.memory.buffer.byteLength / PAGE;
    if (pages > 0) engine.memory.grow(pages);
    last = 'wasm';
    return engine;
  } catch {
    // Memory the engine would not grow (a RangeError) or an instance refused.
    return undefined;
  }
}

/**
 * Decompresses `input` with the WebAssembly decoder: the output, or `undefined` when the TypeScript
 * decoder must run. Arguments are already checked: `exact` the declared length or undefined, `max`
 * the most bytes the output may have (the limit, and what the input can expand to).
 */
export function decompressWasm(input: Uint8Array, exact: number | undefined, max: number): Uint8Array | undefined {
  // A stream of mostly literals (at least 3/4 of its declared output: incompressible data) is a
  // few long copies, which the TypeScript decoder makes straight into its output; through
  // WebAssembly they would be copied twice more (the input in, the output out).
  if (choice === 'auto' && exact !== undefined && input.length * 4 >= exact * 3) return undefined;
  const inEnd = input.length;
  // Output after the input and the input's slack, 8-byte aligned.
  const outBase = Math.ceil((inEnd + WASM_SLACK) / 8) * 8;
  // Without a declared length, start from a guess and double it while the output does not fit.
  let capacity = exact ?? Math.min(max, Math.max(64, inEnd * 4));
  for (;;) {
    const engine = wasmEngine(outBase + capacity + WASM_SLACK);
    if (engine === undefined) return undefined;
    const memory = new Uint8Array(engine.memory.buffer);
    memory.set(input);
    let length: number;
    try {
      length = engine.decode(inEnd, outBase, outBase + capacity);
    } catch {
      // A trap (cannot happen: every access is within the memory asked for): TypeScript decides.
      return undefined;
    }
    if (length >= 0) {
      if (exact !== undefined && length !== exact) return undefined;
      try {
        return memory.slice(outBase, outBase + length);
      } catch (error) {
        // The copy out refused by the engine (a RangeError): TypeScript decides, with its typed error.
        if (error instanceof RangeError) return undefined;
        throw error;
      }
    }
    if (length !== WASM_FULL || exact !== undefined || capacity >= max) return undefined;
    capacity = Math.min(max, capacity * 2);
  }
}
