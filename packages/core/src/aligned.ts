/**
 * A value padded to a multiple of a boundary (construct's `Aligned`): the padding follows the value
 * and is counted from the value's own start, so the value lines up wherever it is placed.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';

/**
 * `codec`, then `fill` bytes (default 0) until the value and its padding take a multiple of
 * `boundary` bytes. The value is `codec`'s; the padding is not kept, so bytes other than `fill`
 * there are a DecodeError at the first of them (use `align` to keep such bytes instead). No path
 * segment is added: errors inside name the value's own path.
 *
 * @example
 * ```ts
 * // A u32 length, the bytes, then zeros to a multiple of 4 (the segment of a ZSAV body).
 * const segment = aligned(4, bytes(u32be));
 * encode(segment, Uint8Array.of(7)); // 00 00 00 01 07 00 00 00
 * ```
 */
export function aligned<A>(boundary: number, codec: Codec<A>, fill = 0): Codec<A> {
  if (!Number.isInteger(boundary) || boundary < 1)
    throw new RangeError(`aligned: boundary must be a positive integer, got ${boundary}`);
  if (!Number.isInteger(fill) || fill < 0 || fill > 255)
    throw new RangeError(`aligned: fill must be a byte (0–255), got ${fill}`);
  const padOf = (length: number) => (boundary - (length % boundary)) % boundary;
  const size = codec.size === undefined ? undefined : codec.size + padOf(codec.size);
  return defineCodec<A>({
    name: `aligned(${boundary}, ${codec.name})`,
    // Values are the inner codec's: tools derive them from it (the padding is not part of the value).
    def: customDef('aligned', { params: { boundary, fill }, model: codec }),
    json: codec.json,
    size,
    // Whatever the value takes, with its padding it is a multiple of `boundary` at least minSize.
    minSize: codec.minSize + padOf(codec.minSize),
    children: [{ key: 'value', codec }],
    read(r) {
      const start = r.pos;
      const value = codec.read(r);
      const count = padOf(r.pos - start);
      if (count > r.remaining) throw r.error(`expected ${count} bytes of padding, ${r.remaining} left`);
      const bytes = r.bytes;
      for (let at = r.pos; at < r.pos + count; at++)
        if (bytes[at] !== fill)
          throw r.error(
            `padding byte 0x${bytes[at]!.toString(16).padStart(2, '0')}, expected 0x${fill.toString(16).padStart(2, '0')}`,
            at,
          );
      r.pos += count;
      return value;
    },
    write(w, value) {
      const start = w.length;
      codec.write(w, value);
      w.fill(padOf(w.length - start), fill);
    },
  });
}
