/**
 * Raw bytes read as views into the decoded buffer instead of copies, for formats whose large
 * payloads would otherwise be held twice (as @bufbuild/protobuf reads `bytes` fields).
 *
 * @module
 */
import { bytes } from './bytes.js';
import { defineCodec, type Codec } from './codec.js';
import { readCount, type CountSpec } from './size.js';

/**
 * Like {@link bytes} — a fixed size, a length prefix, or the rest of the window — but the value is a
 * view into the decoded buffer, not a copy: nothing is allocated per value, and a large save is not
 * held twice. Editing a view in place edits the input too, so copy the input first if it must stay
 * unchanged; replacing the value never does. Writes, JSON and laws are those of {@link bytes}.
 *
 * @example
 * ```ts
 * const segment = borrowedBytes(u32be);
 * const input = Uint8Array.of(0, 0, 0, 2, 0xab, 0xcd);
 * const value = decodeOrThrow(segment, input); // Uint8Array [0xab, 0xcd]
 * value.buffer === input.buffer; // true
 * ```
 */
export function borrowedBytes(count: CountSpec): Codec<Uint8Array> {
  const copied = bytes(count);
  return defineCodec<Uint8Array>({
    name: `borrowedBytes(${copied.name.slice('bytes('.length, -1)})`,
    // The same definition as `bytes`: the same values and bytes, only not copied.
    def: copied.def,
    json: copied.json,
    size: copied.size,
    minSize: copied.minSize,
    children: copied.children,
    read(r) {
      const at = r.pos;
      const n = readCount(r, count) ?? r.remaining;
      if (n > r.remaining) throw r.error(`length ${n} is more than the ${r.remaining} bytes left`, at);
      return r.borrow(n);
    },
    write: copied.write,
  });
}
