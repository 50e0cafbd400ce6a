/**
 * `@savekit/testkit`: the conformance kit for savekit format plugins.
 *
 * - {@link arbitrary}: fast-check arbitraries derived from any core codec;
 * - {@link roundTripSuite}: the decode/encode laws, JSON identity and sniffing, on samples and
 *   generated documents;
 * - {@link checkDecodedPaths}, {@link checkErrorPaths}: span, warning and error paths resolve in the document;
 * - {@link fuzzSuite}: mutated saves into the decoder, which may only answer with DecodeErrors;
 * - {@link encodeSuite}: whatever encodes decodes, to the same document, on documents mutated in one place;
 * - {@link budgetSuite}: named attacks, each decoded in a fresh process, held to CPU and memory limits;
 * - {@link scalingSuite}: doubling a structure at most about doubles its decode's cost;
 * - {@link hostileInputs}: the shared hostile inputs, and generators of bombs, size claims, deep and wide JSON;
 * - {@link testBudget}: one test's quick and heavy sizes, picked by `SAVEKIT_TEST_PROFILE`;
 * - {@link corpus}: a format's real files (`SAVEKIT_CORPUS`, or `shared/vectors-found` above the
 *   working directory), skipped with a warning where they are absent.
 *
 * The suites are runner-agnostic: they return a report and throw a `SuiteError` on failure, so they
 * work inside any test runner's test body (jest, vitest, mocha, node:test).
 *
 * @packageDocumentation
 */
export { arbitrary, type ArbitraryOptions } from './arbitrary.js';
export { testBudget, testProfile, type TestBudget, type TestProfile } from './budget.js';
export { roundTripSuite, type RoundTripOptions } from './round-trip.js';
export {
  checkDecodedPaths,
  checkErrorPaths,
  pathResolves,
  resolvePath,
  type ErrorPathOptions,
  type PathProblem,
} from './paths.js';
export { defaultIterations, fuzzInput, fuzzLoop, fuzzSuite, mutate, type FuzzOptions, type Random } from './fuzz.js';
export { fuzzSuiteIsolated, type IsolatedFuzzOptions } from './isolated.js';
export { formatOf } from './load.js';
export { hostileInputs, type HostileBytes } from './hostile.js';
export type { BombKind } from './bombs.js';
export {
  budgetSuite,
  budgetTable,
  type Attack,
  type AttackError,
  type AttackExpectation,
  type AttackOutcome,
  type AttackResult,
  type BudgetReport,
  type BudgetSuiteOptions,
} from './budget-suite.js';
export { scalingSuite, type ScalingOptions, type ScalingReport, type ScalingSize } from './scaling.js';
export { encodeSuite, type EncodeReport, type EncodeSuiteOptions } from './encode-suite.js';
export { corpus, corpusRoot, CORPUS_FOLDER, CORPUS_VARIABLE, type Corpus, type CorpusOptions } from './corpus.js';
export { prng, randomBytes, repetitive, text } from './data.js';
export { finish, preview, recordTotals, SuiteError, type SuiteFailure, type SuiteReport } from './report.js';
