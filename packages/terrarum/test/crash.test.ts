// The backup rule under crashes: a child process saves again and again (a TEVd disk holding a save,
// written atomically with the previous one kept as the backup) and is killed with SIGKILL at random
// moments, 100 times (20 in the quick test profile). After each kill the save — or its backup —
// loads, and it is never older than the last save the child reported complete.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { loadSaveFile } from '@savekit/terrarum/node';
import type { TerrarumDocument } from '@savekit/terrarum';
import { testBudget } from '@savekit/testkit';

const KILLS = testBudget({ quick: 20, heavy: 100 });
const root = join(__dirname, '..', '..', '..');
const child = `
import { encodeOrThrow } from '@savekit/core';
import { encodeSave, parseCsv, tevdDisk, treeToDisk } from '@savekit/terrarum';
import { saveFile } from '@savekit/terrarum/node';
const path = process.argv[1];
let n = Number(process.argv[2]);
for (;;) {
  n++;
  const save = {
    meta: { magic: 'TESV', name: 'crash ' + n, terrainSeed: 1n, randomiserSeed: 2n, crc1: 0, crc2: 0, crc3: 0, crc4: 0, hash4321: new Uint8Array(32), refid: 9545698, timeT: BigInt(n), created: 1, lastPlayed: n, playTime: n },
    worldinfo1: new Uint8Array(20000).fill(n & 0xff), worldinfo2: parseCsv('"id"\\n"' + n + '"\\n'), worldinfo3: { rows: [] }, worldinfo4: { rows: [] }, worldinfo5: 'basegame\\n', actors: {}, files: {},
  };
  const tree = encodeSave(save);
  saveFile(path, encodeOrThrow(tevdDisk, treeToDisk(tree.right, { name: 'save1' })));
  process.stdout.write('done ' + n + '\\n');
}`;

/** The counter of the save a loaded disk holds (the save holds the disk's file bytes). */
function counterOf(document: TerrarumDocument): number {
  if (document.kind !== 'disk' || document.save === undefined) throw new Error('expected a disk holding a save');
  return document.save.meta.playTime;
}

test(`killed ${KILLS} times while saving: the save or its backup always loads, never older than the last completed save`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'savekit-crash-'));
  const path = join(dir, 'save1.tevd');
  let lastCompleted = 0;
  let fromBackup = 0;
  try {
    for (let round = 0; round < KILLS; round++) {
      const proc = spawn(process.execPath, ['--input-type=module', '-e', child, path, String(lastCompleted)], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
      let err = '';
      proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
      // Let it start and save a few times, then kill it at a random moment.
      await new Promise<void>((resolve) => {
        const timers: NodeJS.Timeout[] = [];
        proc.stdout.once('data', () =>
          timers.push(setTimeout(() => proc.kill('SIGKILL'), Math.floor(Math.random() * 25))),
        );
        // Only for a child that never reports a save; generous, as a busy machine starts it slowly.
        timers.push(setTimeout(() => proc.kill('SIGKILL'), 60_000));
        proc.on('exit', () => {
          for (const t of timers) clearTimeout(t);
          resolve();
        });
      });
      const completed = [...out.matchAll(/done (\d+)/g)].map((m) => Number(m[1]));
      if (completed.length > 0) lastCompleted = completed[completed.length - 1]!;
      if (lastCompleted === 0) throw new Error(`the child saved nothing: ${err}`);
      const loaded = loadSaveFile(path);
      if (E.isLeft(loaded))
        throw new Error(`round ${round}: neither the save nor its backup loads: ${loaded.left.message}`);
      if (loaded.right.from === 'backup') fromBackup++;
      const document = loaded.right.document;
      if (document.kind !== 'disk') throw new Error('expected a disk');
      const counter = counterOf(document);
      // The loaded save is the last completed one, or the one being written when the kill came —
      // never older, from the main file or from the backup.
      expect(counter).toBeGreaterThanOrEqual(lastCompleted);
      lastCompleted = Math.max(lastCompleted, counter);
      // Temporary files of killed saves are removed by the next save: at most the last kill's remain.
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp')).length).toBeLessThanOrEqual(2);
    }
    // Each round completed one save at least (the kill waits for the first report), most of them more.
    expect(lastCompleted).toBeGreaterThan(KILLS);
    // The previous save is hard-linked to the backup before the new one is renamed over it, so the main
    // file is never missing and never partial: the backup is the fallback for a corrupted disk (tested
    // in terrarum.test.ts), and a kill should not need it.
    console.log(`crash test: ${KILLS} kills, the backup was used ${fromBackup} times`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);
