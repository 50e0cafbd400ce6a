// A worker that samples the process's resident set size every millisecond into shared memory, so
// the peak during a synchronous operation on the main thread can be read afterwards.
import { workerData } from 'node:worker_threads';

const shared = new Float64Array(workerData.buffer); // [0]: peak since reset; [1]: reset requests
const control = new Int32Array(workerData.control); // [0]: 1 = stop
for (;;) {
  const rss = process.memoryUsage.rss();
  if (rss > shared[0]) shared[0] = rss;
  if (Atomics.wait(control, 0, 0, 1) !== 'timed-out') break;
}
