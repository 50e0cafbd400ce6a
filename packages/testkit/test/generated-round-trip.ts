// What the testkit's tests of `arbitrary` check of every generated value: it encodes, the bytes
// decode, and the decoded value encodes to the same bytes again.
import * as E from 'fp-ts/lib/Either';
import { type Codec, decode, encode } from '@savekit/core';

/** Encodes `value`, decodes the bytes and encodes the result, expecting the same bytes; returns the decoded value. */
export function encodesBackTheSame<A>(codec: Codec<A>, value: A): A {
  const bytes = encode(codec, value);
  if (E.isLeft(bytes)) throw new Error(`generated value does not encode: ${bytes.left.toString()}`);
  const back = decode(codec, bytes.right);
  if (E.isLeft(back)) throw new Error(`does not decode: ${back.left.toString()}`);
  const again = encode(codec, back.right.value);
  expect(E.isRight(again) && again.right).toEqual(bytes.right);
  return back.right.value;
}
