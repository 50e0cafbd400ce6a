/**
 * The studio's worker: sniffs, decodes, maps fields to bytes, edits, re-encodes and verifies, off the
 * page's thread. It keeps the decoded document (never its whole JSON form, which for a 50 MB save is
 * many times the file): an edit replaces the nodes on one path (the rest is shared with the save as
 * opened) and is encoded by the codec before it is accepted; the changes are found by walking only
 * where the edited document and the opened one stop sharing nodes.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  type AnyCodec,
  type AnySaveFormat,
  type ByteLayer,
  diffDocuments,
  documentPath,
  type FieldSpan,
  FormatRegistry,
  formatPath,
  formatsOf,
  formatWarning,
  type SaveView,
  viewsOf,
  type Warning,
} from '@savekit/core';
import { documentKeys, isDocumentBranch, Reader } from '@savekit/core/kit';
import { format as edge } from '@savekit/edge';
import { format as terrarum } from '@savekit/terrarum';
import { format as uqm } from '@savekit/uqm';
import { format as zippy } from '@savekit/zippy';
import { leafKind, leafText, parseLeaf } from './leaf.js';
import type { Change, DocState, Reply, Request, Row, Span, Target, WirePicture } from './protocol.js';
import { parsePath, type Segments } from './paths.js';
import { at, sameValue, setIn, showValue } from './values.js';

const registry = new FormatRegistry([edge, uqm, zippy, terrarum]);

/** The open save. */
interface Open {
  name: string;
  format: AnySaveFormat;
  bytes: Uint8Array;
  /** Whether the save opened with a bad checksum (a warning): saving it unchanged repairs it. */
  warned: boolean;
  original: unknown;
  value: unknown;
  undo: unknown[];
  redo: unknown[];
  spans: FieldSpan[];
  /** Span paths as formatted, parallel to `spans`. */
  spanPaths: string[];
  expanded: Set<string>;
  rows: Array<{ path: Segments; key: string; depth: number }>;
  pictures: Map<string, unknown>;
}
let open: Open | undefined;

const post = (reply: Reply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(reply, transfer);
const progress = (phase: string, fraction: number) => post({ type: 'progress', phase, fraction });

/** The transform layers reachable from a codec (their decodes are recorded to show decompressed bytes). */
function layersOf(root: AnyCodec): ByteLayer[] {
  const out: ByteLayer[] = [];
  const seen = new Set<AnyCodec>([root]);
  const stack = [root];
  while (stack.length > 0 && seen.size < 100_000) {
    const codec = stack.pop()!;
    const def = codec.def as { type: string; layers?: ByteLayer[] };
    if (def.type === 'transform' && def.layers) out.push(...def.layers);
    for (const child of codec.children ?? []) {
      if (!seen.has(child.codec)) {
        seen.add(child.codec);
        stack.push(child.codec);
      }
    }
  }
  return out;
}

/** Layer outputs, in the order a traced decode numbers them (1, 2, …), while `recording` is set. */
let recording: Uint8Array[] | undefined;
/** The same, seen where every layer's buffer becomes a reader (formats built on this page's core). */
let recordingReaders: Uint8Array[] | undefined;
{
  // Each transform layer's output is read through `layerReader`, which numbers it: recording its
  // argument gives the byte pane of every layer, whatever codec (a format's own included) opened it.
  const layerReader = Reader.prototype.layerReader;
  Reader.prototype.layerReader = function (this: Reader, bytes: Uint8Array) {
    recordingReaders?.push(bytes);
    return layerReader.call(this, bytes);
  };
}
const wrapped = new WeakSet<ByteLayer>();
function recordLayers(format: AnySaveFormat): void {
  const codec = (format as { codec?: AnyCodec }).codec;
  if (codec === undefined) return;
  for (const layer of layersOf(codec)) {
    if (wrapped.has(layer) || Object.isFrozen(layer)) continue;
    wrapped.add(layer);
    const decode = layer.decode.bind(layer);
    (layer as { decode: ByteLayer['decode'] }).decode = (bytes, limits) => {
      const out = decode(bytes, limits);
      recording?.push(out);
      return out;
    };
  }
}

const keyOf = (segment: string | number) => (typeof segment === 'number' ? `[${segment}]` : segment);

/** The visible rows: every node whose ancestors are all expanded, in document order (iteratively). */
function flatten(o: Open): void {
  const rows: Open['rows'] = [];
  const stack: Array<{ path: Segments; depth: number }> = [{ path: [], depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop()!;
    rows.push({ path, depth, key: path.length === 0 ? 'document' : keyOf(path[path.length - 1]!) });
    const node = at(o.value, path);
    if (!isDocumentBranch(node) || !o.expanded.has(formatPath(path))) continue;
    const keys = documentKeys(node);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ path: [...path, keys[i]!], depth: depth + 1 });
  }
  o.rows = rows;
}

function shortText(node: unknown): string {
  if (Array.isArray(node)) return `[${node.length}]`;
  if (node instanceof Map) return `{${node.size}}`;
  if (isDocumentBranch(node)) return `{${documentKeys(node).length}}`;
  return showValue(node, 120);
}

function row(o: Open, index: number): Row {
  const r = o.rows[index]!;
  const node = at(o.value, r.path);
  const path = formatPath(r.path);
  return {
    path,
    depth: r.depth,
    key: r.key,
    text: shortText(node),
    branch: isDocumentBranch(node),
    open: o.expanded.has(path),
    changed: !Object.is(node, at(o.original, r.path)),
  };
}

/** Change lines as `savekit diff` prints them. */
function changes(o: Open): Change[] {
  if (o.value === o.original) return [];
  const show = (v: unknown) => showValue(v, 80);
  return diffDocuments(o.original, o.value).map((d) => ({
    path: d.path,
    kind: d.kind,
    text:
      d.kind === 'changed'
        ? `~ ${d.path}: ${show(d.before)} → ${show(d.after)}`
        : d.kind === 'added'
          ? `+ ${d.path}: ${show(d.after)}`
          : `- ${d.path}: ${show(d.before)}`,
  }));
}

function state(o: Open): DocState {
  return {
    total: o.rows.length,
    changes: changes(o),
    canUndo: o.undo.length > 0,
    canRedo: o.redo.length > 0,
    views: viewsOf(o.format, o.value).map((v) => ({ id: v.id, title: v.title })),
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Encodes a document; its bytes, or the EncodeError's message. */
function encode(format: AnySaveFormat, value: unknown): { bytes: Uint8Array } | { error: string } {
  try {
    const result = format.encode(value);
    if (E.isLeft(result)) return { error: result.left.message };
    if (!(result.right instanceof Uint8Array)) return { error: 'the format wrote a folder, not a file' };
    return { bytes: result.right };
  } catch (error) {
    return { error: `the format failed to encode: ${message(error)}` };
  }
}

/** Accepts a new document if its codec encodes it; else the EncodeError's message. */
function commit(o: Open, value: unknown): string | undefined {
  const encoded = encode(o.format, value);
  if ('error' in encoded) return encoded.error;
  o.undo.push(o.value);
  o.redo = [];
  o.value = value;
  return undefined;
}

/** Spans of the field at a path: its own, else those of what it holds (one range per pane), else its nearest ancestor's. */
function spansOf(o: Open, path: string): Span[] {
  const own = o.spans.filter((_, i) => o.spanPaths[i] === path);
  if (own.length > 0) return own.map(({ layer, start, end }) => ({ layer, start, end }));
  const inside = new Map<number, Span>();
  const prefix = path === '(root)' ? '' : path;
  o.spans.forEach((s, i) => {
    const p = o.spanPaths[i]!;
    if (prefix === '' || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`)) {
      const had = inside.get(s.layer);
      inside.set(s.layer, {
        layer: s.layer,
        start: Math.min(had?.start ?? s.start, s.start),
        end: Math.max(had?.end ?? s.end, s.end),
      });
    }
  });
  if (inside.size > 0) return [...inside.values()];
  const segments = parsePath(path);
  for (let n = segments.length - 1; n >= 0; n--) {
    const up = formatPath(segments.slice(0, n));
    const found = o.spans.filter((_, i) => o.spanPaths[i] === up);
    if (found.length > 0) return found.map(({ layer, start, end }) => ({ layer, start, end }));
  }
  return [];
}

function select(o: Open, path: string): void {
  const segments = parsePath(path);
  for (let n = 0; n < segments.length; n++) o.expanded.add(formatPath(segments.slice(0, n)));
  flatten(o);
  const index = o.rows.findIndex((r) => formatPath(r.path) === path);
  const node = at(o.value, segments);
  const leaf = isDocumentBranch(node) || index < 0 ? undefined : leafKind(o.format, segments, node);
  const parent = segments.length > 0 ? at(o.value, segments.slice(0, -1)) : undefined;
  const last = segments[segments.length - 1];
  post({
    type: 'selected',
    path,
    index,
    spans: spansOf(o, path),
    total: o.rows.length,
    ...(leaf === undefined ? {} : { leaf, value: leafText(leaf, node) }),
    ...(Array.isArray(parent) && typeof last === 'number' && index >= 0
      ? { element: { index: last, length: parent.length } }
      : {}),
  });
}

/** A view's picture for the page: functions (edits) replaced by their labels, pixels made a bitmap. */
async function wire(picture: ReturnType<SaveView<unknown>['render']>): Promise<WirePicture> {
  const target = (t: { label?: string; path?: string; edits?: ReadonlyArray<{ label: string }> }): Target => ({
    ...(t.label === undefined ? {} : { label: t.label }),
    ...(t.path === undefined ? {} : { path: t.path }),
    ...(t.edits === undefined ? {} : { edits: t.edits.map((e) => e.label) }),
  });
  if (picture.kind === 'raster')
    return {
      kind: 'raster',
      width: picture.width,
      height: picture.height,
      // A world's tiles can be tens of megabytes of pixels: a bitmap is handed over, not copied.
      bitmap: await createImageBitmap(
        new ImageData(new Uint8ClampedArray(picture.rgba), picture.width, picture.height),
      ),
      ...(picture.zoom === undefined ? {} : { zoom: picture.zoom }),
      regions: (picture.regions ?? []).map((r) => ({
        ...target(r),
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
      })),
    };
  if (picture.kind === 'vector')
    return {
      kind: 'vector',
      width: picture.width,
      height: picture.height,
      ...(picture.background === undefined ? {} : { background: picture.background }),
      marks: picture.marks.map((m) => {
        const { edits: _e, ...rest } = m as unknown as Record<string, unknown>;
        return { ...rest, ...target(m) };
      }),
    };
  return { kind: 'table', columns: picture.columns, rows: picture.rows.map((r) => ({ ...target(r), cells: r.cells })) };
}

function targetsOf(picture: unknown): ReadonlyArray<{ edits?: ReadonlyArray<{ apply(doc: unknown): unknown }> }> {
  const p = picture as { kind: string; regions?: []; marks?: []; rows?: [] };
  return (p.kind === 'raster' ? p.regions : p.kind === 'vector' ? p.marks : p.rows) ?? [];
}

/** A picked or dropped file's bytes, read here (not on the page's thread) with the progress shown. */
async function readFile(file: File): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let at = 0;
  let shown = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || value === undefined) break;
    bytes.set(value.subarray(0, bytes.length - at), at);
    at += value.length;
    // Reading is the first tenth of the bar; a message per 2% keeps the page's thread idle.
    if (at / file.size - shown >= 0.02) {
      shown = at / file.size;
      progress('reading', 0.05 * shown);
    }
  }
  return at === bytes.length ? bytes : bytes.subarray(0, Math.min(at, bytes.length));
}

/**
 * The most field spans the studio keeps: each, with its formatted path, costs the worker about 700
 * bytes, so a save with millions of fields (an EDGE level's every object, decompressed) would take
 * gigabytes and minutes. Past it the studio maps the file's own bytes only, and past that none.
 */
const MAX_SPANS = 250_000;

/** Whether saving writes what a warning is about repaired: a checksum, which encoding computes afresh. */
const repairedOnSave = (warning: Warning) => warning.code === 'checksum-mismatch';

/** Whether `error` is a core's `BudgetError` for spans (by its fields: a plugin bundles a core of its own). */
function isSpanBudget(error: unknown): boolean {
  const e = error as { code?: unknown; budget?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === 'budget-exceeded' && e.budget === 'spans';
}

/**
 * The save's field map, at most {@link MAX_SPANS} spans: every field's, else the file's own (a
 * compressed chunk one span, its inside not mapped), else none; a note says which when not every
 * field's. With the map, the output of each byte layer the mapping decoded (its panes).
 */
function mapFields(
  format: AnySaveFormat,
  bytes: Uint8Array,
): { spans: FieldSpan[]; layers: Uint8Array[]; mapNote?: string } {
  const limit = MAX_SPANS.toLocaleString('en');
  const attempt = (layered: boolean) => {
    recording = [];
    recordingReaders = [];
    try {
      const spans = [...(format.fieldMap?.(bytes, { layers: layered, maxSpans: MAX_SPANS }) ?? [])];
      // A plugin bundles a core of its own: its layers are found from its codec instead.
      return { spans, layers: recordingReaders.length > 0 ? recordingReaders : recording };
    } finally {
      recording = undefined;
      recordingReaders = undefined;
    }
  };
  try {
    return attempt(true);
  } catch (error) {
    // A field map is optional: a format whose map fails still opens, unmapped.
    if (!isSpanBudget(error)) return { spans: [], layers: [] };
  }
  try {
    return {
      ...attempt(false),
      mapNote: `This save has more than ${limit} fields: the bytes of the file are mapped to fields, the bytes inside its decompressed layers are not (a field there lights the chunk it is in).`,
    };
  } catch {
    return {
      spans: [],
      layers: [],
      mapNote: `This save has more than ${limit} fields in the file itself: its bytes are not mapped to fields.`,
    };
  }
}

function openSave(name: string, bytes: Uint8Array): void {
  progress('sniffing', 0.05);
  const format = registry.detect(bytes);
  if (format === undefined) {
    post({
      type: 'error',
      message: `No registered format recognises ${name} (formats: ${registry
        .list()
        .map((f) => f.id)
        .join(', ')}).`,
    });
    return;
  }
  progress(`decoding as ${format.id}`, 0.15);
  // Checksums only warn: a corrupted save opens, its warnings listed, and saves back repaired.
  const result = format.decode(bytes, { checksums: 'warn' });
  if (E.isLeft(result)) {
    post({ type: 'error', message: `${name} (${format.id}): ${result.left.toString()}` });
    return;
  }
  progress('mapping fields to bytes', 0.45);
  recordLayers(format);
  const { spans, layers, mapNote } = mapFields(format, bytes);
  progress('building the tree', 0.75);
  const o: Open = {
    name,
    format,
    bytes,
    warned: result.right.warnings.some(repairedOnSave),
    original: result.right.value,
    value: result.right.value,
    undo: [],
    redo: [],
    spans,
    spanPaths: spans.map((s) => formatPath(documentPath(s.path))),
    expanded: new Set(['(root)']),
    rows: [],
    pictures: new Map(),
  };
  flatten(o);
  open = o;
  progress('done', 1);
  const panes = [bytes.slice(), ...layers.map((l) => l.slice())];
  post(
    {
      type: 'opened',
      name,
      format: { id: format.id, title: format.title },
      // Saving recomputes a checksum; other warnings (a field an older layout lacks) stay as they are.
      warnings: result.right.warnings.map(
        (w) => `${formatWarning(w)}${repairedOnSave(w) ? ' (saving writes it repaired)' : ''}`,
      ),
      summary: [...(format.summary?.(result.right.value) ?? [])],
      ...(mapNote === undefined ? {} : { mapNote }),
      layers: panes,
      state: state(o),
    },
    panes.map((p) => p.buffer),
  );
}

function save(o: Open): void {
  const encoded = encode(o.format, o.value);
  if ('error' in encoded) {
    post({ type: 'error', message: encoded.error });
    return;
  }
  const same = encoded.bytes.length === o.bytes.length && encoded.bytes.every((b, i) => b === o.bytes[i]);
  if (o.value === o.original && same) {
    // Nothing changed and the codec writes the very bytes read: the original file, byte for byte.
    const bytes = o.bytes.slice();
    post({ type: 'saved', bytes, identical: true, verified: true, message: 'unchanged: byte-identical' }, [
      bytes.buffer,
    ]);
    return;
  }
  const again = o.format.decode(encoded.bytes);
  let verified = false;
  let why = '';
  if (E.isLeft(again)) why = again.left.message;
  else {
    verified = sameValue(again.right.value, o.value);
    if (!verified) why = 'the re-decoded document differs from the edited one';
  }
  const n = changes(o).length;
  const text = verified
    ? `${n === 0 ? (o.warned ? 'repaired (checksums recomputed)' : 'unchanged document, new bytes') : `${n} change${n === 1 ? '' : 's'}`}; verified: decodes to the edited document`
    : `not verified: ${why}`;
  post({ type: 'saved', bytes: encoded.bytes, identical: same, verified, message: text }, [encoded.bytes.buffer]);
}

async function handle(request: Request): Promise<void> {
  if (request.type === 'plugin') {
    const module = (await import(/* @vite-ignore */ request.url)) as Record<string, unknown>;
    const found = formatsOf(module);
    if (found.length === 0) throw new Error(`${request.url} exports no savekit format`);
    for (const f of found) if (registry.get(f.id) === undefined) registry.register(f);
    post({ type: 'formats', formats: registry.list().map((f) => ({ id: f.id, title: f.title })) });
    return;
  }
  if (request.type === 'open') {
    openSave(request.name, new Uint8Array(request.bytes));
    return;
  }
  if (request.type === 'openFile') {
    openSave(request.file.name, await readFile(request.file));
    return;
  }
  const o = open;
  if (o === undefined) throw new Error('no save is open');
  switch (request.type) {
    case 'rows': {
      const end = Math.min(o.rows.length, request.from + request.count);
      const rows: Row[] = [];
      for (let i = Math.max(0, request.from); i < end; i++) rows.push(row(o, i));
      post({ type: 'rows', from: request.from, rows, total: o.rows.length });
      return;
    }
    case 'toggle':
      if (o.expanded.has(request.path)) o.expanded.delete(request.path);
      else o.expanded.add(request.path);
      flatten(o);
      post({ type: 'state', state: state(o) });
      return;
    case 'select':
      select(o, request.path);
      return;
    case 'selectRow': {
      const r = o.rows[Math.max(0, Math.min(o.rows.length - 1, request.index))];
      if (r !== undefined) select(o, formatPath(r.path));
      return;
    }
    case 'selectByte': {
      let best = -1;
      o.spans.forEach((s, i) => {
        if (s.layer !== request.layer || request.offset < s.start || request.offset >= s.end) return;
        if (best < 0 || s.end - s.start < o.spans[best]!.end - o.spans[best]!.start) best = i;
      });
      if (best >= 0) select(o, o.spanPaths[best]!);
      return;
    }
    case 'set': {
      const segments = parsePath(request.path);
      const node = at(o.value, segments);
      const kind = leafKind(o.format, segments, node);
      const parsed = parseLeaf(kind, request.value);
      const error = 'error' in parsed ? parsed.error : commit(o, setIn(o.value, segments, parsed.value));
      flatten(o);
      post({ type: 'state', state: state(o), path: request.path, ...(error === undefined ? {} : { error }) });
      return;
    }
    case 'element': {
      // Move, duplicate or remove an element: a new array at the parent's path, encoded like any edit.
      const segments = parsePath(request.path);
      const i = segments.pop();
      const list = at(o.value, segments);
      let error: string | undefined;
      if (!Array.isArray(list) || typeof i !== 'number' || i >= list.length)
        error = `${request.path} is not an element`;
      else {
        const next = list.slice();
        const j = request.op === 'up' ? i - 1 : i + 1;
        if (request.op === 'remove') next.splice(i, 1);
        else if (request.op === 'duplicate') next.splice(i + 1, 0, list[i]);
        else if (j >= 0 && j < list.length) [next[i], next[j]] = [next[j], next[i]];
        error = commit(o, setIn(o.value, segments, next));
      }
      flatten(o);
      post({ type: 'state', state: state(o), path: request.path, ...(error === undefined ? {} : { error }) });
      return;
    }
    case 'viewEdit': {
      const picture = o.pictures.get(request.view);
      const edit = targetsOf(picture)[request.target]?.edits?.[request.edit];
      if (edit === undefined) throw new Error('that edit is no longer offered');
      let error: string | undefined;
      try {
        error = commit(o, edit.apply(o.value));
      } catch (e) {
        error = message(e);
      }
      flatten(o);
      post({ type: 'state', state: state(o), ...(error === undefined ? {} : { error }) });
      return;
    }
    case 'view': {
      const view = viewsOf(o.format, o.value).find((v) => v.id === request.id);
      if (view === undefined) throw new Error(`no view ${request.id}`);
      const picture = view.render(o.value);
      o.pictures.set(view.id, picture);
      const wired = await wire(picture);
      post(
        { type: 'picture', id: view.id, seq: request.seq, title: view.title, picture: wired },
        wired.kind === 'raster' ? [wired.bitmap] : [],
      );
      return;
    }
    case 'undo':
    case 'redo': {
      const from = request.type === 'undo' ? o.undo : o.redo;
      const to = request.type === 'undo' ? o.redo : o.undo;
      if (from.length > 0) {
        to.push(o.value);
        o.value = from.pop();
      }
      flatten(o);
      post({ type: 'state', state: state(o) });
      return;
    }
    case 'save':
      save(o);
      return;
  }
}

self.onmessage = (event: MessageEvent<Request>) => {
  handle(event.data).catch((error: unknown) => post({ type: 'error', message: message(error) }));
};
post({ type: 'formats', formats: registry.list().map((f) => ({ id: f.id, title: f.title })) });
