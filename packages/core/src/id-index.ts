/**
 * A map from numeric ids to slots, for savers whose objects carry ids of their own (a VM's objects
 * numbered as they are made): ids mostly come in runs, so they are kept in pages of a flat array,
 * where a million lookups cost a tenth of what a `Map` keyed by the objects costs (no hash, no
 * rehashing as it grows, nothing for the collector to trace).
 *
 * @module
 */

/** Ids per page. */
const PAGE_BITS = 10;
const PAGE = 1 << PAGE_BITS;
/** Pages allowed beyond what {@link SLOTS_PER_ENTRY} slots per entry would take (a small index stays on pages). */
const FREE_PAGES = 64;
/** Page slots allowed per id kept: past that, ids too spread out for pages go to a Map. */
const SLOTS_PER_ENTRY = 8;
/** The largest slot (kept plus one in an Int32Array). */
const MAX_SLOT = 0x7ffffffe;

/**
 * Slots (whole numbers from 0 to 2³¹ − 2) by id (any number). Ids from 0 to 2³¹ − 1 in runs are
 * kept in pages of 1,024; other ids, and ids so spread out that pages would take more than eight
 * slots per id kept, in a `Map` — so memory stays within a constant factor of the calls to `set`,
 * whatever they are.
 *
 * @example
 * ```ts
 * import { IdIndex } from '@savekit/core/graph';
 *
 * const index = new IdIndex();
 * index.set(1041, 0);
 * index.set(2 ** 40, 1); // far away: kept in the map
 * index.get(1041); // 0
 * index.get(7); // undefined
 * ```
 */
export class IdIndex {
  private readonly pages: Array<Int32Array | undefined> = [];
  private readonly spread = new Map<number, number>();
  private pageCount = 0;
  private entries = 0;

  /** The slot of `id`, or undefined when it has none. */
  get(id: number): number | undefined {
    if ((id & 0x7fffffff) === id) {
      const page = this.pages[id >>> PAGE_BITS];
      if (page !== undefined) {
        const stored = page[id & (PAGE - 1)]!;
        if (stored !== 0) return stored - 1;
      }
    }
    return this.spread.size > 0 ? this.spread.get(id) : undefined;
  }

  /**
   * Gives `id` the slot `slot` (replacing any it had).
   *
   * @throws RangeError when `slot` is not a whole number from 0 to 2³¹ − 2.
   */
  set(id: number, slot: number): void {
    if (!(Number.isInteger(slot) && slot >= 0 && slot <= MAX_SLOT))
      throw new RangeError(`IdIndex: slot ${slot} is not a whole number from 0 to ${MAX_SLOT}`);
    this.entries++;
    if ((id & 0x7fffffff) === id) {
      let page = this.pages[id >>> PAGE_BITS];
      if (page === undefined && (this.pageCount + 1) * PAGE <= SLOTS_PER_ENTRY * this.entries + FREE_PAGES * PAGE) {
        page = new Int32Array(PAGE);
        this.pages[id >>> PAGE_BITS] = page;
        this.pageCount++;
      }
      if (page !== undefined) {
        page[id & (PAGE - 1)] = slot + 1;
        // An id kept in the map before its page was made: the page's slot is the one now.
        if (this.spread.size > 0) this.spread.delete(id);
        return;
      }
    }
    this.spread.set(id, slot);
  }
}
