/** `savekit dump SAVE [-o OUT.json]`: the lossless JSON document. */
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave, toEnvelope } from '../document.js';
import { readSave, writeFileSafely } from '../io.js';
import { showJson } from '../show.js';

/** Writes a save's lossless JSON document; returns the exit code. */
export function dumpCommand(ctx: CliContext, file: string, options: { format?: string; output?: string }): number {
  const input = readSave(file, ctx.maxSaveBytes);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file);
  const text = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') ctx.out(showJson(text.trimEnd()));
  else writeFileSafely(options.output, new TextEncoder().encode(text));
  return 0;
}
