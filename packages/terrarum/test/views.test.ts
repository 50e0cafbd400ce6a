// The world-tiles view of a Terrarum document (issue 23): TEMD worlds, saves and the real JSON-era world.
import * as E from 'fp-ts/lib/Either';
import { encodeOrThrow, viewsOf, type RasterPicture } from '@savekit/core';
import {
  format,
  layerOf,
  MAX_TILE_PICTURE_SIDE,
  SKY_COLOUR,
  temdFile,
  tileColour,
  worldFields,
  worldTilesView,
  type JsonWorld,
  type TemdWorld,
  type TerrarumDocument,
} from '@savekit/terrarum';
import { corpusFile, warnIfAbsent } from './corpus';
import { ourSave } from './save-fixture';

const demo = corpusFile('Terrarum_demoworld_2021-09-08.json');
const disk = corpusFile('TerranVirtualDisk_tevd-test-suite-00.tevd');
warnIfAbsent('Terrarum views', demo !== undefined && disk !== undefined);
const withDemo = demo === undefined ? describe.skip : describe;
const withDisk = disk === undefined ? describe.skip : describe;

function decodeDoc(input: Uint8Array): TerrarumDocument {
  const decoded = format.decode(input);
  if (E.isLeft(decoded)) throw decoded.left;
  return decoded.right.value;
}

function draw(doc: TerrarumDocument): RasterPicture<TerrarumDocument> {
  const picture = worldTilesView.render(doc);
  if (picture.kind !== 'raster') throw new Error('expected a raster picture');
  return picture;
}

const pixel = (p: RasterPicture<TerrarumDocument>, x: number, y: number) => [
  ...p.rgba.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4),
];

const opaque = (rgb: [number, number, number]) => [...rgb, 255];
const half = (rgb: [number, number, number]) => [rgb[0] >> 1, rgb[1] >> 1, rgb[2] >> 1, 255];

/** A little-endian TEMD world of these tiles (wall 0 everywhere unless given). */
function temdWorld(width: number, height: number, terrain: number[], wall: number[] = [], spawn = [1, 0]): TemdWorld {
  const n = width * height;
  return {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 3,
    reserved: 0,
    width,
    height,
    spawnX: spawn[0]!,
    spawnY: spawn[1]!,
    terrain: Uint16Array.from({ length: n }, (_, i) => terrain[i] ?? 0),
    wall: Uint16Array.from({ length: n }, (_, i) => wall[i] ?? 0),
  };
}

describe('the palette', () => {
  it('is a fixed function of the tile: FNV-1a bytes mapped into 48…223', () => {
    expect(tileColour('basegame:32')).toEqual(tileColour('basegame:32'));
    // FNV-1a of "1" is 0x340ca71c: bytes 0x1c, 0xa7, 0x0c → 48 + (b % 176).
    expect(tileColour('1')).toEqual([76, 215, 60]);
    expect(tileColour('basegame:32')).not.toEqual(tileColour('basegame:33'));
    for (const key of ['0', '1', '4095', 'basegame:16'])
      expect(tileColour(key).every((c) => c >= 48 && c <= 223)).toBe(true);
  });
});

describe('a TEMD world', () => {
  // 4×2: stone (1) on the bottom row, a wall tile (7) behind air at (1, 0), sky at (0, 0).
  const world = temdWorld(4, 2, [0, 0, 0, 0, 1, 1, 2, 1], [0, 7, 0, 0, 0, 0, 0, 0]);

  it('draws one pixel per tile: terrain, the wall at half brightness behind air, the sky', () => {
    const doc = decodeDoc(encodeOrThrow(temdFile, { gzip: false, world }));
    expect(worldTilesView.available(doc)).toBe(true);
    const picture = draw(doc);
    expect([picture.width, picture.height, picture.rgba.length]).toEqual([4, 2, 32]);
    expect(pixel(picture, 0, 0)).toEqual([...SKY_COLOUR]);
    expect(pixel(picture, 1, 0)).toEqual(half(tileColour('7')));
    expect(pixel(picture, 0, 1)).toEqual(opaque(tileColour('1')));
    expect(pixel(picture, 2, 1)).toEqual(opaque(tileColour('2')));
    // A small world starts zoomed (at most 8×); its regions are the terrain and the spawn point.
    expect(picture.zoom).toBe(8);
    expect(picture.regions).toEqual([
      { x: 0, y: 0, width: 4, height: 2, label: 'TEMD world 4×2', path: 'temd.world.terrain' },
      { x: 1, y: 0, width: 1, height: 1, label: 'Spawn point (1, 0)', path: 'temd.world.spawnX' },
    ]);
  });

  it('reads a gzipped TEMD through its kept value', () => {
    const doc = decodeDoc(encodeOrThrow(temdFile, { gzip: true, world: { value: world } }));
    const picture = draw(doc);
    expect(pixel(picture, 0, 1)).toEqual(opaque(tileColour('1')));
    expect(picture.regions?.[0]?.path).toBe('temd.world.value.terrain');
  });

  it("draws a save's worldinfo1; a save whose worldinfo1 is no TEMD world has no view", () => {
    const save = { ...ourSave(), worldinfo1: encodeOrThrow(temdFile, { gzip: false, world }) };
    const doc: TerrarumDocument = { kind: 'save', save };
    expect(viewsOf(format, doc).map((v) => v.id)).toEqual(['world-tiles']);
    const picture = draw(doc);
    expect(pixel(picture, 2, 1)).toEqual(opaque(tileColour('2')));
    expect(picture.regions?.[0]?.path).toBe('save.worldinfo1');
    const junk: TerrarumDocument = { kind: 'save', save: ourSave() };
    expect(worldTilesView.available(junk)).toBe(false);
    expect(viewsOf(format, junk)).toEqual([]);
    expect(() => worldTilesView.render(junk)).toThrow(RangeError);
  });

  it('refuses a world whose layers do not hold width × height tiles', () => {
    const short = { ...world, width: 1 << 20, height: 1 << 20 };
    const doc: TerrarumDocument = { kind: 'temd', temd: { gzip: false, world: short } };
    expect(worldTilesView.available(doc)).toBe(false);
    expect(() => worldTilesView.render(doc)).toThrow(RangeError);
  });

  it('samples every n-th tile of a world wider than the bound: the picture stays within it', () => {
    const width = MAX_TILE_PICTURE_SIDE * 10; // 40,960 × 2: every 10th tile
    const terrain = Array.from({ length: width * 2 }, (_, i) => (i % width) % 7);
    const doc: TerrarumDocument = { kind: 'temd', temd: { gzip: false, world: temdWorld(width, 2, terrain) } };
    const picture = draw(doc);
    expect([picture.width, picture.height, picture.zoom]).toEqual([MAX_TILE_PICTURE_SIDE, 1, 1]);
    expect(picture.rgba.length).toBe(MAX_TILE_PICTURE_SIDE * 4);
    // Pixel 3 shows tile 30 (30 % 7 = 2); pixel 0 tile 0 (air, so sky).
    expect(pixel(picture, 3, 0)).toEqual(opaque(tileColour('2')));
    expect(pixel(picture, 0, 0)).toEqual([...SKY_COLOUR]);
    // A 4097-tile side takes every 2nd tile: 2049 pixels.
    const odd = temdWorld(MAX_TILE_PICTURE_SIDE + 1, 2, []);
    expect(draw({ kind: 'temd', temd: { gzip: false, world: odd } }).width).toBe(2049);
  });
});

withDemo('the real JSON-era world (demoworld, 2021)', () => {
  // Decoded once, when a test first runs (a skipped block's body still runs, without the corpus).
  let doc: TerrarumDocument;
  let world: JsonWorld | undefined;
  let picture: RasterPicture<TerrarumDocument>;
  beforeAll(() => {
    doc = decodeDoc(demo!);
    world = doc.kind === 'world' ? doc.world : undefined;
    picture = draw(doc);
  });

  it('is 2400×1280 pixels at zoom 1, with its spawn point', () => {
    expect([picture.width, picture.height, picture.zoom]).toEqual([2400, 1280, 1]);
    expect(picture.regions).toEqual([
      { x: 0, y: 0, width: 2400, height: 1280, label: 'JSON world 2400×1280', path: 'world.text' },
      { x: 1200, y: 200, width: 1, height: 1, label: 'Spawn point (1200, 200)', path: 'world.text' },
    ]);
  });

  it('colours known tiles by name: sky, stone, a wall behind air', () => {
    const terrain = layerOf(world!, 'layerTerrain');
    const names = worldFields(world!).tileNumberToNameMap as Record<string, string>;
    // Tile 64 is named basegame:0 (air) in this world: the sky at the top.
    expect(terrain.tiles[0]).toBe(64);
    expect(pixel(picture, 0, 0)).toEqual([...SKY_COLOUR]);
    // At (1200, 300) tile 347, basegame:32.
    expect(terrain.tiles[300 * 2400 + 1200]).toBe(347);
    expect(names['347']).toBe('basegame:32');
    expect(pixel(picture, 1200, 300)).toEqual(opaque(tileColour('basegame:32')));
    // At (1200, 600) a cave: air in front of basegame:16 (tile 65).
    expect(pixel(picture, 1200, 600)).toEqual(half(tileColour('basegame:16')));
  });

  it('is pure: drawn twice, the same picture', () => {
    const again = draw(doc);
    // Compared as bytes (a deep equality over 12 million elements is slow).
    expect(again.rgba.length).toBe(picture.rgba.length);
    expect(Buffer.compare(Buffer.from(again.rgba.buffer), Buffer.from(picture.rgba.buffer))).toBe(0);
    expect(again.regions).toEqual(picture.regions);
  });
});

withDisk('a disk without a save', () => {
  it('has no world to draw', () => {
    const doc = decodeDoc(disk!);
    expect(doc.kind).toBe('disk');
    expect(worldTilesView.available(doc)).toBe(false);
    expect(viewsOf(format, doc)).toEqual([]);
  });
});
