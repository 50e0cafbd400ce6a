// `--ignore-checksums` is the CLI's, not a format's. On the bundled sample of every format that has a
// checksum (Edge's Adler-32 over the save, Zippy's CRC-32 trailer, Terrarum's disk CRC) one byte of
// the checksum itself is damaged: inspect, dump, verify, edit, diff and hexdump refuse it with the
// `checksum-mismatch` code; with the flag each reads it with the mismatch as a warning, and edit /
// dump → build write it back with the checksum recomputed, which is the sample again byte for byte.
// UQM saves carry no checksum: there the flag changes nothing and hides no other error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnySaveFormat } from '@savekit/core';
import { format as edge } from '@savekit/edge';
import { format as terrarum } from '@savekit/terrarum';
import { format as uqm } from '@savekit/uqm';
import { format as zippy } from '@savekit/zippy';
import { root, scratchFolder } from './binary';
import { inProcessCli } from './in-process';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../src/version', () => ({ version: '0.0.0-test' }));

const scratch = scratchFolder('savekit-ignore-checksums-', { binary: false });
const savekit = inProcessCli([edge, uqm, zippy, terrarum], { noColor: true });
const sampleOf = (file: string) => new Uint8Array(readFileSync(join(root, 'examples', 'saves', file)));

/** `bytes` with the byte at `offset` inverted, written to the scratch folder as `name`. */
function damaged(bytes: Uint8Array, offset: number, name: string): string {
  const copy = bytes.slice();
  copy[offset]! ^= 0xff;
  const path = join(scratch.path, name);
  writeFileSync(path, copy);
  return path;
}

/** Runs `run` with $VISUAL set to `editor` (`true`: the document saved unchanged). */
async function withEditor<T>(editor: string, run: () => Promise<T>): Promise<T> {
  const previous = process.env.VISUAL;
  process.env.VISUAL = editor;
  try {
    return await run();
  } finally {
    if (previous === undefined) delete process.env.VISUAL;
    else process.env.VISUAL = previous;
  }
}

// The offset of a byte of each sample's checksum field (from its field map: `savekit hexdump`).
const checksummed: ReadonlyArray<{ format: AnySaveFormat; file: string; offset: number; field: string }> = [
  { format: edge, file: 'edge-01.esg', offset: 16_207, field: '<Adler-32>' },
  { format: zippy, file: 'zippy-01.zsav', offset: 877, field: 'crc' },
  { format: terrarum, file: 'terrarum-01.tevd', offset: 43, field: 'disk<diskCrc>' },
];

describe.each(checksummed)('$format.id: a damaged checksum byte', ({ format, file, offset, field }) => {
  const sample = sampleOf(file);
  const ext = file.slice(file.lastIndexOf('.'));
  const warning = /\[checksum-mismatch\] warning at .*\(offset \d+\)/;

  test('the field map names the byte damaged', async () => {
    const bad = damaged(sample, offset, `map${ext}`);
    const hex = await savekit(
      'hexdump',
      '--ignore-checksums',
      '--range',
      `${offset - (offset % 16)}:${offset + 1}`,
      bad,
    );
    expect(hex.code).toBe(0);
    expect(hex.stdout).toContain(field);
  });

  test('is refused with the checksum code without the flag, by every command that reads it', async () => {
    const bad = damaged(sample, offset, `bad${ext}`);
    const good = join(scratch.path, `good${ext}`);
    writeFileSync(good, sample);
    const runs: Array<[string, string[]]> = [
      ['inspect', [bad]],
      ['dump', [bad]],
      ['verify', [bad]],
      ['diff', [good, bad]],
      ['hexdump', [bad]],
      ['edit', [bad]],
    ];
    for (const [command, args] of runs) {
      const run = await withEditor('true', () => savekit(command, ...args));
      expect([command, run.code, `${run.stdout}${run.stderr}`]).toEqual([
        command,
        1,
        expect.stringMatching(/\[checksum-mismatch\] at .*\(offset \d+\): /),
      ]);
    }
    const verify = await savekit('verify', '--json', bad);
    expect(JSON.parse(verify.stdout)).toMatchObject({ results: [{ status: 'invalid', code: 'checksum-mismatch' }] });
    // The save is not touched by the refused edit.
    expect(new Uint8Array(readFileSync(bad))).not.toEqual(sample);
  });

  test('with the flag it is read, the mismatch a warning', async () => {
    const bad = damaged(sample, offset, `read${ext}`);
    const good = join(scratch.path, `same${ext}`);
    writeFileSync(good, sample);
    const inspect = await savekit('inspect', '--ignore-checksums', '--depth', '1', bad);
    expect([inspect.code, inspect.stdout]).toEqual([0, expect.stringMatching(warning)]);
    const dump = await savekit('dump', '--ignore-checksums', bad);
    expect([dump.code, dump.stderr]).toEqual([0, expect.stringMatching(warning)]);
    expect(JSON.parse(dump.stdout)).toMatchObject({ savekit: 1, format: format.id });
    const hex = await savekit('hexdump', '--ignore-checksums', bad);
    expect([hex.code, hex.stderr]).toEqual([0, expect.stringMatching(warning)]);
    const verify = await savekit('verify', '--ignore-checksums', '--json', bad);
    expect(verify.code).toBe(1); // still invalid
    const report = JSON.parse(verify.stdout) as { results: Array<{ code: string; warnings: unknown[] }> };
    expect(report.results[0]).toMatchObject({ code: 'checksum-mismatch' });
    expect(report.results[0]!.warnings).toHaveLength(1);
    // Read past the checksum, the two saves are compared field by field: a checksum is computed, not
    // a field of the document, so they hold the same document.
    const diff = await savekit('diff', '--ignore-checksums', '--json', good, bad);
    expect([diff.code, JSON.parse(diff.stdout), diff.stderr]).toEqual([
      0,
      { format: format.id, differences: [] },
      expect.stringMatching(warning),
    ]);
  });

  test('dump then build, or edit, write it back with the checksum recomputed: the sample again', async () => {
    const bad = damaged(sample, offset, `repair${ext}`);
    const json = join(scratch.path, `repair-${format.id}.json`);
    expect((await savekit('dump', '--ignore-checksums', bad, '-o', json)).code).toBe(0);
    const fixed = join(scratch.path, `fixed${ext}`);
    expect((await savekit('build', json, '-o', fixed)).code).toBe(0);
    expect(new Uint8Array(readFileSync(fixed))).toEqual(sample);
    const edit = await withEditor('true', () => savekit('edit', '--ignore-checksums', bad));
    expect([edit.code, edit.stderr]).toEqual([0, expect.stringMatching(/checksums recomputed/)]);
    expect(new Uint8Array(readFileSync(bad))).toEqual(sample);
    expect((await savekit('verify', bad)).code).toBe(0);
  });
});

describe('uqm: no checksum to ignore', () => {
  const sample = sampleOf('uqm-01.sav');

  test('the flag reads a sound save as without it, and hides no other error', async () => {
    const good = join(scratch.path, 'good.sav');
    writeFileSync(good, sample);
    for (const command of ['inspect', 'dump', 'verify', 'hexdump']) {
      const plain = await savekit(command, good);
      const flagged = await savekit(command, '--ignore-checksums', good);
      expect([command, flagged.code, flagged.stdout, flagged.stderr]).toEqual([command, 0, plain.stdout, plain.stderr]);
    }
    expect((await savekit('diff', '--ignore-checksums', good, good)).code).toBe(0);
    // A truncated save is refused with the flag as without it: only checksums are ignored.
    const cut = join(scratch.path, 'cut.sav');
    writeFileSync(cut, sample.subarray(0, sample.length - 100));
    for (const flags of [[], ['--ignore-checksums']]) {
      const run = await savekit('inspect', ...flags, cut);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('[short-read]');
    }
  });
});
