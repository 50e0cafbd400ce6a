// Wide and many structure definitions (issue 17, item 1): reconciling a save's definitions with the
// release tables is linear in their size. A `Stru` of 20,000 NUMERIC fields took 19 s to decode and
// 17 s to encode, and 2,000 one-field structures interleaved with their `Arry`/`Data` after a wide
// one took 106 s: every field was looked up in a list, and every new `Stru` reconciled them all again.
// The work is counted, not timed: the definitions' field objects count how often their names are read.
import * as E from 'fp-ts/lib/Either';
import { decode, encodeOrThrow, type DecodeOptions, type Decoded } from '@savekit/core';
import { DecodeBudget } from '@savekit/core/kit';
import type { FieldDef, Instance } from '@savekit/core/schema';
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

function decodeWithWarnings(bytes: Uint8Array, options?: DecodeOptions): Decoded<EdgeSave> {
  const result = decode(edgeSave, bytes, options);
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
    // 100,000 declared fields are past the default work budget (about 45,000): raised for this test.
    const { value, warnings } = decodeWithWarnings(bytes, { maxWork: 1 << 30 });
    const [element] = elementsOf(value, 'wides');
    expect(element).toBeDefined();
    for (const i of [0, 1, width / 2, width - 2, width - 1]) expect(element![`f${i}`]).toBe(i % 2 === 0 ? i : i & 0xff);
    expect(Object.keys(element!).length).toBe(width);
    // Said where the definition is in the document: under the wide structure's Stru chunk.
    const stru = value.chunks.findIndex(
      (c) => c.id === 'Stru' && (c as { body?: { value?: { name?: string } } }).body?.value?.name === 'wide_t',
    );
    const unknown = warnings.filter((w) => w.code === 'unknown-struct');
    expect(unknown.map((w) => w.path.slice(0, 2))).toEqual([['chunks', stru]]);
    expect(unknown[0]!.message).toMatch(/structure wide_t is not known/);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
  });

  test('2,000 structures (10,000 heavy) after a wide one decode, each warned about once', () => {
    const tiny = testBudget({ quick: 2_000, heavy: 10_000 });
    const bytes = encodeOrThrow(edgeSave, wideSave(2_000, tiny));
    const { value, warnings } = decodeWithWarnings(bytes, { maxWarnings: Number.POSITIVE_INFINITY });
    expect(elementsOf(value, `a${tiny - 1}`)).toEqual([{ v: (tiny - 1) & 0xff }]);
    expect(elementsOf(value, 'wides')[0]!.f1998).toBe(1998);
    const unknown = warnings.filter((w) => w.code === 'unknown-struct');
    expect(unknown).toHaveLength(tiny + 1);
    expect(new Set(unknown.map((w) => w.path.join('.'))).size).toBe(tiny + 1);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
  });
});

/** The work units a decode of `bytes` spends (every loop of the EDGE reader is charged to its budget). */
function workOf(bytes: Uint8Array): number {
  const budget = DecodeBudget.of({ maxWork: 1e12, maxTotalOutput: 1e12 }, bytes.length);
  const result = decode(edgeSave, bytes, { budget });
  if (E.isLeft(result)) throw result.left;
  return budget.workSpent;
}

/** A save with one array of `elements` instances of a structure of `width` fields. */
function arraySave(width: number, elements: number): Uint8Array {
  const save = createSave();
  const fields: FieldDef[] = Array.from({ length: width }, (_, i) => ({
    name: `f${i}`,
    kind: 'numeric',
    size: 4,
    count: 1,
  }));
  save.chunks.push({ id: 'Stru', body: { value: { name: 'row_t', marker: 'rows', fields } } });
  save.chunks.push({ id: 'Arry', body: { value: { name: 'rows', struct: 'row_t', count: elements } } });
  const element = (k: number): Instance => Object.fromEntries(fields.map((f, i) => [f.name, k + i]));
  save.chunks.push({
    id: 'Data',
    body: { value: { array: 'rows', elements: Array.from({ length: elements }, (_, k) => element(k)) } },
  });
  return encodeOrThrow(edgeSave, save);
}

/** A save whose one element nests `depth` structures, each instance holding the next. */
function chainSave(depth: number): Uint8Array {
  const save = createSave();
  for (let i = 1; i <= depth; i++) {
    const fields: FieldDef[] =
      i < depth
        ? [{ name: 'child', kind: 'struct', size: 0, count: 1, ref: `s${i + 1}_t` }]
        : [{ name: 'v', kind: 'numeric', size: 4, count: 1 }];
    save.chunks.push({
      id: 'Stru',
      body: { value: { name: `s${i}_t`, marker: `s${String(i).padStart(3, '0')}`, fields } },
    });
  }
  let instance: Instance = { v: 7 };
  for (let i = depth - 1; i >= 1; i--) instance = { child: instance };
  save.chunks.push({ id: 'Arry', body: { value: { name: 'chain', struct: 's1_t', count: 1 } } });
  save.chunks.push({ id: 'Data', body: { value: { array: 'chain', elements: [instance] } } });
  return encodeOrThrow(edgeSave, save);
}

describe('decode work: doubling a structure at most about doubles it', () => {
  // Counted, not timed: the decode's budget counts every field, element, chunk, definition,
  // reference and nesting step the reader takes (issue 17: every loop goes through the budget).
  const doubles = (once: number, twice: number) => {
    expect(twice / once).toBeGreaterThan(1.5); // the work is really counted
    expect(twice / once).toBeLessThan(2.2);
  };
  const n = testBudget({ quick: 1, heavy: 4 });

  test('instances per array', () => {
    doubles(workOf(arraySave(20, 2_000 * n)), workOf(arraySave(20, 4_000 * n)));
  });

  test('fields per structure', () => {
    doubles(workOf(arraySave(500 * n, 20)), workOf(arraySave(1_000 * n, 20)));
  });

  test('structure and array chunks per save', () => {
    const chunks = (tiny: number) => workOf(encodeOrThrow(edgeSave, wideSave(0, tiny)));
    doubles(chunks(1_000 * n), chunks(2_000 * n));
  });

  test('nesting depth of instance chunks (up to the engine’s 16)', () => {
    // Each level is a chunk, a definition and an instance: the work grows by the same amount per level.
    const at = [2, 4, 8, 15].map((depth) => workOf(chainSave(depth)));
    const perLevel = (at[3]! - at[2]!) / 7;
    expect(at[2]! - at[1]!).toBeCloseTo(4 * perLevel, 5);
    expect(at[1]! - at[0]!).toBeCloseTo(2 * perLevel, 5);
  });
});
