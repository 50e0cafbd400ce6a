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
 * A stream the safe decompressor refused, with the input offset where it stopped and the reason
 * (the same conditions as liblzo's `LZO_E_INPUT_OVERRUN`, `LZO_E_OUTPUT_OVERRUN`,
 * `LZO_E_LOOKBEHIND_OVERRUN` and `LZO_E_INPUT_NOT_CONSUMED`).
 */
export class LzoError extends Error {
  override readonly name = 'LzoError';

  constructor(
    /** What went wrong. */
    readonly reason: LzoErrorReason,
    /** Offset in the compressed input. */
    readonly offset: number,
    message: string,
  ) {
    super(`${message} (at input offset ${offset})`);
  }
}
