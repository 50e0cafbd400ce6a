// The core's law, round-trip, hostile and fuzz suites, run a second time with every decode and
// encode going through both the interpreted and the compiled codec (see compiled-shim.ts): each
// call fails the test unless the two give the same value or the same error, byte for byte.
jest.doMock('../src/index', () => {
  const shim = jest.requireActual('./compiled-shim');
  return {
    ...jest.requireActual('../src/index'),
    decode: shim.decode,
    encode: shim.encode,
    decodeOrThrow: shim.decodeOrThrow,
    encodeOrThrow: shim.encodeOrThrow,
  };
});

// Only suites that decode or encode: atomic.test.ts (writeFileAtomic under SIGKILL) calls neither, so
// running it here compared nothing and spent its kill test (200 kills in the heavy profile) again.
const SUITES = [
  'primitives',
  'composites',
  'strings',
  'hostile',
  'error-codes',
  'document-paths',
  'budget',
  'chunks',
  'transforms',
  'pointers',
  'switch-on',
  'aligned',
  'borrowed',
  'array-index',
  'declarations',
  'plugin-author',
  'fixed-map',
];

/** Tests that count their callbacks' calls: they run on the compiled path alone (see compiled-shim.ts). */
const COMPILED_ONLY = new Set([
  'repeated failed attempts spend the budget: a work bomb stops',
  'hooks see the value, where it starts and the shared context',
]);

// Registers each test of the suites with a wrapper that sets the shim's mode for it.
const shimMode = (jest.requireActual('./compiled-shim') as typeof import('./compiled-shim')).mode;
const register = global.test;
const wrapped = ((name: string, fn?: jest.ProvidesCallback, timeout?: number) =>
  register(
    name,
    fn === undefined || !COMPILED_ONLY.has(name)
      ? fn
      : async () => {
          shimMode.current = 'compiled';
          try {
            await (fn as () => unknown)();
          } finally {
            shimMode.current = 'both';
          }
        },
    timeout,
  )) as jest.It;
global.test = Object.assign(wrapped, register);
global.it = global.test;

describe('through compiled codecs', () => {
  for (const suite of SUITES) {
    describe(suite, () => {
      require(`./${suite}.test`);
    });
  }
});

test('map, fixedMap and withModel are codecs the compiler plans (exact)', () => {
  const core = require('../src/index') as typeof import('../src/index');
  const { isExact } = jest.requireActual<typeof import('../src/exact')>('../src/exact');
  expect(isExact(core.withModel(core.u8, {}))).toBe(true);
  expect(isExact(core.map(core.u8, { decode: (n) => n, encode: (n) => n }))).toBe(true);
  expect(isExact(core.fixedMap(core.u8, { decode: (n) => n, encode: (n) => n }))).toBe(true);
});
