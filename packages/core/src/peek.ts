/**
 * Look-ahead: read a value without consuming it (`peek`), and choose a codec by bytes not yet
 * consumed (`lookahead`) — a four-letter marker the chosen codec reads again, a magic that also fixes
 * the byte order.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';
import { ReadState, Reader } from './reader.js';
import { resolveDecodeOptions } from './options.js';
import { taggedUnion, type OtherTag, type Tagged } from './union.js';

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

/** Options of {@link lookahead}. */
export interface LookaheadOptions<O> {
  /**
   * The codec for a selector no case claims, reading from the same place as the cases do (the
   * selector's bytes included) — `bytes(rest)` or a raw chunk, so unknown data is kept. Without it an
   * unknown selector is a DecodeError listing the known ones.
   */
  readonly otherwise: Codec<O>;
}

/** A reader over bytes just written, to check them: default options, no budget worth speaking of. */
function rereader(bytes: Uint8Array, start: number, end: number): Reader {
  return new Reader(bytes, new ReadState(resolveDecodeOptions(undefined)), start, end);
}

/**
 * Chooses a codec by bytes not yet consumed: `selector` is peeked (read without consuming), its
 * value picks a case, and the case reads from the same place — the selector's bytes included, so a
 * chunk reads its own marker. The value is a tagged value as for {@link taggedUnion}: `{ tag, value }`
 * with the peeked selector as the tag (and `otherwise` keeps unknown data as `{ tag, value }` too).
 *
 * On write the tag picks the case and the case writes the bytes; then the selector is read back
 * from what was written, and an EncodeError says so if it does not give the tag back (a value moved
 * to another case without its marker), since such bytes would decode as another case.
 *
 * @example
 * ```ts
 * const entry = lookahead(fourcc(), {
 *   RIFF: struct({ id: magic('RIFF'), size: u32le }),
 *   LIST: struct({ id: magic('LIST'), count: u16le }),
 * }, { otherwise: bytes('rest') });
 * // bytes "LIST" 02 00 → { tag: 'LIST', value: { id: 'LIST', count: 2 } }
 * ```
 */
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>>(
  selector: Codec<T>,
  cases: V,
): Codec<Tagged<V>>;
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  selector: Codec<T>,
  cases: V,
  options: LookaheadOptions<O>,
): Codec<Tagged<V> | OtherTag<T, O>>;
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  selector: Codec<T>,
  cases: V,
  options?: LookaheadOptions<O>,
): Codec<any> {
  const inner =
    options === undefined ? taggedUnion(peek(selector), cases) : taggedUnion(peek(selector), cases, options);
  const name = `lookahead(${selector.name})`;
  // Every case reads the selector's bytes again, so a value takes at least the smallest case.
  const smallest = Math.min(
    ...Object.values<Codec<any>>(cases).map((c) => c.minSize),
    options?.otherwise.minSize ?? Number.POSITIVE_INFINITY,
  );
  const minSize = Math.max(selector.minSize, Number.isFinite(smallest) ? smallest : 0);
  return defineCodec<any>({
    name,
    // Tools see what it is: a tagged union whose tag is peeked.
    def: inner.def,
    json: inner.json,
    minSize,
    children: inner.children,
    read(r) {
      return inner.read(r);
    },
    write(w, value) {
      const start = w.length;
      inner.write(w, value);
      let found: T;
      try {
        found = selector.read(rereader(w.buf, start, w.length));
      } catch (error) {
        throw w.error(
          `the bytes written for tag ${JSON.stringify(value.tag)} do not start with a ${selector.name}: ${error instanceof Error ? error.message : String(error)}`,
          start,
        );
      }
      if (found !== value.tag)
        throw w.error(
          `the bytes written for tag ${JSON.stringify(value.tag)} start with ${JSON.stringify(found)}: they would decode as another case`,
          start,
        );
    },
  });
}
