/**
 * The prop CSVs (terrarum.md §7): semicolon-separated, every field double-quoted, the header first.
 * The file's own text is kept and written back while its rows are unchanged (the game pads some files
 * with spaces for alignment), so a save re-encodes byte for byte.
 *
 * A small reader and writer of their own rather than a CSV library: the dialect is one fixed RFC 4180
 * variant, and the general libraries cost ~80 KB (with a `Buffer` polyfill) in a browser bundle. The
 * reader agrees with csv-parse (`delimiter: ';'`, `trim`, `comment: '#'`, `skip_empty_lines`,
 * `relax_column_count`) on every file of this dialect — a test compares the two — except where
 * csv-parse surprises: `#` starts a comment only at the start of a line (csv-parse also cuts a line at
 * a `#` after a bare field), and a byte-order mark is skipped (csv-parse refuses the file). The writer
 * quotes every field, empty ones too (csv-stringify left those bare, so a row of one empty field
 * became a blank line and was lost).
 *
 * @module
 */
import { sameRows } from './rows.js';

/** A CSV file: its rows (the header first) and its text as it was. */
export interface CsvFile {
  rows: string[][];
  /**
   * The original text; written back while `rows` still parse from it. `rows` are what is written:
   * with the rows edited the text is written afresh, and a save whose text was edited alone is refused
   * at the text (the edit would be lost).
   */
  text?: string;
}

/** Text that is not CSV of this dialect: what is wrong, and where (1-based line, 0-based offset in the text). */
export class CsvError extends Error {
  override readonly name = 'CsvError';

  constructor(
    message: string,
    /** The line (1-based) where the problem is. */
    readonly line: number,
    /** The offset of the problem in the text (UTF-16 code units). */
    readonly offset: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * Parses a Terrarum CSV: fields separated by `;`, each either `"`-quoted (`""` is a quote; `;` and
 * line breaks allowed inside) or bare (no `"`); spaces and tabs around a field are dropped. Lines end
 * with `\n` or `\r\n`; blank lines and lines starting with `#` (after blanks) are skipped; rows may
 * differ in length; a leading byte-order mark is ignored. Throws a {@link CsvError} on an unclosed
 * quote, a quote inside a bare field, or anything but blanks after a closing quote.
 */
export function parseCsv(text: string): CsvFile {
  const rows: string[][] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const fail = (message: string, at: number): never => {
    throw new CsvError(message, line, at);
  };
  // One iteration per line (a quoted field may span several).
  while (i < n) {
    let j = i;
    while (isBlank(text[j])) j++;
    const first = text[j];
    if (j >= n || first === '\n' || (first === '\r' && text[j + 1] === '\n') || first === '#') {
      // A blank or comment line: skip to its end.
      while (j < n && text[j] !== '\n') j++;
      i = j + 1;
      line++;
      continue;
    }
    const row: string[] = [];
    i = j;
    for (;;) {
      while (isBlank(text[i])) i++;
      let field: string;
      if (text[i] === '"') {
        const start = i;
        let value = '';
        let from = ++i;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) fail('a quoted field is not closed', start);
          for (let k = i; k < q; k++) if (text[k] === '\n') line++;
          if (text[q + 1] === '"') {
            value += text.slice(from, q + 1);
            i = from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          i = q + 1;
          break;
        }
        while (isBlank(text[i])) i++;
        if (i < n && text[i] !== ';' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n'))
          fail('only blanks may follow a closing quote', i);
        field = value;
      } else {
        const start = i;
        while (i < n && text[i] !== ';' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') fail('a quote inside an unquoted field', i);
          i++;
        }
        let end = i;
        while (end > start && isBlank(text[end - 1])) end--;
        field = text.slice(start, end);
      }
      row.push(field);
      if (text[i] === ';') {
        i++;
        continue;
      }
      // The end of the line (or of the text).
      i += text[i] === '\r' ? 2 : 1;
      line++;
      break;
    }
    rows.push(row);
  }
  return { rows, text };
}

/** One row as the game writes it: every field quoted (`"` doubled), `;`-separated. */
function csvLine(row: readonly string[]): string {
  return row.map((field) => `"${field.replaceAll('"', '""')}"`).join(';');
}

/**
 * The text of a CSV: the original while the rows are unchanged, else every field quoted,
 * `;`-separated, each row ending with `\n`. A row with no fields has no CSV form and is left out.
 */
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
    if (sameRows(again, file.rows)) return file.text;
  }
  let out = '';
  for (const row of file.rows) if (row.length > 0) out += `${csvLine(row)}\n`;
  return out;
}
