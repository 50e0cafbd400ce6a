/**
 * A value stored as exactly two fixed-size fields (a float kept as an exponent and a mantissa),
 * decoded from the two stored values as arguments: no record between the bytes and the value.
 *
 * @module
 */
import type { Codec } from './codec.js';
import { fieldsMap, withFixedPath, type FieldsBijection } from './fields-map.js';
import type { StructType } from './struct.js';

/** The bijection of a {@link pairMap}: the stored fields given to `decode` as its two arguments. */
export interface PairBijection<A, B, T>
  extends Omit<FieldsBijection<Record<string, Codec<unknown>>, T>, 'decode' | 'encode'> {
  /** Stored fields to presented value. May throw to refuse (a DecodeError). */
  readonly decode: (first: A, second: B) => T;
  /**
   * Presented value to stored fields: set both fields of `fields` (a scratch record, keyed by the
   * fields' names, whose fields start `undefined`). May throw to refuse (an EncodeError); a field left
   * unset is an EncodeError naming it.
   */
  readonly encode: (value: T, fields: Record<string, unknown>) => void;
}

/**
 * {@link fieldsMap} of two fields, `first` then `second` (each `[name, codec]`), whose `decode` takes
 * the stored values as arguments. The same codec as that `fieldsMap` (laws, JSON form, what tools
 * see, every error: a failure on the fast path is redone on its tracked one), but a value read in
 * place is its two fields' in-place reads handed straight to `decode`, and a value written in place
 * its two fields' writes, from call sites of this codec alone; where a format has millions of such values (EDGE's floats), the scratch record and the
 * loop over fields of the general case are most of their cost.
 *
 * @throws TypeError when a field has no fixed size or in-place read and write.
 * @example
 * ```ts
 * import { decodeOrThrow, encodeOrThrow, u8 } from '@savekit/core';
 * import { pairMap } from '@savekit/core/kit';
 * const time = pairMap(['minutes', u8], ['seconds', u8], {
 *   name: 'time',
 *   decode: (minutes: number, seconds: number) => minutes * 60 + seconds,
 *   encode: (total: number, fields) => {
 *     fields.minutes = Math.floor(total / 60);
 *     fields.seconds = total % 60;
 *   },
 * });
 * decodeOrThrow(time, new Uint8Array([2, 5])); // 125
 * encodeOrThrow(time, 125); // Uint8Array [2, 5]
 * ```
 */
export function pairMap<A, B, T>(
  first: readonly [string, Codec<A>],
  second: readonly [string, Codec<B>],
  bijection: PairBijection<A, B, T>,
): Codec<T> {
  const [firstName, firstCodec] = first;
  const [secondName, secondCodec] = second;
  if (firstName === secondName) throw new TypeError(`pairMap: both fields are named ${firstName}`);
  const { decode } = bijection;
  // The general codec: the tracked path, the writes, and the form tools see.
  const general = fieldsMap({ [firstName]: firstCodec, [secondName]: secondCodec } as Record<string, Codec<unknown>>, {
    ...bijection,
    decode: (fields: Readonly<StructType<Record<string, Codec<unknown>>>>) =>
      decode(fields[firstName] as A, fields[secondName] as B),
  });
  // fieldsMap has checked both fields: fixed sizes, in-place reads.
  const readFirst = firstCodec.readFixed!;
  const readSecond = secondCodec.readFixed!;
  const offset = firstCodec.size!;
  const size = general.size!;
  const readFixed = (r: Parameters<typeof readFirst>[0], at: number): T =>
    decode(readFirst(r, at), readSecond(r, at + offset));
  const writeFirst = firstCodec.writeFixed!;
  const writeSecond = secondCodec.writeFixed!;
  const { encode } = bijection;
  // One scratch record, reused while no other write of this codec is under way (`busy`): a nested
  // one goes through the general codec, which has a record of its own.
  const scratch: Record<string, unknown> = { [firstName]: undefined, [secondName]: undefined };
  let busy = false;
  const writeFixed = (w: Parameters<typeof writeFirst>[0], at: number, value: T): void => {
    if (busy) {
      general.writeFixed!(w, at, value);
      return;
    }
    // Unset first: a field `encode` leaves out must fail (and be named on the tracked path).
    scratch[firstName] = undefined;
    scratch[secondName] = undefined;
    busy = true;
    try {
      encode(value, scratch);
    } finally {
      busy = false;
    }
    writeFirst(w, at, scratch[firstName] as A);
    writeSecond(w, at + offset, scratch[secondName] as B);
  };
  return withFixedPath(general, size, readFixed, writeFixed);
}
