/**
 * The size of what is left of the window (Kaitai's `_io.size - _io.pos`), as a value: for a record
 * table that fills its chunk with no count stored, or a body whose layout its size names.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';

/**
 * How many whole units of `unit` bytes the window has left, read without consuming anything; writes
 * nothing. The value is what the bytes after it make of the window, so it is only sound where they
 * give it back:
 *
 * - as the count of an array of fixed-size entries up to the window's end (`array(entry,
 *   remaining(entry.size))`), with anything after the array shorter than one entry — bytes that make
 *   no entry, kept by `optional(bytes('rest'))`;
 * - as the selector of `switchOn`, whose `caseOf` picks the case by the value and which checks, on
 *   write, that the bytes written select that case again (a body whose revision its size names).
 *
 * Its size is 0: no bytes, no span, no path segment of its own.
 *
 * @example
 * ```ts
 * const queue = struct({ entries: array(u16le, remaining(2)), rest: optional(bytes('rest')) });
 * // bytes 01 00 02 00 07 → { entries: [1, 2], rest: Uint8Array [07] }
 * ```
 */
export function remaining(unit = 1): Codec<number> {
  if (!Number.isSafeInteger(unit) || unit < 1)
    throw new RangeError(`remaining: a unit must be a positive integer, got ${unit}`);
  return defineCodec<number>({
    name: unit === 1 ? 'remaining' : `remaining(${unit})`,
    // Standing alone it reads 0 from an empty window: that is its one value tools can generate.
    def: customDef<number>('remaining', { params: { unit }, samples: [0] }),
    json: t.number as unknown as t.Type<number, unknown, unknown>,
    size: 0,
    minSize: 0,
    read(r) {
      return Math.floor(r.remaining / unit);
    },
    write(w, value) {
      // The window's size is what gets written after it; only a value that could be one is accepted.
      if (!Number.isSafeInteger(value) || value < 0)
        throw w.error('wrong-type', `expected a count of whole ${unit}-byte units, got ${String(value)}`);
    },
  });
}
