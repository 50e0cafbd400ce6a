// `--ignore-checksums` is the CLI's, not a format's: on the bundled Edge sample (an Adler-32 over the
// save) a damaged checksum is refused by inspect, dump, verify and edit; with the flag each reads
// it, prints the mismatch, and edit / dump → build write it back repaired. (Terrarum's own cases,
// on the real TerranVirtualDisk, are in packages/terrarum/test/editing.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format as edge } from '@savekit/edge';
import { scratchFolder } from './binary';
import { inProcessCli } from './in-process';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../src/version', () => ({ version: '0.0.0-test' }));

const sample = new Uint8Array(readFileSync(join(__dirname, '..', '..', '..', 'examples', 'saves', 'edge-01.esg')));
const scratch = scratchFolder('savekit-ignore-checksums-', { binary: false });
const savekit = inProcessCli([edge]);

/** The sample with a byte of its body flipped: the Adler-32 at its end no longer matches. */
function damaged(name: string): string {
  const bytes = sample.slice();
  bytes[100]! ^= 1;
  const path = join(scratch.path, name);
  writeFileSync(path, bytes);
  return path;
}

test('without the flag a bad checksum is refused; with it, read with the mismatch as a warning', async () => {
  const bad = damaged('bad.esg');
  for (const command of ['inspect', 'dump', 'verify']) {
    const run = await savekit(command, bad);
    expect([command, run.code, `${run.stdout}${run.stderr}`]).toEqual([
      command,
      1,
      expect.stringMatching(/checksum-mismatch|Adler-32 mismatch/),
    ]);
  }
  const inspect = await savekit('inspect', '--ignore-checksums', '--depth', '1', bad);
  expect(inspect.code).toBe(0);
  expect(inspect.stdout).toMatch(/\[checksum-mismatch\] warning at <Adler-32> \(offset \d+\): Adler-32 mismatch/);
  const verify = await savekit('verify', '--ignore-checksums', '--json', bad);
  expect(verify.code).toBe(1); // still invalid
  const report = JSON.parse(verify.stdout) as { results: Array<{ status: string; code: string; warnings: unknown[] }> };
  expect(report.results[0]).toMatchObject({ status: 'invalid', code: 'checksum-mismatch' });
  expect(report.results[0]!.warnings).toHaveLength(1);
});

test('dump --ignore-checksums then build, or edit --ignore-checksums, write the save back repaired', async () => {
  const bad = damaged('repair.esg');
  const json = join(scratch.path, 'repair.json');
  const dump = await savekit('dump', '--ignore-checksums', bad, '-o', json);
  expect([dump.code, dump.stderr]).toEqual([0, expect.stringMatching(/\[checksum-mismatch\]/)]);
  const fixed = join(scratch.path, 'fixed.esg');
  expect((await savekit('build', json, '-o', fixed)).code).toBe(0);
  expect((await savekit('verify', fixed)).code).toBe(0);
  // edit, the document left unchanged: written back anyway, because that is the repair.
  const previous = process.env.VISUAL;
  process.env.VISUAL = 'true';
  try {
    const edit = await savekit('edit', '--ignore-checksums', bad);
    expect([edit.code, edit.stderr]).toEqual([0, expect.stringMatching(/checksums recomputed/)]);
    // Without the flag an unchanged document writes nothing (and a bad save does not open).
    expect((await savekit('edit', damaged('untouched.esg'))).code).toBe(1);
  } finally {
    if (previous === undefined) delete process.env.VISUAL;
    else process.env.VISUAL = previous;
  }
  expect((await savekit('verify', bad)).code).toBe(0);
  expect(new Uint8Array(readFileSync(bad))).toEqual(new Uint8Array(readFileSync(fixed)));
});
