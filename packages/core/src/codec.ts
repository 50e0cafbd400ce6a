/**
 * The codec: reads an `A` from a {@link Reader}, writes it to a {@link Writer}, and carries the io-ts
 * type of the value's JSON form. `decode` and `encode` run a codec over whole buffers and return
 * fp-ts `Either`s.
 *
 * @module
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type { CodecDef } from './def.js';
import {
  DecodeError,
  EncodeError,
  FieldError,
  isPathAnnotation,
  pathAnnotation,
  type PathSegment,
  type Warning,
} from './errors.js';
import {
  resolveDecodeOptions,
  DEFAULT_MAX_DEPTH,
  type DecodeOptions,
  type EncodeOptions,
  type ResolvedDecodeOptions,
  WRITE_INTERPRETED,
} from './options.js';

const DEFAULT_DECODE_OPTIONS: ResolvedDecodeOptions = Object.freeze(resolveDecodeOptions(undefined));
import { Reader, ReadState, type FieldSpan } from './reader.js';
import { DecodeBudget } from './budget.js';
import { Writer, WriteState } from './writer.js';

/** A named child of a codec, for tools that walk codec trees (layout tables, arbitraries). */
export interface CodecChild {
  /** Field name, array marker (`[]`) or variant tag. */
  readonly key: PathSegment;
  /** The child codec. */
  readonly codec: Codec<any>;
}

/**
 * A two-way binary codec for values of type `A`.
 *
 * Laws (tested for every codec in this package): `read(write(a)) = a` for every valid `a`, and
 * `write(read(bytes)) = bytes` for every byte string `read` accepts.
 */
export interface Codec<A> {
  /** A short readable name of the type, such as `u32le` or `cstring(utf8)`. */
  readonly name: string;
  /**
   * What the codec is, with its parameters: a {@link CodecDef} variant per codec family (`int` with
   * width, signedness and byte order, `struct` with its fields, …) or `custom` for codecs a package
   * defines itself. Tools switch over `def.type`.
   */
  readonly def: CodecDef;
  /** The io-ts type of the value's lossless JSON form (see `toJson` / `fromJson`). */
  readonly json: t.Type<A, unknown, unknown>;
  /** The size in bytes when every value takes the same size, else `undefined`. */
  readonly size: number | undefined;
  /** A lower bound on the bytes one value takes (used to refuse impossible counts before allocating). */
  readonly minSize: number;
  /** Child codecs in order, for tools. */
  readonly children: ReadonlyArray<CodecChild>;
  /** Reads one value. Throws {@link DecodeError} on bad input. */
  read(reader: Reader): A;
  /**
   * Fixed-size codecs may offer this fast read: the value at absolute offset `at`, without bounds
   * checks (the caller has checked `size` bytes) and without moving the reader. It may throw on bad
   * bytes; callers then redo the read with {@link read} to get a precise error.
   *
   * `undefined` when not offered: {@link defineCodec} always sets the key, so that every codec has
   * the same object shape and the engine's property lookups on codecs stay monomorphic.
   */
  readonly readFixed?: ((reader: Reader, at: number) => A) | undefined;
  /**
   * The write counterpart of {@link readFixed}: writes exactly `size` bytes at `at`, where the caller
   * has made room, without moving the writer. It validates the value and may throw; callers then redo
   * the write with {@link write} to get an error with its path. `undefined` when not offered.
   */
  readonly writeFixed?: ((writer: Writer, at: number, value: A) => void) | undefined;
  /** Writes one value. Throws {@link EncodeError} on a value the codec cannot write. */
  write(writer: Writer, value: A): void;
}

/**
 * Whether a value is a codec: an object with a typed `def` and `read` and `write` functions. For
 * tools that look through a module's exports, and for telling a codec from a dependent field.
 */
export function isCodec(value: unknown): value is AnyCodec {
  // Checked member by member, not through `hasMembers`: struct and directory fields ask per value read.
  if (typeof value !== 'object' || value === null) return false;
  const { read, write, def } = value as Partial<Record<'read' | 'write' | 'def', unknown>>;
  return (
    typeof read === 'function' &&
    typeof write === 'function' &&
    typeof def === 'object' &&
    def !== null &&
    typeof (def as { type?: unknown }).type === 'string'
  );
}

/** A codec of any value type (codecs are invariant in their type, so `Codec<unknown>` will not do). */
export type AnyCodec = Codec<any>;

/** The value type of a codec: `TypeOf<typeof header>`. */
export type TypeOf<C> = C extends Codec<infer A> ? A : never;

/**
 * What {@link defineCodec} needs; the rest has defaults. `size`, `readFixed` and `writeFixed` also
 * take `undefined` (variable size, no fast path), as {@link Codec} has them, so a combinator can pass
 * on what it computed from its children.
 */
export interface CodecSpec<A> {
  readonly name: string;
  /**
   * What the codec is. Required: tools switch over it, and a codec without one could not be shown,
   * generated or compiled. A package's own codecs use `customDef(name, { params, model, samples })`.
   */
  readonly def: CodecDef;
  readonly json: t.Type<A, unknown, unknown>;
  readonly size?: number | undefined;
  readonly minSize?: number;
  readonly children?: ReadonlyArray<CodecChild>;
  read(reader: Reader): A;
  readFixed?: ((reader: Reader, at: number) => A) | undefined;
  writeFixed?: ((writer: Writer, at: number, value: A) => void) | undefined;
  write(writer: Writer, value: A): void;
}

/**
 * The children of a codec made of named parts, in the order given: `namedChildren({ primary,
 * secondary })` is `[{ key: 'primary', codec: primary }, { key: 'secondary', codec: secondary }]`.
 * (Internal: not exported from the package.)
 */
export function namedChildren(parts: Readonly<Record<string, AnyCodec>>): CodecChild[] {
  return Object.entries(parts).map(([key, codec]) => ({ key, codec }));
}

/**
 * The spec parts of a codec that holds `codec` as its one child `key` and reads and writes just its
 * bytes: the same size and minimum size. (Internal: not exported from the package.)
 */
export function wrapping(codec: AnyCodec, key: PathSegment): Pick<CodecSpec<unknown>, 'size' | 'minSize' | 'children'> {
  return { size: codec.size, minSize: codec.minSize, children: [{ key, codec }] };
}

/**
 * The `read` of a fixed-size codec that has a `readFixed`: check the bytes are there, read them in
 * place, move past them. (Internal: not exported from the package.)
 */
export function readThroughFixed<A>(size: number, readFixed: (reader: Reader, at: number) => A): (reader: Reader) => A {
  return (r) => {
    r.need(size);
    const value = readFixed(r, r.pos);
    r.pos += size;
    return value;
  };
}

/** Builds a {@link Codec} from its parts (the way every codec in this package is made). */
export function defineCodec<A>(spec: CodecSpec<A>): Codec<A> {
  // The type requires `def`; this catches JavaScript callers (and the free-form `kind`/`meta` form
  // that came before typed definitions) where they define the codec, not where a tool meets it.
  if (typeof spec.def !== 'object' || spec.def === null || typeof spec.def.type !== 'string') {
    throw new TypeError(
      `defineCodec(${JSON.stringify(spec.name)}): a codec needs a typed \`def\` — for a codec of your own, def: customDef(name, { params, model, samples })`,
    );
  }
  return {
    name: spec.name,
    def: spec.def,
    json: spec.json,
    size: spec.size,
    minSize: spec.minSize ?? spec.size ?? 0,
    children: spec.children ?? [],
    read: spec.read,
    readFixed: spec.size !== undefined ? spec.readFixed : undefined,
    writeFixed: spec.size !== undefined ? spec.writeFixed : undefined,
    write: spec.write,
  };
}

/** The result of a successful decode: the value and what was tolerated on the way. */
export interface Decoded<A> {
  /** The decoded value. */
  readonly value: A;
  /** Warnings, in the order they were met. */
  readonly warnings: ReadonlyArray<Warning>;
  /** Byte range of each field, when decoding with `trace: true`. */
  readonly spans?: ReadonlyArray<FieldSpan>;
  /** Bytes after the root value, when decoding with `trailing: 'keep'` and there were some. */
  readonly trailing?: Uint8Array;
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** Whether the engine refused an allocation (a size past what the platform can hold). */
function isAllocationFailure(error: unknown): boolean {
  return (
    error instanceof RangeError &&
    /allocation failed|invalid (typed )?array length|array buffer length/i.test(error.message)
  );
}

/**
 * Decodes a whole buffer with a codec.
 *
 * By default every byte must be used: bytes left after the root value are a DecodeError (or kept in
 * `Decoded.trailing` with `{ trailing: 'keep' }`).
 *
 * @example
 * ```ts
 * import { decode, struct, u16le, cstring } from '@savekit/core';
 * const entry = struct({ id: u16le, name: cstring('ascii') });
 * const result = decode(entry, new Uint8Array([1, 0, 0x41, 0]));
 * // result: right({ value: { id: 1, name: 'A' }, warnings: [] })
 * ```
 */
export function decode<A>(
  codec: Codec<A>,
  bytes: Uint8Array,
  options?: DecodeOptions,
): E.Either<DecodeError, Decoded<A>> {
  // First without what only errors need (see ReadState.errorDetail); again with it, from the start
  // and with a fresh budget, when an error or warning was made without it: the result is then the
  // detailed reading's, byte for byte.
  return decodeOnce(codec, bytes, options, false) ?? (decodeOnce(codec, bytes, options, true) as Decoding<A>);
}

type Decoding<A> = E.Either<DecodeError, Decoded<A>>;

/**
 * One reading of {@link decode}, with or without {@link ReadState.errorDetail}; undefined (the
 * reading and all it made dropped) when it lacked detail an error or warning needed.
 */
function decodeOnce<A>(
  codec: Codec<A>,
  bytes: Uint8Array,
  options: DecodeOptions | undefined,
  errorDetail: boolean,
): Decoding<A> | undefined {
  const state = new ReadState(
    options === undefined ? DEFAULT_DECODE_OPTIONS : resolveDecodeOptions(options),
    DecodeBudget.of(options, bytes.length),
  );
  state.errorDetail = errorDetail;
  const result = readWhole(codec, bytes, state);
  return state.detailMissed && !errorDetail ? undefined : result;
}

/** Reads the root value of a decode on `state` (see {@link decode}). */
function readWhole<A>(codec: Codec<A>, bytes: Uint8Array, state: ReadState): Decoding<A> {
  const reader = new Reader(bytes, state);
  try {
    const value = codec.read(reader);
    state.settle();
    const decoded: { value: A; warnings: Warning[]; spans?: FieldSpan[]; trailing?: Uint8Array } = {
      value,
      warnings: state.finalWarnings(),
    };
    if (reader.pos < reader.end) {
      if (state.options.trailing === 'error') {
        throw reader.error('trailing-bytes', `${reader.remaining} unread bytes after the end of ${codec.name}`);
      }
      decoded.trailing = bytes.slice(reader.pos);
    }
    if (state.spans !== undefined) decoded.spans = state.spans;
    return E.right(decoded);
  } catch (error) {
    if (error instanceof DecodeError) return E.left(error);
    // A format's function refused a part of the value where no codec caught it: named as it said.
    if (error instanceof FieldError)
      return E.left(new DecodeError([...state.path, ...error.at], reader.pos, error.message, error.code));
    if (isStackOverflow(error)) {
      return E.left(new DecodeError(state.path.slice(), reader.pos, 'nesting too deep for the call stack', 'too-deep'));
    }
    if (isAllocationFailure(error)) {
      const reason = (error as Error).message;
      return E.left(
        new DecodeError(state.path.slice(), reader.pos, `could not allocate memory: ${reason}`, 'out-of-memory'),
      );
    }
    throw error;
  }
}

/** Like {@link decode}, but returns the value and throws the {@link DecodeError}. For scripts. */
export function decodeOrThrow<A>(codec: Codec<A>, bytes: Uint8Array, options?: DecodeOptions): A {
  const result = decode(codec, bytes, options);
  if (E.isLeft(result)) throw result.left;
  return result.right.value;
}

/**
 * Encodes a value with a codec.
 *
 * @example
 * ```ts
 * import { encode, u16le } from '@savekit/core';
 * encode(u16le, 513); // right(Uint8Array [1, 2])
 * encode(u16le, 70000); // left(EncodeError: at (root) (offset 0): 70000 is out of range for u16le …)
 * ```
 */
export function encode<A>(
  codec: Codec<A>,
  value: NoInfer<A>,
  options?: EncodeOptions,
): E.Either<EncodeError, Uint8Array> {
  const writer = new Writer(new WriteState(options?.maxDepth ?? DEFAULT_MAX_DEPTH), options?.initialCapacity ?? 256);
  if (options?.compiled === false) writer.state.context.set(WRITE_INTERPRETED, true);
  try {
    codec.write(writer, value);
    return E.right(writer.finish());
  } catch (error) {
    if (error instanceof EncodeError) return E.left(error);
    if (error instanceof FieldError)
      return E.left(new EncodeError([...writer.state.path, ...error.at], writer.length, error.message, error.code));
    // A check shared with decoding (a schema reconciled on write, say) refused the value: an encode
    // answers with an EncodeError at the value being written, with the check's message and code.
    if (error instanceof DecodeError)
      return E.left(new EncodeError(writer.state.path.slice(), writer.length, error.message, error.code));
    if (isStackOverflow(error)) {
      return E.left(
        new EncodeError(writer.state.path.slice(), writer.length, 'nesting too deep for the call stack', 'too-deep'),
      );
    }
    if (isAllocationFailure(error)) {
      const reason = (error as Error).message;
      return E.left(
        new EncodeError(
          writer.state.path.slice(),
          writer.length,
          `could not allocate memory: ${reason}`,
          'out-of-memory',
        ),
      );
    }
    // Anything else was thrown by the document itself (a getter, a Proxy) or by code that met a value
    // of a shape it did not expect (a null-prototype object where a number goes): the value is
    // refused at the path being written, never a crash of the caller.
    return E.left(refusedWrite(writer, 'cannot write this value', error));
  }
}

/** Like {@link encode}, but returns the bytes and throws the {@link EncodeError}. For scripts. */
export function encodeOrThrow<A>(codec: Codec<A>, value: NoInfer<A>, options?: EncodeOptions): Uint8Array {
  const result = encode(codec, value, options);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

/**
 * Reads a child value under a path segment: the segment is on the path while it reads (so errors and
 * warnings name it) and, when tracing, the child's byte range is recorded (an `undefined` value's as an
 * annotation, or not at all when it took no bytes).
 */
export function readChild<A>(reader: Reader, key: PathSegment, codec: Codec<A>): A {
  const { path, spans } = reader.state;
  path.push(key);
  reader.work(1);
  const start = reader.pos;
  const value = codec.read(reader);
  if (spans !== undefined) {
    // An undefined value has no place in the document: with no bytes (an optional field with nothing
    // left) no span; with bytes (padding of its fill) a span whose last segment is an annotation.
    if (value !== undefined)
      reader.state.addSpan(spans, { path: path.slice(), start, end: reader.pos, layer: reader.layer });
    else if (reader.pos !== start) {
      const at = path.slice(0, -1);
      at.push(isPathAnnotation(key) ? key : pathAnnotation(String(key)));
      reader.state.addSpan(spans, { path: at, start, end: reader.pos, layer: reader.layer });
    }
  }
  path.pop();
  return value;
}

/** Writes a child value under a path segment (so errors name it). */
export function writeChild<A>(writer: Writer, key: PathSegment, codec: Codec<A>, value: A): void {
  const path = writer.state.path;
  path.push(key);
  codec.write(writer, value);
  path.pop();
}

/**
 * Runs a callback supplied by a codec's user (a mapping, a transform, a predicate) and turns anything
 * it throws into a DecodeError at the current path, so user code cannot crash a decode.
 */
export function guardRead<T>(reader: Reader, what: string, run: () => T, offset: number = reader.pos): T {
  try {
    return run();
  } catch (error) {
    throw refusedRead(reader, what, error, offset);
  }
}

/**
 * The error {@link guardRead} throws for `error`, caught from a function of the caller's: a
 * `DecodeError` as it is, anything else a `DecodeError` at `offset` naming `what` (for hot paths that
 * catch inline instead of making a closure per value).
 */
export function refusedRead(reader: Reader, what: string, error: unknown, offset: number = reader.pos): DecodeError {
  if (error instanceof DecodeError) return error;
  if (error instanceof FieldError)
    return new DecodeError([...reader.state.path, ...error.at], offset, error.message, error.code);
  return reader.error(`${what}: ${thrownText(error)}`, offset);
}

/** Like {@link guardRead}, for encoding. */
export function guardWrite<T>(writer: Writer, what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw refusedWrite(writer, what, error);
  }
}

/** Like {@link refusedRead}, for encoding. */
export function refusedWrite(writer: Writer, what: string, error: unknown): EncodeError {
  if (error instanceof EncodeError) return error;
  if (error instanceof FieldError)
    return new EncodeError([...writer.state.path, ...error.at], writer.length, error.message, error.code);
  return writer.error(`${what}: ${thrownText(error)}`);
}

/** What a thrown value says, whatever it is (a hostile value's `message` getter or `toString` may throw too). */
function thrownText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return `a thrown ${typeof error}`;
  }
}
