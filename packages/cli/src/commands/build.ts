/** `savekit build IN.json -o SAVE`: the save back from its JSON document. */
import { readFileSync } from 'node:fs';
import type { CliContext } from '../context.js';
import { encodeSave, fromEnvelope, parseJson } from '../document.js';
import { UsageError } from '../errors.js';
import { writeSave } from '../io.js';

export function buildCommand(ctx: CliContext, file: string, options: { output?: string }): number {
  if (options.output === undefined) throw new UsageError('build needs -o SAVE: where to write the save');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: no such file`);
  }
  const { format, doc } = fromEnvelope(ctx.registry, parseJson(text, file), file);
  writeSave(options.output, encodeSave(format, doc, file));
  ctx.err(`wrote ${options.output} (${format.id})`);
  return 0;
}
