// The page of the CSP check (csp-check.mjs), bundled by esbuild and served with
// `Content-Security-Policy: script-src 'self'` (no 'unsafe-eval'): it decodes and encodes through
// compiled codecs, compares every result with the interpreted codecs', and publishes what it found on
// `window.cspResult`. The core is imported from its built files (not the package entry) so the
// compiler's run counters are the ones the codecs below increment.
import {
  array,
  bytes,
  compile,
  decode,
  decoder,
  encode,
  f32le,
  f64be,
  i16be,
  literal,
  magic,
  optional,
  pstring,
  struct,
  u16le,
  u32le,
  u8,
} from '../../../packages/core/dist/index.js';
import { compiledCalls } from '../../../packages/core/dist/compile.js';

const record = struct({ a: u32le, b: u32le, c: u32le, d: u32le });
const item = struct({ id: u16le, name: pstring(u8, 'utf8'), weight: f32le });
const save = struct({
  magic: magic('SAVE'),
  version: literal(u8, 1, 2),
  level: i16be,
  gold: f64be,
  records: array(record, 1000),
  items: array(item, u16le),
  blob: bytes(u8),
  tail: optional(array(u32le, 'rest')),
});

const value = {
  magic: 'SAVE',
  version: 2,
  level: -12,
  gold: 1234.5,
  records: Array.from({ length: 1000 }, (_, i) => ({ a: i, b: i * 3, c: 0xfffffff0 - i, d: (i * 2654435761) >>> 0 })),
  items: [
    { id: 1, name: 'sword', weight: 2.5 },
    { id: 2, name: 'Ølbrauer 😀', weight: 0.25 },
  ],
  blob: Uint8Array.of(1, 2, 3),
  tail: [7, 8],
};

const show = (v) => JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? [...x] : x));
const checks = [];
const check = (name, ok, detail = '') => checks.push({ name, ok, detail: ok ? '' : detail });

try {
  const compiled = compile(save);
  const expectedBytes = encode(save, value);
  const encoded = encode(compiled, value);
  check(
    'encode through the compiled codec gives the interpreted bytes',
    encoded._tag === 'Right' && expectedBytes._tag === 'Right' && show(encoded.right) === show(expectedBytes.right),
    show(encoded).slice(0, 200),
  );
  const input = expectedBytes.right;
  const decoded = decode(compiled, input);
  check(
    'decode through the compiled codec gives the value',
    decoded._tag === 'Right' && show(decoded.right.value) === show(value),
    show(decoded).slice(0, 200),
  );
  const readRecord = decoder(record);
  // The first record follows the magic (4), version (1), level (2) and gold (8).
  const first = readRecord(input.subarray(15, 15 + 16));
  check('decoder() reads one record', show(first) === show(value.records[0]), show(first));
  const bad = decode(compiled, input.subarray(0, 100));
  const badExpected = decode(save, input.subarray(0, 100));
  check(
    'cut input: the compiled codec gives the interpreted error',
    bad._tag === 'Left' && badExpected._tag === 'Left' && bad.left.message === badExpected.left.message,
    show(bad).slice(0, 200),
  );
} catch (error) {
  check('no exception', false, String(error?.stack ?? error));
}

const calls = { ...compiledCalls };
const pause = () => new Promise((done) => setTimeout(done, 200));
// Violation events are queued tasks: they have arrived after a pause.
await pause();
const violations = [...window.cspViolations];
// The control: this page may not evaluate code, and trying raises a violation (the policy is in force).
let evalRefused = false;
try {
  new Function('return 1')();
} catch (error) {
  evalRefused = error instanceof EvalError;
}
await pause();
window.cspResult = {
  checks,
  calls,
  violations,
  evalRefused,
  controlViolations: window.cspViolations.slice(violations.length),
};
