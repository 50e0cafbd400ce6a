// Compiled codecs under a Content Security Policy without 'unsafe-eval', in a real browser: a page
// served with `Content-Security-Policy: script-src 'self'` decodes and encodes through compiled codecs
// (csp/compiled-page.mjs, bundled here by esbuild); the check asserts its results, that the compiled
// plans ran (the compiler's counters), and that no `securitypolicyviolation` fired — and, as the
// control, that the page's own `new Function` is refused, so the policy was in force. And LZO1X
// (csp/lzo1x-page.mjs), whose WebAssembly engine such a policy refuses: served with `script-src 'self'`
// it must work through its TypeScript fallback (the only violation the refused compile itself), and
// with `'wasm-unsafe-eval'` added it must run WebAssembly with no violation; and a strict page that
// calls `chooseEngine('typescript')` first must run with no violation at all.
// browser-test.mjs runs it; `node docs/scripts/csp-check.mjs` runs it alone (no site build needed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkTally, launchChromium, serveSite } from './serve-site.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const CSP = "script-src 'self'";
/** The policy that lets a page compile WebAssembly (and still not evaluate code). */
export const CSP_WASM = "script-src 'self' 'wasm-unsafe-eval'";

/** Bundles `page` (a file in csp/) with an index.html into a new folder; returns the folder. */
async function bundlePage(page, title) {
  const root = mkdtempSync(join(tmpdir(), 'savekit-csp-'));
  await build({
    entryPoints: { page: join(here, 'csp', page) },
    outdir: root,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  writeFileSync(
    join(root, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
      '<script type="module" src="./page.js"></script></head><body></body></html>',
  );
  return root;
}

/** Opens the bundled page at `root` served with `policy`; returns its `cspResult` and page errors. */
async function runPage(browser, root, policy, query = '') {
  const { server, origin } = await serveSite(root, { 'content-security-policy': policy });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    // Registered before any of the page's scripts (an init script is the browser's, not the page's).
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const response = await page.goto(`${origin}/index.html${query}`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.cspResult !== undefined, undefined, { timeout: 20000 }).catch(() => {});
    const result = await page.evaluate(() => window.cspResult);
    await page.close();
    return { result, errors, served: response?.headers()['content-security-policy'] };
  } finally {
    server.close();
  }
}

/** LZO1X under both policies: the TypeScript fallback where WebAssembly is refused, WebAssembly where allowed. */
export async function checkLzoUnderCsp(browser, check) {
  const root = await bundlePage('lzo1x-page.mjs', 'LZO1X under CSP');
  try {
    const strict = await runPage(browser, root, CSP);
    check('csp lzo1x: the page ran under script-src self', strict.result !== undefined, strict.errors.join('; '));
    for (const c of strict.result?.checks ?? []) check(`csp lzo1x (refused wasm): ${c.name}`, c.ok, c.detail);
    check(
      'csp lzo1x: WebAssembly refused, the TypeScript code ran',
      JSON.stringify(strict.result?.engines) === '["typescript"]',
      JSON.stringify(strict.result?.engines),
    );
    check(
      'csp lzo1x: the only violation is the refused WebAssembly compile',
      (strict.result?.violations ?? []).length > 0 &&
        strict.result.violations.every((v) => /^script-src\b.*wasm-eval/.test(v)),
      JSON.stringify(strict.result?.violations),
    );
    check('csp lzo1x: no errors on the strict page', strict.errors.length === 0, strict.errors.join('; '));
    const wasm = await runPage(browser, root, CSP_WASM);
    for (const c of wasm.result?.checks ?? []) check(`csp lzo1x (wasm allowed): ${c.name}`, c.ok, c.detail);
    check(
      "csp lzo1x: with 'wasm-unsafe-eval' WebAssembly ran, with no violation",
      JSON.stringify(wasm.result?.engines) === '["wasm"]' && (wasm.result?.violations ?? ['none run']).length === 0,
      JSON.stringify(wasm.result),
    );
    check('csp lzo1x: no errors on the wasm page', wasm.errors.length === 0, wasm.errors.join('; '));
    const chosen = await runPage(browser, root, CSP, '?engine=typescript');
    for (const c of chosen.result?.checks ?? []) check(`csp lzo1x (typescript chosen): ${c.name}`, c.ok, c.detail);
    check(
      "csp lzo1x: chooseEngine('typescript') under script-src self runs TypeScript with no violation",
      JSON.stringify(chosen.result?.engines) === '["typescript"]' &&
        (chosen.result?.violations ?? ['none run']).length === 0,
      JSON.stringify(chosen.result),
    );
    check('csp lzo1x: no errors on the chosen-engine page', chosen.errors.length === 0, chosen.errors.join('; '));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the compiled-codec checks in `browser`, reporting each through `check(name, ok, detail)`. */
export async function checkCompiledUnderCsp(browser, check) {
  const root = await bundlePage('compiled-page.mjs', 'compiled codecs under CSP');
  try {
    const { result, errors, served } = await runPage(browser, root, CSP);
    check('csp: the page is served with script-src self and no unsafe-eval', served === CSP, String(served));
    check('csp: the compiled-codec page ran', result !== undefined, errors.join('; '));
    for (const c of result?.checks ?? []) check(`csp: ${c.name}`, c.ok, c.detail);
    check(
      'csp: the compiled plans ran (decode and encode)',
      (result?.calls.reads ?? 0) >= 2 && (result?.calls.writes ?? 0) >= 1,
      JSON.stringify(result?.calls),
    );
    check('csp: no securitypolicyviolation', result?.violations.length === 0, result?.violations.join('; '));
    check('csp: no errors on the page', errors.length === 0, errors.join('; '));
    check(
      "csp: the control — the page's own new Function is refused, with a violation",
      result?.evalRefused === true && result.controlViolations.some((v) => v.startsWith('script-src')),
      JSON.stringify(result?.controlViolations),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { check, finish } = checkTally();
  const browser = await launchChromium();
  try {
    await checkCompiledUnderCsp(browser, check);
    await checkLzoUnderCsp(browser, check);
  } finally {
    await browser.close();
  }
  const out = join(here, '..', '..', 'test-output', 'csp');
  (await import('node:fs')).mkdirSync(out, { recursive: true });
  finish('csp', out);
}
