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

/** Bytes gathered per CRC update: the every-4th-byte CRC never copies more than this at once. */
const BLOCK = 64 * 1024;

/**
 * The TerranVirtualDisk entry CRC: CRC-32 over bytes 0, 4, 8, … of `content` — or of `before`
 * followed by `content`, when the serialised content comes in two parts (nothing is concatenated).
 */
export function everyFourthByteCrc(content: Uint8Array, before: Uint8Array = new Uint8Array(0)): number {
  const block = new Uint8Array(Math.min(BLOCK, Math.ceil((before.length + content.length) / 4)));
  let used = 0;
  let crc = 0;
  // Plain loops over locals (a closure over them would keep them in a heap context).
  for (let i = 0; i < before.length; i += 4) {
    if (used === block.length) {
      crc = crc32.continue!(crc, block);
      used = 0;
    }
    block[used++] = before[i]!;
  }
  for (let i = (4 - (before.length % 4)) % 4; i < content.length; i += 4) {
    if (used === block.length) {
      crc = crc32.continue!(crc, block);
      used = 0;
    }
    block[used++] = content[i]!;
  }
  return used > 0 ? crc32.continue!(crc, block.subarray(0, used)) : crc;
}

/** CRC-32 over every byte (TVDA's entry CRC), continuing from `seed` (a previous part's CRC). */
export function fullCrc(content: Uint8Array, seed?: number): number {
  return seed === undefined ? crc32.compute(content) : crc32.continue!(seed, content);
}

/** The disk CRC: CRC-32 over the low byte of each entry CRC, sorted as signed int32. */
export function diskCrc(entryCrcs: ReadonlyArray<number>): number {
  const sorted = entryCrcs.map((c) => c | 0).sort((a, b) => a - b);
  return crc32.compute(Uint8Array.from(sorted, (c) => c & 0xff));
}
