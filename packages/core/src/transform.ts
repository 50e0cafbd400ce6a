/**
 * Byte layers under a codec: the codec's bytes pass through one or more pure `Uint8Array → Uint8Array`
 * pairs (XOR with a key, a compressor, anything a format needs) on their way to and from the file.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, readChild, writeChild, type Codec } from './codec.js';
import { bytesEqual } from './bytes.js';
import { jsonBytes } from './json.js';
import type { Reader } from './reader.js';
import { isOutputLimitError } from './budget.js';
import { DecodeError, pathAnnotation } from './errors.js';
import type { Writer } from './writer.js';

/** Limits a layer must respect while decoding. */
export interface LayerLimits {
  /** The most bytes the layer may produce; past it, throw (a decompression bomb stops here). */
  readonly maxOutput: number;
  /**
   * The length the innermost bytes must have, when the format stores it in front of the layered
   * bytes (see {@link TransformOptions.decodedLength}). `maxOutput` is already capped by it.
   */
  readonly expected?: number;
}

/** Options of {@link transform} and {@link transformKeeping}, given before the layers. */
export interface TransformOptions {
  /**
   * The length of the decoded (innermost) bytes is stored in front of the layered bytes, with this
   * codec (an "original size" field, like EDGE's `orig_len`). On read it caps and checks what the
   * layers produce; on write it is computed.
   */
  readonly decodedLength?: Codec<number>;
  /**
   * For {@link transformKeeping}: keep the file's bytes only when our layers would write others
   * (`'when-different'`, the default: this compresses every value once more while decoding), or
   * always (`'always'`: decoding does no extra work; an unchanged value is still written back from
   * them, a changed one encoded afresh). Formats whose files come from other compressor builds
   * (nearly always different) want `'always'`.
   */
  readonly keep?: 'when-different' | 'always';
}

/** The layers of a transform, optionally preceded by its {@link TransformOptions}. */
export type LayerArgs = [ByteLayer, ...ByteLayer[]] | [TransformOptions, ByteLayer, ...ByteLayer[]];

function splitLayerArgs(args: LayerArgs): { options: TransformOptions; layers: [ByteLayer, ...ByteLayer[]] } {
  const first = args[0];
  if (typeof (first as ByteLayer).decode === 'function')
    return { options: {}, layers: args as [ByteLayer, ...ByteLayer[]] };
  const layers = args.slice(1) as ByteLayer[];
  if (layers.length === 0) throw new RangeError('transform: give at least one layer');
  return { options: first as TransformOptions, layers: layers as [ByteLayer, ...ByteLayer[]] };
}

/** A reversible byte layer. `decode(encode(x))` must equal `x`. */
export interface ByteLayer {
  /** A short name; it appears in error paths as `<name>`. */
  readonly name: string;
  /** File bytes to inner bytes. May throw; the error becomes a DecodeError at the layer's offset. */
  decode(bytes: Uint8Array, limits: LayerLimits): Uint8Array;
  /** Inner bytes to file bytes. */
  encode(bytes: Uint8Array): Uint8Array;
  /**
   * Optional: whether `bytes` decode to exactly `inner` — the same answer as comparing
   * `decode(bytes, { maxOutput: n, expected: n })` (n = `inner.length`) with `inner`, a throw
   * counting as no — without making the decoded bytes (a decompressor compares as it inflates and
   * stops at the first difference). {@link transformKeeping} checks a kept stream with the innermost
   * layer's, when the decoded length is recorded.
   */
  matches?(bytes: Uint8Array, inner: Uint8Array): boolean;
}

/** Makes a {@link ByteLayer} from a name and two functions (and, optionally, its {@link ByteLayer.matches}). */
export function layer(
  name: string,
  decode: (bytes: Uint8Array, limits: LayerLimits) => Uint8Array,
  encode: (bytes: Uint8Array) => Uint8Array,
  matches?: (bytes: Uint8Array, inner: Uint8Array) => boolean,
): ByteLayer {
  return matches === undefined ? { name, decode, encode } : { name, decode, encode, matches };
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
      out[i] = bytes[i]! ^ k[j]!;
      if (++j === k.length) j = 0;
    }
    return out;
  };
  // Whether `bytes` XOR the key are `inner`, without making them.
  const matches = (bytes: Uint8Array, inner: Uint8Array) => {
    if (bytes.length !== inner.length) return false;
    for (let i = 0, j = 0; i < bytes.length; i++) {
      if ((bytes[i]! ^ k[j]!) !== inner[i]) return false;
      if (++j === k.length) j = 0;
    }
    return true;
  };
  return layer(`xor`, (bytes) => apply(bytes), apply, matches);
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

/** The decoded length is framing, not part of the value: on paths it is the annotation `<decodedLength>`. */
const DECODED_LENGTH = pathAnnotation('decodedLength');

/**
 * Runs `layers` over the rest of the reader's window and reads `codec` from the result, which it
 * must use whole. Returns the value and the innermost bytes (what the codec read).
 */
function readThroughLayers<A>(
  r: Reader,
  codec: Codec<A>,
  layers: ReadonlyArray<ByteLayer>,
  options: TransformOptions = {},
): { value: A; inner: Uint8Array; layeredFrom: number } {
  const { budget } = r.state;
  const perLayer = r.state.options.maxTransformOutput;
  let limits: LayerLimits = { maxOutput: Math.min(perLayer, budget.outputLeft) };
  if (options.decodedLength !== undefined) {
    const lengthAt = r.pos;
    const expected = readChild(r, DECODED_LENGTH, options.decodedLength);
    if (!Number.isSafeInteger(expected) || expected < 0)
      throw r.error('out-of-range', `decoded length ${expected} is not a byte count`, lengthAt);
    if (expected > perLayer) {
      throw r.error('count-too-large', `decoded length ${expected} is over the limit of ${perLayer} bytes`, lengthAt);
    }
    if (expected > budget.outputLeft) throw budget.outputError(expected, r.state.path.slice(), lengthAt);
    limits = { maxOutput: expected, expected };
  }
  let at = r.pos;
  const layeredFrom = at;
  let data = r.borrow(r.remaining);
  let reader = r;
  const { path } = r.state;
  const depth = path.length;
  for (const l of layers) {
    // Each layer may produce what is left of the decode's output budget, at most the per-layer limit.
    if (limits.expected === undefined) limits = { maxOutput: Math.min(perLayer, budget.outputLeft) };
    const budgetBound = limits.maxOutput < perLayer && limits.expected === undefined;
    let out: Uint8Array;
    try {
      out = l.decode(data, limits);
    } catch (error) {
      if (error instanceof DecodeError) throw error;
      if (budgetBound && isOutputLimitError(error)) throw budget.outputError(limits.maxOutput + 1, path.slice(), at);
      throw reader.error('layer-failed', `${l.name}: ${error instanceof Error ? error.message : String(error)}`, at);
    }
    if (!(out instanceof Uint8Array)) throw reader.error('layer-failed', `${l.name}: layer returned no bytes`, at);
    if (out.length > limits.maxOutput) {
      if (budgetBound) throw budget.outputError(out.length, path.slice(), at);
      throw reader.error(
        'layer-failed',
        `${l.name}: output of ${out.length} bytes is over the limit of ${limits.maxOutput}`,
        at,
      );
    }
    budget.spendOutput(out.length, path.slice(), at);
    path.push(pathAnnotation(l.name));
    reader = reader.layerReader(out);
    data = out;
    at = 0;
  }
  if (limits.expected !== undefined && data.length !== limits.expected) {
    path.length = depth;
    throw r.error(
      'layer-failed',
      `the layers produced ${data.length} bytes, the decoded length says ${limits.expected}`,
      r.pos,
    );
  }
  // With `traceLayers: false`, the layers' bytes are read untraced: the trace holds the file's own.
  const layered = reader;
  const value =
    layered !== r && layered.state.spans !== undefined && !layered.state.options.traceLayers
      ? layered.state.untraced(() => codec.read(layered))
      : codec.read(layered);
  if (reader.pos < reader.end)
    throw reader.error('trailing-bytes', `${reader.end - reader.pos} bytes left unread after the transformed value`);
  path.length = depth;
  return { value, inner: data, layeredFrom };
}

/** Inner bytes through `layers`, innermost first, to file bytes (a layer's error passes through). */
function applyLayers(inner: Uint8Array, layers: ReadonlyArray<ByteLayer>): Uint8Array {
  let data = inner;
  for (let i = layers.length - 1; i >= 0; i--) data = layers[i]!.encode(data);
  return data;
}

/** {@link applyLayers}, with a failing layer reported as an EncodeError naming it. */
function encodeThroughLayers(w: Writer, inner: Uint8Array, layers: ReadonlyArray<ByteLayer>): Uint8Array {
  let data = inner;
  for (let i = layers.length - 1; i >= 0; i--) {
    const l = layers[i]!;
    try {
      data = l.encode(data);
    } catch (error) {
      throw w.error('layer-failed', `${l.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return data;
}

/**
 * Writes `value` with `codec` into a fresh buffer (the layers' input), with the layers on the path.
 * `sizeHint` (the length the value's bytes had when read) sizes the buffer from the start: a save's
 * 50 MB chunk is then not copied as the buffer doubles from 256 bytes.
 */
function writeInner<A>(
  w: Writer,
  codec: Codec<A>,
  value: A,
  layers: ReadonlyArray<ByteLayer>,
  sizeHint = 256,
): Uint8Array {
  const inner = w.sub(sizeHint);
  const { path } = w.state;
  const depth = path.length;
  for (const l of layers) path.push(pathAnnotation(l.name));
  codec.write(inner, value);
  path.length = depth;
  return inner.written();
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
export function transform<A>(codec: Codec<A>, ...args: LayerArgs): Codec<A> {
  const { options, layers } = splitLayerArgs(args);
  const names = layers.map((l) => l.name);
  return defineCodec<A>({
    name: `transform(${codec.name}, ${names.join(' > ')})`,
    def: { type: 'transform', codec, layers, decodedLength: options.decodedLength, keep: 'never' },
    json: codec.json,
    minSize: 0,
    children: [{ key: `<${names.join('>')}>`, codec }],
    read: (r) => readThroughLayers(r, codec, layers, options).value,
    write(w, value) {
      const inner = writeInner(w, codec, value, layers);
      if (options.decodedLength !== undefined) writeChild(w, DECODED_LENGTH, options.decodedLength, inner.length);
      w.append(encodeThroughLayers(w, inner, layers));
    },
  });
}

/** A value read through layers, with the file's bytes kept when our layers would write others. */
export interface Kept<A> {
  /** The decoded value. */
  value: A;
  /**
   * The bytes as they were in the file, present only when encoding the value again would give other
   * bytes (another compressor build, another level). Reused on encode while the value is unchanged.
   */
  stored?: Uint8Array;
}

/**
 * Like {@link transform}, for layers that are not canonical — compressors above all: the same data can
 * be compressed many ways, and our compressor need not pick the file's. The file's bytes are kept in
 * `stored` when re-encoding would differ, and written back as long as they still decode to the bytes
 * of the value being written; a changed value is encoded afresh. So `encode(decode(b)) = b` holds for
 * every accepted `b`, and only what changed is recompressed.
 */
export function transformKeeping<A>(codec: Codec<A>, ...args: LayerArgs): Codec<Kept<A>> {
  const { options, layers } = splitLayerArgs(args);
  const plain = transform(codec, ...args); // for its metadata
  const json = t.intersection([t.type({ value: codec.json }), t.partial({ stored: jsonBytes() })], 'Kept');
  // With the length recorded, the innermost layer's `matches` checks a kept stream: the layers before
  // it decode as always, the last one compares as it decodes.
  const last = layers[layers.length - 1]!;
  const matchesLast =
    last.matches !== undefined && options.decodedLength !== undefined
      ? (bytes: Uint8Array, inner: Uint8Array) => {
          const limits: LayerLimits = { maxOutput: inner.length, expected: inner.length };
          let data = bytes;
          for (let i = 0; i < layers.length - 1; i++) data = layers[i]!.decode(data, limits);
          return last.matches!(data, inner);
        }
      : undefined;
  const decodeLayers = (outer: Uint8Array, limits: LayerLimits) => {
    let data = outer;
    for (const l of layers) data = l.decode(data, limits);
    return data;
  };
  return defineCodec<Kept<A>>({
    name: `transformKeeping(${codec.name}, ${layers.map((l) => l.name).join(' > ')})`,
    def: {
      type: 'transform',
      codec,
      layers,
      decodedLength: options.decodedLength,
      keep: options.keep ?? 'when-different',
    },
    json: json as unknown as t.Type<Kept<A>, unknown, unknown>,
    minSize: 0,
    children: plain.children,
    read(r) {
      // The value is the `value` field of the document: the path goes through it.
      r.state.path.push('value');
      const { value, inner, layeredFrom } = readThroughLayers(r, codec, layers, options);
      r.state.path.pop();
      const file = r.bytes.subarray(layeredFrom, r.pos);
      if (options.keep === 'always') return withInnerLength({ value, stored: file.slice() }, inner.length);
      // What our layers would write for the same inner bytes: if it matches, nothing needs keeping.
      let ours: Uint8Array | undefined;
      try {
        ours = applyLayers(inner, layers);
      } catch {
        ours = undefined;
      }
      return withInnerLength(sameBytes(ours, file) ? { value } : { value, stored: file.slice() }, inner.length);
    },
    write(w, kept) {
      if (typeof kept !== 'object' || kept === null) throw w.error('wrong-type', 'expected { value, stored? }');
      // The value's bytes are written once: reused to check the kept stream, then compressed if needed.
      w.state.path.push('value');
      const inner = writeInner(w, codec, kept.value, layers, innerLengthOf(kept));
      w.state.path.pop();
      if (options.decodedLength !== undefined) writeChild(w, DECODED_LENGTH, options.decodedLength, inner.length);
      const stored = kept.stored;
      // An innermost layer that compares as it decodes (a decompressor, an XOR), with the length
      // recorded: the kept stream is checked without decoding it into a buffer of its own.
      if (stored instanceof Uint8Array && matchesLast !== undefined) {
        let same: boolean;
        try {
          same = matchesLast(stored, inner);
        } catch {
          same = false;
        }
        if (same) {
          w.append(stored);
          return;
        }
      } else if (stored instanceof Uint8Array) {
        let storedInner: Uint8Array | undefined;
        try {
          const limits: LayerLimits =
            options.decodedLength !== undefined
              ? { maxOutput: inner.length, expected: inner.length }
              : { maxOutput: Math.max(inner.length, 1) };
          storedInner = decodeLayers(stored, limits);
        } catch {
          storedInner = undefined;
        }
        if (sameBytes(storedInner, inner)) {
          w.append(stored);
          return;
        }
      }
      w.append(encodeThroughLayers(w, inner, layers));
    },
  });
}

/**
 * The length of the inner bytes each {@link Kept} was decoded from: only a size hint for writing it
 * again (the bytes are what the value writes, whatever the hint), kept beside the document rather
 * than in it, so its JSON form and equality are unchanged.
 */
const INNER_LENGTHS = new WeakMap<object, number>();

/** Most bytes a hint presizes (the decode's own output limit bounds it; this caps a forged one). */
const MOST_HINTED = 1 << 30;

function withInnerLength<A>(kept: Kept<A>, length: number): Kept<A> {
  INNER_LENGTHS.set(kept, length);
  return kept;
}

function innerLengthOf(kept: object): number {
  const length = INNER_LENGTHS.get(kept);
  return length === undefined || length < 256 ? 256 : Math.min(length, MOST_HINTED);
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && bytesEqual(a, b);
}
