/**
 * A codec seen through a pure bijection: store one type, present another (an enum number as a name, a
 * fixed-point integer as a float, a packed date as a Date-like record).
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, guardRead, guardWrite, wrapping, type Codec } from './codec.js';
import { annotateDropped } from './dropped.js';

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
  return defineCodec<B>({
    name,
    def: { type: 'map', stored: codec, bijection },
    json,
    ...wrapping(codec, 'stored'),
    read(r) {
      const at = r.pos;
      const spans = r.state.spans?.length ?? 0;
      const warnings = r.state.warnings.length;
      const stored = codec.read(r);
      const value = guardRead(r, name, () => bijection.decode(stored), at);
      if (r.state.spans !== undefined || r.state.warnings.length > warnings)
        annotateDropped(r.state, spans, warnings, r.state.path.length, () => value);
      return value;
    },
    write(w, value) {
      codec.write(
        w,
        guardWrite(w, name, () => bijection.encode(value)),
      );
    },
  });
}
