// Peak memory of one decode or encode, in a process of its own (so nothing else a benchmark run did
// raises the watermark): node --expose-gc memory-probe.mjs <module> <decode|encode> <file>
// [decode options as JSON].
// Prints JSON: the resident set size before the operation and its peak during it.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { must } from '../either.mjs';

const [moduleName, op, file, optionsJson] = process.argv.slice(2);
const options = optionsJson === undefined ? undefined : JSON.parse(optionsJson);
const { format } = await import(moduleName);
const input = new Uint8Array(readFileSync(file));
const doc = op === 'encode' ? must(format.decode(input, options)).value : undefined;

const buffer = new SharedArrayBuffer(16);
const control = new SharedArrayBuffer(4);
const shared = new Float64Array(buffer);
const worker = new Worker(new URL('./memory-sampler.mjs', import.meta.url), { workerData: { buffer, control } });
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc?.();
globalThis.gc?.();
const before = process.memoryUsage.rss();
shared[0] = before;
await new Promise((resolve) => setTimeout(resolve, 5)); // let the sampler see the baseline
const result = op === 'decode' ? must(format.decode(input, options)) : must(format.encode(doc));
const after = process.memoryUsage.rss();
await new Promise((resolve) => setTimeout(resolve, 5));
const peak = Math.max(shared[0], after);
Atomics.store(new Int32Array(control), 0, 1);
Atomics.notify(new Int32Array(control), 0);
await worker.terminate();
void result;
process.stdout.write(JSON.stringify({ before, peak, extra: peak - before, inputBytes: input.length }));
