/** `savekit dump SAVE [-o OUT.json]`: the lossless JSON document. */
import { formatWarning } from '@savekit/core';
import type { CliContext } from '../context.js';
import { type ChecksumOptions, checksumOptions, chooseFormat, decodeSave, toEnvelope } from '../document.js';
import { readSave, writeFileSafely } from '../io.js';
import { showJson, showName } from '../show.js';

/** Options of `dump`. */
export interface DumpOptions extends ChecksumOptions {
  readonly format?: string;
  readonly output?: string;
}

/** Writes a save's lossless JSON document; returns the exit code. Warnings go to standard error. */
export function dumpCommand(ctx: CliContext, file: string, options: DumpOptions): number {
  const input = readSave(file, ctx.maxSaveBytes);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file, checksumOptions(options));
  for (const warning of decoded.warnings)
    ctx.err(`savekit: ${showName(file)}: [${warning.code}] ${showName(formatWarning(warning))}`);
  const text = `${JSON.stringify(toEnvelope(format, decoded.value), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') ctx.out(showJson(text.trimEnd()));
  else writeFileSafely(options.output, new TextEncoder().encode(text));
  return 0;
}
