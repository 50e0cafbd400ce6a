/**
 * Comparing CSV rows (internal: shared by the CSV writer and the save's writer).
 *
 * @module
 */

/** Whether two lists of rows hold the same fields, row by row. */
export function sameRows(a: ReadonlyArray<ReadonlyArray<string>>, b: ReadonlyArray<ReadonlyArray<string>>): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) => row.length === b[i]!.length && row.every((cell, k) => cell === b[i]![k]))
  );
}
