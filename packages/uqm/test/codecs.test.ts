// The laws of UQM's named codecs — read(write(v)) = v and write(read(b)) = b, and the JSON form —
// with values derived from the codecs by testkit's `arbitrary`: the save name (`restText`), the
// queues, the GmSt chunk by revision, and the starinfo.dat image (`starInfo`, a codec of its own).
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, encode, fromJson, toJson, type AnyCodec, type Codec } from '@savekit/core';
import {
  gameStateChunk,
  MEGAMOD_STATE_SIZES,
  queue,
  raceEntry,
  restText,
  shipEntry,
  starInfo,
  type RecordSize,
} from '@savekit/uqm';
import { arbitrary } from '@savekit/testkit';

const RUNS = 300;

function encoded<A>(codec: Codec<A>, value: A): Uint8Array {
  const result = encode(codec, value);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

const encodes =
  <A>(codec: Codec<A>) =>
  (value: A) =>
    E.isRight(encode(codec, value));

/** Both laws and the JSON round trip; byte strings tried: encodings with a byte changed or cut. */
function checkLaws<A>(codec: Codec<A>, values: fc.Arbitrary<A>): number {
  fc.assert(
    fc.property(values, (value) => {
      const back = decode(codec, encoded(codec, value));
      if (E.isLeft(back)) throw back.left;
      expect(back.right.value).toEqual(value);
      const json = fromJson(codec, JSON.parse(JSON.stringify(toJson(codec, value))));
      if (E.isLeft(json)) throw json.left;
      expect(json.right).toEqual(value);
    }),
    { numRuns: RUNS },
  );
  let accepted = 0;
  const candidates = fc
    .tuple(values, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean())
    .map(([value, at, byte, cut]) => {
      const b = encoded(codec, value).slice();
      if (b.length === 0) return b;
      if (cut) return b.subarray(0, at % b.length);
      b[at % b.length] = byte;
      return b;
    });
  fc.assert(
    fc.property(candidates, (input) => {
      const read = decode(codec, input);
      if (E.isLeft(read)) {
        expect(read.left.name).toBe('DecodeError');
        return;
      }
      accepted++;
      expect(encoded(codec, read.right.value)).toEqual(input);
    }),
    { numRuns: RUNS },
  );
  return accepted;
}

test('restText: UTF-8 text as a string, other bytes as { bytes }', () => {
  expect(checkLaws(restText, arbitrary(restText, { maxLength: 16 }))).toBeGreaterThan(0);
  expect(decode(restText, Uint8Array.of(0xff, 0x41))).toMatchObject({
    right: { value: { bytes: Uint8Array.of(0xff, 0x41) } },
  });
});

test.each<[string, AnyCodec]>([
  ['ship', shipEntry],
  ['race', raceEntry],
])('queue of %s entries: whole entries to the end, the rest kept', (_, entry: AnyCodec) => {
  const codec = queue(entry);
  expect(checkLaws(codec, arbitrary(codec).filter(encodes(codec)))).toBeGreaterThan(0);
});

test('the GmSt chunk: each revision by its size, any other size kept as { raw }', () => {
  // The switch's arbitrary draws every revision (told apart by size) and raw states.
  const drawn = fc.sample(arbitrary(gameStateChunk), { numRuns: 300, seed: 1 });
  const sizes = new Set(drawn.filter((s) => !('raw' in s)).map((s) => encoded(gameStateChunk, s).length));
  expect(sizes.size).toBe(MEGAMOD_STATE_SIZES.length);
  expect(drawn.some((s) => 'raw' in s)).toBe(true);
  checkLaws(gameStateChunk, arbitrary(gameStateChunk));
});

test.each([12, 108] as const)('starInfo(%d): systems in block order, a lead kept', (size: RecordSize) => {
  const codec = starInfo(size);
  // The model draws several systems and a lead, not only the codec's samples.
  const drawn = fc.sample(arbitrary(codec), { numRuns: 200, seed: 1 });
  expect(drawn.some((info) => info.systems.length > 1 && info.lead !== undefined)).toBe(true);
  expect(checkLaws(codec, arbitrary(codec))).toBeGreaterThan(0);
});
