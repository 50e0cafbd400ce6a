// Terrarum saves written as folders (issue 17 item 9): saveFolder writes the whole folder beside the
// old one and swaps it in by renames, the old folder becoming the backup; loadSaveFolder falls back
// to the backup when the main folder is missing, unreadable or "Save file corrupted".
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { isSavekitTemporary } from '@savekit/core/node';
import { testBudget } from '@savekit/testkit';
import { backupPath, loadSaveFolder, saveFolder, type LoadedSave } from '../src/node/index';
import { ourSaveTree } from './save-fixture';
import { freshFolderEachTest } from './temp-dir';

const folder = freshFolderEachTest('savekit-terrarum-folder-');

/** The counter `ourSave(counter)` put in the world meta's play time. */
function counterOf(loaded: LoadedSave): number {
  if (loaded.document.kind !== 'save') throw new Error(`expected a save, got ${loaded.document.kind}`);
  return loaded.document.save.meta.playTime - 3600;
}

function load(path: string): LoadedSave {
  const loaded = loadSaveFolder(path);
  if (E.isLeft(loaded)) throw loaded.left;
  return loaded.right;
}

test('the backup of a folder path', () => {
  expect(backupPath('saves/save1.tevd/')).toBe('saves/save1.backup.tevd');
  expect(backupPath('saves/save1')).toBe('saves/save1.backup');
  expect(backupPath('save1.tevd')).toBe('save1.backup.tevd');
});

test('saveFolder keeps the previous save as the backup folder; loadSaveFolder reads the main one', () => {
  const path = join(folder(), 'save1.tevd');
  saveFolder(path, ourSaveTree(1));
  saveFolder(path, ourSaveTree(2));
  saveFolder(path, ourSaveTree(3));
  const loaded = load(path);
  expect([loaded.from, counterOf(loaded)]).toEqual(['main', 3]);
  rmSync(path, { recursive: true });
  const backup = load(path);
  expect([backup.from, counterOf(backup)]).toEqual(['backup', 2]);
  expect(readdirSync(folder()).sort()).toEqual(['save1.backup.tevd']);
});

test('a write killed between its renames (main folder missing): the backup loads, the next save restores the folder', () => {
  const path = join(folder(), 'save1.tevd');
  saveFolder(path, ourSaveTree(1));
  saveFolder(path, ourSaveTree(2));
  rmSync(backupPath(path), { recursive: true });
  renameSync(path, backupPath(path));
  const loaded = load(path);
  expect([loaded.from, counterOf(loaded), loaded.mainProblem]).toEqual(['backup', 2, `${path} does not exist`]);
  saveFolder(path, ourSaveTree(3));
  expect(counterOf(load(path))).toBe(3);
  expect(counterOf(load(backupPath(path)))).toBe(2);
});

test('a main folder failing "Save file corrupted", or holding a link to /dev/zero, falls back to the backup; both bad is the main error', () => {
  const path = join(folder(), 'save1.tevd');
  saveFolder(path, ourSaveTree(1));
  saveFolder(path, ourSaveTree(2));
  writeFileSync(join(path, 'worldinfo1'), 'not the layer the world meta has the checksum of');
  const corrupted = load(path);
  expect([corrupted.from, counterOf(corrupted)]).toEqual(['backup', 1]);
  expect(corrupted.mainProblem).toMatch(/Save file corrupted/);
  rmSync(path, { recursive: true });
  saveFolder(path, ourSaveTree(3)); // the missing folder is written, the backup kept
  symlinkSync('/dev/zero', join(path, 'zero'));
  const special = load(path);
  expect([special.from, counterOf(special)]).toEqual(['backup', 1]);
  expect(special.mainProblem).toMatch(/symlink out of the save folder/);
  rmSync(backupPath(path), { recursive: true });
  const neither = loadSaveFolder(path);
  expect(E.isLeft(neither) && neither.left.message).toMatch(/symlink out of the save folder/);
});

test('temporary files in a save folder are not save content; an outside symlink is never written through (item 8)', () => {
  const path = join(folder(), 'save1.tevd');
  const outside = join(folder(), 'outside');
  mkdirSync(outside);
  saveFolder(path, ourSaveTree(1));
  // What the old file-at-a-time writer left behind when killed.
  writeFileSync(join(path, '.worldinfo1.999999.0123456789ab.tmp'), 'half a layer');
  const loaded = load(path);
  expect(loaded.from).toBe('main');
  if (loaded.document.kind !== 'save') throw new Error('expected a save');
  const files: unknown = loaded.document.save.files;
  const names = files instanceof Map ? [...files.keys()] : Object.keys(files as object);
  expect(names.length).toBeGreaterThan(0);
  expect(names.some((name) => String(name).endsWith('.tmp'))).toBe(false);
  rmSync(join(path, 'tapestries'), { recursive: true });
  symlinkSync(outside, join(path, 'tapestries'));
  saveFolder(path, ourSaveTree(2));
  expect(readdirSync(outside)).toEqual([]);
  expect(lstatSync(join(path, 'tapestries')).isDirectory()).toBe(true);
  expect(counterOf(load(path))).toBe(2);
});

// The folder mechanism takes 100 kills in core (node-tree.test.ts); here the backup fallback on top of it.
const KILLS = testBudget({ quick: 10, heavy: 50 });
const entry = join(__dirname, '..', 'dist', 'node', 'index.js');
const root = join(__dirname, '..', '..', '..');
const child = `
import { encodeSave, parseCsv } from '@savekit/terrarum';
import { saveFolder } from '@savekit/terrarum/node';
const path = process.argv[1];
for (let n = Number(process.argv[2]); ; n++) {
  const files = {};
  for (let i = 0; i < 12; i++) files['computers/disk' + i] = new Uint8Array(100000 + i * 1000).fill((n + i) & 0xff);
  const save = {
    meta: { magic: 'TESV', name: 'crash ' + n, terrainSeed: 1n, randomiserSeed: 2n, crc1: 0, crc2: 0, crc3: 0, crc4: 0, hash4321: new Uint8Array(32), refid: 9545698, timeT: BigInt(n), created: 1, lastPlayed: n, playTime: 3600 + n },
    worldinfo1: new Uint8Array(1000000).fill(n & 0xff), worldinfo2: parseCsv('"id"\\n"' + n + '"\\n'), worldinfo3: { rows: [] }, worldinfo4: { rows: [] }, worldinfo5: 'basegame\\n', actors: {}, files,
  };
  const tree = encodeSave(save);
  if (tree._tag === 'Left') throw tree.left;
  saveFolder(path, tree.right);
  process.stdout.write('done ' + n + '\\n');
}`;

test(`a folder save killed ${KILLS} times at random moments always loads, never older than the last completed save (built output)`, async () => {
  expect(existsSync(entry)).toBe(true); // `npm test` builds first
  const path = join(folder(), 'save1.tevd');
  let lastCompleted = 0;
  let fromBackup = 0;
  for (let round = 0; round < KILLS; round++) {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', child, path, String(lastCompleted + 1)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    const started = await Promise.race([
      new Promise<boolean>((resolve) => proc.stdout.once('data', () => resolve(true))),
      exited.then(() => false),
    ]);
    if (!started) throw new Error(`the child saved nothing: ${err}`);
    // Its first save removed the temporaries of the killed writer before it.
    expect(readdirSync(folder()).filter((name) => isSavekitTemporary(name) && !name.includes(`-${proc.pid}-`))).toEqual(
      [],
    );
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
    proc.kill('SIGKILL');
    await exited;
    for (const m of out.matchAll(/done (\d+)/g)) lastCompleted = Math.max(lastCompleted, Number(m[1]));
    const loaded = loadSaveFolder(path);
    if (E.isLeft(loaded))
      throw new Error(`round ${round}: neither the folder nor its backup loads: ${loaded.left.message}`);
    if (loaded.right.from === 'backup') fromBackup++;
    // The last completed save, or the one being written when the kill came (completed, unreported).
    expect([lastCompleted, lastCompleted + 1]).toContain(counterOf(loaded.right));
  }
  console.log(`terrarum folder crash test: ${KILLS} kills, the backup was used ${fromBackup} times`);
}, 600_000);
