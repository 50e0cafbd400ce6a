/**
 * Shared short text: the strings a string codec has already decoded, found again from their bytes,
 * and the bytes it has already encoded, found again from their string. Saves repeat a few short
 * names (a class name per object, a texture per wall): a repeat then costs a hash and a compare, not
 * a string, a view of its bytes and an encoded copy.
 *
 * @module
 */
import { BytesTable } from './bytes-table.js';

/** Options of a string codec's `share` (see `pstring`, `cstring`). */
export interface ShareOptions {
  /** The most distinct texts kept (default 4096); once full, new texts are decoded as usual. */
  readonly most?: number;
  /** The longest text kept, in bytes (default 32); longer ones are decoded as usual. */
  readonly longest?: number;
}

/** The defaults of {@link ShareOptions}. */
const MOST = 4096;
const LONGEST = 32;

/**
 * A bounded table of short texts by their bytes (for decoding) and by their string (for encoding).
 * It never grows past `most` entries each way, whatever the input, and it keeps only texts that
 * decoded or encoded without error, so a hit gives exactly what decoding the bytes would. The
 * decoding side is a {@link BytesTable} of strings. (Internal: not exported from the package.)
 */
export class SharedText {
  /** The longest text kept, in bytes. */
  readonly longest: number;
  private readonly most: number;
  private readonly byBytes: BytesTable<string>;
  private readonly encoded = new Map<string, Uint8Array>();

  constructor(options: ShareOptions = {}) {
    const most = options.most ?? MOST;
    const longest = options.longest ?? LONGEST;
    if (!(Number.isInteger(most) && most >= 1 && most <= 1 << 20))
      throw new RangeError(`share: most must be an integer from 1 to ${1 << 20}, got ${most}`);
    if (!(Number.isInteger(longest) && longest >= 0 && longest <= 1024))
      throw new RangeError(`share: longest must be an integer from 0 to 1024, got ${longest}`);
    this.most = most;
    this.longest = longest;
    this.byBytes = new BytesTable<string>({ most, longest });
  }

  /**
   * The text of `bytes[start, end)` kept earlier, or `undefined`: then decode the bytes and, if they
   * decode, {@link keep} the text before the next `find`.
   */
  find(bytes: Uint8Array, start: number, end: number): string | undefined {
    return this.byBytes.find(bytes, start, end);
  }

  /** Keeps `text` as the text of `bytes[start, end)`, which the last {@link find} missed, if there is room. */
  keep(bytes: Uint8Array, start: number, end: number, text: string): void {
    this.byBytes.keep(bytes, start, end, text);
  }

  /** The bytes of `text` kept earlier (shared: copy them, never change them), or `undefined`. */
  bytesOf(text: string): Uint8Array | undefined {
    return this.encoded.get(text);
  }

  /** Keeps `bytes` as the encoding of `text`, if short and there is room. */
  keepBytes(text: string, bytes: Uint8Array): void {
    if (bytes.length <= this.longest && this.encoded.size < this.most) this.encoded.set(text, bytes);
  }
}
