// What the browser tests share: a static server for a built site on a free local port, Debian's
// Chromium launched headless through playwright-core (never a downloaded browser), and the tally of
// their checks.
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/**
 * Serves the files under `root` on 127.0.0.1 (a folder gives its index.html, `/a` gives `a.html`
 * when there is no `a`; nothing outside `root`), with `headers` on every response. Resolves to the
 * server and its `http://…` origin.
 */
export async function serveSite(root, headers = {}) {
  const server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    let path = normalize(join(root, url));
    if (!path.startsWith(root)) return void res.writeHead(403).end();
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    else if (!existsSync(path) && existsSync(`${path}.html`)) path = `${path}.html`;
    if (!existsSync(path)) return void res.writeHead(404).end('not found');
    res.writeHead(200, { ...headers, 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** Headless Chromium (`CHROMIUM_PATH`, else /usr/bin/chromium) with `extraArgs` after the common flags. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      ...extraArgs,
    ],
  });
}

/**
 * A tally of checks: `check(name, ok, detail)` prints `ok` or `FAIL` (with the detail on a failure);
 * `finish(label, outDir)` writes `results.json` there, prints `label: N passed, N failed` and exits,
 * 0 when none failed.
 */
export function checkTally() {
  let passed = 0;
  let failed = 0;
  const check = (name, ok, detail = '') => {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
  };
  const finish = (label, outDir) => {
    writeFileSync(join(outDir, 'results.json'), JSON.stringify({ passed, failed }));
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  };
  return { check, finish };
}
