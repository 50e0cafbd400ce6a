// Bad input gives a DecodeError with a path and an offset: truncated saves, chunk sizes past the end,
// state files with overlapping offsets or offsets into a header, NumGroups over 64, LZHUF streams that
// never end or claim 4 GB — and mutations of the real saves (100,000 in the heavy test profile, 10,000
// in the quick one) give nothing else.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, DecodeError, decodeOrThrow, encodeOrThrow, type Codec, type DecodeOptions } from '@savekit/core';
import {
  format,
  legacySave,
  randomGroups,
  readDefinedGroups,
  saveToLegacy,
  starInfo,
  uqmDocument,
  uqmSave,
  stateBattleGroup,
} from '@savekit/uqm';
import { arbitrary, defaultIterations, fuzzSuite } from '@savekit/testkit';
import { realSavesFor } from './corpus';
import { groupHeaderBytes } from './state-files';

const { saves, describe: maybe } = realSavesFor('UQM bad input');

function fails<A>(codec: Codec<A>, bytes: Uint8Array, options?: DecodeOptions): DecodeError {
  const result = decode(codec, bytes, { trailing: 'keep', ...options });
  if (E.isRight(result)) throw new Error('decoded without an error');
  expect(result.left).toBeInstanceOf(DecodeError);
  expect(Number.isInteger(result.left.offset)).toBe(true);
  return result.left;
}

const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];

/** A randgrp.dat: header (NumGroups, star 82), then the given groups at the given offsets. */
function randgrp(numGroups: number, offsets: number[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(groupHeaderBytes(numGroups, offsets));
  const group = encodeOrThrow(stateBattleGroup, {
    raceType: 4,
    ships: [
      {
        race: 4,
        ship: {
          unused0: 0,
          captainsNameIndex: 1,
          pad3: 0,
          unused4: 0,
          raceId: 4,
          index: 0,
          crewLevel: 8,
          maxCrew: 8,
          energyLevel: 0,
          maxEnergy: 12,
          unused12: 0,
          unused14: 0,
        },
      },
    ],
  });
  for (const at of offsets) if (at >= 268 && at + group.length <= size) bytes.set(group, at);
  return bytes;
}

describe('state files', () => {
  test('randgrp.dat: a good one decodes; overlapping groups, an offset into the header, NumGroups over 64 do not', () => {
    expect(E.isRight(decode(randomGroups, randgrp(2, [268, 287], 306)))).toBe(true);
    expect(fails(randomGroups, randgrp(2, [268, 280], 306)).message).toMatch(
      /group 2 at 280 overlaps group 1 \(268–287\)/,
    );
    expect(fails(randomGroups, randgrp(1, [100], 306)).message).toMatch(/points into the root value/);
    expect(fails(randomGroups, randgrp(65, [268], 306)).message).toMatch(/NumGroups 65 is more than the 64 slots/);
    expect(fails(randomGroups, randgrp(1, [400], 306)).message).toMatch(/400/);
  });

  test('starinfo.dat: an offset into the table, past the end, or two stars on one block', () => {
    const table = (entries: Array<[number, number]>, size: number) => {
      const bytes = new Uint8Array(size);
      for (const [star, offset] of entries) bytes.set(le32(offset), star * 4);
      return bytes;
    };
    expect(decodeOrThrow(starInfo(12), table([[82, 2008]], 2008 + 24)).systems).toEqual([
      {
        star: 82,
        worlds: [
          { mineral: 0, energy: 0, bio: 0 },
          { mineral: 0, energy: 0, bio: 0 },
        ],
      },
    ]);
    const into = fails(starInfo(12), table([[82, 100]], 2008 + 24));
    expect([into.message, into.offset, into.path]).toEqual([
      'star 82: offset 100 points into the offset table',
      328,
      // The table is layout, not document: the error is at the image (the document value), at the
      // entry's offset, and names the star.
      [],
    ]);
    expect(fails(starInfo(12), table([[82, 5000]], 2008 + 24)).message).toMatch(/past the end/);
    expect(
      fails(
        starInfo(12),
        table(
          [
            [82, 2008],
            [90, 2008],
          ],
          2008 + 24,
        ),
      ).message,
    ).toMatch(/share the block at 2008/);
    expect(fails(starInfo(12), table([[82, 2008]], 2008 + 20)).message).toMatch(
      /its block of 20 bytes is not whole 12-byte records/,
    );
  });

  test('defgrp.dat: headers over each other or over the reserved byte, groups outside the file', () => {
    const header = (at: number, group: number) => ({ at, bytes: groupHeaderBytes(1, [group]) });
    const file = (...parts: Array<{ at: number; bytes: Uint8Array }>) => {
      const out = new Uint8Array(Math.max(...parts.map((p) => p.at + p.bytes.length), 1) + 2);
      for (const p of parts) out.set(p.bytes, p.at);
      return out;
    };
    const good = file(header(1, 269));
    expect(E.isRight(readDefinedGroups(good, new Map([[12, 1]])))).toBe(true);
    const overlap = readDefinedGroups(
      file(header(1, 600), header(200, 620), { at: 660, bytes: new Uint8Array(4) }),
      new Map([
        [12, 1],
        [4, 200],
      ]),
    );
    expect(E.isLeft(overlap) && overlap.left.message).toMatch(/overlaps/);
    const atZero = readDefinedGroups(file(header(0, 268)), new Map([[12, 0 + 1]]));
    expect(E.isLeft(atZero)).toBe(true);
    const outside = readDefinedGroups(file(header(1, 9999)), new Map([[12, 1]]));
    expect(E.isLeft(outside) && outside.left.message).toMatch(/past the end/);
  });
});

maybe('bad saves', () => {
  test('truncated at every offset: a DecodeError with path and offset', () => {
    for (const bytes of saves.values()) {
      for (let cut = 0; cut < bytes.length; cut++) {
        const result = format.decode(bytes.subarray(0, cut));
        expect(E.isLeft(result) && result.left instanceof DecodeError).toBe(true);
      }
    }
  });

  test('a chunk size past the end', () => {
    const bytes = saves.get('01-Start.uqmsave.dat')!.slice();
    // The GlSt chunk follows Summ(165): its size field at 4 + 8 + 165 + 4.
    bytes.set(le32(0x7fffffff), 4 + 8 + 165 + 4);
    const error = fails(uqmSave, bytes);
    expect(error.message).toMatch(/chunk GlSt: length 2147483647 is more than the \d+ bytes left/);
    expect(error.path).toEqual(['chunks', 0]);
  });

  test('a 0.7 save whose LZHUF stream claims 4 GB, or never ends', () => {
    const legacy = encodeOrThrow(legacySave, saveToLegacy(decodeOrThrow(uqmSave, saves.get('uqmsave.12')!)));
    const huge = legacy.slice();
    huge.set(le32(0xffffffff), 164);
    const claim = fails(legacySave, huge);
    expect([claim.offset, claim.message]).toEqual([
      164,
      'decoded length 4294967295 is over the limit of 268435456 bytes',
    ]);
    const cut = fails(legacySave, legacy.subarray(0, legacy.length - 40));
    expect(cut.message).toMatch(/lzhuf: the code ends before its \d+ bytes/);
    expect(cut.path).toEqual(['stream', 'value']);
    // A length the code could not hold: refused before decoding anything.
    const long = legacy.slice();
    long.set(le32(200 << 20), 164);
    expect(fails(legacySave, long, { maxTotalOutput: 1 << 30 }).message).toMatch(/cannot hold/);
    // With the default budget (64 MiB for a small file) the claim is refused first, by the budget.
    expect(fails(legacySave, long)).toMatchObject({ budget: 'output', code: 'budget-exceeded' });
  });

  test(`the conformance kit: ${defaultIterations()} mutations of the real and derived saves give only DecodeErrors`, () => {
    const legacy = encodeOrThrow(legacySave, saveToLegacy(decodeOrThrow(uqmSave, saves.get('uqmsave.12')!)));
    // Seeds: the real saves, a 0.7 one made from them, and saves derived from the document codec (every
    // magic, and 0.7).
    const derived = fc
      .sample(arbitrary(uqmDocument), { numRuns: 8, seed: 18 })
      .map((save) => encodeOrThrow(uqmDocument, save));
    const report = fuzzSuite(format, { seeds: [...saves.values(), legacy, ...derived] });
    expect(report.failures).toEqual([]);
  });
});
