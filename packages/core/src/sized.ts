/**
 * A codec inside a window of known size: a fixed byte count or a length prefix. The inner codec must
 * use the whole window, so nothing in it goes unread.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { checkFixedCount, countName } from './size.js';
import type { Writer } from './writer.js';

/** Writes `value` with a fixed-size codec into `slot`, a range reserved earlier in `w`. */
export function patch<A>(w: Writer, slot: number, codec: Codec<A>, value: A): void {
  const saved = w.length;
  w.length = slot;
  codec.write(w, value);
  if (w.length - slot !== codec.size)
    throw w.error('size-mismatch', `patched ${w.length - slot} bytes into a ${codec.size}-byte slot`);
  w.length = saved;
}

/**
 * `codec` read from a window of `size` bytes: `sized(64, header)` or `sized(u32le, body)` (a length
 * prefix, then the body). Bytes the codec leaves unread are a DecodeError; on write the length prefix
 * is filled in after the body.
 */
export function sized<A>(size: number | Codec<number>, codec: Codec<A>): Codec<A> {
  checkFixedCount(size, 'sized');
  const fixed = typeof size === 'number' ? size : undefined;
  return defineCodec<A>({
    name: `sized(${countName(size)}, ${codec.name})`,
    def: {
      type: 'sized',
      size: typeof size === 'number' ? { type: 'fixed', count: size } : { type: 'prefix', codec: size },
      body: codec,
    },
    json: codec.json,
    size: fixed !== undefined ? fixed : undefined,
    minSize: fixed ?? (size as Codec<number>).minSize,
    children: [...(typeof size === 'object' ? [{ key: 'length', codec: size }] : []), { key: 'body', codec }],
    read(r) {
      const at = r.pos;
      const n = typeof size === 'number' ? size : size.read(r);
      if (n > r.remaining) throw r.error('short-read', `length ${n} is more than the ${r.remaining} bytes left`, at);
      const window = r.window(n);
      const value = codec.read(window);
      if (window.pos < window.end)
        throw window.error('trailing-bytes', `${window.end - window.pos} bytes left unread in a ${n}-byte field`);
      return value;
    },
    write(w, value) {
      const origin = w.origin;
      if (typeof size === 'number') {
        const start = w.length;
        w.origin = start;
        codec.write(w, value);
        w.origin = origin;
        if (w.length - start !== size)
          throw w.error('size-mismatch', `wrote ${w.length - start} bytes into a ${size}-byte field`, start);
        return;
      }
      if (size.size !== undefined) {
        const slot = w.reserve(size.size);
        const start = w.length;
        w.origin = start;
        codec.write(w, value);
        w.origin = origin;
        patch(w, slot, size, w.length - start);
        return;
      }
      const body = w.sub();
      codec.write(body, value);
      size.write(w, body.length);
      w.append(body.written());
    },
  });
}
