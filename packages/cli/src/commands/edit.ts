/**
 * `savekit edit SAVE`: edit the JSON document in $EDITOR, rebuild, write atomically with a .bak.
 * A document that does not build goes back to the editor with the problem at the top, as
 * `git commit` and `kubectl edit` do, so no edit is thrown away.
 *
 * The document is edited in a temporary folder `savekit-edit-<pid>-XXXXXX` that is removed on every
 * way out: success, failure, a failed editor, SIGINT/SIGTERM/SIGHUP (exit 130/143/129). A run killed
 * where no handler runs (SIGKILL, a crash) leaves its folder behind; the next `edit` removes the
 * folders of runs whose process no longer exists. Edits kept on purpose (a document given up on, a
 * save that could not be written) stay, named in the message, for a week.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnySaveFormat, JsonError, type SaveInput } from '@savekit/core';
import { isProcessRunning } from '@savekit/core/node';
import type { CliContext } from '../context.js';
import {
  checksumWarnings,
  encodeSave,
  fromEnvelope,
  openSave,
  parseJson,
  printWarnings,
  type SaveOptions,
  toEnvelope,
} from '../document.js';
import { describeError, SaveFailure, UsageError } from '../errors.js';
import { fileSystemFailure, readTextBounded, writeSave, type Written } from '../io.js';
import { showName } from '../show.js';

/**
 * The document's text for the editor: one string, which JavaScript makes no longer than about
 * 512 MiB. A save whose document is longer (a large world's tiles) is refused in words that say so.
 */
function editableText(file: string, envelope: unknown): string {
  try {
    return JSON.stringify(envelope, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError && /string length/i.test(error.message))) throw error;
    throw new SaveFailure(
      file,
      'its JSON document is longer than one text can be (about 512 MiB), so it cannot be edited; savekit dump -o FILE.json still writes it',
    );
  }
}

/**
 * The text without its leading comment lines (`#` …). JSON never starts with `#`, so only the
 * lines before the document are comments; a `#` inside the document is left alone.
 */
export function stripComments(text: string): string {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.trimStart().startsWith('#')) first++;
  return lines.slice(first).join('\n');
}

/**
 * `# ` lines on top of a document that did not build: what went wrong and what to do. (The first
 * round has none, so the editor gets plain JSON, as scripted editors expect.)
 */
function header(file: string, format: AnySaveFormat, problem: string): string {
  const lines = [
    'The document was not saved:',
    ...problem.split('\n').map((line) => `  ${line}`),
    '',
    `Editing ${showName(file)} (${format.id}). Lines starting with # at the top are ignored.`,
    'Fix it and save to try again; save it unchanged, or empty the file, to cancel.',
  ];
  return `${lines.map((line) => `# ${line}`.trimEnd()).join('\n')}\n`;
}

/** Temporary folders of `edit`: `savekit-edit-<pid>-XXXXXX` (`mkdtemp` adds the six characters). */
const TEMP_PREFIX = 'savekit-edit-';
const TEMP_NAME = /^savekit-edit-(\d+)-[A-Za-z0-9]{6}$/;
/** A folder of an older savekit (no pid in its name): removed once it is a day old. */
const OLD_TEMP_NAME = /^savekit-edit-[A-Za-z0-9]{6}$/;
/** A file in a temporary folder whose edits are kept on purpose (the message named them). */
const KEPT_MARKER = 'KEPT';
const DAY = 24 * 60 * 60 * 1000;
/** How long kept edits stay before a later `edit` removes them. */
const KEPT_FOR = 7 * DAY;

/**
 * Removes the temporary folders that `edit` runs killed without a chance to clean up (SIGKILL, a
 * crash, a power cut) left in `dir`: those whose process no longer runs, older ones without a pid
 * once a day old, and kept edits once a week old. Only real folders owned by this user are
 * touched, never a link, never the folder of a run still going. Returns the names removed.
 */
export function removeStaleEditFolders(dir: string = tmpdir(), now: number = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const match = TEMP_NAME.exec(name);
    if (match === null && !OLD_TEMP_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) continue;
      const age = now - stats.mtimeMs;
      let kept = false;
      try {
        kept = lstatSync(join(path, KEPT_MARKER)).isFile();
      } catch {
        /* not kept */
      }
      const pid = match === null ? undefined : Number(match[1]);
      const stale = kept
        ? age > KEPT_FOR
        : pid === undefined
          ? age > DAY
          : pid !== process.pid && !isProcessRunning(pid);
      if (!stale) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(name);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

/** The editor was ended by a signal, or savekit was (SIGINT/SIGTERM/SIGHUP): nothing was written. */
class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted (${signal}); nothing was written`);
  }
}

/** The exit code of a run ended by `signal`, as shells report it: 128 + its number. */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/** Runs the editor on `temp`; resolves when it exits with status 0. */
function runEditor(file: string, temp: string, running: { child?: ChildProcess | undefined }): Promise<void> {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  return new Promise((resolve, reject) => {
    // The editor may come with arguments ("code --wait"), so it runs through the shell, which
    // `exec`s it (POSIX): the child is the editor itself, so a signal passed on reaches it. It gets the
    // environment this program sees (an embedder's changes included).
    const exec = process.platform === 'win32' ? '' : 'exec ';
    const child = spawn(`${exec}${editor} "${temp}"`, { shell: true, stdio: 'inherit', env: process.env });
    running.child = child;
    child.on('error', (error) => {
      running.child = undefined;
      reject(new SaveFailure(file, `the editor (${editor}) could not run: ${error.message}; nothing was written`));
    });
    child.on('exit', (status, signal) => {
      running.child = undefined;
      if (signal === 'SIGINT' || signal === 'SIGTERM' || signal === 'SIGHUP') reject(new Interrupted(signal));
      else if (status === 0) resolve();
      else
        reject(
          new SaveFailure(
            file,
            `the editor (${editor}) ${signal !== null ? `was killed by ${signal}` : `exited with status ${status}`}; nothing was written`,
          ),
        );
    });
  });
}

/** What the last `wrote …` line says. */
function wroteLine(file: string, written: Written): string {
  const through = written.path !== file ? ` through the link ${showName(file)}` : '';
  const backup = written.backup !== undefined ? `; the previous save is ${showName(written.backup)}` : '';
  return `wrote ${showName(written.path)}${through}${backup}`;
}

/** Edits a save's document in the user's editor until it builds or the user gives up; returns the exit code. */
export async function editCommand(ctx: CliContext, file: string, options: SaveOptions): Promise<number> {
  const { format, decoded } = openSave(ctx, file, options);
  printWarnings(ctx, file, decoded.warnings);
  // A save read past its checksums is written back even unchanged: that is its repair.
  const repair = checksumWarnings(decoded.warnings).length > 0;
  removeStaleEditFolders();
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
  } catch (error) {
    throw fileSystemFailure(error, tmpdir(), 'write');
  }
  const temp = join(dir, 'save.json');
  let keep = false; // the user's edits outlive a failed edit
  const running: { child?: ChildProcess | undefined } = {};
  const cleanUp = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const keepEdits = () => {
    keep = true;
    try {
      writeFileSync(join(dir, KEPT_MARKER), '');
    } catch {
      /* the edits stay all the same, until a later edit a day on */
    }
  };
  // A signal while the editor runs. SIGINT on a terminal reached the editor too (the terminal sends
  // it to both): the editor decides, as with git; if it dies of it, so does the edit. Otherwise the
  // editor gets the signal, the folder is removed, and savekit exits as the signal says.
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT' && running.child !== undefined && process.stdin.isTTY === true) return;
    running.child?.kill(signal);
    cleanUp();
    ctx.err(`savekit: ${showName(file)}: interrupted (${signal}); nothing was written`);
    process.exit(signalExitCode(signal));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  try {
    const original = `${editableText(file, toEnvelope(format, decoded.value))}\n`;
    let shown = original;
    let problem: string | undefined;
    for (;;) {
      try {
        writeFileSync(temp, shown);
      } catch (error) {
        throw fileSystemFailure(error, temp, 'write');
      }
      await runEditor(file, temp, running);
      const text = readTextBounded(temp, ctx.maxSaveBytes);
      const body = stripComments(text);
      if (body.trim() === '') throw new SaveFailure(file, 'the document is empty; nothing was written');
      if (problem === undefined && body === original && !repair) {
        ctx.err('no changes');
        return 0;
      }
      if (problem !== undefined && text === shown) {
        // Saved as it was shown: the user gives up. Their edits stay where they can find them.
        keepEdits();
        throw new SaveFailure(file, `not written (${problem.split('\n')[0]}); your edits are in ${temp}`);
      }
      let save: SaveInput;
      try {
        const { format: target, doc } = fromEnvelope(ctx.registry, parseJson(body, temp), temp);
        save = encodeSave(target, doc, file);
      } catch (error) {
        if (!(error instanceof SaveFailure || error instanceof UsageError)) {
          keepEdits(); // say where the edits are, then fail as any internal error does
          ctx.err(`savekit: your edits are in ${showName(temp)}`);
          throw error;
        }
        problem =
          error instanceof UsageError
            ? error.message
            : typeof error.detail === 'string'
              ? error.detail
              : error.detail instanceof JsonError
                ? error.detail.toString()
                : describeError(error.detail);
        shown = `${header(file, format, problem)}${body}`;
        continue;
      }
      let written: Written;
      try {
        written = writeSave(file, save, { backup: true });
      } catch (error) {
        // The document is fine; the disk or the path is not. The old save is as it was.
        keepEdits();
        ctx.err(`savekit: your edits are in ${showName(temp)}`);
        throw error;
      }
      ctx.err(wroteLine(file, written));
      if (repair) ctx.err('checksums recomputed: the save is repaired');
      return 0;
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    ctx.err(`savekit: ${showName(file)}: ${error.message}`);
    return signalExitCode(error.signal);
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    cleanUp();
  }
}
