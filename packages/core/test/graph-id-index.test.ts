// IdIndex: whatever ids are set (runs, far apart, negative, fractional, set twice), it answers as a
// Map would; pages are only made while ids are dense enough, the rest go to its map.
import fc from 'fast-check';
import { IdIndex } from '../src/graph';

const id = fc.oneof(
  fc.nat(5000),
  fc.integer({ min: 0, max: 0x7fffffff }),
  fc.integer({ min: -50, max: -1 }),
  fc.constantFrom(2 ** 31, 2 ** 40, 0.5, Number.NaN, -0),
);

test('answers every get as a Map given the same sets does', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(id, fc.nat(0x7ffffffe)), { maxLength: 300 }),
      fc.array(id, { maxLength: 50 }),
      (sets, probes) => {
        const index = new IdIndex();
        const model = new Map<number, number>();
        for (const [key, slot] of sets) {
          index.set(key, slot);
          model.set(key, slot);
        }
        for (const key of [...model.keys(), ...probes]) expect(index.get(key)).toBe(model.get(key));
      },
    ),
    { numRuns: 300, seed: 23 },
  );
});

test('a run of a million ids, and ids far apart, are all found', () => {
  const index = new IdIndex();
  for (let i = 0; i < 1_000_000; i++) index.set(i * 3 + 7, i);
  for (let i = 0; i < 2000; i++) index.set(i * 1_000_003 + 5_000_000, i);
  expect(index.get(7)).toBe(0);
  expect(index.get(999_999 * 3 + 7)).toBe(999_999);
  expect(index.get(8)).toBeUndefined();
  expect(index.get(1999 * 1_000_003 + 5_000_000)).toBe(1999);
});

test('a slot that is not a whole number from 0 to 2³¹ − 2 is a RangeError', () => {
  const index = new IdIndex();
  for (const slot of [-1, 0.5, 2 ** 31 - 1, Number.NaN]) expect(() => index.set(1, slot)).toThrow(RangeError);
  expect(index.get(1)).toBeUndefined();
});
