// provide / fromContext: values earlier parts of a file hand to later ones. The laws on a table of
// names read before records that use them (and on a width that decides a later row), errors with
// path and offset, rollback by Reader.attempt, and the layout rows.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import {
  array,
  contextKey,
  contextValue,
  decode,
  fromContext,
  literal,
  provide,
  pstring,
  rebuild,
  struct,
  u16le,
  u8,
  type Codec,
  type TypeOf,
} from '../src/index';
import { defineCodec, layoutOf } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

/** The names defined so far; a name may be defined once. */
const NAMES = contextKey<ReadonlyArray<string>>('names', () => []);
const define = provide(pstring(u8, 'ascii'), NAMES, (names, name) => {
  if (names.includes(name)) throw new Error(`${name} is defined twice`);
  return [...names, name];
});
/** A record names one of the names defined before it (stored as its index). */
const record = fromContext(NAMES, (names) => literal(u8, 0, ...names.map((_, i) => i)), {
  json: u8.json,
});
const file = struct({
  count: rebuild(u8, (p: { names: string[] }) => p.names.length),
  names: (p: { count: number }) => array(define, p.count),
  records: array(record, u16le),
});
type File = TypeOf<typeof file>;

const files: fc.Arbitrary<File> = fc
  .uniqueArray(fc.stringMatching(/^[a-z]{1,5}$/), { minLength: 1, maxLength: 6 })
  .chain((names) =>
    fc
      .array(fc.nat({ max: names.length - 1 }), { maxLength: 8 })
      .map((records) => ({ count: names.length, names, records })),
  );

describe('provide and fromContext', () => {
  test('the laws: what a later part reads depends on what an earlier part provided', () => {
    const accepted = checkLaws(file, files);
    expect(accepted).toBeGreaterThan(0);
  });

  test('a width read first decides the rows after it (the doc example)', () => {
    const WIDTH = contextKey('width', () => 1);
    const grid = struct({
      width: provide(u8, WIDTH, (_, width) => width),
      rows: array(
        fromContext(WIDTH, (width) => array(u16le, width), { json: t.array(u16le.json) }),
        2,
      ),
    });
    checkLaws(
      grid,
      fc.integer({ min: 0, max: 4 }).chain((width) =>
        fc
          .array(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: width, maxLength: width }), {
            minLength: 2,
            maxLength: 2,
          })
          .map((rows) => ({ width, rows })),
      ),
    );
    // Encoding sees what was provided while writing, not what a value says elsewhere.
    expect(E.isLeft(decode(grid, hexBytes('02 0100 0200 0300')))).toBe(true);
  });

  test('an update that refuses is a DecodeError at the value and its start; an EncodeError at its path', () => {
    const twice = decodeFails(file, hexBytes('02 01 61 01 61 0000'));
    expect([twice.path, twice.offset, twice.message]).toEqual([
      ['names', 1],
      3,
      'provide(names, pstring(u8, ascii)): a is defined twice',
    ]);
    const refused = encodeFails(file, { count: 2, names: ['a', 'a'], records: [] });
    expect([refused.path, refused.message]).toEqual([
      ['names', 1],
      'provide(names, pstring(u8, ascii)): a is defined twice',
    ]);
  });

  test('a value the context does not allow is refused where it is, on read and on write', () => {
    const unknown = decodeFails(file, hexBytes('01 01 61 0100 05'));
    expect([unknown.path, unknown.offset]).toEqual([['records', 0], 5]);
    expect(encodeFails(file, { count: 1, names: ['a'], records: [3] }).path).toEqual(['records', 0]);
  });

  test('a choice that throws is an error at the dependent codec, never an exception', () => {
    const KEY = contextKey<number>('n', () => -1);
    const broken = fromContext(KEY, (n) => array(u8, n), { json: t.array(u8.json) });
    const error = decodeFails(broken, Uint8Array.of(1));
    expect(error.message).toMatch(/^fromContext\(n\): choose: /);
    expect(encodeFails(broken, [1]).message).toMatch(/^fromContext\(n\): choose: /);
  });

  test('Reader.attempt rolls a provided value back with the reading that provided it', () => {
    const KEY = contextKey<ReadonlyArray<number>>('seen', () => []);
    const seen = provide(u8, KEY, (list, n) => [...list, n]);
    const tryTwo: Codec<number[]> = defineCodec<number[]>({
      name: 'tryTwo',
      def: { type: 'array', element: u8, count: { type: 'rest' } },
      json: t.array(u8.json),
      read(r) {
        // Reads two values and fails, so both are rolled back; then one is read for real.
        const failed = r.attempt((r) => {
          seen.read(r);
          seen.read(r);
          throw r.error('no');
        });
        expect(E.isLeft(failed)).toBe(true);
        expect(contextValue(r.state.context, KEY)).toEqual([]);
        return [seen.read(r), ...contextValue(r.state.context, KEY)];
      },
      write(w, value) {
        seen.write(w, value[0]!);
      },
    });
    const result = decode(tryTwo, Uint8Array.of(7), { trailing: 'keep' });
    expect(E.isRight(result) && result.right.value).toEqual([7, 7]);
  });

  test('layout tables show a provided value as its codec and a dependent one as what it depends on', () => {
    expect(layoutOf(file).map((row) => [row.path, row.type])).toEqual([
      ['count', 'u8, computed on write'],
      ['names', 'depends on earlier fields'],
      ['records', 'depends on names[u16le]'],
    ]);
    expect(layoutOf(define)[0]?.type).toBe('pstring(u8, ascii)');
    expect(encodeOk(define, 'ab')).toEqual(Uint8Array.of(2, 0x61, 0x62));
  });
});
