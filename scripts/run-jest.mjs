#!/usr/bin/env node
// Runs jest over every package, then prints one plain summary line that CI reads:
//   tests: N passed, N failed
// Jest's own summary stays on screen for people; the line below is for machines.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'test-output');
const resultsFile = join(output, 'jest-results.json');
mkdirSync(output, { recursive: true });

const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const run = spawnSync(process.execPath, [jest, '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});

let passed = 0;
let failed = 0;
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = results.numPassedTests;
  // A suite that fails to load counts as a failure even though it ran no test.
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
}
const code = run.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(code);
