// What encodes must decode (issue 17, item 13): every golden file's document, changed in one place
// of its JSON form at a time (names emptied or made to collide, markers of 3 or 5 letters, counts
// out of range, references past their array, …), either is refused — by fromJson with a JsonError,
// by encode with an EncodeError at the path — or encodes to a file that decodes to the same document.
import { format } from '@savekit/edge';
import { encodeSuite, testBudget } from '@savekit/testkit';
import { goldensFor } from './corpus';

const { files, maybe } = goldensFor('EDGE encode suite');

maybe('the conformance kit: whatever encodes, decodes to the same document', () => {
  test.each(files.map((f) => [f.name, f.bytes] as const))('%s', (_name, bytes) => {
    const report = encodeSuite(format, {
      samples: [bytes],
      runs: testBudget({ quick: 150, heavy: 2000 }),
      // The chunks' stored bytes are kept while unchanged and made again when a chunk changes: a
      // stored form is not part of what a document says, only of how its file was compressed.
      // An Arry chunk's count is written from its Data chunk's elements (so the two cannot disagree).
      normalises: ['chunks[*].body.stored', 'chunks[*].body.value.count'],
    });
    expect(report.failures).toEqual([]);
  });
});
