// writeFileAtomic under SIGKILL: a child rewrites a file as fast as it can and is killed at a random
// moment, 200 times (20 in the quick test profile). The file (and its backup) must always be one
// complete version, never a mix.
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { testBudget } from '@savekit/testkit';
import { writeFileAtomic } from '../src/node/atomic';

const entry = join(__dirname, '..', 'dist', 'node', 'index.js');
const SIZE = 256 * 1024;
const KILLS = testBudget({ quick: 20, heavy: 200 });
const version = (n: number) => {
  const bytes = new Uint8Array(SIZE).fill(n & 0xff);
  new DataView(bytes.buffer).setUint32(0, n, true);
  return bytes;
};
const isWhole = (bytes: Uint8Array) => {
  if (bytes.length !== SIZE) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
  for (let i = 4; i < SIZE; i++) if (bytes[i] !== (n & 0xff)) return false;
  return true;
};

test(`a writer killed at random points leaves the old or the new file, never a mix (${KILLS} kills)`, async () => {
  expect(existsSync(entry)).toBe(true); // `npm test` builds first
  const dir = mkdtempSync(join(tmpdir(), 'savekit-atomic-'));
  const target = join(dir, 'save.sav');
  const child = join(dir, 'writer.mjs');
  writeFileSync(
    child,
    `import { writeFileAtomic } from ${JSON.stringify(pathToFileURL(entry).href)};
     const size = ${SIZE};
     for (let n = Number(process.argv[2]); ; n++) {
       const bytes = new Uint8Array(size).fill(n & 0xff);
       new DataView(bytes.buffer).setUint32(0, n, true);
       writeFileAtomic(${JSON.stringify(target)}, bytes, { backup: ${JSON.stringify(`${target}.bak`)} });
       if (n === Number(process.argv[2])) process.stdout.write('wrote\\n');
     }`,
  );
  writeFileSync(target, version(0));
  let newest = 0;
  let killsLeavingTemps = 0;
  let mostTemps = 0;
  const leftovers = () => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  try {
    for (let kill = 0; kill < KILLS; kill++) {
      const start = newest + 1;
      const proc = spawn(process.execPath, [child, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] });
      // Wait until it has completed one write, then let it run on for a random moment.
      await new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, random() * 15));
      proc.kill('SIGKILL');
      await new Promise((resolve) => proc.once('exit', resolve));
      const now = new Uint8Array(readFileSync(target));
      expect(isWhole(now)).toBe(true);
      const n = new DataView(now.buffer, now.byteOffset).getUint32(0, true);
      // Never older than the last completed save.
      expect(n).toBeGreaterThanOrEqual(start);
      newest = n;
      const temps = leftovers();
      expect(temps.every((name) => /^\.save\.sav(\.bak)?\.\d+\.[0-9a-f]{12}\.tmp$/.test(name))).toBe(true);
      if (temps.length > 0) killsLeavingTemps++;
      mostTemps = Math.max(mostTemps, temps.length);
      const backup = new Uint8Array(readFileSync(`${target}.bak`));
      expect(isWhole(backup)).toBe(true);
      // The backup is the save before the last one, or the same one when the kill came between the two renames.
      expect(new DataView(backup.buffer, backup.byteOffset).getUint32(0, true)).toBeLessThanOrEqual(n);
    }
    // Killed writers leave temporary files, but each next save removes them: they never pile up.
    expect(killsLeavingTemps).toBeGreaterThan(0);
    expect(mostTemps).toBeLessThanOrEqual(2);
    writeFileAtomic(target, version(newest + 1), { backup: `${target}.bak` });
    expect(leftovers()).toEqual([]);
    expect(isWhole(new Uint8Array(readFileSync(target)))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Generous: 200 process starts on a busy machine are slow, and slowness is not what this tests.
}, 600_000);

test("a running writer's temporary file is left alone; a dead one's is removed", () => {
  const dir = mkdtempSync(join(tmpdir(), 'savekit-atomic-'));
  const target = join(dir, 'save.sav');
  try {
    // process.ppid runs (it started us); a pid far past the kernel's maximum never does.
    const running = join(dir, `.save.sav.${process.ppid}.0123456789ab.tmp`);
    const dead = join(dir, `.save.sav.${2 ** 31 - 2}.0123456789ab.tmp`);
    const unrelated = join(dir, '.other.sav.1.0123456789ab.tmp');
    for (const file of [running, dead, unrelated]) writeFileSync(file, 'partial');
    writeFileAtomic(target, Uint8Array.of(1, 2, 3));
    expect(existsSync(running)).toBe(true);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(unrelated)).toBe(true);
    expect([...readFileSync(target)]).toEqual([1, 2, 3]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a backup that already is the save (a writer killed between its renames) is kept without leaving a temporary file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'savekit-atomic-'));
  const target = join(dir, 'save.sav');
  try {
    writeFileSync(target, Uint8Array.of(1));
    linkSync(target, `${target}.bak`);
    writeFileAtomic(target, Uint8Array.of(2), { backup: `${target}.bak` });
    expect([...readFileSync(target)]).toEqual([2]);
    expect([...readFileSync(`${target}.bak`)]).toEqual([1]);
    expect(readdirSync(dir).sort()).toEqual(['save.sav', 'save.sav.bak']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parts are written in order as they come; parts that fail to come leave the old file and no temporary one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'savekit-atomic-'));
  const target = join(dir, 'save.json');
  try {
    function* parts(fail: boolean) {
      yield Uint8Array.of(1, 2);
      yield new Uint8Array(0);
      yield Uint8Array.of(3);
      if (fail) throw new RangeError('the text could not be made');
      yield Uint8Array.of(4);
    }
    writeFileAtomic(target, parts(false));
    expect([...readFileSync(target)]).toEqual([1, 2, 3, 4]);
    expect(() => writeFileAtomic(target, parts(true))).toThrow('the text could not be made');
    expect([...readFileSync(target)]).toEqual([1, 2, 3, 4]);
    expect(readdirSync(dir)).toEqual(['save.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
