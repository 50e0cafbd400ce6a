// A field map of the file's own bytes (`fieldMap(input, { layers: false })`, what `savekit hexdump`
// and `verify` ask for) is the full map's layer-0 spans, exactly, for every format's samples and real
// files; and its size follows the file's framing, not the fields inside compressed chunks: an EDGE
// save of 2,000 mobjs is mapped with as many spans as one of 200 (a 170,000-mobj save's full map, a
// span per field, ran `hexdump` out of a 4 GB heap). With `maxSpans`, every format's map is whole
// within the limit and a `spans` BudgetError past it, at the span that passes it: what the studio
// asks for before it falls back to the file-only map.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnySaveFormat,
  BudgetError,
  encodeOrThrow,
  formatsOf,
  type FieldSpan,
  type PathSegment,
} from '@savekit/core';
import * as edge from '@savekit/edge';
import { corpus } from '@savekit/testkit';
import * as terrarum from '@savekit/terrarum';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';
import * as skirmish from '../examples/src/skirmish';

const FORMATS: AnySaveFormat[] = [edge, uqm, zippy, terrarum, skirmish].flatMap((m) =>
  formatsOf(m as Record<string, unknown>),
);

/** Every single-file input at hand: the bundled samples and the corpus's real files. */
function inputs(): Array<[string, Uint8Array]> {
  const samples = join(__dirname, '..', 'examples', 'saves');
  const found: Array<[string, Uint8Array]> = readdirSync(samples).map((name) => [
    name,
    new Uint8Array(readFileSync(join(samples, name))),
  ]);
  for (const id of ['edge', 'uqm', 'terrarum'])
    for (const [name, bytes] of corpus(id).files((n) => !n.endsWith('.txt') && !n.endsWith('.md')))
      found.push([`${id}/${name}`, bytes]);
  return found;
}

/** A path with each annotation as its name. */
const plain = (path: ReadonlyArray<PathSegment>) =>
  path.map((segment) => (typeof segment === 'object' ? segment.annotation : segment));

const fileSpans = (spans: ReadonlyArray<FieldSpan>) => spans.filter((s) => s.layer === 0);

test('the file-only map is the full map without the layers, for every input a format reads', () => {
  let mapped = 0;
  let withLayers = 0;
  for (const [name, bytes] of inputs()) {
    for (const format of FORMATS) {
      if (format.input === 'tree' || format.fieldMap === undefined || format.sniff(bytes) === 0) continue;
      const full = format.fieldMap(bytes);
      if (full.length === 0) continue; // a file this format does not decode
      const own = format.fieldMap(bytes, { layers: false });
      expect({ name, format: format.id, spans: own }).toEqual({ name, format: format.id, spans: fileSpans(full) });
      mapped++;
      if (full.some((s) => s.layer > 0)) withLayers++;
    }
  }
  // The bundled samples alone: one per format, and EDGE's, UQM's and Terrarum's have layers.
  expect(mapped).toBeGreaterThanOrEqual(5);
  expect(withLayers).toBeGreaterThanOrEqual(3);
});

test('a map with maxSpans is the whole map within the limit, and a spans BudgetError at the next span past it', () => {
  let limited = 0;
  for (const [name, bytes] of inputs()) {
    for (const format of FORMATS) {
      if (format.input === 'tree' || format.fieldMap === undefined || format.sniff(bytes) === 0) continue;
      const full = format.fieldMap(bytes);
      if (full.length === 0) continue;
      expect(format.fieldMap(bytes, { maxSpans: full.length })).toEqual(full);
      // Halfway, and one short of whole.
      for (const limit of new Set([full.length >> 1, full.length - 1])) {
        let thrown: unknown;
        try {
          format.fieldMap(bytes, { maxSpans: limit });
        } catch (error) {
          thrown = error;
        }
        expect({ name, format: format.id, thrown }).toEqual({
          name,
          format: format.id,
          thrown: expect.any(BudgetError),
        });
        // The path is the field's as it was read: a field the document drops (EDGE's chunk markers) is
        // annotated in the map once its parent is read, after the error.
        const error = thrown as BudgetError;
        expect({ budget: error.budget, limit: error.limit, path: plain(error.path), offset: error.offset }).toEqual({
          budget: 'spans',
          limit,
          path: plain(full[limit]!.path),
          offset: full[limit]!.start,
        });
        limited++;
      }
    }
  }
  expect(limited).toBeGreaterThanOrEqual(10);
});

test("an EDGE save's file-only map does not grow with the mobjs inside its compressed chunks", () => {
  const save = (count: number) => {
    const mobjs = Array.from({ length: count }, (_, i) => ({ ...edge.newInstance('mobj_t'), x: i, health: 100 }));
    const doc = edge.createSave({ variables: { LEVEL: 'MAP01' }, arrays: { mobjs } });
    return encodeOrThrow(edge.edgeSave, edge.convertVariant(doc, 'C'));
  };
  const [small, large] = [save(200), save(2000)];
  const [format] = formatsOf(edge as Record<string, unknown>);
  const own = (bytes: Uint8Array) => format!.fieldMap!(bytes, { layers: false });
  expect(own(large).length).toBe(own(small).length);
  expect(own(large).every((s) => s.layer === 0)).toBe(true);
  // The full map has a span per field of every mobj; asked for at most 20,000 spans, it is refused,
  // and the file-only map within the same limit is given whole.
  expect(format!.fieldMap!(large).length).toBeGreaterThan(2000 * 10);
  expect(() => format!.fieldMap!(large, { maxSpans: 20_000 })).toThrow(/more than 20,000 field spans/);
  expect(format!.fieldMap!(large, { layers: false, maxSpans: 20_000 })).toEqual(own(large));
});
