/**
 * How many: a fixed number, a length or count read from the bytes just before, or everything left in
 * the window. Shared by `bytes`, `array` and `sized`.
 *
 * @module
 */
import type { Codec } from './codec.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** A fixed count, a count codec read in front of the data, or `'rest'` (up to the window's end). */
export type CountSpec = number | Codec<number> | 'rest';

/** A readable name of a count spec, for codec names. */
export function countName(spec: CountSpec): string {
  return typeof spec === 'number' ? String(spec) : spec === 'rest' ? 'rest' : spec.name;
}

/** Checks a fixed count given to a codec factory. */
export function checkFixedCount(spec: CountSpec, what: string): void {
  if (typeof spec === 'number' && (!Number.isSafeInteger(spec) || spec < 0)) {
    throw new RangeError(`${what}: a count must be a non-negative integer, got ${spec}`);
  }
}

/** Reads a count prefix (or returns the fixed count); `undefined` means "until the window ends". */
export function readCount(r: Reader, spec: CountSpec): number | undefined {
  if (typeof spec === 'number') return spec;
  if (spec === 'rest') return undefined;
  const at = r.pos;
  const n = spec.read(r);
  // A signed count field (a WAD's i32 `numlumps`) can hold a negative number: that is bad input.
  if (!Number.isSafeInteger(n) || n < 0) throw r.error(`count ${n} is not a non-negative integer`, at);
  return n;
}

/** Writes a count prefix, or checks that the value has the fixed count. */
export function writeCount(w: Writer, spec: CountSpec, count: number, noun: string): void {
  if (typeof spec === 'number') {
    if (count !== spec) throw w.error('size-mismatch', `expected ${spec} ${noun}, got ${count}`);
  } else if (spec !== 'rest') {
    spec.write(w, count);
  }
}
