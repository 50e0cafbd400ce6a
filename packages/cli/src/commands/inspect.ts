/** `savekit inspect SAVE`: format, size, warnings and the document tree. */
import { formatWarning } from '@savekit/core';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave } from '../document.js';
import { readSave, saveSize } from '../io.js';
import { renderTree } from '../tree.js';

export function inspectCommand(ctx: CliContext, file: string, options: { format?: string; depth?: number; json?: boolean }): number {
  const input = readSave(file);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  const decoded = decodeSave(format, input, file);
  const json = format.json.encode(decoded.value);
  if (options.json) {
    const summary = format.summary?.(decoded.value);
    ctx.out(JSON.stringify({ file, format: format.id, size: saveSize(input), ...(summary !== undefined ? { summary } : {}), warnings: decoded.warnings.map((w) => ({ ...w, path: [...w.path] })), document: json }, null, 2));
    return 0;
  }
  const c = ctx.colors;
  ctx.out(`${c.bold(file)}: ${format.title} (${format.id}), ${saveSize(input)} bytes`);
  for (const line of format.summary?.(decoded.value) ?? []) ctx.out(line);
  for (const warning of decoded.warnings) ctx.out(c.yellow(formatWarning(warning)));
  for (const line of renderTree(json, options.depth ?? 4, c)) ctx.out(line);
  return 0;
}
