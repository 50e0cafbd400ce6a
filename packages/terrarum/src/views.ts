/**
 * Pictures of a Terrarum document (the `views` hook of the format contract): a world's tiles as a
 * map image, one pixel per tile — from a TEMD world (a `.temd` file, or a save's `worldinfo1`, on a
 * disk or in a folder) or a JSON-era world's `layerTerrain` and `layerWall`.
 *
 * Colours: a tile's colour is a function of its identity alone — its name in a JSON world's
 * `tileNumberToNameMap` (`basegame:32`), else its number — hashed (FNV-1a) to a mid-range RGB
 * ({@link tileColour}), so the same tile has the same colour in every world and every run. A cell
 * whose terrain is air shows its wall at half brightness; air on both layers is the sky colour
 * ({@link SKY_COLOUR}). Air is tile 0 (and in a JSON world any number its map names `basegame:0`).
 *
 * A document holds at most one world (a save has one `worldinfo1`), so there is a single view (one picture).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, type RasterPicture, type SaveView, type ViewRegion } from '@savekit/core';
import type { TerrarumDocument } from './format.js';
import type { TerrarumSave } from './save.js';
import { temdFile, type TemdFile, type TemdWorld } from './temd.js';
import { decodeLayer, worldFields, type JsonWorld, type StoredLayer } from './world-json.js';

/** The largest side of a tile picture: a wider or taller world is sampled every n-th tile (n the least that fits). */
export const MAX_TILE_PICTURE_SIDE = 4096;

/** RGBA of a cell that is air on both layers. */
export const SKY_COLOUR: readonly [number, number, number, number] = Object.freeze([142, 200, 240, 255]) as readonly [
  number,
  number,
  number,
  number,
];

/**
 * The colour of a tile by its identity (`basegame:32`, or the number as text): FNV-1a of the text,
 * its three low bytes each mapped into 48…223 (away from black and white). Deterministic.
 */
export function tileColour(key: string): [number, number, number] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return [48 + ((hash & 0xff) % 176), 48 + (((hash >>> 8) & 0xff) % 176), 48 + (((hash >>> 16) & 0xff) % 176)];
}

/** A world's layers as the picture reads them. */
interface TileSource {
  readonly width: number;
  readonly height: number;
  readonly terrain: Uint16Array;
  readonly wall?: Uint16Array | undefined;
  /** The wall layer's width, when it has its own (a JSON world's layers each carry their size). */
  readonly wallWidth?: number;
  readonly wallHeight?: number;
  /** Tile number → name (JSON worlds). */
  readonly names?: ReadonlyMap<number, string>;
  readonly spawn?: { readonly x: number; readonly y: number };
  /** The document paths of the tiles and of the spawn point. */
  readonly path: string;
  readonly spawnPath?: string;
  readonly title: string;
}

const isTiles = (u: unknown): u is Uint16Array =>
  ArrayBuffer.isView(u) && Object.prototype.toString.call(u) === '[object Uint16Array]';

/** A TEMD world's source, checked: sizes positive integers and both layers of `width × height` tiles. */
function temdSource(world: TemdWorld, base: string, what: string): TileSource | undefined {
  const { width, height } = world;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width <= 0 || height <= 0) return undefined;
  if (!isTiles(world.terrain) || !isTiles(world.wall)) return undefined;
  if (world.terrain.length !== width * height || world.wall.length !== width * height) return undefined;
  return {
    width,
    height,
    terrain: world.terrain,
    wall: world.wall,
    spawn: { x: world.spawnX, y: world.spawnY },
    path: `${base}.terrain`,
    spawnPath: `${base}.spawnX`,
    title: `${what} ${width}×${height}`,
  };
}

/** A TEMD file's world (`gzip` files keep it under `world.value`). */
function temdFileSource(file: TemdFile, base: string, what: string): TileSource | undefined {
  return file.gzip
    ? temdSource(file.world.value, `${base}.world.value`, what)
    : temdSource(file.world, `${base}.world`, what);
}

/** A save's world: its `worldinfo1`, kept as bytes (decoded here) or already decoded. */
function saveSource(save: TerrarumSave): TileSource | undefined {
  const held: unknown = save.worldinfo1;
  if (held instanceof Uint8Array) {
    const file = decode(temdFile, held);
    if (E.isLeft(file)) return undefined;
    // The bytes are the document value: its tiles have no finer path than `worldinfo1`.
    const source = temdFileSource(file.right.value, 'save.worldinfo1', 'Save world');
    return source === undefined ? undefined : { ...source, path: 'save.worldinfo1', spawnPath: 'save.worldinfo1' };
  }
  if (typeof held === 'object' && held !== null && 'gzip' in held && 'world' in held)
    return temdFileSource(held as TemdFile, 'save.worldinfo1', 'Save world');
  return undefined;
}

const isStoredLayer = (v: unknown): v is StoredLayer =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as StoredLayer).h === 'string' &&
  typeof (v as StoredLayer).b === 'string';

/** A JSON world's fields, or undefined when the text is not a JSON object. */
function fieldsOf(world: JsonWorld): Record<string, unknown> | undefined {
  try {
    const fields: unknown = worldFields(world);
    return typeof fields === 'object' && fields !== null && !Array.isArray(fields)
      ? (fields as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON world's source: its terrain layer (decoded and checked), its wall layer when it has one. */
function jsonSource(world: JsonWorld): TileSource | undefined {
  const fields = fieldsOf(world);
  if (fields === undefined || !isStoredLayer(fields.layerTerrain)) return undefined;
  const terrain = decodeLayer(fields.layerTerrain);
  if (terrain.width <= 0 || terrain.height <= 0) return undefined;
  const wall = isStoredLayer(fields.layerWall) ? decodeLayer(fields.layerWall) : undefined;
  const names = new Map<number, string>();
  const map = fields.tileNumberToNameMap;
  if (typeof map === 'object' && map !== null)
    for (const [number, name] of Object.entries(map))
      if (typeof name === 'string' && /^\d+$/.test(number)) names.set(Number(number), name);
  const spawnX = Number(fields.spawnX);
  const spawnY = Number(fields.spawnY);
  return {
    width: terrain.width,
    height: terrain.height,
    terrain: terrain.tiles,
    wall: wall?.tiles,
    ...(wall === undefined ? {} : { wallWidth: wall.width, wallHeight: wall.height }),
    names,
    ...(Number.isInteger(spawnX) && Number.isInteger(spawnY) ? { spawn: { x: spawnX, y: spawnY } } : {}),
    // The layers live in the world's text.
    path: 'world.text',
    spawnPath: 'world.text',
    title: `JSON world ${terrain.width}×${terrain.height}`,
  };
}

/** Whether a JSON world has a terrain layer, without inflating it. */
function jsonHasLayer(world: JsonWorld): boolean {
  const layer = fieldsOf(world)?.layerTerrain;
  if (!isStoredLayer(layer)) return false;
  const width = Number(layer.x);
  const height = Number(layer.y);
  return Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0;
}

/** The world a document holds, or undefined. */
function sourceOf(doc: TerrarumDocument): TileSource | undefined {
  switch (doc.kind) {
    case 'temd':
      return temdFileSource(doc.temd, 'temd', 'TEMD world');
    case 'world':
      return jsonSource(doc.world);
    case 'save':
      return saveSource(doc.save);
    case 'disk':
      return doc.save === undefined ? undefined : saveSource(doc.save);
    default:
      return undefined;
  }
}

/** Whether a tile is air: 0, or a number the world's map names `basegame:0`. */
function isAir(tile: number, names: ReadonlyMap<number, string> | undefined): boolean {
  return tile === 0 || names?.get(tile) === 'basegame:0';
}

/** Draws a world: one pixel per tile, or per n-th tile when a side exceeds {@link MAX_TILE_PICTURE_SIDE}. */
function drawTiles(doc: TerrarumDocument): RasterPicture<TerrarumDocument> {
  const source = sourceOf(doc);
  if (source === undefined) throw new RangeError('this document holds no world tiles to draw');
  const { width, height, terrain, wall, names } = source;
  const step = Math.ceil(Math.max(width, height) / MAX_TILE_PICTURE_SIDE);
  const pw = Math.ceil(width / step);
  const ph = Math.ceil(height / step);
  const rgba = new Uint8ClampedArray(pw * ph * 4);
  const colours = new Map<number, [number, number, number]>();
  const colourOf = (tile: number) => {
    let colour = colours.get(tile);
    if (colour === undefined) {
      colour = tileColour(names?.get(tile) ?? String(tile));
      colours.set(tile, colour);
    }
    return colour;
  };
  const wallWidth = source.wallWidth ?? width;
  const wallHeight = source.wallHeight ?? height;
  for (let py = 0; py < ph; py++) {
    const y = py * step;
    for (let px = 0; px < pw; px++) {
      const x = px * step;
      const out = (py * pw + px) * 4;
      const front = terrain[y * width + x] ?? 0;
      const back = wall !== undefined && x < wallWidth && y < wallHeight ? (wall[y * wallWidth + x] ?? 0) : 0;
      if (!isAir(front, names)) {
        const [r, g, b] = colourOf(front);
        rgba[out] = r;
        rgba[out + 1] = g;
        rgba[out + 2] = b;
      } else if (!isAir(back, names)) {
        const [r, g, b] = colourOf(back);
        rgba[out] = r >> 1;
        rgba[out + 1] = g >> 1;
        rgba[out + 2] = b >> 1;
      } else {
        rgba[out] = SKY_COLOUR[0];
        rgba[out + 1] = SKY_COLOUR[1];
        rgba[out + 2] = SKY_COLOUR[2];
      }
      rgba[out + 3] = 255;
    }
  }
  const regions: Array<ViewRegion<TerrarumDocument>> = [
    { x: 0, y: 0, width: pw, height: ph, label: source.title, path: source.path },
  ];
  const { spawn } = source;
  if (spawn !== undefined && spawn.x >= 0 && spawn.y >= 0 && spawn.x < width && spawn.y < height)
    regions.push({
      x: Math.floor(spawn.x / step),
      y: Math.floor(spawn.y / step),
      width: 1,
      height: 1,
      label: `Spawn point (${spawn.x}, ${spawn.y})`,
      ...(source.spawnPath === undefined ? {} : { path: source.spawnPath }),
    });
  const zoom = Math.max(1, Math.min(8, Math.floor(1024 / Math.max(pw, ph))));
  return { kind: 'raster', width: pw, height: ph, rgba, zoom, regions };
}

/**
 * A world's tiles as a map image: one pixel per tile (terrain over wall, wall at half brightness, sky
 * where both are air; colours by {@link tileColour}), every n-th tile when a side exceeds
 * {@link MAX_TILE_PICTURE_SIDE}, zoomed so a small world starts readable (up to 8×, toward 1024
 * pixels). Regions: the whole world (the terrain's path: `temd.world.terrain`, `world.text`,
 * `save.worldinfo1`) and the spawn point. Available for a TEMD file, a JSON world with a terrain
 * layer, and a save (folder or disk) whose `worldinfo1` is a TEMD world; not for a lone meta file or
 * a disk without a save.
 */
export const worldTilesView: SaveView<TerrarumDocument> = {
  id: 'world-tiles',
  title: 'World tiles',
  available(doc) {
    try {
      if (typeof doc !== 'object' || doc === null) return false;
      return doc.kind === 'world' ? jsonHasLayer(doc.world) : sourceOf(doc) !== undefined;
    } catch {
      return false;
    }
  },
  render: drawTiles,
};

/** The views of a Terrarum document: {@link worldTilesView}. */
export const terrarumViews: ReadonlyArray<SaveView<TerrarumDocument>> = [worldTilesView];
