// The laws of UQM's named codecs — read(write(v)) = v and write(read(b)) = b, and the JSON form —
// with values derived from the codecs by testkit's `arbitrary`: the save name (`restText`), the
// queues, the GmSt chunk by revision, the starinfo.dat image (`starInfo`, a `windowsAt` declaration) and
// `starInfoFile` (a switch over it), and defgrp.dat both ways it is read (`definedGroupsFile`,
// `readDefinedGroups`: codecs of their own).
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, encode, fromJson, toJson, type AnyCodec, type Codec } from '@savekit/core';
import {
  definedGroupsFile,
  gameStateChunk,
  groupHeader,
  readDefinedGroups,
  stateBattleGroup,
  starInfoFile,
  writeDefinedGroups,
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

/** Every cut of `input` from `from` bytes short of its end is a DecodeError with a path and an offset inside the bytes. */
function expectCutsRefused<A>(
  read: (bytes: Uint8Array) => E.Either<{ name: string; path: unknown; offset: number }, A>,
  input: Uint8Array,
  from = 0,
) {
  for (let cut = from; cut < input.length; cut++) {
    const out = read(input.subarray(0, cut));
    if (E.isRight(out)) throw new Error(`a cut at ${cut} of ${input.length} bytes decoded`);
    expect(out.left.name).toBe('DecodeError');
    expect(Array.isArray(out.left.path)).toBe(true);
    expect(out.left.offset).toBeGreaterThanOrEqual(0);
    expect(out.left.offset).toBeLessThanOrEqual(cut);
  }
}

test('starInfoFile: either record size, chosen by structure, written back as its own', () => {
  const values = arbitrary(starInfoFile).filter(encodes(starInfoFile));
  const drawn = fc.sample(values, { numRuns: 200, seed: 1 });
  expect(drawn.some((info) => info.systems.some((s) => s.worlds.some((w) => w.partial !== undefined)))).toBe(true);
  expect(
    drawn.some(
      (info) => info.systems.length > 0 && info.systems.every((s) => s.worlds.every((w) => w.partial === undefined)),
    ),
  ).toBe(true);
  expect(checkLaws(starInfoFile, values)).toBeGreaterThan(0);
});

test('definedGroupsFile: blocks of groups and stale bytes, offsets laid out again; cuts are typed errors', () => {
  const values = arbitrary(definedGroupsFile);
  const drawn = fc.sample(values, { numRuns: 200, seed: 1 });
  // The model draws several blocks, empty slots and stale bytes, not only the samples.
  expect(drawn.some((f) => f.blocks.length > 1 && f.blocks.some((b) => b.stale !== undefined))).toBe(true);
  expect(drawn.some((f) => f.blocks.some((b) => b.groups.includes(null)))).toBe(true);
  expect(checkLaws(definedGroupsFile, values)).toBeGreaterThan(0);
  const file = drawn.find((f) => f.blocks.length > 0)!;
  // Cut inside the first block's header (stale bytes cut short would still be a file).
  // The reserved byte alone is a file without blocks: cuts from 2 bytes on.
  expectCutsRefused(
    (bytes) => decode(definedGroupsFile, bytes),
    encoded(definedGroupsFile, file).subarray(0, 1 + 268),
    2,
  );
});

test('readDefinedGroups: the headers and groups writeDefinedGroups laid out, read back; cuts are typed errors', () => {
  const header = arbitrary(groupHeader);
  const group = fc.option(arbitrary(stateBattleGroup), { nil: null });
  const encounters = fc.uniqueArray(
    fc.record({ id: fc.integer({ min: 1, max: 14 }), header, groups: fc.array(group, { minLength: 1, maxLength: 4 }) }),
    { selector: (e) => e.id, maxLength: 5 },
  );
  let checked = 0;
  fc.assert(
    fc.property(encounters, (list) => {
      const written = writeDefinedGroups(
        list.map((e) => ({ ...e, header: { ...e.header, numGroups: e.groups.length } })),
      );
      const read = readDefinedGroups(written.bytes, written.offsets);
      if (E.isLeft(read)) throw read.left;
      expect(read.right.map((d) => [d.id, d.at, d.groups])).toEqual(
        [...list].sort((a, b) => a.id - b.id).map((e) => [e.id, written.offsets.get(e.id), e.groups]),
      );
      checked++;
    }),
    { numRuns: 100 },
  );
  expect(checked).toBe(100);
  const one = writeDefinedGroups([
    {
      id: 3,
      header: fc.sample(header, { numRuns: 1, seed: 2 })[0]!,
      groups: [
        { raceType: 1, ships: fc.sample(arbitrary(stateBattleGroup), { numRuns: 5, seed: 3 }).flatMap((g) => g.ships) },
      ],
    },
  ]);
  expectCutsRefused((bytes) => readDefinedGroups(bytes, one.offsets), one.bytes);
});
