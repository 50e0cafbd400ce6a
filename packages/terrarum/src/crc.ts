/**
 * TerranVirtualDisk's CRCs (terrarum.md §4.3). The library feeds 32-bit words to Java's
 * `CRC32.update(int)`, which uses only their low 8 bits: the entry "CRC-32" covers **every 4th byte**
 * of the serialised content (offsets 0, 4, 8, …). Terrarum's own TVDA disks fixed that (all bytes),
 * but every version kept the disk CRC's quirk: CRC-32 over the low byte of each entry CRC, entries
 * sorted by CRC as signed 32-bit integers.
 *
 * @module
 */
import { crc32 } from '@savekit/core';

/** The TerranVirtualDisk entry CRC: CRC-32 over bytes 0, 4, 8, … of `content`. */
export function everyFourthByteCrc(content: Uint8Array): number {
  const picked = new Uint8Array(Math.ceil(content.length / 4));
  for (let i = 0, j = 0; i < content.length; i += 4, j++) picked[j] = content[i];
  return crc32.compute(picked);
}

/** CRC-32 over every byte (TVDA's entry CRC). */
export function fullCrc(content: Uint8Array): number {
  return crc32.compute(content);
}

/** The disk CRC: CRC-32 over the low byte of each entry CRC, sorted as signed int32. */
export function diskCrc(entryCrcs: ReadonlyArray<number>): number {
  const sorted = entryCrcs.map((c) => c | 0).sort((a, b) => a - b);
  return crc32.compute(Uint8Array.from(sorted, (c) => c & 0xff));
}
