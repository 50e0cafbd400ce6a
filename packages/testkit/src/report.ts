/**
 * What a suite found, and the running totals CI prints at the end of a run.
 *
 * @module
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One problem a suite found. */
export interface SuiteFailure {
  /** Which check. */
  readonly check: string;
  /** What went wrong. */
  readonly message: string;
  /** The input that showed it, as hex (shortened), when there is one. */
  readonly input?: string;
}

/** The outcome of one suite over one format. */
export interface SuiteReport {
  /** Which suite: `roundTrip`, `fuzz`, `budget`, `scaling` or `encode`. */
  readonly suite: 'roundTrip' | 'fuzz' | 'budget' | 'scaling' | 'encode';
  readonly format: string;
  /** Checks or iterations run. */
  readonly iterations: number;
  readonly failures: ReadonlyArray<SuiteFailure>;
  /** The slowest input, for fuzzing. */
  readonly slowest?: { readonly ms: number; readonly mutation: string };
  /** Fuzz decodes that went over the time limit once but not when timed again (pauses, not hangs). */
  readonly retimed?: number;
}

/** Thrown when a suite found failures; the report is attached. */
export class SuiteError extends Error {
  override readonly name = 'SuiteError';
  constructor(readonly report: SuiteReport) {
    super(
      `${report.suite} suite for ${report.format}: ${report.failures.length} of ${report.iterations} failed\n` +
        report.failures
          .slice(0, 10)
          .map((f) => `  ${f.check}: ${f.message}${f.input ? ` (input ${f.input})` : ''}`)
          .join('\n'),
    );
  }
}

/** Hex of the first bytes of an input, for failure messages. */
export function preview(bytes: Uint8Array, max = 48): string {
  const hex = Array.from(bytes.subarray(0, max), (b) => b.toString(16).padStart(2, '0')).join('');
  return bytes.length > max ? `${hex}… (${bytes.length} bytes)` : hex;
}

/**
 * Appends a report to the totals file named by `SAVEKIT_TESTKIT_TOTALS` (one JSON object a line), so
 * a CI script can sum every suite of a run. Does nothing when the variable is unset.
 */
export function recordTotals(report: SuiteReport): void {
  const file = process.env.SAVEKIT_TESTKIT_TOTALS;
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(
    file,
    `${JSON.stringify({ suite: report.suite, format: report.format, iterations: report.iterations, failures: report.failures.length, slowest: report.slowest, retimed: report.retimed })}\n`,
  );
}

/** Records the report (unless `record` is false), and throws a {@link SuiteError} when it has failures. */
export function finish(report: SuiteReport, record = true): SuiteReport {
  if (record) recordTotals(report);
  if (report.failures.length > 0) throw new SuiteError(report);
  return report;
}
