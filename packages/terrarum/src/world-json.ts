/**
 * JSON-era worlds (2021, terrarum.md §5.3): one JSON object whose block layers are
 * `{ h, b, x, y }` — `b` the custom-alphabet Ascii85 of a gzip stream of `x · y` little-endian
 * uint16 tile numbers (row-major), `h` the hex SHA-256 of those raw bytes. Decoding checks every
 * layer's hash; a layer is re-encoded only when its tiles change (the game's gzip bytes are kept
 * otherwise), so an unmodified world is the same text.
 *
 * @module
 */
import * as t from 'io-ts';
import { gzipSync } from 'fflate';
import {
  array,
  borrowedBytes,
  literal,
  u16le,
  u8,
  DecodeError,
  EncodeError,
  map,
  pathAnnotation,
  withHooks,
  sha256,
  struct,
  toHex,
  type Codec,
  type Path,
} from '@savekit/core';
import { inflateBounded, OutputLimitError, checksumMismatch, utf8, type DecodeBudget } from '@savekit/core/kit';
import { ascii85Decode, ascii85Encode, Ascii85Error } from './ascii85.js';
import { parseJsonSafely } from './json.js';

/** A layer as the JSON holds it. */
export interface StoredLayer {
  h: string;
  b: string;
  x: string | number;
  y: string | number;
}

/**
 * A decoded JSON world: its text, exactly as the file has it. (The game's objects have keys such as
 * `"1281"` in file order, which a JavaScript object would reorder: the text is the lossless form.)
 * Read it with {@link worldFields} and {@link layerOf}; change layers with {@link setLayerTiles}.
 */
export interface JsonWorld {
  text: string;
}

/** The world's fields, parsed (safely). */
export function worldFields(world: JsonWorld): Record<string, unknown> {
  return parseJsonSafely(world.text) as Record<string, unknown>;
}

/** Where each top-level value is in the text: key → [start, end). */
function topLevelSpans(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let depth = 0;
  let i = 0;
  let key: string | undefined;
  let valueStart = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && valueStart < 0) {
        key = JSON.parse(text.slice(i, j + 1)) as string;
        let k = j + 1;
        while (/\s/.test(text[k] ?? '')) k++;
        if (text[k] === ':') {
          k++;
          while (/\s/.test(text[k] ?? '')) k++;
          valueStart = k;
          i = k;
          continue;
        }
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 1 && valueStart >= 0 && key !== undefined) {
        spans.set(key, [valueStart, trimEnd(text, i)]);
        valueStart = -1;
      }
      depth--;
    } else if (c === ',' && depth === 1 && valueStart >= 0 && key !== undefined) {
      spans.set(key, [valueStart, trimEnd(text, i)]);
      valueStart = -1;
    }
    i++;
  }
  return spans;
}

function trimEnd(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** A layer of the world, decoded and checked against its SHA-256. */
export function layerOf(world: JsonWorld, key: string): { width: number; height: number; tiles: Uint16Array } {
  const layer = worldFields(world)[key];
  if (!isLayer(layer)) throw new Error(`the world has no layer ${key}`);
  return decodeLayer(layer);
}

/** The keys of a world that hold block layers. */
export const LAYER_KEYS: ReadonlyArray<string> = ['layerTerrain', 'layerWall', 'layerOre', 'layerFluids'];

function isLayer(v: unknown): v is StoredLayer {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as StoredLayer).h === 'string' &&
    typeof (v as StoredLayer).b === 'string'
  );
}

/** The most bytes one layer may inflate to by default (as `DecodeOptions.maxTransformOutput`). */
export const DEFAULT_LAYER_OUTPUT = 256 * 1024 * 1024;

/** Limits of {@link decodeLayer}. */
export interface LayerDecodeLimits {
  /** The most bytes this layer may inflate to (default {@link DEFAULT_LAYER_OUTPUT}). */
  readonly maxOutput?: number | undefined;
  /** The decode's budget: the layer's `x·y·2` bytes are claimed from its output budget before inflating. */
  readonly budget?: DecodeBudget | undefined;
  /** Where the layer is, for the budget's errors. */
  readonly path?: Path | undefined;
}

/**
 * A layer's raw tile bytes, checked: the size `x·y·2` against the per-layer limit and the budget
 * BEFORE anything is inflated, then the gzip stream inflated to exactly that size (a bomb stops at
 * it), then the SHA-256. Throws an {@link OutputLimitError} past the per-layer limit, a BudgetError
 * past the budget, an Error saying why otherwise.
 */
function layerBytes(layer: StoredLayer, limits: LayerDecodeLimits): { width: number; height: number; raw: Uint8Array } {
  const width = Number(layer.x);
  const height = Number(layer.y);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || width * height > 1 << 28)
    throw new Error(`a ${layer.x}×${layer.y} layer is not a size this reader accepts`);
  const size = width * height * 2;
  const maxOutput = limits.maxOutput ?? DEFAULT_LAYER_OUTPUT;
  if (size > maxOutput)
    throw new OutputLimitError(
      maxOutput,
      `${width}×${height} tiles are ${size} bytes, over the limit of ${maxOutput} bytes for one layer (DecodeOptions.maxTransformOutput)`,
    );
  const { budget } = limits;
  const path = limits.path ?? [];
  // The claim first: nothing is inflated for tiles the decode's output budget cannot hold.
  budget?.claim(width * height, 2, budget.outputLeft, `${width}×${height} layer tiles`, path, 0);
  const raw = inflateBounded(ascii85Decode(layer.b), 'gzip', { maxOutput: size, expected: size });
  budget?.spendOutput(size, path, 0);
  const hash = toHex(sha256.compute(raw));
  if (hash !== layer.h.toLowerCase()) throw new Error(`SHA-256 of the tiles is ${hash}, the layer says ${layer.h}`);
  return { width, height, raw };
}

/**
 * A layer's tiles: checks the size (against `limits.maxOutput` and the budget, before inflating) and
 * the SHA-256 (throws with the reason).
 */
export function decodeLayer(
  layer: StoredLayer,
  limits: LayerDecodeLimits = {},
): { width: number; height: number; tiles: Uint16Array } {
  const { width, height, raw } = layerBytes(layer, limits);
  const tiles = new Uint16Array(width * height);
  for (let i = 0; i < tiles.length; i++) tiles[i] = raw[i * 2]! | (raw[i * 2 + 1]! << 8);
  return { width, height, tiles };
}

/** A layer for these tiles: raw little-endian bytes, their SHA-256, gzip, Ascii85. */
export function encodeLayer(
  width: number,
  height: number,
  tiles: Uint16Array,
  size: 'string' | 'number' = 'string',
): StoredLayer {
  if (tiles.length !== width * height) throw new RangeError(`${width}×${height} tiles, got ${tiles.length}`);
  const raw = new Uint8Array(tiles.length * 2);
  for (let i = 0; i < tiles.length; i++) {
    raw[i * 2] = tiles[i]! & 0xff;
    raw[i * 2 + 1] = tiles[i]! >> 8;
  }
  return {
    h: toHex(sha256.compute(raw)),
    b: ascii85Encode(gzipSync(raw, { level: 9 })),
    x: size === 'string' ? String(width) : width,
    y: size === 'string' ? String(height) : height,
  };
}

/**
 * Replaces a layer's tiles (the stored bytes change only if the tiles do).
 *
 * @example
 * ```ts
 * import { layerOf, setLayerTiles, type JsonWorld } from '@savekit/terrarum';
 * declare const world: JsonWorld;
 * const { tiles } = layerOf(world, 'layerTerrain');
 * tiles[0] = 64; // "basegame:0" in the demo world's tileNumberToNameMap
 * setLayerTiles(world, 'layerTerrain', tiles);
 * ```
 */
export function setLayerTiles(world: JsonWorld, key: string, tiles: Uint16Array): void {
  const layer = worldFields(world)[key];
  if (!isLayer(layer)) throw new Error(`the world has no layer ${key}`);
  const current = decodeLayer(layer);
  if (current.tiles.length === tiles.length && current.tiles.every((v, i) => v === tiles[i])) return;
  const span = topLevelSpans(world.text).get(key);
  if (span === undefined) throw new Error(`layer ${key} not found in the text`);
  const replacement = JSON.stringify(
    encodeLayer(current.width, current.height, tiles, typeof layer.x === 'number' ? 'number' : 'string'),
  );
  world.text = world.text.slice(0, span[0]) + replacement + world.text.slice(span[1]);
}

/** The world's text as it is stored: the file's bytes as UTF-8 (refused otherwise). */
const worldText = map(borrowedBytes('rest'), {
  name: 'worldText',
  decode: (b): JsonWorld => {
    try {
      return { text: utf8.decode(b) };
    } catch {
      throw new Error('a JSON world is UTF-8 text');
    }
  },
  encode: (world: JsonWorld) => {
    if (typeof world !== 'object' || world === null || typeof world.text !== 'string')
      throw new Error('expected { text }');
    if (!utf8.canEncode(world.text)) throw new Error('the text is not UTF-8 text (a lone surrogate?)');
    return utf8.encode(world.text);
  },
});

/** The world's fields, parsed safely (at most `maxDepth` deep), or why they cannot be. */
function fieldsOf(text: string, maxDepth?: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonSafely(text, maxDepth === undefined ? {} : { maxDepth });
  } catch (error) {
    throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a JSON world is an object');
  return value as Record<string, unknown>;
}

/**
 * For tools (testkit's arbitraries): world texts as the game wrote them — a JSON object with the
 * generator version, the world's index and a terrain layer of a few tiles (SHA-256, gzip, Ascii85 by
 * {@link encodeLayer}, its size as a string or a number), compact or indented.
 */
const worldModel: Codec<JsonWorld> = map(
  struct({
    genver: u16le,
    worldIndex: u8,
    width: literal(u8, 1, 2, 3),
    height: literal(u8, 1, 2),
    sizeAs: literal(u8, 0, 1),
    indent: literal(u8, 0, 2),
    terrain: (p: { width: number; height: number }) => array(u16le, p.width * p.height),
  }),
  {
    name: 'worldModel',
    decode: ({ genver, worldIndex, width, height, sizeAs, indent, terrain }): JsonWorld => {
      const layerTerrain = encodeLayer(width, height, Uint16Array.from(terrain), sizeAs === 0 ? 'string' : 'number');
      return { text: JSON.stringify({ genver, worldIndex, layerTerrain }, null, indent) };
    },
    encode: () => {
      throw new Error('a model of world texts, not a stored form');
    },
  },
);

/**
 * A JSON-era world file: its text, with hooks that parse it safely and check every layer's size and
 * SHA-256 (a mismatch under the one checksum policy: an error, or a warning with
 * `{ checksums: 'warn' }`); the text is kept, so encoding gives it back unchanged. Encoding refuses
 * a text whose layers would not decode.
 */
export const jsonWorld: Codec<JsonWorld> = withHooks(
  map(worldText, {
    name: 'jsonWorld',
    model: () => worldModel,
    decode: (w) => w,
    encode: (w) => w,
    is: t.type({ text: t.string }).is,
    // As JSON, the world is its text (not the hex of its bytes): lossless, and readable in a dump.
    json: t.type({ text: t.string }) as unknown as t.Type<JsonWorld, unknown, unknown>,
  }),
  {
    afterRead(world, { reader, path, start }) {
      const { options, budget, warnings } = reader.state;
      let fields: Record<string, unknown>;
      try {
        fields = fieldsOf(world.text, options.maxDepth);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // JSON.parse says where in the text it stopped: the offset is that character's byte.
        const position = /position (\d+)/.exec(message);
        const at = position === null ? start : start + utf8.encode(world.text.slice(0, Number(position[1]))).length;
        throw new DecodeError([...path, 'text'], at, message);
      }
      for (const key of Object.keys(fields)) {
        const layer = fields[key];
        reader.work(1);
        if (!isLayer(layer)) continue;
        // The layer is a part of the world's text: `text <layerTerrain>` (errors, warnings and the
        // budget's charges name it so).
        const at = [...path, 'text', pathAnnotation(key)];
        try {
          // Every layer shares the decode's output budget; each is also held to maxTransformOutput.
          layerBytes(layer, { maxOutput: options.maxTransformOutput, budget, path: at });
        } catch (error) {
          if (error instanceof DecodeError) throw error;
          const message =
            error instanceof Ascii85Error
              ? `${key}.b: ${error.message} (character ${error.position})`
              : `${key}: ${error instanceof Error ? error.message : String(error)}`;
          if (!/SHA-256/.test(message)) throw new DecodeError(at, start, message, 'layer-failed');
          const outcome = checksumMismatch(options.checksums, at, start, message);
          if (outcome instanceof DecodeError) throw outcome;
          warnings.push(outcome);
        }
      }
    },
    beforeWrite(world, { path, writer }) {
      const refuse = (message: string) => new EncodeError(path, writer.length, message);
      // What the reader checks, checked before writing: every layer decodes and matches its SHA-256.
      if (typeof world !== 'object' || world === null || typeof world.text !== 'string') return; // worldText says why
      let fields: Record<string, unknown>;
      try {
        fields = fieldsOf(world.text);
      } catch (error) {
        throw refuse(`the world's text is ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const key of Object.keys(fields)) {
        const layer = fields[key];
        if (!isLayer(layer)) continue;
        try {
          layerBytes(layer, {});
        } catch (error) {
          throw refuse(`layer ${key}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  },
  'jsonWorld',
);
