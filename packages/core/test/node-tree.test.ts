// Folder saves on disk (issue 17 items 8, 9, 12): writeTreeAtomic writes a whole tree to a sibling
// temporary folder and swaps it in by renames, so a kill at any moment leaves a complete save (old
// or new); readTree refuses special files, outside symlinks and oversized files before reading, and
// skips savekit temporaries.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testBudget } from '@savekit/testkit';
import { FileSystemError, isSavekitTemporary, loadTree, readTree, writeTreeAtomic } from '../src/node/tree';
import type { FileSystemErrorCode } from '../src/node/tree';
import type { SaveTree } from '../src/format';

// The generator the killed writer uses (CommonJS, shared with fixtures/tree-writer.mjs).
const { version } = require('./fixtures/tree-version.cjs') as { version: (n: number) => Map<string, Uint8Array> };

const entry = join(__dirname, '..', 'dist', 'node', 'index.js');
const writer = join(__dirname, 'fixtures', 'tree-writer.mjs');
const text = (s: string) => new TextEncoder().encode(s);
const treeOf = (entries: Record<string, string>): SaveTree =>
  new Map(Object.entries(entries).map(([name, content]) => [name, text(content)]));
const hashOf = (tree: SaveTree) => {
  const hash = createHash('sha256');
  for (const [name, bytes] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1)))
    hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  return hash.digest('hex');
};
const plain = (tree: SaveTree) =>
  Object.fromEntries([...tree].map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
/** The savekit temporaries in `dir` (where writers leave them: beside the save and its backup). */
const temporaries = (dir: string): string[] => readdirSync(dir).filter(isSavekitTemporary);
/** A process id that is certainly gone. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;
const refusal = (run: () => unknown): FileSystemErrorCode => {
  try {
    run();
  } catch (error) {
    if (error instanceof FileSystemError) return error.code;
    throw error;
  }
  throw new Error('not refused');
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'savekit-tree-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeTreeAtomic and readTree', () => {
  test('round trip: sorted names, nested folders, `__proto__`/`constructor` as ordinary names (item 12)', () => {
    const folder = join(dir, 'save1');
    // Built from pairs: in an object literal `__proto__` would set the prototype, not a name.
    const pairs: Array<[string, string]> = [
      ['world', 'w'],
      ['b/z', 'z'],
      ['b/a/deep', 'd'],
      ['__proto__', 'p'],
      ['constructor', 'c'],
      ['x/prototype', 'x'],
    ];
    const tree: SaveTree = new Map(pairs.map(([name, content]) => [name, text(content)]));
    writeTreeAtomic(folder, tree);
    const read = readTree(folder);
    expect(read).toBeInstanceOf(Map);
    expect([...read.keys()]).toEqual(['__proto__', 'b/a/deep', 'b/z', 'constructor', 'world', 'x/prototype']);
    expect(plain(read)).toEqual(plain(tree));
    expect(new TextDecoder().decode(read.get('__proto__'))).toBe('p');
    expect(temporaries(dir)).toEqual([]);
  });

  test('the backup rule: the old save becomes the backup, the previous backup is removed', () => {
    const folder = join(dir, 'save1');
    const backup = join(dir, 'save1.backup');
    writeTreeAtomic(folder, treeOf({ world: '1', 'old/only': 'gone later' }), { backup });
    expect(existsSync(backup)).toBe(false);
    writeTreeAtomic(folder, treeOf({ world: '2' }), { backup });
    writeTreeAtomic(folder, treeOf({ world: '3' }), { backup });
    expect(plain(readTree(folder))).toEqual({ world: '3' });
    expect(plain(readTree(backup))).toEqual({ world: '2' });
    expect(readdirSync(dir).sort()).toEqual(['save1', 'save1.backup']);
  });

  test('a symlink in the old folder is never followed (item 8): nothing is written outside, the result is a real folder', () => {
    const folder = join(dir, 'F');
    const outside = join(dir, 'outside');
    mkdirSync(folder);
    mkdirSync(outside);
    symlinkSync(outside, join(folder, 'computers'));
    writeTreeAtomic(folder, treeOf({ world: 'w', 'computers/evil.txt': 'evil' }), { backup: join(dir, 'F.bak') });
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(folder, 'computers')).isDirectory()).toBe(true);
    expect(plain(readTree(folder))).toEqual({ world: 'w', 'computers/evil.txt': 'evil' });
    // The old folder, link included, is the backup; reading it refuses the outside link.
    expect(lstatSync(join(dir, 'F.bak', 'computers')).isSymbolicLink()).toBe(true);
    expect(refusal(() => readTree(join(dir, 'F.bak')))).toBe('symlink-escape');
  });

  test('a save folder that is a symlink: written at its target, the link kept', () => {
    const real = join(dir, 'real');
    const link = join(dir, 'link');
    writeTreeAtomic(real, treeOf({ world: 'old' }));
    symlinkSync(real, link);
    writeTreeAtomic(link, treeOf({ world: 'new' }), { backup: join(dir, 'link.backup') });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(plain(readTree(real))).toEqual({ world: 'new' });
    expect(plain(readTree(link))).toEqual({ world: 'new' });
    expect(plain(readTree(join(dir, 'link.backup')))).toEqual({ world: 'old' });
  });

  test('names refused before anything is written; a file where the folder should be is refused', () => {
    const folder = join(dir, 'save1');
    writeTreeAtomic(folder, treeOf({ world: 'old' }));
    for (const bad of ['../escape', '/abs', 'a//b', 'a\\b', '.x.savekit-tmp-1-0123456789ab']) {
      expect(refusal(() => writeTreeAtomic(folder, treeOf({ world: 'new', [bad]: 'x' })))).toBe('bad-path');
    }
    expect(refusal(() => writeTreeAtomic(folder, treeOf({ world: 'new', a: 'file', 'a/b': 'in a folder' })))).toBe(
      'bad-path',
    );
    expect(plain(readTree(folder))).toEqual({ world: 'old' });
    expect(existsSync(join(dir, 'escape'))).toBe(false);
    writeFileSync(join(dir, 'file'), 'a file');
    expect(refusal(() => writeTreeAtomic(join(dir, 'file'), treeOf({ world: 'w' })))).toBe('not-a-folder');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(refusal(() => writeTreeAtomic(join(dir, 'dangling'), treeOf({ world: 'w' })))).toBe('not-a-folder');
    expect(temporaries(dir)).toEqual([]);
  });
});

describe('readTree refuses what a save folder should not hold', () => {
  test('special files, outside/dangling/folder symlinks, over-limit sizes; inside file links are read', () => {
    const folder = join(dir, 'save1');
    writeTreeAtomic(folder, treeOf({ world: 'w', 'sub/file': 'inside' }));
    symlinkSync(join(folder, 'sub', 'file'), join(folder, 'alias'));
    expect(plain(readTree(folder))).toEqual({ world: 'w', 'sub/file': 'inside', alias: 'inside' });

    const cases: Array<[string, () => void, FileSystemErrorCode]> = [
      ['fifo', () => spawnSync('mkfifo', [join(folder, 'fifo')]), 'special-file'],
      ['dev/zero', () => symlinkSync('/dev/zero', join(folder, 'zero')), 'symlink-escape'],
      ['outside', () => symlinkSync(join(dir, 'secret'), join(folder, 'secret')), 'symlink-escape'],
      ['dangling', () => symlinkSync(join(folder, 'nothing'), join(folder, 'dangling')), 'symlink-escape'],
      ['folder link', () => symlinkSync(join(folder, 'sub'), join(folder, 'loop')), 'symlink-folder'],
    ];
    writeFileSync(join(dir, 'secret'), 'secret');
    for (const [what, make, code] of cases) {
      const before = new Set(readdirSync(folder));
      make();
      const added = readdirSync(folder).filter((n) => !before.has(n));
      expect([what, added.length]).toEqual([what, 1]);
      expect([what, refusal(() => readTree(folder))]).toEqual([what, code]);
      rmSync(join(folder, added[0] as string));
    }
    expect(refusal(() => readTree(folder, { maxFileBytes: 5 }))).toBe('too-large');
    expect(refusal(() => readTree(folder, { maxTotalBytes: 10 }))).toBe('too-large');
    expect(readTree(folder, { maxFileBytes: 6, maxTotalBytes: 13 }).size).toBe(3);
    writeFileSync(join(dir, 'plain'), 'x');
    expect(refusal(() => readTree(join(dir, 'plain')))).toBe('not-a-folder');
    expect(() => readTree(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  test('savekit temporaries are never content (item 9), and the next write removes those of killed writers', () => {
    const folder = join(dir, 'save1');
    writeTreeAtomic(folder, treeOf({ world: 'w' }));
    const pid = deadPid();
    // Left inside by the old file-at-a-time writer, and beside by killed folder writers.
    writeFileSync(join(folder, `.world.${pid}.0123456789ab.tmp`), 'half');
    mkdirSync(join(dir, `.save1.savekit-tmp-${pid}-0123456789ab`));
    writeFileSync(join(dir, `.save1.savekit-tmp-${pid}-0123456789ab`, 'world'), 'half');
    writeFileSync(join(dir, `.save1.${pid}.abcdef012345.tmp`), 'half');
    mkdirSync(join(dir, `.save1.savekit-tmp-${process.pid}-0123456789ab`)); // a live writer's: kept
    expect(plain(readTree(folder))).toEqual({ world: 'w' });
    writeTreeAtomic(folder, treeOf({ world: 'w2' }));
    expect(temporaries(dir)).toEqual([`.save1.savekit-tmp-${process.pid}-0123456789ab`]);
  });
});

describe('recovery after a kill between the two renames', () => {
  test('with a backup: loadTree reads the backup and says so; the next write restores the folder', () => {
    const folder = join(dir, 'save1');
    const backup = join(dir, 'save1.backup');
    writeTreeAtomic(folder, treeOf({ world: '1' }), { backup });
    writeTreeAtomic(folder, treeOf({ world: '2' }), { backup });
    // The moment between `folder → backup` and `temp → folder`, as a kill leaves it.
    rmSync(backup, { recursive: true });
    renameSync(folder, backup);
    mkdirSync(join(dir, `.save1.savekit-tmp-${deadPid()}-0123456789ab`));
    const loaded = loadTree(folder, { backup });
    expect([loaded.from, loaded.path, plain(loaded.tree)]).toEqual(['backup', backup, { world: '2' }]);
    expect(() => loadTree(folder)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    writeTreeAtomic(folder, treeOf({ world: '3' }), { backup });
    expect(loadTree(folder, { backup }).from).toBe('folder');
    expect(plain(readTree(folder))).toEqual({ world: '3' });
    expect(plain(readTree(backup))).toEqual({ world: '2' });
    expect(temporaries(dir)).toEqual([]);
  });

  test('without a backup: the old save set aside is read (`interrupted`), and removed by the next write', () => {
    const folder = join(dir, 'save1');
    writeTreeAtomic(folder, treeOf({ world: '1' }));
    renameSync(folder, join(dir, `.save1.savekit-old-${deadPid()}-0123456789ab`));
    const loaded = loadTree(folder);
    expect([loaded.from, plain(loaded.tree)]).toEqual(['interrupted', { world: '1' }]);
    writeTreeAtomic(folder, treeOf({ world: '2' }));
    expect(loadTree(folder).from).toBe('folder');
    expect(readdirSync(dir)).toEqual(['save1']);
  });
});

describe('writers that fail or are killed (built output: `npm test` builds first)', () => {
  test('a disk that stops taking bytes half-way (ulimit -f, EFBIG): the old save intact, no temporaries', () => {
    expect(existsSync(entry)).toBe(true);
    const folder = join(dir, 'save1');
    const backup = join(dir, 'save1.backup');
    writeTreeAtomic(folder, version(1), { backup });
    writeTreeAtomic(folder, version(2), { backup });
    // Files up to 100 KiB allowed: the first two files of version 3 fit, the third is cut short.
    const run = spawnSync(
      'bash',
      ['-c', `ulimit -f 100; exec "$0" "$@"`, process.execPath, writer, entry, folder, backup, '3', 'once'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stdout).toMatch(/^error EFBIG/);
    expect(run.status).toBe(3);
    expect(hashOf(readTree(folder))).toBe(hashOf(version(2)));
    expect(hashOf(readTree(backup))).toBe(hashOf(version(1)));
    expect(temporaries(dir)).toEqual([]);
  });

  // 100 in the heavy profile (each kill is a writer process of its own, ~0.7 s in CI); the moment
  // between the two renames, which a random kill rarely meets, has its own test above.
  const KILLS = testBudget({ quick: 20, heavy: 100 });
  test(`killed ${KILLS} times at random moments: the save (or its backup) is always complete, old or new`, async () => {
    expect(existsSync(entry)).toBe(true);
    const folder = join(dir, 'save1');
    const backup = join(dir, 'save1.backup');
    let seed = 4242;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const hashes = new Map<number, string>();
    const hashOfVersion = (n: number) => {
      let hash = hashes.get(n);
      if (hash === undefined) {
        hash = hashOf(version(n));
        hashes.set(n, hash);
      }
      return hash;
    };
    let lastCompleted = 0;
    let fromBackup = 0;
    let killsLeavingTemps = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const proc = spawn(process.execPath, [writer, entry, folder, backup, String(lastCompleted + 1)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
      // After its first completed write (which cleaned the previous kill's temporaries), a random moment.
      await new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
      expect(temporaries(dir).filter((name) => !name.includes(`-${proc.pid}-`))).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, random() * 60));
      proc.kill('SIGKILL');
      await exited;
      const done = [...out.matchAll(/done (\d+)/g)].map((m) => Number(m[1]));
      lastCompleted = Math.max(lastCompleted, ...done);
      const loaded = loadTree(folder, { backup });
      if (loaded.from === 'backup') fromBackup++;
      // Complete: the world's checksums match every file, and it is the whole tree of one version,
      // the last completed one or the one being written — never older, never a mix.
      const world = new TextDecoder().decode(loaded.tree.get('world'));
      const n = Number(/^version (\d+)/.exec(world)?.[1]);
      const h = hashOf(loaded.tree);
      // (A write can complete unreported, killed before its `done`: hence lastCompleted + 1, also for
      // the backup, which holds the old save when the kill fell between the two renames.)
      expect([lastCompleted, lastCompleted + 1]).toContain(n);
      expect(h).toBe(hashOfVersion(n));
      if (temporaries(dir).length > 0) killsLeavingTemps++;
    }
    // One more write: every temporary of the killed writers is gone.
    writeTreeAtomic(folder, version(lastCompleted + 1), { backup });
    expect(temporaries(dir)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['save1', 'save1.backup']);
    console.log(
      `tree crash test: ${KILLS} kills, ${killsLeavingTemps} left temporaries, ${fromBackup} recovered from the backup`,
    );
  }, 600_000);
});
