/**
 * The budget suite: named attacks (bombs, size claims, wide and deep structures) decoded one at a
 * time, each in a fresh Node process with a heap limit, which measures what the decode cost — CPU
 * time, and peak memory over the process's baseline — and how it ended. A decode must answer with a
 * value or a `DecodeError` within the CPU and memory limits (by default the issue's bar: 2 s, scaled
 * by the test profile, and 256 MiB); a crash, a kill, an untyped exception or a decode that never
 * returns fails the attack.
 *
 * @module
 */
import { fork } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isSaveTree, type DecodeOptions, type SaveInput } from '@savekit/core';
import { testBudget, testProfile } from './budget.js';
import { kitScript, moduleUrl } from './load.js';
import { finish, type SuiteFailure, type SuiteReport } from './report.js';

/** What an attack expects of the decode: a `DecodeError`, a value, or either (the default). */
export type AttackExpectation = 'error' | 'ok' | 'either';

/** One attack of {@link budgetSuite}: a named input and what its decode should give. */
export interface Attack {
  /** A name for the report (`8 zlib bombs of 256 MiB`). */
  readonly name: string;
  /** The input (one file's bytes or a tree), or a function that builds it; built in the parent process. */
  readonly input: SaveInput | (() => SaveInput);
  /** What the decode must give (default `'either'`: a value or a `DecodeError`, but nothing else). */
  readonly expect?: AttackExpectation;
  /** With `expect: 'error'`: the error's `code` (such as `budget-exceeded`). */
  readonly code?: string;
  /** With `expect: 'error'`: which budget the error names (`output`, `work` or `allocation`). */
  readonly budget?: string;
  /** Decode options of this attack, over the suite's (plain values: they are sent to the child as JSON). */
  readonly options?: DecodeOptions;
}

/** Options of {@link budgetSuite}. */
export interface BudgetSuiteOptions {
  /** The module that exports the format: a path, a file URL, or a package name (`@savekit/edge`). */
  readonly module: string;
  /** Its export (default: `format`, else the default export). */
  readonly exportName?: string;
  /** The attacks, each decoded in its own process. */
  readonly attacks: ReadonlyArray<Attack>;
  /** Decode options of every attack (plain values: they are sent to the child as JSON). */
  readonly decodeOptions?: DecodeOptions;
  /** The most a decode may raise the process's peak RSS over its baseline (default 256 MiB). */
  readonly maxPeakBytes?: number;
  /**
   * The most CPU time one decode may take, in milliseconds (default 2,000 × `testBudget({ quick: 3,
   * heavy: 1 })`). A decode over it is run twice more and fails only when it is over every time.
   */
  readonly maxCpuMs?: number;
  /**
   * Wall-clock time after which a child is killed and the attack fails (default 60,000 ms): only so
   * that a decode that never returns cannot hang the run; the verdict on speed is the CPU limit.
   */
  readonly timeoutMs?: number;
  /** The child's `--max-old-space-size`, in MiB (default 512). */
  readonly heapLimitMb?: number;
  /** Add this run to the CI totals and the budget report file (default true; the kit's own tests say false). */
  readonly record?: boolean;
}

/** How an attack's decode ended. */
export type AttackOutcome =
  /** It returned a value. */
  | 'ok'
  /** It returned a `DecodeError`. */
  | 'decode-error'
  /** It returned a Left that is not a `DecodeError`. */
  | 'wrong-error'
  /** It threw. */
  | 'threw'
  /** The child process died (out of memory, a signal) before answering. */
  | 'crashed'
  /** The child did not answer within `timeoutMs` and was killed. */
  | 'timeout'
  /** The format module could not be loaded, or the input could not be built or read. */
  | 'setup';

/** An error an attack's decode gave or threw, as the child saw it. */
export interface AttackError {
  /** The error's `name` (`DecodeError`, `TypeError`, …). */
  readonly name: string;
  readonly message: string;
  /** Its `code`, when it has one (`budget-exceeded`). */
  readonly code?: string;
  /** Which budget it names, when it is a budget error. */
  readonly budget?: string;
  /** Its field path, formatted (`Glob.Vari[3]`), cut when long. */
  readonly path?: string;
  /** Its byte offset. */
  readonly offset?: number;
}

/** What one attack cost and how it ended. */
export interface AttackResult {
  readonly attack: string;
  /** Bytes of input (a tree: all its files). */
  readonly inputBytes: number;
  readonly outcome: AttackOutcome;
  /** The DecodeError, other Left, or thrown value. */
  readonly error?: AttackError;
  /** CPU time of the decode (user and system, all threads), in milliseconds; the least of the runs when it was run again. */
  readonly cpuMs?: number;
  /** Peak RSS over the RSS just before the decode, in MiB. */
  readonly peakMb?: number;
  /** How the child died, with the end of its stderr (`crashed`, `timeout`). */
  readonly crash?: string;
  /** Whether the attack passed every check. */
  readonly passed: boolean;
}

/** The report of {@link budgetSuite}: the suite report, and each attack's measures. */
export interface BudgetReport extends SuiteReport {
  readonly suite: 'budget';
  readonly attacks: ReadonlyArray<AttackResult>;
}

/** @internal What the parent sends the child. */
export interface ChildJob {
  readonly module: string;
  readonly exportName?: string | undefined;
  readonly inputFile: string;
  readonly tree: boolean;
  readonly options: DecodeOptions;
}

/** @internal What the child answers. */
export interface ChildResult {
  readonly outcome: 'ok' | 'decode-error' | 'wrong-error' | 'threw' | 'setup';
  /** The format's id, once it is loaded. */
  readonly format?: string;
  readonly error?: AttackError;
  readonly cpuMs?: number;
  readonly peakBytes?: number;
}

const MiB = 1024 * 1024;
/** How many more times an attack over the CPU limit is run before it counts. */
const SLOW_RETRIES = 2;

/** Writes an input to `file`: bytes as they are, a tree as a u32le header length, a JSON header, the bytes. */
function writeInput(file: string, input: SaveInput): number {
  if (!isSaveTree(input)) {
    writeFileSync(file, input);
    return input.length;
  }
  const names = [...input.keys()];
  const files = names.map((name) => input.get(name)!);
  const header = new TextEncoder().encode(JSON.stringify({ names, sizes: files.map((f) => f.length) }));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, header.length, true);
  writeFileSync(file, Buffer.concat([length, header, ...files]));
  return files.reduce((sum, f) => sum + f.length, 0);
}

/** Runs one job in a fresh child process under the watchdog. */
function runChild(
  job: ChildJob,
  heapLimitMb: number,
  timeoutMs: number,
): Promise<ChildResult | { outcome: 'crashed' | 'timeout'; crash: string }> {
  const child = fork(kitScript('budget-worker.js'), [], {
    execArgv: [`--max-old-space-size=${heapLimitMb}`, '--expose-gc'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  return new Promise((resolve) => {
    let answer: ChildResult | undefined;
    let timedOut = false;
    const watchdog = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (message: ChildResult) => {
      answer = message;
    });
    child.on('error', () => {
      /* reported by exit */
    });
    child.once('exit', (code, signal) => {
      clearTimeout(watchdog);
      if (answer !== undefined) return resolve(answer);
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      if (timedOut) return resolve({ outcome: 'timeout', crash: `killed after ${timeoutMs} ms` });
      resolve({
        outcome: 'crashed',
        crash: `${signal ? `killed by ${signal}` : `exit code ${code}`}${tail ? `: ${tail}` : ''}`,
      });
    });
    child.send(job);
  });
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
const describeError = (e: AttackError) =>
  `${e.name}${e.code ? ` (${e.code}${e.budget ? `, ${e.budget}` : ''})` : ''}${e.path !== undefined ? ` at ${e.path}` : ''}${e.offset !== undefined ? ` offset ${e.offset}` : ''}: ${e.message}`;

/** The problems of one attack's result, against its expectation and the limits. */
function judge(attack: Attack, r: AttackResult, maxPeakBytes: number, maxCpuMs: number): string[] {
  const problems: string[] = [];
  const expect = attack.expect ?? 'either';
  switch (r.outcome) {
    case 'crashed':
    case 'timeout':
      problems.push(`the decode's process ${r.outcome === 'timeout' ? 'never answered' : 'crashed'}: ${r.crash}`);
      break;
    case 'setup':
      problems.push(`could not run: ${r.error ? describeError(r.error) : 'unknown'}`);
      break;
    case 'threw':
      problems.push(`decode threw ${r.error ? describeError(r.error) : ''}`);
      break;
    case 'wrong-error':
      problems.push(`decode failed with something other than a DecodeError: ${r.error ? describeError(r.error) : ''}`);
      break;
    case 'ok':
      if (expect === 'error') problems.push('decoded, but a DecodeError was expected');
      break;
    case 'decode-error':
      if (expect === 'ok') problems.push(`expected a value, got ${r.error ? describeError(r.error) : 'a DecodeError'}`);
      else if (attack.code !== undefined && r.error?.code !== attack.code)
        problems.push(`expected error code ${attack.code}, got ${r.error ? describeError(r.error) : 'none'}`);
      else if (attack.budget !== undefined && r.error?.budget !== attack.budget)
        problems.push(`expected the ${attack.budget} budget, got ${r.error ? describeError(r.error) : 'none'}`);
      break;
  }
  if (r.peakMb !== undefined && r.peakMb * MiB > maxPeakBytes)
    problems.push(`peak memory ${r.peakMb} MiB over the baseline, over ${round(maxPeakBytes / MiB, 1)} MiB`);
  if (r.cpuMs !== undefined && r.cpuMs > maxCpuMs)
    problems.push(`CPU time ${Math.round(r.cpuMs)} ms at best of ${SLOW_RETRIES + 1} runs, over ${maxCpuMs} ms`);
  return problems;
}

/**
 * Appends each attack's measures to the file named by `SAVEKIT_BUDGET_REPORT` (one JSON object a
 * line: format, attack, input bytes, outcome, error code and budget, CPU ms, peak MiB, passed,
 * profile), so CI can collect the numbers of every format. Does nothing when the variable is unset.
 */
export function recordBudget(format: string, lines: ReadonlyArray<Record<string, unknown>>): void {
  const file = process.env.SAVEKIT_BUDGET_REPORT;
  if (!file || lines.length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  const profile = testProfile();
  appendFileSync(file, lines.map((line) => `${JSON.stringify({ format, profile, ...line })}\n`).join(''));
}

/**
 * Decodes each attack in a fresh child process (`node --max-old-space-size=512`) that loads the
 * format from `options.module`, and fails an attack whose process crashed, was killed or never
 * answered (after `timeoutMs`), whose decode threw or answered with something other than a
 * `DecodeError`, that raised peak memory more than `maxPeakBytes` over the process's baseline, took
 * more than `maxCpuMs` of CPU time (at best of three runs), or did not give what it `expect`s.
 * Returns the report, with every attack's measures (print them with {@link budgetTable}); throws a
 * `SuiteError` listing what failed. Attacks run one after another, so one's memory does not weigh
 * on another's.
 *
 * @example
 * ```ts
 * test('hostile inputs stay within budget', async () => {
 *   const report = await budgetSuite({
 *     module: require.resolve('../dist/index.js'),
 *     attacks: [{ name: '8 bombs', input: () => container(hostileInputs.manyBombs(8, 256 << 20)), expect: 'error' }],
 *   });
 *   console.log(budgetTable(report));
 * });
 * ```
 */
export async function budgetSuite(options: BudgetSuiteOptions): Promise<BudgetReport> {
  const module = moduleUrl(options.module);
  const maxPeakBytes = options.maxPeakBytes ?? 256 * MiB;
  const maxCpuMs = options.maxCpuMs ?? 2000 * testBudget({ quick: 3, heavy: 1 });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const heapLimitMb = options.heapLimitMb ?? 512;
  const record = options.record ?? true;
  const dir = mkdtempSync(join(tmpdir(), 'savekit-budget-'));
  const failures: SuiteFailure[] = [];
  const results: AttackResult[] = [];
  let format = options.module;
  try {
    for (const [i, attack] of options.attacks.entries()) {
      const inputFile = join(dir, `input-${i}`);
      let inputBytes = 0;
      let tree = false;
      let built: string | undefined;
      try {
        const input = typeof attack.input === 'function' ? attack.input() : attack.input;
        tree = isSaveTree(input);
        inputBytes = writeInput(inputFile, input);
      } catch (error) {
        built = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      const job: ChildJob = {
        module,
        exportName: options.exportName,
        inputFile,
        tree,
        options: { ...options.decodeOptions, ...attack.options },
      };
      let answer =
        built === undefined
          ? await runChild(job, heapLimitMb, timeoutMs)
          : { outcome: 'setup' as const, error: { name: 'input', message: `building the input threw ${built}` } };
      // Over the CPU limit: run again (a busy machine slows a decode once; a slow decoder every time).
      for (let retry = 0; retry < SLOW_RETRIES && 'cpuMs' in answer && (answer.cpuMs ?? 0) > maxCpuMs; retry++) {
        const again = await runChild(job, heapLimitMb, timeoutMs);
        if (again.outcome !== answer.outcome || !('cpuMs' in again)) {
          answer = again;
          break;
        }
        answer = { ...answer, cpuMs: Math.min(answer.cpuMs ?? 0, again.cpuMs ?? 0) };
      }
      const result: AttackResult = {
        attack: attack.name,
        inputBytes,
        outcome: answer.outcome,
        ...('error' in answer && answer.error ? { error: answer.error } : {}),
        ...('cpuMs' in answer && answer.cpuMs !== undefined ? { cpuMs: round(answer.cpuMs, 1) } : {}),
        ...('peakBytes' in answer && answer.peakBytes !== undefined
          ? { peakMb: round(answer.peakBytes / MiB, 1) }
          : {}),
        ...('crash' in answer ? { crash: answer.crash } : {}),
        passed: true,
      };
      if ('format' in answer && answer.format !== undefined) format = answer.format;
      const problems = judge(attack, result, maxPeakBytes, maxCpuMs);
      results.push({ ...result, passed: problems.length === 0 });
      for (const message of problems) failures.push({ check: `attack ${attack.name}`, message });
      rmSync(inputFile, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const report: BudgetReport = { suite: 'budget', format, iterations: results.length, failures, attacks: results };
  if (record)
    recordBudget(
      format,
      results.map((r) => ({
        attack: r.attack,
        inputBytes: r.inputBytes,
        outcome: r.outcome,
        code: r.error?.code,
        budget: r.error?.budget,
        cpuMs: r.cpuMs,
        peakMb: r.peakMb,
        passed: r.passed,
      })),
    );
  return finish(report, record) as BudgetReport;
}

/**
 * The attacks' measures as a table — attack, input size, outcome (with the error's code, budget and
 * path), CPU ms, peak MiB — one line each, for a format's test to print.
 */
export function budgetTable(report: BudgetReport): string {
  const rows = report.attacks.map((r) => [
    r.passed ? 'ok  ' : 'FAIL',
    r.attack,
    r.inputBytes >= MiB
      ? `${round(r.inputBytes / MiB, 2)} MiB`
      : r.inputBytes >= 1024
        ? `${round(r.inputBytes / 1024, 1)} KiB`
        : `${r.inputBytes} B`,
    r.error
      ? `${r.outcome} ${r.error.code ?? r.error.name}${r.error.budget ? `/${r.error.budget}` : ''}${r.error.path !== undefined ? ` at ${r.error.path}` : ''}`
      : r.crash
        ? `${r.outcome}: ${r.crash}`
        : r.outcome,
    r.cpuMs !== undefined ? `${Math.round(r.cpuMs)} ms` : '-',
    r.peakMb !== undefined ? `${r.peakMb} MiB` : '-',
  ]);
  const head = ['', 'attack', 'input', 'outcome', 'cpu', 'peak'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [`budget suite for ${report.format}`, line(head), ...rows.map(line)].join('\n');
}
