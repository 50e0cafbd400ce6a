/**
 * A codec seen through a pure bijection: store one type, present another (an enum number as a name, a
 * fixed-point integer as a float, a packed date as a Date-like record).
 *
 * @module
 */
import * as t from 'io-ts';
import { refusedRead, refusedWrite, wrapping, type Codec } from './codec.js';
import { annotateDropped, renameStored, storedRenames } from './dropped.js';
import { DecodeError, EncodeError } from './errors.js';
import { defineExactCodec } from './exact.js';

/** The two directions of a bijection between the stored type `A` and the presented type `B`. */
export interface Bijection<A, B> {
  /** Stored to presented. May throw to refuse a stored value (it becomes a DecodeError). */
  readonly decode: (stored: A) => B;
  /** Presented to stored. May throw to refuse a value (it becomes an EncodeError). */
  readonly encode: (value: B) => A;
  /** A guard for presented values (used by io-ts unions); defaults to "anything". */
  readonly is?: (u: unknown) => u is B;
  /** The name of the presented type. */
  readonly name?: string;
  /**
   * The presented type's own JSON form, when it is not the stored form seen through the bijection
   * (a count the stored struct holds and the presented value leaves out). Default: the stored form.
   */
  readonly json?: t.Type<B, unknown, unknown>;
  /**
   * For tools: a codec whose values are exactly the presented values `encode` accepts, when `decode`
   * refuses most stored values (a reference valid only below a count). Testkit derives values from
   * it instead of filtering stored ones. Called when a tool asks, so it may build a codec per call.
   */
  readonly model?: () => Codec<B>;
  /**
   * Stored fields the presented value has no place for (a magic, a count rebuilt on write, a float's
   * mantissa): an error read or written inside one names it as an annotation from there on
   * (`header <magic>`), as spans and warnings already do (see `annotateDropped`).
   */
  readonly framing?: ReadonlyArray<string>;
  /**
   * The stored field the presented value stands for (a chunk `{ id, body }` presented as its body):
   * an error, warning or span inside it is named without that segment (`elements[0].x`, not
   * `elements[0].body.x`), as `dump` shows the value.
   */
  readonly hoisted?: string;
  /**
   * Where the presented value holds the stored one (`{ gzip, world }` holding a TEMD world at
   * `world`): an error, warning or span inside the stored value is named under that key.
   */
  readonly storedAt?: string;
}

/**
 * `codec` through a bijection. Laws: `decode(encode(b)) = b` and `encode(decode(a)) = a` for every
 * value the codec accepts; then the codec's own laws carry over. The JSON form is the stored type's
 * seen through the bijection, or `bijection.json` when given.
 *
 * @example
 * ```ts
 * const skill = map(u8, {
 *   decode: (n) => ['baby', 'easy', 'medium', 'hard', 'nightmare'][n] ?? fail(n),
 *   encode: (s) => ['baby', 'easy', 'medium', 'hard', 'nightmare'].indexOf(s),
 * });
 * ```
 */
export function map<A, B>(codec: Codec<A>, bijection: Bijection<A, B>): Codec<B> {
  const name = bijection.name ?? `map(${codec.name})`;
  const renames = storedRenames(bijection);
  const is = bijection.is ?? ((_: unknown): _ is B => true);
  const json =
    bijection.json ??
    new t.Type<B, unknown, unknown>(
      name,
      is,
      (u, c) => {
        const stored = codec.json.validate(u, c);
        if (stored._tag === 'Left') return stored;
        try {
          return t.success(bijection.decode(stored.right));
        } catch (error) {
          return t.failure(u, c, error instanceof Error ? error.message : String(error));
        }
      },
      (b) => codec.json.encode(bijection.encode(b)),
    );
  return defineExactCodec<B>({
    name,
    def: { type: 'map', stored: codec, bijection },
    json,
    ...wrapping(codec, 'stored'),
    read(r) {
      const at = r.pos;
      const spans = r.state.spans?.length ?? 0;
      const warnings = r.state.warnings.length;
      const depth = r.state.path.length;
      let stored: A;
      if (renames === undefined) stored = codec.read(r);
      else {
        const { renamingDepths, renamingRules } = r.state;
        renamingDepths.push(depth);
        renamingRules.push(renames);
        try {
          stored = codec.read(r);
        } catch (error) {
          if (error instanceof DecodeError) renameStored(error, depth, renames);
          throw error;
        } finally {
          renamingDepths.pop();
          renamingRules.pop();
        }
      }
      // guardRead inlined: a closure per value was a tenth of a large decode's garbage.
      let value: B;
      try {
        value = bijection.decode(stored);
      } catch (error) {
        throw refusedRead(r, name, error, at);
      }
      if (r.state.spans !== undefined || r.state.warnings.length > warnings)
        annotateDropped(r.state, spans, warnings, depth, () => value, renames);
      return value;
    },
    write(w, value) {
      let stored: A;
      try {
        stored = bijection.encode(value);
      } catch (error) {
        throw refusedWrite(w, name, error);
      }
      if (renames === undefined) codec.write(w, stored);
      else {
        const depth = w.state.path.length;
        try {
          codec.write(w, stored);
        } catch (error) {
          if (error instanceof EncodeError) {
            renameStored(error, depth, renames);
            throw error;
          }
          // Stack overflow and allocation failure (RangeErrors) are answered by `encode` itself.
          if (error instanceof RangeError) throw error;
          // Refused at the path where it was thrown, renamed as the document names it.
          const refused = refusedWrite(w, 'cannot write this value', error);
          renameStored(refused, depth, renames);
          throw refused;
        }
      }
    },
  });
}

/**
 * {@link map} over a fixed-size codec that also keeps its fast in-place path: the result has the
 * stored codec's `size` and offers `readFixed`/`writeFixed` (the stored codec's, through the
 * bijection) whenever the stored codec does, so structs and arrays of it are still read and written
 * at precomputed offsets. For a value stored in a fixed number of bytes and presented another way (a
 * float kept as an exponent and a mantissa, a packed date).
 *
 * Same laws and errors as {@link map}: a bijection that throws in the fast path is redone on the
 * tracked path, so the DecodeError or EncodeError names the value's path and offset.
 *
 * @throws TypeError when `codec` has no fixed size.
 * @example
 * ```ts
 * import { decodeOrThrow, fixedMap, struct, u8 } from '@savekit/core';
 * const time = fixedMap(struct({ minutes: u8, seconds: u8 }), {
 *   name: 'time',
 *   decode: ({ minutes, seconds }) => minutes * 60 + seconds,
 *   encode: (total: number) => ({ minutes: Math.floor(total / 60), seconds: total % 60 }),
 * });
 * decodeOrThrow(time, new Uint8Array([2, 5])); // 125
 * time.size; // 2
 * ```
 */
export function fixedMap<A, B>(codec: Codec<A>, bijection: Bijection<A, B>): Codec<B> {
  const size = codec.size;
  if (size === undefined) throw new TypeError(`fixedMap(${codec.name}): the stored codec has no fixed size`);
  const mapped = map(codec, bijection);
  const { readFixed, writeFixed } = codec;
  const { decode, encode } = bijection;
  return defineExactCodec<B>({
    ...mapped,
    // What the bijection throws here is a plain error: the caller redoes the read or write on the
    // tracked path (`read`/`write` above), which names the path and offset.
    readFixed: readFixed === undefined ? undefined : (r, at) => decode(readFixed(r, at)),
    writeFixed: writeFixed === undefined ? undefined : (w, at, value) => writeFixed(w, at, encode(value)),
  });
}

/**
 * What {@link withModel} attaches to a codec. The model's values `M` may be a narrower type than the
 * codec's (the three known kinds of a byte).
 */
export interface ModelOptions<A, M extends A = A> {
  /** A codec whose values are exactly the values worth drawing, for tools (see {@link Bijection.model}). */
  readonly model?: () => Codec<M>;
  /** The value's JSON form, when it is not the codec's own. */
  readonly json?: t.Type<A, unknown, unknown>;
  /** The name of the result (default: the codec's). */
  readonly name?: string;
}

/**
 * `codec` with a model of its values for tools, or another JSON form, and nothing else changed: the
 * same bytes, values, errors, size and fast paths. An identity {@link map} that exists to say what
 * the values are (a version number among a few known ones, a count that is usually small).
 *
 * @example
 * ```ts
 * import { literal, u8, withModel } from '@savekit/core';
 * // Any byte reads, but tools draw one of the three known kinds.
 * const kind = withModel(u8, { name: 'kind', model: () => literal(u8, 1, 2, 3) });
 * kind.size; // 1
 * ```
 */
export function withModel<A, M extends A = A>(codec: Codec<A>, options: ModelOptions<A, M>): Codec<A> {
  const identity = (value: A): A => value;
  const bijection: Bijection<A, A> = {
    decode: identity,
    encode: identity,
    is: codec.json.is,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.json !== undefined ? { json: options.json } : {}),
    // A codec of a narrower type reads and writes values of this one: tools only draw from it.
    ...(options.model !== undefined ? { model: options.model as unknown as () => Codec<A> } : {}),
  };
  return defineExactCodec<A>({
    name: options.name ?? codec.name,
    def: { type: 'map', stored: codec, bijection },
    json: options.json ?? codec.json,
    ...wrapping(codec, 'stored'),
    // The value is the stored value: read and written by the codec itself.
    read: (r) => codec.read(r),
    readFixed: codec.readFixed,
    writeFixed: codec.writeFixed,
    write: (w, value) => codec.write(w, value),
  });
}
