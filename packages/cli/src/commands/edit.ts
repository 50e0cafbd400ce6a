/** `savekit edit SAVE`: edit the JSON document in $EDITOR, rebuild, write atomically with a .bak. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave, encodeSave, fromEnvelope, parseJson, toEnvelope } from '../document.js';
import { SaveFailure } from '../errors.js';
import { readSave, writeSave } from '../io.js';

export function editCommand(ctx: CliContext, file: string, options: { format?: string }): number {
  const input = readSave(file);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file);
  const dir = mkdtempSync(join(tmpdir(), 'savekit-edit-'));
  const temp = join(dir, 'save.json');
  try {
    const before = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
    writeFileSync(temp, before);
    const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
    // The editor may come with arguments ("code --wait"), so it runs through the shell.
    const run = spawnSync(`${editor} "${temp}"`, { shell: true, stdio: 'inherit' });
    if (run.error !== undefined || run.status !== 0) {
      throw new SaveFailure(file, `the editor (${editor}) ${run.error ? `could not run: ${run.error.message}` : `exited with status ${run.status}`}; nothing was written`);
    }
    const after = readFileSync(temp, 'utf8');
    if (after === before) {
      ctx.err('no changes');
      return 0;
    }
    const { format: target, doc } = fromEnvelope(ctx.registry, parseJson(after, temp), temp);
    writeSave(file, encodeSave(target, doc, file), { backup: true });
    ctx.err(`wrote ${file} (the previous save is ${file}.bak)`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
