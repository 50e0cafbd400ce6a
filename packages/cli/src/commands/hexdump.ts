/** `savekit hexdump SAVE [--range A:B]`: hex with the field path of each byte range beside it. */
import { documentPath, formatPath, isPathAnnotation, isSaveTree, type FieldSpan, type Path } from '@savekit/core';
import type { CliContext } from '../context.js';
import { checksumOptions, chooseFormat, printWarnings, type SaveOptions } from '../document.js';
import { SaveFailure, UsageError } from '../errors.js';
import { readSave } from '../io.js';
import { showName } from '../show.js';

function parseOffset(text: string, what: string): number {
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < 0)
    throw new UsageError(`--range: ${what} ${JSON.stringify(text)} is not an offset (decimal or 0x hex)`);
  return value;
}

/** Parses `A:B` (either may be empty; decimal or 0x hex). */
export function parseRange(text: string | undefined, size: number): [number, number] {
  if (text === undefined) return [0, size];
  const match = /^([^:]*):([^:]*)$/.exec(text);
  if (!match) throw new UsageError(`--range must be START:END, got ${JSON.stringify(text)}`);
  // Both groups always take part in a match.
  const [from, to] = [match[1]!, match[2]!];
  const start = from === '' ? 0 : parseOffset(from, 'start');
  const end = to === '' ? size : Math.min(size, parseOffset(to, 'end'));
  if (start > end) throw new UsageError(`--range: start ${start} is after end ${end}`);
  return [start, end];
}

/** Spans that contain no other span: the fields a reader cares about in a hex view. */
function leaves(spans: ReadonlyArray<FieldSpan>): FieldSpan[] {
  const sorted = spans
    .filter((s) => s.layer === 0 && s.end > s.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  return sorted.filter((s, i) => {
    const after = sorted[i + 1];
    return !(after !== undefined && after.start < s.end && after.end <= s.end);
  });
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Prints a save's bytes in hex beside the fields they hold; returns the exit code. */
export function hexdumpCommand(ctx: CliContext, file: string, options: SaveOptions & { range?: string }): number {
  const input = readSave(file, ctx.maxSaveBytes);
  if (isSaveTree(input)) throw new UsageError(`${showName(file)} is a folder; hexdump shows one file`);
  const [start, end] = parseRange(options.range, input.length);
  let spans: FieldSpan[] = [];
  let failure: SaveFailure | undefined;
  try {
    const format = chooseFormat(ctx.registry, input, file, options.format);
    // The file's own bytes are shown: fields inside compressed layers need no span (millions, in a big
    // save). A format with a field map gives the spans; the decode then only checks the save.
    const traced = format.decode(input, {
      ...checksumOptions(options),
      trace: format.fieldMap === undefined,
      traceLayers: false,
    });
    if (traced._tag === 'Left') failure = new SaveFailure(file, traced.left);
    else {
      printWarnings(ctx, file, traced.right.warnings);
      spans = leaves(format.fieldMap?.(input, { layers: false }) ?? traced.right.spans ?? []);
    }
  } catch (error) {
    if (!(error instanceof SaveFailure)) throw error;
    failure = error;
  }
  const c = ctx.colors;
  let next = 0;
  for (let line = start - (start % 16); line < end; line += 16) {
    const cells: string[] = [];
    let text = '';
    for (let i = line; i < line + 16; i++) {
      if (i < start || i >= end) {
        cells.push('  ');
        text += ' ';
      } else {
        const byte = input[i]!; // start <= i < end <= input.length
        cells.push(hex2(byte));
        text += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
      }
    }
    while (next < spans.length && spans[next]!.end <= line) next++;
    const here: string[] = [];
    for (let k = next; k < spans.length && spans[k]!.start < line + 16; k++) {
      const span = spans[k]!; // k < spans.length
      if (span.start >= line || span.start < start) here.push(`${showName(spanLabel(span.path))}@${span.start}`);
    }
    const fields = here.length > 3 ? `${here.slice(0, 3).join(' ')} +${here.length - 3}` : here.join(' ');
    ctx.out(
      `${c.dim(line.toString(16).padStart(8, '0'))}  ${cells.slice(0, 8).join(' ')}  ${cells.slice(8).join(' ')}  |${text}|  ${fields === '' ? '' : c.cyan(fields)}`.trimEnd(),
    );
  }
  if (failure !== undefined) throw failure;
  return 0;
}

/**
 * A span's label: its document path (what `dump` and `diff` print), plus the framing field it is when
 * the document does not hold it (`chunks[0]<length>`). Layers and pointer offsets are left out: the
 * label is followed by the offset anyway.
 */
export function spanLabel(path: Path): string {
  const last = path[path.length - 1];
  const framing = last !== undefined && isPathAnnotation(last) && !last.annotation.startsWith('@');
  const document = documentPath(path);
  if (!framing) return formatPath(document);
  return `${document.length === 0 ? '' : formatPath(document)}<${last.annotation}>`;
}
