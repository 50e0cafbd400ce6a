// The conformance kit's round-trip suite on every kind of UQM save: the real 0.8 saves, and the 0.7
// and MMV4 saves made from them (decode, re-encode, JSON dump and build, sniff), and 0.8, MegaMod
// (every magic) and 0.7 saves derived from the document codec by testkit's `arbitrary`, with every
// span and warning path checked against the document — the chunk sequence the game writes (`GlSt`,
// `GmSt`, …, `Star`) and the 0.7 summary's dates are the models the codecs declare.
import fc from 'fast-check';
import { format, isChunkedSave, uqmDocument } from '@savekit/uqm';
import { arbitrary, roundTripSuite } from '@savekit/testkit';
import { everyKind, realSavesFor } from './corpus';

const { saves, test: maybe } = realSavesFor('UQM round trips');
const derived = arbitrary(uqmDocument);

maybe('the round-trip suite: real, 0.7 and MMV4 saves, and 200 derived ones', () => {
  const { samples } = everyKind(saves);
  const report = roundTripSuite(format, { samples, arbitraries: derived, codec: uqmDocument, numRuns: 200 });
  expect(report.failures).toEqual([]);
});

test('derived saves are of every kind (every magic, and 0.7) and have the chunk sequence the game writes', () => {
  const drawn = fc.sample(derived, { numRuns: 200, seed: 18 });
  expect(new Set(drawn.map((save) => (isChunkedSave(save) ? save.magic : '0.7')))).toEqual(
    new Set(['UMS\x01', 'MMV4', 'MMV3', 'MEGA', '0.7']),
  );
  for (const save of drawn) {
    if (!isChunkedSave(save)) {
      const { year, month } = save.summary.summary;
      expect([year >= 2155 && year <= 2185, month >= 1 && month <= 12]).toEqual([true, true]);
      continue;
    }
    const ids = save.chunks.map((chunk) => chunk.id);
    expect(ids.slice(0, 2)).toEqual(['GlSt', 'GmSt']);
    expect(ids.at(-1)).toBe('Star');
  }
  expect(drawn.some((save) => isChunkedSave(save) && save.chunks.length > 3)).toBe(true);
});
