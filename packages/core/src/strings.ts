/**
 * Strings: NUL-terminated (`cstring`), length-prefixed (`pstring`) and fixed-size (`fixedString`), in
 * UTF-8, ASCII or cp437. Nothing is substituted: bytes an encoding does not allow are a DecodeError,
 * characters it cannot hold an EncodeError.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import * as t from 'io-ts';
import type { Codec } from './codec.js';
import { TextCodingError, textEncoding, type EncodingName, type TextEncoding } from './encodings.js';
import { jsonBytes } from './json.js';
import type { Reader } from './reader.js';
import { SharedText, type ShareOptions } from './shared-text.js';
import type { Writer } from './writer.js';

function textJson(encoding: TextEncoding): t.Type<string, string, unknown> {
  return new t.Type<string, string, unknown>(
    `string(${encoding.name})`,
    (u): u is string => typeof u === 'string' && encoding.canEncode(u),
    (u, c) =>
      typeof u !== 'string'
        ? t.failure(u, c, 'expected a string')
        : encoding.canEncode(u)
          ? t.success(u)
          : t.failure(u, c, `string has characters ${encoding.name} cannot hold`),
    (a) => a,
  );
}

/** Decodes `count` bytes at the reader's position as text, reporting a bad byte at its own offset. */
function readText(r: Reader, encoding: TextEncoding, count: number): string {
  const start = r.pos;
  const bytes = r.borrow(count);
  try {
    return encoding.decode(bytes);
  } catch (error) {
    if (error instanceof TextCodingError) throw r.error('invalid-text', error.message, start + error.index);
    throw error;
  }
}

/** {@link readText} through a table of shared texts, when there is one. */
function readShared(r: Reader, encoding: TextEncoding, count: number, shared: SharedText | undefined): string {
  if (shared === undefined || !(count >= 0)) return readText(r, encoding, count);
  const start = r.pos;
  const end = start + count;
  // The caller checked the bytes are there.
  const kept = shared.find(r.bytes, start, end);
  if (kept !== undefined) {
    r.pos = end;
    return kept;
  }
  const text = readText(r, encoding, count);
  shared.keep(r.bytes, start, end, text);
  return text;
}

/** {@link encodeText} through a table of shared texts, when there is one. */
function encodeShared(w: Writer, encoding: TextEncoding, text: string, shared: SharedText | undefined): Uint8Array {
  if (shared === undefined || typeof text !== 'string') return encodeText(w, encoding, text);
  const kept = shared.bytesOf(text);
  if (kept !== undefined) return kept;
  const bytes = encodeText(w, encoding, text);
  shared.keepBytes(text, bytes);
  return bytes;
}

/** Appends `bytes`; a short text byte by byte (cheaper than a `set` call). */
function appendText(w: Writer, bytes: Uint8Array): void {
  const n = bytes.length;
  if (n > 16) {
    w.append(bytes);
    return;
  }
  const at = w.ensure(n);
  const buf = w.buf;
  for (let i = 0; i < n; i++) buf[at + i] = bytes[i]!;
  w.length = at + n;
}

/** Options of {@link pstring} and {@link cstring}. */
export interface TextOptions {
  /**
   * Share short texts: a text already decoded by this codec is found again from its bytes (a hash
   * and a compare; no new string, no view of the bytes), and one already encoded from its string.
   * For the short names a save repeats in every record; a decoded document then holds each once.
   * `true` takes the defaults (up to 4096 texts of up to 32 bytes). The table is bounded and kept by
   * the codec across decodes; values and errors are the same as without it.
   */
  readonly share?: boolean | ShareOptions;
}

/** Text codecs made with `share`: the compiler leaves them to their own read and write (see compile.ts). */
const SHARING = new WeakSet<object>();

/** Whether `codec` is a text codec made with `share` (its table lives in its own read and write). @internal */
export function sharesText(codec: object): boolean {
  return SHARING.has(codec);
}

/** `codec`, recorded as sharing texts when `shared` is set. */
function marked(codec: Codec<string>, shared: SharedText | undefined): Codec<string> {
  if (shared !== undefined) SHARING.add(codec);
  return codec;
}

function sharedOf(options: TextOptions | undefined): SharedText | undefined {
  const share = options?.share;
  if (share === undefined || share === false) return undefined;
  return new SharedText(share === true ? {} : share);
}

function encodeText(w: Writer, encoding: TextEncoding, text: string): Uint8Array {
  if (typeof text !== 'string') throw w.error('wrong-type', `expected a string, got ${typeof text}`);
  try {
    return encoding.encode(text);
  } catch (error) {
    if (error instanceof TextCodingError) throw w.error('invalid-text', `${error.message} (character ${error.index})`);
    throw error;
  }
}

/**
 * A NUL-terminated string. The text may not contain NUL; decoding fails if no NUL ends it within the
 * window.
 */
export function cstring(encoding: EncodingName = 'utf8', options?: TextOptions): Codec<string> {
  const enc = textEncoding(encoding);
  const shared = sharedOf(options);
  const codec = defineExactCodec<string>({
    name: `cstring(${encoding})`,
    def: { type: 'string', encoding, termination: { type: 'nul' } },
    json: textJson(enc),
    minSize: 1,
    read(r) {
      const nul = r.bytes.indexOf(0, r.pos);
      if (nul < 0 || nul >= r.end) throw r.error('short-read', `missing NUL terminator: ${r.remaining} bytes left`);
      const text = readShared(r, enc, nul - r.pos, shared);
      r.pos += 1;
      return text;
    },
    write(w, text) {
      const bytes = encodeShared(w, enc, text, shared);
      const nul = bytes.indexOf(0);
      if (nul >= 0) throw w.error('invalid-text', `a NUL-terminated string cannot contain NUL (byte ${nul})`);
      appendText(w, bytes);
      w.u8(0);
    },
  });
  return marked(codec, shared);
}

/**
 * A length-prefixed string: `length` counts the encoded bytes (not characters). The length is checked
 * against what is left before anything is read.
 */
export function pstring(length: Codec<number>, encoding: EncodingName = 'utf8', options?: TextOptions): Codec<string> {
  const enc = textEncoding(encoding);
  const shared = sharedOf(options);
  const codec = defineExactCodec<string>({
    name: `pstring(${length.name}, ${encoding})`,
    def: { type: 'string', encoding, termination: { type: 'prefix', length } },
    json: textJson(enc),
    minSize: length.minSize,
    children: [{ key: 'length', codec: length }],
    read(r) {
      const at = r.pos;
      const count = length.read(r);
      if (count > r.remaining)
        throw r.error('short-read', `string length ${count} is more than the ${r.remaining} bytes left`, at);
      return readShared(r, enc, count, shared);
    },
    write(w, text) {
      const bytes = encodeShared(w, enc, text, shared);
      length.write(w, bytes.length);
      appendText(w, bytes);
    },
  });
  return marked(codec, shared);
}

/** A fixed-size text whose bytes after the terminating NUL were not all zero: kept so nothing is lost. */
export interface TextWithTail {
  /** The text before the first NUL. */
  readonly text: string;
  /** Every byte from the NUL on (the NUL included). */
  readonly tail: Uint8Array;
}

/** Options of {@link fixedString}. */
export interface FixedStringOptions {
  /**
   * The padding byte. `0` (default): the text ends at the first NUL. Any other byte: trailing bytes
   * equal to it are padding, and a text may not end with that character.
   */
  readonly pad?: number;
}

/** Options of {@link fixedString} that keep garbage after the NUL. */
export interface FixedStringKeepOptions {
  /**
   * Bytes after the NUL that are not all zero (C arrays often keep old contents there): `'keep'`
   * returns a {@link TextWithTail} for such a field; the default refuses it.
   */
  readonly tail: 'keep';
}

/** A text in a field of exactly `size` bytes, padded with NULs (or another pad byte). */
export function fixedString(size: number, encoding?: EncodingName, options?: FixedStringOptions): Codec<string>;
/** A text in a field of `size` bytes whose bytes after the NUL are kept when they are not zero. */
export function fixedString(
  size: number,
  encoding: EncodingName,
  options: FixedStringKeepOptions,
): Codec<string | TextWithTail>;
export function fixedString(
  size: number,
  encoding: EncodingName = 'utf8',
  options: FixedStringOptions | FixedStringKeepOptions = {},
): Codec<string> | Codec<string | TextWithTail> {
  const enc = textEncoding(encoding);
  const keepTail = 'tail' in options && options.tail === 'keep';
  const pad = ('pad' in options ? options.pad : undefined) ?? 0;
  const text = textJson(enc);
  // Without 'keep' the codec reads and writes plain strings only (the overloads say so), so the
  // narrower JSON type stands in for the union one.
  const json = (keepTail ? t.union([text, t.type({ text, tail: jsonBytes() }, 'TextWithTail')]) : text) as t.Type<
    string | TextWithTail,
    unknown,
    unknown
  >;
  return defineExactCodec<string | TextWithTail>({
    name: `fixedString(${size}, ${encoding})`,
    def: { type: 'string', encoding, termination: { type: 'fixed', size, pad, tail: keepTail ? 'keep' : 'refuse' } },
    json,
    size,
    read(r) {
      const start = r.pos;
      r.need(size);
      const field = r.bytes.subarray(start, start + size);
      let length: number;
      if (pad === 0) {
        const nul = field.indexOf(0);
        length = nul < 0 ? size : nul;
        for (let i = length; i < size; i++) {
          if (field[i] !== 0) {
            if (!keepTail) {
              throw r.error(
                'invalid-value',
                `byte 0x${field[i]!.toString(16)} after the NUL terminator would be lost; use fixedString(${size}, '${encoding}', { tail: 'keep' })`,
                start + i,
              );
            }
            const value = readText(r, enc, length);
            r.pos = start + size;
            return { text: value, tail: field.slice(length) };
          }
        }
      } else {
        length = size;
        while (length > 0 && field[length - 1] === pad) length--;
      }
      const value = readText(r, enc, length);
      r.pos = start + size;
      return value;
    },
    write(w, value: string | TextWithTail) {
      const withTail = typeof value === 'object' && value !== null && keepTail;
      const bytes = encodeText(w, enc, withTail ? value.text : (value as string));
      const tail = withTail ? value.tail : undefined;
      if (pad === 0) {
        const nul = bytes.indexOf(0);
        if (nul >= 0) throw w.error('invalid-text', `text contains NUL (byte ${nul}), which ends a NUL-padded string`);
      } else if (bytes.length > 0 && bytes[bytes.length - 1] === pad) {
        throw w.error(
          'invalid-text',
          `text ends with the pad byte 0x${pad.toString(16)}, which would be read back as padding`,
        );
      }
      const total = bytes.length + (tail?.length ?? 0);
      if (total > size) throw w.error('size-mismatch', `text takes ${total} bytes, more than the field's ${size}`);
      if (tail !== undefined) {
        if (!(tail instanceof Uint8Array) || tail.length === 0 || tail[0] !== 0) {
          throw w.error('invalid-value', 'a kept tail must start with the NUL terminator');
        }
        if (total !== size) throw w.error('size-mismatch', `text and tail take ${total} bytes; the field has ${size}`);
      }
      w.append(bytes);
      if (tail !== undefined) w.append(tail);
      else w.fill(size - bytes.length, pad);
    },
  });
}
