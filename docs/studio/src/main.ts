/**
 * The studio page: opens a save (drop, picker, sample), shows the worker's tree beside the bytes,
 * edits a field through an input that fits it, draws the format's views, lists the changes as
 * `savekit diff` does, and downloads the re-encoded, verified save. Everything heavy runs in the
 * worker; this thread only draws the rows in sight.
 *
 * @module
 */
import type { DocState, ElementOp, LeafKind, Reply, Request, Row, Span, WirePicture } from './protocol.js';
import { SAMPLES } from './samples.js';

const ROW = 20;
/** Browsers cap an element's height (~33 M px in Chromium): taller lists scroll through a scaled spacer. */
const MAX_SPACER = 8_000_000;

/** The first line in sight, and where line `l` is drawn, for a list of `lines` rows in `scroller`. */
function windowOf(scroller: HTMLElement, lines: number) {
  const full = lines * ROW;
  const height = Math.min(full, MAX_SPACER);
  (scroller.firstElementChild as HTMLElement).style.height = `${height}px`;
  const room = Math.max(1, height - scroller.clientHeight);
  const scale = full > MAX_SPACER ? (full - scroller.clientHeight) / room : 1;
  const offset = scroller.scrollTop * scale;
  return {
    first: Math.max(0, Math.floor(offset / ROW) - 5),
    count: Math.ceil(scroller.clientHeight / ROW) + 10,
    top: (l: number) => scroller.scrollTop + l * ROW - offset,
    /** The scrollTop that shows line `l` a third of the way down. */
    scrollFor: (l: number) => Math.max(0, (l * ROW - scroller.clientHeight / 3) / scale),
    inSight: (l: number) => l * ROW >= offset && l * ROW <= offset + scroller.clientHeight - ROW,
  };
}
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const send = (request: Request, transfer: Transferable[] = []) => worker.postMessage(request, transfer);

let fileName = '';
let panes: Uint8Array[] = [];
let pane = 0;
let docState: DocState | undefined;
let total = 0;
let rows = new Map<number, Row>();
let selected: string | undefined;
let selectedIndex = -1;
let spans: Span[] = [];
let currentView: string | undefined;
/**
 * The number of the latest picture asked for. Every edit asks again, and a world's picture takes a
 * while: answers to earlier asks (possibly out of order, as pictures are made asynchronously) are
 * dropped rather than drawn over the newest.
 */
let viewAsked = 0;
let picture: WirePicture | undefined;
let pendingSave = false;

function status(text: string, error = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', error);
}

// ---- opening ------------------------------------------------------------------------------------

async function openBytes(name: string, buffer: ArrayBuffer) {
  fileName = name;
  status(`Opening ${name} (${buffer.byteLength.toLocaleString('en')} bytes)…`);
  const bar = $<HTMLProgressElement>('progress');
  bar.hidden = false;
  bar.value = 0;
  send({ type: 'open', name, bytes: buffer }, [buffer]);
}

/** A picked or dropped file goes to the worker as it is: the worker reads it, so this thread never holds it whole. */
function openFile(file: File | undefined) {
  if (file === undefined) return;
  fileName = file.name;
  status(`Opening ${file.name} (${file.size.toLocaleString('en')} bytes)…`);
  const bar = $<HTMLProgressElement>('progress');
  bar.hidden = false;
  bar.value = 0;
  send({ type: 'openFile', file });
}

for (const sample of SAMPLES) {
  const button = document.createElement('button');
  button.textContent = sample.label;
  button.dataset.sample = sample.name;
  button.title = sample.name;
  button.addEventListener('click', async () => {
    if (sample.plugin !== undefined) await loadPlugin(new URL(sample.plugin, location.href).href);
    const response = await fetch(new URL(`samples/${sample.name}`, location.href));
    await openBytes(sample.name, await response.arrayBuffer());
  });
  $('samples').append(button);
}

$<HTMLInputElement>('file').addEventListener('change', (e) => {
  openFile((e.target as HTMLInputElement).files?.[0]);
});
const drop = $('drop');
for (const target of [document.body]) {
  target.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  target.addEventListener('dragleave', () => drop.classList.remove('over'));
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    openFile(e.dataTransfer?.files?.[0]);
  });
}

// ---- plugins ------------------------------------------------------------------------------------

let pluginDone: (() => void) | undefined;
function loadPlugin(url: string): Promise<void> {
  return new Promise((resolve) => {
    pluginDone = resolve;
    send({ type: 'plugin', url });
  });
}
$('plugin-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $<HTMLInputElement>('plugin-url').value.trim();
  if (url) void loadPlugin(new URL(url, location.href).href);
});
$<HTMLInputElement>('plugin-file').addEventListener('change', async (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file === undefined) return;
  const url = URL.createObjectURL(new Blob([await file.text()], { type: 'text/javascript' }));
  await loadPlugin(url);
});

// ---- the tree (virtualised: only rows in sight exist, fetched from the worker) ----------------

const tree = $('tree');
let rowsAsked = '';
function drawTree() {
  const { first, count, top } = windowOf(tree, total);
  const missing: number[] = [];
  for (let i = first; i < Math.min(total, first + count); i++) if (!rows.has(i)) missing.push(i);
  if (missing.length > 0) {
    const ask = `${missing[0]}:${count}`;
    if (ask !== rowsAsked) {
      rowsAsked = ask;
      send({ type: 'rows', from: missing[0]!, count });
    }
  }
  for (const el of [...tree.querySelectorAll('.line')]) el.remove();
  const fragment = document.createDocumentFragment();
  for (let i = first; i < Math.min(total, first + count); i++) {
    const r = rows.get(i);
    if (r === undefined) continue;
    const line = document.createElement('div');
    line.className = `line node${r.path === selected ? ' sel' : ''}${r.changed ? ' changed' : ''}`;
    line.style.top = `${top(i)}px`;
    line.style.paddingLeft = `${r.depth * 14}px`;
    line.dataset.path = r.path;
    line.dataset.index = String(i);
    line.setAttribute('role', 'treeitem');
    if (r.branch) line.setAttribute('aria-expanded', String(r.open));
    const twist = document.createElement('span');
    twist.className = 'twist';
    twist.textContent = r.branch ? (r.open ? '▾' : '▸') : '';
    const key = document.createElement('span');
    key.className = 'key';
    key.textContent = r.key;
    const value = document.createElement('span');
    value.className = 'val';
    value.textContent = r.branch ? ` ${r.text}` : `: ${r.text}`;
    line.append(twist, key, value);
    fragment.append(line);
  }
  tree.append(fragment);
}
tree.addEventListener('scroll', () => requestAnimationFrame(drawTree));
tree.addEventListener('click', (e) => {
  const line = (e.target as HTMLElement).closest<HTMLElement>('.line');
  if (line?.dataset.path === undefined) return;
  if ((e.target as HTMLElement).classList.contains('twist')) toggle(line.dataset.path);
  else select(line.dataset.path);
});
tree.addEventListener('dblclick', (e) => {
  const path = (e.target as HTMLElement).closest<HTMLElement>('.line')?.dataset.path;
  if (path !== undefined) toggle(path);
});
tree.addEventListener('keydown', (e) => {
  const r = rows.get(selectedIndex);
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    // By index: the worker knows the row even when it is not drawn yet.
    selectedIndex = Math.max(0, Math.min(total - 1, selectedIndex + (e.key === 'ArrowDown' ? 1 : -1)));
    send({ type: 'selectRow', index: selectedIndex });
  } else if ((e.key === 'ArrowRight' && r?.branch && !r.open) || (e.key === 'ArrowLeft' && r?.branch && r.open)) {
    e.preventDefault();
    toggle(r.path);
  } else if (e.key === 'Enter') {
    e.preventDefault();
    if (r?.branch) toggle(r.path);
    else $('editor').querySelector<HTMLElement>('input, select, textarea')?.focus();
  }
});

$('goto-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const path = $<HTMLInputElement>('goto').value.trim();
  if (path !== '') select(path);
});

function toggle(path: string) {
  send({ type: 'toggle', path });
}
function select(path: string) {
  selected = path;
  send({ type: 'select', path });
}
function refreshRows() {
  rows = new Map();
  rowsAsked = '';
  drawTree();
}

// ---- the bytes (virtualised hexdump of the file and of each decompressed layer) -------------------

const hex = $('hex');
const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');
function drawHex() {
  const bytes = panes[pane] ?? new Uint8Array();
  const lines = Math.ceil(bytes.length / 16);
  const { first, count, top } = windowOf(hex, lines);
  const lit = spans.filter((s) => s.layer === pane);
  const isLit = (i: number) => lit.some((s) => i >= s.start && i < s.end);
  for (const el of [...hex.querySelectorAll('.line')]) el.remove();
  const fragment = document.createDocumentFragment();
  for (let l = first; l < Math.min(lines, first + count); l++) {
    const line = document.createElement('div');
    line.className = 'line row';
    line.style.top = `${top(l)}px`;
    const off = document.createElement('span');
    off.className = 'off';
    off.textContent = (l * 16).toString(16).padStart(8, '0');
    line.append(off);
    const ascii = document.createElement('span');
    ascii.className = 'ascii';
    for (let i = l * 16; i < Math.min(bytes.length, l * 16 + 16); i++) {
      const b = document.createElement('span');
      b.className = `byte${i % 16 === 8 ? ' gap' : ''}${isLit(i) ? ' hl' : ''}`;
      b.dataset.offset = String(i);
      b.textContent = bytes[i]!.toString(16).padStart(2, '0');
      line.append(b);
      const c = document.createElement('span');
      c.className = `chr${isLit(i) ? ' hl' : ''}`;
      c.dataset.offset = String(i);
      c.textContent = printable(bytes[i]!);
      ascii.append(c);
    }
    line.append(ascii);
    fragment.append(line);
  }
  hex.append(fragment);
}
hex.addEventListener('scroll', () => requestAnimationFrame(drawHex));
hex.addEventListener('click', (e) => {
  const offset = (e.target as HTMLElement).dataset.offset;
  if (offset !== undefined) send({ type: 'selectByte', layer: pane, offset: Number(offset) });
});
function drawHexTabs() {
  const tabs = $('hex-tabs');
  tabs.replaceChildren();
  // Many layers (an EDGE save has two per chunk): the file, the layer shown, and a list of all.
  const many = panes.length > 4;
  if (many) {
    const list = document.createElement('select');
    list.setAttribute('aria-label', 'byte pane');
    list.dataset.test = 'panes';
    panes.forEach((bytes, i) => {
      list.append(new Option(i === 0 ? 'file' : `layer ${i} (${bytes.length} B)`, String(i), false, i === pane));
    });
    list.addEventListener('change', () => showPane(Number(list.value)));
    tabs.append(list);
  }
  panes.forEach((bytes, i) => {
    if (many && i !== 0 && i !== pane) return;
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(i === pane));
    b.dataset.pane = String(i);
    b.textContent = i === 0 ? `file (${bytes.length} B)` : `layer ${i} (${bytes.length} B, decompressed)`;
    b.addEventListener('click', () => showPane(i));
    tabs.append(b);
  });
  tabs.hidden = panes.length < 2;
}
function showPane(i: number, scrollTo?: number) {
  pane = i;
  drawHexTabs();
  if (scrollTo !== undefined) {
    const w = windowOf(hex, Math.ceil((panes[i]?.length ?? 0) / 16));
    const line = Math.floor(scrollTo / 16);
    if (!w.inSight(line)) hex.scrollTop = w.scrollFor(line);
  }
  drawHex();
}

// ---- the field editor --------------------------------------------------------------------------

function hint(leaf: LeafKind): string {
  switch (leaf.kind) {
    case 'int':
    case 'bigint':
      return `integer ${leaf.min}…${leaf.max}`;
    case 'float':
      return 'floating-point number (NaN, Infinity, -0 allowed)';
    case 'enum':
      return `one of ${leaf.names.length} names`;
    case 'flag':
      return 'bit flag';
    case 'text':
      return `text${leaf.encoding ? ` (${leaf.encoding}` : ''}${leaf.maxBytes ? `, at most ${leaf.maxBytes} bytes` : ''}${leaf.encoding ? ')' : ''}`;
    case 'bytes':
      return `bytes as hex${leaf.size !== undefined ? ` (${leaf.size} bytes)` : ''}`;
    case 'readonly':
      return leaf.reason;
    default:
      return 'JSON value';
  }
}

/** Buttons that move, duplicate or remove an array element (the codec refuses what the format does not allow). */
function drawElementActions(path: string, element: { index: number; length: number } | undefined) {
  const bar = $('element-actions');
  bar.replaceChildren();
  bar.hidden = element === undefined;
  if (element === undefined) return;
  const parent = path.slice(0, path.lastIndexOf('['));
  const actions: Array<[ElementOp, string, boolean, string | undefined]> = [
    ['up', 'Move up', element.index > 0, `${parent}[${element.index - 1}]`],
    ['down', 'Move down', element.index < element.length - 1, `${parent}[${element.index + 1}]`],
    ['duplicate', 'Duplicate', true, undefined],
    ['remove', 'Remove', true, element.length > 1 ? `${parent}[${Math.max(0, element.index - 1)}]` : parent],
  ];
  for (const [op, label, enabled, after] of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.disabled = !enabled;
    b.dataset.op = op;
    b.addEventListener('click', () => {
      if (after !== undefined) selected = after;
      send({ type: 'element', path, op });
    });
    bar.append(b);
  }
}

function drawEditor(path: string, leaf: LeafKind | undefined, value: string | undefined) {
  const form = $<HTMLFormElement>('editor');
  form.replaceChildren();
  form.hidden = leaf === undefined;
  if (leaf === undefined || value === undefined) return;
  if (leaf.kind === 'readonly') {
    const note = document.createElement('span');
    note.className = 'hint';
    note.textContent = leaf.reason;
    form.append(note);
    return;
  }
  let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  if (leaf.kind === 'enum') {
    const select = document.createElement('select');
    for (const name of leaf.names) select.append(new Option(name, name, false, name === value));
    input = select;
  } else if (leaf.kind === 'flag' || leaf.kind === 'boolean') {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = value === '1' || value === 'true';
    input = box;
  } else if (leaf.kind === 'bytes' || leaf.kind === 'json' || (leaf.kind === 'text' && /[\r\n]/.test(value))) {
    // A one-line input would drop a text's line breaks the moment it is filled: several lines get a text area.
    const area = document.createElement('textarea');
    area.value = value;
    input = area;
  } else {
    const text = document.createElement('input');
    if (leaf.kind === 'int') {
      text.type = 'number';
      text.min = String(leaf.min);
      text.max = String(leaf.max);
      text.step = '1';
    } else text.type = 'text';
    // A fixed-size field of a one-byte encoding holds at most that many characters; the codec checks the rest.
    if (leaf.kind === 'text' && leaf.maxBytes !== undefined && /ascii|latin1|cp437|cp1252/.test(leaf.encoding ?? ''))
      text.maxLength = leaf.maxBytes;
    text.value = value;
    input = text;
  }
  input.dataset.test = 'field-input';
  input.setAttribute('aria-label', `value of ${path}`);
  const apply = document.createElement('button');
  apply.type = 'submit';
  apply.textContent = 'Apply';
  apply.dataset.test = 'apply';
  const note = document.createElement('span');
  note.className = 'hint';
  note.textContent = hint(leaf);
  form.append(input, apply, note);
  form.onsubmit = (e) => {
    e.preventDefault();
    const text =
      input instanceof HTMLInputElement && input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value;
    send({ type: 'set', path, value: text });
  };
}

// ---- views --------------------------------------------------------------------------------------

function drawViewTabs() {
  const tabs = $('view-tabs');
  tabs.replaceChildren();
  const views = docState?.views ?? [];
  if (currentView !== undefined && !views.some((v) => v.id === currentView)) currentView = undefined;
  if (currentView === undefined && views.length > 0) currentView = views[0]!.id;
  for (const v of views) {
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(v.id === currentView));
    b.dataset.view = v.id;
    b.textContent = v.title;
    b.addEventListener('click', () => {
      currentView = v.id;
      drawViewTabs();
    });
    tabs.append(b);
  }
  if (currentView !== undefined) {
    delete document.body.dataset.picture;
    send({ type: 'view', id: currentView, seq: ++viewAsked });
  } else $('view').replaceChildren();
}

let zoom = 1;
/** The bitmap of the raster picture shown (closed when another replaces it: its pixels can be 50 MB). */
let shownBitmap: ImageBitmap | undefined;
/** The raster picture `zoom` belongs to (view and size): a redraw after an edit keeps the zoom set. */
let zoomOf = '';
function targetClicked(index: number) {
  if (picture === undefined || currentView === undefined) return;
  const list = picture.kind === 'raster' ? picture.regions : picture.kind === 'vector' ? picture.marks : picture.rows;
  const t = list[index];
  if (t === undefined) return;
  if (t.path !== undefined) select(t.path);
  const actions = $('view-actions');
  actions.replaceChildren();
  const view = currentView;
  (t.edits ?? []).forEach((label, e) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.edit = String(e);
    b.addEventListener('click', () => send({ type: 'viewEdit', view, target: index, edit: e }));
    actions.append(b);
  });
}

function drawPicture(p: WirePicture) {
  picture = p;
  shownBitmap?.close();
  shownBitmap = undefined;
  const host = $('view');
  host.replaceChildren();
  host.dataset.kind = p.kind;
  if (p.kind === 'raster') {
    const key = `${currentView}:${p.width}×${p.height}`;
    if (key !== zoomOf) {
      zoomOf = key;
      // A new picture starts at its view's zoom, or smaller where that is wider than the pane: a
      // 2,400-tile world at 1× would show only the sky of its top-left corner.
      zoom = p.zoom ?? 1;
      if (host.clientWidth > 0 && p.width * zoom > host.clientWidth) zoom = host.clientWidth / p.width;
    }
    const canvas = document.createElement('canvas');
    canvas.tabIndex = 0;
    canvas.setAttribute('aria-label', 'picture');
    shownBitmap = p.bitmap;
    const scale = () => {
      canvas.style.width = `${p.width * zoom}px`;
      canvas.style.height = `${p.height * zoom}px`;
      // The canvas holds the pixels it shows, not the whole picture where that is larger: a frame
      // that takes in a new canvas copies all its pixels, and a 3,600-tile world's are 52 MB (a
      // 50–240 ms task on the page's thread). Nearest pixels, as the stylesheet's `pixelated` scales.
      const shown = Math.min(1, zoom * devicePixelRatio);
      const width = Math.max(1, Math.round(p.width * shown));
      const height = Math.max(1, Math.round(p.height * shown));
      if (canvas.width === width && canvas.height === height && canvas.dataset.drawn === '1') return;
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (context === null) return;
      context.imageSmoothingEnabled = false;
      context.drawImage(p.bitmap, 0, 0, width, height);
      canvas.dataset.drawn = '1';
    };
    scale();
    canvas.addEventListener('click', (e) => {
      const box = canvas.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * p.width;
      const y = ((e.clientY - box.top) / box.height) * p.height;
      const i = p.regions.findIndex((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
      if (i >= 0) targetClicked(i);
    });
    const bar = document.createElement('div');
    bar.className = 'view-actions';
    for (const [label, factor] of [
      ['−', 0.5],
      ['+', 2],
    ] as const) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.setAttribute('aria-label', factor > 1 ? 'zoom in' : 'zoom out');
      b.addEventListener('click', () => {
        zoom = Math.max(1 / 64, Math.min(32, zoom * factor));
        scale();
      });
      bar.append(b);
    }
    host.append(bar, canvas);
  } else if (p.kind === 'vector') {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', `0 0 ${p.width} ${p.height}`);
    svg.setAttribute('width', String(p.width));
    svg.setAttribute('height', String(p.height));
    if (p.background) svg.style.background = p.background;
    p.marks.forEach((m, i) => {
      const shape = m.shape as string;
      const el = document.createElementNS(ns, shape === 'text' ? 'text' : shape);
      const attrs: Record<string, string[]> = {
        circle: ['cx:x', 'cy:y', 'r:r'],
        rect: ['x:x', 'y:y', 'width:width', 'height:height'],
        line: ['x1:x', 'y1:y', 'x2:x2', 'y2:y2'],
        text: ['x:x', 'y:y'],
      };
      for (const pair of attrs[shape] ?? []) {
        const [attr, key] = pair.split(':') as [string, string];
        el.setAttribute(attr, String(m[key]));
      }
      el.setAttribute('fill', (m.fill as string | undefined) ?? (shape === 'text' ? 'currentColor' : 'none'));
      if (m.stroke) el.setAttribute('stroke', m.stroke as string);
      if (shape === 'text') {
        el.textContent = String(m.text);
        el.setAttribute('font-size', String(m.size ?? 10));
      }
      if (m.label) {
        const title = document.createElementNS(ns, 'title');
        title.textContent = m.label;
        el.append(title);
      }
      if (m.path !== undefined || (m.edits?.length ?? 0) > 0) {
        el.dataset.target = String(i);
        el.setAttribute('tabindex', '0');
      } else {
        // A mark that selects nothing (the flagship's cross over Sol) must not swallow the click
        // meant for the mark beneath it.
        el.setAttribute('pointer-events', 'none');
      }
      svg.append(el);
    });
    svg.addEventListener('click', (e) => {
      const t = (e.target as Element).closest('[data-target]') as SVGElement | null;
      if (t?.dataset.target !== undefined) targetClicked(Number(t.dataset.target));
    });
    svg.addEventListener('keydown', (e) => {
      const t = (e.target as Element).closest('[data-target]') as SVGElement | null;
      if (e.key === 'Enter' && t?.dataset.target !== undefined) targetClicked(Number(t.dataset.target));
    });
    host.append(svg);
  } else {
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const c of p.columns) {
      const th = document.createElement('th');
      th.textContent = c;
      head.append(th);
    }
    const body = table.createTBody();
    p.rows.forEach((r, i) => {
      const tr = body.insertRow();
      for (const cell of r.cells) tr.insertCell().textContent = cell;
      if (r.path !== undefined || (r.edits?.length ?? 0) > 0) {
        tr.dataset.target = String(i);
        tr.tabIndex = 0;
        tr.addEventListener('click', () => targetClicked(i));
        tr.addEventListener('keydown', (e) => e.key === 'Enter' && targetClicked(i));
      }
    });
    host.append(table);
  }
}

// ---- changes, undo, save ---------------------------------------------------------------------

function applyState(s: DocState) {
  docState = s;
  total = s.total;
  $<HTMLButtonElement>('undo').disabled = !s.canUndo;
  $<HTMLButtonElement>('redo').disabled = !s.canRedo;
  const list = $('changes');
  list.replaceChildren();
  for (const c of s.changes) {
    const li = document.createElement('li');
    li.textContent = c.text;
    li.dataset.kind = c.kind;
    li.tabIndex = 0;
    li.addEventListener('click', () => select(c.path));
    list.append(li);
  }
  if (s.changes.length === 0) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = 'no differences';
    list.append(li);
  }
  refreshRows();
  drawViewTabs();
}

$('undo').addEventListener('click', () => send({ type: 'undo' }));
$('redo').addEventListener('click', () => send({ type: 'redo' }));
$('save').addEventListener('click', () => {
  pendingSave = true;
  send({ type: 'save' });
});
document.addEventListener('keydown', (e) => {
  const mod = e.ctrlKey || e.metaKey;
  if (!mod) return;
  const inField = (e.target as HTMLElement).closest('input, textarea, select') !== null;
  if (e.key.toLowerCase() === 's') {
    e.preventDefault();
    if (!$<HTMLButtonElement>('save').disabled) $('save').click();
  } else if (e.key.toLowerCase() === 'o') {
    e.preventDefault();
    $('file').click();
  } else if (!inField && e.key.toLowerCase() === 'z') {
    e.preventDefault();
    send({ type: e.shiftKey ? 'redo' : 'undo' });
  } else if (!inField && e.key.toLowerCase() === 'y') {
    e.preventDefault();
    send({ type: 'redo' });
  }
});

function download(bytes: Uint8Array) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---- the worker's answers ----------------------------------------------------------------------

worker.onmessage = (event: MessageEvent<Reply>) => {
  // Each answer's handling is measured (`studio:<type>`), so a slow one can be named (the test does).
  const start = performance.now();
  try {
    handle(event.data);
  } finally {
    performance.measure(`studio:${event.data.type}`, { start });
  }
};

function handle(reply: Reply) {
  switch (reply.type) {
    case 'progress': {
      const bar = $<HTMLProgressElement>('progress');
      bar.hidden = reply.fraction >= 1;
      bar.value = reply.fraction;
      status(`${fileName}: ${reply.phase}…`);
      return;
    }
    case 'formats':
      $('formats').textContent = reply.formats.map((f) => f.id).join(', ');
      pluginDone?.();
      pluginDone = undefined;
      return;
    case 'opened': {
      panes = [...reply.layers];
      pane = 0;
      spans = [];
      selected = undefined;
      selectedIndex = -1;
      currentView = undefined;
      $('panes').hidden = false;
      $<HTMLButtonElement>('save').disabled = false;
      $('field-path').textContent = '(nothing selected)';
      $('field-error').textContent = '';
      $('editor').hidden = true;
      drawElementActions('', undefined);
      $('view-actions').replaceChildren();
      status(
        `${reply.name} (${reply.format.id}): ${reply.format.title}, ${panes[0]!.length.toLocaleString('en')} bytes${
          reply.summary.length > 0 ? ` — ${reply.summary.join('; ')}` : ''
        }`,
      );
      const warnings = $('warnings');
      warnings.replaceChildren();
      for (const w of reply.warnings) {
        const li = document.createElement('li');
        li.textContent = w;
        warnings.append(li);
      }
      const note = $('map-note');
      note.textContent = reply.mapNote ?? '';
      note.hidden = reply.mapNote === undefined;
      hex.scrollTop = 0;
      tree.scrollTop = 0;
      drawHexTabs();
      drawHex();
      applyState(reply.state);
      delete document.body.dataset.selected;
      document.body.dataset.opened = reply.name;
      return;
    }
    case 'rows': {
      total = reply.total;
      reply.rows.forEach((r, i) => {
        rows.set(reply.from + i, r);
      });
      rowsAsked = '';
      drawTree();
      return;
    }
    case 'selected': {
      selected = reply.path;
      selectedIndex = reply.index;
      spans = [...reply.spans];
      $('field-path').textContent = reply.path;
      $('field-error').textContent = reply.index < 0 ? `no field at ${reply.path}` : '';
      drawEditor(reply.path, reply.leaf, reply.value);
      drawElementActions(reply.path, reply.element);
      if (reply.total !== total) {
        total = reply.total;
        rows = new Map();
      }
      if (reply.index >= 0) {
        const w = windowOf(tree, total);
        if (!w.inSight(reply.index)) tree.scrollTop = w.scrollFor(reply.index);
      }
      rowsAsked = '';
      drawTree();
      const first = spans.find((s) => s.layer === pane) ?? spans[0];
      if (first !== undefined) showPane(first.layer, first.start);
      else drawHex();
      document.body.dataset.selected = reply.path;
      return;
    }
    case 'state': {
      $('field-error').textContent = reply.error ?? '';
      applyState(reply.state);
      if (reply.error === undefined && selected !== undefined) send({ type: 'select', path: selected });
      document.body.dataset.edits = String(Number(document.body.dataset.edits ?? 0) + 1);
      return;
    }
    case 'picture':
      if (reply.id === currentView && reply.seq === viewAsked) {
        drawPicture(reply.picture);
        // The picture on show is the newest asked for (what a test waits for before looking).
        document.body.dataset.picture = reply.id;
      } else if (reply.picture.kind === 'raster') reply.picture.bitmap.close();
      return;
    case 'saved':
      status(`${fileName}: ${reply.message}${reply.identical ? ' (byte-identical)' : ''}`, !reply.verified);
      if (pendingSave && reply.verified) download(reply.bytes);
      pendingSave = false;
      return;
    case 'error':
      $('progress').hidden = true;
      pluginDone?.();
      pluginDone = undefined;
      status(reply.message, true);
      return;
  }
}
new ResizeObserver(() => {
  drawTree();
  drawHex();
}).observe(document.body);
