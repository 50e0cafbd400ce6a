/**
 * The savekit plugin: a ZSAV file as its object table (no Lua VM needed to read or write it).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, encode, isSaveTree, type SaveFormat } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import { zippyFile, type ZippyFile } from './container.js';

function summary(file: ZippyFile): string[] {
  const lines = [
    `ZSAV 1.${file.minor} (${file.byteOrder === 'be' ? 'big-endian' : 'byte-swapped'}), ${plural(file.objects.length, 'object')}, ${plural(file.roots.length, 'root')}, ${plural(file.externals.length, 'external')}${file.crc ? ', CRC-32' : ''}`,
  ];
  lines.push('  #  tag   size  references');
  const show = (r: number) =>
    r === 0 ? 'null' : r < 0 ? `external ${JSON.stringify(file.externals[-r - 1])}` : `#${r}`;
  file.objects.slice(0, 200).forEach((o, i) => {
    lines.push(
      `${String(i + 1).padStart(3)}  ${o.tag.replace(/\0/g, '\\0').padEnd(5)} ${String(o.size).padStart(5)}  ${o.references.map(show).join(', ') || '—'}`,
    );
  });
  if (file.objects.length > 200) lines.push(`  … ${file.objects.length - 200} more`);
  return lines;
}

/** The Zippy savefile format. */
export const format: SaveFormat<ZippyFile> = {
  id: 'zippy',
  title: 'Zippy savefile (ZSAV v1)',
  extensions: ['.zsav'],
  input: 'file',
  sniff(input) {
    if (isSaveTree(input) || input.length < 32) return 0;
    const magic = String.fromCharCode(input[0]!, input[1]!, input[2]!, input[3]!);
    return magic === 'ZSAV' || magic === 'VASZ' ? 0.95 : 0;
  },
  decode: (input, options) =>
    isSaveTree(input)
      ? E.left(new DecodeError([], 0, 'a Zippy save is one file, not a folder'))
      : decode(zippyFile, input, options),
  encode: (doc, options) => encode(zippyFile, doc, options),
  json: zippyFile.json,
  fieldMap(input) {
    const result = decode(zippyFile, input, { trace: true, checksums: 'warn' });
    return E.isRight(result) ? (result.right.spans ?? []) : [];
  },
  summary,
};
