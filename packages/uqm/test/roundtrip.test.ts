// The conformance kit's round-trip suite on every kind of UQM save: the real 0.8 saves, and the 0.7
// and MMV4 saves made from them (decode, re-encode, JSON dump and build, sniff), and 0.8 and MegaMod
// saves (every magic) derived from the codec by testkit's `arbitrary` — the chunk sequence the game
// writes (`GlSt`, `GmSt`, …, `Star`) is the model the codec declares.
import fc from 'fast-check';
import { uqmSave, format } from '@savekit/uqm';
import { arbitrary, roundTripSuite } from '@savekit/testkit';
import { everyKind, realSavesFor } from './corpus';

const { saves, test: maybe } = realSavesFor('UQM round trips');
const derived = arbitrary(uqmSave);

maybe('the round-trip suite: real, 0.7 and MMV4 saves, and 200 derived ones', () => {
  const { samples } = everyKind(saves);
  const report = roundTripSuite(format, { samples, arbitraries: derived, numRuns: 200 });
  expect(report.failures).toEqual([]);
});

test('derived saves have every magic and the chunk sequence the game writes', () => {
  const drawn = fc.sample(derived, { numRuns: 200, seed: 18 });
  expect(new Set(drawn.map((save) => save.magic))).toEqual(new Set(['UMS\x01', 'MMV4', 'MMV3', 'MEGA']));
  for (const save of drawn) {
    const ids = save.chunks.map((chunk) => chunk.id);
    expect(ids.slice(0, 2)).toEqual(['GlSt', 'GmSt']);
    expect(ids.at(-1)).toBe('Star');
  }
  expect(drawn.some((save) => save.chunks.length > 3)).toBe(true);
});
