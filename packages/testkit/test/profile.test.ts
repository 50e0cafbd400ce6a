// The README's promises about the test profile: `SAVEKIT_TEST_PROFILE` is quick (the default) or
// heavy, any other value throws (a misspelt `heavy` cannot pass for a full run), and
// `SAVEKIT_FUZZ_ITERATIONS` overrides the fuzz count whatever the profile.
import { defaultIterations, testBudget, testProfile } from '../src/index';

const saved = { profile: process.env.SAVEKIT_TEST_PROFILE, iterations: process.env.SAVEKIT_FUZZ_ITERATIONS };
afterEach(() => {
  for (const [key, value] of [
    ['SAVEKIT_TEST_PROFILE', saved.profile],
    ['SAVEKIT_FUZZ_ITERATIONS', saved.iterations],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

test('quick by default and when empty; heavy when asked; anything else throws', () => {
  delete process.env.SAVEKIT_TEST_PROFILE;
  expect([testProfile(), testBudget({ quick: 1, heavy: 2 })]).toEqual(['quick', 1]);
  process.env.SAVEKIT_TEST_PROFILE = '';
  expect(testProfile()).toBe('quick');
  process.env.SAVEKIT_TEST_PROFILE = 'heavy';
  expect([testProfile(), testBudget({ quick: 1, heavy: 2 })]).toEqual(['heavy', 2]);
  for (const wrong of ['heavey', 'Heavy', 'full', 'quick ']) {
    process.env.SAVEKIT_TEST_PROFILE = wrong;
    expect(() => testProfile()).toThrow(/use quick or heavy/);
    expect(() => testBudget({ quick: 1, heavy: 2 })).toThrow(/use quick or heavy/);
  }
});

test('the fuzz count follows the profile unless SAVEKIT_FUZZ_ITERATIONS says otherwise', () => {
  delete process.env.SAVEKIT_FUZZ_ITERATIONS;
  process.env.SAVEKIT_TEST_PROFILE = 'quick';
  const quick = defaultIterations();
  process.env.SAVEKIT_TEST_PROFILE = 'heavy';
  expect(defaultIterations()).toBeGreaterThan(quick);
  process.env.SAVEKIT_FUZZ_ITERATIONS = '123';
  expect(defaultIterations()).toBe(123);
  process.env.SAVEKIT_TEST_PROFILE = 'quick';
  expect(defaultIterations()).toBe(123);
  // Not a positive whole number: the profile's count.
  for (const ignored of ['0', '-5', '1.5', 'many']) {
    process.env.SAVEKIT_FUZZ_ITERATIONS = ignored;
    expect(defaultIterations()).toBe(quick);
  }
});
