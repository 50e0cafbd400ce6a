/**
 * Counts in text, for the lines a format's `summary` prints and the messages tools show: every package
 * counts and groups numbers alike ("1 escort", "2,048 entries").
 *
 * @module
 */

/**
 * A count with its noun in the right number: `1 save`, `2 saves`, `1 entry`/`3 entries` (give the
 * plural when it is not the singular plus "s"). Thousands are grouped as by {@link grouped}.
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${grouped(count)} ${count === 1 ? singular : pluralForm}`;
}

/** A whole number with commas between thousands, the same in every locale (output is deterministic). */
export function grouped(count: number): string {
  const sign = count < 0 ? '-' : '';
  return `${sign}${String(Math.abs(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
