// The conformance kit's round-trip suite on every kind of UQM save: the real 0.8 saves, and the 0.7
// and MMV4 saves made from them (decode, re-encode, JSON dump and build, sniff).
import fc from 'fast-check';
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  format,
  legacySave,
  saveToLegacy,
  setCrew,
  setFuel,
  setResourceUnits,
  toMegaMod,
  uqmSave,
  type UqmDocument,
} from '@savekit/uqm';
import { roundTripSuite } from '@savekit/testkit';
import { realSaves, warnIfAbsent } from './corpus';

warnIfAbsent('UQM round trips');
const saves = realSaves();
const maybe = saves.size > 0 ? test : test.skip;

maybe('the round-trip suite: real, 0.7 and MMV4 saves, and 200 edited ones', () => {
  const vanilla = [...saves.values()].map((b) => decodeOrThrow(uqmSave, b));
  const samples = [
    ...saves.values(),
    ...vanilla.map((s) => encodeOrThrow(legacySave, saveToLegacy(s))),
    ...vanilla.map((s) => encodeOrThrow(uqmSave, toMegaMod(s))),
  ];
  const edited: fc.Arbitrary<UqmDocument> = fc
    .tuple(
      fc.integer({ min: 0, max: vanilla.length - 1 }),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom('0.8', '0.7', 'MMV4'),
    )
    .map(([i, ru, fuel, crew, kind]) => {
      const save = decodeOrThrow(uqmSave, encodeOrThrow(uqmSave, vanilla[i]!));
      setResourceUnits(save, ru);
      setFuel(save, fuel);
      setCrew(save, crew);
      return kind === '0.7' ? saveToLegacy(save) : kind === 'MMV4' ? toMegaMod(save) : save;
    });
  const report = roundTripSuite(format, { samples, arbitraries: edited, numRuns: 200 });
  expect(report.failures).toEqual([]);
});
