// The worker side of fuzzSuiteIsolated: loads the format, runs the loop, publishes progress.
import { parentPort, workerData } from 'node:worker_threads';
import { fuzzLoop } from './fuzz.js';
import { formatOf } from './load.js';

const { module, exportName, options, progress } = workerData as {
  module: string;
  exportName?: string;
  options: Parameters<typeof fuzzLoop>[1];
  progress: Int32Array;
};
const format = formatOf((await import(module)) as Record<string, unknown>, exportName);
parentPort?.postMessage({ ready: format.id });
// i + 1: a 0 tells the watchdog that no decode has started yet (the format is still loading).
const report = fuzzLoop(format, options, (i) => Atomics.store(progress, 0, i + 1));
parentPort?.postMessage(report);
