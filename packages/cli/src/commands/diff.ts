/** `savekit diff A B`: field-level differences between two saves of one format. */
import { formatPath, type PathSegment } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import type { CliContext } from '../context.js';
import { chooseFormat, decodeSave } from '../document.js';
import { UsageError } from '../errors.js';
import { readSave } from '../io.js';
import { showJson, showName } from '../show.js';

/** One difference between two JSON documents. */
export interface Difference {
  readonly path: string;
  readonly kind: 'changed' | 'added' | 'removed';
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Field-level differences of two JSON values, walked iteratively. */
export function diffJson(a: unknown, b: unknown): Difference[] {
  const out: Difference[] = [];
  const work: Array<[PathSegment[], unknown, unknown]> = [[[], a, b]];
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  while (work.length > 0) {
    const [path, x, y] = work.pop()!;
    if (Array.isArray(x) && Array.isArray(y)) {
      const n = Math.max(x.length, y.length);
      for (let i = n - 1; i >= 0; i--) {
        if (i >= x.length) out.push({ path: formatPath([...path, i]), kind: 'added', after: y[i] });
        else if (i >= y.length) out.push({ path: formatPath([...path, i]), kind: 'removed', before: x[i] });
        else work.push([[...path, i], x[i], y[i]]);
      }
    } else if (isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!; // i is within keys
        if (!(key in y)) out.push({ path: formatPath([...path, key]), kind: 'removed', before: x[key] });
        else if (!(key in x)) out.push({ path: formatPath([...path, key]), kind: 'added', after: y[key] });
        else work.push([[...path, key], x[key], y[key]]);
      }
    } else if (JSON.stringify(x) !== JSON.stringify(y)) {
      out.push({ path: formatPath(path), kind: 'changed', before: x, after: y });
    }
  }
  return out;
}

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
  options: { format?: string; json?: boolean },
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
  const left = format.json.encode(decodeSave(format, a, first).value);
  const right = format.json.encode(decodeSave(format, b, second).value);
  const differences = diffJson(left, right);
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
