/**
 * Padding and alignment. Padding is usually a run of one fill byte; when the bytes in a file are
 * something else (C structs often keep stale memory there) they are kept, so nothing is lost.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { jsonBytes } from './json.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** Padding's value: `undefined` when every byte is the fill byte, else the bytes as found. */
export type Padding = Uint8Array | undefined;

const paddingJson = t.union([jsonBytes(), t.undefined]) as unknown as t.Type<Padding, unknown, unknown>;

function readPad(r: Reader, count: number, fill: number): Padding {
  const at = r.pos;
  r.need(count);
  const bytes = r.bytes;
  for (let i = at; i < at + count; i++) {
    if (bytes[i] !== fill) return r.take(count);
  }
  r.pos = at + count;
  return undefined;
}

function writePad(w: Writer, count: number, fill: number, value: Padding): void {
  if (value === undefined) {
    w.fill(count, fill);
    return;
  }
  if (!(value instanceof Uint8Array) || value.length !== count) {
    throw w.error(
      'size-mismatch',
      `kept padding must be ${count} bytes, got ${value instanceof Uint8Array ? value.length : typeof value}`,
    );
  }
  w.append(value);
}

/** `count` bytes of padding, normally `fill` (default 0). */
export function padding(count: number, fill = 0): Codec<Padding> {
  return defineExactCodec<Padding>({
    name: `padding(${count})`,
    def: { type: 'padding', to: 'count', count, fill },
    json: paddingJson,
    size: count,
    read: (r) => readPad(r, count, fill),
    write: (w, value) => writePad(w, count, fill, value),
  });
}

/**
 * Padding up to the next multiple of `boundary`, counted from the start of the current window (the
 * file, a chunk body, a sized field).
 */
export function align(boundary: number, fill = 0): Codec<Padding> {
  if (!Number.isInteger(boundary) || boundary < 1)
    throw new RangeError(`align: boundary must be a positive integer, got ${boundary}`);
  return defineCodec<Padding>({
    name: `align(${boundary})`,
    def: { type: 'padding', to: 'boundary', boundary, fill },
    json: paddingJson,
    minSize: 0,
    read: (r) => readPad(r, (boundary - ((r.pos - r.start) % boundary)) % boundary, fill),
    write: (w, value) => writePad(w, (boundary - ((w.length - w.origin) % boundary)) % boundary, fill, value),
  });
}
