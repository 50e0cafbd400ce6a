// Whatever encodes, decodes — to the same document: the conformance kit's encode suite on the real
// 0.8 saves and the 0.7 and MMV4 saves made from them (issue 17, item 13): testBudget({ quick: 200,
// heavy: 1000 }) mutations of each (15 documents).
import { format } from '@savekit/uqm';
import { encodeSuite, testBudget } from '@savekit/testkit';
import { everyKind, realSavesFor } from './corpus';

const { saves, test: maybe } = realSavesFor('UQM encode suite');

maybe('the encode suite: real 0.8 saves, and 0.7 and MMV4 saves made from them', () => {
  const { samples } = everyKind(saves);
  // `stored` is the file's LZHUF code, a cache: a changed stream is compressed afresh, so it changes.
  const report = encodeSuite(format, {
    samples,
    // A randgrp.dat pointer's `at` is layout: one renamed away is planned afresh, as a pointer without one.
    // (and the bytes it leaves behind are unclaimed).
    normalises: [
      'stream.stored',
      'stream.value.randgrp.root.groups[*]',
      'stream.value.randgrp.root.list',
      'stream.value.randgrp.unclaimed',
    ],
    runs: testBudget({ quick: 200, heavy: 1000 }),
  });
  expect(report.failures).toEqual([]);
});
