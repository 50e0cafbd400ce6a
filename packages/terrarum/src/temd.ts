/**
 * TEMD world dumps (terrarum.md §5.1), the design doc's `worldinfo1`: `TEMD`, bytes per tile (1), the
 * layer count (4: terrain, wall, the low-nibble pair, wire), two reserved bytes, width, height and
 * spawn point as int32 — little-endian from 2017, big-endian in the 2016 writer, told apart by which
 * reading makes the layers fill the file — then the terrain and wall high bytes, their low nibbles
 * two tiles to a byte (even x in the high nibble), and the wire layer. A tile number is
 * high × 16 + low (12 bits). The 2017 exporter gzipped the whole file: such files are read through
 * gzip, and the game's gzip bytes are kept while the world is unchanged.
 *
 * @module
 */
import * as t from 'io-ts';
import { gzipSync } from 'fflate';
import {
  borrowedBytes,
  decodeOrThrow,
  EncodeError,
  encodeOrThrow,
  array,
  bytes,
  i32be,
  i32le,
  layer,
  literal,
  magic,
  map,
  nothing,
  peek,
  struct,
  switchOn,
  transformKeeping,
  u16be,
  u16le,
  u8,
  withHooks,
  type Codec,
  type Kept,
  type Path,
  type TypeOf,
} from '@savekit/core';
import { inflateBounded, jsonBytes, numberList } from '@savekit/core/kit';

/** A decoded TEMD world. */
export interface TemdWorld {
  /** `le` (2017 on) or `be` (the 2016 writer). */
  byteOrder: 'le' | 'be';
  bytesPerTile: number;
  layerCount: number;
  reserved: number;
  width: number;
  height: number;
  spawnX: number;
  spawnY: number;
  /** Terrain and wall tile numbers (12-bit), row-major. */
  terrain: Uint16Array;
  wall: Uint16Array;
  /** The wire layer (with 4 layers). */
  wire?: Uint8Array;
}

/** A Uint16Array from any realm (a vm context or an iframe has its own constructor). */
function isTileArray(u: unknown): u is Uint16Array {
  return ArrayBuffer.isView(u) && Object.prototype.toString.call(u) === '[object Uint16Array]';
}

/**
 * The first index of `list` that is not an integer from 0 to `max` (a missing element included), or
 * undefined. Checked before the typed array is made: a script's array of length 2^32 − 1 with nothing
 * in it is refused at index 0, not allocated.
 */
function firstNotInRange(list: unknown[], max: number): number | undefined {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!(i in list) || !Number.isInteger(v) || (v as number) < 0 || (v as number) > max) return i;
  }
  return undefined;
}

/**
 * Tile numbers as JSON: an array of numbers (what they are), so a dump shows tiles, not hex. The hex
 * of the little-endian bytes that older dumps wrote is read too.
 */
const u16Json = new t.Type<Uint16Array, number[], unknown>(
  'TileNumbers',
  (u): u is Uint16Array => isTileArray(u),
  (u, c) => {
    if (Array.isArray(u)) {
      const bad = firstNotInRange(u, 0xffff);
      if (bad !== undefined) return t.failure(u, c, `tile ${bad} is not a 16-bit number`);
      return t.success(new Uint16Array(u as number[]));
    }
    const bytes = jsonBytes().validate(u, c);
    if (bytes._tag === 'Left') return bytes;
    if (bytes.right.length % 2 !== 0) return t.failure(u, c, 'an odd number of bytes');
    const out = new Uint16Array(bytes.right.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = bytes.right[i * 2]! | (bytes.right[i * 2 + 1]! << 8);
    return t.success(out);
  },
  numberList,
);

/** Wire values as JSON: an array of byte numbers (older dumps' hex is read too). */
const wireJson = new t.Type<Uint8Array, number[], unknown>(
  'WireBytes',
  (u): u is Uint8Array => u instanceof Uint8Array,
  (u, c) => {
    if (!Array.isArray(u)) return jsonBytes().validate(u, c);
    const bad = firstNotInRange(u, 0xff);
    if (bad !== undefined) return t.failure(u, c, `wire ${bad} is not a byte`);
    return t.success(new Uint8Array(u as number[]));
  },
  numberList,
);

const temdJson = t.intersection([
  t.type({
    byteOrder: t.keyof({ le: null, be: null }),
    bytesPerTile: t.number,
    layerCount: t.number,
    reserved: t.number,
    width: t.number,
    height: t.number,
    spawnX: t.number,
    spawnY: t.number,
    terrain: u16Json,
    wall: u16Json,
  }),
  t.partial({ wire: wireJson }),
]) as unknown as t.Type<TemdWorld, unknown, unknown>;

const HEADER = 24;

function sizeFor(w: number, h: number, layers: number): number {
  const n = w * h;
  return HEADER + n * 2 + n + (layers === 4 ? n : 0);
}

/**
 * The size of a world's uncompressed TEMD file, its header and planes: a hint for the writer's
 * buffer (a world whose size is not one TEMD can have gets the header's; the writer refuses it).
 */
export function temdSize(world: Pick<TemdWorld, 'width' | 'height' | 'layerCount'>): number {
  const { width, height } = world;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) return HEADER;
  const size = sizeFor(width, height, world.layerCount);
  // Past 2 GiB the hint is dropped: the writer grows to what a world that large really needs.
  return size < 2 ** 31 ? size : HEADER;
}

/** The 24-byte TEMD header in one byte order (the 2016 writer's big-endian, 2017's little-endian). */
function temdHeaderOf(order: 'le' | 'be') {
  const le = order === 'le';
  return struct(
    {
      magic: magic('TEMD'),
      bytesPerTile: u8,
      layerCount: u8,
      reserved: le ? u16le : u16be,
      width: le ? i32le : i32be,
      height: le ? i32le : i32be,
      spawnX: le ? i32le : i32be,
      spawnY: le ? i32le : i32be,
    },
    `temdHeader(${order})`,
  );
}

/** The TEMD header, little-endian (2017 on). */
export const temdHeaderLe = temdHeaderOf('le');
/** The TEMD header, big-endian (the 2016 writer). */
export const temdHeaderBe = temdHeaderOf('be');

/** Whether a header's size makes the layers fill a file of `size` bytes. */
function fits(h: { width: number; height: number; layerCount: number }, size: number): boolean {
  const n = h.width * h.height;
  return h.width > 0 && h.height > 0 && n % 2 === 0 && n < 2 ** 31 && sizeFor(h.width, h.height, h.layerCount) === size;
}

/** The layers of a world of `n` tiles (`n` even) as stored, one plane after another. */
interface Planes {
  /** Each terrain tile's high eight bits. */
  terrainHigh: Uint8Array;
  /** Each wall tile's high eight bits. */
  wallHigh: Uint8Array;
  /** The terrain tiles' low four bits, two tiles to a byte (even x in the high nibble). */
  terrainLow: Uint8Array;
  /** The wall tiles' low four bits, the same way. */
  wallLow: Uint8Array;
  /** The wire layer, one byte a tile (with 4 layers). */
  wire: Uint8Array | undefined;
}

/** The planes of a world of the header's size and layer count, each a view into the input. */
function planes({ width, height, layerCount }: { width: number; height: number; layerCount: number }): Codec<Planes> {
  const n = width * height;
  // Checked by the byte-order switch already (the planes fill the file); refused here all the same.
  if (!(width > 0 && height > 0 && n % 2 === 0 && n < 2 ** 31))
    throw new Error(`a ${width}×${height} world: TEMD needs a positive, even tile count under 2^31`);
  return struct({
    terrainHigh: borrowedBytes(n),
    wallHigh: borrowedBytes(n),
    terrainLow: borrowedBytes(n / 2),
    wallLow: borrowedBytes(n / 2),
    wire: layerCount === 4 ? borrowedBytes(n) : nothing,
  }) as Codec<Planes>;
}

/** Tile numbers from their high-byte plane and low-nibble plane (tile = high × 16 + low). */
function joinNibbles(high: Uint8Array, low: Uint8Array): Uint16Array {
  const tiles = new Uint16Array(high.length);
  // Two tiles a low byte (the count is even): the even tile's nibble is the high one.
  for (let j = 0, i = 0; j < low.length; j++, i += 2) {
    const nibbles = low[j]!;
    tiles[i] = (high[i]! << 4) | (nibbles >> 4);
    tiles[i + 1] = (high[i + 1]! << 4) | (nibbles & 15);
  }
  return tiles;
}

/** The high-byte plane and the low-nibble plane of tile numbers (12-bit, an even count; checked first). */
function splitNibbles(tiles: Uint16Array): { high: Uint8Array; low: Uint8Array } {
  const high = new Uint8Array(tiles.length);
  const low = new Uint8Array(tiles.length / 2);
  for (let j = 0, i = 0; j < low.length; j++, i += 2) {
    const even = tiles[i]!;
    const odd = tiles[i + 1]!;
    high[i] = even >> 4;
    high[i + 1] = odd >> 4;
    low[j] = ((even & 15) << 4) | (odd & 15);
  }
  return { high, low };
}

/** A 12-bit tile number: a u16's high twelve bits (for models only; never read from a file). */
const tileModel = map(u16le, { name: 'tile', decode: (v) => v >> 4, encode: (tile: number) => tile << 4 });

/**
 * For tools (testkit's arbitraries): the worlds of one byte order that the writer can write — small
 * sizes with an even tile count, 12-bit tiles, a wire layer exactly with four layers.
 */
function temdModel(order: 'le' | 'be'): Codec<TemdWorld> {
  const int = order === 'le' ? i32le : i32be;
  const parts = struct({
    layerCount: literal(u8, 3, 4),
    reserved: order === 'le' ? u16le : u16be,
    width: literal(int, 1, 2, 3, 5),
    height: literal(int, 2, 4),
    spawnX: int,
    spawnY: int,
    terrain: (p: { width: number; height: number }) => array(tileModel, p.width * p.height),
    wall: (p: { width: number; height: number }) => array(tileModel, p.width * p.height),
    wire: (p: { width: number; height: number; layerCount: number }) =>
      p.layerCount === 4 ? bytes(p.width * p.height) : nothing,
  });
  return map(parts, {
    name: `temdModel(${order})`,
    decode: ({ terrain, wall, wire, ...header }): TemdWorld => ({
      byteOrder: order,
      bytesPerTile: 1,
      ...header,
      terrain: Uint16Array.from(terrain),
      wall: Uint16Array.from(wall),
      ...(wire !== undefined ? { wire: wire as Uint8Array } : {}),
    }),
    encode: ({ byteOrder: _, bytesPerTile: _b, terrain, wall, ...rest }) =>
      ({ ...rest, terrain: [...terrain], wall: [...wall] }) as never,
  });
}

/**
 * A TEMD file in one byte order: its header, then the planes its size and layer count give. A tile
 * is split across two planes (its high byte in one, its low nibble in another): the planes are the
 * declaration, and the tiles are them joined.
 */
function temdIn(order: 'le' | 'be'): Codec<TemdWorld> {
  const stored = struct({
    header: order === 'le' ? temdHeaderLe : temdHeaderBe,
    planes: (p: { header: TypeOf<typeof temdHeaderLe> }) => planes(p.header),
  });
  return map(stored, {
    name: `temd(${order})`,
    model: () => temdModel(order),
    decode: ({
      header: { magic: _, ...header },
      planes: { terrainHigh, wallHigh, terrainLow, wallLow, wire },
    }): TemdWorld => ({
      byteOrder: order,
      ...header,
      terrain: joinNibbles(terrainHigh, terrainLow),
      wall: joinNibbles(wallHigh, wallLow),
      ...(wire !== undefined ? { wire: wire.slice() } : {}),
    }),
    encode: (world: TemdWorld) => {
      const { byteOrder: _, terrain, wall, wire, ...header } = world;
      const t = splitNibbles(terrain);
      const w = splitNibbles(wall);
      return {
        header: { magic: 'TEMD' as const, ...header },
        planes: { terrainHigh: t.high, wallHigh: w.high, terrainLow: t.low, wallLow: w.low, wire },
      };
    },
  });
}

/** The header read ahead both ways, and the size of what follows: the byte order is the one whose size fills the file. */
const temdAhead = struct({ le: peek(temdHeaderLe), be: temdHeaderBe, layers: borrowedBytes('rest') }, 'temdAhead');
type TemdAhead = TypeOf<typeof temdAhead>;

function orderOf({ le, be, layers }: TemdAhead): 'le' | 'be' | undefined {
  if (le.bytesPerTile !== 1 || (le.layerCount !== 3 && le.layerCount !== 4)) return undefined;
  return fits(le, HEADER + layers.length) ? 'le' : fits(be, HEADER + layers.length) ? 'be' : undefined;
}

function whyNoOrder({ le, layers }: TemdAhead): string {
  if (le.bytesPerTile !== 1) return `${le.bytesPerTile} bytes per tile; TEMD has 1`;
  if (le.layerCount !== 3 && le.layerCount !== 4) return `${le.layerCount} layers; TEMD has 3 or 4`;
  return `the header's size does not match the ${layers.length} bytes of layers (either byte order)`;
}

/**
 * An uncompressed TEMD file: a switch on the header read ahead — little-endian (2017 on) when its
 * size makes the layers fill the file, else big-endian (the 2016 writer) when that one's does.
 */
export const temd: Codec<TemdWorld> = withHooks(
  switchOn(
    temdAhead,
    { le: temdIn('le'), be: temdIn('be') },
    { name: 'temd', select: orderOf, caseOf: (w: TemdWorld) => w.byteOrder, json: temdJson, unknown: whyNoOrder },
  ),
  { beforeWrite: (world, { path, writer }) => checkWorld(world, path, writer.length) },
  'temd',
);

const isInt32 = (v: unknown) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31;

/**
 * What the reader could not read back the same, refused before writing (an EncodeError at the
 * field): header values past their fields, a size that is not a positive even tile count the reader
 * accepts, and a big-endian world whose header reads as a little-endian one of the same file size
 * (the reader tries little-endian first).
 */
function checkWorld(world: TemdWorld, path: Path, offset: number): void {
  const fail = (field: string, message: string): never => {
    throw new EncodeError([...path, field], offset, message);
  };
  if (typeof world !== 'object' || world === null) throw new EncodeError(path, offset, 'expected a TEMD world');
  if (world.byteOrder !== 'le' && world.byteOrder !== 'be') fail('byteOrder', "expected 'le' or 'be'");
  if (world.bytesPerTile !== 1) fail('bytesPerTile', `${world.bytesPerTile} bytes per tile; TEMD has 1`);
  if (world.layerCount !== 3 && world.layerCount !== 4)
    fail('layerCount', `${world.layerCount} layers; TEMD has 3 or 4`);
  if (!Number.isInteger(world.reserved) || world.reserved < 0 || world.reserved > 0xffff)
    fail('reserved', `${world.reserved} does not fit 16 bits`);
  for (const key of ['width', 'height', 'spawnX', 'spawnY'] as const)
    if (!isInt32(world[key])) fail(key, `${world[key]} does not fit a 32-bit integer`);
  const n = world.width * world.height;
  if (world.width <= 0 || world.height <= 0 || n % 2 !== 0 || n >= 2 ** 31)
    fail('width', `a ${world.width}×${world.height} world: TEMD needs a positive, even tile count under 2^31`);
  if (!isTileArray(world.terrain) || !isTileArray(world.wall))
    fail('terrain', 'terrain and wall are 16-bit tile arrays');
  if (world.terrain.length !== n || world.wall.length !== n) fail('terrain', `${n} tiles expected in terrain and wall`);
  if ((world.layerCount === 4) !== (world.wire instanceof Uint8Array && world.wire.length === n))
    fail('wire', '4 layers need a wire layer of one byte per tile, 3 none');
  for (let i = 0; i < n; i++)
    if (world.terrain[i]! > 0xfff || world.wall[i]! > 0xfff)
      fail('terrain', `tile ${Math.max(world.terrain[i]!, world.wall[i]!)} at ${i} does not fit 12 bits`);
  if (world.byteOrder === 'be') {
    // The reader tries little-endian first: the swapped header must not fit the same file.
    const swapped = (v: number) => decodeOrThrow(i32le, encodeOrThrow(i32be, v));
    const sw = swapped(world.width);
    const sh = swapped(world.height);
    const size = sizeFor(world.width, world.height, world.layerCount);
    if (sw > 0 && sh > 0 && (sw * sh) % 2 === 0 && sw * sh < 2 ** 31 && sizeFor(sw, sh, world.layerCount) === size)
      fail(
        'byteOrder',
        `a big-endian ${world.width}×${world.height} header reads as a little-endian ${sw}×${sh} one of the same size`,
      );
  }
}

/**
 * gzip as a byte layer, bounded on read: it inflates at most `limits.maxOutput` bytes (the per-layer
 * limit or what is left of the decode's output budget, whichever is less) and throws an
 * OutputLimitError past it, which the core reports as the budget's error when the budget was the bound.
 */
export const gzipLayer = layer(
  'gzip',
  (bytes, limits) => inflateBounded(bytes, 'gzip', { maxOutput: limits.maxOutput }),
  (bytes) => gzipSync(bytes, { level: 6 }),
);

/** A TEMD world gzipped whole, as the 2017 exporter wrote it (the file's gzip bytes kept while unchanged). */
export const temdGz: Codec<Kept<TemdWorld>> = transformKeeping(temd, { keep: 'always' }, gzipLayer);

/** A TEMD file either way: gzipped (`1F 8B`) or raw. */
export type TemdFile = { gzip: true; world: Kept<TemdWorld> } | { gzip: false; world: TemdWorld };

/**
 * Reads a TEMD file, gzipped or not (the importer of the time read it raw, the exporter gzipped it):
 * a switch on its first two bytes.
 */
export const temdFile: Codec<TemdFile> = switchOn(
  u16be,
  {
    gzip: map(temdGz, {
      name: 'temdGz',
      storedAt: 'world',
      decode: (world): TemdFile => ({ gzip: true, world }),
      encode: (file) => (file as { world: Kept<TemdWorld> }).world,
    }),
    raw: map(temd, {
      name: 'temdRaw',
      storedAt: 'world',
      decode: (world): TemdFile => ({ gzip: false, world }),
      encode: (file) => (file as { world: TemdWorld }).world,
    }),
  },
  {
    name: 'temdFile',
    select: (head) => (head === 0x1f8b ? 'gzip' : 'raw'),
    caseOf: (file: TemdFile) => (file.gzip ? 'gzip' : 'raw'),
    json: t.union([
      t.type({ gzip: t.literal(true), world: temdGz.json }),
      t.type({ gzip: t.literal(false), world: temd.json }),
    ]) as unknown as t.Type<TemdFile, unknown, unknown>,
  },
);
