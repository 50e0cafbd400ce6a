// writeFileAtomic under SIGKILL: a child rewrites a file as fast as it can and is killed at a random
// moment, 200 times. The file (and its backup) must always be one complete version, never a mix.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = join(__dirname, '..', 'dist', 'node', 'index.js');
const SIZE = 256 * 1024;
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

test('a writer killed at random points leaves the old or the new file, never a mix (200 kills)', async () => {
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
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  try {
    for (let kill = 0; kill < 200; kill++) {
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
      const backup = new Uint8Array(readFileSync(`${target}.bak`));
      expect(isWhole(backup)).toBe(true);
      // The backup is the save before the last one, or the same one when the kill came between the two renames.
      expect(new DataView(backup.buffer, backup.byteOffset).getUint32(0, true)).toBeLessThanOrEqual(n);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
