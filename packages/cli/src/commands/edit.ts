/**
 * `savekit edit SAVE`: edit the JSON document in $EDITOR, rebuild, write atomically with a .bak.
 * A document that does not build goes back to the editor with the problem at the top, as
 * `git commit` and `kubectl edit` do, so no edit is thrown away.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnySaveFormat } from '@savekit/core';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave, encodeSave, fromEnvelope, parseJson, toEnvelope } from '../document.js';
import { SaveFailure, UsageError } from '../errors.js';
import { readSave, writeSave } from '../io.js';

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
    `Editing ${file} (${format.id}). Lines starting with # at the top are ignored.`,
    'Fix it and save to try again; save it unchanged, or empty the file, to cancel.',
  ];
  return `${lines.map((line) => `# ${line}`.trimEnd()).join('\n')}\n`;
}

function runEditor(file: string, temp: string): void {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  // The editor may come with arguments ("code --wait"), so it runs through the shell; it gets the
  // environment this program sees (an embedder's changes included).
  const run = spawnSync(`${editor} "${temp}"`, { shell: true, stdio: 'inherit', env: process.env });
  if (run.error !== undefined || run.status !== 0) {
    throw new SaveFailure(
      file,
      `the editor (${editor}) ${run.error ? `could not run: ${run.error.message}` : `exited with status ${run.status}`}; nothing was written`,
    );
  }
}

/** Edits a save's document in the user's editor until it builds or the user gives up; returns the exit code. */
export function editCommand(ctx: CliContext, file: string, options: { format?: string }): number {
  const input = readSave(file);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file);
  const dir = mkdtempSync(join(tmpdir(), 'savekit-edit-'));
  const temp = join(dir, 'save.json');
  let keep = false; // the user's edits outlive a failed edit
  try {
    const original = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
    let shown = original;
    let problem: string | undefined;
    for (;;) {
      writeFileSync(temp, shown);
      runEditor(file, temp);
      const text = readFileSync(temp, 'utf8');
      const body = stripComments(text);
      if (body.trim() === '') throw new SaveFailure(file, 'the document is empty; nothing was written');
      if (problem === undefined && body === original) {
        ctx.err('no changes');
        return 0;
      }
      if (problem !== undefined && text === shown) {
        // Saved as it was shown: the user gives up. Their edits stay where they can find them.
        keep = true;
        throw new SaveFailure(file, `not written (${problem.split('\n')[0]}); your edits are in ${temp}`);
      }
      try {
        const { format: target, doc } = fromEnvelope(ctx.registry, parseJson(body, temp), temp);
        const save = encodeSave(target, doc, file);
        writeSave(file, save, { backup: true });
        ctx.err(`wrote ${file} (the previous save is ${file}.bak)`);
        return 0;
      } catch (error) {
        if (!(error instanceof SaveFailure || error instanceof UsageError)) {
          keep = true; // say where the edits are, then fail as any internal error does
          ctx.err(`savekit: your edits are in ${temp}`);
          throw error;
        }
        problem =
          error instanceof UsageError
            ? error.message
            : typeof error.detail === 'string'
              ? error.detail
              : error.detail.toString();
        shown = `${header(file, format, problem)}${body}`;
      }
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
