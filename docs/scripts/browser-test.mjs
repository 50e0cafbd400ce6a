// The docs site in a real browser: Debian's Chromium, driven by playwright-core, opens the built site
// from a local static server, loads a sample save of each registered format in the playground, checks
// the tree shows known values, hovers a field and checks its bytes light up in the hexdump (checked
// against the file: offsets, two groups of 8 bytes, the ASCII column), rebuilds,
// and saves a screenshot per format under test-output/browser/; first, compiled codecs on a page served
// with a CSP without 'unsafe-eval' (csp-check.mjs). Prints `browser: N passed, N failed`.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCompiledUnderCsp, checkLzoUnderCsp } from './csp-check.mjs';
import { checkTally, launchChromium, serveSite } from './serve-site.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = join(here, '..', '.vitepress', 'dist');
const outDir = join(here, '..', '..', 'test-output', 'browser');
mkdirSync(outDir, { recursive: true });
if (!existsSync(join(dist, 'index.html'))) {
  console.error('browser test: the site is not built (npm run docs:build)');
  process.exit(1);
}

const { server, origin: base } = await serveSite(dist);
const browser = await launchChromium(['--disable-quic', '--disable-component-update', '--disable-sync']);

// Each sample: a value its tree must show, and a field to hover (its data-path).
const cases = [
  { sample: 'edge-01.esg', format: 'edge', shows: ['MAP01', 'OUR HERO', 'thumbnail: 160×100'], hover: 'chunks.1' },
  {
    sample: 'uqm-01.sav',
    format: 'uqm',
    shows: ['Sample: Sol, Mercury mined', 'star 82 (17 worlds)'],
    hover: 'summary.sis.resUnits',
  },
  {
    sample: 'zippy-01.zsav',
    format: 'zippy',
    shows: ['ZSAV 2.0 (big-endian), 11 objects', 'DATA'],
    hover: 'objects.1',
  },
  {
    sample: 'terrarum-01.tevd',
    format: 'terrarum',
    shows: ['holds the save "Sample: Nimbus"', 'worldinfo2'],
    hover: 'disk.entries.4',
  },
  { sample: 'skirmish-01.sks', format: 'skirmish', shows: ['Bridge at Ütersen', 'scout'], hover: 'chunks.1.body' },
];

const samplesDir = join(here, '..', '..', 'examples', 'saves');
const printable = (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.');

/**
 * The hex pane is a classic hexdump: each row an offset, 16 bytes with a wider gap after the eighth,
 * and an ASCII column ('.' for anything not printable) — checked against the sample's bytes read
 * here in Node, with the highlighted field lit in both columns.
 */
async function checkHexdump(page, c) {
  const file = readFileSync(join(samplesDir, c.sample));
  const rows = await page.locator('[data-test="hex"] .row').evaluateAll((elements) =>
    elements.map((row) => {
      const box = (el) => el.getBoundingClientRect();
      const bytes = [...row.querySelectorAll('.byte')];
      const ascii = row.querySelector('.ascii');
      return {
        offset: row.querySelector('.off')?.textContent ?? '',
        hex: bytes.map((b) => b.textContent),
        chars: [...(ascii?.querySelectorAll('.chr') ?? [])].map((ch) => ch.textContent),
        gapAt: bytes.findIndex((b) => b.classList.contains('gap')),
        // Space between neighbouring bytes: after the 8th byte, and the largest elsewhere.
        gap: bytes.length > 8 ? box(bytes[8]).left - box(bytes[7]).right : undefined,
        spacing: Math.max(0, ...bytes.slice(1).map((b, i) => (i + 1 === 8 ? 0 : box(b).left - box(bytes[i]).right))),
        asciiLeft: ascii === null ? undefined : Math.round(box(ascii).left),
        lit: row.querySelectorAll('.byte.hl').length,
        litChars: row.querySelectorAll('.chr.hl').length,
      };
    }),
  );
  const shown = Math.min(file.length, 64 * 1024);
  check(
    `${c.sample}: hexdump has a row per 16 bytes`,
    rows.length === Math.ceil(shown / 16),
    `${rows.length} rows for ${shown} bytes`,
  );
  const wrong = [];
  rows.forEach((row, r) => {
    const at = r * 16;
    const expected = [...file.subarray(at, Math.min(at + 16, shown))];
    if (Number.parseInt(row.offset, 16) !== at) wrong.push(`row ${r}: offset ${row.offset}`);
    if (row.hex.join(' ') !== expected.map((b) => b.toString(16).padStart(2, '0')).join(' '))
      wrong.push(`row ${r}: hex ${row.hex.join(' ')}`);
    if (row.chars.join('') !== expected.map(printable).join(''))
      wrong.push(`row ${r}: ascii ${JSON.stringify(row.chars.join(''))}`);
    if (expected.length > 8 && row.gapAt !== 8) wrong.push(`row ${r}: the gap is before byte ${row.gapAt}, not 8`);
  });
  check(
    `${c.sample}: hexdump rows are offset, 16 bytes and their ASCII ('.' for non-printables)`,
    wrong.length === 0,
    wrong.slice(0, 3).join('; '),
  );
  const full = rows.filter((row) => row.gap !== undefined);
  check(
    `${c.sample}: bytes in two groups of 8 with a visible gap`,
    full.length > 0 && full.every((row) => row.gap > row.spacing + 3),
    full
      .slice(0, 1)
      .map((row) => `gap ${row.gap}px, spacing ${row.spacing}px`)
      .join(''),
  );
  const lefts = new Set(rows.map((row) => row.asciiLeft));
  check(
    `${c.sample}: the ASCII column lines up on every row`,
    lefts.size === 1 && !lefts.has(undefined),
    [...lefts].join(', '),
  );
  const lit = rows.reduce((n, row) => n + row.lit, 0);
  const litChars = rows.reduce((n, row) => n + row.litChars, 0);
  check(
    `${c.sample}: the hovered field is lit in the ASCII column too`,
    lit > 0 && litChars === lit,
    `${lit} bytes, ${litChars} characters lit`,
  );
}

const { check, finish } = checkTally();

try {
  // Compiled codecs on a page whose policy forbids evaluating code (see csp-check.mjs).
  await checkCompiledUnderCsp(browser, check);
  await checkLzoUnderCsp(browser, check);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${base}/playground.html`, { waitUntil: 'networkidle' });
  check('the playground page loads', (await page.locator('.playground').count()) === 1, errors.join('; '));
  if (errors.length > 0 && (await page.locator('.playground').count()) === 0)
    throw new Error(`the playground failed to load: ${errors.join('; ')}`);
  for (const c of cases) {
    await page.click(`button[data-sample="${c.sample}"]`);
    // The status names the file once its decode is shown (the tree of the previous sample is still
    // there until then, so waiting for the tree alone would read the previous sample on a busy machine).
    await page
      .waitForFunction(
        (name) => document.querySelector('[data-test="status"]')?.textContent?.includes(name) ?? false,
        c.sample,
        { timeout: 20000 },
      )
      .catch(() => undefined);
    await page.waitForSelector('[data-test="tree"]', { timeout: 10000 }).catch(() => undefined);
    const status =
      (await page
        .locator('[data-test="status"]')
        .textContent()
        .catch(() => '')) ?? '';
    check(`${c.sample}: sniffed as ${c.format}`, status.includes(`(${c.format})`), status.slice(0, 200));
    const text = `${status}\n${
      (await page
        .locator('[data-test="tree"]')
        .textContent()
        .catch(() => '')) ?? ''
    }`;
    for (const value of c.shows) check(`${c.sample}: shows ${JSON.stringify(value)}`, text.includes(value));
    const node = page.locator(`[data-test="tree"] .node[data-path="${c.hover}"]`).first();
    await node.hover().catch(() => undefined);
    const lit = await page.locator('[data-test="hex"] .byte.hl').count();
    check(`${c.sample}: hovering ${c.hover} highlights its bytes`, lit > 0, `${lit} bytes lit`);
    await checkHexdump(page, c);
    await page.click('[data-test="rebuild"]');
    const rebuilt = (await page.locator('[data-test="rebuilt"]').textContent()) ?? '';
    check(`${c.sample}: rebuild through JSON gives the identical file`, rebuilt.includes('identical'), rebuilt);
    await page.screenshot({ path: join(outDir, `playground-${c.format}.png`), fullPage: false });
  }
  check('no errors on the page', errors.length === 0, errors.join('; '));
  // The search box and dark mode exist (VitePress local search, appearance switch).
  await page.goto(`${base}/guide/codecs.html`, { waitUntil: 'networkidle' });
  check('site search is there', (await page.locator('.VPNavBarSearch button, #local-search').count()) > 0);
  check('dark mode switch is there', (await page.locator('.VPSwitchAppearance').count()) > 0);
  check('edit-this-page link is there', (await page.locator('.edit-link-button').count()) > 0);
} finally {
  await browser.close();
  server.close();
}
finish('browser', outDir);
