// `maxSpans`: a traced decode records at most that many field spans. Past it the decode stops with a
// `spans` BudgetError at the span that would pass it: the (limit + 1)th span of the whole trace, by
// path and offset. Within the limit the trace is the unlimited one; an untraced decode ignores it.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { zlibSync } from 'fflate';
import {
  array,
  BudgetError,
  chunkList,
  cstring,
  decode,
  fileFormat,
  fourcc,
  layer,
  struct,
  transform,
  u8,
  u16le,
  u32le,
  type ChunkFraming,
} from '../src/index';
import { inflateBounded } from '../src/kit';
import { encodeOk } from './laws';

const framing: ChunkFraming = { marker: fourcc({ alnum: true }), length: u32le, align: 4 };
const zlib = layer(
  'zlib',
  (stored, limits) => inflateBounded(stored, 'zlib', limits),
  (plain) => zlibSync(plain),
);
const unit = struct({ kind: u8, hp: u16le, name: cstring('ascii') });
// Spans from every place the core records one: struct fields, array elements (counted and to the
// end), chunks, and fields inside a byte layer.
const save = struct({
  version: u8,
  chunks: chunkList(framing, {
    Unit: array(unit, u8),
    Pack: transform(array(unit, 'rest'), zlib),
  }),
});

type Save = typeof save extends { read(r: never): infer A } ? A : never;

const units = fc.array(fc.record({ kind: fc.nat(255), hp: fc.nat(65535), name: fc.stringMatching(/^[a-z]{0,5}$/) }), {
  maxLength: 6,
});
const saves: fc.Arbitrary<Save> = fc.record({
  version: fc.nat(255),
  chunks: fc.array(
    fc.oneof(
      units.map((body) => ({ id: 'Unit' as const, body })),
      units.map((body) => ({ id: 'Pack' as const, body })),
    ),
    { maxLength: 5 },
  ),
}) as fc.Arbitrary<Save>;

function traced(bytes: Uint8Array, maxSpans?: number) {
  return decode(save, bytes, { trace: true, maxSpans });
}

describe('maxSpans', () => {
  test('past the limit: a spans BudgetError at the span that would pass it; within it: the whole trace', () => {
    fc.assert(
      fc.property(saves, fc.nat(), (value, pick) => {
        const bytes = encodeOk(save, value);
        const whole = traced(bytes);
        if (E.isLeft(whole)) throw whole.left;
        const spans = whole.right.spans!;
        expect(traced(bytes, spans.length)).toEqual(whole);
        const limit = pick % spans.length;
        const stopped = traced(bytes, limit);
        if (E.isRight(stopped)) throw new Error(`decoded with ${limit} of ${spans.length} spans`);
        const error = stopped.left;
        expect(error).toBeInstanceOf(BudgetError);
        expect(error).toMatchObject({
          code: 'budget-exceeded',
          budget: 'spans',
          limit,
          path: spans[limit]!.path,
          offset: spans[limit]!.start,
        });
        expect(error.message).toContain('DecodeOptions.maxSpans');
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  test('an untraced decode ignores it; a trace of the file bytes only counts only those', () => {
    const value: Save = {
      version: 1,
      chunks: [{ id: 'Pack', body: Array.from({ length: 50 }, (_, i) => ({ kind: i, hp: i, name: 'x' })) }],
    } as Save;
    const bytes = encodeOk(save, value);
    expect(decode(save, bytes, { maxSpans: 0 })).toEqual(decode(save, bytes));
    const own = decode(save, bytes, { trace: true, traceLayers: false });
    if (E.isLeft(own)) throw own.left;
    expect(own.right.spans!.length).toBeLessThan(10);
    expect(decode(save, bytes, { trace: true, traceLayers: false, maxSpans: own.right.spans!.length })).toEqual(own);
    expect(E.isLeft(decode(save, bytes, { trace: true, maxSpans: own.right.spans!.length }))).toBe(true);
  });

  test('a format’s fieldMap throws the spans BudgetError (a map cannot say it is partial); other failures map to none', () => {
    const format = fileFormat(save, { id: 'units', title: 'Units' });
    const value: Save = {
      version: 1,
      chunks: [{ id: 'Pack', body: Array.from({ length: 50 }, (_, i) => ({ kind: i, hp: i, name: 'x' })) }],
    } as Save;
    const bytes = encodeOk(save, value);
    const whole = format.fieldMap!(bytes);
    expect(format.fieldMap!(bytes, { maxSpans: whole.length })).toEqual(whole);
    expect(() => format.fieldMap!(bytes, { maxSpans: 20 })).toThrow(BudgetError);
    expect(() => format.fieldMap!(bytes, { maxSpans: 20 })).toThrow(/more than 20 field spans/);
    const own = format.fieldMap!(bytes, { layers: false, maxSpans: 20 });
    expect(own).toEqual(whole.filter((s) => s.layer === 0));
    expect(format.fieldMap!(bytes.subarray(0, 5), { maxSpans: 20 })).toEqual([]);
  });
});
