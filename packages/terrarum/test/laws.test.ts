// The codec laws for the disk entries, on values derived from the declarations (testkit's
// `arbitrary`): decode(encode(v)) = v and its JSON round trip, and encode(decode(b)) = b for every
// byte string accepted — random bytes and encodings with bytes changed or cut.
import { decode, encodeOrThrow, type Codec } from '@savekit/core';
import { arbitrary } from '@savekit/testkit';
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { checkLaws } from '../../core/test/laws';
import { checkCutsRefused } from '../../zippy/test/cut-law';
import { temd, tevdEntry, tvdaEntry, type TevdEntry } from '../src';

describe.each([
  ['tevdEntry', tevdEntry],
  ['tvdaEntry', tvdaEntry],
] as Array<[string, Codec<TevdEntry>]>)('%s', (_, codec) => {
  const values = arbitrary(codec);

  test('round-trips every derived value, and every byte string it accepts, byte for byte', () => {
    // The core's law checks type their codecs by the core's sources, this package by its build (the
    // same module under jest): the cast bridges the two declarations of one type.
    expect(checkLaws(codec as never, values as never)).toBeGreaterThan(0);
  });

  test('derived values cover every content kind', () => {
    const kinds = new Set(fc.sample(values, 2000).map((e) => e.content.kind));
    const expected =
      codec === tvdaEntry ? ['directory', 'file', 'symlink'] : ['compressed', 'directory', 'file', 'symlink'];
    expect([...kinds].sort()).toEqual(expected);
  });
});

test('an entry with a type no content is declared for is refused at its content', () => {
  const entry = fc.sample(arbitrary(tevdEntry), 1)[0]!;
  const bytes = encodeOrThrow(tevdEntry, entry).slice();
  bytes[8] = 5; // the type byte, after the two int32 ids
  const result = decode(tevdEntry, bytes);
  expect(E.isLeft(result) && [result.left.path, result.left.message]).toEqual([
    ['content'],
    expect.stringMatching(/unknown entry type 0x5/),
  ]);
});

// TEMD: the planes are declared (high bytes, low nibbles, wire) and the tiles their join — so the
// laws hold on worlds drawn from the declaration's model, and a file cut anywhere is a DecodeError.
describe('temd', () => {
  const worlds = arbitrary(temd);

  test('round-trips every derived world, and every byte string it accepts, byte for byte', () => {
    expect(checkLaws(temd as never, worlds as never)).toBeGreaterThan(0);
  });

  test('a file cut anywhere is a DecodeError with a path and an offset inside the bytes', () => {
    expect(checkCutsRefused(temd as never, worlds as never).size).toBeGreaterThan(0);
  });
});
