// `savekit inspect`, `dump`, `build` and `verify` on design-layout files (variants A and C), as on the
// engine layout's: each written to a temp dir by the package's writer.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeOrThrow } from '@savekit/core';
import { createSave, edgeSave } from '@savekit/edge';
import { DESIGN_VARIANTS, emptyAreas, fullDesign } from './design-fixtures';

const cli = join(__dirname, '..', '..', 'cli', 'dist', 'bin.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'savekit-edge-design-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Case = [name: string, bytes: Uint8Array, layout: 'engine' | 'design', chunks: number];
const files: Case[] = DESIGN_VARIANTS.flatMap(([variant, version]): Case[] => [
  [`design ${variant} full`, encodeOrThrow(edgeSave, fullDesign(variant, version)), 'design', 9],
  [`design ${variant} empty areas`, encodeOrThrow(edgeSave, emptyAreas(variant, version)), 'design', 3],
]);
const engine = createSave({ variant: 'A' });
files.push(['engine A', encodeOrThrow(edgeSave, engine), 'engine', engine.chunks.length]);

test.each(files)(
  '%s: inspect, dump → build gives the same file, verify says byte-identical',
  (name, bytes, layout, chunks) => {
    const save = join(dir, `${name.replaceAll(' ', '-')}.esg`);
    writeFileSync(save, bytes);

    const inspect = run('inspect', '--depth', '1', save);
    expect({ status: inspect.status, err: inspect.stderr }).toEqual({ status: 0, err: '' });
    expect(inspect.stdout).toContain(`${layout} layout, ${chunks} top-level chunks`);

    const json = join(dir, `${name.replaceAll(' ', '-')}.json`);
    const dump = run('dump', save, '-o', json);
    // dump reports the decode's warnings (unknown and missing fields of the full fixtures) on standard
    // error, one line each with its code and document path; nothing else goes there.
    expect(dump.status).toBe(0);
    const warningLines = dump.stderr.split('\n').filter((line) => line !== '');
    for (const line of warningLines) expect(line).toMatch(/^savekit: .+: \[[a-z-]+\] warning at \S/);
    const built = join(dir, `${name.replaceAll(' ', '-')}.built.esg`);
    const build = run('build', json, '-o', built);
    expect({ status: build.status, err: build.stderr }).toEqual({ status: 0, err: `wrote ${built} (edge)\n` });
    expect(Buffer.from(readFileSync(built)).equals(Buffer.from(bytes))).toBe(true);

    const verify = run('verify', save, built);
    expect({ status: verify.status, err: verify.stderr }).toEqual({ status: 0, err: '' });
    expect(verify.stdout).toMatch(/2 saves: 2 ok, 0 invalid, 0 differ/);
  },
);
