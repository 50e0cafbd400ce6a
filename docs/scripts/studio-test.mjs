// savekit studio in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
// browser). Serves the built docs site (the studio at /studio/app/) or, when the site is not built,
// the studio built on its own. For each bundled sample and every real save in the corpus
// (SAVEKIT_CORPUS, else ../shared/vectors-found; each file a registered format sniffs): open it, download
// it unchanged (byte-identical), change one field by its input (the first integer leaf the codec takes
// as a one-field change, else the first such text), download, and check here in Node that the file
// decodes (checksums enforced) to the document with exactly that change. Also: a corrupted save opens with its warning and saves back repaired;
// the formats' pictures (EDGE's thumbnail, a real UQM save's star map and escort roster, Terrarum
// world tiles) and the demo plugin's three views render like their reference PNGs in
// docs/studio/test/reference; clicking Sol selects its path; a view's edit applies; a field
// inside a decompressed layer lights its bytes in that layer's pane; keyboard, phone width; a 50 MB
// synthetic save opens with no main-thread task over 200 ms of CPU time; an EDGE save with more fields
// than the studio maps opens with its file's bytes mapped, says so, and edits; no console errors.
// Prints `studio: N passed, N failed` and writes test-output/studio/results.json.
// STUDIO_UPDATE_REFERENCES=1 rewrites the reference PNGs from this run.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkTally, launchChromium, serveSite } from './serve-site.mjs';
import { BudgetError, diffDocuments, documentPath, encodeOrThrow, FormatRegistry, formatPath } from '@savekit/core';
import { Reader } from '@savekit/core/kit';
import { edgeSave, format as edge } from '@savekit/edge';
import { format as terrarum } from '@savekit/terrarum';
import { format as uqm } from '@savekit/uqm';
import { adataSaver, Vector, writeSavefile, format as zippy } from '@savekit/zippy';
import { format as skirmish } from '@savekit/examples/skirmish';
import { corpusRoot } from '@savekit/testkit';
import { buildStudio } from './studio-build.mjs';
// The benchmark's own 50 MB save (one generator for both).
import { terrarumSynthetic } from '../../bench/synthetic.mjs';
import { syntheticSave } from '../../bench/cases/edge.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const outDir = join(root, 'test-output', 'studio');
const references = join(here, '..', 'studio', 'test', 'reference');
mkdirSync(outDir, { recursive: true });

// The site as built by `npm run docs:build` (the studio under /studio/app/), else the studio alone.
const site = join(here, '..', '.vitepress', 'dist');
let served = site;
let appPath = '/studio/app/';
if (process.env.STUDIO_STANDALONE || !existsSync(join(site, 'studio', 'app', 'index.html'))) {
  served = outDir;
  appPath = '/app/';
  await buildStudio(join(outDir, 'app'));
}
const appDir = join(served, ...appPath.split('/').filter(Boolean));
const demo = await import(pathToFileURL(join(appDir, 'plugins', 'studio-demo.js')).href);
const registry = new FormatRegistry([edge, uqm, zippy, terrarum, skirmish, demo.format]);

const { server, origin } = await serveSite(served);
const app = `${origin}${appPath}`;

const { check, finish } = checkTally();

/** The most field spans the studio maps (its worker's `MAX_SPANS`). */
const STUDIO_MAX_SPANS = 250_000;

// ---- Node's side: decoding, the field to change, checking downloads -----------------------------

const must = (result, what) => {
  if (result._tag === 'Left') throw new Error(`${what}: ${result.left.message}`);
  return result.right;
};
const isBranch = (v) => v !== null && typeof v === 'object' && !ArrayBuffer.isView(v);
const keysOf = (v) => (Array.isArray(v) ? v.map((_, i) => i) : v instanceof Map ? [...v.keys()] : Object.keys(v));
const childOf = (v, k) => (v instanceof Map ? v.get(k) : v[k]);

/** A copy of `doc` with the leaf at `path` replaced (prototypes kept). */
function setIn(doc, path, value) {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(doc)) return doc.map((v, i) => (i === head ? setIn(v, rest, value) : v));
  if (doc instanceof Map) return new Map(doc).set(head, setIn(doc.get(head), rest, value));
  const copy = Object.assign(Object.create(Object.getPrototypeOf(doc)), doc);
  copy[head] = setIn(doc[head], rest, value);
  return copy;
}

/**
 * Other values of a leaf's own kind, in the order tried: an integer ±1; a text with its first digit
 * (else its first letter) changed, which keeps most texts' own syntax (a JSON world's text stays JSON).
 */
function otherValues(node) {
  if (typeof node === 'number' && Number.isInteger(node)) return [node + 1, node - 1];
  if (typeof node !== 'string') return [];
  const digit = node.search(/[0-9]/);
  if (digit >= 0) return [`${node.slice(0, digit)}${(Number(node[digit]) + 1) % 10}${node.slice(digit + 1)}`];
  const letter = node.search(/[a-z]/i);
  if (letter < 0) return [];
  const swapped =
    node[letter] === 'a' ? 'b' : node[letter] === 'A' ? 'B' : String.fromCharCode(node.charCodeAt(letter) - 1);
  return [`${node.slice(0, letter)}${swapped}${node.slice(letter + 1)}`];
}

/**
 * The field the browser changes through its input: the first integer leaf (document order) that can
 * take another value and give a save differing in exactly that field, else the first such text leaf
 * (a Terrarum JSON world is one text). Undefined with the reason when no leaf qualifies.
 */
function fieldToChange(format, doc) {
  const before = format.json.encode(doc);
  let tries = 0;
  let leaves = 0;
  for (const kind of ['number', 'string']) {
    const stack = [[[], doc]];
    while (stack.length > 0 && tries < 3000) {
      const [path, node] = stack.pop();
      if (isBranch(node)) {
        const keys = keysOf(node);
        for (let i = keys.length - 1; i >= 0; i--) stack.push([[...path, keys[i]], childOf(node, keys[i])]);
        continue;
      }
      if (typeof node !== kind) continue;
      // A key the "go to" box cannot type (a dot, brackets or spaces in it) is not reachable by input.
      if (path.some((k) => typeof k === 'string' && /[.[\]\s<>]/.test(k))) continue;
      leaves++;
      for (const value of otherValues(node)) {
        tries++;
        const encoded = format.encode(setIn(doc, path, value));
        if (encoded._tag === 'Left' || !(encoded.right instanceof Uint8Array)) continue;
        const again = format.decode(encoded.right);
        if (again._tag === 'Left') continue;
        const differences = diffDocuments(before, format.json.encode(again.right.value));
        const content = contentChanges(differences);
        if (content.length === 1 && content[0].path === formatPath(path))
          return { path: formatPath(path), value, before: node };
      }
    }
  }
  return {
    reason: `none of its ${leaves} integer and text leaves takes another value as a one-field change (${tries} tried)`,
  };
}

/** An input's text for a test's name (a world's text is 168,000 characters). */
const brief = (text) => (text.length > 24 ? `${text.slice(0, 21)}...` : text);

/** A value as `savekit diff` prints it: its JSON, cut at 80 characters. */
function shown(value) {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The differences that are content: a compressed stream another compressor wrote, which a format keeps
 * (`transformKeeping`'s `{ value, stored }`) so an unchanged save is written back byte for byte, is made
 * afresh once its value is edited: its `stored` bytes changing (or going) is framing, not content.
 */
function contentChanges(differences) {
  return differences.filter((d) => !(d.kind !== 'added' && d.path.endsWith('.stored')));
}

/**
 * A field inside a decompressed layer and its bytes there, found here independently: the layers'
 * buffers are recorded where they become readers, during the format's own field map.
 */
function layerField(format, bytes) {
  const layers = [];
  const layerReader = Reader.prototype.layerReader;
  Reader.prototype.layerReader = function (buffer) {
    layers.push(buffer);
    return layerReader.call(this, buffer);
  };
  let spans = [];
  try {
    spans = format.fieldMap?.(bytes) ?? [];
  } finally {
    Reader.prototype.layerReader = layerReader;
  }
  const paths = spans.map((s) => formatPath(documentPath(s.path)));
  const count = new Map();
  for (const p of paths) count.set(p, (count.get(p) ?? 0) + 1);
  const i = spans.findIndex(
    (s, j) => s.layer > 0 && s.end - s.start >= 2 && s.end - s.start <= 16 && count.get(paths[j]) === 1,
  );
  if (i < 0 || layers[spans[i].layer - 1] === undefined) return undefined;
  const span = spans[i];
  return { path: paths[i], layer: span.layer, bytes: layers[span.layer - 1].subarray(span.start, span.end) };
}

/** The download's differences from the save as opened (checksums enforced: a download must verify). */
function differencesOf(format, original, downloaded) {
  const a = must(format.decode(original, { checksums: 'warn' }), 'original');
  const b = must(format.decode(downloaded), 'download');
  return diffDocuments(format.json.encode(a.value), format.json.encode(b.value));
}

// ---- the browser's side -----------------------------------------------------------------------

/**
 * The longest task of the page's main thread (`CrRendererMain`) in a Chromium trace, in milliseconds
 * of that thread's CPU time (`tdur`); undefined when the trace has no such task.
 */
function longestMainThreadTaskCpu(trace) {
  const events = Array.isArray(trace) ? trace : (trace.traceEvents ?? []);
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let longest;
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || typeof e.tdur !== 'number') continue;
    if (!main.has(`${e.pid}:${e.tid}`)) continue;
    longest = Math.max(longest ?? 0, e.tdur / 1000);
  }
  return longest === undefined ? undefined : Math.round(longest);
}

const browser = await launchChromium();
const consoleErrors = [];
/** Requests that left the site or were not reads (none may happen: nothing is uploaded). */
const offsiteRequests = [];
let requestsSeen = 0;
async function newPage(viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  // "Nothing is uploaded": every request stays on the site's own origin (data: and blob: are local)
  // and only reads; a save sent anywhere, or any POST, fails the check below.
  page.on('request', (request) => {
    requestsSeen++;
    const url = new URL(request.url());
    const local = url.protocol === 'data:' || url.protocol === 'blob:' || url.origin === new URL(app).origin;
    if (!local || request.method() !== 'GET') offsiteRequests.push(`${request.method()} ${request.url()}`);
  });
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(app, { waitUntil: 'load' });
  return page;
}

/** Opens a save: a bundled sample by its button, anything else through the file picker. */
async function open(page, c, timeout = 30000) {
  await page.evaluate(() => {
    delete document.body.dataset.opened;
  });
  if (c.sample) await page.click(`button[data-sample="${c.name}"]`);
  else
    await page.setInputFiles(
      '[data-test="file"]',
      c.file ?? { name: c.name, mimeType: 'application/octet-stream', buffer: c.bytes },
    );
  await page
    .waitForFunction(
      (name) => document.body.dataset.opened === name || document.querySelector('.status.error'),
      c.name,
      { timeout },
    )
    .catch(() => undefined);
  return page.evaluate(() => document.body.dataset.opened);
}

async function download(page) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 60000 }),
    page.click('[data-test="save"]'),
  ]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** Selects a document path through the "go to" box and waits for the field's editor. */
async function goTo(page, path) {
  await page.evaluate(() => {
    delete document.body.dataset.selected;
  });
  await page.fill('[data-test="goto"]', path);
  await page.press('[data-test="goto"]', 'Enter');
  await page
    .waitForFunction((p) => document.body.dataset.selected === p, path, { timeout: 15000 })
    .catch(() => undefined);
}

async function changesText(page) {
  return (await page.locator('[data-test="changes"]').textContent()) ?? '';
}

async function waitEdits(page, before) {
  await page
    .waitForFunction((n) => Number(document.body.dataset.edits ?? 0) > n, before, { timeout: 15000 })
    .catch(() => undefined);
}
const edits = (page) => page.evaluate(() => Number(document.body.dataset.edits ?? 0));

/** Each view of the open save: its tab clicked, its picture screenshotted; returns what was drawn. */
async function renderViews(page, label) {
  const ids = await page.locator('#view-tabs button').evaluateAll((b) => b.map((x) => x.dataset.view));
  const shots = {};
  for (const id of ids) {
    // The last save's picture goes first: a view of the same id would otherwise pass for this one's.
    await page.locator('[data-test="view"]').evaluate((host) => host.replaceChildren());
    await page.click(`#view-tabs button[data-view="${id}"]`);
    // Drawn from the answer to this click (earlier asks' pictures, still coming after an edit, are dropped).
    await page
      .waitForFunction((v) => document.body.dataset.picture === v, id, { timeout: 20000 })
      .catch(() => undefined);
    await page
      .waitForSelector('[data-test="view"] canvas, [data-test="view"] svg, [data-test="view"] table', {
        timeout: 10000,
      })
      .catch(() => undefined);
    await page.waitForTimeout(100);
    const element = page.locator('[data-test="view"] canvas, [data-test="view"] svg, [data-test="view"] table').first();
    const drawn = await element
      .evaluate((el) =>
        el.tagName === 'CANVAS'
          ? el.width * el.height
          : el.tagName === 'svg'
            ? el.childElementCount
            : el.querySelectorAll('tbody tr').length,
      )
      .catch(() => 0);
    check(`${label}: view "${id}" renders`, drawn > 0, `${drawn}`);
    if (drawn > 0) {
      const png = await element.screenshot({ path: join(outDir, `view-${label}-${id}.png`) });
      shots[id] = png;
    }
  }
  return shots;
}

/** Fraction of pixels differing (any channel by more than 48) between two PNGs, decoded by the browser. */
async function pngDifference(page, a, b) {
  return page.evaluate(
    async ([x, y]) => {
      const pixels = async (b64) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(bitmap, 0, 0);
        return { w: bitmap.width, h: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
      };
      const [p, q] = [await pixels(x), await pixels(y)];
      if (p.w !== q.w || p.h !== q.h) return { size: `${p.w}×${p.h} vs ${q.w}×${q.h}`, fraction: 1 };
      let differ = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        if ([0, 1, 2, 3].some((c) => Math.abs(p.data[i + c] - q.data[i + c]) > 48)) differ++;
      }
      return { fraction: differ / (p.w * p.h) };
    },
    [a.toString('base64'), b.toString('base64')],
  );
}

/**
 * Checks a view's screenshot against its reference PNG in docs/studio/test/reference (≤ 1% of pixels
 * off). STUDIO_UPDATE_REFERENCES=1 writes the reference from this run first; a missing reference fails.
 */
async function matchesReference(page, file, png, what) {
  const reference = join(references, file);
  if (process.env.STUDIO_UPDATE_REFERENCES) {
    writeFileSync(reference, png);
    console.log(`studio: wrote reference ${reference}`);
  }
  if (!existsSync(reference)) {
    check(`${what} matches its reference picture`, false, `no ${file}: run with STUDIO_UPDATE_REFERENCES=1`);
    return;
  }
  const diff = await pngDifference(page, png, readFileSync(reference));
  check(`${what} matches its reference picture (≤ 1% pixels off)`, diff.fraction <= 0.01, JSON.stringify(diff));
}

// ---- the cases --------------------------------------------------------------------------------

const samplesDir = join(root, 'examples', 'saves');
const cases = [
  { name: 'edge-01.esg', sample: true },
  { name: 'uqm-01.sav', sample: true },
  { name: 'zippy-01.zsav', sample: true },
  { name: 'terrarum-01.tevd', sample: true },
  { name: 'skirmish-01.sks', sample: true },
].map((c) => ({ ...c, bytes: readFileSync(join(samplesDir, c.name)) }));
// Every real save in the corpus (SAVEKIT_CORPUS, else ../shared/vectors-found): each folder listed, each
// file kept that a registered format sniffs; the rest (READMEs, EDGE's expected-value JSON) are named
// as skipped, so a real save no format claims shows up in the output rather than vanishing.
const vectors = corpusRoot({ from: root }) ?? join(root, '..', 'shared', 'vectors-found');
const corpusFolders = existsSync(vectors)
  ? readdirSync(vectors)
      .filter((f) => statSync(join(vectors, f)).isDirectory())
      .sort()
  : [];
if (corpusFolders.length === 0)
  console.log(`studio: no corpus at ${vectors} (set SAVEKIT_CORPUS); real saves are skipped`);
for (const folder of corpusFolders) {
  const dir = join(vectors, folder);
  const notSaves = [];
  for (const f of readdirSync(dir).sort()) {
    const file = join(dir, f);
    if (!statSync(file).isFile()) continue;
    const bytes = readFileSync(file);
    if (registry.detect(bytes) === undefined) notSaves.push(f);
    else cases.push({ name: f, bytes, file });
  }
  if (notSaves.length > 0)
    console.log(`studio: ${folder}/: no format sniffs ${notSaves.join(', ')}; not saves, skipped`);
}

try {
  if (served === site) {
    // The docs page explains the studio and links to it; the home page links the docs page.
    const docs = await browser.newPage();
    await docs.goto(new URL('/studio/', app).href, { waitUntil: 'load' });
    await docs.click('a.studio-open');
    await docs.waitForSelector('[data-test="drop"]', { timeout: 15000 }).catch(() => undefined);
    check(
      "the docs page's link opens the studio",
      (await docs.locator('[data-test="drop"]').count()) === 1,
      docs.url(),
    );
    await docs.goto(new URL('/', app).href, { waitUntil: 'load' });
    check('the docs home page links the studio', (await docs.locator('a[href*="studio/"]').count()) > 0);
    await docs.close();
  }
  const page = await newPage();
  check('the studio page loads', (await page.locator('[data-test="drop"]').count()) === 1);

  for (const c of cases) {
    const format = registry.detect(c.bytes);
    if (format === undefined) {
      check(`${c.name}: a registered format claims it`, false);
      continue;
    }
    const opened = await open(page, c);
    const status = (await page.locator('[data-test="status"]').textContent()) ?? '';
    check(
      `${c.name}: opens as ${format.id}`,
      opened === c.name && status.includes(`(${format.id})`),
      status.slice(0, 200),
    );
    if (opened !== c.name) continue;
    await page.screenshot({ path: join(outDir, `open-${c.name}.png`) });

    // A field inside a decompressed layer: its pane is shown, and its bytes there are lit.
    const inLayer = layerField(format, c.bytes);
    if (inLayer !== undefined) {
      await goTo(page, inLayer.path);
      const shownPane = await page.evaluate(
        () => document.querySelector('#hex-tabs button[aria-selected="true"]')?.dataset.pane,
      );
      const lit = await page.locator('[data-test="hex"] .byte.hl').allTextContents();
      const expected = [...inLayer.bytes].map((b) => b.toString(16).padStart(2, '0'));
      check(
        `${c.name}: ${inLayer.path} lights its ${expected.length} bytes in layer ${inLayer.layer}'s pane`,
        shownPane === String(inLayer.layer) && lit.join(' ') === expected.join(' '),
        `pane ${shownPane}, lit ${lit.join(' ')}, expected ${expected.join(' ')}`,
      );
    }

    const same = await download(page);
    check(
      `${c.name}: unchanged save downloads byte-identical, same name`,
      same.name === c.name && same.bytes.equals(c.bytes),
      `${same.name}, ${same.bytes.length} bytes`,
    );

    const doc = must(format.decode(c.bytes, { checksums: 'warn' }), c.name).value;
    const field = fieldToChange(format, doc);
    if (field.path === undefined) {
      check(`${c.name}: has a field to change by its input`, false, field.reason);
      continue;
    }
    await goTo(page, field.path);
    const input = page.locator('[data-test="field-input"]');
    const was = await input.inputValue().catch(() => '');
    const before = await edits(page);
    await input.fill(String(field.value));
    await page.click('[data-test="apply"]');
    await waitEdits(page, before);
    const listed = await changesText(page);
    // The line `savekit diff` prints for this change.
    const line = `~ ${field.path}: ${shown(field.before)} → ${shown(field.value)}`;
    check(
      `${c.name}: editing ${field.path} by its input (${brief(was)} → ${brief(String(field.value))}) lists it as savekit diff does`,
      was === String(field.before) && listed.includes(line),
      `input showed ${brief(was)}; ${listed.slice(0, 200)} (expected ${line})`,
    );
    const edited = await download(page);
    let differences = [];
    try {
      differences = differencesOf(format, c.bytes, edited.bytes);
    } catch (error) {
      differences = [{ path: String(error.message), kind: 'error' }];
    }
    check(
      `${c.name}: the download decodes (checksums enforced) with exactly that one change`,
      edited.name === c.name &&
        contentChanges(differences).length === 1 &&
        differences[0].path === field.path &&
        JSON.stringify(differences[0].after) === JSON.stringify(field.value) &&
        // A kept stream made afresh must be the one holding the edited field.
        differences.slice(1).every((d) => field.path.startsWith(d.path.slice(0, -'stored'.length))),
      JSON.stringify(differences).slice(0, 300),
    );
    // Undo puts the document back as opened.
    const beforeUndo = await edits(page);
    await page.click('[data-test="undo"]');
    await waitEdits(page, beforeUndo);
    check(`${c.name}: undo takes the change back`, (await changesText(page)).includes('no differences'));
    await renderViews(page, c.name);
  }

  // An invalid value: the EncodeError (or the input's check) is shown at the field, nothing changes.
  {
    const c = cases.find((x) => x.name === 'skirmish-01.sks');
    await open(page, c);
    await goTo(page, 'chunks[0].body');
    const before = await edits(page);
    await page.fill('[data-test="field-input"]', `${'x'.repeat(300)}\u0101`);
    await page.click('[data-test="apply"]');
    await waitEdits(page, before);
    const error = (await page.locator('[data-test="field-error"]').textContent()) ?? '';
    check(
      "an invalid text shows the encoder's message at the field",
      error.length > 0 && (await changesText(page)).includes('no differences'),
      error,
    );
  }

  // A text of several lines is edited in a text area (a one-line input would drop its line breaks):
  // applied as shown, it is no change. The text is the first such leaf of a bundled sample.
  {
    let found;
    for (const c of cases.filter((x) => x.sample)) {
      const format = registry.detect(c.bytes);
      const stack = [[[], must(format.decode(c.bytes), c.name).value]];
      while (stack.length > 0 && found === undefined) {
        const [path, node] = stack.pop();
        if (isBranch(node)) {
          const keys = keysOf(node);
          for (let i = keys.length - 1; i >= 0; i--) stack.push([[...path, keys[i]], childOf(node, keys[i])]);
        } else if (typeof node === 'string' && node.includes('\n') && !path.some((k) => /[.[\]\s<>]/.test(String(k))))
          found = { c, path: formatPath(path), text: node };
      }
      if (found !== undefined) break;
    }
    if (found === undefined) check('a bundled sample has a text of several lines', false);
    else {
      await open(page, found.c);
      await goTo(page, found.path);
      const input = page.locator('[data-test="field-input"]');
      const tag = await input.evaluate((el) => el.tagName).catch(() => null);
      const shownText = await input.inputValue().catch(() => '');
      const before = await edits(page);
      await page.click('[data-test="apply"]');
      await waitEdits(page, before);
      // (No download at all when the text came back changed and the save did not verify.)
      const same = await download(page).catch(() => ({ bytes: Buffer.alloc(0) }));
      check(
        `${found.c.name}: ${found.path} (several lines) is a text area, and applied as shown it changes nothing`,
        tag === 'TEXTAREA' &&
          shownText === found.text &&
          (await changesText(page)).includes('no differences') &&
          same.bytes.equals(found.c.bytes),
        `${tag}, ${JSON.stringify(shownText.slice(0, 40))}, ${same.bytes.length} bytes`,
      );
    }
  }

  // A one-bit field is a checkbox; ticking it is one change.
  {
    const c = cases.find((x) => x.name === 'skirmish-01.sks');
    await open(page, c);
    await goTo(page, 'options.fogOfWar');
    const input = page.locator('[data-test="field-input"]');
    const type = await input.getAttribute('type').catch(() => null);
    const was = await input.isChecked().catch(() => false);
    const before = await edits(page);
    await input.setChecked(!was).catch(() => undefined);
    await page.click('[data-test="apply"]');
    await waitEdits(page, before);
    const edited = await download(page);
    let differences = [];
    try {
      differences = differencesOf(skirmish, c.bytes, edited.bytes);
    } catch (error) {
      differences = [{ path: error.message }];
    }
    check(
      'a bit flag is edited as a checkbox, and downloads as that one change',
      type === 'checkbox' && differences.length === 1 && differences[0].path === 'options.fogOfWar',
      `${type}; ${JSON.stringify(differences)}`,
    );
  }

  // A corrupted save (its Adler-32 broken) opens with its warning and saves back repaired.
  for (const c of [cases.find((x) => x.name === 'skirmish-01.sks')]) {
    const broken = Buffer.from(c.bytes);
    broken[broken.length - 1] ^= 0xff;
    await open(page, { name: 'broken.sks', bytes: broken });
    const warnings = (await page.locator('[data-test="warnings"]').textContent()) ?? '';
    check(
      'a corrupted save opens with its checksum warning (stored vs computed), which saving repairs',
      /Adler-32 mismatch: stored 0x[0-9a-f]+, computed 0x[0-9a-f]+.*\(saving writes it repaired\)/.test(warnings),
      warnings || 'no warnings',
    );
    const repaired = await download(page);
    check(
      'the corrupted save downloads repaired (the original bytes)',
      repaired.bytes.equals(c.bytes),
      `${repaired.bytes.length} bytes`,
    );
    await page.screenshot({ path: join(outDir, 'corrupted.png') });
  }

  // The formats' own pictures, each against its reference PNG: EDGE's thumbnail (the bundled sample's
  // 160×100 View lump), a real UQM 0.8 save's star map and escort roster, a Terrarum world's tiles
  // (the bundled sample's 32×16 world and, where available, the real 2,400×1,280 demo world).
  {
    const uqmSave = join(vectors, 'uqm', '02-SingleRadioactiveFromMercury.uqmsave.dat');
    const demoWorld = join(vectors, 'terrarum', 'Terrarum_demoworld_2021-09-08.json');
    const pictures = [
      { c: cases.find((x) => x.name === 'edge-01.esg'), views: { thumbnail: 'edge-thumbnail.png' } },
      { file: uqmSave, views: { 'star-map': 'uqm-star-map.png', roster: 'uqm-roster.png' } },
      { c: cases.find((x) => x.name === 'terrarum-01.tevd'), views: { 'world-tiles': 'terrarum-world-tiles.png' } },
      { file: demoWorld, views: { 'world-tiles': 'terrarum-demoworld-tiles.png' } },
    ];
    for (const { c: known, file, views } of pictures) {
      if (known === undefined && !existsSync(file)) {
        console.log(`studio: ${file} not available; its pictures are not compared`);
        continue;
      }
      const c = known ?? { name: file.split('/').pop(), bytes: readFileSync(file), file };
      if ((await open(page, c)) !== c.name) {
        check(`${c.name}: opens for its pictures`, false);
        continue;
      }
      const shots = await renderViews(page, `picture-${c.name}`);
      for (const [id, reference] of Object.entries(views)) {
        if (shots[id] === undefined) check(`${c.name}: view "${id}" is offered and drawn`, false);
        else await matchesReference(page, reference, shots[id], `${c.name}: view "${id}"`);
      }
    }
    // Clicking Sol on the real save's star map selects Sol's document path (its starinfo block: vanilla
    // 0.8 records no visits, so no star offers an edit) in the tree. Sol is under the flagship's cross:
    // the click goes through the cross to the star.
    if (existsSync(uqmSave)) {
      const bytes = readFileSync(uqmSave);
      const doc = must(uqm.decode(bytes), 'uqm').value;
      const map = uqm.views.find((v) => v.id === 'star-map').render(doc);
      const sol = map.marks.findIndex((m) => m.label?.startsWith('Sol '));
      const solPath = map.marks[sol]?.path;
      await open(page, { name: 'sol.sav', bytes });
      await page.click('#view-tabs button[data-view="star-map"]');
      const mark = page.locator(`[data-test="view"] svg [data-target="${sol}"]`);
      await mark.waitFor({ timeout: 10000 }).catch(() => undefined);
      await page.evaluate(() => {
        delete document.body.dataset.selected;
      });
      await mark.click({ timeout: 10000 }).catch(() => undefined);
      await page
        .waitForFunction((p) => document.body.dataset.selected === p, solPath, { timeout: 10000 })
        .catch(() => undefined);
      const inTree = await page
        .locator('[data-test="tree"] .line.sel')
        .getAttribute('data-path')
        .catch(() => null);
      check(
        `clicking Sol on the star map selects its path (${solPath}) in the tree, and offers no edit`,
        solPath !== undefined &&
          (await page.evaluate(() => document.body.dataset.selected)) === solPath &&
          inTree === solPath &&
          (await page.locator('[data-test="view-actions"] button[data-edit]').count()) === 0,
        `selected ${await page.evaluate(() => document.body.dataset.selected)}, tree ${inTree}`,
      );
      await page.screenshot({ path: join(outDir, 'star-map-sol.png') });
    }
  }

  // The demo plugin, loaded from a URL: views, their reference pictures, a view's edit, a layer pane.
  {
    await page.click('.plugins summary');
    await page.fill('[data-test="plugin-url"]', new URL('plugins/studio-demo.js', app).href);
    await page.click('#plugin-form button[type="submit"]');
    await page
      .waitForFunction(
        () => document.querySelector('[data-test="formats"]')?.textContent?.includes('studio-demo'),
        undefined,
        { timeout: 10000 },
      )
      .catch(() => undefined);
    check(
      'a plugin loads from a URL',
      ((await page.locator('[data-test="formats"]').textContent()) ?? '').includes('studio-demo'),
    );
    const bytes = Buffer.from(must(demo.format.encode(demo.sampleDemo()), 'demo'));
    writeFileSync(join(outDir, 'demo-01.sdemo'), bytes);
    await open(page, { name: 'demo-01.sdemo', bytes });
    const shots = await renderViews(page, 'demo');
    for (const [id, png] of Object.entries(shots)) await matchesReference(page, `${id}.png`, png, `demo view "${id}"`);
    // Clicking star 1 selects it and offers its edit; the edit is a document edit like any other.
    await page.click('#view-tabs button[data-view="stars"]');
    await page.waitForSelector('[data-test="view"] svg [data-target="2"]', { timeout: 10000 }).catch(() => undefined);
    await page.locator('[data-test="view"] svg [data-target="2"]').click({ force: true });
    await page
      .waitForFunction(() => document.body.dataset.selected === 'stars[1]', undefined, { timeout: 10000 })
      .catch(() => undefined);
    check(
      'clicking a star selects its path',
      (await page.evaluate(() => document.body.dataset.selected)) === 'stars[1]',
    );
    const before = await edits(page);
    await page.click('[data-test="view-actions"] button[data-edit="0"]');
    await waitEdits(page, before);
    const edited = await download(page);
    let differences = [];
    try {
      differences = differencesOf(demo.format, bytes, edited.bytes);
    } catch (error) {
      differences = [{ path: error.message }];
    }
    check(
      "a view's edit (mark star 1 visited) downloads as exactly that change",
      differences.length === 1 && differences[0].path === 'stars[1].visited' && differences[0].after === 1,
      JSON.stringify(differences),
    );
    await page.click('[data-test="undo"]');
    // Array elements move, duplicate and go: ship 1 moved up is a save with the two ships swapped.
    await goTo(page, 'fleet.ships[1]');
    const beforeMove = await edits(page);
    await page.click('[data-test="element-actions"] button[data-op="up"]');
    await waitEdits(page, beforeMove);
    const moved = await download(page);
    let ships = [];
    try {
      ships = must(demo.format.decode(moved.bytes), 'moved').value.fleet.ships.map((x) => x.name);
    } catch (error) {
      ships = [error.message];
    }
    check(
      'moving an array element up swaps it in the saved file',
      JSON.stringify(ships) === '["Tobermoon","Vindicator"]',
      JSON.stringify(ships),
    );
    await page.click('[data-test="undo"]');
    // A field behind the XOR layer lights its two bytes in the layer's own pane; clicking one selects it.
    await goTo(page, 'fleet.ships[0].crew');
    const pane = await page
      .locator('#hex-tabs button[aria-selected="true"]')
      .getAttribute('data-pane')
      .catch(() => null);
    const lit = await page.locator('[data-test="hex"] .byte.hl').count();
    check(
      'a field inside a layer is shown in the layer pane, its 2 bytes lit',
      pane === '1' && lit === 2,
      `pane ${pane}, ${lit} lit`,
    );
    await goTo(page, 'version');
    await page.locator('[data-test="hex"] .byte[data-offset="9"]').click();
    await page
      .waitForFunction(() => document.body.dataset.selected !== 'version', undefined, { timeout: 5000 })
      .catch(() => undefined);
    check(
      'clicking a byte selects its field',
      (await page.evaluate(() => document.body.dataset.selected)) === 'pixels',
    );
    await page.screenshot({ path: join(outDir, 'demo.png') });
  }

  // Keyboard: arrows move through the tree, Enter opens a branch, Ctrl+Z undoes.
  {
    const c = cases[1];
    await open(page, c);
    await page.focus('[data-test="tree"]');
    await page.click('[data-test="tree"] .node[data-path="(root)"]');
    await page
      .waitForFunction(() => document.body.dataset.selected === '(root)', undefined, { timeout: 5000 })
      .catch(() => undefined);
    await page.keyboard.press('ArrowDown');
    await page
      .waitForFunction(() => document.body.dataset.selected !== '(root)', undefined, { timeout: 5000 })
      .catch(() => undefined);
    const moved = await page.evaluate(() => document.body.dataset.selected);
    check('ArrowDown moves the selection in the tree', moved !== undefined && moved !== '(root)', String(moved));
  }

  // A phone's width: nothing wider than the screen.
  {
    const phone = await newPage({ width: 390, height: 844 });
    // A plugin from a file, then a save of its format dropped on the page.
    await phone.click('.plugins summary');
    await phone.setInputFiles('#plugin-file', join(appDir, 'plugins', 'skirmish.js'));
    await phone
      .waitForFunction(
        () => document.querySelector('[data-test="formats"]')?.textContent?.includes('skirmish'),
        undefined,
        {
          timeout: 10000,
        },
      )
      .catch(() => undefined);
    check(
      'a plugin loads from a file',
      ((await phone.locator('[data-test="formats"]').textContent()) ?? '').includes('skirmish'),
    );
    const sks = cases.find((x) => x.name === 'skirmish-01.sks');
    await phone.evaluate(
      ([name, b64]) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      ['dropped.sks', sks.bytes.toString('base64')],
    );
    await phone
      .waitForFunction(() => document.body.dataset.opened === 'dropped.sks', undefined, { timeout: 15000 })
      .catch(() => undefined);
    check(
      'a save dropped on the page opens',
      (await phone.evaluate(() => document.body.dataset.opened)) === 'dropped.sks',
    );
    await open(phone, cases[0]);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check('at a phone width nothing overflows sideways', overflow <= 1, `${overflow}px too wide`);
    await phone.screenshot({ path: join(outDir, 'phone.png'), fullPage: true });
    await phone.close();
  }

  // 50 MB: opens without a main-thread task over 200 ms (PerformanceObserver longtask).
  {
    const big = join(outDir, 'big-world.tevd');
    if (!existsSync(big) || statSync(big).size < 50e6) writeFileSync(big, terrarumSynthetic(3600));
    const size = statSync(big).size;
    const large = await newPage();
    await large.evaluate(() => {
      window.__longest = 0;
    });
    // Chromium's trace gives each main-thread task's thread CPU time (`tdur`) beside its wall time: the
    // work the page did, which a busy machine does not inflate (wall time it does — a longtask entry of a
    // task that waited for a core). The check is on CPU time; the wall-clock longest is reported.
    await browser.startTracing(large, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const opened = await open(large, { name: 'big-world.tevd', file: big }, 180000);
    check(
      `a ${(size / 1e6).toFixed(0)} MB synthetic save opens`,
      opened === 'big-world.tevd',
      (await large.locator('[data-test="status"]').textContent()) ?? '',
    );
    await goTo(large, 'disk.entries[3].content.data');
    await large.locator('[data-test="hex"]').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await large.waitForTimeout(300);
    await large.locator('[data-test="tree"]').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await large.waitForTimeout(300);
    const lastRow = await large
      .locator('[data-test="hex"] .off')
      .last()
      .textContent()
      .catch(() => '');
    check(
      'its hex view scrolls to the last bytes',
      Number.parseInt(lastRow ?? '0', 16) >= size - 16 * 60,
      `${lastRow}`,
    );
    const longest = await large.evaluate(() => window.__longest);
    const longestCpu = longestMainThreadTaskCpu(JSON.parse((await browser.stopTracing()).toString('utf8')));
    // The studio measures its handling of each worker answer: the slow ones name what a long task was.
    const slow = await large.evaluate(() =>
      performance
        .getEntriesByType('measure')
        .filter((m) => m.duration > 30)
        .map((m) => `${m.name} ${Math.round(m.duration)} ms`),
    );
    check(
      'the longest main-thread task while opening and scrolling it is under 200 ms of CPU time',
      longestCpu !== undefined && longestCpu < 200,
      `${longestCpu} ms CPU (${longest} ms wall); handlers over 30 ms: ${slow.join(', ') || 'none'}`,
    );
    console.log(
      `studio: ${(size / 1e6).toFixed(1)} MB save, longest main-thread task ${longestCpu} ms CPU, ${longest} ms wall`,
    );
    // The world's 3,600×3,600 picture is drawn at the size it is shown: a canvas holding all its 52 MB
    // of pixels cost a frame that copied them (a 50 ms task here, 239 ms on a busy CI run). Zoomed in,
    // the canvas holds more of them, never more than the picture has.
    const canvasOf = () =>
      large.locator('[data-test="view"] canvas').evaluate((c) => ({
        width: c.width,
        height: c.height,
        shown: Math.ceil(c.getBoundingClientRect().width * devicePixelRatio),
      }));
    const fitted = await canvasOf().catch((error) => ({ error: String(error) }));
    check(
      "the world's picture canvas holds the pixels it shows (315-odd), not the picture's 3,600",
      fitted.width !== undefined && fitted.width <= fitted.shown + 1 && fitted.width < 3600,
      JSON.stringify(fitted),
    );
    for (let i = 0; i < 8; i++) await large.click('[data-test="view"] button[aria-label="zoom in"]');
    const zoomed = await canvasOf().catch((error) => ({ error: String(error) }));
    check(
      'zoomed in 256×, it holds more of them, at most the picture’s 3,600×3,600',
      zoomed.width === 3600 && zoomed.height === 3600 && zoomed.shown > 3600,
      JSON.stringify(zoomed),
    );
    // The measures themselves: a deliberate 250 ms busy task on the page is seen by both the trace and
    // the longtask observer (so a small number above means no long task, not a blind measure).
    // (Scheduled as a task of the page's own: code run by `evaluate` is not a task the observer reports.)
    await browser.startTracing(large, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await large.evaluate(() => {
      setTimeout(() => {
        const start = performance.now();
        while (performance.now() - start < 250);
      }, 0);
    });
    await large.waitForTimeout(500);
    const seenCpu = longestMainThreadTaskCpu(JSON.parse((await browser.stopTracing()).toString('utf8')));
    const seen = await large.evaluate(() => window.__longest);
    check('the long-task observer sees a deliberate 250 ms task', seen >= 240, `${seen} ms`);
    // Its CPU time is at most its 250 ms of wall time (less if the machine gave the thread less).
    check(
      'the trace sees the same task on the main thread',
      seenCpu !== undefined && seenCpu >= 50,
      `${seenCpu} ms CPU`,
    );
    await large.screenshot({ path: join(outDir, 'big-world.png') });
    await large.close();
  }
  // More fields than the studio maps (an EDGE level of 30,000 mobjs: ~1.5 million fields inside its
  // compressed chunks; mapping each took ~700 bytes in the worker, gigabytes for a bigger level): it
  // opens mapping the file's own bytes, says so, lights a mobj field's nearest mapped chunk bytes in
  // the file's pane, and edits and saves as any save.
  {
    const bytes = Buffer.from(encodeOrThrow(edgeSave, syntheticSave(30_000, 'C')));
    const name = 'big-level.sav';
    let whole = true;
    try {
      edge.fieldMap(bytes, { maxSpans: STUDIO_MAX_SPANS });
    } catch (error) {
      whole = !(error instanceof BudgetError && error.budget === 'spans');
    }
    check(`the 30,000-mobj EDGE save has more than ${STUDIO_MAX_SPANS.toLocaleString('en')} fields`, !whole);
    const doc = must(edge.decode(bytes), name).value;
    const data = doc.chunks.findIndex((c) => c.id === 'Data' && c.body.value.array === 'mobjs');
    const path = `chunks[${data}].body.value.elements[12345].tics`;
    const before = doc.chunks[data].body.value.elements[12345].tics;
    // The nearest enclosing field the file-only map has: what the studio lights for a field inside.
    const own = edge.fieldMap(bytes, { layers: false }).map((s) => ({ ...s, at: formatPath(documentPath(s.path)) }));
    const nearest = own
      .filter((s) => path.startsWith(`${s.at}.`) || path.startsWith(`${s.at}[`))
      .reduce((best, s) => (best === undefined || s.at.length > best.at.length ? s : best), undefined);
    const page = await newPage();
    const opened = await open(page, { name, bytes }, 120000);
    const note = page.locator('[data-test="map-note"]');
    const noteText = (await note.textContent()) ?? '';
    // Its older layout's warnings (fields the file lacks take defaults) are not ones saving repairs.
    const said = await page.locator('[data-test="warnings"] li').allTextContents();
    check(
      "its layout's warnings name their definitions by document path, and do not promise a repair",
      said.length > 0 && said.every((w) => /^warning at chunks\[\d+\]\.body\.value/.test(w) && !w.includes('repaired')),
      said.slice(0, 2).join(' | '),
    );
    check(
      'it opens, saying its bytes inside decompressed layers are not mapped',
      opened === name && (await note.isVisible()) && noteText.includes(STUDIO_MAX_SPANS.toLocaleString('en')),
      `${opened}; note: ${noteText}`,
    );
    await goTo(page, path);
    const shownPane = await page.evaluate(
      () => document.querySelector('#hex-tabs button[aria-selected="true"]')?.dataset.pane,
    );
    const litOffsets = (
      await page.locator('[data-test="hex"] .byte.hl').evaluateAll((els) => els.map((e) => e.dataset.offset))
    ).map(Number);
    const inside = (o) => own.some((s) => s.at === nearest?.at && s.layer === 0 && o >= s.start && o < s.end);
    check(
      `${path} lights the bytes of ${nearest?.at} in the file's pane`,
      nearest !== undefined && shownPane === '0' && litOffsets.length > 0 && litOffsets.every(inside),
      `pane ${shownPane}, ${litOffsets.length} lit from ${litOffsets[0]}`,
    );
    await page.screenshot({ path: join(outDir, 'big-level.png') });
    const input = page.locator('[data-test="field-input"]');
    const was = await input.inputValue().catch(() => '');
    const editsBefore = await edits(page);
    await input.fill(String(before + 1));
    await page.click('[data-test="apply"]');
    await waitEdits(page, editsBefore);
    const edited = await download(page);
    let differences = [];
    try {
      differences = contentChanges(differencesOf(edge, bytes, edited.bytes));
    } catch (error) {
      differences = [{ path: String(error.message), kind: 'error' }];
    }
    check(
      `editing ${path} (${was} → ${before + 1}) downloads a save with exactly that change`,
      was === String(before) &&
        differences.length === 1 &&
        differences[0].path === path &&
        differences[0].after === before + 1,
      JSON.stringify(differences).slice(0, 300),
    );
    await page.close();
  }
  // More fields than the map holds in the file itself (25,000 Zippy objects, no compressed layer):
  // it opens unmapped and says so; selecting a field lights nothing, and the tree works as ever.
  {
    const roots = Array.from({ length: 25_000 }, (_, i) => new Vector([i, i / 64, 3, 4, 5, 6, 7, 8, 9, 10]));
    const bytes = Buffer.from(must(writeSavefile(roots, adataSaver), 'zippy save'));
    const name = 'many-objects.zsav';
    const page = await newPage();
    const opened = await open(page, { name, bytes }, 120000);
    const noteText = (await page.locator('[data-test="map-note"]').textContent()) ?? '';
    check(
      'a save with more fields than the map holds in the file itself opens unmapped, saying so',
      opened === name && noteText.includes('in the file itself'),
      `${opened}; note: ${noteText}`,
    );
    await goTo(page, 'objects[20000].tag');
    const selected = await page.evaluate(() => document.body.dataset.selected);
    const lit = await page.locator('[data-test="hex"] .byte.hl').count();
    check('its fields are still selected by path, lighting no bytes', selected === 'objects[20000].tag' && lit === 0);
    await page.close();
  }
  check('no console errors', consoleErrors.length === 0, consoleErrors.slice(0, 5).join('; '));
  check(
    'nothing is uploaded: every request was a GET to the site itself',
    requestsSeen > 0 && offsiteRequests.length === 0,
    `${requestsSeen} requests seen; ${offsiteRequests.slice(0, 5).join('; ') || 'none off the site'}`,
  );
} finally {
  await browser.close();
  server.close();
}
finish('studio', outDir);
