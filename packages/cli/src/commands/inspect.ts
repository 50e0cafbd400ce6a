/** `savekit inspect SAVE`: format, size, warnings and the document tree. */
import { formatWarning } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import type { CliContext } from '../context.js';
import { openSave, type SaveOptions } from '../document.js';
import { saveSize } from '../io.js';
import { showJson, showName } from '../show.js';
import { FULL_LIMITS, renderTree, SUMMARY_LIMITS } from '../tree.js';

/** Options of `inspect`. */
export interface InspectOptions extends SaveOptions {
  /** Tree depth; by default 4, or all of it with `full`. */
  readonly depth?: number;
  /** Every element, field and byte instead of a summary. */
  readonly full?: boolean;
  readonly json?: boolean;
}

/** Prints what a save is and its document; returns the exit code. */
export function inspectCommand(ctx: CliContext, file: string, options: InspectOptions): number {
  const { input, format, decoded } = openSave(ctx, file, options);
  const json = format.json.encode(decoded.value);
  if (options.json) {
    const summary = format.summary?.(decoded.value);
    ctx.out(
      showJson(
        JSON.stringify(
          {
            file,
            format: format.id,
            size: saveSize(input),
            ...(summary !== undefined ? { summary } : {}),
            warnings: decoded.warnings.map((w) => ({ ...w, path: [...w.path] })),
            document: json,
          },
          null,
          2,
        ),
      ),
    );
    return 0;
  }
  const c = ctx.colors;
  ctx.out(`${c.bold(showName(file))}: ${format.title} (${format.id}), ${plural(saveSize(input), 'byte')}`);
  for (const line of format.summary?.(decoded.value) ?? []) ctx.out(showName(line));
  for (const warning of decoded.warnings) ctx.out(c.yellow(showName(`[${warning.code}] ${formatWarning(warning)}`)));
  const limits = options.full ? FULL_LIMITS : SUMMARY_LIMITS;
  for (const line of renderTree(
    json,
    { ...limits, ...(options.depth !== undefined ? { depth: options.depth } : {}) },
    c,
  ))
    ctx.out(line);
  return 0;
}
