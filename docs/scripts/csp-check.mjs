// Compiled codecs under a Content Security Policy without 'unsafe-eval', in a real browser: a page
// served with `Content-Security-Policy: script-src 'self'` decodes and encodes through compiled codecs
// (csp/compiled-page.mjs, bundled here by esbuild); the check asserts its results, that the compiled
// plans ran (the compiler's counters), and that no `securitypolicyviolation` fired — and, as the
// control, that the page's own `new Function` is refused, so the policy was in force.
// browser-test.mjs runs it; `node docs/scripts/csp-check.mjs` runs it alone (no site build needed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkTally, launchChromium, serveSite } from './serve-site.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const CSP = "script-src 'self'";

/** Runs the CSP checks in `browser`, reporting each through `check(name, ok, detail)`. */
export async function checkCompiledUnderCsp(browser, check) {
  const root = mkdtempSync(join(tmpdir(), 'savekit-csp-'));
  const { server, origin } = await (async () => {
    await build({
      entryPoints: { compiled: join(here, 'csp', 'compiled-page.mjs') },
      outdir: root,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'warning',
    });
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"><title>compiled codecs under CSP</title>' +
        '<script type="module" src="./compiled.js"></script></head><body></body></html>',
    );
    return serveSite(root, { 'content-security-policy': CSP });
  })();
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
    const response = await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
    check(
      'csp: the page is served with script-src self and no unsafe-eval',
      response?.headers()['content-security-policy'] === CSP,
      String(response?.headers()['content-security-policy']),
    );
    await page.waitForFunction(() => window.cspResult !== undefined, undefined, { timeout: 20000 }).catch(() => {});
    const result = await page.evaluate(() => window.cspResult);
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
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { check, finish } = checkTally();
  const browser = await launchChromium();
  try {
    await checkCompiledUnderCsp(browser, check);
  } finally {
    await browser.close();
  }
  const out = join(here, '..', '..', 'test-output', 'csp');
  (await import('node:fs')).mkdirSync(out, { recursive: true });
  finish('csp', out);
}
