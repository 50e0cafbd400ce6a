// The conformance kit's round-trip suite on every kind of UQM save: the real 0.8 saves, and the 0.7
// and MMV4 saves made from them (decode, re-encode, JSON dump and build, sniff), and real saves edited
// with values derived from the codecs (testkit's `arbitrary`): the SIS state, the names, the game state.
import fc from 'fast-check';
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  chunkOf,
  format,
  gameState,
  name16,
  saveToLegacy,
  sisCore,
  toMegaMod,
  uqmSave,
  type UqmDocument,
} from '@savekit/uqm';
import { arbitrary, roundTripSuite } from '@savekit/testkit';
import { everyKind, realSavesFor } from './corpus';

const { saves, test: maybe } = realSavesFor('UQM round trips');

maybe('the round-trip suite: real, 0.7 and MMV4 saves, and 200 edited ones', () => {
  const { vanilla, samples } = everyKind(saves);
  const edited: fc.Arbitrary<UqmDocument> = fc
    .record({
      save: fc.constantFrom(...vanilla),
      sis: arbitrary(sisCore),
      shipName: arbitrary(name16),
      state: arbitrary(gameState(0)),
      kind: fc.constantFrom('0.8', '0.7', 'MMV4'),
    })
    .map(({ save: original, sis, shipName, state, kind }) => {
      const save = decodeOrThrow(uqmSave, encodeOrThrow(uqmSave, original));
      save.summary.sis = sis;
      save.summary.shipName = shipName;
      // The 0.7 form places defgrp.dat blocks at the game state's group offsets: it keeps the real ones.
      if (kind !== '0.7') chunkOf(save, 'GmSt')!.body = state;
      return kind === '0.7' ? saveToLegacy(save) : kind === 'MMV4' ? toMegaMod(save) : save;
    });
  const report = roundTripSuite(format, { samples, arbitraries: edited, numRuns: 200 });
  expect(report.failures).toEqual([]);
});
