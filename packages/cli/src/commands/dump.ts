/** `savekit dump SAVE [-o OUT.json]`: the lossless JSON document. */
import { stringifyChunked } from '@discoveryjs/json-ext';
import type { CliContext } from '../context.js';
import { openSave, printWarnings, type SaveOptions, toEnvelope } from '../document.js';
import { writeFileSafely } from '../io.js';
import { showJson } from '../show.js';

/** Options of `dump`. */
export interface DumpOptions extends SaveOptions {
  readonly output?: string;
}

/**
 * Writes a save's lossless JSON document; returns the exit code. Warnings go to standard error.
 *
 * The text is `JSON.stringify(envelope, null, 2)`'s, made and written a part at a time: a large
 * save's is longer than the longest string JavaScript makes (about 512 MiB; a 3,600 × 3,600
 * Terrarum world's is more), and is never held whole.
 */
export function dumpCommand(ctx: CliContext, file: string, options: DumpOptions): number {
  const { format, decoded } = openSave(ctx, file, options);
  printWarnings(ctx, file, decoded.warnings);
  const parts = stringifyChunked(toEnvelope(format, decoded.value), null, 2);
  if (options.output === undefined || options.output === '-') printLines(ctx, parts);
  else writeFileSafely(options.output, encoded(parts, '\n'));
  return 0;
}

/** The text of `parts` (then `end`) as UTF-8, a part at a time. */
function* encoded(parts: Iterable<string>, end: string): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const part of parts) yield encoder.encode(part);
  yield encoder.encode(end);
}

/** Prints the text of `parts` on standard output, whole lines at a time (each made safe for a terminal). */
function printLines(ctx: CliContext, parts: Iterable<string>): void {
  let pending = '';
  for (const part of parts) {
    const text = pending + part;
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      pending = text;
      continue;
    }
    ctx.out(showJson(text.slice(0, cut)));
    pending = text.slice(cut + 1);
  }
  ctx.out(showJson(pending));
}
