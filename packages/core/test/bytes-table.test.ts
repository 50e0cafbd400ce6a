// BytesTable: a bounded table keyed by bytes read in place. Its laws: a lookup after a keep that
// returned true finds the value; distinct bytes never give one another's value; the bounds (most,
// longest, bucket) hold whatever is kept.
import fc from 'fast-check';
import { BytesTable } from '../src/bytes-table';

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
/** Bytes as a map key of the model. */
const keyOf = (bytes: Uint8Array, start: number, end: number) => Array.from(bytes.subarray(start, end)).join(',');

/** A key at a random place of a buffer (random bytes around it), so lookups read in place. */
const placed = (key: Uint8Array, before: number, after: number): [Uint8Array, number, number] => {
  const buffer = new Uint8Array(before + key.length + after).fill(0xaa);
  buffer.set(key, before);
  return [buffer, before, before + key.length];
};

describe('BytesTable', () => {
  test('the laws, against a map: found after kept, never another key’s value, bounded', () => {
    // Keys from a small set (repeats are common), prefixes and one-byte changes of each other.
    const key = fc.oneof(
      fc.constantFrom('', 'a', 'ab', 'abc', 'abd', 'b', 'ba', 'k3pvu', 'ke3ea', 'a longer key').map(ascii),
      fc.uint8Array({ maxLength: 5 }),
    );
    const op = fc.record({ key, before: fc.nat({ max: 3 }), after: fc.nat({ max: 3 }), keep: fc.boolean() });
    const options = fc.record({
      most: fc.integer({ min: 1, max: 12 }),
      longest: fc.integer({ min: 0, max: 6 }),
      bucket: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(options, fc.array(op, { maxLength: 60 }), (opts, ops) => {
        const table = new BytesTable<number>(opts);
        const model = new Map<string, number>();
        ops.forEach((o, i) => {
          const [buffer, start, end] = placed(o.key, o.before, o.after);
          const id = keyOf(buffer, start, end);
          // Found exactly when kept, with the value kept for these very bytes.
          expect(table.find(buffer, start, end)).toBe(model.get(id));
          if (o.keep && !model.has(id)) {
            const kept = table.keep(buffer, start, end, i);
            if (kept) model.set(id, i);
            // Refused only past a bound: too long, full, or a full bucket (which takes `bucket` keys kept).
            else if (o.key.length <= opts.longest && model.size < opts.most)
              expect(model.size).toBeGreaterThanOrEqual(opts.bucket);
            if (o.key.length > opts.longest) expect(kept).toBe(false);
          }
          expect(table.size).toBe(model.size);
          expect(table.size).toBeLessThanOrEqual(opts.most);
        });
        // Everything kept is still found after the table grew, from a fresh copy of its bytes.
        for (const [id, value] of model) {
          const bytes = Uint8Array.from(id === '' ? [] : id.split(',').map(Number));
          expect(table.find(bytes, 0, bytes.length)).toBe(value);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('grows to hold `most` keys, every one found after', () => {
    const table = new BytesTable<number>({ most: 5000, longest: 8 });
    const buffer = new Uint8Array(4 * 5000);
    const view = new DataView(buffer.buffer);
    let kept = 0;
    for (let i = 0; i < 5000; i++) {
      view.setUint32(i * 4, i * 2654435761);
      expect(table.find(buffer, i * 4, i * 4 + 4)).toBeUndefined();
      if (table.keep(buffer, i * 4, i * 4 + 4, i)) kept++;
    }
    // A full bucket by chance alone refuses a key now and then, never many.
    expect(kept).toBeGreaterThan(4990);
    expect(table.size).toBe(kept);
    let found = 0;
    for (let i = 0; i < 5000; i++) {
      const value = table.find(buffer, i * 4, i * 4 + 4);
      if (value !== undefined) {
        expect(value).toBe(i);
        found++;
      }
    }
    expect(found).toBe(kept);
  });

  test('bytes with the same hash are told apart, and a full bucket refuses the next', () => {
    // "k3pvu" and "ke3ea" have the same 32-bit FNV-1a hash (length mixed in), so the same bucket
    // whatever the table's size: only the byte compare tells them apart.
    const a = ascii('k3pvu');
    const b = ascii('ke3ea');
    const roomy = new BytesTable<string>({ most: 16, longest: 8 });
    expect(roomy.keep(a, 0, 5, 'A')).toBe(true);
    expect(roomy.find(b, 0, 5)).toBeUndefined();
    expect(roomy.keep(b, 0, 5, 'B')).toBe(true);
    expect([roomy.find(a, 0, 5), roomy.find(b, 0, 5)]).toEqual(['A', 'B']);

    const tight = new BytesTable<string>({ most: 16, longest: 8, bucket: 1 });
    expect(tight.keep(a, 0, 5, 'A')).toBe(true);
    expect(tight.keep(b, 0, 5, 'B')).toBe(false);
    expect([tight.find(a, 0, 5), tight.find(b, 0, 5), tight.size]).toEqual(['A', undefined, 1]);
  });

  test('a key is copied when kept: changing the buffer after changes nothing found', () => {
    const table = new BytesTable<string>({ most: 4, longest: 4 });
    const buffer = ascii('xabcx');
    expect(table.find(buffer, 1, 4)).toBeUndefined();
    table.keep(buffer, 1, 4, 'abc');
    buffer[2] = 0x7a;
    expect(table.find(buffer, 1, 4)).toBeUndefined();
    expect(table.find(ascii('abc'), 0, 3)).toBe('abc');
    // Past `longest`: neither found nor kept; an empty key is a key.
    expect(table.keep(ascii('abcde'), 0, 5, 'long')).toBe(false);
    expect(table.keep(buffer, 2, 2, 'empty')).toBe(true);
    expect(table.find(ascii('q'), 1, 1)).toBe('empty');
  });

  test('options are checked', () => {
    expect(() => new BytesTable({ most: 0, longest: 4 })).toThrow('most must be an integer from 1');
    expect(() => new BytesTable({ most: 4, longest: 2000 })).toThrow('longest must be an integer from 0 to 1024');
    expect(() => new BytesTable({ most: 4, longest: 4, bucket: 0 })).toThrow('bucket must be an integer from 1 to 64');
  });
});
