// Issue 17 for Zippy: one work budget per load (container decode and Lua/C restore share it), sizes
// recorded in the file never allocated beyond the bytes present, costs that grow linearly with the
// object count, table width and nesting (counted, not timed), externals named like Object's own
// properties, and an encoder that refuses what would not decode — then the testkit's budget and
// encode suites.
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { BudgetError, DecodeError, decodeOrThrow, encode, EncodeError, type SaveFormat } from '@savekit/core';
import { DecodeBudget } from '@savekit/core/kit';
import { format, Vector, ZClass, zippyFile, type ZippyFile } from '@savekit/zippy';
import { loadStructures, saveStructures } from './structures';
import { loadLua, saveLua } from '@savekit/zippy/lua';
import { budgetSuite, budgetTable, encodeSuite, scalingSuite, testBudget, type Attack } from '@savekit/testkit';
import {
  classChain,
  dataClaiming,
  deepTables,
  headerClaim,
  manyObjects,
  payloadLengthClaim,
  savedLua,
  stringLengthClaim,
  tableCountClaim,
  wideTable,
} from './attacks';
import { allocatedBy, lua, newState, pushGlobal, run, setGlobal, to_luastring } from './lua-helpers';
import { workedExample } from './worked-example';

/**
 * The container decode's work: a unit per header field (15), per root and external, per object its
 * directory entry, body, reference list and segment list (4) plus a unit per reference and segment,
 * and one for the CRC trailer. `objects` lists each object's [references, segments].
 */
function containerWork(file: { roots: number; externals?: number; objects: Array<[number, number]>; crc?: boolean }) {
  const objects = file.objects.reduce((sum, [references, segments]) => sum + 4 + references + segments, 0);
  return 15 + file.roots + (file.externals ?? 0) + objects + (file.crc ? 1 : 0);
}

const refusal = (result: E.Either<DecodeError, unknown>): DecodeError => {
  if (E.isRight(result)) throw new Error('expected a DecodeError');
  return result.left;
};

describe('sizes recorded in the file: typed errors, nothing allocated for the claim', () => {
  // Each claim in both byte orders (a VASZ file's claims are read in its order, and refused the same).
  const cases: Array<[string, (order: 'be' | 'le') => Uint8Array, RegExp]> = [
    [
      '1,000 userdata objects claiming 0xFFFFFFFF each',
      (order) => dataClaiming(1000, 0xffffffff, order),
      /recorded size 4294967295/,
    ],
    [
      'a table claiming 2^32 − 1 sequence entries',
      (order) => tableCountClaim(0xffffffff, order),
      /a count of 4294967295 cannot fit/,
    ],
    [
      'a string claiming 2^32 − 1 bytes',
      (order) => stringLengthClaim(0xffffffff, order),
      /length 4294967295 is more than the 8 bytes left/,
    ],
    [
      'a userdata payload claiming 2^32 − 1 bytes',
      (order) => payloadLengthClaim(0xffffffff, order),
      /a count of 4294967295 cannot fit/,
    ],
    [
      'a header claiming 2^31 − 1 objects and roots',
      (order) => headerClaim(0x7fffffff, order),
      /2147483647 elements of at least 4 bytes do not fit/,
    ],
  ];
  test.each(
    cases.flatMap(([name, build, message]) =>
      (['be', 'le'] as const).map((order) => [name, order, build, message] as const),
    ),
  )('%s (%s)', (_name, order, build, message) => {
    const bytes = build(order);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe(order === 'le' ? 'VASZ' : 'ZSAV');
    let result: E.Either<DecodeError, unknown> | undefined;
    const allocated = allocatedBy(() => {
      result = loadLua(newState(), bytes);
    });
    const error = refusal(result!);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.message).toMatch(message);
    // What the load allocated is a small multiple of the input (the old restorer reserved 4 GiB per claim).
    expect(allocated).toBeLessThan(4 * bytes.length + (64 << 10));
  });
});

describe('one budget per load', () => {
  test('the container decode and the Lua restore charge the same budget, passed in or made from the options', () => {
    const bytes = wideTable(1000);
    const budget = DecodeBudget.of({}, bytes.length);
    const loaded = loadLua(newState(), bytes, { budget });
    if (E.isLeft(loaded)) throw loaded.left;
    const decodeOnly = DecodeBudget.of({}, bytes.length);
    decodeOrThrow(zippyFile, bytes, { budget: decodeOnly });
    // The container: its one root, its one object with no references and one segment; the restore:
    // the object, 1,000 sequence entries, 1,000 pairs.
    expect(decodeOnly.workSpent).toBe(containerWork({ roots: 1, objects: [[0, 1]] }));
    expect(budget.workSpent).toBe(decodeOnly.workSpent + 1 + 1000 + 1000);
    // A work limit below that is a BudgetError naming the object being restored.
    const error = refusal(loadLua(newState(), bytes, { maxWork: 1500 }));
    expect(error).toBeInstanceOf(BudgetError);
    expect([(error as BudgetError).budget, error.path]).toEqual(['work', ['objects', 0]]);
  });

  test('C structures charge the budget too (List items, Vector elements)', () => {
    const saved = saveStructures([new Vector(Array.from({ length: 500 }, (_, i) => i))]);
    if (E.isLeft(saved)) throw saved.left;
    const budget = DecodeBudget.of({}, saved.right.length);
    const result = loadStructures(saved.right, { budget });
    if (E.isLeft(result)) throw result.left;
    expect(budget.workSpent).toBe(containerWork({ roots: 1, objects: [[0, 1]], crc: true }) + 1 + 500);
    const error = refusal(loadStructures(saved.right, { maxWork: 100 }));
    expect(error).toBeInstanceOf(BudgetError);
  });
});

/** The Lua load as a SaveFormat, for the suites (decode = loadLua into a fresh state). */
const luaFormat: SaveFormat<ZippyFile> = {
  ...format,
  id: 'zippy-lua',
  decode: (input, options) => {
    if (!(input instanceof Uint8Array)) return format.decode(input, options);
    const loaded = loadLua(newState(), input, options);
    return E.isLeft(loaded) ? loaded : E.right({ value: loaded.right.file, warnings: [] });
  },
};

/** Calls into fengari's API while `run` runs, plus the budget's work: what a load costs, counted. */
function countedCost(bytes: Uint8Array): number {
  const api = lua as unknown as Record<string, unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  let calls = 0;
  for (const [name, f] of Object.entries(api))
    if (typeof f === 'function') {
      originals.set(name, f as (...args: unknown[]) => unknown);
      api[name] = (...args: unknown[]) => {
        calls++;
        return (f as (...args: unknown[]) => unknown)(...args);
      };
    }
  const budget = DecodeBudget.of({}, bytes.length);
  try {
    const loaded = loadLua(newState(), bytes, { budget });
    if (E.isLeft(loaded)) throw loaded.left;
  } finally {
    for (const [name, f] of originals) api[name] = f;
  }
  return calls + budget.workSpent;
}

describe('scaling: doubling objects, width or nesting about doubles the counted cost', () => {
  const n = testBudget({ quick: 2000, heavy: 20_000 });
  test.each([
    ['objects', manyObjects],
    ['table width', wideTable],
    ['nesting', deepTables],
  ] as const)('%s', (name, build) => {
    const report = scalingSuite(luaFormat, { name, n, build, cost: (input) => countedCost(input as Uint8Array) });
    expect(report.failures).toEqual([]);
    expect(report.ratio).toBeLessThan(2.2);
  });
});

describe('externals named like Object.prototype properties', () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  // Each name stands for its own table of a global list both states have.
  const record: Record<string, (L: object) => void> = Object.create(null);
  names.forEach((name, i) => {
    record[name] = (L) => {
      lua.lua_getglobal(L, to_luastring('shared'));
      lua.lua_rawgeti(L, -1, i + 1);
      lua.lua_remove(L, -2);
    };
  });
  const SHARED = `shared = {${names.map(() => '{}').join(', ')}}`;

  test('are ordinary names: saved, and resolved by own properties or a Map; unknown when not supplied', () => {
    const L = newState();
    run(L, SHARED);
    run(L, `T = {${names.map((name, i) => `["${name}"] = shared[${i + 1}]`).join(', ')}}`);
    pushGlobal(L, 'T');
    const saved = saveLua(L, 1, { externals: record });
    if (E.isLeft(saved)) throw saved.left;
    expect(decodeOrThrow(zippyFile, saved.right).externals.slice().sort()).toEqual(names.slice().sort());
    for (const externals of [record, { ...record }, new Map(Object.entries(record))]) {
      const L2 = newState();
      run(L2, SHARED);
      const loaded = loadLua(L2, saved.right, { externals });
      if (E.isLeft(loaded)) throw loaded.left;
      setGlobal(L2, 'T');
      run(L2, names.map((name, i) => `assert(T["${name}"] == shared[${i + 1}], "${name}")`).join('; '));
    }
    // Not supplied: Object.prototype's members are not externals (the old lookup called them).
    for (const externals of [{}, new Map()]) {
      const error = refusal(loadLua(newState(), saved.right, { externals }));
      expect(error.message).toMatch(/^external "(__proto__|constructor|toString|hasOwnProperty)" is not known/);
    }
  });
});

describe('encode refuses what would not decode: an EncodeError at the document path', () => {
  const file = (): ZippyFile => decodeOrThrow(zippyFile, workedExample());
  const refused = (doc: unknown): EncodeError => {
    const result = encode(zippyFile, doc as ZippyFile);
    if (E.isRight(result)) throw new Error('expected an EncodeError');
    expect(result.left).toBeInstanceOf(EncodeError);
    return result.left;
  };
  const withObject = (change: Record<string, unknown>) => {
    const f = file();
    return { ...f, objects: f.objects.map((o, i) => (i === 1 ? { ...o, ...change } : o)) };
  };
  // A tag is checked where the object is split into its directory entry and body: at the object.
  test.each<[string, () => unknown, Array<string | number>, RegExp]>([
    ['a three-character tag', () => withObject({ tag: 'DAT' }), ['objects', 1], /not four characters/],
    ['a tag of wide characters', () => withObject({ tag: 'DAT\u0100' }), ['objects', 1], /one byte each/],
    ['a tag that is not text', () => withObject({ tag: 7 }), ['objects', 1], /tag 7/],
    ['a fractional size', () => withObject({ size: 1.5 }), ['objects', 1, 'size'], /integer for u32be/],
    ['a size of 2^32', () => withObject({ size: 2 ** 32 }), ['objects', 1, 'size'], /out of range for u32be/],
    ['a negative size', () => withObject({ size: -1 }), ['objects', 1, 'size'], /out of range for u32be/],
    ['a reference to no object', () => withObject({ references: [4] }), ['objects', 1, 'references', 0], /is not 0/],
    ['a reference NaN', () => withObject({ references: [Number.NaN] }), ['objects', 1, 'references', 0], /NaN/],
    ['a root to no object', () => ({ ...file(), roots: [9] }), ['roots', 0], /reference: 9 is not 0/],
    ['roots that are not a list', () => ({ ...file(), roots: null }), ['roots'], /expected a list of roots, got null/],
    [
      'objects that are not a list',
      () => ({ ...file(), objects: 7 }),
      ['objects'],
      /expected a list of objects, got 7/,
    ],
    ['a lone surrogate in an external name', () => ({ ...file(), externals: ['\ud800'] }), ['externals', 0], /lone/],
    [
      'an external name of 65,536 bytes',
      () => ({ ...file(), externals: ['a'.repeat(65_536)] }),
      ['externals', 0],
      /65535/,
    ],
    ['an external name that is not text', () => ({ ...file(), externals: [1] }), ['externals', 0], /expected a string/],
    [
      'a minor version of 65,536',
      () => ({ ...file(), minor: 65_536 }),
      ['minor'],
      /out of range for u16be \(0 to 65535\)/,
    ],
    ['a number format of 2', () => ({ ...file(), numberFormat: 2 }), ['numberFormat'], /expected 0 or 1, got 2/],
    ['crc that is not a boolean', () => ({ ...file(), crc: 'yes' }), ['crc'], /true or false/],
    ['a byte order of "xx"', () => ({ ...file(), byteOrder: 'xx' }), ['byteOrder'], /expected "le" or "be", got "xx"/],
  ])('%s', (_name, doc, path, message) => {
    const error = refused(doc());
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
  });

  test('the encode suite: mutated documents either refuse to encode or decode to themselves', () => {
    const classes = saveStructures([new ZClass('A', new ZClass('B'))]);
    if (E.isLeft(classes)) throw classes.left;
    const samples = [
      workedExample(),
      workedExample('le'),
      classes.right,
      savedLua('T = {1, "two", {3}, x = true}'),
      savedLua('T = {1, "two", {3}, x = true}', 'T', 'le'),
      dataClaiming(3, 4),
      dataClaiming(3, 4, 'le'),
    ];
    const report = encodeSuite(format, { samples });
    expect(report.failures).toEqual([]);
    expect(report.encoded).toBeGreaterThan(0);
    expect(report.refusedByEncode).toBeGreaterThan(0);
  });
});

/** An attack that the work budget, lowered to `maxWork`, must stop. */
const workAttack = (name: string, input: () => Uint8Array, maxWork: number): Attack => ({
  name,
  input,
  expect: 'error',
  code: 'budget-exceeded',
  budget: 'work',
  options: { maxWork },
});

describe('the budget suite: each attack in a child process, 2 s and 256 MB (scaled by the profile)', () => {
  const dist = join(__dirname, '..', 'dist', 'index.js');
  test('the container (format.decode)', async () => {
    const report = await budgetSuite({
      module: dist,
      attacks: [
        { name: 'header claiming 2^31 − 1 objects', input: headerClaim, expect: 'error' },
        { name: '40,000 objects (1.9 MB)', input: () => manyObjects(40_000), expect: 'ok' },
        workAttack('40,000 objects, maxWork 10,000', () => manyObjects(40_000), 10_000),
      ],
    });
    console.log(budgetTable(report));
    expect(report.failures).toEqual([]);
  }, 300_000);

  test('loading into Lua (loadLua)', async () => {
    const report = await budgetSuite({
      module: join(__dirname, 'lua-format.mjs'),
      attacks: [
        {
          name: '1,000 userdata objects claiming 4 GiB each',
          input: () => dataClaiming(1000, 0xffffffff),
          expect: 'error',
        },
        { name: 'a table claiming 2^32 − 1 entries', input: () => tableCountClaim(), expect: 'error' },
        { name: 'a string claiming 2^32 − 1 bytes', input: () => stringLengthClaim(), expect: 'error' },
        { name: 'a payload claiming 2^32 − 1 bytes', input: () => payloadLengthClaim(), expect: 'error' },
        { name: '40,000 tables in one (1.9 MB)', input: () => manyObjects(40_000), expect: 'ok' },
        { name: 'a table of 100,000 + 100,000 entries (2 MB)', input: () => wideTable(100_000), expect: 'ok' },
        { name: 'tables nested 40,000 deep (2 MB)', input: () => deepTables(40_000), expect: 'ok' },
        workAttack('a wide table over maxWork', () => wideTable(100_000), 50_000),
        { name: 'a superclass chain 35,000 long (2 MB)', input: () => classChain(35_000), expect: 'ok' },
      ],
    });
    console.log(budgetTable(report));
    expect(report.failures).toEqual([]);
  }, 600_000);
});
