// The thumbnail view (the format's `views` hook): the `View` lump's RGB 5:5:5 pixels as RGBA, known
// pixels checked in a synthetic thumbnail and in a golden save given one.
import { decodeOrThrow, encodeOrThrow, viewsOf, type RasterPicture } from '@savekit/core';
import { createSave, edgeSave, format, globEntries, thumbnailView, type EdgeSave, type Thumbnail } from '@savekit/edge';
import { goldensFor } from './corpus';

/** A `width × height` thumbnail whose pixel at (x, y) is `pixel(x, y)` (a u16, RGB 5:5:5). */
function thumb(width: number, height: number, pixel: (x: number, y: number) => number): Thumbnail {
  const pixels = new Uint8Array(width * height * 2);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = pixel(x, y);
      pixels[(y * width + x) * 2] = p & 0xff;
      pixels[(y * width + x) * 2 + 1] = p >> 8;
    }
  return { width, height, pixels };
}

/** The RGBA of pixel (x, y) of a raster picture. */
const at = (picture: RasterPicture<EdgeSave>, x: number, y: number) => [
  ...picture.rgba.subarray((y * picture.width + x) * 4, (y * picture.width + x) * 4 + 4),
];

/** A test pattern: red, green and blue primaries, a grey with the unused top bit, and a gradient. */
const pattern = (x: number, y: number): number => {
  if (x === 0 && y === 0) return 0x7c00;
  if (x === 1 && y === 0) return 0x03e0;
  if (x === 2 && y === 0) return 0x001f;
  if (x === 159 && y === 99) return 0x8000 | (16 << 10) | (16 << 5) | 16;
  return ((x & 31) << 10) | ((y & 31) << 5) | ((x + y) & 31);
};

/** The save with a `View` lump added at the end of its `Glob`. */
function withView(save: EdgeSave, picture: Thumbnail): EdgeSave {
  globEntries(save).push({ id: 'View', body: picture });
  return save;
}

const render = (save: EdgeSave) => thumbnailView.render(save) as RasterPicture<EdgeSave>;

test('the edge format offers the thumbnail view, and only for a save with a View lump', () => {
  expect(format.views).toContain(thumbnailView);
  const plain = createSave();
  expect(thumbnailView.available(plain)).toBe(false);
  expect(viewsOf(format, plain)).toEqual([]);
  expect(() => thumbnailView.render(plain)).toThrow(RangeError);
  const shown = withView(
    createSave(),
    thumb(4, 2, () => 0),
  );
  expect(viewsOf(format, shown)).toEqual([thumbnailView]);
});

test('a synthetic 160×100 thumbnail: RGBA at known pixels, opaque, one region selecting the lump', () => {
  // Through the codec: the picture is drawn from what a reader of the file sees.
  const bytes = encodeOrThrow(edgeSave, withView(createSave(), thumb(160, 100, pattern)));
  const save = decodeOrThrow(edgeSave, bytes);
  const picture = render(save);
  expect(picture).toMatchObject({ kind: 'raster', width: 160, height: 100 });
  expect(picture.rgba).toHaveLength(160 * 100 * 4);
  expect(at(picture, 0, 0)).toEqual([255, 0, 0, 255]);
  expect(at(picture, 1, 0)).toEqual([0, 255, 0, 255]);
  expect(at(picture, 2, 0)).toEqual([0, 0, 255, 255]);
  // 5-bit 16 widens to 0x84 (the top bits repeated below): the unused top bit is not drawn.
  expect(at(picture, 159, 99)).toEqual([0x84, 0x84, 0x84, 255]);
  // (37, 10): red 5, green 10, blue 47 & 31 = 15.
  expect(at(picture, 37, 10)).toEqual([(5 << 3) | 1, (10 << 3) | 2, (15 << 3) | 3, 255]);
  const globAt = save.chunks.findIndex((c) => c.id === 'Glob');
  const viewAt = globEntries(save).findIndex((e) => e.id === 'View');
  expect(picture.regions).toEqual([
    {
      x: 0,
      y: 0,
      width: 160,
      height: 100,
      label: 'thumbnail 160×100',
      path: `chunks[${globAt}].body.value[${viewAt}].body`,
    },
  ]);
  // Pure: the same document draws the same picture.
  expect(render(save).rgba).toEqual(picture.rgba);
});

test('a thumbnail whose pixels do not fill its size, or of no size, is not available (and does not throw)', () => {
  const short = withView(createSave(), { width: 4, height: 4, pixels: new Uint8Array(6) });
  expect(thumbnailView.available(short)).toBe(false);
  expect(
    thumbnailView.available(
      withView(
        createSave(),
        thumb(0, 0, () => 0),
      ),
    ),
  ).toBe(false);
});

const { files, maybe } = goldensFor('the EDGE thumbnail view');

maybe('the thumbnail view of golden saves', () => {
  test.each(files.map((f) => [f.name, f] as const))(
    '%s: no View lump (EDGE never wrote one), so no thumbnail',
    (_, f) => {
      expect(thumbnailView.available(decodeOrThrow(edgeSave, f.bytes))).toBe(false);
    },
  );

  test('a golden engine-layout save given a thumbnail shows its pixels', () => {
    const golden = files.find((f) => f.name.includes('engine_layout'));
    expect(golden).toBeDefined();
    const save = withView(decodeOrThrow(edgeSave, golden!.bytes), thumb(160, 100, pattern));
    const reread = decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, save));
    expect(thumbnailView.available(reread)).toBe(true);
    const picture = render(reread);
    expect(at(picture, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(at(picture, 2, 0)).toEqual([0, 0, 255, 255]);
    expect(at(picture, 100, 50)).toEqual([(4 << 3) | 1, (18 << 3) | 4, (22 << 3) | 5, 255]);
  });
});
