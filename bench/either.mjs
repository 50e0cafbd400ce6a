// The benchmarks take Either results apart the short way: a Left is a bug in the case, not a
// measurement, so it throws.
import * as E from 'fp-ts/lib/Either.js';

/** The Right of `result`; throws its Left. */
export const must = (result) => {
  if (E.isLeft(result)) throw result.left;
  return result.right;
};
