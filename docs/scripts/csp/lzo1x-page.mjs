// The LZO1X page of the CSP check (csp-check.mjs), bundled by esbuild and served twice: with
// `script-src 'self'` (WebAssembly refused: the TypeScript code must take over by itself) and with
// `script-src 'self' 'wasm-unsafe-eval'` (WebAssembly runs). Either way compress and decompress must
// give liblzo's stream and the input back, and a damaged stream the same typed error. Opened as
// `index.html?engine=typescript` it calls `chooseEngine('typescript')` first, as a strict page should (no
// compile tried, so no violation). The package is imported from its built files so the engine it
// reports is the one that ran.
import { chooseEngine, compress, decompress, LzoError, lastEngine } from '../../../packages/lzo1x/dist/index.js';

const asked = new URLSearchParams(location.search).get('engine');
if (asked !== null) chooseEngine(asked);

const checks = [];
const check = (name, ok, detail = '') => checks.push({ name, ok: Boolean(ok), detail: String(detail) });
const engines = new Set();

// Save-like data: records with small counters and repeated names, which LZO compresses well.
const input = new Uint8Array(200_000);
for (let i = 0; i < input.length; i++) input[i] = i % 97 < 40 ? (i * 7) & 0x3f : 'IMP_RUN'.charCodeAt(i % 7);
try {
  const packed = compress(input);
  engines.add(lastEngine());
  check('compress shrinks save-like data', packed.length < input.length / 2, packed.length);
  const back = decompress(packed, { outputLength: input.length });
  engines.add(lastEngine());
  check('decompress gives the input back', back.length === input.length && back.every((b, i) => b === input[i]));
  const cut = packed.subarray(0, packed.length >> 1);
  let error;
  try {
    decompress(cut, { outputLength: input.length });
  } catch (e) {
    error = e;
  }
  check('a cut stream is a typed LzoError', error instanceof LzoError && typeof error.code === 'string', error);
} catch (error) {
  check('no exception', false, String(error?.stack ?? error));
}
await new Promise((done) => setTimeout(done, 200));
window.cspResult = { checks, engines: [...engines], violations: [...window.cspViolations] };
