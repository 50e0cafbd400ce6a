/**
 * The savekit plugin: a ZSAV file (major version 2 written, 1 read) as its object table (no Lua VM needed to read or write it).
 *
 * @module
 */
import { fileFormat, type FileFormat } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import { zippyFile, type ZippyFile } from './container.js';

function summary(file: ZippyFile): string[] {
  const lines = [
    `ZSAV ${file.major}.${file.minor} (${file.byteOrder === 'be' ? 'big-endian' : 'byte-swapped'}), ${plural(file.objects.length, 'object')}, ${plural(file.roots.length, 'root')}, ${plural(file.externals.length, 'external')}${file.crc ? ', CRC-32' : ''}`,
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

/** The Zippy savefile format: the {@link zippyFile} declaration as a plugin. */
export const format: FileFormat<ZippyFile> = fileFormat(zippyFile, {
  id: 'zippy',
  title: 'Zippy savefile (ZSAV)',
  extensions: ['.zsav'],
  magic: ['ZSAV', 'VASZ'], // big-endian, and every integer byte-swapped
  minLength: 32, // the header
  confidence: 0.95,
  summary,
});
