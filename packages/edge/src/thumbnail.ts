/**
 * The `View` lump: a thumbnail, `width` × `height` (160 × 100 by design) 16-bit RGB 5:5:5 pixels,
 * row-major. Decoded it is RGBA; nothing is lost going back, since each 5-bit channel is widened to 8
 * bits in a way that narrows back to the same 5 bits, and the unused top bit is kept.
 *
 * @module
 */
import { bytes, struct, type Codec } from '@savekit/core';
import { edgeInt } from './primitives.js';

/** The thumbnail as stored: its size and the pixels' little-endian bytes (2 per pixel). */
export interface Thumbnail {
  width: number;
  height: number;
  /** `width × height` pixels, 2 bytes each (u16 little-endian, RGB 5:5:5). */
  pixels: Uint8Array;
}

/** The width and height the design doc gives. */
export const THUMBNAIL_WIDTH = 160;
/** See {@link THUMBNAIL_WIDTH}. */
export const THUMBNAIL_HEIGHT = 100;

/** Most pixels a thumbnail may claim (a hostile size must not allocate gigabytes). */
const MAX_PIXELS = 4096 * 4096;

/** The pixels of a `width` × `height` thumbnail: 2 bytes each. */
function pixelsOf(width: number, height: number): Codec<Uint8Array> {
  if (width < 0 || height < 0 || width * height > MAX_PIXELS)
    throw new Error(`a ${width}×${height} thumbnail is not a size this reader accepts`);
  return bytes(width * height * 2);
}

/** The `View` lump: int width, int height, then the pixels. */
export const thumbnail: Codec<Thumbnail> = struct(
  {
    width: edgeInt,
    height: edgeInt,
    pixels: (p: { width: number; height: number }) => pixelsOf(p.width, p.height),
  },
  'thumbnail',
);

const widen = (c: number) => (c << 3) | (c >> 2);

/**
 * The thumbnail as RGBA bytes (4 per pixel). Alpha carries the unused top bit of each pixel
 * (255 when clear, 254 when set), so {@link thumbnailFromRgba} restores every stored bit.
 */
export function thumbnailToRgba(picture: Thumbnail): Uint8Array {
  const n = picture.width * picture.height;
  // An edited thumbnail may disagree with its size; short pixels would read as black.
  if (!Number.isInteger(n) || n < 0 || picture.pixels.length !== n * 2)
    throw new RangeError(`${picture.width}×${picture.height} pixels need ${n * 2} bytes, got ${picture.pixels.length}`);
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const p = picture.pixels[i * 2]! | (picture.pixels[i * 2 + 1]! << 8);
    out[i * 4] = widen((p >> 10) & 31);
    out[i * 4 + 1] = widen((p >> 5) & 31);
    out[i * 4 + 2] = widen(p & 31);
    out[i * 4 + 3] = p & 0x8000 ? 254 : 255;
  }
  return out;
}

/** A thumbnail from RGBA bytes: each channel narrowed to 5 bits (alpha 254 sets the top bit). */
export function thumbnailFromRgba(width: number, height: number, rgba: Uint8Array): Thumbnail {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0)
    throw new RangeError(`bad thumbnail size ${width}×${height}`);
  if (rgba.length !== width * height * 4)
    throw new RangeError(`${width}×${height} RGBA needs ${width * height * 4} bytes, got ${rgba.length}`);
  const n = width * height;
  const pixels = new Uint8Array(n * 2);
  for (let i = 0; i < n; i++) {
    const p =
      ((rgba[i * 4]! >> 3) << 10) |
      ((rgba[i * 4 + 1]! >> 3) << 5) |
      (rgba[i * 4 + 2]! >> 3) |
      (rgba[i * 4 + 3] === 254 ? 0x8000 : 0);
    pixels[i * 2] = p & 0xff;
    pixels[i * 2 + 1] = p >> 8;
  }
  return { width, height, pixels };
}
