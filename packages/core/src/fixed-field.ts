/**
 * One field of a struct declaration, read where it lies: its offset and its codec come from the
 * declaration, so code that needs a single header field of many records (a type tag to allocate
 * by, before the record is decoded) reads it without a literal index, a byte order of its own or a
 * decode per record.
 *
 * @module
 */
import type { Codec } from './codec.js';
import { resolveDecodeOptions } from './options.js';
import { Reader, ReadState } from './reader.js';
import { isRebuild } from './rebuild.js';

/** A field of a struct declaration at a fixed offset, read in place (see {@link fixedField}). */
export interface FixedField<A> {
  /** The field's name in the declaration. */
  readonly name: string;
  /** Its offset from the start of the struct, in bytes. */
  readonly offset: number;
  /** Its size, in bytes. */
  readonly size: number;
  /**
   * The field of the struct whose bytes are `bytes[start, end)` (default: all of `bytes`), read by
   * the field's codec where it lies (no copy, no view); `undefined` when the range is too short to
   * hold it. A value the codec refuses is its DecodeError, as in a decode.
   */
  read(bytes: Uint8Array, start?: number, end?: number): A | undefined;
}

/**
 * The field `name` of the struct declaration `layout`: the fields before it must have fixed sizes
 * (so its offset is known without the bytes), and it must be fixed-size itself, read by its codec's
 * `readFixed` (integers, floats).
 *
 * @throws RangeError when `layout` is not a struct, has no field `name`, or the field's offset or
 * size depends on the bytes.
 *
 * @example
 * ```ts
 * const head = struct({ tag: u32be, dataType: u32be });
 * const dataType = fixedField(head, 'dataType');
 * dataType.read(Uint8Array.of(0x44, 0x41, 0x54, 0x41, 0, 0, 0, 3)); // 3
 * ```
 */
export function fixedField<T, K extends keyof T & string>(layout: Codec<T>, name: K): FixedField<T[K]> {
  const def = layout.def;
  if (def.type !== 'struct') throw new RangeError(`fixedField: ${layout.name} is not a struct`);
  // The bytes hold the fields in their stored order (`reordered`), else in declaration order.
  const order = def.stored ?? def.fields.map((f) => f.name);
  let offset = 0;
  for (const fieldName of order) {
    const field = def.fields.find((f) => f.name === fieldName)!;
    const spec = isRebuild(field.spec) ? field.spec.rebuild.field : field.spec;
    if (typeof spec === 'function')
      throw new RangeError(`fixedField: field ${fieldName} of ${layout.name} depends on earlier fields`);
    if (fieldName === name) {
      const { size, readFixed } = spec as Codec<T[K]>;
      if (size === undefined || readFixed === undefined)
        throw new RangeError(`fixedField: field ${name} of ${layout.name} is not read at a fixed size`);
      return fieldReader(name, offset, size, readFixed);
    }
    if (spec.size === undefined)
      throw new RangeError(`fixedField: the size of field ${fieldName} of ${layout.name} depends on the bytes`);
    offset += spec.size;
  }
  throw new RangeError(`fixedField: ${layout.name} has no field ${name}`);
}

function fieldReader<A>(
  name: string,
  offset: number,
  size: number,
  readFixed: (reader: Reader, at: number) => A,
): FixedField<A> {
  // One reader over the whole buffer the bytes are a view of, kept while they stay in it: views of
  // one file (its records, its segments) are read with no object made per read. It is dropped once
  // the current job ends, so a field declared at module level never holds a file's buffer after it.
  let buffer: ArrayBufferLike | undefined;
  let reader: Reader | undefined;
  // The last array read and where it starts in the buffer: the same array again (an image's data)
  // skips even the buffer lookup.
  let last: Uint8Array | undefined;
  let base = 0;
  const state = new ReadState(resolveDecodeOptions(undefined)); // holds nothing of a file
  const drop = () => {
    buffer = undefined;
    reader = undefined;
    last = undefined;
  };
  return {
    name,
    offset,
    size,
    read(bytes, start = 0, end = bytes.length) {
      if (!(start >= 0 && end <= bytes.length && end - start >= offset + size)) return undefined;
      if (bytes !== last) {
        if (reader === undefined) queueMicrotask(drop);
        if (reader === undefined || bytes.buffer !== buffer) {
          buffer = bytes.buffer;
          reader = new Reader(new Uint8Array(buffer), state);
        }
        last = bytes;
        base = bytes.byteOffset + offset;
      }
      return readFixed(reader!, base + start);
    },
  };
}
