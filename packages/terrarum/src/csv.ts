/**
 * The prop CSVs (terrarum.md §7): semicolon-separated, every field double-quoted, the header first —
 * parsed with csv-parse and written with csv-stringify. The file's own text is kept and written back
 * while its rows are unchanged (the game pads some files with spaces for alignment).
 *
 * @module
 */
// The libraries' self-contained ESM builds: their Node entry points use Node's `Buffer`, which a
// browser does not have (this package also runs in the docs playground).
import { parse } from 'csv-parse/browser/esm/sync';
import { stringify } from 'csv-stringify/browser/esm/sync';

/** A CSV file: its rows (the header first) and its text as it was. */
export interface CsvFile {
  rows: string[][];
  /** The original text; written back while `rows` still parse from it. */
  text?: string;
}

/** Parses a Terrarum CSV (`;`, `"`-quoted; spaces around quoted fields allowed; `#` lines are comments). */
export function parseCsv(text: string): CsvFile {
  const rows = parse(text, { delimiter: ';', quote: '"', relax_column_count: true, trim: true, comment: '#', skip_empty_lines: true }) as string[][];
  return { rows, text };
}

/** The text of a CSV: the original while the rows are unchanged, else every field quoted, `;`-separated. */
export function csvText(file: CsvFile): string {
  if (file.text !== undefined) {
    let again: string[][];
    try {
      again = parseCsv(file.text).rows;
    } catch {
      // Text that does not parse is kept as it is while no rows were given.
      if (file.rows.length === 0) return file.text;
      again = [];
    }
    if (again.length === file.rows.length && again.every((row, i) => row.length === file.rows[i].length && row.every((cell, k) => cell === file.rows[i][k]))) return file.text;
  }
  return stringify(file.rows, { delimiter: ';', quoted: true, record_delimiter: '\n' });
}
