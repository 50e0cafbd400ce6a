/**
 * Values that may be absent: `optional` (present while the window has bytes left), `maybe` (present
 * when a condition on earlier fields holds) and `nothing`.
 *
 * @module
 */
import { defineExactCodec } from './exact.js';
import * as t from 'io-ts';
import type { Codec } from './codec.js';

/** A field that takes no bytes and is always `undefined`. */
export const nothing: Codec<undefined> = defineExactCodec<undefined>({
  name: 'nothing',
  def: { type: 'nothing' },
  json: t.undefined,
  size: 0,
  read() {
    return undefined;
  },
  write(w, value) {
    if (value !== undefined) throw w.error('wrong-type', 'expected no value here');
  },
});

function orUndefined<A>(codec: Codec<A>): t.Type<A | undefined, unknown, unknown> {
  return t.union([codec.json, t.undefined]) as unknown as t.Type<A | undefined, unknown, unknown>;
}

/**
 * A value that is there when the window still has bytes, and `undefined` at its end. Only sound as the
 * last thing in a window (a chunk body, a sized field, the file), where "no bytes left" is unambiguous.
 * A present value must write at least one byte (it would read back as `undefined` otherwise): so
 * `optional(bytes('rest'))` — bytes a window holds after its fields, usually none — refuses empty bytes
 * on encode ("leave the value out when there is none").
 *
 * @example
 * ```ts
 * const star = struct({ x: i16le, y: i16le, rest: optional(bytes('rest')) });
 * // bytes 01 00 02 00 → { x: 1, y: 2, rest: undefined }; 01 00 02 00 ff → rest: Uint8Array [ff]
 * ```
 */
export function optional<A>(codec: Codec<A>): Codec<A | undefined> {
  return defineExactCodec<A | undefined>({
    name: `optional(${codec.name})`,
    def: { type: 'optional', codec },
    json: orUndefined(codec),
    minSize: 0,
    children: [{ key: 'value', codec }],
    read(r) {
      return r.pos < r.end ? codec.read(r) : undefined;
    },
    write(w, value) {
      if (value === undefined) return;
      const start = w.length;
      codec.write(w, value);
      if (w.length === start)
        throw w.error(
          `a present ${codec.name} must take at least one byte (none read back as undefined): leave it out when there is none`,
          start,
        );
    },
  });
}

/**
 * `codec` when `present` is true, else {@link nothing}. Use it in a dependent struct field:
 * `extra: (p) => maybe(p.version >= 2, u32le)`.
 */
export function maybe<A>(present: boolean, codec: Codec<A>): Codec<A | undefined> {
  return present ? (codec as Codec<A | undefined>) : (nothing as unknown as Codec<A | undefined>);
}
