/**
 * Byte layers under a codec: the codec's bytes pass through one or more pure `Uint8Array → Uint8Array`
 * pairs (XOR with a key, a compressor, anything a format needs) on their way to and from the file.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';

/** Limits a layer must respect while decoding. */
export interface LayerLimits {
  /** The most bytes the layer may produce; past it, throw (a decompression bomb stops here). */
  readonly maxOutput: number;
}

/** A reversible byte layer. `decode(encode(x))` must equal `x`. */
export interface ByteLayer {
  /** A short name; it appears in error paths as `<name>`. */
  readonly name: string;
  /** File bytes to inner bytes. May throw; the error becomes a DecodeError at the layer's offset. */
  decode(bytes: Uint8Array, limits: LayerLimits): Uint8Array;
  /** Inner bytes to file bytes. */
  encode(bytes: Uint8Array): Uint8Array;
}

/** Makes a {@link ByteLayer} from a name and two functions. */
export function layer(
  name: string,
  decode: (bytes: Uint8Array, limits: LayerLimits) => Uint8Array,
  encode: (bytes: Uint8Array) => Uint8Array,
): ByteLayer {
  return { name, decode, encode };
}

/**
 * XOR with a repeating key that restarts at the start of the data (EDGE's `"EDGE!"`). The key is bytes
 * or a Latin-1 string.
 */
export function xor(key: Uint8Array | string): ByteLayer {
  const k = typeof key === 'string' ? Uint8Array.from(key, (ch) => ch.charCodeAt(0) & 0xff) : key.slice();
  if (k.length === 0) throw new RangeError('xor: the key must not be empty');
  const apply = (bytes: Uint8Array) => {
    const out = new Uint8Array(bytes.length);
    for (let i = 0, j = 0; i < bytes.length; i++) {
      out[i] = bytes[i] ^ k[j];
      if (++j === k.length) j = 0;
    }
    return out;
  };
  return layer(`xor`, (bytes) => apply(bytes), apply);
}

/** A compressor pair, as a layer. `decompress` receives the output limit and must not exceed it. */
export interface Compressor {
  readonly name: string;
  compress(bytes: Uint8Array): Uint8Array;
  decompress(bytes: Uint8Array, maxOutput: number): Uint8Array;
}

/** A compressor as a {@link ByteLayer}. */
export function compression(compressor: Compressor): ByteLayer {
  return layer(
    compressor.name,
    (bytes, limits) => compressor.decompress(bytes, limits.maxOutput),
    (bytes) => compressor.compress(bytes),
  );
}

/**
 * `codec` under byte layers. The transformed codec takes the rest of its window (wrap it in `sized` or
 * use it as a chunk body), runs `layers` in the order given — the first is nearest the file — and
 * decodes `codec` from the result, which it must use whole. Errors inside name the layer in the path,
 * and their offset is in the layer's output.
 *
 * @example
 * ```ts
 * const body = transform(chunkList(nested, known), lzoLayer, xor('EDGE!'));
 * ```
 */
export function transform<A>(codec: Codec<A>, ...layers: [ByteLayer, ...ByteLayer[]]): Codec<A> {
  const names = layers.map((l) => l.name);
  return defineCodec<A>({
    name: `transform(${codec.name}, ${names.join(' > ')})`,
    kind: 'transform',
    json: codec.json,
    minSize: 0,
    meta: { layers: names },
    children: [{ key: `<${names.join('>')}>`, codec }],
    read(r) {
      const limits: LayerLimits = { maxOutput: r.state.options.maxTransformOutput };
      let at = r.pos;
      let data = r.borrow(r.remaining);
      let reader = r;
      const { path } = r.state;
      const depth = path.length;
      for (const l of layers) {
        let out: Uint8Array;
        try {
          out = l.decode(data, limits);
        } catch (error) {
          throw reader.error(`${l.name}: ${error instanceof Error ? error.message : String(error)}`, at);
        }
        if (!(out instanceof Uint8Array)) throw reader.error(`${l.name}: layer returned no bytes`, at);
        if (out.length > limits.maxOutput) throw reader.error(`${l.name}: output of ${out.length} bytes is over the limit of ${limits.maxOutput}`, at);
        path.push(`<${l.name}>`);
        reader = reader.layerReader(out);
        data = out;
        at = 0;
      }
      const value = codec.read(reader);
      if (reader.pos < reader.end) throw reader.error(`${reader.end - reader.pos} bytes left unread after the transformed value`);
      path.length = depth;
      return value;
    },
    write(w, value) {
      const inner = w.sub(256);
      const { path } = w.state;
      const depth = path.length;
      for (const l of layers) path.push(`<${l.name}>`);
      codec.write(inner, value);
      let data = inner.written();
      for (let i = layers.length - 1; i >= 0; i--) {
        const l = layers[i];
        try {
          data = l.encode(data);
        } catch (error) {
          throw w.error(`${l.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
        path.pop();
      }
      path.length = depth;
      w.append(data);
    },
  });
}
