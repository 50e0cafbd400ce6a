/**
 * A chunk whose marker is fixed, seen as its body: the framing (marker, length, padding) is layout,
 * not part of the value — for a file's mandatory first chunk, whose fields a document shows directly.
 *
 * @module
 */
import { Framer, type ChunkFraming } from './chunk.js';
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';
import { pathAnnotation } from './errors.js';

/** The marker is framing: on paths it is the annotation `<marker>`, as the length is `<length>`. */
const MARKER = pathAnnotation('marker');

/**
 * One chunk of a known marker, whose value is its body: `chunk(framing, marker, body)` without the
 * `{ id, body }` around it. The body is read and written at the chunk's own path (`summary.sis.logX`,
 * not `summary.body.sis.logX`); the marker and the length show on paths as the annotations `<marker>`
 * and `<length>`. A different marker is a DecodeError (`bad-magic`) and the length is computed on
 * write. With `uncounted`, the body's first bytes are outside the length (a header the length forgets).
 *
 * Padding must be zero bytes: the value has no place to keep other ones (use `chunk` for those), so
 * non-zero padding is a DecodeError and every accepted file is written back as it was.
 *
 * @example
 * ```ts
 * const summary = chunkBody({ marker: fourcc(), length: u32le }, 'Summ', struct({ day: u8, name: cstring('ascii') }));
 * // bytes "Summ" 03 00 00 00 07 41 00 → { day: 7, name: 'A' }
 * ```
 */
export function chunkBody<A>(framing: ChunkFraming, marker: string, body: Codec<A>): Codec<A> {
  const framer = new Framer(framing);
  return defineCodec<A>({
    name: `chunkBody(${marker})`,
    // Its values are the body's: tools derive them from it.
    def: customDef<A>('chunkBody', { params: { framing, marker }, model: body }),
    json: body.json,
    minSize: framing.marker.minSize + framing.length.minSize + body.minSize,
    children: [{ key: marker, codec: body }],
    read(r) {
      const at = r.pos;
      r.descend();
      const framed = framer.open(r, MARKER);
      if (framed.id !== marker)
        throw r.error('bad-magic', `expected chunk ${JSON.stringify(marker)}, found ${JSON.stringify(framed.id)}`, at);
      const bodyStart = framed.body.pos;
      const value = body.read(framed.body);
      const padAt = framed.body.pos;
      if (framer.close(r, framed, bodyStart) !== undefined)
        throw r.error(
          'invalid-value',
          `chunk ${marker}: its padding is not zero bytes, which its value cannot keep`,
          padAt,
        );
      r.ascend();
      return value;
    },
    write(w, value) {
      w.descend();
      framer.write(w, marker, undefined, (into) => body.write(into, value), MARKER);
      w.ascend();
    },
  });
}
