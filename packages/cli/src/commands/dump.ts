/** `savekit dump SAVE [-o OUT.json]`: the lossless JSON document. */
import type { CliContext } from '../context.js';
import { openSave, printWarnings, type SaveOptions, toEnvelope } from '../document.js';
import { writeFileSafely } from '../io.js';
import { showJson } from '../show.js';

/** Options of `dump`. */
export interface DumpOptions extends SaveOptions {
  readonly output?: string;
}

/** Writes a save's lossless JSON document; returns the exit code. Warnings go to standard error. */
export function dumpCommand(ctx: CliContext, file: string, options: DumpOptions): number {
  const { format, decoded } = openSave(ctx, file, options);
  printWarnings(ctx, file, decoded.warnings);
  const text = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') ctx.out(showJson(text.trimEnd()));
  else writeFileSafely(options.output, new TextEncoder().encode(text));
  return 0;
}
