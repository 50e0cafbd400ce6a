/**
 * Values that earlier parts of a file hand to later ones: definitions read from one chunk that decide
 * how a later chunk is read and written (EDGE's structure definitions before its instance data, a
 * string table before the records that index it). {@link provide} records a value's contribution in
 * the decode's (or encode's) shared context under a {@link ContextKey}; {@link fromContext} is a codec
 * chosen from what the context holds when it is reached — on read and on write alike.
 *
 * @module
 */
import type * as t from 'io-ts';
import { defineCodec, guardRead, guardWrite, wrapping, type Codec } from './codec.js';
import type { Path } from './errors.js';

/**
 * A typed key of the shared context (`ReadState.context`, `WriteState.context`), with the value it
 * has before anything was provided. Keys are compared by identity: make one per concept, at module
 * level.
 */
export interface ContextKey<T> {
  /** A name for messages and tools. */
  readonly name: string;
  /** The value before anything was provided (called on each read of an unset key). */
  readonly initial: () => T;
}

/**
 * A context key named `name` whose value starts as `initial()`.
 *
 * @example
 * ```ts
 * const NAMES = contextKey<ReadonlyArray<string>>('names', () => []);
 * ```
 */
export function contextKey<T>(name: string, initial: () => T): ContextKey<T> {
  return Object.freeze({ name, initial });
}

/**
 * The value of `key` in a decode's or encode's context (its `initial()` when nothing was provided).
 * For hooks and tools; codecs use {@link fromContext}.
 */
export function contextValue<T>(context: ReadonlyMap<unknown, unknown>, key: ContextKey<T>): T {
  return context.has(key) ? (context.get(key) as T) : key.initial();
}

/** Where a provided value is: its document path and the offset it starts at (in the file or the output). */
export interface ProvideSite {
  readonly path: Path;
  readonly offset: number;
}

/**
 * `codec`, and after each value it reads or writes, the context value of `key` becomes
 * `update(previous, value, site)` — `site` says where the value is, for what is said of it later. The value and its JSON form are `codec`'s; no path segment is added.
 *
 * `update` must not change `previous`: it returns a new value (or `previous` itself). That is what
 * lets `Reader.attempt` roll a failed reading back (it restores context entries, not what is inside
 * them) and lets tools replay a document's prefix to learn the context a later part sees. `update`
 * refuses a value by throwing: a DecodeError/EncodeError at the value's path, at its start offset
 * when reading (`structure X is defined twice`).
 *
 * @example
 * ```ts
 * const NAMES = contextKey<ReadonlyArray<string>>('names', () => []);
 * const name = provide(pstring(u8, 'ascii'), NAMES, (names, n) => [...names, n]);
 * ```
 */
export function provide<A, T>(
  codec: Codec<A>,
  key: ContextKey<T>,
  update: (previous: T, value: A, site: ProvideSite) => T,
): Codec<A> {
  const name = `provide(${key.name}, ${codec.name})`;
  return defineCodec<A>({
    name,
    def: {
      type: 'provide',
      codec,
      key,
      update: update as (previous: unknown, value: unknown, site: ProvideSite) => unknown,
    },
    json: codec.json,
    ...wrapping(codec, 'value'),
    read(r) {
      const at = r.pos;
      const value = codec.read(r);
      const context = r.state.context;
      const site = { path: r.state.path.slice(), offset: at };
      const next = guardRead(r, name, () => update(contextValue(context, key), value, site), at);
      context.set(key, next);
      return value;
    },
    write(w, value) {
      const site = { path: w.state.path.slice(), offset: w.length };
      codec.write(w, value);
      const context = w.state.context;
      const next = guardWrite(w, name, () => update(contextValue(context, key), value, site));
      context.set(key, next);
    },
  });
}

/** Options of {@link fromContext}. */
export interface FromContextOptions<A> {
  /**
   * The JSON form of every value any chosen codec can have (JSON is read without a file, so it
   * cannot depend on the context).
   */
  readonly json: t.Type<A, unknown, unknown>;
  /** The codec's name; default `fromContext(<key>)`. */
  readonly name?: string;
  /** A lower bound on the bytes of a value, whatever codec is chosen (default 0). */
  readonly minSize?: number;
}

/**
 * A codec chosen from the context value of `key` when it is reached: `choose(value)` is called on
 * each read and each write (cache what it builds, keyed by the value, when building is costly). No
 * path segment is added; anything `choose` throws is a DecodeError/EncodeError at this codec's path.
 * Together with {@link provide} it is a dependent field whose dependency is anywhere earlier in the
 * file, not only among the fields of the same struct.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { array, contextKey, decodeOrThrow, fromContext, provide, struct, u16le, u8 } from '@savekit/core';
 * import * as t from 'io-ts';
 *
 * const WIDTH = contextKey('width', () => 1);
 * const file = struct({
 *   width: provide(u8, WIDTH, (_, width) => width),
 *   rows: array(fromContext(WIDTH, (width) => array(u16le, width), { json: t.array(u16le.json) }), 2),
 * });
 * assert.deepEqual(decodeOrThrow(file, Uint8Array.of(1, 7, 0, 8, 0)), { width: 1, rows: [[7], [8]] });
 * ```
 */
export function fromContext<T, A>(
  key: ContextKey<T>,
  choose: (value: T) => Codec<A>,
  options: FromContextOptions<A>,
): Codec<A> {
  const name = options.name ?? `fromContext(${key.name})`;
  return defineCodec<A>({
    name,
    def: { type: 'fromContext', key, choose: choose as (value: unknown) => Codec<unknown> },
    json: options.json,
    minSize: options.minSize ?? 0,
    read(r) {
      const codec = guardRead(r, `${name}: choose`, () => choose(contextValue(r.state.context, key)));
      return codec.read(r);
    },
    write(w, value) {
      const codec = guardWrite(w, `${name}: choose`, () => choose(contextValue(w.state.context, key)));
      codec.write(w, value);
    },
  });
}
