/**
 * Look-ahead: read a value without consuming it. Choosing a codec by such a value is `switchOn` and
 * `lookahead` (switch-on.ts).
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';

/**
 * Reads a value of `codec` without consuming its bytes, and writes nothing: the bytes belong to the
 * fields after it, which read them again and write them. The value is what those bytes say, so it
 * must agree with what the following fields write (`lookahead` checks that for you).
 *
 * Failing to peek (too few bytes, a value the codec refuses) is a DecodeError as for a read.
 * Warnings and spans of the peeked read are kept.
 *
 * @example
 * ```ts
 * const entry = struct({ kind: peek(u8), header: bytes(4) }); // kind is the first header byte
 * ```
 */
export function peek<A>(codec: Codec<A>): Codec<A> {
  return defineCodec<A>({
    name: `peek(${codec.name})`,
    def: customDef('peek', { params: { codec }, model: codec }),
    json: codec.json,
    size: 0,
    minSize: 0,
    children: [{ key: 'value', codec }],
    read(r) {
      const at = r.pos;
      const value = codec.read(r);
      r.pos = at;
      return value;
    },
    write() {
      // The bytes are written by the fields that consume them.
    },
  });
}
