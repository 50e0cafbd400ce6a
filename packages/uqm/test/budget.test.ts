// Issue 17 for UQM: one work budget per decode (LZHUF output, chunks, game-state entries, scan
// records, queue entries, battle groups), LZHUF lengths refused before anything is allocated, no
// compression while decoding a 0.7 save, costs that grow linearly (counted, not timed), GmSt entry
// names as plain data, an encoder that refuses what would not decode — then the testkit's budget suite.
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { BudgetError, DecodeError, decode, encodeOrThrow, fromJson, toJson, type DecodeOptions } from '@savekit/core';
import { DecodeBudget, OutputLimitError } from '@savekit/core/kit';
import {
  createUqmSave,
  format,
  LzhufError,
  legacySave,
  lzhufCompress,
  lzhufDecompress,
  lzhufMaxDecodedLength,
  readDefinedGroups,
  saveToLegacy,
  saveToStateFiles,
  STAR_TABLE_SIZE,
  type LegacySave,
  type StarInfo,
  type UqmSave,
} from '@savekit/uqm';
import { budgetSuite, budgetTable, scalingSuite, testBudget, type Attack } from '@savekit/testkit';
import {
  chunkClaim,
  legacyClaim,
  legacyGarbage,
  legacyZeros,
  longRaceQueue,
  manyBattleGroups,
  manyChunks,
  manyGameStates,
  summaryClaim,
  wideScan,
} from './attacks';

/** A budget with no limits, to read what a decode spent. */
const unlimited = () => new DecodeBudget({ maxTotalOutput: Number.MAX_SAFE_INTEGER, maxWork: Number.MAX_SAFE_INTEGER });

/** Work and output a decode of `bytes` spends. */
function spent(bytes: Uint8Array): { work: number; output: number; ok: boolean } {
  const budget = unlimited();
  const result = format.decode(bytes, { budget });
  return { work: budget.workSpent, output: budget.outputSpent, ok: E.isRight(result) };
}

function refusal(bytes: Uint8Array, options?: DecodeOptions): DecodeError {
  const result = format.decode(bytes, options);
  if (E.isRight(result)) throw new Error('decoded without an error');
  expect(result.left).toBeInstanceOf(DecodeError);
  return result.left;
}

/** How many typed arrays of `kind` are constructed while `run` runs. */
function constructions(kind: 'Int32Array' | 'Uint8Array', run: () => void): { count: number; bytes: number } {
  const original = globalThis[kind];
  let count = 0;
  let bytes = 0;
  (globalThis as Record<string, unknown>)[kind] = new Proxy(original, {
    construct(target, args) {
      const made = Reflect.construct(target, args) as Uint8Array | Int32Array;
      count++;
      bytes += made.byteLength;
      return made;
    },
  });
  try {
    run();
  } finally {
    (globalThis as Record<string, unknown>)[kind] = original;
  }
  return { count, bytes };
}

describe('0.7 saves: LZHUF through the budget (item 6)', () => {
  const zeros = legacyZeros(1 << 20);

  test('decoding keeps the file code and never compresses: one Huffman coder, not the encoder too', () => {
    let doc: LegacySave | undefined;
    const arrays = constructions('Int32Array', () => {
      const result = decode(legacySave, zeros);
      if (E.isLeft(result)) throw result.left;
      doc = result.right.value;
    });
    // The decoder's Huffman tables are two Int32Arrays; the compressor would add its own two and
    // its three search-tree arrays.
    expect(arrays.count).toBe(2);
    expect(doc!.stream.stored).toEqual(zeros.subarray(168));
    expect((doc!.stream.value.starinfo as StarInfo).lead?.length).toBe((1 << 20) - STAR_TABLE_SIZE);
    // Unchanged, it writes the file back; changed, it compresses afresh.
    expect(encodeOrThrow(legacySave, doc!)).toEqual(zeros);
    doc!.stream.value.star.x = 7;
    const changed = encodeOrThrow(legacySave, doc!);
    expect(changed).toEqual(encodeOrThrow(legacySave, { ...doc!, stream: { value: doc!.stream.value } }));
  });

  test("the decompressed stream is charged to the decode's output budget, and stops there", () => {
    const length = new DataView(zeros.buffer).getUint32(164, true);
    expect(spent(zeros)).toMatchObject({ ok: true, output: length });
    const error = refusal(zeros, { maxTotalOutput: 1 << 20 });
    expect(error).toBeInstanceOf(BudgetError);
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'output', path: ['stream', 'value'], offset: 164 });
  });

  test('a length over the limit is an OutputLimitError; one the code cannot hold is refused before allocating', () => {
    const stream = lzhufCompress(new Uint8Array(10_000));
    expect(() => lzhufDecompress(stream, { maxOutput: 9_999 })).toThrow(OutputLimitError);
    expect(lzhufDecompress(stream, { maxOutput: 10_000 })).toHaveLength(10_000);
    // 12.8 bytes of output per byte of code at most (16 bytes per 10 bits): our coder comes close.
    expect(10_000 / (stream.length - 4)).toBeLessThanOrEqual(12.8);
    expect(lzhufMaxDecodedLength(stream.length - 4)).toBeGreaterThanOrEqual(10_000);
    const claim = stream.slice();
    new DataView(claim.buffer).setUint32(0, 200 << 20, true);
    const allocated = constructions('Uint8Array', () => {
      expect(() => lzhufDecompress(claim)).toThrow(LzhufError);
    });
    expect(allocated.bytes).toBeLessThan(1 << 16);
    // In a save: the claim is a DecodeError at the stream's length, nothing allocated for it.
    const inSave = legacyClaim(200 << 20);
    const saveAllocation = constructions('Uint8Array', () => {
      expect(refusal(inSave, { maxTotalOutput: 1 << 30 }).message).toMatch(/cannot hold/);
    });
    expect(saveAllocation.bytes).toBeLessThan(1 << 20);
    expect(refusal(legacyClaim(0xffffffff))).toMatchObject({ offset: 164 });
  });

  test('random code claiming the most it could hold: a DecodeError, output bounded by 12.8 x the code', () => {
    const garbage = legacyGarbage(64 * 1024);
    const budget = unlimited();
    const result = format.decode(garbage, { budget });
    expect(E.isLeft(result) && result.left instanceof DecodeError).toBe(true);
    expect(budget.outputSpent).toBeLessThanOrEqual(lzhufMaxDecodedLength(64 * 1024));
  });
});

describe('0.8 saves: chunks, entries and records charged as work', () => {
  test('each GmSt chunk costs its bits: many of them run out of the work budget', () => {
    const one = spent(manyGameStates(1)).work;
    const many = spent(manyGameStates(101)).work;
    expect(many - one).toBeGreaterThanOrEqual(100 * 155 * 8);
    const error = refusal(manyGameStates(101), { maxWork: 50_000 });
    expect(error).toMatchObject({ code: 'budget-exceeded', budget: 'work' });
    expect(error.path[0]).toBe('chunks');
  });

  test('size claims in Summ and in a chunk header are DecodeErrors at their offsets', () => {
    expect(refusal(summaryClaim(0xffffffff)).offset).toBe(8);
    expect(refusal(chunkClaim(0x7fffffff)).message).toMatch(/length 2147483647 is more than/);
  });

  test.each([
    ['chunks', manyChunks],
    ['GmSt chunks', manyGameStates],
    ['scan records', wideScan],
    ['race-queue entries', longRaceQueue],
    ['battle-group chunks', manyBattleGroups],
  ] as const)('doubling the %s about doubles the work and output (counted)', (name, build) => {
    const report = scalingSuite(format, {
      name,
      build,
      n: 64,
      cost: (input) => {
        const s = spent(input as Uint8Array);
        return s.work + s.output;
      },
      record: false,
    });
    expect(report.sizes.every((s) => s.outcome === 'ok')).toBe(true);
    expect(report.ratio).toBeLessThanOrEqual(2.2);
  });

  test('doubling a 0.7 stream about doubles its output and work (counted)', () => {
    const report = scalingSuite(format, {
      name: '0.7 stream bytes',
      build: (n) => legacyZeros(n * 1024),
      n: 64,
      cost: (input) => {
        const s = spent(input as Uint8Array);
        return s.work + s.output;
      },
      record: false,
    });
    expect(report.ratio).toBeLessThanOrEqual(2.2);
  });
});

describe('state files', () => {
  test('readDefinedGroups spends one budget across its headers and groups', () => {
    const save = createUqmSave();
    const files = saveToStateFiles(save);
    const budget = unlimited();
    expect(E.isRight(readDefinedGroups(files.defgrp, new Map(), { budget }))).toBe(true);
    // A header at offset 1: its 66 fields are read through the shared budget.
    const defgrp = new Uint8Array(1 + 268);
    const read = readDefinedGroups(defgrp, new Map([[12, 1]]), { budget });
    expect(E.isRight(read)).toBe(true);
    expect(budget.workSpent).toBeGreaterThanOrEqual(66);
    const tight = readDefinedGroups(defgrp, new Map([[12, 1]]), { maxWork: 10 });
    expect(E.isLeft(tight) && tight.left).toMatchObject({ code: 'budget-exceeded', budget: 'work' });
    const outside = readDefinedGroups(defgrp, new Map([[12, -5]]));
    expect(E.isLeft(outside) && outside.left.message).toMatch(/outside the file/);
  });
});

describe('GmSt entry names are plain data (item 12)', () => {
  test('a __proto__ entry stays an own entry through JSON, and encode refuses it as no revision', () => {
    const json = toJson(format, createUqmSave()) as { chunks: Array<{ id: string; body: Record<string, unknown> }> };
    const gmst = json.chunks[1]!;
    const body = Object.fromEntries([...Object.entries(gmst.body), ['__proto__', 1]]);
    gmst.body = body;
    const parsed = fromJson(format, JSON.parse(JSON.stringify(json)));
    if (E.isLeft(parsed)) throw parsed.left;
    const state = ((parsed.right as UqmSave).chunks[1] as unknown as { body: Record<string, number> }).body;
    expect(Object.hasOwn(state, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(state)).toBeNull();
    const encoded = format.encode(parsed.right);
    expect(E.isLeft(encoded) && encoded.left).toMatchObject({ name: 'EncodeError', path: ['chunks', 1, 'body'] });
    // Without it, the same JSON encodes.
    Reflect.deleteProperty(state, '__proto__');
    expect(E.isRight(format.encode(parsed.right))).toBe(true);
  });
});

describe('nothing undecodable is written (item 13)', () => {
  const refusedAt = (change: (save: UqmSave) => void): readonly unknown[] => {
    const save = createUqmSave();
    change(save);
    const result = format.encode(save);
    if (E.isRight(result)) throw new Error('encoded');
    expect(result.left.name).toBe('EncodeError');
    return result.left.path;
  };
  const chunk = (save: UqmSave, i: number) =>
    save.chunks[i] as unknown as { id: string; body: Record<string, unknown> };
  // A change that sets chunk i's body field `key` (or its whole body), and the path it is refused at.
  const bodyField = (i: number, key: string, value: unknown): [(save: UqmSave) => void, unknown[]] => [
    (s) => {
      chunk(s, i).body[key] = value;
    },
    ['chunks', i, 'body', key],
  ];
  const wholeBody = (i: number, value: unknown): [(save: UqmSave) => void, unknown[]] => [
    (s) => {
      chunk(s, i).body = value as Record<string, unknown>;
    },
    ['chunks', i, 'body'],
  ];

  test.each<[string, (save: UqmSave) => void, unknown[]]>([
    [
      'a chunk tag of three bytes',
      (s) => s.chunks.splice(3, 0, { id: 'ABC', raw: new Uint8Array(1) } as never),
      ['chunks', 3, 'id'],
    ],
    [
      'a chunk tag of five bytes',
      (s) => s.chunks.splice(3, 0, { id: 'ABCDE', raw: new Uint8Array(1) } as never),
      ['chunks', 3, 'id'],
    ],
    [
      'a ship name over 16 bytes',
      (s) => {
        s.summary.shipName = 'x'.repeat(17);
      },
      ['summary', 'shipName'],
    ],
    [
      'a commander name with a lone surrogate',
      (s) => {
        s.summary.commanderName = '\ud800';
      },
      ['summary', 'commanderName'],
    ],
    [
      'a save name with a lone surrogate',
      (s) => {
        s.summary.name = '\ud800';
      },
      ['summary', 'name'],
    ],
    [
      'a save name as bytes that are UTF-8 text',
      (s) => {
        s.summary.name = { bytes: Uint8Array.of(0x41) };
      },
      ['summary', 'name'],
    ],
    [
      '256 battle groups',
      ...bodyField(
        4,
        'groups',
        Array.from({ length: 256 }, () => ({ icon: 0, ships: [] })),
      ),
    ],
    ['a game-state entry past its width', ...bodyField(1, 'SHOFIXTI_VISITS', 8)],
    ['a game state that is not an object', ...wholeBody(1, 3 as never)],
    ['a game state kept as bytes of a known size', ...wholeBody(1, { raw: new Uint8Array(155) })],
    [
      'a scan world that is null',
      (s) => {
        chunk(s, 2).body.systems = [{ star: 1, worlds: [null] }];
      },
      ['chunks', 2, 'body', 'systems', 0, 'worlds', 0],
    ],
    ['an empty scan lead', ...bodyField(2, 'lead', new Uint8Array(0))],
    [
      'a queue body that is null',
      (s) => s.chunks.splice(3, 0, { id: 'Evts', body: null } as never),
      ['chunks', 3, 'body'],
    ],
    [
      'an empty kept rest of a queue',
      (s) => s.chunks.splice(3, 0, { id: 'Evts', body: { entries: [], rest: new Uint8Array(0) } } as never),
      ['chunks', 3, 'body', 'rest'],
    ],
    ['empty trailing bytes of Star', ...bodyField(5, 'rest', new Uint8Array(0))],
    ['a month over a byte', ...bodyField(0, 'month', 256)],
    [
      'an unknown magic',
      (s) => {
        s.magic = 'XXXX' as never;
      },
      [],
    ],
  ])('%s: an EncodeError at its path', (_, change, path) => {
    expect(refusedAt(change)).toEqual(path);
  });

  test('0.7: a misspelt stream name is a JsonError; a stream of the wrong shape an EncodeError', () => {
    const json = toJson(format, saveToLegacy(createUqmSave())) as { stream: Record<string, unknown> };
    json.stream.stord = 'AA==';
    const parsed = fromJson(format, json);
    expect(E.isLeft(parsed) && parsed.left.name).toBe('JsonError');
    const legacy = saveToLegacy(createUqmSave());
    (legacy.stream.value as { activityQueue: unknown }).activityQueue = { npcShips: [] };
    const encoded = format.encode(legacy);
    expect(E.isLeft(encoded) && encoded.left).toMatchObject({
      name: 'EncodeError',
      path: ['stream', 'value', { annotation: 'lzhuf' }, 'activityQueue', 'ipGroups'],
    });
  });
});

describe('the budget suite', () => {
  const MiB = 1024 * 1024;
  // Inputs up to 2 MB (the bar), built once here and decoded each in its own process.
  const attacks: Attack[] = [
    { name: '0.7: 24 MiB of zeros in LZHUF (1.9 MB)', input: () => legacyZeros(24 * MiB), expect: 'ok' },
    {
      name: '0.7: 24 MiB of zeros, total output limited to 1 MiB',
      input: () => legacyZeros(24 * MiB),
      options: { maxTotalOutput: MiB },
      expect: 'error',
      code: 'budget-exceeded',
      budget: 'output',
    },
    { name: '0.7: stream length claims 4 GiB', input: () => legacyClaim(0xffffffff), expect: 'error' },
    {
      name: '0.7: stream length claims 200 MiB, limit raised to 1 GiB',
      input: () => legacyClaim(200 * MiB),
      options: { maxTotalOutput: 1024 * MiB },
      expect: 'error',
    },
    { name: '0.7: 2 MB of random code claiming 25 MiB', input: () => legacyGarbage(2 * MiB - 168), expect: 'error' },
    { name: '0.8: Summ claims 4 GiB', input: () => summaryClaim(0xffffffff), expect: 'error' },
    { name: '0.8: GlSt claims 2 GiB', input: () => chunkClaim(0x7fffffff), expect: 'error' },
    {
      name: '0.8: 12,800 GmSt chunks (2 MB)',
      input: () => manyGameStates(12_800),
      expect: 'error',
      code: 'budget-exceeded',
      budget: 'work',
    },
    { name: '0.8: 260,000 empty chunks (2 MB)', input: () => manyChunks(260_000) },
    { name: '0.8: a scan block of 170,000 worlds (2 MB)', input: () => wideScan(170_000), expect: 'ok' },
    { name: '0.8: a race queue of 69,000 entries (2 MB)', input: () => longRaceQueue(69_000), expect: 'ok' },
    { name: '0.8: 650 battle-group chunks of 255 groups (2 MB)', input: () => manyBattleGroups(650) },
  ];

  test(
    'every attack: a value or a DecodeError, within 2 s and 256 MiB',
    async () => {
      const report = await budgetSuite({ module: join(__dirname, '..', 'dist', 'index.js'), attacks });
      console.log(budgetTable(report));
      expect(report.failures).toEqual([]);
    },
    testBudget({ quick: 600_000, heavy: 900_000 }),
  );
});
