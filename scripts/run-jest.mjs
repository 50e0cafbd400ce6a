#!/usr/bin/env node
// The test command: builds the packages, type-checks sources and tests, runs jest over every package
// (one worker per core), then prints the slowest test files, the time each step took, and one plain
// summary line that CI reads, always last:
//   tests: N passed, N failed
//
//   node scripts/run-jest.mjs [--build] [--profile=quick|heavy] [jest arguments…]
//
// --build        build and type-check first (`npm test` and `npm run test:heavy` ask for it);
// --profile=…    the test budgets (SAVEKIT_TEST_PROFILE, read by @savekit/testkit's testBudget):
//                quick (the default) shrinks fuzz iterations, kill counts and the million-node cases;
//                heavy runs them at full size, and is the default when CI=true (CI's `npm test`).
//                SAVEKIT_FUZZ_ITERATIONS still overrides both.
// --profiled-only  only the test files whose sizes depend on the profile (they, or a test helper they
//                import, use @savekit/testkit or read the profile): what a heavy run changes after a
//                quick one.
// --record-durations  write each file's time to test/durations.json, the order hint of
//                scripts/jest-sequencer.cjs (slowest first when jest has no timing cache, as in CI):
//                refresh it after a full heavy run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const started = performance.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const output = join(root, 'test-output');
const resultsFile = join(output, 'jest-results.json');
mkdirSync(output, { recursive: true });

const args = process.argv.slice(2);
const take = (flag) => {
  const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at === -1) return undefined;
  const [arg] = args.splice(at, 1);
  if (arg.includes('=')) return arg.slice(arg.indexOf('=') + 1);
  // A flag without a value (--build), or with it as the next argument (--profile heavy).
  return flag === '--profile' ? args.splice(at, 1)[0] : '';
};
const build = take('--build') !== undefined;
const profiledOnly = take('--profiled-only') !== undefined;
const recordDurations = take('--record-durations') !== undefined;
// Budgets scale down for a contributor's run and up in CI: `CI=true` (set by CI services and .ci/run)
// makes the heavy profile the default, so CI's `npm test` is the README's command at full size.
const inCi = ['true', '1'].includes(String(process.env.CI ?? '').toLowerCase());
const profile = take('--profile') ?? (process.env.SAVEKIT_TEST_PROFILE || undefined) ?? (inCi ? 'heavy' : 'quick');
if (profile !== 'quick' && profile !== 'heavy') {
  console.error(`run-jest: unknown profile "${profile}" (quick or heavy)`);
  console.log('tests: 0 passed, 1 failed');
  process.exit(2);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const steps = [];
/** Runs one step in the foreground and times it; a failed step ends the run, as a failed pretest did. */
function step(name, command, commandArgs) {
  const start = performance.now();
  const run = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  steps.push(`${name} ${seconds(performance.now() - start)}`);
  if (run.status !== 0) {
    console.error(`run-jest: ${name} failed (${steps.join(', ')})`);
    console.log('tests: 0 passed, 1 failed');
    process.exit(run.status ?? 1);
  }
}

/** Where a test reads the profile: the kit's suites and budgets, or the variable itself. */
const PROFILED = /@savekit\/testkit|testBudget|testProfile|SAVEKIT_TEST_PROFILE|defaultIterations/;

const isFile = (path) => existsSync(path) && statSync(path).isFile();

/** Test files that, or whose local imports (followed transitively), depend on the test profile. */
function profiledTestFiles() {
  const listed = spawnSync('git', ['ls-files', '*.test.ts', '*.test.mjs', '*.test.js'], {
    cwd: root,
    encoding: 'utf8',
  });
  const tests = listed.stdout.split('\n').filter((f) => f !== '' && !f.startsWith('docs/'));
  const cache = new Map();
  const depends = (file, seen) => {
    if (cache.has(file)) return cache.get(file);
    if (seen.has(file) || !isFile(file)) return false;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    let found = PROFILED.test(text);
    for (const [, spec] of text.matchAll(/from ['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (found) break;
      const base = join(dirname(file), spec);
      const candidates = [base, `${base}.ts`, `${base}.mjs`, `${base}.js`, join(base, 'index.ts')];
      found = candidates.some((c) => isFile(c) && depends(c, seen));
    }
    cache.set(file, found);
    return found;
  };
  return tests.filter((f) => depends(join(root, f), new Set())).map((f) => join(root, f));
}

if (build) {
  const tsc = require.resolve('typescript/bin/tsc');
  // `npm run build`: the root solution (tsconfig.json) builds every package in one compiler process
  // (9 s cold on two cores; lerna's one process per package took 33 s).
  step('build', process.execPath, [tsc, '-b']);
  // `npm run typecheck`, made incremental: a run after a small change re-checks only what it can affect.
  step('typecheck', process.execPath, [
    tsc,
    '-p',
    'tsconfig.test.json',
    '--incremental',
    '--tsBuildInfoFile',
    join(output, 'typecheck.tsbuildinfo'),
  ]);
  // The studio (docs/studio): esbuild bundles it without checking its types, so they are checked here.
  step('typecheck studio', process.execPath, [
    tsc,
    '-p',
    'docs/studio/tsconfig.json',
    '--incremental',
    '--tsBuildInfoFile',
    join(output, 'typecheck-studio.tsbuildinfo'),
  ]);
}

// Jest's default is one worker fewer than the cores (one worker on two); the slow suites are CPU-bound
// and each file runs in its own worker, so use every core unless told otherwise.
const workerArg = args.some((a) => /^(-w|-i|--maxWorkers|--runInBand)(=|$)/.test(a));
const workers = workerArg ? [] : [`--maxWorkers=${availableParallelism()}`];
rmSync(resultsFile, { force: true });
const jest = require.resolve('jest/bin/jest');
const jestStart = performance.now();
if (profiledOnly) {
  const files = profiledTestFiles();
  console.log(`run-jest: ${files.length} test files depend on the profile; running only those:`);
  console.log(files.map((f) => `  ${relative(root, f)}`).join('\n'));
  args.push('--runTestsByPath', ...files);
}
const run = spawnSync(process.execPath, [jest, ...workers, '--json', `--outputFile=${resultsFile}`, ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SAVEKIT_TEST_PROFILE: profile },
});
steps.push(
  `jest ${seconds(performance.now() - jestStart)} (${workers.length > 0 ? `${availableParallelism()} workers, ` : ''}${profile} profile)`,
);

let passed = 0;
let failed = 0;
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  results.testResults ??= [];
  passed = results.numPassedTests;
  // A suite that fails to load counts as a failure even though it ran no test.
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  const files = results.testResults
    .map((r) => ({ name: relative(root, r.name), ms: r.endTime - r.startTime }))
    .filter((f) => Number.isFinite(f.ms))
    .sort((a, b) => b.ms - a.ms);
  if (recordDurations) {
    // Merged into the recorded times, so a partial run updates only the files it ran.
    const durations = join(root, 'test', 'durations.json');
    const recorded = existsSync(durations) ? JSON.parse(readFileSync(durations, 'utf8')) : {};
    const merged = { ...recorded.files };
    for (const f of files) merged[f.name.split('\\').join('/')] = Math.round(f.ms / 100) / 10;
    const sorted = Object.entries(merged).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    writeFileSync(durations, `${JSON.stringify({ ...recorded, files: Object.fromEntries(sorted) }, null, 2)}\n`);
    console.log(`run-jest: recorded ${files.length} file times in ${relative(root, durations)}`);
  }
  if (files.length > 1) {
    console.log(`\nslowest test files (${profile} profile):`);
    for (const f of files.slice(0, 10)) console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name}`);
  }
}
console.log(`time: ${steps.join(', ')}; ${seconds(performance.now() - started)} in all`);
const code = run.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(code);
