// Hostile EDGE files against the decode's work budget (issue 17): bombs spread over many top-level
// chunks (variant C, zlib; variant A, XOR + LZO), sizes claimed in Stru, Arry and Data, a wide
// structure read once per element, and deep nesting. Each is a typed error (a BudgetError naming its
// budget, or a DecodeError), proven bounded by what the budget counted — bytes of output, units of
// work — not by the clock; and then each runs in a child process under the kit's 2 s / 256 MB rule.
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { Zlib, zlibSync } from 'fflate';
import { compress as lzoCompress } from '@savekit/lzo1x';
import { BudgetError, decode, DecodeError, encode, encodeOrThrow, type DecodeOptions } from '@savekit/core';
import { DecodeBudget, defaultBudgetLimits, OUTPUT_WORK_PER_INPUT_BYTE, UNITS_PER_CHUNK } from '@savekit/core/kit';
import { createSave, edgeSave, newInstance } from '@savekit/edge';
import { budgetSuite, budgetTable, hostileInputs, type Attack } from '@savekit/testkit';
import { le32, writeFile, writeStored } from './independent';

const MiB = 1 << 20;

/**
 * A valid `Glob` of `bytes` bytes (a multiple of 4): one unknown lump of zeros, kept raw, so each
 * chunk decodes and only the total stops the file. Variant A's lumps carry end markers.
 */
function globOfZeros(bytes: number, variantA: boolean): { head: Uint8Array; tail: Uint8Array } {
  const lump = bytes - 8 - (variantA ? 4 : 0);
  return {
    head: Uint8Array.from([...Buffer.from('Zzzz'), ...le32(lump)]),
    tail: variantA ? Buffer.from('ZZZZ') : new Uint8Array(0),
  };
}

/** zlib of a valid Glob of `bytes` bytes, made a MiB at a time. */
function zlibGlob(bytes: number): Uint8Array {
  const { head } = globOfZeros(bytes, false);
  const parts: Uint8Array[] = [];
  const z = new Zlib({ level: 9 }, (data) => parts.push(data));
  z.push(head);
  const zeros = new Uint8Array(MiB);
  for (let left = bytes - head.length; left > 0; left -= MiB)
    z.push(zeros.subarray(0, Math.min(left, MiB)), left <= MiB);
  return new Uint8Array(Buffer.concat(parts));
}

/** XOR with `EDGE!` then LZO1X-1 of a valid Glob of `bytes` bytes (variant A). */
function lzoGlob(bytes: number): Uint8Array {
  const { head, tail } = globOfZeros(bytes, true);
  const plain = new Uint8Array(bytes);
  plain.set(head);
  plain.set(tail, bytes - tail.length);
  const key = Buffer.from('EDGE!');
  for (let i = 0; i < bytes; i++) plain[i]! ^= key[i % 5]!;
  return lzoCompress(plain);
}

const C = 0x13506;

/** `count` empty nested chunks of `marker` (8 bytes each), the inside of a Glob. */
function lumps(marker: string, count: number): Uint8Array {
  const out = new Uint8Array(count * 8);
  const head = Buffer.from(marker, 'latin1');
  for (let at = 0; at < out.length; at += 8) out.set(head, at);
  return out;
}

/** A variant C file of plain chunk payloads (each a multiple of 4), for payloads of megabytes. */
function fileC(chunks: ReadonlyArray<{ marker: string; plain: Uint8Array }>): Uint8Array {
  return writeStored(
    C,
    chunks.map(({ marker, plain }) => ({ marker, stored: zlibSync(plain, { level: 1 }), orig: plain.length })),
  );
}
const A = 0x12900;
const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** A file of `count` top-level `Glob` chunks, each these stored bytes claiming `orig` bytes. */
const globs = (version: number, count: number, stored: Uint8Array, orig: number): Uint8Array =>
  writeStored(
    version,
    repeat(count, () => ({ marker: 'Glob', stored, orig })),
  );

// Plain chunk data by hand (variant C, written by the independent writer).
const str = (s: string): number[] => [0xaa, s.length & 0xff, s.length >> 8, ...Buffer.from(s, 'latin1')];
const int = (n: number): number[] => le32(n >>> 0);
const pad4 = (bytes: number[]): number[] => [...bytes, ...new Array((4 - (bytes.length % 4)) % 4).fill(0)];
const nested = (marker: string, data: number[]): number[] => [
  ...Buffer.from(marker),
  ...le32(pad4(data).length),
  ...pad4(data),
];
const plain = (bytes: number[]) => Uint8Array.from(pad4(bytes));

type Field = [kind: number, size: number, count: number, name: string, ref?: string];

/** The Stru body of `name` with marker `marker` and `fields` (an INDEX or STRUCT field names its ref). */
function stru(name: string, marker: string, fields: ReadonlyArray<Field>): Uint8Array {
  const out = Buffer.concat([
    Uint8Array.from([...int(fields.length), ...str(name), ...str(marker)]),
    ...fields.map(([kind, size, count, n, ref]) =>
      Uint8Array.from([kind, size, count & 0xff, count >> 8, ...str(n), ...(ref !== undefined ? str(ref) : [])]),
    ),
  ]);
  return padded(out);
}

/**
 * A structure of `width` NUMERIC fields of count 0 (they take no bytes), and an array of `elements`
 * of it: every element is an 8-byte chunk, yet reading one touches every field.
 */
/** A structure of `width` one-byte NUMERIC fields, one element of it. */
function wideNumeric(width: number): Uint8Array {
  const fields = repeat(width, (i): Field => [1, 1, 1, `f${i}`]);
  const values = Uint8Array.from(repeat(width, (i) => i & 0xff));
  const instance = Buffer.concat([Buffer.from('wide'), Uint8Array.from(le32(values.length)), values]);
  return fileC([
    { marker: 'Stru', plain: stru('wide_t', 'wide', fields) },
    { marker: 'Arry', plain: plain([...int(1), ...str('wides'), ...str('wide_t')]) },
    { marker: 'Data', plain: padded(Buffer.concat([Uint8Array.from(str('wides')), instance])) },
  ]);
}

function wideZeroFields(width: number, elements: number): Uint8Array {
  const fields = repeat(width, (i): Field => [1, 4, 0, `f${i}`]);
  const data = Buffer.concat([
    Uint8Array.from(str('wides')),
    ...repeat(elements, () => Uint8Array.from(nested('wide', []))),
  ]);
  return fileC([
    { marker: 'Stru', plain: stru('wide_t', 'wide', fields) },
    { marker: 'Arry', plain: plain([...int(elements), ...str('wides'), ...str('wide_t')]) },
    { marker: 'Data', plain: padded(data) },
  ]);
}

/** `bytes` zero-padded to a multiple of 4, without spreading them. */
function padded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + ((4 - (bytes.length % 4)) % 4));
  out.set(bytes);
  return out;
}

/** A chain of `levels` structures, each instance holding the next (the engine stops at 16 chunks). */
function chain(levels: number): Uint8Array {
  const defs = repeat(levels, (i) =>
    stru(
      `s${i + 1}_t`,
      `s${String(i + 1).padStart(3, '0')}`,
      i + 1 < levels ? [[4, 0, 1, 'child', `s${i + 2}_t`]] : [[1, 4, 1, 'v']],
    ),
  );
  let instance = nested(`s${String(levels).padStart(3, '0')}`, int(7));
  for (let i = levels - 1; i >= 1; i--) instance = nested(`s${String(i).padStart(3, '0')}`, instance);
  return writeFile(C, [
    ...defs.map((p) => ({ marker: 'Stru', plain: p })),
    { marker: 'Arry', plain: plain([...int(1), ...str('chain'), ...str('s1_t')]) },
    { marker: 'Data', plain: plain([...str('chain'), ...instance]) },
  ]);
}

function failure(bytes: Uint8Array, options: DecodeOptions = {}): { error: DecodeError; budget: DecodeBudget } {
  const budget = DecodeBudget.of(options, bytes.length);
  const result = decode(edgeSave, bytes, { ...options, budget });
  if (E.isRight(result)) throw new Error('decoded without an error');
  expect(result.left).toBeInstanceOf(DecodeError);
  return { error: result.left, budget };
}

describe('bombs across chunks', () => {
  const zlib32 = zlibGlob(32 * MiB);
  const lzo16 = lzoGlob(16 * MiB);

  test('variant C: eight chunks of 32 MiB (each under the per-layer limit) stop at the 64 MiB total', () => {
    const file = globs(C, 8, zlib32, 32 * MiB);
    expect(file.length).toBeLessThan(300_000);
    // Two of them are a valid save: each chunk decodes on its own.
    const two = globs(C, 2, zlib32, 32 * MiB);
    expect(E.isRight(decode(edgeSave, two))).toBe(true);
    const { error, budget } = failure(file);
    expect(error).toBeInstanceOf(BudgetError);
    expect(error).toMatchObject({
      code: 'budget-exceeded',
      budget: 'output',
      limit: 64 * MiB,
      path: ['chunks', 2, 'body', 'value'],
    });
    // The third chunk's recorded length was refused before inflating: 64 MiB made, not 256.
    expect(budget.outputSpent).toBe(64 * MiB);
  });

  test("variant C: the issue's file (8 chunks of ~258 KB inflating to 256 MiB each, 2 MB) is refused before inflating", () => {
    const bomb = hostileInputs.zlibBomb(256 * MiB);
    const file = globs(C, 8, bomb, 256 * MiB);
    expect(file.length).toBeGreaterThan(2_000_000);
    const { error, budget } = failure(file);
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'output', path: ['chunks', 0, 'body', 'value'] });
    expect(budget.outputSpent).toBe(0);
    // With the budget raised past it, the per-chunk stream still stops at its recorded length.
    const lying = globs(C, 8, bomb, MiB);
    const stopped = failure(lying, { maxTotalOutput: 1 << 30 });
    expect(stopped.error.message).toMatch(/zlib: output passes the limit of 1048576 bytes/);
    expect(stopped.budget.outputSpent).toBe(0);
  });

  test('variant A: eight XOR + LZO chunks of 16 MiB stop at the total (LZO and XOR output both count)', () => {
    const file = globs(A, 8, lzo16, 16 * MiB);
    const { error, budget } = failure(file);
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'output', path: ['chunks', 2, 'body', 'value'] });
    expect(budget.outputSpent).toBeLessThanOrEqual(64 * MiB);
    // Under a budget lowered below one chunk, LZO's own limit is the budget's (lzo1x's 'output-limit').
    const small = failure(file, { maxTotalOutput: 8 * MiB });
    expect(small.error).toMatchObject({
      code: 'budget-exceeded',
      budget: 'output',
      path: ['chunks', 0, 'body', 'value'],
    });
    expect(small.budget.outputSpent).toBe(0);
  });
});

describe('sizes claimed in the file', () => {
  test('a Stru claiming 2^31 − 1 fields: an allocation BudgetError before reading any', () => {
    const body = plain([...int(0x7fffffff), ...str('big_t'), ...str('bigs')]);
    const { error, budget } = failure(writeFile(C, [{ marker: 'Stru', plain: body }]));
    expect(error).toMatchObject({
      code: 'budget-exceeded',
      budget: 'allocation',
      path: ['chunks', 0, 'body', 'value', { annotation: 'zlib' }, 'fields'],
    });
    expect(error.message).toMatch(/2147483647 fields: 2,147,483,647 × 5 bytes claimed/);
    expect(budget.workSpent).toBeLessThan(100);
  });

  test('an Arry claiming 2^31 − 1 elements: refused when its Data is read, before any element', () => {
    const bytes = writeFile(C, [
      { marker: 'Stru', plain: stru('v_t', 'vvvv', [[1, 1, 1, 'v']]) },
      { marker: 'Arry', plain: plain([...int(0x7fffffff), ...str('vs'), ...str('v_t')]) },
      { marker: 'Data', plain: plain([...str('vs'), ...nested('vvvv', [1])]) },
    ]);
    const { error, budget } = failure(bytes);
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'allocation' });
    expect(error.path.slice(0, 3)).toEqual(['chunks', 2, 'body']);
    // The three chunks' own charge, and a few dozen units of fields: no element was read.
    expect(budget.workSpent).toBeLessThan(3 * UNITS_PER_CHUNK + 100);
  });

  test('a negative field count is a DecodeError', () => {
    const body = plain([...int(-1), ...str('big_t'), ...str('bigs')]);
    expect(failure(writeFile(C, [{ marker: 'Stru', plain: body }])).error.message).toMatch(
      /field count -1 is negative/,
    );
  });
});

describe('wide and deep structures', () => {
  test('20,000 fields of count 0 read for each of 20,000 elements: a work BudgetError, not 4·10^8 steps', () => {
    const bytes = wideZeroFields(20_000, 20_000);
    expect(bytes.length).toBeLessThan(100_000);
    const { error, budget } = failure(bytes);
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'work' });
    expect(error.path.slice(0, 6)).toEqual(['chunks', 2, 'body', 'value', { annotation: 'zlib' }, 'elements']);
    // Stopped at the budget (4 Mi units for a file this small, plus 2 per byte its zlib chunks
    // inflated to), a few elements in (16 units per field of a structure this wide), never near the
    // 4·10^8 properties the elements would set.
    expect(budget.workSpent).toBeLessThanOrEqual(budget.workLimit);
    expect(budget.limits.maxWork).toBe(4 * MiB);
    expect(budget.workLimit).toBe(4 * MiB + 2 * budget.outputSpent);
    expect(budget.workLimit).toBeLessThan(6 * MiB);
  });

  test('chunks nested 17 deep: the engine’s limit, a DecodeError at the depth', () => {
    expect(E.isRight(decode(edgeSave, chain(15)))).toBe(true);
    const { error, budget } = failure(chain(16));
    expect(error.message).toMatch(/chunks nested deeper than 16/);
    expect(budget.workSpent).toBeLessThan(2_000); // 17 one-field definitions at UNITS_PER_DECLARED_FIELD, and what was read
  });
});

/** An attack that this budget must stop. */
const stoppedBy = (budget: 'output' | 'allocation' | 'work', name: string, input: () => Uint8Array): Attack => ({
  name,
  input,
  expect: 'error',
  code: 'budget-exceeded',
  budget,
});

describe('the conformance kit: each attack in a child process, 2 s and 256 MB', () => {
  const bomb256 = hostileInputs.zlibBomb(256 * MiB);
  const attacks: Attack[] = [
    stoppedBy('output', 'variant C: 8 chunks inflating to 256 MiB each (2 MB)', () => globs(C, 8, bomb256, 256 * MiB)),
    stoppedBy('output', 'variant C: 60 chunks of valid 32 MiB Globs (2 MB)', () =>
      globs(C, 60, zlibGlob(32 * MiB), 32 * MiB),
    ),
    stoppedBy('output', 'variant A: 12 XOR + LZO chunks of valid 32 MiB Globs (1.8 MB)', () =>
      globs(A, 12, lzoGlob(32 * MiB), 32 * MiB),
    ),
    // Found by a hunt for amplification: 8-byte lumps (a marker and a length of 0) each made an
    // entry, a kept byte array and, with an upper-case marker, a warning — 3 GB and 35 s from 64 KB.
    ...['Zzzz', 'ZZZZ'].map((marker) =>
      stoppedBy('work', `variant C: one Glob of 2 Mi empty ${marker} lumps (24 KB)`, () =>
        fileC([{ marker: 'Glob', plain: lumps(marker, 2 * MiB) }]),
      ),
    ),
    stoppedBy('allocation', 'Stru claiming 2^31 − 1 fields', () =>
      writeFile(C, [{ marker: 'Stru', plain: plain([...int(0x7fffffff), ...str('big_t'), ...str('bigs')]) }]),
    ),
    stoppedBy('allocation', 'Arry claiming 2^31 − 1 elements, then its Data', () =>
      writeFile(C, [
        { marker: 'Stru', plain: stru('v_t', 'vvvv', [[1, 1, 1, 'v']]) },
        { marker: 'Arry', plain: plain([...int(0x7fffffff), ...str('vs'), ...str('v_t')]) },
        { marker: 'Data', plain: plain([...str('vs'), ...nested('vvvv', [1])]) },
      ]),
    ),
    {
      name: 'Data chunk of 1 element claiming a 2^31-byte instance chunk',
      input: () =>
        writeFile(C, [
          { marker: 'Stru', plain: stru('v_t', 'vvvv', [[1, 1, 1, 'v']]) },
          { marker: 'Arry', plain: plain([...int(1), ...str('vs'), ...str('v_t')]) },
          { marker: 'Data', plain: plain([...str('vs'), ...Buffer.from('vvvv'), ...le32(0x80000000), 1, 0, 0, 0]) },
        ]),
      expect: 'error',
    },
    {
      name: 'wide Stru: 20,000 count-0 fields × 20,000 elements',
      input: () => wideZeroFields(20_000, 20_000),
      expect: 'error',
      code: 'budget-exceeded',
      budget: 'work',
    },
    // The widest definition the default budget accepts (each declared field costs
    // UNITS_PER_DECLARED_FIELD units) is the slowest accepted decode; wider is refused up front.
    ...[
      [45_000, 'either'],
      [60_000, 'either'],
      [400_000, 'error'],
    ].map(([width, expect]) => ({
      name: `wide Stru: ${(width as number).toLocaleString('en-US')} NUMERIC fields and one element`,
      input: () => wideNumeric(width as number),
      expect: expect as 'either' | 'error',
      ...(expect === 'error' ? { code: 'budget-exceeded', budget: 'work' } : {}),
    })),
    { name: 'instances nested 17 deep', input: () => chain(16), expect: 'error' },
  ];

  test('every attack is a typed error within the limits', async () => {
    const report = await budgetSuite({ module: join(__dirname, '..', 'dist', 'index.js'), attacks });
    console.log(budgetTable(report));
    expect(report.failures).toEqual([]);
  }, 600_000);
});

describe('warnings a hostile file makes', () => {
  test('one per lump of a Glob is kept up to maxWarnings, then counted; the file still writes back the same', () => {
    const bytes = fileC([{ marker: 'Glob', plain: lumps('ZZZZ', 20_000) }]);
    const result = decode(edgeSave, bytes);
    if (E.isLeft(result)) throw result.left;
    const { warnings, value } = result.right;
    expect(warnings).toHaveLength(10_001);
    expect(warnings.slice(0, 10_000).every((w) => w.code === 'marker-case')).toBe(true);
    expect(warnings[10_000]).toMatchObject({ code: 'warnings-dropped', path: [] });
    expect(warnings[10_000]!.message).toMatch(/^10000 more warnings were not kept/);
    const again = encode(edgeSave, value);
    expect(E.isRight(again) && Buffer.from(again.right).equals(bytes)).toBe(true);
  });
});

describe('the cap on work from decompressed output refuses no save the engine writes', () => {
  test('blank mobjs, which compress far (about 140:1), decode within the default budget with room', () => {
    const mobjs = Array.from({ length: 20_000 }, () => newInstance('mobj_t'));
    const save = createSave({ variables: { LEVEL: 'MAP01' }, arrays: { mobjs, players: [newInstance('player_t')] } });
    const bytes = encodeOrThrow(edgeSave, save);
    // The default budget without its 4 Mi floor: the output's share alone must carry the save.
    const budget = new DecodeBudget({ ...defaultBudgetLimits(bytes.length), maxWork: 2 * bytes.length });
    expect(E.isRight(decode(edgeSave, bytes, { budget }))).toBe(true);
    expect(budget.outputSpent / bytes.length).toBeGreaterThan(100);
    // Units the output had to add, per file byte: under half the cap (62 measured on 100,000 mobjs).
    const fromOutput = (budget.workSpent - budget.limits.maxWork) / bytes.length;
    expect(fromOutput).toBeGreaterThan(10);
    expect(fromOutput).toBeLessThan(OUTPUT_WORK_PER_INPUT_BYTE / 2);
  });
});
