/** `savekit build IN.json [-o SAVE]`: the save back from its JSON document. */
import { isSaveTree } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import type { CliContext } from '../context.js';
import { encodeSave, fromEnvelope, parseJsonBytes } from '../document.js';
import { UsageError } from '../errors.js';
import { readFileBounded, saveSize, writeSave } from '../io.js';
import { showName } from '../show.js';

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
  const json = parseJsonBytes(readFileBounded(file, ctx.maxSaveBytes), file);
  const { format, doc } = fromEnvelope(ctx.registry, json, file);
  const save = encodeSave(format, doc, file);
  if (output !== undefined) {
    const written = writeSave(output, save, { registry: ctx.registry, maxBytes: ctx.maxSaveBytes });
    ctx.err(`wrote ${showName(written.path)} (${format.id})`);
    return 0;
  }
  if (isSaveTree(save)) throw new UsageError(`a ${format.id} save is a folder of files: give -o FOLDER`);
  ctx.write(save);
  ctx.err(`wrote ${plural(saveSize(save), 'byte')} to standard output (${format.id})`);
  return 0;
}
