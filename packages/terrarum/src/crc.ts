/**
 * TerranVirtualDisk's CRCs (terrarum.md §4.3). The library feeds 32-bit words to Java's
 * `CRC32.update(int)`, which uses only their low 8 bits: the entry "CRC-32" covers **every 4th byte**
 * of the serialised content (offsets 0, 4, 8, …). Terrarum's own TVDA disks fixed that (all bytes),
 * but every version kept the disk CRC's quirk: CRC-32 over the low byte of each entry CRC, entries
 * sorted by CRC as signed 32-bit integers.
 *
 * @module
 */
import CRC32 from 'crc-32';

/**
 * The TerranVirtualDisk entry CRC: CRC-32 over bytes 0, 4, 8, … of `content` — or of `before`
 * followed by `content`, when the serialised content comes in two parts (nothing is concatenated).
 */
export function everyFourthByteCrc(content: Uint8Array, before: Uint8Array = new Uint8Array(0)): number {
  const total = before.length + content.length;
  const picked = new Uint8Array(Math.ceil(total / 4));
  let j = 0;
  for (let i = 0; i < before.length; i += 4) picked[j++] = before[i];
  for (let i = (4 - (before.length % 4)) % 4; i < content.length; i += 4) picked[j++] = content[i];
  return CRC32.buf(picked) >>> 0;
}

/** CRC-32 over every byte (TVDA's entry CRC), continuing from `seed` (a previous part's CRC). */
export function fullCrc(content: Uint8Array, seed?: number): number {
  return (seed === undefined ? CRC32.buf(content) : CRC32.buf(content, seed)) >>> 0;
}

/** The disk CRC: CRC-32 over the low byte of each entry CRC, sorted as signed int32. */
export function diskCrc(entryCrcs: ReadonlyArray<number>): number {
  const sorted = entryCrcs.map((c) => c | 0).sort((a, b) => a - b);
  return CRC32.buf(Uint8Array.from(sorted, (c) => c & 0xff)) >>> 0;
}
