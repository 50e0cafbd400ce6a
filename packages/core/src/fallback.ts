/**
 * Try a codec, and when the bytes do not fit it, read them another way and say so: `fallback`
 * (a primary and a secondary codec) and `orRaw` (a codec, or the rest of its window kept as bytes).
 * For data a reader can only guess the layout of — fields no release table knows, a record whose
 * version is unclear — so a guess that fails keeps the data instead of failing the decode.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { bytes } from './bytes.js';
import { defineCodec, guardWrite, namedChildren, type Codec } from './codec.js';
import type { DecodeError } from './errors.js';
import { type Reader, rereader } from './reader.js';
import { struct } from './struct.js';

/** The warning a {@link fallback} records when it reads the secondary codec. */
export interface FallbackWarning {
  /** The warning's code (a format's own: `instance-kept-raw`). */
  readonly code: string;
  /** Its text, or the text made from the primary's error. */
  readonly message: string | ((error: DecodeError) => string);
}

/** Options of {@link fallback}. */
export interface FallbackOptions<A, B> {
  /** Recorded, at the value's path and start offset, each time the secondary is read. */
  readonly warning: FallbackWarning;
  /**
   * Whether a value is written with the secondary codec (and was read by it). Default: the
   * secondary's JSON type accepts it and the primary's does not.
   */
  readonly isSecondary?: (value: A | B) => value is B;
  /**
   * Whether a failure of the primary may be answered with the secondary. Default: every DecodeError
   * except `too-deep` — a structural limit holds whatever is tried. (A BudgetError is never caught:
   * see `Reader.attempt`.)
   */
  readonly recover?: (error: DecodeError) => boolean;
  /**
   * The JSON form; default: the primary's where it accepts the JSON and gives a value that is not a
   * secondary one, else the secondary's.
   */
  readonly json?: t.Type<A | B, unknown, unknown>;
  /** The codec's name; default `fallback(<primary>, <secondary>)`. */
  readonly name?: string;
}

/** The JSON form of either side, told apart as `isSecondary` tells values apart. */
function sidesJson<A, B>(
  name: string,
  primary: t.Type<A, unknown, unknown>,
  secondary: t.Type<B, unknown, unknown>,
  isSecondary: (value: A | B) => value is B,
): t.Type<A | B, unknown, unknown> {
  return new t.Type<A | B, unknown, unknown>(
    name,
    (u): u is A | B => (isSecondary(u as A | B) ? secondary.is(u) : primary.is(u)),
    (u, c) => {
      const first = primary.validate(u, c);
      if (E.isRight(first) && !isSecondary(first.right)) return first;
      const second = secondary.validate(u, c);
      return E.isRight(second) || E.isLeft(first) ? second : first;
    },
    (a) => (isSecondary(a) ? secondary.encode(a) : primary.encode(a as A)),
  );
}

/** The default of {@link FallbackOptions.recover}. */
const recoverable = (error: DecodeError): boolean => error.code !== 'too-deep';

/**
 * `primary`, or where its reading fails, `secondary` with a warning. Reading tries `primary`
 * (`Reader.attempt`): if it throws a DecodeError it may recover from, everything the reading did is
 * rolled back (position, path, warnings, context) and `secondary` reads from the same place; the
 * warning is recorded at the value's path and start offset. A failure of the secondary is the
 * decode's error.
 *
 * Writing picks the side by the value's shape (`isSecondary`). A secondary value is then checked:
 * its bytes must not read as the primary (they would decode as something else), so every value that
 * encodes decodes back to itself, on both sides. The check reads the bytes again without the
 * encode's context: a primary that depends on context values should not be used here.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { decode, fallback, magic, struct, u16le, u8 } from '@savekit/core';
 * import * as E from 'fp-ts/lib/Either.js';
 *
 * const record = fallback(struct({ tag: magic('R'), value: u16le }), struct({ version: u8 }), {
 *   warning: { code: 'old-record', message: 'an old record' },
 * });
 * const result = decode(record, Uint8Array.of(7));
 * assert.ok(E.isRight(result));
 * assert.deepEqual(result.right.value, { version: 7 });
 * assert.equal(result.right.warnings[0]?.code, 'old-record');
 * ```
 */
export function fallback<A, B>(primary: Codec<A>, secondary: Codec<B>, options: FallbackOptions<A, B>): Codec<A | B> {
  const name = options.name ?? `fallback(${primary.name}, ${secondary.name})`;
  const recover = options.recover ?? recoverable;
  const isSecondary =
    options.isSecondary ?? ((value: A | B): value is B => !primary.json.is(value) && secondary.json.is(value));
  const { code, message } = options.warning;
  const json = options.json ?? sidesJson(name, primary.json, secondary.json, isSecondary);
  const readPrimary = (r: Reader): A => primary.read(r);
  return defineCodec<A | B>({
    name,
    def: { type: 'fallback', primary, secondary, warning: code },
    json,
    minSize: Math.min(primary.minSize, secondary.minSize),
    children: namedChildren({ primary, secondary }),
    read(r) {
      const at = r.pos;
      const tried = r.attempt(readPrimary);
      if (E.isRight(tried)) return tried.right;
      const error = tried.left;
      if (!recover(error)) throw error;
      const value = secondary.read(r);
      r.warn(code, typeof message === 'string' ? message : message(error), at);
      return value;
    },
    write(w, value) {
      if (!guardWrite(w, `${name}: isSecondary`, () => isSecondary(value))) {
        primary.write(w, value as A);
        return;
      }
      const start = w.length;
      secondary.write(w, value as B);
      // Bytes the primary reads would come back as a primary value.
      const again = rereader(w.buf, start, w.length);
      const reread = again.attempt(readPrimary);
      if (E.isRight(reread))
        throw w.error(
          `${name}: the bytes of this ${secondary.name} value read as a ${primary.name}, so they would decode as one`,
          start,
        );
    },
  });
}

/** A value kept as the bytes it was read from (see {@link orRaw}). */
export interface Raw {
  readonly $raw: Uint8Array;
}

/** Options of {@link orRaw}. */
export type OrRawOptions<A> = Omit<FallbackOptions<A, Raw>, 'isSecondary'>;

const rawCodec: Codec<Raw> = struct({ $raw: bytes('rest') }, 'raw');

/** Whether a value is a {@link Raw} (`$raw` holds bytes). */
function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && (value as { $raw?: unknown }).$raw instanceof Uint8Array;
}

/**
 * `codec`, or where its reading fails, the rest of the window kept as `{ $raw }` with a warning: a
 * {@link fallback} to `struct({ $raw: bytes('rest') })`. A value with a `$raw` of bytes is written
 * as those bytes (so a value of `codec` must not have one). Use it inside a window (a chunk's body, a `sized` record), whose end the kept
 * bytes stop at.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { decodeOrThrow, encodeOrThrow, orRaw, sized, struct, u32le } from '@savekit/core';
 *
 * const record = sized(4, orRaw(struct({ a: u32le }), { warning: { code: 'kept-raw', message: 'kept as bytes' } }));
 * assert.deepEqual(decodeOrThrow(record, Uint8Array.of(1, 0, 0, 0)), { a: 1 });
 * const kept = sized(4, orRaw(struct({ a: u32le, b: u32le }), { warning: { code: 'kept-raw', message: 'kept' } }));
 * assert.deepEqual(decodeOrThrow(kept, Uint8Array.of(1, 0, 0, 0)), { $raw: Uint8Array.of(1, 0, 0, 0) });
 * assert.deepEqual(encodeOrThrow(kept, { $raw: Uint8Array.of(1, 0, 0, 0) }), Uint8Array.of(1, 0, 0, 0));
 * ```
 */
export function orRaw<A>(codec: Codec<A>, options: OrRawOptions<A>): Codec<A | Raw> {
  const name = options.name ?? `orRaw(${codec.name})`;
  // In JSON too, an object with `$raw` is the kept bytes (the codec's own JSON may accept anything).
  const json =
    options.json ??
    new t.Type<A | Raw, unknown, unknown>(
      name,
      (u): u is A | Raw => (isRaw(u) ? rawCodec.json.is(u) : codec.json.is(u)),
      (u, c) =>
        typeof u === 'object' && u !== null && Object.hasOwn(u, '$raw')
          ? rawCodec.json.validate(u, c)
          : codec.json.validate(u, c),
      (a) => (isRaw(a) ? rawCodec.json.encode(a) : codec.json.encode(a)),
    );
  return fallback(codec, rawCodec, { ...options, name, json, isSecondary: isRaw });
}
