/**
 * Constants in the byte stream: `magic` for byte signatures, `literal` for a value of any codec that
 * must be one of a few allowed values.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import * as t from 'io-ts';
import { readThroughFixed, wrapping, type Codec } from './codec.js';
import type { Reader } from './reader.js';

/** The bytes of a signature written as a string of byte values (each character one byte). */
export function latin1Bytes(text: string, what = 'magic'): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`${what}: character ${JSON.stringify(text[i])} is not a byte`);
    out[i] = c;
  }
  return out;
}

/** Bytes as a quoted string for messages: printable ASCII as itself, anything else as `\\xNN`. */
export function showBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes)
    out +=
      b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c
        ? String.fromCharCode(b)
        : `\\x${b.toString(16).padStart(2, '0')}`;
  return `"${out}"`;
}

function literalJson<V extends string | number | boolean>(values: ReadonlyArray<V>): t.Type<V, unknown, unknown> {
  const types = values.map((v) => t.literal(v));
  return (types.length === 1
    ? types[0]
    : t.union(types as unknown as [t.Mixed, t.Mixed, ...t.Mixed[]])) as unknown as t.Type<V, unknown, unknown>;
}

/** A value for a message: as JSON where it has a JSON form, else as text (a bigint, a symbol). */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A byte signature given as a string of byte values (each character one byte, `\x1A` style escapes
 * for binary). With several alternatives any of them is accepted and the value says which was found.
 *
 * @example
 * ```ts
 * const signature = magic('EdgeSave');
 * const separator = magic('\x1A\r\n\0', '\r\n\x1A\0'); // the engine's order and the design doc's
 * ```
 */
export function magic<const S extends readonly [string, ...string[]]>(...alternatives: S): Codec<S[number]> {
  const encoded = alternatives.map((a) => latin1Bytes(a));
  const size = encoded[0]!.length; // alternatives has at least one element
  if (encoded.some((e) => e.length !== size)) throw new RangeError('magic: alternatives must have the same length');
  const readFixed = (r: Reader, at: number): S[number] => {
    const bytes = r.bytes;
    for (let k = 0; k < encoded.length; k++) {
      const candidate = encoded[k]!;
      let i = 0;
      while (i < size && bytes[at + i] === candidate[i]) i++;
      if (i === size) return alternatives[k]!;
    }
    const found = bytes.subarray(at, at + size);
    throw r.error('bad-magic', `expected ${encoded.map(showBytes).join(' or ')}, found ${showBytes(found)}`, at);
  };
  return defineExactCodec<S[number]>({
    name: `magic(${alternatives.map((a) => showBytes(latin1Bytes(a))).join(' | ')})`,
    def: { type: 'magic', alternatives },
    json: literalJson(alternatives),
    size,
    read: readThroughFixed(size, readFixed),
    readFixed,
    write(w, value) {
      const k = alternatives.indexOf(value);
      if (k < 0)
        throw w.error(
          'bad-magic',
          `expected ${alternatives.map((a) => JSON.stringify(a)).join(' or ')}, got ${shown(value)}`,
        );
      w.append(encoded[k]!);
    },
    // In place, for structs written at precomputed offsets (the caller made room); a value of no
    // alternative throws and the caller redoes the write with `write`, which names it.
    writeFixed(w, at, value) {
      const k = alternatives.indexOf(value);
      if (k < 0) throw new RangeError('not a magic alternative');
      // A marker is a few bytes (EDGE's string marker one, per string): a loop beats a `set` call.
      const bytes = encoded[k]!;
      const buf = w.buf;
      for (let i = 0; i < bytes.length; i++) buf[at + i] = bytes[i]!;
    },
  });
}

/**
 * A value of `codec` that must be one of `values` (a version number the reader supports, a type tag).
 * Anything else is a DecodeError naming what was found.
 */
export function literal<const V extends string | number | boolean>(
  codec: Codec<string> | Codec<number> | Codec<boolean>,
  ...values: readonly [V, ...V[]]
): Codec<V> {
  return defineExactCodec<V>({
    name: `literal(${codec.name}: ${values.map((v) => JSON.stringify(v)).join(' | ')})`,
    def: { type: 'literal', codec, values },
    json: literalJson(values),
    ...wrapping(codec, 'value'),
    read(r) {
      const at = r.pos;
      const value = (codec as Codec<unknown>).read(r) as V;
      if (!values.includes(value)) {
        throw r.error(
          'bad-magic',
          `expected ${values.map((v) => JSON.stringify(v)).join(' or ')}, found ${JSON.stringify(value)}`,
          at,
        );
      }
      return value;
    },
    write(w, value) {
      if (!values.includes(value)) {
        throw w.error(
          'bad-magic',
          `expected ${values.map((v) => JSON.stringify(v)).join(' or ')}, got ${shown(value)}`,
        );
      }
      (codec as unknown as Codec<V>).write(w, value);
    },
  });
}
