/**
 * A list a format walks itself before its codec writes it, checked first.
 *
 * @module
 */
import { describeValue, FieldError, type Path } from './errors.js';

/**
 * `value` as a list without holes, for a format's own walk of a part of a document before its codec
 * writes it (a count in a header, a layout check): anything but a list is a {@link FieldError} at
 * `at`, and the first hole one at `[...at, i]`, both `wrong-type`. Stops at the first hole, so a sparse
 * list of length 2^32 − 1 is refused at once, not walked. `item` and `items` name the elements in the
 * messages.
 *
 * @example
 * ```ts
 * import { denseList } from '@savekit/core/kit';
 * denseList([1, 2], ['rows'], 'row'); // [1, 2]
 * denseList(7, ['rows'], 'row'); // throws FieldError at rows: expected a list of rows, got 7
 * denseList([1, , 3], ['rows'], 'row'); // throws FieldError at rows[1]: row 1 is missing: the list has a hole
 * ```
 */
export function denseList(value: unknown, at: Path, item: string, items = `${item}s`): unknown[] {
  if (!Array.isArray(value))
    throw new FieldError(at, `expected a list of ${items}, got ${describeValue(value)}`, 'wrong-type');
  for (let i = 0; i < value.length; i++)
    if (!(i in value)) throw new FieldError([...at, i], `${item} ${i} is missing: the list has a hole`, 'wrong-type');
  return value;
}
