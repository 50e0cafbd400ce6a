/**
 * Messages between the studio page and its decode worker. The worker holds the save, its document and
 * the edit history; the page asks for what it shows (rows of the tree, a picture, spans) so a save of
 * any size never crosses to the main thread whole.
 *
 * @module
 */

/** What input fits a leaf (see leaf.ts). */
export type LeafKind =
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'bigint'; readonly min: string; readonly max: string }
  | { readonly kind: 'float' }
  | { readonly kind: 'enum'; readonly names: ReadonlyArray<string> }
  | { readonly kind: 'flag' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'text'; readonly encoding?: string; readonly maxBytes?: number }
  | { readonly kind: 'bytes'; readonly size?: number }
  | { readonly kind: 'json' }
  | { readonly kind: 'readonly'; readonly reason: string };

/** What can be done to an element of an array (the codec decides whether the result is valid). */
export type ElementOp = 'up' | 'down' | 'duplicate' | 'remove';

/** One visible row of the document tree. */
export interface Row {
  /** The document path as the CLI prints it (`formatPath`). */
  readonly path: string;
  readonly depth: number;
  /** The key shown (`name`, `[3]`, `document`). */
  readonly key: string;
  /** The value (leaves) or its size (`{4}`, `[12]`). */
  readonly text: string;
  /** Whether the row has children, and whether they are shown. */
  readonly branch: boolean;
  readonly open: boolean;
  /** Whether the value differs from the save as opened. */
  readonly changed: boolean;
}

/** A span of a field's bytes in one byte pane (0: the file; 1…: decompressed layers). */
export interface Span {
  readonly layer: number;
  readonly start: number;
  readonly end: number;
}

/** A picture as sent to the page: a view's picture with each edit replaced by its label. */
export interface Target {
  readonly label?: string;
  readonly path?: string;
  readonly edits?: ReadonlyArray<string>;
}
export type WirePicture =
  | {
      readonly kind: 'raster';
      readonly width: number;
      readonly height: number;
      /** The pixels as a bitmap made in the worker (handed over, not copied; the page draws as many as it shows). */
      readonly bitmap: ImageBitmap;
      readonly zoom?: number;
      readonly regions: ReadonlyArray<Target & { x: number; y: number; width: number; height: number }>;
    }
  | {
      readonly kind: 'vector';
      readonly width: number;
      readonly height: number;
      readonly background?: string;
      readonly marks: ReadonlyArray<Target & Record<string, unknown>>;
    }
  | {
      readonly kind: 'table';
      readonly columns: ReadonlyArray<string>;
      readonly rows: ReadonlyArray<Target & { cells: ReadonlyArray<string> }>;
    };

/** One line of the changes panel, as `savekit diff` prints it. */
export interface Change {
  readonly path: string;
  readonly kind: 'changed' | 'added' | 'removed';
  readonly text: string;
}

/** The page's requests. */
export type Request =
  | { readonly type: 'plugin'; readonly url: string }
  | { readonly type: 'open'; readonly name: string; readonly bytes: ArrayBuffer }
  | { readonly type: 'openFile'; readonly file: File }
  | { readonly type: 'rows'; readonly from: number; readonly count: number }
  | { readonly type: 'toggle'; readonly path: string }
  | { readonly type: 'select'; readonly path: string }
  | { readonly type: 'selectByte'; readonly layer: number; readonly offset: number }
  | { readonly type: 'selectRow'; readonly index: number }
  | { readonly type: 'element'; readonly path: string; readonly op: ElementOp }
  | { readonly type: 'set'; readonly path: string; readonly value: string }
  | { readonly type: 'viewEdit'; readonly view: string; readonly target: number; readonly edit: number }
  /** `seq` numbers the page's requests for pictures: only the answer to the latest one is drawn. */
  | { readonly type: 'view'; readonly id: string; readonly seq: number }
  | { readonly type: 'undo' }
  | { readonly type: 'redo' }
  | { readonly type: 'save' };

/** The state after an open or an edit. */
export interface DocState {
  readonly total: number;
  readonly changes: ReadonlyArray<Change>;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly views: ReadonlyArray<{ id: string; title: string }>;
}

/** The worker's answers (`id` echoes the request's). */
export type Reply =
  | { readonly type: 'progress'; readonly phase: string; readonly fraction: number }
  | { readonly type: 'formats'; readonly formats: ReadonlyArray<{ id: string; title: string }> }
  | {
      readonly type: 'opened';
      readonly name: string;
      readonly format: { id: string; title: string };
      readonly warnings: ReadonlyArray<string>;
      readonly summary: ReadonlyArray<string>;
      /** Set when the field map is not whole (a save with more fields than the studio maps): why, and what is mapped. */
      readonly mapNote?: string;
      readonly layers: ReadonlyArray<Uint8Array>;
      readonly state: DocState;
    }
  | { readonly type: 'rows'; readonly from: number; readonly rows: ReadonlyArray<Row>; readonly total: number }
  | {
      readonly type: 'selected';
      readonly path: string;
      readonly index: number;
      readonly spans: ReadonlyArray<Span>;
      readonly leaf?: LeafKind;
      readonly value?: string;
      readonly total: number;
      /** Set when the node is an element of an array: its index and the array's length. */
      readonly element?: { readonly index: number; readonly length: number };
    }
  | { readonly type: 'state'; readonly state: DocState; readonly error?: string; readonly path?: string }
  | {
      readonly type: 'picture';
      readonly id: string;
      /** The request's `seq`. */
      readonly seq: number;
      readonly title: string;
      readonly picture: WirePicture;
    }
  | {
      readonly type: 'saved';
      readonly bytes: Uint8Array;
      readonly identical: boolean;
      readonly verified: boolean;
      readonly message: string;
    }
  | { readonly type: 'error'; readonly message: string };
