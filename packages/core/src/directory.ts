/**
 * A directory of fixed-size entries followed by the bodies they place: two regions of the file that
 * the document shows as one list (an archive's table of contents and its members, an object table
 * and the objects' data). Each entry holds its body's offset and length; element `i` of the list is
 * entry `i` and body `i` joined.
 *
 * @module
 */
import * as t from 'io-ts';
import { array as arrayOf } from './array.js';
import { defineCodec, readChild, type AnyCodec, type Codec } from './codec.js';
import { DecodeError, EncodeError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** An entry and a body, as {@link DirectoryOptions.split} gives them for one element. */
export interface DirectorySplit<E, K extends keyof E, B> {
  /** The entry without its body's place (the directory fills that in). */
  readonly entry: Omit<E, K>;
  /** The body. */
  readonly body: B;
}

/** Options of {@link directory}. */
export interface DirectoryOptions<E, K extends keyof E, B, V> {
  /** How many entries (an earlier field's value, `(p) => directory({ count: p.count, … })`). */
  readonly count: number;
  /** An entry as stored, its body's place included. Must have a fixed size. */
  readonly entry: Codec<E>;
  /**
   * The entry fields holding the body's place: `offset` counts from the start of the bodies, which
   * begin right after the directory; `length` is the body's size in bytes. Both are rebuilt on
   * write; on read the bodies must follow each other in entry order, with no gap.
   */
  readonly place: { readonly offset: K; readonly length: K };
  /**
   * The body's codec for an entry (it may depend on counts the entry stores, never on the place).
   * It reads inside a window of exactly `length` bytes and must use all of them. Called once per
   * element: memoise it when it builds codecs.
   */
  readonly body: (entry: E) => Codec<B>;
  /** The element from its entry and body; what it throws is a DecodeError at the element. */
  readonly join: (entry: E, body: B) => V;
  /** The entry (without the place) and the body of an element; what it throws is an EncodeError at the element. */
  readonly split: (element: V) => DirectorySplit<E, K, B>;
  /** The JSON type of one element. */
  readonly json: t.Type<V, unknown, unknown>;
  /** The codec's name (default `directory`). */
  readonly name?: string;
}

/** Byte offset of field `key` inside a fixed-size struct entry, when the definition says; else 0. */
function fieldOffset(entry: AnyCodec, key: string): number {
  const def = entry.def;
  if (def.type !== 'struct' || def.stored !== undefined) return 0;
  let at = 0;
  for (const field of def.fields) {
    if (field.name === key) return at;
    if (typeof field.spec === 'function' || field.spec.size === undefined) return 0;
    at += field.spec.size;
  }
  return 0;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A directory of `count` fixed-size entries, then the bodies they place, one after the other in
 * entry order: the document is one list whose element `i` is `join(entry i, body i)`.
 *
 * - **Decode** reads the entries, then each body in a window of its length (at the path of its
 *   element), checks that it starts where the one before ended and that it uses its window, and
 *   joins it with its entry. Errors name the element (`objects[3].references[0]`) and the offset in
 *   the file; a body offset that breaks the order names the entry's offset field.
 * - **Encode** splits each element, writes the bodies after room left for the directory, then
 *   writes the entries with each body's offset and length filled in. The list must have `count`
 *   elements (compute the stored count with `rebuild`).
 *
 * @example
 * ```ts
 * import * as t from 'io-ts';
import { array as arrayOf } from './array.js';
 * import { array, decodeOrThrow, directory, encodeOrThrow, jsonBytes, struct, u8, bytes } from '@savekit/core';
 *
 * const entry = struct({ id: u8, at: u8, length: u8 });
 * const files = directory({
 *   count: 2,
 *   entry,
 *   place: { offset: 'at', length: 'length' },
 *   body: () => bytes('rest'),
 *   join: (e, data) => ({ id: e.id, data }),
 *   split: (file: { id: number; data: Uint8Array }) => ({ entry: { id: file.id }, body: file.data }),
 *   json: t.type({ id: t.number, data: jsonBytes() }),
 * });
 * const stored = encodeOrThrow(files, [{ id: 7, data: Uint8Array.of(1, 2) }, { id: 9, data: Uint8Array.of(3) }]);
 * // [7, 0, 2,  9, 2, 1,  1, 2, 3]: the entries, then the bodies
 * decodeOrThrow(files, stored)[1]; // { id: 9, data: Uint8Array [3] }
 * ```
 */
export function directory<E, K extends keyof E & string, B, V>(options: DirectoryOptions<E, K, B, V>): Codec<V[]> {
  const { count, entry, place, body, join, split } = options;
  const step = entry.size;
  if (step === undefined) throw new RangeError(`directory: the entry ${entry.name} has no fixed size`);
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`directory: count ${count} is not valid`);
  const name = options.name ?? 'directory';
  const offsetAt = fieldOffset(entry, place.offset);
  const lengthAt = fieldOffset(entry, place.length);
  // The entries are read and written by the core's array (its fixed-size fast path, its count check
  // and its element paths); one codec per directory.
  const entries = arrayOf(entry, count);
  return defineCodec<V[]>({
    name,
    def: {
      type: 'directory',
      count,
      entry,
      place,
      body,
      join,
      split,
      json: options.json as t.Type<unknown, unknown, unknown>,
    },
    json: t.array(options.json, name) as unknown as t.Type<V[], unknown, unknown>,
    minSize: count * step,
    children: [{ key: 'entry', codec: entry }],
    read(r) {
      const tableAt = r.pos;
      const stored = entries.read(r);
      const out: V[] = new Array(count);
      const bodiesAt = r.pos;
      for (let i = 0; i < count; i++) {
        const e = stored[i]!;
        const entryAt = tableAt + i * step;
        const offset = e[place.offset] as unknown as number;
        const length = e[place.length] as unknown as number;
        const expected = r.pos - bodiesAt;
        if (offset !== expected)
          throw r.errorAt(
            i,
            'bad-pointer',
            `body at ${offset}, expected ${expected} (bodies follow each other in entry order)`,
            entryAt + offsetAt,
          );
        if (length > r.remaining)
          throw r.errorAt(
            i,
            'short-read',
            `body of ${length} bytes runs past the end (${r.remaining} left)`,
            entryAt + lengthAt,
          );
        const bodyAt = r.pos;
        const window = r.window(length);
        const codec = choose(r, i, () => body(e));
        const value = readChild(window, i, codec);
        if (!window.atEnd)
          throw r.errorAt(i, 'size-mismatch', `${window.remaining} bytes of the body left unread`, window.pos);
        out[i] = joined(r, i, bodyAt, () => join(e, value));
      }
      return out;
    },
    write(w, value) {
      if (!Array.isArray(value)) throw w.error('wrong-type', `expected an array, got ${typeof value}`);
      if (value.length !== count)
        throw w.error(
          'size-mismatch',
          `expected ${count} ${count === 1 ? 'element' : 'elements'}, got ${value.length}`,
        );
      // Room for the directory first; the entries are written into it once the bodies are placed.
      const tableAt = w.reserve(count * step);
      const bodiesAt = w.length;
      const placed: E[] = new Array(count);
      const path = w.state.path;
      const depth = path.length;
      path.push(0);
      for (let i = 0; i < count; i++) {
        path[depth] = i;
        const element = value[i]!;
        const parts = guardSplit(w, () => split(element));
        const start = w.length;
        const codec = guardSplit(w, () => body(parts.entry as E));
        codec.write(w, parts.body);
        placed[i] = { ...parts.entry, [place.offset]: start - bodiesAt, [place.length]: w.length - start } as E;
      }
      path.pop();
      const end = w.length;
      w.length = tableAt;
      entries.write(w, placed);
      w.length = end;
    },
  });
}

function choose<A>(r: Reader, i: number, run: () => Codec<A>): Codec<A> {
  try {
    return run();
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    throw r.errorAt(i, `cannot choose the body's codec: ${reason(error)}`);
  }
}

function joined<V>(r: Reader, i: number, at: number, run: () => V): V {
  try {
    return run();
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    throw r.errorAt(i, reason(error), at);
  }
}

function guardSplit<A>(w: Writer, run: () => A): A {
  try {
    return run();
  } catch (error) {
    if (error instanceof EncodeError) throw error;
    throw w.error(reason(error));
  }
}
