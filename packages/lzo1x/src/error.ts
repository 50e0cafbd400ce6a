/**
 * The one error the decompressor throws.
 *
 * @module
 */

/** Why a stream was refused. */
export type LzoErrorReason =
  | 'input-overrun'
  | 'output-overrun'
  | 'lookbehind-overrun'
  | 'input-not-consumed'
  | 'output-length-mismatch'
  | 'bad-argument';

/**
 * A machine-readable code: the {@link LzoErrorReason}, except `'output-limit'` for an output that
 * would pass `maxOutputLength` (the code `@savekit/core` looks for, so a decode whose budget was the
 * binding limit reports its budget).
 */
export type LzoErrorCode = LzoErrorReason | 'output-limit';

/**
 * A stream the safe decompressor refused, with the input offset where it stopped and the reason
 * (the same conditions as liblzo's `LZO_E_INPUT_OVERRUN`, `LZO_E_OUTPUT_OVERRUN`,
 * `LZO_E_LOOKBEHIND_OVERRUN` and `LZO_E_INPUT_NOT_CONSUMED`).
 */
export class LzoError extends Error {
  override readonly name = 'LzoError';
  /** `'output-limit'` when the output would pass `maxOutputLength` (then {@link limit} is set), else the reason. */
  readonly code: LzoErrorCode;

  constructor(
    /** What went wrong. */
    readonly reason: LzoErrorReason,
    /** Offset in the compressed input. */
    readonly offset: number,
    message: string,
    /** The `maxOutputLength` the output would have passed (only for an `'output-limit'`). */
    readonly limit: number | undefined = undefined,
  ) {
    super(`${message} (at input offset ${offset})`);
    this.code = limit !== undefined ? 'output-limit' : reason;
  }
}
