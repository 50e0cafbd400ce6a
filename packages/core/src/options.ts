/**
 * Options of `decode` and `encode`, with their defaults.
 *
 * @module
 */

import type { DecodeBudget } from './budget.js';

/** What a checksum mismatch does while decoding. */
export type ChecksumPolicy = 'error' | 'warn';

/**
 * Options of {@link decode}. An option set to `undefined` takes its default, as an absent one does,
 * so a caller can pass on optional settings of its own.
 */
export interface DecodeOptions {
  /** A checksum mismatch is an error (default) or a warning; encoding always writes a fresh one. */
  readonly checksums?: ChecksumPolicy | undefined;
  /** How deep codecs may nest (chunks in chunks, lazy recursion) before decoding fails. Default 512. */
  readonly maxDepth?: number | undefined;
  /** The most bytes one transform layer (a decompressor) may produce. Default 256 MiB. */
  readonly maxTransformOutput?: number | undefined;
  /**
   * The most bytes all transform layers and decompressors of one decode may produce together (a
   * bomb split over many chunks adds up). Default: 64 MiB or 32 bytes per input byte, whichever is
   * more. Going over is a `BudgetError` with `budget: 'output'`.
   */
  readonly maxTotalOutput?: number | undefined;
  /**
   * The most structural units — fields, array elements, chunks, entries, nesting steps — one decode
   * may read. Default: 4 Mi or 2 per input byte, whichever is more, plus 2 per byte decompressors
   * produce (at most 128 per input byte). Going over is a `BudgetError` with `budget: 'work'`.
   */
  readonly maxWork?: number | undefined;
  /**
   * A budget to share instead of starting a fresh one: a format that decodes nested parts passes its
   * own, so the whole save has one budget (see `DecodeBudget.of`). Overrides `maxTotalOutput` and
   * `maxWork`.
   */
  readonly budget?: DecodeBudget | undefined;
  /** The most elements an array of zero-width elements may hold. Default 16 Mi. */
  readonly maxElements?: number | undefined;
  /**
   * The most warnings one decode keeps. Past it warnings are counted, not kept, and the decode ends
   * with one `warnings-dropped` warning saying how many were left out: a hostile file cannot make a
   * warning per byte of its inflated data. Default 10,000.
   */
  readonly maxWarnings?: number | undefined;
  /** Record which byte range each field came from (for hex views); see `Decoded.spans`. */
  readonly trace?: boolean | undefined;
  /**
   * With `trace`, whether the fields inside byte layers (decompressed or decrypted bytes) are recorded
   * too. `false` keeps the trace to the file's own bytes: a compressed chunk is then one span, and its
   * inside is read untraced (as fast as an ordinary decode). A hex view of the file wants no more, and
   * a save whose compressed chunks hold millions of fields needs no span per field for it. Default
   * `true`.
   */
  readonly traceLayers?: boolean | undefined;
  /**
   * With `trace`, the most field spans one decode records. Past it the decode stops with a
   * `BudgetError` (`budget: 'spans'`) at the field whose span would pass it: a tool that shows a map
   * (the studio, a hex view) asks for one it can hold, and falls back to a coarser one (the file's own
   * bytes, `traceLayers: false`) when a save has more fields than that. Default: no limit.
   */
  readonly maxSpans?: number | undefined;
  /** Bytes left after the root codec are an error (default) or kept silently in `Decoded.trailing`. */
  readonly trailing?: 'error' | 'keep' | undefined;
  /**
   * `false` runs codecs made by `compile`, and every struct and array (which run their compiled
   * plans otherwise), interpreted (the tree they were compiled from), as tracing does: same values, warnings and errors, without the compiled plans — to compare the two,
   * or to rule the compiler out. Default `true`.
   */
  readonly compiled?: boolean | undefined;
}

/** Options of {@link encode}. As with {@link DecodeOptions}, `undefined` means the default. */
export interface EncodeOptions {
  /** How deep codecs may nest before encoding fails. Default 512. */
  readonly maxDepth?: number | undefined;
  /** Initial capacity of the output buffer in bytes; it grows as needed. Default 256. */
  readonly initialCapacity?: number | undefined;
  /**
   * `false` runs codecs made by `compile`, structs and arrays interpreted (see
   * {@link DecodeOptions.compiled}): the
   * same bytes and errors, without the compiled plans. Default `true`.
   */
  readonly compiled?: boolean | undefined;
}

/** The decode options with every default filled in. */
export interface ResolvedDecodeOptions {
  readonly checksums: ChecksumPolicy;
  readonly maxDepth: number;
  readonly maxTransformOutput: number;
  readonly maxElements: number;
  readonly maxWarnings: number;
  readonly trace: boolean;
  readonly traceLayers: boolean;
  readonly maxSpans: number;
  readonly trailing: 'error' | 'keep';
  readonly compiled: boolean;
}

/** Default nesting limit: far below what the JavaScript stack can take, far above any real format. */
export const DEFAULT_MAX_DEPTH = 512;
/** Default cap on what one transform layer may produce (a decompression bomb stops here). */
export const DEFAULT_MAX_TRANSFORM_OUTPUT = 256 * 1024 * 1024;
/** Default cap on the element count of arrays whose elements may take no bytes. */
export const DEFAULT_MAX_ELEMENTS = 16 * 1024 * 1024;
/** Default cap on the warnings one decode keeps (real saves give a handful). */
export const DEFAULT_MAX_WARNINGS = 10_000;

/** Fills in the defaults of decode options. */
export function resolveDecodeOptions(options: DecodeOptions | undefined): ResolvedDecodeOptions {
  return {
    checksums: options?.checksums ?? 'error',
    maxDepth: options?.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxTransformOutput: options?.maxTransformOutput ?? DEFAULT_MAX_TRANSFORM_OUTPUT,
    maxElements: options?.maxElements ?? DEFAULT_MAX_ELEMENTS,
    maxWarnings: options?.maxWarnings ?? DEFAULT_MAX_WARNINGS,
    trace: options?.trace ?? false,
    traceLayers: options?.traceLayers ?? true,
    maxSpans: options?.maxSpans ?? Number.POSITIVE_INFINITY,
    trailing: options?.trailing ?? 'error',
    compiled: options?.compiled ?? true,
  };
}

/**
 * The key, in an encode's `WriteState.context`, that says compiled codecs write interpreted
 * (set by `encode` for {@link EncodeOptions.compiled} `false`; the write state has no options).
 *
 * @internal
 */
export const WRITE_INTERPRETED: unique symbol = Symbol('savekit.writeInterpreted');
