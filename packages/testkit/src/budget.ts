/**
 * Test budgets: one switch, `SAVEKIT_TEST_PROFILE`, picks how big the slow tests run. `quick` (the
 * default) keeps every test and every assertion but shrinks their sizes — fewer fuzz iterations,
 * fewer kills, 50,000-node graphs instead of 1,000,000 — so a whole run stays short enough to
 * repeat after each change; `heavy` runs the full sizes (what CI runs). Each slow test states both
 * of its sizes in one place:
 *
 * ```ts
 * const kills = testBudget({ quick: 20, heavy: 200 });
 * ```
 *
 * @module
 */

/** The size of a test run: `quick` (the default) or `heavy` (the full budgets, as CI runs them). */
export type TestProfile = 'quick' | 'heavy';

/** One test's size under each profile. */
export interface TestBudget<T> {
  /** The size under `SAVEKIT_TEST_PROFILE=quick`, and when the variable is unset. */
  readonly quick: T;
  /** The size under `SAVEKIT_TEST_PROFILE=heavy`. */
  readonly heavy: T;
}

/**
 * The profile named by `SAVEKIT_TEST_PROFILE`: `quick` when it is unset or empty. Any other value
 * throws, so a misspelt `heavy` cannot pass for a full run while running the small sizes.
 */
export function testProfile(): TestProfile {
  // globalThis.process: the kit may be bundled for a browser, where there is no environment.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.SAVEKIT_TEST_PROFILE;
  if (value === undefined || value === '' || value === 'quick') return 'quick';
  if (value === 'heavy') return 'heavy';
  throw new Error(`SAVEKIT_TEST_PROFILE is "${value}": use quick or heavy`);
}

/** This run's size of one test: `budget.quick` or `budget.heavy`, after {@link testProfile}. */
export function testBudget<T>(budget: TestBudget<T>): T {
  return budget[testProfile()];
}
