/**
 * Pictures of a document: the optional `views` hook of the {@link SaveFormat} contract. A format
 * offers views where a person would rather look than read (a thumbnail, a star map, a world's tiles);
 * tools such as the studio draw them, and may offer the edits a view names. Views are pure functions of
 * the document: no DOM, no canvas, no Node built-ins, so they run in a browser, a worker and in tests.
 *
 * @module
 */
import type { SaveFormat } from './format.js';

/**
 * A document path as `dump`, errors and diffs show it (`chunks[3].body.stars[12]`): what a picture's
 * mark or region selects when clicked.
 */
export type DocumentPath = string;

/**
 * An edit a view offers (clicking a star to mark it visited). It returns a new document and leaves
 * its argument untouched; a tool re-encodes the result, so an invalid edit is refused by the codec
 * the same way as an edit typed by hand. It throws a `RangeError` when it cannot apply.
 */
export interface ViewEdit<Doc> {
  /** What the edit does, for a button or menu (`Mark Sol visited`). */
  readonly label: string;
  /** The edited document. */
  apply(doc: Doc): Doc;
}

/**
 * A part of a picture a person can point at: its label, the document path it shows, and the edits it
 * offers.
 */
export interface ViewTarget<Doc> {
  /** A short label for a tooltip or list (`Sol (visited)`). */
  readonly label?: string;
  /** The document path selected when the part is clicked. */
  readonly path?: DocumentPath;
  /** Edits offered on the part. */
  readonly edits?: ReadonlyArray<ViewEdit<Doc>>;
}

/** A rectangle of a raster picture, in its pixels, that selects a path or offers edits. */
export interface ViewRegion<Doc> extends ViewTarget<Doc> {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * A picture made of pixels: `width × height` RGBA bytes, row by row from the top left (the layout of
 * the browser's `ImageData`). Tools scale it with nearest-neighbour filtering (`zoom`).
 */
export interface RasterPicture<Doc> {
  readonly kind: 'raster';
  readonly width: number;
  readonly height: number;
  /** `width * height * 4` bytes, R G B A per pixel. */
  readonly rgba: Uint8ClampedArray;
  /** The zoom a tool starts at (default 1); a 16×16-pixel tile map may start at 4. */
  readonly zoom?: number;
  /** Parts of the picture a person can point at. */
  readonly regions?: ReadonlyArray<ViewRegion<Doc>>;
}

/** A shape of a {@link VectorPicture}, in the picture's own coordinates (y grows downwards). */
export type ViewMark<Doc> = ViewTarget<Doc> & {
  /** CSS colour of the fill (default none). */
  readonly fill?: string;
  /** CSS colour of the outline (default none). */
  readonly stroke?: string;
} & (
    | { readonly shape: 'circle'; readonly x: number; readonly y: number; readonly r: number }
    | {
        readonly shape: 'rect';
        readonly x: number;
        readonly y: number;
        readonly width: number;
        readonly height: number;
      }
    | { readonly shape: 'line'; readonly x: number; readonly y: number; readonly x2: number; readonly y2: number }
    | { readonly shape: 'text'; readonly x: number; readonly y: number; readonly text: string; readonly size?: number }
  );

/** A picture made of shapes (a star map): tools draw it as SVG. */
export interface VectorPicture<Doc> {
  readonly kind: 'vector';
  readonly width: number;
  readonly height: number;
  /** CSS colour behind the marks (default none). */
  readonly background?: string;
  readonly marks: ReadonlyArray<ViewMark<Doc>>;
}

/** A table (an escort roster): one row per item, each row may select a path and offer edits. */
export interface TablePicture<Doc> {
  readonly kind: 'table';
  readonly columns: ReadonlyArray<string>;
  readonly rows: ReadonlyArray<ViewTarget<Doc> & { readonly cells: ReadonlyArray<string> }>;
}

/** What a view draws. */
export type ViewPicture<Doc> = RasterPicture<Doc> | VectorPicture<Doc> | TablePicture<Doc>;

/**
 * One picture a format can draw of its documents.
 *
 * @example
 * ```ts
 * import type { SaveView } from '@savekit/core';
 * const sizeView: SaveView<{ width: number; height: number }> = {
 *   id: 'size',
 *   title: 'Size',
 *   available: () => true,
 *   render: (doc) => ({ kind: 'table', columns: ['width', 'height'], rows: [{ cells: [String(doc.width), String(doc.height)], path: 'width' }] }),
 * };
 * ```
 */
export interface SaveView<Doc> {
  /** A short, stable identifier, unique within its format (`thumbnail`, `star-map`). */
  readonly id: string;
  /** A readable title (`Thumbnail`). */
  readonly title: string;
  /** Whether this document has anything to draw (an EDGE save without a `View` chunk has no thumbnail). Must not throw. */
  available(doc: Doc): boolean;
  /** Draws the document. Pure: the same document gives the same picture. Throws only for a document `available` refused. */
  render(doc: Doc): ViewPicture<Doc>;
}

/** The views a format offers (none when it has no `views` hook), those `available` for a document first filtered. */
export function viewsOf<Doc>(format: SaveFormat<Doc>, doc?: Doc): ReadonlyArray<SaveView<Doc>> {
  const views = format.views ?? [];
  if (doc === undefined) return views;
  return views.filter((view) => {
    try {
      return view.available(doc);
    } catch {
      return false; // `available` must not throw; a view that does is not offered
    }
  });
}
