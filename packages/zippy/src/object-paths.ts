/**
 * Object numbering in error paths: object graphs number objects 1…N, the document lists them from 0.
 *
 * @module
 * @internal
 */
import type { DecodeError, EncodeError } from '@savekit/core';

/**
 * `error` with the path of the value in the document. Object graphs number objects 1…N, as
 * references name them (and as restore errors and their messages do); the document lists them from
 * 0, so object `n` is `objects[n − 1]` — the one place that turns the one numbering into the other.
 */
export function documentError<Failure extends DecodeError | EncodeError>(error: Failure): Failure {
  const [head, n] = error.path;
  if (head !== 'objects' || typeof n !== 'number') return error;
  const copy = Object.create(Object.getPrototypeOf(error)) as Failure;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  Object.defineProperty(copy, 'path', { value: ['objects', n - 1, ...error.path.slice(2)], enumerable: true });
  return copy;
}
