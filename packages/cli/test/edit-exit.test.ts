// `savekit edit` leaves nothing behind (issue 17, item 11): its temporary folder is removed on every
// way out — success, failure, a failed editor, SIGINT/SIGTERM/SIGHUP — and the folders of runs killed
// with SIGKILL (no handler runs) are removed by the next run. Kills at random moments never leave an
// unreadable save. Every run gets a private TMPDIR, so only its own folders are counted.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { testBudget } from '@savekit/testkit';
import { format as skirmish } from '../../../examples/src/skirmish';
import { bin, HANG_GUARD_MS, plugin, type Run, sample, savekit, scratchFolder } from './binary';

const scratch = scratchFolder('savekit-edit-exit-test-');

/** A fresh folder with a copy of the sample save and a private TMPDIR. */
function setup(name: string): { dir: string; save: string; temp: string } {
  const dir = join(scratch.path, name);
  const temp = join(dir, 'tmp');
  mkdirSync(temp, { recursive: true });
  const save = join(dir, 'save.sks');
  copyFileSync(sample, save);
  return { dir, save, temp };
}

/** A shell editor: waits DELAY seconds, sets the turn to TURN, touches MARK, then runs THEN (if set). */
function editorScript(dir: string): string {
  const path = join(dir, 'editor.sh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      '[ -n "$DELAY" ] && sleep "$DELAY"',
      'turn="$TURN"; [ -n "$turn" ] || turn=43',
      'sed -i "s/\\"body\\": [0-9][0-9]*\\$/\\"body\\": $turn/" "$1"',
      '[ -n "$MARK" ] && touch "$MARK"',
      '[ -n "$THEN" ] && exec sh -c "$THEN"',
      'exit 0',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return path;
}

const editFolders = (temp: string) => readdirSync(temp).filter((name) => name.startsWith('savekit-edit-'));

/** The turn number of a save, decoding it: a save that does not decode fails the test. */
function turnOf(save: string): number {
  const decoded = skirmish.decode(new Uint8Array(readFileSync(save)));
  if (E.isLeft(decoded)) throw new Error(`${save} does not decode: ${decoded.left.toString()}`);
  const json = skirmish.json.encode(decoded.right.value) as { chunks: Array<{ id: string; body: unknown }> };
  return json.chunks.find((chunk) => chunk.id === 'Turn')?.body as number;
}

const run = (args: string[], env: Record<string, string>): Run => savekit(args, env);

/** Starts `savekit edit` in its own process group (so a kill can take the editor with it). */
function start(
  save: string,
  env: Record<string, string>,
): { child: ChildProcess; exited: Promise<[number | null, string | null]>; stderr: () => string } {
  const child = spawn(process.execPath, [bin, '--plugin', plugin, 'edit', save], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<[number | null, string | null]>((resolve) =>
    child.on('exit', (code, signal) => resolve([code, signal])),
  );
  return { child, exited, stderr: () => stderr };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `path` exists, or the process has exited; true when it exists. */
async function waitFor(path: string, exited: Promise<unknown>): Promise<boolean> {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  for (let waited = 0; waited < HANG_GUARD_MS; waited += 5) {
    if (existsSync(path)) return true;
    if (done) return existsSync(path);
    await sleep(5);
  }
  return false;
}

describe('the temporary folder is removed on every way out', () => {
  test('success, no changes, a failed editor, an empty document, a document given up on', () => {
    const { dir, save, temp } = setup('ways-out');
    const editor = editorScript(dir);
    const ok = run(['edit', save], { EDITOR: editor, TMPDIR: temp });
    expect(ok.code).toBe(0);
    expect(turnOf(save)).toBe(43);
    expect(run(['edit', save], { EDITOR: 'true', TMPDIR: temp }).stderr).toBe('no changes\n');
    expect(run(['edit', save], { EDITOR: 'false', TMPDIR: temp }).code).toBe(1);
    expect(run(['edit', save], { EDITOR: 'truncate -s 0', TMPDIR: temp }).code).toBe(1);
    expect(editFolders(temp)).toEqual([]);
    // A document that does not build, saved unchanged: given up, the edits kept where it says.
    const garble = join(dir, 'garble.sh');
    writeFileSync(garble, '#!/bin/sh\ngrep -q "^#" "$1" || echo "{" >> "$1"\n', { mode: 0o755 });
    const gaveUp = run(['edit', save], { EDITOR: garble, TMPDIR: temp });
    expect(gaveUp.code).toBe(1);
    expect(gaveUp.stderr).toMatch(/your edits are in .*savekit-edit-\d+-\w{6}\/save\.json$/m);
    expect(editFolders(temp)).toHaveLength(1);
    // Kept on purpose: a later run leaves it (for a week).
    run(['edit', save], { EDITOR: 'true', TMPDIR: temp });
    expect(editFolders(temp)).toHaveLength(1);
    expect(turnOf(save)).toBe(43);
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('%s while the editor runs: exit %i, the folder removed, the save unchanged', async (signal, code) => {
    const { dir, save, temp } = setup(`signal-${signal}`);
    const mark = join(dir, 'editing');
    const editing = start(save, {
      EDITOR: editorScript(dir),
      TMPDIR: temp,
      MARK: mark,
      THEN: 'exec sleep 60', // the editor stays open
    });
    expect(await waitFor(mark, editing.exited)).toBe(true);
    expect(editFolders(temp)).toHaveLength(1);
    editing.child.kill(signal);
    expect(await editing.exited).toEqual([code, null]);
    expect(editing.stderr()).toMatch(new RegExp(`save\\.sks: interrupted \\(${signal}\\); nothing was written\\n$`));
    expect(editFolders(temp)).toEqual([]);
    expect(readFileSync(save)).toEqual(readFileSync(sample));
  });

  test('the folders of killed runs go on the next run; those of running or kept edits stay', () => {
    const { dir, save, temp } = setup('stale');
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid as number; // exited: its pid is free
    const folders = {
      dead: `savekit-edit-${dead}-aB3dE9`,
      old: 'savekit-edit-Zz0011', // an older savekit (no pid), a day old
      running: `savekit-edit-${process.pid}-q1w2e3`,
      kept: `savekit-edit-${dead}-k3k3k3`,
      other: 'savekit-editor-notes', // not ours
    };
    for (const name of Object.values(folders)) {
      mkdirSync(join(temp, name));
      writeFileSync(join(temp, name, 'save.json'), '{}');
    }
    writeFileSync(join(temp, folders.kept, 'KEPT'), '');
    const dayAgo = (Date.now() - 25 * 60 * 60 * 1000) / 1000;
    spawnSync('touch', ['-d', `@${dayAgo}`, join(temp, folders.old)]);
    expect(run(['edit', save], { EDITOR: editorScript(dir), TMPDIR: temp }).code).toBe(0);
    expect(readdirSync(temp).sort()).toEqual([folders.kept, folders.running, folders.other].sort());
  });
});

test(
  'SIGKILL at random moments: every save readable, no folder left after the next run',
  async () => {
    const kills = testBudget({ quick: 20, heavy: 100 });
    const { dir, save, temp } = setup('kills');
    const editor = editorScript(dir);
    const mark = join(dir, 'edited');
    // A seeded generator: the same moments on every run.
    let seed = 17;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let turn = turnOf(save);
    const seen = { old: 0, new: 0 };
    for (let i = 0; i < kills; i++) {
      rmSync(mark, { force: true });
      const next = 1000 + i;
      const delay = (random() * 0.2).toFixed(3);
      const editing = start(save, { EDITOR: editor, TMPDIR: temp, MARK: mark, TURN: String(next), DELAY: delay });
      if (i % 2 === 0) {
        // Any moment: reading, decoding, in the editor, writing.
        await sleep(random() * 400);
      } else {
        // Just after the editor: rebuilding and writing the save.
        await waitFor(mark, editing.exited);
        await sleep(random() * 40);
      }
      try {
        process.kill(-(editing.child.pid as number), 'SIGKILL'); // savekit and its editor
      } catch {
        /* it had finished */
      }
      await editing.exited;
      const now = turnOf(save); // throws if the save does not decode
      expect([turn, next]).toContain(now);
      if (now === next) seen.new++;
      else seen.old++;
      turn = now;
    }
    // And one kill certain to leave a folder, whatever the machine's speed: the editor has edited and
    // waits, so savekit is inside its edit folder and has written nothing.
    rmSync(mark, { force: true });
    const waiting = start(save, { EDITOR: editor, TMPDIR: temp, MARK: mark, TURN: '999', THEN: 'sleep 30' });
    expect(await waitFor(mark, waiting.exited)).toBe(true);
    process.kill(-(waiting.child.pid as number), 'SIGKILL');
    await waiting.exited;
    expect(editFolders(temp).length).toBeGreaterThan(0); // the case the cleanup is for
    expect(turnOf(save)).toBe(turn);
    // One more normal run: it writes, and clears what the killed runs left.
    const last = run(['edit', save], { EDITOR: editor, TMPDIR: temp, TURN: '7' });
    expect(last.code).toBe(0);
    expect(turnOf(save)).toBe(7);
    expect(editFolders(temp)).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(seen.old + seen.new).toBe(kills);
  },
  testBudget({ quick: 120_000, heavy: 900_000 }),
); // about a second per kill: starting savekit, and the moment
