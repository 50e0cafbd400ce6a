/**
 * A directory of fixed-size entries followed by the bodies they place: two regions of the file that
 * the document shows as one list (an archive's table of contents and its members, an object table
 * and the objects' data). Each entry holds its body's offset and length; element `i` of the list is
 * entry `i` and body `i` joined.
 *
 * @module
 */
import type * as t from 'io-ts';
import { jsonArray } from './json.js';
import { array as arrayOf } from './array.js';
import { defineCodec, readChild, type AnyCodec, type Codec } from './codec.js';
import { annotateDropped } from './dropped.js';
import { DecodeError, EncodeError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** An entry and a body, as {@link DirectoryOptions.split} gives them for one element. */
export interface DirectorySplit<E, K extends keyof E, B> {
  /**
   * The entry; its body's place is filled in by the directory. Give the place fields too (any
   * number, as placeholders) when speed matters: every entry then has one shape from the start.
   */
  readonly entry: Omit<E, K> & Partial<Pick<E, K>>;
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
  /**
   * The entry (without the place) and the body of an element; what it throws is an EncodeError at
   * the element. Return a new entry object each time: the directory adds the place to it.
   */
  readonly split: (element: V) => DirectorySplit<E, K, B>;
  /**
   * The stored size of a body, when the body alone tells it: a hint (never checked against what is
   * written) with which the writer makes room for the entries and every body at once, instead of
   * growing and copying its buffer again and again as a large table is written.
   */
  readonly bodySize?: (body: B) => number;
  /** The JSON type of one element. */
  readonly json: t.Type<V, unknown, unknown>;
  /** The codec's name (default `directory`). */
  readonly name?: string;
  /**
   * For tools: a codec whose values are exactly the elements `join` accepts, when `join` refuses
   * most pairs of an entry and a body drawn apart (testkit then derives elements from it).
   */
  readonly model?: () => Codec<V>;
}

/**
 * Where field `key` of a struct entry is (its byte offset) and its codec when every field before it
 * has a fixed size; the offset is 0 and the codec undefined when the definition does not say.
 */
function fieldOf(entry: AnyCodec, key: string): { at: number; codec: Codec<number> | undefined } {
  const def = entry.def;
  if (def.type !== 'struct' || def.stored !== undefined) return { at: 0, codec: undefined };
  let at = 0;
  for (const field of def.fields) {
    if (typeof field.spec === 'function' || field.spec.size === undefined) break;
    if (field.name === key) return { at, codec: field.spec };
    at += field.spec.size;
  }
  return { at: 0, codec: undefined };
}

/**
 * Whether every entry is read by `readFixed` without fail: a struct of fixed-size integers, which
 * any bytes are a value of. Such entries are read one at a time as their bodies are, not all first
 * into a list (a million entry objects kept until the last body is read cost a load more in
 * garbage collection than reading them did); nothing they could refuse comes out in another order.
 */
function entriesCannotFail(entry: AnyCodec): boolean {
  const def = entry.def;
  if (def.type !== 'struct' || def.stored !== undefined || entry.readFixed === undefined) return false;
  return def.fields.every((field) => typeof field.spec !== 'function' && field.spec.def.type === 'int');
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
 * - **Encode** splits each element, writes the entries (so their errors come first, in file order),
 *   the bodies, then the entries again with each body's offset and length filled in. The list must have `count`
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
  const offsetField = fieldOf(entry, place.offset);
  const lengthField = fieldOf(entry, place.length);
  const offsetAt = offsetField.at;
  const lengthAt = lengthField.at;
  // Places are patched into the written entries by their own codecs when the entry's definition
  // gives them (a struct of fixed-size fields); otherwise the entries are written again.
  const patchOffset = offsetField.codec?.writeFixed;
  const patchLength = lengthField.codec?.writeFixed;
  // The entries are read and written by the core's array (its fixed-size fast path, its count check
  // and its element paths); one codec per directory.
  const entries = arrayOf(entry, count);
  const readEntry = entriesCannotFail(entry) && step > 0 ? entry.readFixed : undefined;
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
      ...(options.model !== undefined ? { model: options.model } : {}),
    },
    json: jsonArray(options.json, name) as unknown as t.Type<V[], unknown, unknown>,
    minSize: count * step,
    children: [{ key: 'entry', codec: entry }],
    read(r) {
      const tableAt = r.pos;
      const spans = r.state.spans?.length ?? 0;
      const warnings = r.state.warnings.length;
      let stored: E[] | undefined;
      if (readEntry !== undefined && r.state.spans === undefined && count * step <= r.remaining) {
        // What the array of entries would do — charge the count, step over them — minus the list.
        r.work(count);
        r.pos += count * step;
      } else stored = entries.read(r); // and its errors, when the entries do not fit
      const out: V[] = new Array(count);
      const bodiesAt = r.pos;
      for (let i = 0; i < count; i++) {
        const e = stored !== undefined ? stored[i]! : readEntry!(r, tableAt + i * step);
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
        if (!(length <= r.remaining))
          // also a length that is not a number
          throw r.errorAt(
            i,
            'short-read',
            `body of ${length} bytes runs past the end (${r.remaining} left)`,
            entryAt + lengthAt,
          );
        const bodyAt = r.pos;
        const window = r.window(length);
        let codec: Codec<B>;
        try {
          codec = body(e);
        } catch (error) {
          throw asDecodeError(r, i, error, `cannot choose the body's codec: `, bodyAt);
        }
        const value = readChild(window, i, codec);
        if (!window.atEnd)
          throw r.errorAt(i, 'size-mismatch', `${window.remaining} bytes of the body left unread`, window.pos);
        try {
          out[i] = join(e, value);
        } catch (error) {
          throw asDecodeError(r, i, error, '', bodyAt);
        }
      }
      // An entry's place (offset, length) and other fields the element leaves out are annotations.
      if (r.state.spans !== undefined || r.state.warnings.length > warnings) {
        const depth = r.state.path.length;
        annotateDropped(r.state, spans, warnings, depth + 1, (path) => out[path[depth] as number]);
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
      // The entries first, with their places at 0 (so what they refuse is refused in file order),
      // then the bodies, then the entries again with each body's place.
      // The bodies and entries apart (not each split's pair, which a long list would keep alive
      // until the last body is written).
      const bodies: B[] = new Array(count);
      const placed: E[] = new Array(count);
      const path = w.state.path;
      const depth = path.length;
      path.push(0);
      for (let i = 0; i < count; i++) {
        path[depth] = i;
        const element = value[i]!;
        let part: DirectorySplit<E, K, B>;
        try {
          part = split(element);
        } catch (error) {
          throw asEncodeError(w, error);
        }
        bodies[i] = part.body;
        // The entry object is the directory's to complete (split makes a new one per element).
        const e = part.entry as unknown as Record<K, unknown>;
        e[place.offset] = 0;
        e[place.length] = 0;
        placed[i] = e as E;
      }
      path.pop();
      if (options.bodySize !== undefined) presizeFor(w, count * step, bodies, options.bodySize);
      const tableAt = w.length;
      entries.write(w, placed);
      const bodiesAt = w.length;
      path.push(0);
      for (let i = 0; i < count; i++) {
        path[depth] = i;
        const content = bodies[i]!;
        let codec: Codec<B>;
        try {
          codec = body(placed[i]!);
        } catch (error) {
          throw asEncodeError(w, error);
        }
        const start = w.length;
        codec.write(w, content);
        const e = placed[i] as Record<K, unknown>;
        e[place.offset] = start - bodiesAt;
        e[place.length] = w.length - start;
      }
      const end = w.length;
      if (patchOffset !== undefined && patchLength !== undefined) {
        for (let i = 0; i < count; i++) {
          path[depth] = i;
          const e = placed[i] as Record<K, number>;
          const at = tableAt + i * step;
          patchField(w, place.offset, patchOffset, at + offsetAt, e[place.offset]);
          patchField(w, place.length, patchLength, at + lengthAt, e[place.length]);
        }
        path.pop();
        return;
      }
      path.pop();
      w.length = tableAt;
      entries.write(w, placed);
      w.length = end;
    },
  });
}

/** Room left after a presized directory for what usually follows it (a trailer, a checksum). */
const ROOM_AFTER = 256;
/** A presize hint past this many bytes is not followed (the writer grows as it goes instead). */
const MAX_PRESIZE = 2 ** 31;

/**
 * Makes room for the entries (`entriesSize` bytes) and the bodies as `bodySize` sizes them, and a
 * little more. Only a hint: a size that is not a number, or a hint that throws, presizes nothing
 * (the body's codec says what is wrong with it when it is written).
 */
function presizeFor<B>(w: Writer, entriesSize: number, bodies: B[], bodySize: (body: B) => number): void {
  let total = entriesSize;
  try {
    for (let i = 0; i < bodies.length; i++) total += bodySize(bodies[i]!);
  } catch {
    return;
  }
  if (Number.isSafeInteger(total) && total > 0 && total <= MAX_PRESIZE) w.presize(total + ROOM_AFTER);
}

/** What user code (`body`, `join`) threw while reading element `i`, as a DecodeError there. */
function asDecodeError(r: Reader, i: number, error: unknown, prefix: string, at: number): DecodeError {
  if (error instanceof DecodeError) return error;
  return r.errorAt(i, `${prefix}${reason(error)}`, at);
}

/** What user code (`split`, `body`) threw while writing an element, as an EncodeError at it. */
function asEncodeError(w: Writer, error: unknown): EncodeError {
  if (error instanceof EncodeError) return error;
  return w.error(reason(error));
}

/** Writes a place field over its placeholder; a value it refuses is an EncodeError at the field. */
function patchField(
  w: Writer,
  key: string,
  write: (w: Writer, at: number, value: number) => void,
  at: number,
  value: number,
): void {
  try {
    write(w, at, value);
  } catch (error) {
    throw w.errorAt(key, 'out-of-range', `${reason(error)} (the bodies are too large for the directory's offsets)`, at);
  }
}
