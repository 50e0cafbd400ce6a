/**
 * Pictures of an EDGE save for tools (the `views` hook of the format contract): the `View` lump's
 * thumbnail as a raster.
 *
 * @module
 */
import { isRawChunk, type RasterPicture, type SaveView } from '@savekit/core';
import { globEntries } from './document.js';
import { isRawLump } from './glob.js';
import type { EdgeSave } from './save.js';
import { thumbnailToRgba } from './thumbnail.js';

/**
 * The thumbnail view (`thumbnail`): the `View` lump's RGB 5:5:5 pixels as RGBA, each 5-bit channel
 * widened to 8 bits as {@link thumbnailToRgba} does, alpha always 255 (the pixel format has no
 * transparency; the unused top bit is not drawn). Not available when the save has no `View` lump or
 * its pixels do not fill its width × height. The whole picture is one region selecting the lump.
 *
 * @example
 * ```ts
 * import { createSave, thumbnailView } from '@savekit/edge';
 * const save = createSave();
 * thumbnailView.available(save); // false: EDGE never wrote a View lump
 * ```
 */
export const thumbnailView: SaveView<EdgeSave> = {
  id: 'thumbnail',
  title: 'Thumbnail',
  available(save) {
    try {
      return pictureOf(save) !== undefined;
    } catch {
      return false;
    }
  },
  render(save) {
    const found = pictureOf(save);
    if (found === undefined) throw new RangeError('the save has no thumbnail (no View lump in its Glob)');
    return found;
  },
};

function pictureOf(save: EdgeSave): RasterPicture<EdgeSave> | undefined {
  // The first decoded `Glob` and its first decoded `View` (what `thumbnailOf` reads), and their
  // places: the document path a click on the picture selects.
  const top = save.chunks.findIndex((c) => c.id === 'Glob' && !isRawChunk(c));
  const entries = globEntries(save);
  const at = entries.findIndex((e) => e.id === 'View' && !isRawChunk(e));
  const lump = entries[at];
  if (top < 0 || lump === undefined || lump.id !== 'View' || isRawChunk(lump)) return undefined;
  const path = `chunks[${top}].body.value[${at}].body`;
  const picture = lump.body;
  if (isRawLump(picture)) return undefined; // a View lump that did not read is kept as bytes: nothing to draw
  if (picture.width <= 0 || picture.height <= 0 || picture.pixels.length !== picture.width * picture.height * 2)
    return undefined;
  const rgba = new Uint8ClampedArray(thumbnailToRgba(picture));
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  const { width, height } = picture;
  return {
    kind: 'raster',
    width,
    height,
    rgba,
    regions: [{ x: 0, y: 0, width, height, label: `thumbnail ${width}×${height}`, path }],
  };
}

/** Every view of an EDGE save: the thumbnail. */
export const edgeViews: ReadonlyArray<SaveView<EdgeSave>> = [thumbnailView];
