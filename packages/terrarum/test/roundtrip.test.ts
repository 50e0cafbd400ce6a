// The conformance kit's round-trip and fuzz suites on Terrarum files derived from the declaration by
// testkit's `arbitrary(terrarumFile)`: TEVd disks of every layout (2017, 2023, TVDA) with entry trees,
// world meta files, TEMD worlds in both byte orders, raw and gzipped, and JSON-era worlds with a
// terrain layer. The models that make this possible are declared on the codecs (a disk's entries as
// a tree, a TEMD world's size and tiles, a JSON world's text). A save folder is no codec (it is
// `decodeSave`/`encodeSave` over a tree): its parts are, and the design doc's save covers it.
import fc from 'fast-check';
import { encodeOrThrow } from '@savekit/core';
import { format, terrarumFile, type TevdDisk } from '@savekit/terrarum';
import { arbitrary, fuzzSuite, roundTripSuite } from '@savekit/testkit';

const files = arbitrary(terrarumFile);

test('the round-trip suite on 150 derived files (document paths checked)', () => {
  const report = roundTripSuite(format, { codec: terrarumFile, arbitraries: files as never, numRuns: 150 });
  expect(report.failures).toEqual([]);
});

test('the fuzz suite seeded with derived files gives only DecodeErrors', () => {
  const seeds = fc.sample(files, { numRuns: 6, seed: 18 }).map((file) => encodeOrThrow(terrarumFile, file));
  expect(fuzzSuite(format, { seeds }).failures).toEqual([]);
});

test('derived files cover every kind of file, disk layout, entry kind and TEMD form', () => {
  const seen = new Set<string>();
  for (const file of fc.sample(files, { numRuns: 400, seed: 18 })) {
    seen.add(file.kind);
    if (file.kind === 'disk') {
      const disk: TevdDisk = file.disk;
      seen.add(disk.layout);
      for (const entry of disk.entries) {
        seen.add(entry.content.kind);
        if (entry.parent !== '0') seen.add('nested entry');
      }
    }
    if (file.kind === 'temd') {
      const world = file.temd.gzip ? file.temd.world.value : file.temd.world;
      seen.add(`temd ${world.byteOrder}${file.temd.gzip ? ' gzip' : ''} ${world.layerCount} layers`);
    }
  }
  expect([...seen].sort()).toEqual(
    expect.arrayContaining([
      'compressed',
      'directory',
      'disk',
      'file',
      'meta',
      'nested entry',
      'symlink',
      'temd',
      'temd be 3 layers',
      'temd le 4 layers',
      'temd le gzip 3 layers',
      'tevd-2017',
      'tevd-2023',
      'tvda',
      'world',
    ]),
  );
});
