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
import { jsonArray, jsonBytes } from './json.js';
import { patch } from './sized.js';

/** A block of a {@link windowsAt}: the block's value with the table index that places it under `K`. */
export type WindowAt<A, K extends string = 'index'> = A & { [P in K]: number };

/**
 * The value of a {@link windowsAt}: its blocks in file order under `L`, and the bytes before the
 * first block under `lead` (absent when there are none).
 */
export type WindowsAt<A, K extends string = 'index', L extends string = 'blocks'> = {
  [P in L]: Array<WindowAt<A, K>>;
} & { lead?: Uint8Array };

/** Options of {@link windowsAt}. */
export interface WindowsAtOptions<K extends string = 'index', L extends string = 'blocks'> {
  /** The stored offset of an index without a block (default 0). */
  readonly nullOffset?: number;
  /** The key of a block's table index in its value (default `'index'`); also names entries in messages. */
  readonly index?: K;
  /** The key of the list of blocks (default `'blocks'`). */
  readonly blocks?: L;
  /**
   * Every block is whole units of this many bytes (records): a window that is not is a DecodeError
   * `invalid-value` at the block before it is read, and the budget is charged a unit per record.
   */
  readonly unit?: number;
}

/**
 * A table of `count` offsets of the fixed-size codec `offset`, then the blocks they place: a block's
 * window runs from its offset to the next-higher offset in the table, the last block's to the end of
 * the window this codec is read in. Offsets count from the table's first byte; bytes between the
 * table and the first block are `lead`. The value is `{ blocks: [{ index, ...block }], lead? }`: each
 * block's value (an object; `block` reads it from its whole window) with its table index added under
 * `index` — both keys can be renamed, `{ systems: [{ star, worlds }] }`.
 *
 * Read: the blocks come in file order (offset order). An offset into the table, at or past the end
 * of the window, or shared by two entries (a block of no bytes) is a DecodeError `bad-pointer` at the
 * table entry; a block that leaves bytes of its window unread is `trailing-bytes`. The table is
 * layout, not document: it has no path segment; block `i` is at `blocks/i`.
 *
 * Write: the table, the lead, then each block in list order, one after the other (the order the
 * engine appends them in, so an image read and written is byte-identical); the table is filled in
 * afterwards, indexes without a block with the null offset. An index out of range or used twice, a
 * block of no bytes, an empty lead or a block landing on the null offset are EncodeErrors.
 *
 * The work is bounded by the table: one sort of at most `count` entries, a budget unit per block.
 *
 * @example
 * ```ts
 * const scans = windowsAt(502, u32le, struct({ masks: array(u32le, 'rest') }), { index: 'star' });
 * // { blocks: [{ star: 82, masks: [1, 0, 0] }] } ↔ the table with 2008 at entry 82, then the block
 * ```
 */
export function windowsAt<A extends object, K extends string = 'index', L extends string = 'blocks'>(
  count: number,
  offset: Codec<number>,
  block: Codec<A>,
  options: WindowsAtOptions<K, L> = {},
): Codec<WindowsAt<A, K, L>> {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`windowsAt: the table holds a positive whole number of offsets, got ${count}`);
  const entrySize = offset.size;
  if (entrySize === undefined || entrySize < 1)
    throw new RangeError(`windowsAt: an offset must have a fixed size, ${offset.name} has none`);
  const nullOffset = options.nullOffset ?? 0;
  if (!Number.isSafeInteger(nullOffset))
    throw new RangeError(`windowsAt: the null offset ${nullOffset} is not an integer`);
  const unit = options.unit;
  if (unit !== undefined && (!Number.isSafeInteger(unit) || unit < 1))
    throw new RangeError(`windowsAt: a unit must be a positive integer, got ${unit}`);
  const indexKey: string = options.index ?? 'index';
  const listKey: string = options.blocks ?? 'blocks';
  if (indexKey === 'lead' || listKey === 'lead')
    throw new RangeError(`windowsAt: 'lead' names the bytes before the blocks`);
  const tableSize = count * entrySize;
  const element = t.intersection([t.type({ [indexKey]: t.number }), block.json]);
  const json = t.intersection([t.type({ [listKey]: jsonArray(element) }), t.partial({ lead: jsonBytes() })]);
  type Element = Record<string, unknown>;
  type Value = Record<string, unknown> & { lead?: Uint8Array };
  const codec = defineCodec<Value>({
    name: `windowsAt(${count}, ${offset.name}, ${block.name})`,
    def: { type: 'windowsAt', count, offset, block, nullOffset, index: indexKey, blocks: listKey, unit },
    json: json as unknown as t.Type<Value, unknown, unknown>,
    minSize: tableSize,
    children: [{ key: listKey, codec: block }],
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
          throw r.error('bad-pointer', `${indexKey} ${index}: offset ${at} points into the offset table`, entry);
        if (at >= size)
          throw r.error('bad-pointer', `${indexKey} ${index}: offset ${at} is past the end (${size} bytes)`, entry);
        placed.push({ index, at });
      }
      placed.sort((a, b) => a.at - b.at || a.index - b.index);
      for (let i = 1; i < placed.length; i++) {
        const [before, entry] = [placed[i - 1]!, placed[i]!];
        if (before.at === entry.at)
          throw r.error(
            'bad-pointer',
            `${indexKey}s ${before.index} and ${entry.index} share the block at ${entry.at}`,
            base + entry.index * entrySize,
          );
      }
      const first = placed[0]?.at ?? size;
      const lead = first > tableSize ? readChild(r.window(first - tableSize), 'lead', leadBytes) : undefined;
      const path = r.state.path;
      path.push(listKey);
      const blocks = placed.map(({ index, at }, i): Element => {
        const next = placed[i + 1]?.at ?? size;
        const length = next - at;
        if (unit !== undefined && length % unit !== 0)
          throw r.errorAt(
            i,
            'invalid-value',
            `${indexKey} ${index}: its block of ${length} bytes is not whole ${unit}-byte records`,
            base + at,
          );
        // A unit of work per block, and per record when records are declared, before they are read.
        r.work(1 + (unit === undefined ? 0 : length / unit));
        const window = r.at(base + at, base + at, base + next);
        r.pos = base + next;
        const value = readChild(window, i, block) as unknown;
        if (window.pos !== window.end)
          throw r.errorAt(
            i,
            'trailing-bytes',
            `${indexKey} ${index}: ${window.end - window.pos} bytes of its block are left unread`,
            window.pos,
          );
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw r.errorAt(i, 'wrong-type', `${indexKey} ${index}: a block's value must be an object`, base + at);
        // The index is added beside the block's own fields: a block with a field of that name would
        // have it overwritten, and its value would not write back.
        if (Object.hasOwn(value, indexKey))
          throw r.errorAt(
            i,
            'invalid-value',
            `${indexKey} ${index}: the block has a field named ${indexKey} too`,
            base + at,
          );
        return { [indexKey]: index, ...(value as Element) };
      });
      path.pop();
      const out: Value = { [listKey]: blocks };
      if (lead !== undefined) out.lead = lead;
      return out;
    },
    write(w, value) {
      const list = typeof value === 'object' && value !== null ? value[listKey] : undefined;
      if (!Array.isArray(list)) throw w.error('wrong-type', `expected { ${listKey}, lead? }`);
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
      path.push(listKey);
      for (const [i, entry] of list.entries()) {
        if (typeof entry !== 'object' || entry === null)
          throw w.errorAt(i, 'wrong-type', `expected { ${indexKey}, … }`);
        const index = (entry as Element)[indexKey] as number;
        const fail = (message: string) => w.errorAt(i, 'invalid-value', message);
        if (!Number.isSafeInteger(index) || index < 0 || index >= count)
          throw fail(`${indexKey} ${String(index)} is not 0 to ${count - 1}`);
        if (used.has(index)) throw fail(`${indexKey} ${index} has two blocks`);
        used.add(index);
        const at = w.length - start;
        if (at === nullOffset) throw fail(`the block of ${indexKey} ${index} would be at the null offset ${at}`);
        offsets[index] = at;
        writeChild(w, i, block, entry as A);
        const length = w.length - start - at;
        if (length === 0) throw fail(`the block of ${indexKey} ${index} is empty: a block takes a byte or more`);
        if (unit !== undefined && length % unit !== 0)
          throw fail(`the block of ${indexKey} ${index} is ${length} bytes, not whole ${unit}-byte records`);
      }
      path.pop();
      for (let index = 0; index < count; index++) patch(w, table + index * entrySize, offset, offsets[index] as number);
    },
  });
  return codec as unknown as Codec<WindowsAt<A, K, L>>;
}

/** Bytes between the table and the first block. */
const leadBytes = bytes('rest');
