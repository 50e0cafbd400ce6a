// The prop-CSV reader and writer: what they write reads back, the reader agrees with csv-parse (the
// library this package used before) on every text of the dialect, the writer with csv-stringify on
// every row both can write, and a file's own text is written back unchanged.
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CsvError, csvText, parseCsv } from '@savekit/terrarum';

const csvParseOptions = {
  delimiter: ';',
  quote: '"',
  relax_column_count: true,
  trim: true,
  comment: '#',
  skip_empty_lines: true,
} as const;

// Any text, with the dialect's special characters often.
const cell = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', ';', '\n', '\r', '#', ' ', '\t', 'a', 'é', '😀'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
  maxLength: 12,
});
const rows = fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 8 });

// A file of the dialect, as a person or the game would write one: quoted fields holding anything,
// bare fields of plain words, padding, comment and blank lines, `\n` or `\r\n` throughout.
const blanks = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 });
const bare = fc.stringMatching(/^[A-Za-z0-9_.][A-Za-z0-9_. -]{0,8}[A-Za-z0-9_.]$|^[A-Za-z0-9_.]?$/);
const quoted = cell.map((s) => `"${s.replaceAll('"', '""')}"`);
const field = fc.tuple(blanks, fc.oneof(quoted, bare), blanks).map(([a, f, b]) => a + f + b);
const record = fc.array(field, { minLength: 1, maxLength: 6 }).map((fs) => fs.join(';'));
const line = fc.oneof(
  { weight: 8, arbitrary: record },
  { weight: 1, arbitrary: fc.tuple(blanks, cell).map(([b, c]) => `${b}#${c.replace(/[\r\n]/g, '')}`) },
  { weight: 1, arbitrary: blanks },
);
const dialectText = fc
  .tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, last]) => lines.join(eol) + (last && lines.length > 0 ? eol : ''));

test('what csvText writes, parseCsv reads back (rows without fields have no CSV form)', () => {
  fc.assert(
    fc.property(rows, (rs) => {
      expect(parseCsv(csvText({ rows: rs })).rows).toEqual(rs.filter((r) => r.length > 0));
    }),
    { numRuns: 2000 },
  );
});

test('parseCsv reads every text of the dialect as csv-parse does', () => {
  fc.assert(
    fc.property(dialectText, (text) => {
      expect(parseCsv(text).rows).toEqual(parse(text, csvParseOptions));
    }),
    { numRuns: 3000 },
  );
});

test('csvText writes what csv-stringify wrote, for rows of non-empty fields', () => {
  // csv-stringify leaves empty fields unquoted (so a row of one empty field became a blank line and
  // was lost); every field here is quoted, as the dialect says. Otherwise the bytes are the same.
  const nonEmpty = fc.array(
    fc.array(
      cell.filter((s) => s !== ''),
      { minLength: 1, maxLength: 6 },
    ),
    { maxLength: 8 },
  );
  fc.assert(
    fc.property(nonEmpty, (rs) => {
      expect(csvText({ rows: rs })).toBe(stringify(rs, { delimiter: ';', quoted: true, record_delimiter: '\n' }));
    }),
    { numRuns: 2000 },
  );
  expect(csvText({ rows: [['a', '', 'b'], ['']] })).toBe('"a";"";"b"\n""\n');
});

test('a file keeps its own text, byte for byte, while its rows are unchanged', () => {
  fc.assert(
    fc.property(dialectText, (text) => {
      const file = parseCsv(text);
      expect(csvText(file)).toBe(text);
      expect(csvText({ rows: file.rows.map((r) => [...r]), text })).toBe(text);
    }),
    { numRuns: 1000 },
  );
  const padded = '"id"  ;  "name"\r\n# a comment\r\n\r\n  "1" ; "BLOCK_STONE"  \r\n';
  const file = parseCsv(padded);
  expect(file.rows).toEqual([
    ['id', 'name'],
    ['1', 'BLOCK_STONE'],
  ]);
  expect(csvText(file)).toBe(padded);
  file.rows[1]![1] = 'BLOCK_DIRT';
  expect(csvText(file)).toBe('"id";"name"\n"1";"BLOCK_DIRT"\n');
});

test('the game files: a header, quoted fields, module parts marked by comment lines', () => {
  const text =
    '## from file: basegame ##############################\n"id";"drop";"name";"shdr"\n"1";"1";"BLOCK_STONE";"0.1"\n"2";"2";"BLOCK;DIRT";"0.""5"""\n\n';
  expect(parseCsv(text).rows).toEqual([
    ['id', 'drop', 'name', 'shdr'],
    ['1', '1', 'BLOCK_STONE', '0.1'],
    ['2', '2', 'BLOCK;DIRT', '0."5"'],
  ]);
  expect(parseCsv('\ufeff"a";b\n').rows).toEqual([['a', 'b']]);
  expect(parseCsv('"multi\r\nline";x').rows).toEqual([['multi\r\nline', 'x']]);
  expect(parseCsv('a;;\n').rows).toEqual([['a', '', '']]);
  expect(parseCsv('').rows).toEqual([]);
  // Where csv-parse differs on purpose: a `#` after a field is text, not the start of a comment.
  expect(parseCsv('"a";b#c\n  # a comment\n').rows).toEqual([['a', 'b#c']]);
  expect(parse('"a";b#c\n', csvParseOptions)).toEqual([['a', 'b']]);
});

test('malformed text is a CsvError with its line and offset; csv-parse refuses it too', () => {
  const cases: [string, number, number][] = [
    ['"a";"b\n"c"', 2, 8],
    ['"id"\n"abc;\n', 2, 5],
    ['"id"\nab"c";d\n', 2, 7],
    ['"id"\n"a"b;c\n', 2, 8],
  ];
  for (const [text, line, offset] of cases) {
    expect(() => parse(text, csvParseOptions)).toThrow();
    let caught: unknown;
    try {
      parseCsv(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CsvError);
    expect([(caught as CsvError).line, (caught as CsvError).offset]).toEqual([line, offset]);
  }
});

test('any text either parses or is a CsvError, never another exception', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('"', ';', '\n', '\r', '#', ' ', 'a'), maxLength: 40 }), (text) => {
      try {
        parseCsv(text);
      } catch (error) {
        expect(error).toBeInstanceOf(CsvError);
      }
    }),
    { numRuns: 3000 },
  );
});
