/**
 * Bytes whose end is stored nowhere but found by looking ahead: they run up to the first place whose
 * bytes read as something else — the next record's lead. UQM's `defgrp.dat` leaves the bytes a
 * shortened group no longer uses in the file; they run to the next place that reads as a header.
 *
 * @module
 */
import type * as t from 'io-ts';
import { BudgetError } from './budget.js';
import { DecodeError } from './errors.js';
import { defineCodec, type Codec } from './codec.js';
import { jsonBytes } from './json.js';
import { rereader, type Reader } from './reader.js';

/** Options of {@link bytesUntil}. */
export interface BytesUntilOptions<A> {
  /**
   * Whether a lead read at `at` (its offset from the start of the window the bytes are read in) is
   * the one that ends the bytes; default: every lead that reads. A predicate that throws is no match.
   */
  readonly where?: (value: A, at: number) => boolean;
  /**
   * How many bytes must be left at a place for a lead to start there (default the lead's `minSize`):
   * a whole record, when the lead is only its first fields.
   */
  readonly need?: number;
}

/**
 * The bytes from here up to (not including) the first place where `lead` reads without a
 * DecodeError — and `where` accepts what it read — or to the end of the window: a `Uint8Array`,
 * possibly empty. The lead is only looked at (its reading is rolled back, spans and warnings
 * included); the bytes after belong to the fields that follow.
 *
 * Write: the bytes as they are. Each place among them with `need` bytes of them left is read as a
 * lead, and one that is found there is an EncodeError `invalid-value`: read back, the bytes would end
 * there. (A lead that only matches with bytes written after these is not seen; keep the lead's
 * `need` a whole record.)
 *
 * The scan charges the decode's work budget one unit per place tried (and the lead's reading its
 * own), so a hostile file cannot make it scan for free; it is a loop, never recursion.
 *
 * @example
 * ```ts
 * const record = struct({ tag: literal(u8, 0xfe), body: bytesUntil(literal(u8, 0xfe)) });
 * // fe 01 02 fe 03 → { tag: 254, body: 01 02 }, the next record from the second fe
 * ```
 */
export function bytesUntil<A>(lead: Codec<A>, options: BytesUntilOptions<A> = {}): Codec<Uint8Array> {
  const need = options.need ?? lead.minSize;
  if (!Number.isSafeInteger(need) || need < 1)
    throw new RangeError(`bytesUntil: a lead takes at least one byte, ${lead.name} needs ${need}`);
  const where = options.where;
  /** Whether a lead starts at `at` of `r`'s bytes, its reading rolled back. */
  const leadAt = (r: Reader, at: number, origin: number): boolean => {
    const checkpoint = r.state.checkpoint();
    const probe = r.at(at, at, r.end);
    let found = false;
    try {
      const value = lead.read(probe);
      try {
        found = where === undefined || where(value, at - origin) === true;
      } catch {
        found = false;
      }
    } catch (error) {
      if (!(error instanceof DecodeError) || error instanceof BudgetError) throw error;
    }
    r.state.rollback(checkpoint);
    return found;
  };
  return defineCodec<Uint8Array>({
    name: `bytesUntil(${lead.name})`,
    def: { type: 'bytesUntil', lead, where, need },
    json: jsonBytes() as unknown as t.Type<Uint8Array, unknown, unknown>,
    minSize: 0,
    read(r) {
      const from = r.pos;
      let at = from;
      for (; at + need <= r.end; at++) {
        r.work(1);
        if (leadAt(r, at, r.start)) break;
      }
      if (at + need > r.end) at = r.end;
      r.pos = from;
      return r.take(at - from);
    },
    write(w, bytes) {
      if (!(bytes instanceof Uint8Array)) throw w.error('wrong-type', 'expected bytes');
      const from = w.length;
      w.append(bytes);
      const check = rereader(w.buf, w.origin, w.length);
      for (let at = from; at + need <= w.length; at++)
        if (leadAt(check, at, w.origin))
          throw w.error(
            'invalid-value',
            `${lead.name} is found at ${at - from} of the bytes: read back, they end there`,
            at,
          );
    },
  });
}
