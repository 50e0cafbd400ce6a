/** `savekit build IN.json [-o SAVE]`: the save back from its JSON document. */
import { readFileSync } from 'node:fs';
import { isSaveTree, plural } from '@savekit/core';
import type { CliContext } from '../context.js';
import { encodeSave, fromEnvelope, parseJson } from '../document.js';
import { UsageError } from '../errors.js';
import { saveSize, writeSave } from '../io.js';

/**
 * Builds the save of a JSON document. Without `-o` (or with `-o -`) a one-file save goes to
 * standard output, unless that is a terminal: binary there helps no one.
 */
export function buildCommand(ctx: CliContext, file: string, options: { output?: string }): number {
  const output = options.output === '-' ? undefined : options.output;
  // Refused before any work, so the mistake costs nothing.
  if (output === undefined && ctx.stdoutIsTerminal)
    throw new UsageError(
      'build writes a binary save: give -o SAVE, or redirect standard output (savekit build IN.json > SAVE)',
    );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: no such file`);
  }
  const { format, doc } = fromEnvelope(ctx.registry, parseJson(text, file), file);
  const save = encodeSave(format, doc, file);
  if (output !== undefined) {
    writeSave(output, save);
    ctx.err(`wrote ${output} (${format.id})`);
    return 0;
  }
  if (isSaveTree(save)) throw new UsageError(`a ${format.id} save is a folder of files: give -o FOLDER`);
  ctx.write(save);
  ctx.err(`wrote ${plural(saveSize(save), 'byte')} to standard output (${format.id})`);
  return 0;
}
