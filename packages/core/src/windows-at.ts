/**
 * Blocks placed by a sparse offset table, each sized by the next offset: a table of `count` offsets
 * (one per index, a null offset for an index without a block), then blocks whose size is stored
 * nowhere — a block runs from its offset to the next-higher offset in the table, the last to the end
 * of the window. UQM's `starinfo.dat` is one: 502 star offsets, then a block per scanned system.
 *
 * @module
 */
import * as t from 'io-ts';
import { bytes } from './bytes.js';
import { defineCodec, readChild, writeChild, type Codec } from './codec.js';
import type { PathSegment } from './errors.js';
import { jsonBytes } from './json.js';
import { patch } from './sized.js';

/** A block of a {@link windowsAt}: the table index that places it, and its value. */
export interface WindowAt<A> {
  /** Index of the table entry holding the block's offset (0 … count - 1). */
  index: number;
  value: A;
}

/** The value of a {@link windowsAt}: its blocks in file order, and bytes before the first, if any. */
export interface WindowsAt<A> {
  /** The blocks in the order of their bytes (by offset); written in this order, one after another. */
  blocks: Array<WindowAt<A>>;
  /** Bytes between the table and the first block (or the end, without blocks); absent when none. */
  lead?: Uint8Array;
}

/** Options of {@link windowsAt}. */
export interface WindowsAtOptions {
  /** The stored offset of an index without a block (default 0). */
  readonly nullOffset?: number;
}

/**
 * A table of `count` offsets of the fixed-size codec `offset`, then the blocks they place, read as
 * `{ blocks: [{ index, value }], lead? }`. Offsets count from the table's first byte; a block's
 * window runs from its offset to the next-higher offset in the table, the last block's to the end
 * of the window this codec is read in; its value is `block` read from that window, which it must
 * fill. Bytes between the table and the first block are `lead`.
 *
 * Read: the blocks come in file order (offset order). An offset into the table, at or past the end
 * of the window, or shared by two entries (a block of no bytes) is a DecodeError `bad-pointer` at the
 * table entry; a block that leaves bytes of its window unread is `trailing-bytes`. The table is
 * layout, not document: it has no path segment; blocks are at `blocks/<i>/value`.
 *
 * Write: the table, the lead, then each block in the order of `blocks`, one after the other (the
 * order the engine appends them in, so an image read and written is byte-identical); the table is
 * filled in afterwards, indexes without a block with the null offset. An index out of range or used
 * twice, a block of no bytes, an empty lead or a block landing on the null offset are EncodeErrors.
 *
 * The work is bounded by the table: one sort of at most `count` entries, one budget unit per block.
 *
 * @example
 * ```ts
 * const scans = windowsAt(502, u32le, array(u32le, 'rest'));
 * // { blocks: [{ index: 82, value: [1, 0, 0] }] } ↔ the table with 2008 at entry 82, then the block
 * ```
 */
export function windowsAt<A>(
  count: number,
  offset: Codec<number>,
  block: Codec<A>,
  options: WindowsAtOptions = {},
): Codec<WindowsAt<A>> {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`windowsAt: the table holds a positive whole number of offsets, got ${count}`);
  const entrySize = offset.size;
  if (entrySize === undefined || entrySize < 1)
    throw new RangeError(`windowsAt: an offset must have a fixed size, ${offset.name} has none`);
  const nullOffset = options.nullOffset ?? 0;
  if (!Number.isSafeInteger(nullOffset))
    throw new RangeError(`windowsAt: the null offset ${nullOffset} is not an integer`);
  const tableSize = count * entrySize;
  const json = t.intersection([
    t.type({ blocks: t.array(t.type({ index: t.number, value: block.json })) }),
    t.partial({ lead: jsonBytes() }),
  ]) as unknown as t.Type<WindowsAt<A>, unknown, unknown>;
  return defineCodec<WindowsAt<A>>({
    name: `windowsAt(${count}, ${offset.name}, ${block.name})`,
    def: { type: 'windowsAt', count, offset, block, nullOffset },
    json,
    minSize: tableSize,
    children: [{ key: 'blocks', codec: block }],
    read(r) {
      const base = r.pos;
      r.need(tableSize);
      const size = r.end - base;
      const placed: Array<{ index: number; at: number }> = [];
      for (let index = 0; index < count; index++) {
        const at = offset.read(r);
        if (at === nullOffset) continue;
        const entry = base + index * entrySize;
        if (at < tableSize)
          throw r.error('bad-pointer', `entry ${index}: offset ${at} points into the offset table`, entry);
        if (at >= size)
          throw r.error('bad-pointer', `entry ${index}: offset ${at} is past the end (${size} bytes)`, entry);
        placed.push({ index, at });
      }
      placed.sort((a, b) => a.at - b.at || a.index - b.index);
      for (let i = 1; i < placed.length; i++) {
        const [before, entry] = [placed[i - 1]!, placed[i]!];
        if (before.at === entry.at)
          throw r.error(
            'bad-pointer',
            `entries ${before.index} and ${entry.index} share the block at ${entry.at}`,
            base + entry.index * entrySize,
          );
      }
      const first = placed[0]?.at ?? size;
      const lead = first > tableSize ? readChild(r.window(first - tableSize), 'lead', leadBytes) : undefined;
      const path = r.state.path;
      path.push('blocks');
      const blocks = placed.map(({ index, at }, i): WindowAt<A> => {
        const next = placed[i + 1]?.at ?? size;
        r.work(1);
        const window = r.at(base + at, base + at, base + next);
        r.pos = base + next;
        path.push(i);
        const value = readChild(window, 'value', block);
        if (window.pos !== window.end)
          throw window.error(
            'trailing-bytes',
            `entry ${index}: ${window.end - window.pos} bytes of the block's window are left unread`,
            window.pos,
          );
        path.pop();
        return { index, value };
      });
      path.pop();
      return lead === undefined ? { blocks } : { blocks, lead };
    },
    write(w, value) {
      if (typeof value !== 'object' || value === null || !Array.isArray(value.blocks))
        throw w.error('wrong-type', 'expected { blocks, lead? }');
      const start = w.length;
      const table = w.reserve(tableSize);
      const { lead } = value;
      if (lead !== undefined) {
        if (!(lead instanceof Uint8Array)) throw w.errorAt('lead', 'wrong-type', 'expected bytes');
        if (lead.length === 0) throw w.errorAt('lead', 'invalid-value', 'a lead has at least one byte (leave it out)');
        writeChild(w, 'lead', leadBytes, lead);
      }
      const offsets = new Array<number>(count).fill(nullOffset);
      const used = new Set<number>();
      const path = w.state.path;
      path.push('blocks');
      for (const [i, entry] of value.blocks.entries()) {
        const fail = (message: string, key: PathSegment = i) => w.errorAt(key, 'invalid-value', message);
        if (typeof entry !== 'object' || entry === null) throw w.errorAt(i, 'wrong-type', 'expected { index, value }');
        const { index } = entry;
        if (!Number.isSafeInteger(index) || index < 0 || index >= count)
          throw fail(`index ${index} is not 0 to ${count - 1}`);
        if (used.has(index)) throw fail(`index ${index} has two blocks`);
        used.add(index);
        const at = w.length - start;
        if (at === nullOffset) throw fail(`the block of index ${index} would be at the null offset ${at}`);
        offsets[index] = at;
        path.push(i);
        writeChild(w, 'value', block, entry.value);
        path.pop();
        if (w.length - start === at) throw fail(`the block of index ${index} is empty: a block takes a byte or more`);
      }
      path.pop();
      for (let index = 0; index < count; index++) patch(w, table + index * entrySize, offset, offsets[index] as number);
    },
  });
}

/** Bytes between the table and the first block. */
const leadBytes = bytes('rest');
