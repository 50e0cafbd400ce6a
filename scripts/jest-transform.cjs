// Jest's TypeScript (and ES module) transform: esbuild, which turns a file into CommonJS about twenty
// times faster than ts-jest's TypeScript transpile — a third of a cold run's time on two cores.
// Types are checked by `npm run typecheck`, not here. A test file that calls jest.mock goes through
// ts-jest instead, whose hoisting moves the mock above the imports (esbuild keeps source order).
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const esbuild = require('esbuild');

const self = readFileSync(__filename);

// Jest runs each test file in a vm context, whose global object answers every lookup of a global
// through an interceptor: `Math`, `Number` or `Map` in a hot loop cost some 250 ns each there,
// against under 1 ns in a plain process (10 million `Number.isInteger` calls: 2.7 s against 0.02 s), so
// the codecs ran several times slower under jest than anywhere else. Each transformed file binds the
// built-ins it may use once, as locals: the namespaces and functions. Not the buffer constructors
// (typed arrays, ArrayBuffer, DataView), which tests replace to count allocations, nor `WebAssembly`
// and `process`, which tests take away for a while. On the first line, so source maps stay right.
const BUILT_INS = [
  'Array',
  'BigInt',
  'Boolean',
  'Error',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'RangeError',
  'Reflect',
  'Set',
  'String',
  'Symbol',
  'SyntaxError',
  'TextDecoder',
  'TextEncoder',
  'TypeError',
  'WeakMap',
  'WeakSet',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
];
const PRELUDE = `const { ${BUILT_INS.join(', ')} } = globalThis; `;
/** A top-level declaration of one of the names, which a local of the same name would clash with. */
const declared = new RegExp(`^(?:var|let|const|function|class) (${BUILT_INS.join('|')})\\b`, 'gm');
/** `code` with the built-ins bound as locals (after a "use strict" directive, which must stay first). */
function withBuiltIns(code) {
  const own = new Set([...code.matchAll(declared)].map((m) => m[1]));
  const prelude =
    own.size === 0 ? PRELUDE : `const { ${BUILT_INS.filter((n) => !own.has(n)).join(', ')} } = globalThis; `;
  const directive = /^(["'])use strict\1;?/.exec(code);
  return directive === null ? prelude + code : directive[0] + prelude + code.slice(directive[0].length);
}
const mocks = /\bjest\.(mock|unstable_mockModule|doMock)\(/;
let tsJest;

module.exports = {
  getCacheKey(source, path, options) {
    return createHash('sha256')
      .update(self)
      .update(esbuild.version)
      .update(path)
      .update(source)
      .update(options.configString)
      .digest('hex');
  },
  process(source, path, options) {
    if (mocks.test(source)) {
      const tsJestModule = require('ts-jest');
      tsJest ??= (tsJestModule.createTransformer ?? tsJestModule.default.createTransformer)(options.transformerConfig);
      return tsJest.process(source, path, options);
    }
    const { code, map } = esbuild.transformSync(source, {
      loader: path.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      platform: 'node',
      sourcefile: path,
      sourcemap: 'external',
      sourcesContent: false,
      // The repository's settings that change emitted code (class fields are defined, as ES2022 says).
      tsconfigRaw: {
        compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false },
      },
    });
    return { code: withBuiltIns(code), map };
  },
};
