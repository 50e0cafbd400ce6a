/** `savekit dump SAVE [-o OUT.json]`: the lossless JSON document. */
import { writeFileAtomic } from '@savekit/core/node';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave, toEnvelope } from '../document.js';
import { readSave } from '../io.js';

/** Writes a save's lossless JSON document; returns the exit code. */
export function dumpCommand(ctx: CliContext, file: string, options: { format?: string; output?: string }): number {
  const input = readSave(file);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file);
  const text = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') ctx.out(text.trimEnd());
  else writeFileAtomic(options.output, new TextEncoder().encode(text));
  return 0;
}
