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
  decodeOrThrow,
  encodeOrThrow,
  i32be,
  i32le,
  layer,
  magic,
  struct,
  transformKeeping,
  u16be,
  u16le,
  u8,
  type Codec,
  type Kept,
} from '@savekit/core';
import { customDef, defineCodec, inflateBounded, jsonBytes, type Reader, type Writer } from '@savekit/core/kit';

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

const u16Json = new t.Type<Uint16Array, string, unknown>(
  'Uint16Array',
  (u): u is Uint16Array => isTileArray(u),
  (u, c) => {
    const bytes = jsonBytes().validate(u, c);
    if (bytes._tag === 'Left') return bytes;
    if (bytes.right.length % 2 !== 0) return t.failure(u, c, 'an odd number of bytes');
    const out = new Uint16Array(bytes.right.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = bytes.right[i * 2]! | (bytes.right[i * 2 + 1]! << 8);
    return t.success(out);
  },
  (a) => jsonBytes().encode(new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength))),
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
  t.partial({ wire: jsonBytes() }),
]) as unknown as t.Type<TemdWorld, unknown, unknown>;

const HEADER = 24;

function sizeFor(w: number, h: number, layers: number): number {
  const n = w * h;
  return HEADER + n * 2 + n + (layers === 4 ? n : 0);
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

/** An uncompressed TEMD file. */
export const temd: Codec<TemdWorld> = defineCodec<TemdWorld>({
  name: 'temd',
  def: customDef('terrarumTemd'),
  json: temdJson,
  minSize: HEADER,
  children: [
    { key: 'header', codec: temdHeaderLe },
    { key: 'headerBe', codec: temdHeaderBe },
  ],
  read(r: Reader) {
    const base = r.pos;
    const size = r.end - base;
    // Looks ahead at the header in little-endian order; the order whose size fills the file is read.
    const ahead = temdHeaderLe.read(r.at(base, base, r.end));
    if (ahead.bytesPerTile !== 1) throw r.error(`${ahead.bytesPerTile} bytes per tile; TEMD has 1`, base + 4);
    if (ahead.layerCount !== 3 && ahead.layerCount !== 4)
      throw r.error(`${ahead.layerCount} layers; TEMD has 3 or 4`, base + 5);
    const le = fits(ahead, size);
    if (!le && !fits(temdHeaderBe.read(r.at(base, base, r.end)), size))
      throw r.error(
        `the header's size does not match the ${size - HEADER} bytes of layers (either byte order)`,
        base + 8,
      );
    const { bytesPerTile, layerCount, reserved, width, height, spawnX, spawnY } = (
      le ? temdHeaderLe : temdHeaderBe
    ).read(r);
    const n = width * height;
    const b = r.borrow(size - HEADER);
    const terrain = new Uint16Array(n);
    const wall = new Uint16Array(n);
    const lowT = 2 * n;
    const lowW = lowT + n / 2;
    for (let i = 0; i < n; i++) {
      const shift = i % 2 === 0 ? 4 : 0;
      terrain[i] = (b[i]! << 4) | ((b[lowT + (i >> 1)]! >> shift) & 15);
      wall[i] = (b[n + i]! << 4) | ((b[lowW + (i >> 1)]! >> shift) & 15);
    }
    const world: TemdWorld = {
      byteOrder: le ? 'le' : 'be',
      bytesPerTile,
      layerCount,
      reserved,
      width,
      height,
      spawnX,
      spawnY,
      terrain,
      wall,
    };
    if (layerCount === 4) world.wire = b.slice(lowW + n / 2, lowW + n / 2 + n);
    return world;
  },
  write(w, world) {
    checkWorld(w, world);
    const n = world.width * world.height;
    if (world.terrain.length !== n || world.wall.length !== n) throw w.error(`${n} tiles expected in terrain and wall`);
    if ((world.layerCount === 4) !== (world.wire !== undefined && world.wire.length === n))
      throw w.error('4 layers need a wire layer of one byte per tile, 3 none');
    const b = new Uint8Array(sizeFor(world.width, world.height, world.layerCount) - HEADER);
    const lowT = 2 * n;
    const lowW = lowT + n / 2;
    for (let i = 0; i < n; i++) {
      const tile = world.terrain[i]!; // both lengths were checked against n
      const wallTile = world.wall[i]!;
      if (tile > 0xfff || wallTile > 0xfff)
        throw w.error(`tile ${Math.max(tile, wallTile)} at ${i} does not fit 12 bits`);
      const shift = i % 2 === 0 ? 4 : 0;
      b[i] = tile >> 4;
      b[n + i] = wallTile >> 4;
      b[lowT + (i >> 1)]! |= (tile & 15) << shift;
      b[lowW + (i >> 1)]! |= (wallTile & 15) << shift;
    }
    if (world.wire !== undefined) b.set(world.wire, lowW + n / 2);
    const { byteOrder: _, terrain: _t, wall: _w, wire: _x, ...header } = world;
    (world.byteOrder === 'le' ? temdHeaderLe : temdHeaderBe).write(w, { magic: 'TEMD', ...header });
    w.append(b);
  },
});

const isInt32 = (v: unknown) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31;

/**
 * What the reader could not read back the same, refused before writing (an EncodeError at the
 * field): header values past their fields, a size that is not a positive even tile count the reader
 * accepts, and a big-endian world whose header reads as a little-endian one of the same file size
 * (the reader tries little-endian first).
 */
function checkWorld(w: Writer, world: TemdWorld): void {
  const fail = (field: string, message: string): never => {
    throw w.errorAt(field, message);
  };
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

/** Reads a TEMD file, gzipped or not (the importer of the time read it raw, the exporter gzipped it). */
export const temdFile: Codec<TemdFile> = defineCodec<TemdFile>({
  name: 'temdFile',
  def: customDef('terrarumTemdFile'),
  json: t.union([
    t.type({ gzip: t.literal(true), world: temdGz.json }),
    t.type({ gzip: t.literal(false), world: temd.json }),
  ]) as unknown as t.Type<TemdFile, unknown, unknown>,
  minSize: 4,
  read(r) {
    const gz = r.remaining >= 2 && r.bytes[r.pos] === 0x1f && r.bytes[r.pos + 1] === 0x8b;
    return gz ? { gzip: true, world: temdGz.read(r) } : { gzip: false, world: temd.read(r) };
  },
  write(w, file) {
    if (file.gzip) temdGz.write(w, file.world);
    else temd.write(w, file.world);
  },
});
