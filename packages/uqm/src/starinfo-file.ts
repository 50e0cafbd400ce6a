/**
 * A `starinfo.dat` on its own, whose record size nothing states: vanilla writes 12-byte world
 * records, MegaMod 108-byte ones (uqm.md §3), behind the same 502-offset table. Read from a save the
 * magic says which; a file extracted from one (`savekit inspect starinfo.dat`) must tell from its
 * structure. Every 108-byte block is also nine 12-byte records, so divisibility alone only ever rules
 * MegaMod out; what rules vanilla out, or prefers one reading, is:
 *
 * 1. **How many worlds a system can have.** The game's arrays hold at most 16 planets with up to 5
 *    moons each (MegaMod's `MAX_PLANETS` and `MAX_MOONS`; vanilla's 4 moons allow fewer): 96 records.
 *    A block read as more than that is not of that size. A MegaMod block of 11 or more worlds is
 *    over 96 records at 12 bytes, so most MegaMod files are decided here.
 * 2. **The systems the game generates** (`star-systems.ts`): when both readings fit, the one whose
 *    world counts match the generated systems' for more blocks wins.
 * 3. **Neither decides** (no block has a matching count — a modded universe): vanilla, with a
 *    `starinfo-record-size` warning. `starInfo(108)` reads such a file as MegaMod.
 *
 * A file without blocks is the same bytes either way and reads as `{ systems: [] }`. Written back, the
 * records say which size they are: MegaMod's carry `partial`.
 *
 * @module
 */
import { map, remaining, struct, switchOn, withHooks, type Codec } from '@savekit/core';
import { recordSizeOf, STAR_TABLE_SIZE, starInfo, starOffsets, type RecordSize, type StarInfo } from './star-info.js';
import { layoutWorldCount, systemLayout } from './star-systems.js';

/** The most worlds (planets and their moons) one system can have in either game: 16 × (1 + 5). */
export const MAX_SYSTEM_WORLDS = 96;

/** How {@link chooseRecordSize} decided. */
export type RecordSizeBasis =
  /** No block: the bytes read the same either way (vanilla is said). */
  | 'no-blocks'
  /** Only one size makes every block whole records of at most {@link MAX_SYSTEM_WORLDS} worlds. */
  | 'structure'
  /** Both fit; the generated systems' world counts match this size's for more blocks. */
  | 'generated-systems'
  /** Both fit and nothing tells them apart: vanilla, with a warning. */
  | 'ambiguous';

/** The record size a standalone `starinfo.dat` is read with, and why. */
export interface RecordSizeChoice {
  readonly recordSize: RecordSize;
  readonly basis: RecordSizeBasis;
  /** A sentence saying why (the warning's text when ambiguous). */
  readonly reason: string;
  /** Where the deciding block starts (the first block that rules the other size out), else the table's end. */
  readonly offset: number;
}

/** Whether every block is whole `size`-byte records, at most {@link MAX_SYSTEM_WORLDS} of them. */
function fits(blocks: ReadonlyArray<{ bytes: number }>, size: RecordSize): boolean {
  return blocks.every((b) => b.bytes > 0 && b.bytes % size === 0 && b.bytes / size <= MAX_SYSTEM_WORLDS);
}

/**
 * The record size of a `starinfo.dat` of `fileSize` bytes with this offset table (see the module
 * comment for the rules). Offsets the codec refuses (into the table, past the end) are left out here:
 * the read reports them.
 */
export function chooseRecordSize(offsets: ReadonlyArray<number>, fileSize: number): RecordSizeChoice {
  const starts = offsets
    .map((offset, star) => ({ star, offset }))
    .filter((b) => b.offset >= STAR_TABLE_SIZE && b.offset < fileSize)
    .sort((a, b) => a.offset - b.offset);
  const blocks = starts.map((b, i) => ({
    star: b.star,
    offset: b.offset,
    bytes: (starts[i + 1]?.offset ?? fileSize) - b.offset,
  }));
  if (blocks.length === 0)
    return { recordSize: 12, basis: 'no-blocks', reason: 'no system has a block', offset: STAR_TABLE_SIZE };
  const first = starts[0]?.offset ?? STAR_TABLE_SIZE;
  const vanilla = fits(blocks, 12);
  const megaMod = fits(blocks, 108);
  if (vanilla !== megaMod) {
    const recordSize: RecordSize = megaMod ? 108 : 12;
    const other: RecordSize = megaMod ? 12 : 108;
    const deciding = blocks.find((b) => !fits([b], other));
    return {
      recordSize,
      basis: 'structure',
      offset: deciding?.offset ?? first,
      reason: `every block is whole ${recordSize}-byte records; not every one is up to ${MAX_SYSTEM_WORLDS} whole ${other}-byte ones`,
    };
  }
  if (!vanilla) {
    // Neither: read with the size whose divisibility holds, so the read names the block that breaks it.
    const recordSize: RecordSize = blocks.every((b) => b.bytes % 108 === 0) ? 108 : 12;
    return {
      recordSize,
      basis: 'structure',
      reason: `no record size fits every block; read as ${recordSize}`,
      offset: first,
    };
  }
  let votes12 = 0;
  let votes108 = 0;
  for (const b of blocks) {
    const layout = systemLayout(b.star);
    if (layout === undefined) continue;
    const count = layoutWorldCount(layout);
    if (b.bytes / 12 === count) votes12++;
    if (b.bytes / 108 === count) votes108++;
  }
  if (votes12 !== votes108) {
    const recordSize: RecordSize = votes108 > votes12 ? 108 : 12;
    return {
      recordSize,
      basis: 'generated-systems',
      offset: first,
      reason: `both record sizes fit; ${recordSize}-byte records give the generated world count for ${Math.max(votes12, votes108)} of ${blocks.length} blocks, ${recordSize === 12 ? 108 : 12}-byte ones for ${Math.min(votes12, votes108)}`,
    };
  }
  return {
    recordSize: 12,
    basis: 'ambiguous',
    offset: first,
    reason:
      'every block fits both vanilla 12-byte and MegaMod 108-byte world records, and the generated systems tell neither apart: read as vanilla (starInfo(108) reads it as MegaMod)',
  };
}

/**
 * What the record size is chosen by: the offset table and the bytes after it, peeked (the chosen
 * codec reads them again). An ambiguous choice is reported where it was made, as a warning.
 */
const recordSizeChoice: Codec<RecordSizeChoice> = withHooks(
  map(struct({ offsets: starOffsets, after: remaining() }), {
    decode: ({ offsets, after }) => chooseRecordSize(offsets, STAR_TABLE_SIZE + after),
    encode: () => {
      // Peeked only: the table is written by the chosen codec, which the records' size picks.
      throw new Error('the record size is chosen by the records written, not written itself');
    },
    name: 'recordSizeChoice',
  }),
  {
    afterRead(choice, { reader, start }) {
      if (choice.basis === 'ambiguous') reader.warn('starinfo-record-size', choice.reason, start + choice.offset);
    },
  },
);

/**
 * `starinfo.dat` of either game, its record size decided by {@link chooseRecordSize} on read (a
 * `starinfo-record-size` warning when ambiguous) and by {@link recordSizeOf} on write. The codec of
 * the registered `uqm-starinfo` format. Written, the records must read back as their own size: a
 * MegaMod document whose blocks would read as vanilla ones is an EncodeError rather than other bytes.
 */
export const starInfoFile: Codec<StarInfo> = switchOn(
  recordSizeChoice,
  // MegaMod's first: a vanilla document has no `partial`, and so does not pass for one in JSON.
  { megaMod: starInfo(108), vanilla: starInfo(12) },
  {
    name: 'starInfoFile',
    select: (choice) => (choice.recordSize === 108 ? 'megaMod' : 'vanilla'),
    caseOf: (info) => (recordSizeOf(info) === 108 ? 'megaMod' : 'vanilla'),
  },
);
