import * as E from 'fp-ts/lib/Either.js';
import { deflateSync, gzipSync, zlibSync } from 'fflate';
import {
  array,
  BudgetError,
  bytes,
  chunkList,
  fourcc,
  cstring,
  type DecodeError,
  decode,
  encodeOrThrow,
  layer,
  sized,
  struct,
  transform,
  u8,
  u32le,
  withHooks,
  type Codec,
} from '@savekit/core';
import {
  DecodeBudget,
  defaultBudgetLimits,
  defineCodec,
  inflateBounded,
  isOutputLimitError,
  MIN_TOTAL_OUTPUT,
  MIN_WORK,
  OUTPUT_WORK_PER_INPUT_BYTE,
  OutputLimitError,
  ReadState,
  resolveDecodeOptions,
  UNITS_PER_CHUNK,
  WORK_PER_OUTPUT_BYTE,
  customDef,
} from '@savekit/core/kit';

/** A layer that inflates zlib with the core's bounded inflater, as every format's zlib layer does. */
const zlibLayer = layer(
  'zlib',
  (stored, limits) => inflateBounded(stored, 'zlib', limits),
  (plain) => zlibSync(plain),
);

/** A list of sized chunks, each a zlib stream of bytes. */
const chunks = array(sized(u32le, transform(bytes('rest'), zlibLayer)), u32le);

function failure(result: E.Either<DecodeError, unknown>): DecodeError {
  if (E.isRight(result)) throw new Error('expected the decode to fail');
  return result.left;
}

describe('the decode budget', () => {
  test('defaults grow with the input from a floor', () => {
    expect(defaultBudgetLimits(0)).toEqual({
      maxTotalOutput: MIN_TOTAL_OUTPUT,
      maxWork: MIN_WORK,
      workPerOutputByte: WORK_PER_OUTPUT_BYTE,
      maxOutputWork: 0,
    });
    expect(defaultBudgetLimits(10 * 1024 * 1024)).toEqual({
      maxTotalOutput: 320 * 1024 * 1024,
      maxWork: 20 * 1024 * 1024,
      workPerOutputByte: WORK_PER_OUTPUT_BYTE,
      maxOutputWork: OUTPUT_WORK_PER_INPUT_BYTE * 10 * 1024 * 1024,
    });
  });

  test('the work decompressed output adds is capped in proportion to the input', () => {
    const budget = new DecodeBudget({ maxTotalOutput: 10_000, maxWork: 10, workPerOutputByte: 2, maxOutputWork: 500 });
    budget.spendOutput(100, [], 0);
    expect(budget.workLimit).toBe(10 + 200);
    budget.spendOutput(5000, [], 0);
    expect(budget.workLimit).toBe(10 + 500); // not 10 + 2 × 5,100
    // A default budget: a small file inflating far gets maxWork + 128 units per file byte, not 2 per
    // byte of what it inflates to. 3 Mi one-byte fields behind zlib are a file of ~3 KB: refused at
    // the element past the floor and the cap, where the uncapped budget would take them all.
    const fields = 3 * 1024 * 1024;
    const compressedList = transform(array(u8, fields), zlibLayer);
    const file = zlibSync(new Uint8Array(fields), { level: 9 });
    const limit = 100_000 + OUTPUT_WORK_PER_INPUT_BYTE * file.length;
    expect(limit).toBeLessThan(fields);
    const options = { budget: new DecodeBudget({ ...defaultBudgetLimits(file.length), maxWork: 100_000 }) };
    const error = failure(decode(compressedList, file, options));
    expect(error).toMatchObject({ budget: 'work', code: 'budget-exceeded', limit });
    const uncapped = new DecodeBudget({ maxTotalOutput: MIN_TOTAL_OUTPUT, maxWork: 100_000, workPerOutputByte: 2 });
    expect(E.isRight(decode(compressedList, file, { budget: uncapped }))).toBe(true);
  });

  test('a chunk costs UNITS_PER_CHUNK besides its marker and length: a file of empty chunks runs out in proportion', () => {
    const list = chunkList({ marker: fourcc(), length: u32le }, {});
    const empty = [0x5a, 0x7a, 0x7a, 0x7a, 0, 0, 0, 0]; // "Zzzz", length 0: kept as { id, raw }
    const file = Uint8Array.from(Array.from({ length: 1000 }, () => empty).flat());
    const each = UNITS_PER_CHUNK + 3; // the chunk, its marker, its length (and the list's unit per entry)
    for (const compiled of [true, false]) {
      const error = failure(decode(list, file, { maxWork: 10 * each + 5, compiled }));
      expect(error).toMatchObject({ budget: 'work', code: 'budget-exceeded' });
      expect(error.path[0]).toBe(10); // the eleventh chunk is the one that does not fit
    }
    expect(E.isRight(decode(list, file, { maxWork: 1000 * each + 5 }))).toBe(true);
  });
});

describe('the warnings a decode keeps', () => {
  /** A byte that warns each time it is read. */
  const warned = withHooks(u8, { afterRead: (value, { reader }) => reader.warn('odd', `read ${value}`) });
  const list = array(warned, u8);

  test('past maxWarnings warnings are counted, and one last warning says how many were dropped', () => {
    const file = Uint8Array.from([30, ...Array.from({ length: 30 }, (_, i) => i)]);
    const result = decode(list, file, { maxWarnings: 10 });
    if (E.isLeft(result)) throw result.left;
    const { warnings } = result.right;
    expect(warnings).toHaveLength(11);
    expect(warnings.slice(0, 10).map((w) => w.message)).toEqual(Array.from({ length: 10 }, (_, i) => `read ${i}`));
    expect(warnings[10]).toMatchObject({ code: 'warnings-dropped', path: [], offset: 0 });
    expect(warnings[10]!.message).toMatch(/^20 more warnings were not kept: a decode keeps the first 10/);
    // Under the limit, nothing is dropped and nothing is added; the default keeps 10,000.
    const under = decode(list, file, { maxWarnings: 30 });
    expect(E.isRight(under) && under.right.warnings).toHaveLength(30);
    expect(resolveDecodeOptions(undefined).maxWarnings).toBe(10_000);
  });

  test('a rolled-back reading takes back the warnings it dropped', () => {
    const state = new ReadState(resolveDecodeOptions({ maxWarnings: 2 }));
    const add = (n: number) => state.addWarning({ code: 'x', path: [], offset: n, message: String(n) });
    add(1);
    const checkpoint = state.checkpoint();
    add(2);
    add(3);
    add(4);
    expect(state.warningsDropped).toBe(2);
    state.rollback(checkpoint);
    expect(state.warnings).toHaveLength(1);
    expect(state.warningsDropped).toBe(0);
    add(5);
    add(6);
    expect(state.finalWarnings().map((w) => w.code)).toEqual(['x', 'x', 'warnings-dropped']);
  });

  test('the default work budget grows with decompressed output; a maxWork given is exact', () => {
    // A little over 4 Mi one-byte fields behind zlib: a small file whose structure needs more work
    // than the input floor (4 Mi units) allows, as a big compressed save does.
    const fields = MIN_WORK + 4096;
    const compressedList = transform(array(u8, fields), zlibLayer);
    const file = zlibSync(new Uint8Array(fields));
    expect(file.length).toBeLessThan(MIN_WORK / 2); // the input alone would give only the floor
    const read = decode(compressedList, file);
    expect(E.isRight(read)).toBe(true);
    // The same decode with the floor as an explicit limit stops, at the element past it.
    const error = failure(decode(compressedList, file, { maxWork: MIN_WORK }));
    expect(error).toMatchObject({ budget: 'work', code: 'budget-exceeded', limit: MIN_WORK });
    // The limit grows only with output actually produced, and never past maxWork + k × maxTotalOutput.
    const budget = new DecodeBudget({ maxTotalOutput: 100, maxWork: 10, workPerOutputByte: WORK_PER_OUTPUT_BYTE });
    expect(budget.workLimit).toBe(10);
    budget.spendOutput(40, [], 0);
    expect(budget.workLimit).toBe(10 + 40 * WORK_PER_OUTPUT_BYTE);
    expect(() => budget.spendOutput(61, [], 0)).toThrow(BudgetError);
    expect(budget.workLimit).toBeLessThanOrEqual(10 + 100 * WORK_PER_OUTPUT_BYTE);
  });

  test('bombs split over many chunks, each under the per-layer limit, add up to one budget', () => {
    const one = new Uint8Array(1 << 20); // each chunk inflates to 1 MiB
    const file = encodeOrThrow(chunks, [one, one, one, one, one]);
    // Per layer the limit is 2 MiB, which every chunk keeps; together they pass 4 MiB.
    const options = { maxTransformOutput: 2 << 20, maxTotalOutput: 4 << 20 };
    const error = failure(decode(chunks, file, options));
    expect(error).toBeInstanceOf(BudgetError);
    expect(error).toMatchObject({ budget: 'output', code: 'budget-exceeded', limit: 4 << 20 });
    expect(error.path).toEqual([4]); // the fifth chunk is the one that does not fit
    expect(error.message).toMatch(/maxTotalOutput/);
    // Four of them fit exactly.
    expect(E.isRight(decode(chunks, encodeOrThrow(chunks, [one, one, one, one]), options))).toBe(true);
  });

  test('the per-layer limit is still an ordinary DecodeError naming the layer', () => {
    const file = encodeOrThrow(chunks, [new Uint8Array(5000)]);
    const error = failure(decode(chunks, file, { maxTransformOutput: 4000 }));
    expect(error).not.toBeInstanceOf(BudgetError);
    expect(error.message).toMatch(/^zlib: /);
  });

  test('a shared budget spans nested decodes', () => {
    const budget = new DecodeBudget({ maxTotalOutput: 3000, maxWork: 1000 });
    const file = encodeOrThrow(chunks, [new Uint8Array(2000)]);
    expect(E.isRight(decode(chunks, file, { budget }))).toBe(true);
    expect(budget.outputSpent).toBe(2000);
    const error = failure(decode(chunks, file, { budget }));
    expect(error).toMatchObject({ budget: 'output' });
  });

  test('wide structures spend work; past the budget is a BudgetError at the element', () => {
    const wide = array(u8, u32le);
    const file = encodeOrThrow(wide, new Array(1000).fill(7));
    expect(E.isRight(decode(wide, file, { maxWork: 1001 }))).toBe(true);
    const error = failure(decode(wide, file, { maxWork: 500 }));
    expect(error).toMatchObject({ budget: 'work', limit: 500 });
    expect(error.message).toMatch(/maxWork/);
    // Records of variable size: 100 elements + 200 fields.
    const records = array(struct({ a: u8, name: cstring('ascii') }), u32le);
    const many = encodeOrThrow(
      records,
      Array.from({ length: 100 }, () => ({ a: 1, name: 'x' })),
    );
    expect(E.isRight(decode(records, many, { maxWork: 300 }))).toBe(true);
    expect(failure(decode(records, many, { maxWork: 250 }))).toMatchObject({ budget: 'work', path: [75, 'a'] });
  });

  test('a counted array is charged at once, and the error names the array (the example of the limits guide)', () => {
    const error = failure(decode(array(u8, u32le), Uint8Array.of(3, 0, 0, 0, 1, 2, 3), { maxWork: 2 }));
    expect(error.toString()).toBe(
      'at (root) (offset 4): more than 2 fields, elements and entries to read (DecodeOptions.maxWork)',
    );
  });

  test('work is counted once per decode, not per nested reading', () => {
    const budget = new DecodeBudget({ maxTotalOutput: 1 << 20, maxWork: 1 << 20 });
    const records = array(struct({ a: u8, name: cstring('ascii') }), u32le);
    const many = encodeOrThrow(
      records,
      Array.from({ length: 100 }, () => ({ a: 1, name: 'x' })),
    );
    decode(records, many, { budget });
    expect(budget.workSpent).toBe(300);
    // Fixed-size records are read as a run: one unit per element.
    const fixed = array(struct({ a: u8, b: u8 }), u32le);
    decode(
      fixed,
      encodeOrThrow(
        fixed,
        Array.from({ length: 100 }, () => ({ a: 1, b: 2 })),
      ),
      { budget },
    );
    expect(budget.workSpent).toBe(400);
  });

  test('sizes claimed by the file are checked before allocating', () => {
    // A codec that allocates what a u32 in the file says, after claiming it against what is left.
    const claimed: Codec<Uint8Array> = defineCodec({
      name: 'claimed',
      def: customDef('claimed', { model: bytes(u32le) }),
      json: bytes('rest').json,
      minSize: 4,
      read(r) {
        const n = u32le.read(r);
        r.claim(n, 1, 'payload');
        return r.take(n);
      },
      write(w, value) {
        u32le.write(w, value.length);
        w.append(value);
      },
    });
    const file = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 1, 2, 3);
    const error = failure(decode(claimed, file));
    expect(error).toMatchObject({ budget: 'allocation', offset: 4 });
    expect(error.message).toMatch(/payload: 4,294,967,295 × 1 bytes claimed, only 3 can back it/);
  });
});

describe('inflateBounded', () => {
  const plain = new Uint8Array(100_000).map((_, i) => (i * 7) & 0x3f);
  test.each([
    ['zlib', zlibSync(plain)],
    ['gzip', gzipSync(plain)],
    ['raw', deflateSync(plain)],
  ] as const)('%s streams inflate, bounded', (wrapper, packed) => {
    expect(inflateBounded(packed, wrapper, { maxOutput: plain.length })).toEqual(plain);
    expect(inflateBounded(packed, wrapper, { maxOutput: 1 << 30, expected: plain.length })).toEqual(plain);
    expect(() => inflateBounded(packed, wrapper, { maxOutput: plain.length - 1 })).toThrow(OutputLimitError);
    expect(() => inflateBounded(packed, wrapper, { maxOutput: 1 << 30, expected: 10 })).toThrow(/recorded/);
    expect(() => inflateBounded(packed, wrapper, { maxOutput: 1 << 30, expected: plain.length + 1 })).toThrow(
      /recorded/,
    );
    expect(() => inflateBounded(packed.subarray(0, packed.length >> 1), wrapper, { maxOutput: 1 << 30 })).toThrow(
      /ends early|corrupt/,
    );
  });

  test('a bomb stops near the limit: the work done is bounded by the limit, not the stream', () => {
    const bomb = zlibSync(new Uint8Array(16 << 20)); // 16 MiB of zeros, about 16 KB
    let produced = 0;
    try {
      inflateBounded(bomb, 'zlib', { maxOutput: 1 << 20 });
    } catch (error) {
      expect(isOutputLimitError(error)).toBe(true);
      produced = (error as OutputLimitError).limit;
    }
    expect(produced).toBe(1 << 20);
  });

  test('any error with code output-limit counts as one', () => {
    expect(isOutputLimitError(Object.assign(new Error('x'), { code: 'output-limit' }))).toBe(true);
    expect(isOutputLimitError(new Error('x'))).toBe(false);
  });
});
