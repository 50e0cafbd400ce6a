// The child side of budgetSuite: one attack in a fresh process. Loads the format, reads the input,
// settles memory, then decodes once and sends what it cost (CPU time, peak RSS over the baseline)
// and how it ended. Run with --max-old-space-size and --expose-gc by the parent.
import { readFileSync, writeFileSync } from 'node:fs';
import { formatPath } from '@savekit/core';
import { formatOf } from './load.js';
import type { AttackError, ChildJob, ChildResult } from './budget-suite.js';

/** A tree sent as one file: a u32le header length, a JSON header of names and sizes, the bytes. */
function readInput(file: string, tree: boolean): Uint8Array | Map<string, Uint8Array> {
  const bytes = new Uint8Array(readFileSync(file));
  if (!tree) return bytes;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as {
    names: string[];
    sizes: number[];
  };
  const out = new Map<string, Uint8Array>();
  let at = 4 + headerLength;
  header.names.forEach((name, i) => {
    const size = header.sizes[i]!;
    out.set(name, bytes.slice(at, at + size));
    at += size;
  });
  return out;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** What a thrown value or a Left says, in a form that crosses the IPC channel. */
function describe(error: unknown): AttackError {
  if (error === null || typeof error !== 'object') return { name: typeof error, message: cut(String(error), 400) };
  const e = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    budget?: unknown;
    path?: unknown;
    offset?: unknown;
  };
  let path: string | undefined;
  try {
    if (Array.isArray(e.path)) path = cut(formatPath(e.path), 200);
  } catch {
    path = '(unprintable path)';
  }
  return {
    name: String(e.name),
    message: cut(String(e.message), 400),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.budget === 'string' ? { budget: e.budget } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(typeof e.offset === 'number' ? { offset: e.offset } : {}),
  };
}

const isDecodeError = (e: unknown) =>
  e !== null &&
  typeof e === 'object' &&
  (e as { name?: unknown }).name === 'DecodeError' &&
  Array.isArray((e as { path?: unknown }).path) &&
  typeof (e as { offset?: unknown }).offset === 'number';

/**
 * Peak resident memory of this process in bytes since {@link resetPeak}. On Linux it is /proc's
 * `VmHWM`, which belongs to this process alone: getrusage's `ru_maxrss` also keeps the RSS the
 * parent had when it forked us (a test runner holding a large buffer would show up as ours).
 * Elsewhere, `ru_maxrss`.
 */
function peakRss(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm !== null) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024; // KiB
}

/** Starts the peak over (Linux: writing 5 to clear_refs resets VmHWM to the current RSS). */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not allowed: the peak then includes loading the format
  }
}

async function run(job: ChildJob): Promise<ChildResult> {
  let format: ReturnType<typeof formatOf>;
  let input: ReturnType<typeof readInput>;
  try {
    format = formatOf((await import(job.module)) as Record<string, unknown>, job.exportName);
    input = readInput(job.inputFile, job.tree);
  } catch (error) {
    return { outcome: 'setup', error: describe(error) };
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  resetPeak();
  const baseline = process.memoryUsage.rss();
  const before = process.cpuUsage();
  let outcome: ChildResult['outcome'];
  let error: AttackError | undefined;
  try {
    const result = format.decode(input, job.options);
    if (result._tag === 'Right') outcome = 'ok';
    else {
      outcome = isDecodeError(result.left) ? 'decode-error' : 'wrong-error';
      error = describe(result.left);
    }
  } catch (thrown) {
    outcome = 'threw';
    error = describe(thrown);
  }
  const cpu = process.cpuUsage(before);
  const peakBytes = Math.max(0, peakRss() - baseline);
  return { outcome, format: format.id, ...(error ? { error } : {}), cpuMs: (cpu.user + cpu.system) / 1000, peakBytes };
}

process.once('message', (job: ChildJob) => {
  void run(job).then((result) => process.send?.(result, () => process.exit(0)));
});
