/**
 * Fuzzing in a worker thread with a watchdog: a decoder that loops forever cannot hang the test run;
 * it is stopped after the time limit, run again alone to tell a hang from a pause of the machine,
 * and reported with the input that hung it.
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fuzzInput, type FuzzOptions, defaultIterations } from './fuzz.js';
import { kitScript } from './load.js';
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

/** How many more times a decode over the time limit is run alone, in fresh workers, before it is reported. */
const SLOW_RETRIES = 2;
/** How many times a whole run is started again after decodes that were over the limit only once. */
const MAX_RESTARTS = 3;

/** How one worker's run ended: with its report, or stopped in iteration `hung` after `timeoutMs`. */
type Run =
  | { readonly report: SuiteReport; readonly format: string }
  | { readonly hung: number; readonly format: string };

/** Runs the fuzz loop in a fresh worker under the watchdog. */
function watched(options: IsolatedFuzzOptions, module: string, loop: FuzzOptions, timeoutMs: number): Promise<Run> {
  // The worker stores i + 1 before decoding iteration i; 0 means the format is still loading, and
  // loading is not a decode: only decodes are timed.
  const progress = new Int32Array(new SharedArrayBuffer(8));
  const interval = Math.max(10, Math.min(100, timeoutMs / 4));
  const worker = new Worker(kitScript('fuzz-worker.js'), {
    workerData: {
      module,
      exportName: options.exportName,
      options: { ...loop, seeds: options.seeds, module: undefined },
      progress,
    },
  });
  return new Promise<Run>((resolve, reject) => {
    let format = options.module;
    let last = 0;
    let since = Date.now();
    let tick = since;
    const watchdog = setInterval(() => {
      const now = Atomics.load(progress, 0);
      const at = Date.now();
      // A tick far later than asked means this process was paused (a busy machine, a stopped VM);
      // that time does not count against the decode. A real hang is still caught, only later.
      if (at - tick > 4 * interval) since += at - tick - interval;
      tick = at;
      if (now === 0 || now !== last) {
        last = now;
        since = at;
        return;
      }
      if (at - since > timeoutMs) {
        clearInterval(watchdog);
        void worker.terminate();
        resolve({ hung: now - 1, format });
      }
    }, interval);
    worker.on('message', (message: SuiteReport | { ready: string }) => {
      if ('ready' in message) {
        format = message.ready;
        return;
      }
      clearInterval(watchdog);
      void worker.terminate();
      resolve({ report: message, format });
    });
    worker.once('error', (error) => {
      clearInterval(watchdog);
      reject(error);
    });
  });
}

/**
 * Like `fuzzSuite`, run in a worker thread: each decode is watched, and one that does not return
 * within `timeoutMs` stops the worker. As in `fuzzSuite`, that input is then run twice more, alone
 * in fresh workers, and reported as a hang only when it is over the limit every time: a decode that
 * a busy machine paused returns when run again, and the run starts over without it counting.
 */
export async function fuzzSuiteIsolated(options: IsolatedFuzzOptions): Promise<SuiteReport> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const iterations = options.iterations ?? defaultIterations();
  const module = options.module.startsWith('file:') ? options.module : pathToFileURL(options.module).href;
  const loop: FuzzOptions = { ...options, seeds: options.seeds, iterations };
  const record = options.record ?? true;
  /** Whether iteration `i`, run alone in a fresh worker, is over the limit again. */
  const hangsAlone = async (i: number) =>
    'hung' in (await watched(options, module, { ...loop, from: i, iterations: i + 1 }, timeoutMs));
  let retimed = 0;
  for (let restarts = 0; ; restarts++) {
    const run = await watched(options, module, loop, timeoutMs);
    if ('report' in run) return finish({ ...run.report, retimed: (run.report.retimed ?? 0) + retimed }, record);
    let times = 1;
    while (times <= SLOW_RETRIES && (await hangsAlone(run.hung))) times++;
    const hang = times > SLOW_RETRIES;
    if (hang || restarts === MAX_RESTARTS) {
      const { kind, input } = fuzzInput(loop, run.hung);
      const message = hang
        ? `decode did not return within ${timeoutMs} ms, ${times} times out of ${times}`
        : `decode did not return within ${timeoutMs} ms in ${restarts + 1} runs (it returned when run alone)`;
      const failures = [{ check: `iteration ${run.hung} (${kind})`, message, input }];
      return finish({ suite: 'fuzz', format: run.format, iterations, failures, retimed }, record);
    }
    // Over the limit once, within it alone: a pause, not a hang. The whole run starts over, so the
    // failures the stopped worker had found are found again.
    retimed++;
  }
}
