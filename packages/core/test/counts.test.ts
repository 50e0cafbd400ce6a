// Counts in text: the noun agrees with the number, thousands are grouped the same in every locale.
import { grouped, plural } from '../src/kit';

test('plural and grouped', () => {
  expect([
    plural(0, 'escort'),
    plural(1, 'escort'),
    plural(2, 'escort'),
    plural(1, 'entry', 'entries'),
    plural(3, 'entry', 'entries'),
  ]).toEqual(['0 escorts', '1 escort', '2 escorts', '1 entry', '3 entries']);
  expect([grouped(0), grouped(999), grouped(1000), grouped(1234567), grouped(-4096)]).toEqual([
    '0',
    '999',
    '1,000',
    '1,234,567',
    '-4,096',
  ]);
});
