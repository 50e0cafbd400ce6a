// Wide and many structure definitions (issue 17, item 1): reconciling a save's definitions with the
// release tables is linear in their size. A `Stru` of 20,000 NUMERIC fields took 19 s to decode and
// 17 s to encode, and 2,000 one-field structures interleaved with their `Arry`/`Data` after a wide
// one took 106 s: every field was looked up in a list, and every new `Stru` reconciled them all again.
// The work is counted, not timed: the definitions' field objects count how often their names are read.
import * as E from 'fp-ts/lib/Either';
import { decode, encodeOrThrow, type Decoded, type FieldDef, type Instance } from '@savekit/core';
import { createSave, edgeSave, type EdgeSave } from '@savekit/edge';
import { testBudget } from '@savekit/testkit';

/** A save with a wide unknown structure and, after it, `tiny` one-field structures each with its array and data. */
function wideSave(width: number, tiny: number, field: (def: FieldDef) => FieldDef = (def) => def): EdgeSave {
  const save = createSave();
  const fields = Array.from({ length: width }, (_, i) =>
    field({ name: `f${i}`, kind: 'numeric', size: i % 2 === 0 ? 4 : 1, count: 1 }),
  );
  const element: Instance = Object.fromEntries(fields.map((f, i) => [f.name, i % 2 === 0 ? i : i & 0xff]));
  save.chunks.push({ id: 'Stru', body: { value: { name: 'wide_t', marker: 'wide', fields } } });
  save.chunks.push({ id: 'Arry', body: { value: { name: 'wides', struct: 'wide_t', count: 1 } } });
  save.chunks.push({ id: 'Data', body: { value: { array: 'wides', elements: [element] } } });
  for (let i = 0; i < tiny; i++) {
    save.chunks.push({
      id: 'Stru',
      body: {
        value: { name: `s${i}`, marker: 'tiny', fields: [field({ name: 'v', kind: 'numeric', size: 1, count: 1 })] },
      },
    });
    save.chunks.push({ id: 'Arry', body: { value: { name: `a${i}`, struct: `s${i}`, count: 1 } } });
    save.chunks.push({ id: 'Data', body: { value: { array: `a${i}`, elements: [{ v: i & 0xff }] } } });
  }
  return save;
}

/** Encodes `wideSave(width, tiny)` and returns how many times a field definition's name was read. */
function nameReads(width: number, tiny: number): number {
  let reads = 0;
  const counting = (def: FieldDef): FieldDef =>
    new Proxy(def, {
      get(target, key, receiver) {
        if (key === 'name') reads++;
        return Reflect.get(target, key, receiver);
      },
    });
  encodeOrThrow(edgeSave, wideSave(width, tiny, counting));
  return reads;
}

function decodeWithWarnings(bytes: Uint8Array): Decoded<EdgeSave> {
  const result = decode(edgeSave, bytes);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

function elementsOf(save: EdgeSave, array: string): Instance[] {
  for (const c of save.chunks) {
    const body = (c as { id: string; body: { value: unknown } }).body.value as {
      array?: string;
      elements?: Instance[];
    };
    if (c.id === 'Data' && body.array === array && body.elements !== undefined) return body.elements;
  }
  throw new Error(`no Data chunk for ${array}`);
}

describe('structure definitions: linear work', () => {
  // Per field definition the reconcile reads its name a constant number of times (about 15 now);
  // the old list lookup read it once per field before it, 1,000 times on average at this width.
  const PER_FIELD = 40;

  test('a wide structure: its field names are read a constant number of times each', () => {
    const width = 2_000;
    const once = nameReads(width, 0);
    const twice = nameReads(2 * width, 0);
    expect(once).toBeLessThanOrEqual(PER_FIELD * width);
    expect(twice).toBeLessThanOrEqual(PER_FIELD * 2 * width);
    // Doubling the width about doubles the work (quadratic work would quadruple it).
    expect(twice / once).toBeLessThan(2.5);
  });

  test('structures interleaved with their data: each definition is reconciled once', () => {
    const width = 1_000;
    const tiny = 1_000;
    const once = nameReads(width, tiny);
    const twice = nameReads(2 * width, 2 * tiny);
    expect(once).toBeLessThanOrEqual(PER_FIELD * (width + tiny));
    expect(twice / once).toBeLessThan(2.5);
  });

  test('a structure of 20,000 fields (100,000 heavy) decodes with every value', () => {
    const width = testBudget({ quick: 20_000, heavy: 100_000 });
    const bytes = encodeOrThrow(edgeSave, wideSave(width, 0));
    const { value, warnings } = decodeWithWarnings(bytes);
    const [element] = elementsOf(value, 'wides');
    expect(element).toBeDefined();
    for (const i of [0, 1, width / 2, width - 2, width - 1]) expect(element![`f${i}`]).toBe(i % 2 === 0 ? i : i & 0xff);
    expect(Object.keys(element!).length).toBe(width);
    expect(warnings.filter((w) => w.code === 'unknown-struct').map((w) => w.path.join('.'))).toEqual(['Stru.wide_t']);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
  });

  test('2,000 structures (10,000 heavy) after a wide one decode, each warned about once', () => {
    const tiny = testBudget({ quick: 2_000, heavy: 10_000 });
    const bytes = encodeOrThrow(edgeSave, wideSave(2_000, tiny));
    const { value, warnings } = decodeWithWarnings(bytes);
    expect(elementsOf(value, `a${tiny - 1}`)).toEqual([{ v: (tiny - 1) & 0xff }]);
    expect(elementsOf(value, 'wides')[0]!.f1998).toBe(1998);
    const unknown = warnings.filter((w) => w.code === 'unknown-struct');
    expect(unknown).toHaveLength(tiny + 1);
    expect(new Set(unknown.map((w) => w.path.join('.'))).size).toBe(tiny + 1);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
  });
});
