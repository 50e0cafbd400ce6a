/**
 * Fuzzing in a worker thread with a watchdog: a decoder that loops forever cannot hang the test run;
 * it is stopped after the time limit and reported with the input that hung it.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fuzzInput, type FuzzOptions, defaultIterations } from './fuzz.js';
import { finish, type SuiteReport } from './report.js';

/** Options of {@link fuzzSuiteIsolated}: those of `fuzzSuite`, plus where the format lives. */
export interface IsolatedFuzzOptions extends Omit<FuzzOptions, 'seeds'> {
  /** Seeds: files' bytes (trees are not supported here). */
  readonly seeds: ReadonlyArray<Uint8Array>;
  /** The module that exports the format (a path or file URL), loaded again inside the worker. */
  readonly module: string;
  /** Its export (default: `format`, else the default export). */
  readonly exportName?: string;
}

function workerScript(): string {
  // Found through the installed package, so this works from ESM, CommonJS and test transpilers alike.
  const require = createRequire(pathToFileURL(join(process.cwd(), 'noop.js')).href);
  return join(dirname(require.resolve('@savekit/testkit/package.json')), 'dist', 'fuzz-worker.js');
}

/**
 * Like `fuzzSuite`, run in a worker thread: each decode is watched, and one that does not return
 * within `timeoutMs` stops the worker and fails the suite with the input that hung it.
 */
export async function fuzzSuiteIsolated(options: IsolatedFuzzOptions): Promise<SuiteReport> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const iterations = options.iterations ?? defaultIterations();
  const progress = new Int32Array(new SharedArrayBuffer(8));
  const interval = Math.max(10, Math.min(100, timeoutMs / 4));
  const module = options.module.startsWith('file:') ? options.module : pathToFileURL(options.module).href;
  const worker = new Worker(workerScript(), {
    workerData: { module, exportName: options.exportName, options: { ...options, iterations, module: undefined }, progress },
  });
  return new Promise<SuiteReport>((resolve, reject) => {
    let formatId = options.module;
    let last = -1;
    let since = Date.now();
    let tick = since;
    const watchdog = setInterval(() => {
      const now = Atomics.load(progress, 0);
      const at = Date.now();
      // A tick far later than asked means this process was paused (a busy machine, a stopped VM);
      // that time does not count against the decode. A real hang is still caught, only later.
      if (at - tick > 4 * interval) since += at - tick - interval;
      tick = at;
      if (now !== last) {
        last = now;
        since = at;
        return;
      }
      if (Date.now() - since > timeoutMs) {
        clearInterval(watchdog);
        void worker.terminate();
        const { kind, input } = fuzzInput({ ...options, seeds: options.seeds }, now);
        try {
          resolve(finish({ suite: 'fuzz', format: formatId, iterations, failures: [{ check: `iteration ${now} (${kind})`, message: `decode did not return within ${timeoutMs} ms`, input }] }, options.record ?? true));
        } catch (error) {
          reject(error);
        }
      }
    }, interval);
    worker.on('message', (message: SuiteReport | { ready: string }) => {
      if ('ready' in message) {
        formatId = message.ready;
        return;
      }
      const report = message;
      clearInterval(watchdog);
      void worker.terminate();
      try {
        resolve(finish(report, options.record ?? true));
      } catch (error) {
        reject(error);
      }
    });
    worker.once('error', (error) => {
      clearInterval(watchdog);
      reject(error);
    });
  });
}
