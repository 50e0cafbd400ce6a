/**
 * Raw bytes: a fixed size, a length prefix, or the rest of the window. Values are copies; in JSON
 * they are hex strings.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import type { Codec } from './codec.js';
import { countDef } from './def.js';
import { jsonBytes } from './json.js';
import { checkFixedCount, countName, readCount, writeCount, type CountSpec } from './size.js';

/**
 * Raw bytes. `bytes(16)`: exactly 16; `bytes(u32le)`: a u32 length, then that many; `bytes('rest')`:
 * everything left in the window. A length larger than what is left fails before anything is allocated.
 */
export function bytes(count: CountSpec): Codec<Uint8Array> {
  checkFixedCount(count, 'bytes');
  const fixed = typeof count === 'number' ? count : undefined;
  return defineExactCodec<Uint8Array>({
    name: `bytes(${countName(count)})`,
    def: { type: 'bytes', count: countDef(count) },
    json: jsonBytes(fixed),
    size: fixed,
    minSize: fixed ?? (typeof count === 'object' ? count.minSize : 0),
    children: typeof count === 'object' ? [{ key: 'length', codec: count }] : [],
    read(r) {
      const at = r.pos;
      const n = readCount(r, count) ?? r.remaining;
      if (n > r.remaining) throw r.error('short-read', `length ${n} is more than the ${r.remaining} bytes left`, at);
      return r.take(n);
    },
    write(w, value) {
      if (!(value instanceof Uint8Array)) throw w.error('wrong-type', `expected a Uint8Array, got ${typeof value}`);
      writeCount(w, count, value.length, 'bytes');
      w.append(value);
    },
  });
}

/**
 * Whether two byte arrays hold the same bytes (true at once for the same view). A plain loop: an
 * `every()` callback per byte costs ten times as much on a large save.
 *
 * @example
 * ```ts
 * import { bytesEqual } from '@savekit/core';
 * bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2)); // true
 * ```
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (a.buffer === b.buffer && a.byteOffset === b.byteOffset) return true;
  let i = 0;
  // Long arrays both 4-byte aligned (a fresh buffer, a decoded stream) compare a word at a time: a
  // re-encoded save's check against its kept stream is tens of MB.
  if (a.length >= 64 && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (let k = 0; k < words; k++) if (wa[k] !== wb[k]) return false;
    i = words << 2;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The bytes of `parts` one after another, in a new array (the one part itself when there is one).
 *
 * @example
 * ```ts
 * import { concatBytes } from '@savekit/core';
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: ReadonlyArray<Uint8Array>): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
