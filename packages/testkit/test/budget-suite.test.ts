// The budget suite holds formats to CPU and memory limits in child processes: a correct format
// passes, and each kind of broken one (allocates what the input claims, throws, runs out of heap,
// spins, never returns) is caught. The formats live in fixtures/budget-formats.mjs, which the child
// processes load; the kit's child script is its build (dist/budget-worker.js).
import { join } from 'node:path';
import {
  budgetSuite,
  budgetTable,
  hostileInputs,
  SuiteError,
  type BudgetReport,
  type BudgetSuiteOptions,
} from '../src/index';

const module = join(__dirname, 'fixtures', 'budget-formats.mjs');
const sample = Uint8Array.of(0x54, 0x4b, 0x49, 0x54, 3, 0x68, 0x69, 0, 2, 0, 0, 0, 0x6f, 0x6b);
const claim = (bytes: number) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setUint32(0, bytes, true);
  return out;
};

/** The suite on one of the fixture module's formats (its `format` when no export is named), unrecorded. */
const suite = (options: Omit<BudgetSuiteOptions, 'module' | 'record'>) =>
  budgetSuite({ module, record: false, ...options });

/** The SuiteError a run throws (failing the test when it does not). */
async function failureOf(run: Promise<BudgetReport>): Promise<SuiteError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof SuiteError) return error;
    throw error;
  }
  throw new Error('the suite passed');
}

test('a correct format passes: each attack measured in its own process, as a table', async () => {
  const report = await suite({
    attacks: [
      { name: 'the sample', input: sample, expect: 'ok' },
      // The note's length claims 4 GiB (u32le 2^32-1), in a file of 14 bytes.
      ...hostileInputs.sizeClaims
        .filter((c) => c.name.startsWith('u32le'))
        .map((c) => ({
          name: `note length ${c.name}`,
          input: () => Uint8Array.from([...sample.subarray(0, 8), ...c.bytes, 0x6f, 0x6b]),
          expect: 'error' as const,
        })),
      { name: 'a zlib bomb', input: () => hostileInputs.zlibBomb(256 << 20), expect: 'error' },
    ],
  });
  expect(report.failures).toEqual([]);
  expect(report.format).toBe('budget-good');
  expect(report.attacks).toHaveLength(6);
  for (const attack of report.attacks) {
    expect(attack.passed).toBe(true);
    expect(attack.cpuMs).toBeGreaterThanOrEqual(0);
    expect(attack.peakMb).toBeGreaterThanOrEqual(0);
  }
  expect(report.attacks[0]).toMatchObject({ attack: 'the sample', inputBytes: 14, outcome: 'ok' });
  expect(report.attacks[1]).toMatchObject({ outcome: 'decode-error', error: { name: 'DecodeError', path: 'note' } });
  expect(report.attacks[5]!.inputBytes).toBeGreaterThan(250_000);
  const table = budgetTable(report);
  expect(table).toMatch(/^budget suite for budget-good\n\s+attack\s+input\s+outcome\s+cpu\s+peak\n/);
  expect(table).toMatch(
    /ok\s+note length u32le 2\^32-1\s+14 B\s+decode-error short-read at note\s+\d+ ms\s+[\d.]+ MiB/,
  );
});

test('what an attack expects is checked: a value, an error, its code and budget', async () => {
  const error = await failureOf(
    suite({
      attacks: [
        { name: 'garbage, expecting a value', input: claim(7), expect: 'ok' },
        { name: 'the sample, expecting an error', input: sample, expect: 'error' },
        { name: 'garbage, expecting a budget error', input: claim(7), expect: 'error', code: 'budget-exceeded' },
        { name: 'garbage, either', input: claim(7) },
      ],
    }),
  );
  const report = error.report as BudgetReport;
  expect(report.attacks.map((a) => a.passed)).toEqual([false, false, false, true]);
  expect(error.message).toMatch(/attack garbage, expecting a value: expected a value, got DecodeError/);
  expect(error.message).toMatch(/attack the sample, expecting an error: decoded, but a DecodeError was expected/);
  expect(error.message).toMatch(/expected error code budget-exceeded, got DecodeError/);
});

test('catches a decoder that allocates what a size in the input claims', async () => {
  // 400 MiB claimed by a 4-byte field: over the 256 MiB limit on the process's peak memory.
  const error = await failureOf(
    suite({ exportName: 'allocates', attacks: [{ name: 'claim', input: claim(400 << 20) }] }),
  );
  expect(error.message).toMatch(/attack claim: peak memory \d+(\.\d)? MiB over the baseline, over 256 MiB/);
  expect((error.report as BudgetReport).attacks[0]!.peakMb).toBeGreaterThan(300);
  // The same decoder within its means passes: the limit is on what was used, not on the decoder.
  const small = await suite({
    exportName: 'allocates',
    attacks: [{ name: 'small claim', input: claim(1 << 20), expect: 'error' }],
  });
  expect(small.attacks[0]!.peakMb).toBeLessThan(64);
});

test('catches a decoder that throws, one that runs out of heap, one that spins and one that never returns', async () => {
  const threw = await failureOf(
    suite({ exportName: 'throws', attacks: [{ name: 'short', input: claim(1).subarray(0, 4) }] }),
  );
  expect(threw.message).toMatch(/attack short: decode threw TypeError: cannot read properties of undefined/);

  const crashed = await failureOf(
    suite({ exportName: 'exhausts', heapLimitMb: 64, attacks: [{ name: 'wide', input: sample }] }),
  );
  expect(crashed.message).toMatch(/attack wide: the decode's process crashed: (killed by SIG[A-Z]+|exit code \d+)/);
  expect((crashed.report as BudgetReport).attacks[0]!.outcome).toBe('crashed');

  // 400 ms of CPU time, however fast the machine: over a 100 ms limit in each of its three runs.
  const slow = await failureOf(
    suite({ exportName: 'spins', maxCpuMs: 100, attacks: [{ name: 'spin', input: sample }] }),
  );
  expect(slow.message).toMatch(/attack spin: CPU time \d+ ms at best of 3 runs, over 100 ms/);

  const hung = await failureOf(
    suite({ exportName: 'hangs', timeoutMs: 3000, attacks: [{ name: 'loop', input: sample }] }),
  );
  expect(hung.message).toMatch(/attack loop: the decode's process never answered: killed after 3000 ms/);
});

test('folders reach the child whole, hostile names included', async () => {
  const input = new Map([
    ['world', Uint8Array.of(1, 2, 3)],
    ['../escape', new Uint8Array(0)],
    ['__proto__', Uint8Array.of(9)],
    ['d/\u00e9\ud800', new Uint8Array(1000)],
  ]);
  const report = await suite({ exportName: 'tree', attacks: [{ name: 'tree', input }] });
  expect(report.attacks[0]!.inputBytes).toBe(1004);
  expect(JSON.parse(report.attacks[0]!.error!.message)).toEqual([
    ['world', 3, true],
    ['../escape', 0, true],
    ['__proto__', 1, true],
    ['d/\u00e9\ud800', 1000, true],
  ]);
});

test('an input that cannot be built, or a module without a format, is reported, not thrown', async () => {
  const error = await failureOf(
    suite({
      attacks: [
        {
          name: 'broken builder',
          input: () => {
            throw new RangeError('no');
          },
        },
      ],
    }),
  );
  expect(error.message).toMatch(/attack broken builder: could not run: input: building the input threw RangeError: no/);
  const missing = await failureOf(suite({ exportName: 'nothing', attacks: [{ name: 'x', input: sample }] }));
  expect(missing.message).toMatch(/could not run: Error: the module exports no format named nothing/);
});
