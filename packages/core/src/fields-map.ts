/**
 * A value stored as a few fixed-size fields and presented as something else (a float kept as an
 * exponent and a mantissa, a length behind a marker byte), read and written without a stored object
 * per value: the fields go through one scratch record that the bijection reads or fills.
 *
 * @module
 */
import { defineCodec, type AnyCodec, type Codec } from './codec.js';
import { fixedMap, type Bijection } from './map.js';
import type { Reader } from './reader.js';
import { struct, type StructType } from './struct.js';
import type { Writer } from './writer.js';

/** The fields of a {@link fieldsMap}: fixed-size codecs, in the order they are stored. */
export type FixedFields = Readonly<Record<string, AnyCodec>>;

/** The bijection of a {@link fieldsMap}: {@link Bijection} with the stored record lent, not made. */
export interface FieldsBijection<F extends FixedFields, B>
  extends Omit<Bijection<StructType<F>, B>, 'decode' | 'encode'> {
  /**
   * Stored fields to presented value. `fields` is a scratch record reused for the next value: read
   * it, never keep it (copy what the value holds on to). May throw to refuse (a DecodeError).
   */
  readonly decode: (fields: Readonly<StructType<F>>) => B;
  /**
   * Presented value to stored fields: set every field of `fields` (a scratch record whose fields
   * start `undefined`). May throw to refuse (an EncodeError); a field left unset is an EncodeError
   * naming it.
   */
  readonly encode: (value: B, fields: StructType<F>) => void;
}

/**
 * `struct(fields)` seen through a bijection, as {@link fixedMap} is, but without a stored object per
 * value: each field is read in place into one scratch record that `decode` reads, and `encode`
 * fills that record before each field is written at its offset. Every field must have a fixed size
 * and an in-place read and write (integers, floats, `magic`), so the result has their total `size`
 * and offers `readFixed`/`writeFixed`, and structs of it are still read in place.
 *
 * Laws, JSON form and errors are those of `fixedMap(struct(fields), …)` (what it is for tools): a
 * bijection that throws on the fast path is redone on the tracked one, so the error names the value's
 * path, offset and field.
 *
 * @throws TypeError when a field has no fixed size or in-place read and write.
 * @example
 * ```ts
 * import { decodeOrThrow, encodeOrThrow, fieldsMap, u8 } from '@savekit/core';
 * const time = fieldsMap({ minutes: u8, seconds: u8 }, {
 *   name: 'time',
 *   decode: ({ minutes, seconds }) => minutes * 60 + seconds,
 *   encode: (total: number, fields) => {
 *     fields.minutes = Math.floor(total / 60);
 *     fields.seconds = total % 60;
 *   },
 * });
 * decodeOrThrow(time, new Uint8Array([2, 5])); // 125
 * encodeOrThrow(time, 125); // Uint8Array [2, 5]
 * ```
 */
export function fieldsMap<F extends FixedFields, B>(fields: F, bijection: FieldsBijection<F, B>): Codec<B> {
  const names = Object.keys(fields);
  const codecs = names.map((n) => fields[n]!);
  const offsets: number[] = [];
  let size = 0;
  for (const [i, codec] of codecs.entries()) {
    if (codec.size === undefined || codec.readFixed === undefined || codec.writeFixed === undefined)
      throw new TypeError(`fieldsMap: field ${names[i]} (${codec.name}) is not read and written in place`);
    offsets.push(size);
    size += codec.size;
  }
  const readers = codecs.map((c) => c.readFixed!);
  const writers = codecs.map((c) => c.writeFixed!);
  const { decode, encode } = bijection;
  // The tracked path, and the form tools see: the stored record is a fresh object there.
  const mapped = fixedMap(struct(fields, bijection.name ?? 'fields'), {
    ...bijection,
    decode: (stored) => decode(stored),
    encode: (value) => {
      const stored = {} as StructType<F>;
      encode(value, stored);
      return stored;
    },
  } as Bijection<StructType<F>, B>);
  // One scratch record per codec, reused while no other read or write of this codec is under way
  // (`busy`): a bijection that decodes or encodes with the same codec gets a record of its own.
  const scratch: Record<string, unknown> = Object.fromEntries(names.map((n) => [n, undefined]));
  const count = names.length;
  let busy = false;
  const readFixed = (r: Reader, at: number): B => {
    const record = busy ? ({} as Record<string, unknown>) : scratch;
    for (let i = 0; i < count; i++) record[names[i]!] = readers[i]!(r, at + offsets[i]!);
    if (record !== scratch) return decode(record as StructType<F>);
    busy = true;
    let value: B;
    try {
      value = decode(scratch as StructType<F>);
    } finally {
      busy = false;
    }
    // A bijection that hands back the record it was given gets a copy: the scratch is reused.
    return (value as unknown) === scratch ? ({ ...scratch } as B) : value;
  };
  const writeFixed = (w: Writer, at: number, value: B): void => {
    const record = busy ? ({} as Record<string, unknown>) : scratch;
    // Unset first: a field `encode` leaves out must fail (and be named on the tracked path), not
    // write what the previous value left.
    for (let i = 0; i < count; i++) record[names[i]!] = undefined;
    if (record === scratch) {
      busy = true;
      try {
        encode(value, scratch as StructType<F>);
      } finally {
        busy = false;
      }
    } else {
      encode(value, record as StructType<F>);
    }
    for (let i = 0; i < count; i++) writers[i]!(w, at + offsets[i]!, record[names[i]!]);
  };
  return withFixedPath(mapped, size, readFixed, writeFixed);
}

/**
 * `general` with an in-place fast path: `readFixed`/`writeFixed` at a known `size` do the work, and
 * any failure (or a traced read, or too few bytes) is redone by `general`, which names the error
 * where the tracked path would. Shared by {@link fieldsMap} and `pairMap`.
 *
 * @internal
 */
export function withFixedPath<T>(
  general: Codec<T>,
  size: number,
  readFixed: (r: Reader, at: number) => T,
  writeFixed: (w: Writer, at: number, value: T) => void,
): Codec<T> {
  return defineCodec<T>({
    ...general,
    size,
    read(r) {
      const at = r.pos;
      if (r.state.spans !== undefined || r.end - at < size) return general.read(r);
      let value: T;
      try {
        value = readFixed(r, at);
      } catch {
        return general.read(r); // redone where the error is named
      }
      r.pos = at + size;
      return value;
    },
    readFixed,
    write(w, value) {
      const start = w.ensure(size);
      try {
        writeFixed(w, start, value);
        w.length = start + size;
      } catch {
        w.length = start;
        general.write(w, value); // redone where the error is named
      }
    },
    writeFixed,
  });
}
