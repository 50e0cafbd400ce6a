/**
 * `@savekit/lzo1x`: LZO1X-1 compression and safe LZO1X decompression in TypeScript, for browsers and
 * Node, with no dependencies.
 *
 * @packageDocumentation
 */
import { compress } from './compress.js';
import { decompress } from './decompress.js';

export { compress, compressBound } from './compress.js';
export {
  DEFAULT_MAX_OUTPUT_LENGTH,
  type DecompressOptions,
  decompress,
  MAX_EXPANSION,
  MAX_OUTPUT_LENGTH,
} from './decompress.js';
export { LzoError, type LzoErrorCode, type LzoErrorReason } from './error.js';
export { chooseEngine, type EngineChoice, lastEngine } from './wasm.js';

/**
 * LZO1X-1 as a compressor pair of the shape `@savekit/core`'s `compression()` takes:
 * `transform(codec, compression(lzo1x))`. Past `maxOutput` it throws an LzoError with `code:
 * 'output-limit'`, which the core reports as its budget's error when the budget was the limit.
 */
export const lzo1x = {
  name: 'lzo1x',
  compress: (bytes: Uint8Array): Uint8Array => compress(bytes),
  decompress: (bytes: Uint8Array, maxOutput: number): Uint8Array =>
    decompress(bytes, {
      // Any limit the caller computes (a budget's remainder, Infinity for none) is a valid one here.
      maxOutputLength: Number.isNaN(maxOutput)
        ? 0
        : Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, Math.floor(maxOutput))),
    }),
} as const;
