/** `savekit diff A B`: field-level differences between two saves of one format. */
import { diffDocuments } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import type { CliContext } from '../context.js';
import { checksumOptions, chooseFormat, decodeSave, printWarnings, type SaveOptions } from '../document.js';
import { UsageError } from '../errors.js';
import { readSave } from '../io.js';
import { showJson, showName } from '../show.js';

const show = (v: unknown) => {
  const text = showJson(JSON.stringify(v) ?? 'undefined');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/**
 * Prints the field-level differences of two saves. Exit 0 when there are none, 1 when there are,
 * 2 when the saves cannot be compared (two different formats), as diff(1) does.
 */
export function diffCommand(
  ctx: CliContext,
  first: string,
  second: string,
  options: SaveOptions & { json?: boolean },
): number {
  const a = readSave(first, ctx.maxSaveBytes);
  const b = readSave(second, ctx.maxSaveBytes);
  const format = chooseFormat(ctx.registry, a, first, options.format);
  // Each save is sniffed on its own: decoding B with A's format would only say "bad magic".
  const other = options.format === undefined ? chooseFormat(ctx.registry, b, second) : format;
  if (other !== format) {
    throw new UsageError(
      `${showName(first)} is ${format.title} (${format.id}), ${showName(second)} is ${other.title} (${other.id}): different formats`,
    );
  }
  const decodedA = decodeSave(format, a, first, checksumOptions(options));
  const decodedB = decodeSave(format, b, second, checksumOptions(options));
  printWarnings(ctx, first, decodedA.warnings);
  printWarnings(ctx, second, decodedB.warnings);
  const left = format.json.encode(decodedA.value);
  const right = format.json.encode(decodedB.value);
  const differences = diffDocuments(left, right);
  if (options.json) {
    ctx.out(showJson(JSON.stringify({ format: format.id, differences }, null, 2)));
  } else {
    const c = ctx.colors;
    for (const d of differences) {
      if (d.kind === 'changed') ctx.out(`${c.yellow('~')} ${showName(d.path)}: ${show(d.before)} → ${show(d.after)}`);
      else if (d.kind === 'added') ctx.out(`${c.green('+')} ${showName(d.path)}: ${show(d.after)}`);
      else ctx.out(`${c.red('-')} ${showName(d.path)}: ${show(d.before)}`);
    }
    ctx.out(differences.length === 0 ? 'no differences' : plural(differences.length, 'difference'));
  }
  return differences.length === 0 ? 0 : 1;
}
