/**
 * The nesting guard of the JSON direction (internal, not exported from the package): io-ts validates
 * and encodes by recursion, and a recursive codec (`lazy`) recurses once a level of the document, so
 * every `lazy` level counts here and going past the limit stops before the call stack runs out.
 *
 * One counter for the whole process is enough: validation and encoding are synchronous, `fromJson` and
 * `toJson` set the limit for their call and put the previous one back, and every level leaves through
 * `finally`, so the count is right again even after a throw.
 *
 * @module
 */
import { DEFAULT_MAX_DEPTH } from './options.js';

let limit = DEFAULT_MAX_DEPTH;
let depth = 0;

/** The limit in force (the default outside `fromJson` / `toJson` calls that set one). */
export function jsonDepthLimit(): number {
  return limit;
}

/** Whether one more level would go past the limit. */
export function jsonTooDeep(): boolean {
  return depth >= limit;
}

/** Runs `run` one level deeper. The caller has checked {@link jsonTooDeep}. */
export function jsonDescend<T>(run: () => T): T {
  depth++;
  try {
    return run();
  } finally {
    depth--;
  }
}

/** Runs `run` with a nesting limit (`undefined`: the default), restoring the previous one after. */
export function withJsonDepthLimit<T>(maxDepth: number | undefined, run: () => T): T {
  const previous = limit;
  limit = maxDepth ?? DEFAULT_MAX_DEPTH;
  try {
    return run();
  } finally {
    limit = previous;
  }
}

/** The message of a too-deep document or value. */
export function tooDeepMessage(): string {
  return `nesting deeper than ${limit} levels`;
}
