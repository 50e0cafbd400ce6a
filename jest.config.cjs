// One jest run over every package. Sources are TypeScript compiled to CommonJS on the fly by esbuild
// (scripts/jest-transform.cjs; transpile only: `npm run typecheck` does the type checking), so tests
// need no build step, except the few that check the built output on purpose.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/examples', '<rootDir>/test'],
  testMatch: [
    '<rootDir>/test/**/*.test.ts',
    '<rootDir>/examples/test/**/*.test.ts',
    '**/packages/*/test/**/*.test.ts',
    '**/packages/*/src/**/*.test.ts',
  ],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: {
    '^.+\\.[tj]s$': [
      '<rootDir>/scripts/jest-transform.cjs',
      // ts-jest's options, for the test files that call jest.mock (they need its hoisting).
      {
        tsconfig: '<rootDir>/tsconfig.jest.json',
        diagnostics: false,
      },
    ],
  },
  // @noble/hashes 2.x ships ES modules only; turn it into CommonJS too. fengari, io-ts and fp-ts go
  // through the transform as well, for its locals of the built-ins (scripts/jest-transform.cjs): the Lua
  // VM and the JSON types are hot in the tests.
  transformIgnorePatterns: ['/node_modules/(?!(@noble|fengari|io-ts|fp-ts)/)'],
  moduleNameMapper: {
    // The CSV libraries' browser builds are ES modules with a bundled Buffer; under jest the same
    // library's CommonJS build runs instead.
    '^csv-(parse|stringify)/browser/esm/sync$': 'csv-$1/sync',
    '^@savekit/([a-z0-9-]+)/package\\.json$': '<rootDir>/packages/$1/package.json',
    '^@savekit/([a-z0-9-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@savekit/([a-z0-9-]+)/(.+)$': '<rootDir>/packages/$1/src/$2',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // toEqual on integer typed arrays by their bytes (jest's own walk costs seconds on a save).
  setupFilesAfterEnv: ['<rootDir>/test/typed-array-equality.cjs'],
  testTimeout: 120000,
  // Slowest files first even without jest's timing cache (test/durations.json).
  testSequencer: '<rootDir>/scripts/jest-sequencer.cjs',
};
