/**
 * A region that runs up to a fixed-size trailer: the body of a file whose last bytes are a footer
 * (a TEVd 2017 disk's `FE FE FE FE … FF 19`), read in a window that stops where the trailer begins,
 * so `array(entry, 'rest')` inside it does not run into the footer.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';

/**
 * `codec` read in a window that ends `trailer` bytes before the end of the current window (the
 * fields after it read those bytes), which the body must use up (else a `trailing-bytes` DecodeError);
 * written as `codec` writes it. Its values and laws are `codec`'s
 * — followed by a field of exactly `trailer` bytes it round-trips byte for byte. Fewer than `trailer`
 * bytes left is a `short-read` DecodeError.
 *
 * @example
 * ```ts
 * // Entries until the 6-byte footer, then the footer.
 * const file = struct({ entries: beforeTrailer(6, array(u16le, 'rest')), footer: bytes(6) });
 * ```
 */
export function beforeTrailer<A>(trailer: number, codec: Codec<A>): Codec<A> {
  if (!Number.isSafeInteger(trailer) || trailer < 0)
    throw new RangeError(`beforeTrailer: a trailer size must be a non-negative integer, got ${trailer}`);
  return defineCodec<A>({
    name: `beforeTrailer(${trailer}, ${codec.name})`,
    def: customDef('beforeTrailer', { params: { trailer }, model: codec }),
    json: codec.json,
    minSize: codec.minSize,
    children: [{ key: 'value', codec }],
    read(r) {
      if (r.remaining < trailer)
        throw r.error('short-read', `${r.remaining} bytes left; a ${trailer}-byte trailer follows`);
      const window = r.window(r.remaining - trailer);
      const value = codec.read(window);
      // Bytes the body left would be lost on write.
      if (window.pos < window.end)
        throw window.error(
          'trailing-bytes',
          `${window.end - window.pos} bytes left unread before the ${trailer}-byte trailer`,
        );
      return value;
    },
    write(w, value) {
      codec.write(w, value);
    },
  });
}
