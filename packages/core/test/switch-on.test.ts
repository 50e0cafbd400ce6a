// switchOn: a switch on peeked bytes whose value is the case's own. The laws (read(write(a)) = a,
// write(read(b)) = b), errors with path and offset, and paths without a segment of the switch's own.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import {
  array,
  decode,
  pstring,
  fourcc,
  fromJson,
  i32le,
  magic,
  struct,
  switchOn,
  switchOnDemand,
  toJson,
  u16le,
  u8,
  type TypeOf,
} from '../src/index';
import { layoutOf, partsOf, typeNameOf } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

const ums = struct({ magic: magic('UMS\x01'), level: u8 });
const mmv = struct({ magic: magic('MMV4'), level: u8, seed: u16le });
const legacy = struct({ logX: i32le, level: u8 });

type Doc = TypeOf<typeof ums> | TypeOf<typeof mmv> | TypeOf<typeof legacy>;

const document = switchOn(
  fourcc(),
  { chunked: ums, megamod: mmv, legacy },
  {
    select: (m) => (m === 'UMS\x01' ? 'chunked' : m === 'MMV4' ? 'megamod' : 'legacy'),
    caseOf: (doc: Doc) => ('magic' in doc ? (doc.magic === 'MMV4' ? 'megamod' : 'chunked') : 'legacy'),
  },
);

const docs: fc.Arbitrary<Doc> = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((level) => ({ magic: 'UMS\x01' as const, level })),
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 65535 }))
    .map(([level, seed]) => ({ magic: 'MMV4' as const, level, seed })),
  // A 0.7-like save: any logX whose bytes spell no magic.
  fc
    .tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 255 }))
    .filter(([x]) => x !== 0x01534d55 && x !== 0x34564d4d)
    .map(([logX, level]) => ({ logX, level })),
);

describe('switchOn', () => {
  test('obeys the laws: the case the peeked selector picks, its value as it is', () => {
    checkLaws(document, docs);
    const read = decode(document, hexBytes('4d4d5634 07 0201'));
    expect(E.isRight(read) && read.right.value).toEqual({ magic: 'MMV4', level: 7, seed: 0x0102 });
    const old = decode(document, hexBytes('10000000 03'));
    expect(E.isRight(old) && old.right.value).toEqual({ logX: 16, level: 3 });
  });

  test('the JSON form is the union of the cases', () => {
    const value: Doc = { magic: 'MMV4', level: 1, seed: 2 };
    const back = fromJson(document, toJson(document, value));
    expect(E.isRight(back) && back.right).toEqual(value);
    expect(E.isLeft(fromJson(document, { level: 1 }))).toBe(true);
  });

  test('the selector picks without a path segment or a span of its own; the case reads its magic', () => {
    const traced = decode(document, hexBytes('554d5301 09'), { trace: true });
    if (E.isLeft(traced)) throw traced.left;
    expect(traced.right.spans?.map((s) => [s.path.join('.'), s.start, s.end])).toEqual([
      ['magic', 0, 4],
      ['level', 4, 5],
    ]);
    // A case's error is at the case's own path, at its offset.
    const error = decodeFails(document, hexBytes('4d4d5634 07 02'));
    expect([error.path, error.offset]).toEqual([['seed'], 5]);
  });

  test('a selector no case claims, or too few bytes to peek, is a DecodeError at the switch', () => {
    const strict = switchOn(
      fourcc(),
      { 'UMS\x01': ums, MMV4: mmv },
      { caseOf: (d: Doc) => (d as { magic: 'MMV4' }).magic },
    );
    const error = decodeFails(strict, hexBytes('41424344 00'));
    expect([error.message, error.path, error.offset]).toEqual([
      'unknown fourcc "ABCD" (known: UMS\u0001, MMV4)',
      [],
      0,
    ]);
    const named = switchOn(fourcc(), { MMV4: mmv }, { caseOf: () => 'MMV4', unknown: (m) => `not a save: ${m}` });
    expect(decodeFails(named, hexBytes('41424344 00')).message).toBe('not a save: ABCD');
    expect(decodeFails(strict, hexBytes('4d4d')).offset).toBe(0);
  });

  test('on write: a value of no case, or bytes that would decode as another case, are EncodeErrors', () => {
    // A 0.7 save whose logX spells the vanilla magic would read back as a 0.8 one.
    const disguised = encodeFails(document, { logX: 0x01534d55, level: 0 });
    expect([disguised.message, disguised.offset]).toEqual([
      'the bytes written as "legacy" start with "UMS\\u0001": they would decode as "chunked"',
      0,
    ]);
    const lost = switchOn(fourcc(), { MMV4: mmv }, { caseOf: () => 'nope' as 'MMV4' });
    expect(encodeFails(lost, { magic: 'MMV4' as const, level: 0, seed: 0 }).message).toMatch(/of no case/);
    const thrower = switchOn(
      fourcc(),
      { MMV4: mmv },
      {
        caseOf: () => {
          throw new Error('no idea');
        },
      },
    );
    expect(encodeFails(thrower, { magic: 'MMV4' as const, level: 0, seed: 0 }).message).toBe(
      'switchOn(fourcc): caseOf: no idea',
    );
    // Errors of the case are at the case's own paths.
    const inner = encodeFails(document, { magic: 'MMV4', level: 300, seed: 0 } as Doc);
    expect(inner.path).toEqual(['level']);
    expect(encodeOk(document, { magic: 'UMS\x01', level: 2 })).toEqual(hexBytes('554d5301 02'));
  });

  test('an integer selector read back in place: the same bytes, and the same errors when it picks another case', () => {
    // Each case writes its own tag byte; `sneaky` writes 2, which selects `two`.
    const byTag = switchOn(
      u8,
      { one: struct({ tag: u8, x: u8 }), two: struct({ tag: u8, y: u16le }), sneaky: struct({ tag: u8 }) },
      {
        select: (tag) => (tag === 1 ? 'one' : tag === 2 ? 'two' : tag === 3 ? 'sneaky' : undefined),
        caseOf: (v: { tag: number }) => ('x' in v ? 'one' : 'y' in v ? 'two' : 'sneaky'),
      },
    );
    expect(encodeOk(byTag, { tag: 1, x: 9 })).toEqual(Uint8Array.of(1, 9));
    expect(encodeOk(byTag, { tag: 2, y: 0x102 })).toEqual(Uint8Array.of(2, 2, 1));
    const wrong = encodeFails(byTag, { tag: 2 } as never);
    expect([wrong.message, wrong.offset]).toEqual([
      'the bytes written as "sneaky" start with 2: they would decode as "two"',
      0,
    ]);
    const none = encodeFails(byTag, { tag: 7 } as never);
    expect(none.message).toMatch(/^the bytes written as "sneaky" do not start with a u8 that picks a case/);
  });

  test('a four-character-code selector read back in place: letters and digits only when it says so', () => {
    const named = switchOn(
      fourcc({ alnum: true }),
      { ab12: struct({ id: fourcc({ alnum: true }), n: u8 }), free: struct({ id: fourcc(), n: u8 }) },
      {
        select: (id) => (id === 'ab12' ? 'ab12' : 'free'),
        caseOf: (v: { id: string }) => (v.id === 'ab12' ? 'ab12' : 'free'),
      },
    );
    expect(encodeOk(named, { id: 'ab12', n: 1 })).toEqual(Uint8Array.of(0x61, 0x62, 0x31, 0x32, 1));
    expect(encodeOk(named, { id: 'zz99', n: 2 })).toEqual(Uint8Array.of(0x7a, 0x7a, 0x39, 0x39, 2));
    // Written by the free case, but the alnum selector cannot read it back.
    const odd = encodeFails(named, { id: 'a-b!', n: 3 });
    expect([odd.message, odd.offset]).toEqual([
      'the bytes written as "free" do not start with a fourcc(alnum) that picks a case: marker byte 0x2d is not a letter or digit',
      0,
    ]);
  });

  test('needs a case', () => {
    expect(() => switchOn(fourcc(), {}, { caseOf: () => 'x' as never })).toThrow(RangeError);
  });
});

describe('switchOn on a byte (read in place)', () => {
  // EDGE's string: AA, u16 length and the text, or DE alone for NULL.
  const text = struct({ marker: magic('\xAA'), text: pstring(u16le, 'ascii') });
  const none = struct({ marker: magic('\xDE') });
  const str = switchOn(
    u8,
    { text, none },
    {
      select: (b) => (b === 0xaa ? 'text' : b === 0xde ? 'none' : b === 0x01 ? ('boom' as never) : undefined),
      caseOf: (v) => ('text' in v ? 'text' : 'none'),
      unknown: (b) => `marker 0x${b.toString(16)}`,
    },
  );
  const list = array(str, u8);

  test('the same values and errors as the traced (tracked) read, for any bytes', () => {
    const outcome = (bytes: Uint8Array, trace: boolean) => {
      const r = decode(list, bytes, { trace });
      return E.isRight(r) ? r.right.value : [r.left.path, r.left.offset, r.left.code, r.left.message];
    };
    const marked = fc.oneof(fc.constantFrom(0xaa, 0xde, 0x01, 0x02), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(marked, { maxLength: 10 }), (raw) => {
        const bytes = Uint8Array.from(raw);
        expect(outcome(bytes, false)).toEqual(outcome(bytes, true));
      }),
    );
  });

  test('an unknown marker, a case that is no case, and a short read name the value', () => {
    const unknown = decodeFails(list, hexBytes('02 de 77'));
    expect([unknown.path, unknown.offset, unknown.code, unknown.message]).toEqual([
      [1],
      2,
      'unknown-tag',
      'marker 0x77',
    ]);
    const noCase = decodeFails(list, hexBytes('01 01'));
    expect([noCase.path, noCase.offset]).toEqual([[0], 1]);
    const short = decodeFails(list, hexBytes('02 de aa'));
    expect([short.path[0], short.offset, short.code]).toEqual([1, 3, 'short-read']);
    checkLaws(
      list,
      fc.array(
        fc.oneof(
          fc.constant({ marker: '\xDE' as const }),
          fc.record({
            marker: fc.constant('\xAA' as const),
            text: fc.string({ maxLength: 3 }).map((x) => x.replace(/[^ -~]/g, '')),
          }),
        ),
        { maxLength: 4 },
      ) as never,
    );
  });
});

describe('switchOn on a four-character code (read in place)', () => {
  const entry = (code: string) => struct({ code: magic(code), n: u8 });
  const chunk = switchOn(
    fourcc({ alnum: true }),
    { AB12: entry('AB12'), zzzz: entry('zzzz') },
    {
      select: (c) => (c === 'AB12' || c === 'zzzz' ? c : undefined),
      caseOf: (v) => (v.code === 'AB12' ? 'AB12' : 'zzzz'),
    },
  );
  const list = array(chunk, u8);

  test('the same values and errors as the traced (tracked) read, for any bytes, repeats included', () => {
    const outcome = (bytes: Uint8Array, trace: boolean) => {
      const r = decode(list, bytes, { trace });
      return E.isRight(r) ? r.right.value : [r.left.path, r.left.offset, r.left.code, r.left.message];
    };
    const piece = fc.oneof(
      fc.constantFrom(
        [0x41, 0x42, 0x31, 0x32],
        [0x7a, 0x7a, 0x7a, 0x7a],
        [0x41, 0x42, 0x31, 0x20],
        [0x51, 0x52, 0x53, 0x54],
      ),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const bytes = Uint8Array.from([pieces.length, ...pieces.flat()]);
        expect(outcome(bytes, false)).toEqual(outcome(bytes, true));
      }),
    );
    const bad = decodeFails(list, Uint8Array.from([2, 0x7a, 0x7a, 0x7a, 0x7a, 1, 0x41, 0x42, 0x31, 0x20, 1]));
    expect([bad.path, bad.offset, bad.code]).toEqual([[1], 9, 'bad-magic']);
  });
});

describe('switchOn on any four bytes (the code met last kept at hand)', () => {
  const entry = (code: string) => struct({ code: magic(code), n: u8 });
  const chunk = switchOn(
    fourcc(),
    { 'AB\x001': entry('AB\x001'), zzzz: entry('zzzz') },
    {
      select: (c) => (c === 'AB\x001' || c === 'zzzz' ? c : undefined),
      caseOf: (v) => (v.code === 'zzzz' ? 'zzzz' : 'AB\x001'),
    },
  );
  const list = array(chunk, u8);

  test('the same values and errors as the traced read, for runs of one code, others between them', () => {
    const outcome = (bytes: Uint8Array, trace: boolean) => {
      const r = decode(list, bytes, { trace });
      return E.isRight(r) ? r.right.value : [r.left.path, r.left.offset, r.left.code, r.left.message];
    };
    const piece = fc.oneof(
      fc.constantFrom([0x41, 0x42, 0x00, 0x31], [0x7a, 0x7a, 0x7a, 0x7a], [0x41, 0x42, 0x00, 0x32]),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }),
    );
    const run = fc.tuple(piece, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 5 }), (runs) => {
        const pieces = runs.flatMap(([p, times, n]) => Array.from({ length: times }, () => [...p, n]));
        const bytes = Uint8Array.from([pieces.length, ...pieces.flat()]);
        expect(outcome(bytes, false)).toEqual(outcome(bytes, true));
      }),
      { numRuns: 500 },
    );
    expect(outcome(Uint8Array.from([2, 0x7a, 0x7a, 0x7a, 0x7a, 1, 0x7a, 0x7a, 0x7a, 0x7a, 2]), false)).toEqual([
      { code: 'zzzz', n: 1 },
      { code: 'zzzz', n: 2 },
    ]);
  });
});

describe('switchOn for tools', () => {
  test('its definition names the selector, the cases and how a value picks one', () => {
    const def = document.def;
    if (def.type !== 'switch') throw new Error(`expected a switch definition, got ${def.type}`);
    expect(def.selector.name).toBe(fourcc().name);
    expect(def.cases.map((c) => c.key)).toEqual(['chunked', 'megamod', 'legacy']);
    expect(def.cases[2]!.codec).toBe(legacy);
    expect(def.tag).toBe('hidden');
    expect(typeNameOf(document)).toBe('switchOn(fourcc: "chunked" | "megamod" | "legacy")');
    expect(layoutOf(document)).toEqual([
      { path: '', offset: 0, size: undefined, type: typeNameOf(document), parts: partsOf(document) },
    ]);
  });
});

describe('switchOnDemand', () => {
  // Cases by marker, as definitions earlier in a file would give them: built only when used.
  const widths: Record<string, number> = { BYTE: 1, WORD: 2, LONG: 4 };
  const builds: string[] = [];
  const entry = switchOnDemand(
    fourcc(),
    {
      keys: () => Object.keys(widths),
      build: (marker) => {
        builds.push(marker);
        const width = widths[marker];
        if (width === undefined) return undefined;
        return struct({ marker: magic(marker), n: width === 1 ? u8 : width === 2 ? u16le : i32le });
      },
    },
    {
      select: (marker) => (Object.hasOwn(widths, marker) ? marker : undefined),
      caseOf: (value: { marker: string; n: number }) => value.marker,
      json: t.type({ marker: t.string, n: t.number }),
    },
  );

  test('obeys the laws; a case is built once, when first used', () => {
    const values = fc.oneof(
      fc.nat(255).map((n) => ({ marker: 'BYTE', n })),
      fc.nat(0xffff).map((n) => ({ marker: 'WORD', n })),
    );
    checkLaws(entry, values);
    expect(builds.sort()).toEqual(['BYTE', 'WORD']);
  });

  test('an unknown selector names the known cases; a value of no case is refused', () => {
    const error = decodeFails(entry, hexBytes('51554144 01'));
    expect(error.message).toBe('unknown fourcc "QUAD" (known: BYTE, WORD, LONG)');
    expect(encodeFails(entry, { marker: 'QUAD', n: 1 }).message).toMatch(/of no case/);
    expect(entry.def.type === 'switch' && entry.def.cases.map((c) => c.key)).toEqual(['BYTE', 'WORD', 'LONG']);
  });
});
