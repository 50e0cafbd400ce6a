// The conformance kit's round-trip suite: the golden files, and saves derived from the codec by
// testkit's `arbitrary` — every variant, both layouts (engine definitions and the draft's Sdef/Adef
// containers, Stor chunks, design lumps), structure definitions, arrays of defined and undefined
// structures (kept raw), INDEX references within their arrays, thumbnails and unknown chunks. The
// models that make this possible are declared on the codecs (see `definedNameModel`).
import fc from 'fast-check';
import { isRawChunk } from '@savekit/core';
import { edgeSave, format, type EdgeSave } from '@savekit/edge';
import { arbitrary, roundTripSuite } from '@savekit/testkit';
import { goldens } from './corpus';

const saves = arbitrary(edgeSave);

test('the round-trip suite: the golden files and 150 derived saves', () => {
  const report = roundTripSuite(format, { samples: goldens().map((g) => g.bytes), arbitraries: saves, numRuns: 150 });
  expect(report.failures).toEqual([]);
});

/** What a derived save holds, by kind of part. */
function partsOf(save: EdgeSave): Set<string> {
  const parts = new Set<string>([`variant ${save.variant}`, `layout ${save.layout}`]);
  for (const chunk of save.chunks) {
    if (isRawChunk(chunk)) {
      parts.add('unknown chunk');
      continue;
    }
    const value = (chunk.body as { value: unknown }).value;
    if (chunk.id === 'Data' || chunk.id === 'Stor') {
      for (const element of (value as { elements: Array<Record<string, unknown>> }).elements)
        parts.add(element.$raw instanceof Uint8Array ? 'element kept raw' : 'element');
    }
    if ((chunk.id === 'Stru' || chunk.id === 'Arry') && Array.isArray(value) && value.length > 0)
      parts.add(`${chunk.id} container`);
    if (chunk.id === 'Glob')
      for (const lump of value as Array<{ id: string }>) if (lump.id === 'View') parts.add('thumbnail');
  }
  return parts;
}

test('the derived saves cover every variant, both layouts and the parts of each', () => {
  const seen = new Set<string>();
  for (const save of fc.sample(saves, { numRuns: 400, seed: 18 })) for (const part of partsOf(save)) seen.add(part);
  expect([...seen].sort()).toEqual(
    expect.arrayContaining([
      'Arry container',
      'Stru container',
      'element kept raw',
      'layout design',
      'layout engine',
      'thumbnail',
      'unknown chunk',
      'variant A',
      'variant B',
      'variant C',
      'variant D',
    ]),
  );
});
