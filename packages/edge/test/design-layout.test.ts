// The seed's design layout as issue 20 asks: empty areas, arrays of structures the file does not
// define, declared sizes that are not storage sizes (the reader's own tables decide), odd GLOB lumps,
// marker rules, and fixtures in variants A and C written by the package and checked by an
// independent reader (./independent.ts), read back, re-encoded byte for byte and built afresh.
import * as E from 'fp-ts/lib/Either';
import { decode as coreDecode, encode, encodeOrThrow, type Warning } from '@savekit/core';
import type { Instance } from '@savekit/core/schema';
import {
  arrays,
  decode,
  edgeSave,
  edgeSaveWith,
  elementsOf,
  globEntries,
  levelInfo,
  structures,
  tableStruct,
  type EdgeSave,
  type IndexRef,
} from '@savekit/edge';
import {
  DESIGN_VARIANTS,
  emptyAreas,
  FULL_STORES,
  fullDesign,
  MOBJ,
  PHANTOMS,
  PLAYER,
  SEED_TABLES,
  SPOT,
  XTRA_PLAIN,
} from './design-fixtures';
import { Cursor, le32, readDesignFile, readFile, writeFile, writeStored } from './independent';

/** The header padding as the seed gives it (`0D 0A 1A 00`), for the independent writer. */
const SEED_PADDING = Uint8Array.of(0x0d, 0x0a, 0x1a, 0x00);

function decoded(bytes: Uint8Array): { value: EdgeSave; warnings: ReadonlyArray<Warning> } {
  const result = coreDecode(edgeSave, bytes);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

/** The document as JSON and back (what `savekit dump` and `build` do), with or without the kept stored bytes. */
function viaJson(save: EdgeSave, keepStored: boolean): EdgeSave {
  const json = JSON.parse(JSON.stringify(edgeSave.json.encode(save))) as {
    chunks: Array<{ body?: { stored?: unknown } }>;
  };
  if (!keepStored) for (const c of json.chunks) if (c.body !== undefined) delete c.body.stored;
  const back = edgeSave.json.decode(json);
  if (E.isLeft(back)) throw new Error('the JSON document does not validate');
  return back.right;
}

const str = (s: string): number[] => [0xaa, s.length & 0xff, s.length >> 8, ...Buffer.from(s, 'latin1')];
const pad4 = (bytes: number[]): number[] => [...bytes, ...new Array((4 - (bytes.length % 4)) % 4).fill(0)];
/** A nested chunk, the variant's way (end marker in A). */
const nested = (variant: 'A' | 'C', marker: string, data: number[]): number[] => [
  ...Buffer.from(marker),
  ...le32(pad4(data).length),
  ...pad4(data),
  ...(variant === 'A' ? [...Buffer.from(marker.toUpperCase())] : []),
];
/** The 6-byte float of `value` (edge.md §3), for the tests' hand-written files. */
function float6(value: number): number[] {
  if (value === 0) return [0, 1, 0, 0, 0, 0];
  const neg = value < 0;
  let e = Math.ceil(Math.log2(Math.abs(value)));
  if (Math.abs(value) / 2 ** e >= 1) e += 1;
  if (Math.abs(value) / 2 ** e < 0.5) e -= 1;
  const m = Math.trunc((Math.abs(value) / 2 ** e) * 2 ** 30) * (neg ? -1 : 1);
  return [(e + 256) & 0xff, (e + 256) >> 8, ...le32(m >>> 0)];
}

describe.each(DESIGN_VARIANTS)('design layout, variant %s', (variant, version) => {
  const nestedVariant = variant === 'A' ? 'A' : 'C';

  describe('empty STRU and ARRY areas', () => {
    const bytes = encodeOrThrow(edgeSave, emptyAreas(variant, version));

    test('are written as the engine stores an empty top-level chunk (A: 3, 0, `11 00 00`; C: 0, 0)', () => {
      const file = readFile(bytes);
      expect(file.checksumOk).toBe(true);
      expect(file.chunks.map((c) => c.marker)).toEqual(['Glob', 'Stru', 'Arry']);
      for (const c of file.chunks.slice(1)) {
        expect(c.origLength).toBe(0);
        expect([...c.stored]).toEqual(variant === 'A' ? [0x11, 0, 0] : []);
      }
    });

    test('decode as areas with no definitions, re-encode byte-identically and build afresh', () => {
      const { value, warnings } = decoded(bytes);
      expect(value.layout).toBe('design');
      expect(structures(value)).toEqual([]);
      expect(arrays(value)).toEqual([]);
      expect(warnings).toEqual([]);
      expect(levelInfo(value)).toMatchObject({ level: 'MAP07', skill: 3, levelTime: 4321 });
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
      expect(Buffer.from(encodeOrThrow(edgeSave, viaJson(value, false))).equals(bytes)).toBe(true);
    });

    test('written by another writer (the independent one), they read too', () => {
      const glob = readFile(bytes).chunks[0]!;
      const other =
        variant === 'A'
          ? writeStored(
              version,
              [
                { marker: 'Glob', stored: glob.stored, orig: glob.origLength },
                { marker: 'Stru', stored: Uint8Array.of(0x11, 0, 0), orig: 0 },
                { marker: 'Arry', stored: Uint8Array.of(0x11, 0, 0), orig: 0 },
              ],
              SEED_PADDING,
            )
          : writeFile(
              version,
              [
                { marker: 'Glob', plain: glob.plain },
                { marker: 'Stru', plain: new Uint8Array(0) },
                { marker: 'Arry', plain: new Uint8Array(0) },
              ],
              SEED_PADDING,
            );
      const { value } = decoded(other);
      expect(structures(value)).toEqual([]);
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(other)).toBe(true);
    });
  });

  describe('the full fixture', () => {
    const save = fullDesign(variant, version);
    const bytes = encodeOrThrow(edgeSave, save);

    test('an independent reader of the seed finds the values written', () => {
      const file = readDesignFile(bytes, SEED_TABLES);
      expect(file.checksumOk).toBe(true);
      expect(file.markers).toEqual(['Glob', 'Stru', 'Arry', 'Xtra', 'Stor', 'Stor', 'Stor', 'Stor', 'Stor']);
      expect(file.chunks[3]!.plain).toEqual(XTRA_PLAIN);
      expect(file.structs).toEqual([MOBJ, PLAYER, SPOT]);
      expect(file.arrays.map((a) => `${a.name}:${a.struct}[${a.count}]`)).toEqual([
        'mobjs:mobj_t[3]',
        'players:player_t[1]',
        'spots:shootspot_t[2]',
        'ghosts:ghost_t[0]',
        'phantoms:phantom_t[2]',
      ]);
      expect(file.stores).toEqual(FULL_STORES);
      const wher = file.lumps.Wher!;
      expect([wher.string(), wher.string(), wher.u32(), wher.u32()]).toEqual(['HELL_ON_EARTH', 'MAP07', 0x40, 8]);
    });

    test('the package reads the same values, resolves the INDEX cycles and NULLs, and says what it did not know', () => {
      const { value, warnings } = decoded(bytes);
      expect(value.layout).toBe('design');
      const mobjs = elementsOf(value, 'mobjs')!;
      for (const [i, expected] of FULL_STORES.mobjs.entries()) {
        const { target, ...rest } = expected;
        expect(mobjs[i]).toMatchObject(rest);
        const ref = mobjs[i]!.target as IndexRef;
        expect(ref).toEqual({ $ref: 'mobjs', index: target });
        expect(ref.target).toBe(mobjs[target - 1]);
      }
      // Table fields the file lacks take their defaults.
      expect(mobjs[0]).toMatchObject({ z: 0, state: null, spawnpoint: null });
      const [player] = elementsOf(value, 'players')! as [Instance];
      // The file holds 2 of the release table's armours (4 in 1.27, 5 in 1.35): the rest are defaults.
      const armours = player.armours as number[];
      expect(armours.slice(0, 2)).toEqual([5, 6.5]);
      expect(armours.length).toBe(variant === 'A' ? 4 : 5);
      expect(armours.slice(2).every((a) => a === 0)).toBe(true);
      expect(player.powers).toEqual(FULL_STORES.players[0]!.powers.slice(0, 16));
      expect(player.$kept).toEqual({ powers: [16, 17] });
      expect((player.mo as IndexRef).target).toBe(mobjs[0]);
      const spots = elementsOf(value, 'spots')!;
      expect(spots.map(({ owner, ...rest }) => rest)).toEqual(FULL_STORES.spots.map(({ owner, ...rest }) => rest));
      expect((spots[0]!.owner as IndexRef).target).toBe(mobjs[2]);
      expect(spots[1]!.owner).toBeNull();
      expect(elementsOf(value, 'ghosts')).toEqual([]);
      expect(elementsOf(value, 'phantoms')).toEqual(PHANTOMS.map(($raw) => ({ $marker: 'phan', $raw })));
      expect(value.chunks[3]).toMatchObject({ id: 'Xtra' });
      const codes = new Set(warnings.map((w) => w.code));
      for (const code of [
        'unknown-field',
        'unknown-struct',
        'missing-elements',
        'extra-elements',
        'undefined-struct-kept-raw',
      ])
        expect(codes).toContain(code);
      // The reader's table decides a known field's storage: no field of a known structure is "changed".
      expect(codes).not.toContain('size-changed');
      const kept = warnings.find((w) => w.code === 'undefined-struct-kept-raw')!;
      expect(kept.path).toEqual(expect.arrayContaining(['chunks', 8, 'elements']));
    });

    test("each warning's offset is where the field its path names starts (in that field's layer)", () => {
      const traced = coreDecode(edgeSave, bytes, { trace: true });
      if (E.isLeft(traced)) throw traced.left;
      const starts = new Map<string, number[]>();
      for (const span of traced.right.spans!) {
        const key = JSON.stringify(span.path);
        starts.set(key, [...(starts.get(key) ?? []), span.start]);
      }
      expect(traced.right.warnings.length).toBeGreaterThan(50);
      const misplaced = traced.right.warnings
        .filter((w) => !(starts.get(JSON.stringify(w.path)) ?? []).includes(w.offset))
        .map((w) => `${w.code} ${JSON.stringify(w.path)} at ${w.offset}`);
      expect(misplaced).toEqual([]);
    });

    test('re-encodes byte-identically, and builds afresh from its JSON with or without the stored bytes', () => {
      const { value } = decoded(bytes);
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
      expect(Buffer.from(encodeOrThrow(edgeSave, viaJson(value, true))).equals(bytes)).toBe(true);
      expect(Buffer.from(encodeOrThrow(edgeSave, viaJson(value, false))).equals(bytes)).toBe(true);
    });

    test('an element of an undefined structure must stay raw: a decoded-looking one is refused', () => {
      const broken = fullDesign(variant, version);
      const stor = broken.chunks[8] as { body: { value: { elements: Instance[] } } };
      stor.body.value.elements[0] = { hp: 1 };
      const result = encode(edgeSave, broken);
      expect(E.isLeft(result) && result.left.path).toEqual(expect.arrayContaining(['chunks', 8, 'elements', 0]));
    });
  });

  test('an ARRY of a structure the file does not define, with no elements: the STOR holds just the name', () => {
    const plain = (data: number[]) => Uint8Array.from(pad4(data));
    const bytes = writeFile(
      version,
      [
        { marker: 'Stru', plain: new Uint8Array(0) },
        {
          marker: 'Arry',
          plain: plain(nested(nestedVariant, 'Adef', [...le32(0), ...str('players'), ...str('player_t')])),
        },
        { marker: 'Stor', plain: plain(str('players')) },
      ],
      SEED_PADDING,
    );
    const { value, warnings } = decoded(bytes);
    expect(elementsOf(value, 'players')).toEqual([]);
    expect(warnings).toEqual([]);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
  });

  test('a STOR of an array with no ADEF is one of no elements (with a warning); elements for it are refused', () => {
    const bytes = writeFile(
      version,
      [
        { marker: 'Stru', plain: new Uint8Array(0) },
        { marker: 'Arry', plain: new Uint8Array(0) },
        { marker: 'Stor', plain: Uint8Array.from(pad4(str('missing'))) },
      ],
      SEED_PADDING,
    );
    const { value, warnings } = decoded(bytes);
    expect(elementsOf(value, 'missing')).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['undefined-array']);
    expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
    const stor = value.chunks[2] as { body: { value: { elements: Instance[] }; stored?: Uint8Array } };
    stor.body.value.elements.push({ $marker: 'ghst', $raw: new Uint8Array(4) });
    const refused = encode(edgeSave, value);
    expect(E.isLeft(refused) && refused.left.message).toMatch(/array missing has no Arry definition/);
  });

  test('a kept instance chunk that is not one is a DecodeError with path, offset and code', () => {
    const adef = nested(nestedVariant, 'Adef', [...le32(1), ...str('ghosts'), ...str('ghost_t')]);
    const fileWith = (instance: number[]) =>
      writeFile(
        version,
        [
          { marker: 'Stru', plain: new Uint8Array(0) },
          { marker: 'Arry', plain: Uint8Array.from(pad4(adef)) },
          { marker: 'Stor', plain: Uint8Array.from(pad4([...str('ghosts'), ...instance])) },
        ],
        SEED_PADDING,
      );
    // A length past the data.
    const long = coreDecode(edgeSave, fileWith([...Buffer.from('ghst'), ...le32(64), 1, 2, 3, 4]));
    expect(E.isLeft(long) && [long.left.code, long.left.path.includes('elements')]).toEqual(['short-read', true]);
    // A length that is not a multiple of 4.
    const odd = coreDecode(
      edgeSave,
      fileWith([...Buffer.from('ghst'), ...le32(2), 1, 2, ...(variant === 'A' ? [...Buffer.from('GHST')] : [])]),
    );
    expect(E.isLeft(odd) && odd.left.message).toMatch(/not a multiple of 4/);
    if (variant === 'A') {
      const wrongEnd = coreDecode(
        edgeSave,
        fileWith([...Buffer.from('ghst'), ...le32(4), 1, 2, 3, 4, ...Buffer.from('GHSX')]),
      );
      expect(E.isLeft(wrongEnd) && [wrongEnd.left.code, wrongEnd.left.offset > 0]).toEqual(['bad-magic', true]);
    }
  });

  describe('declared sizes are not storage sizes: the reader’s own tables decide', () => {
    // `thing_t` as EDGE's code would declare it: floats NUMERIC 4 (stored in 6), a vec2 NUMERIC 8
    // (stored in 12), an int NUMERIC 4 — and one field the user's table does not know (`extra`, 4).
    const sdef = [
      ...le32(5),
      ...str('thing_t'),
      ...str('thng'),
      ...[1, 4, 1, 0, ...str('x')],
      ...[1, 4, 1, 0, ...str('y')],
      ...[1, 8, 1, 0, ...str('offset')],
      ...[1, 4, 1, 0, ...str('hp')],
      ...[1, 4, 1, 0, ...str('extra')],
    ];
    const element = [...float6(1.5), ...float6(-640), ...float6(0.25), ...float6(-3), ...le32(100), ...le32(42)];
    const bytes = writeFile(
      version,
      [
        { marker: 'Stru', plain: Uint8Array.from(pad4(nested(nestedVariant, 'Sdef', sdef))) },
        {
          marker: 'Arry',
          plain: Uint8Array.from(
            pad4(nested(nestedVariant, 'Adef', [...le32(1), ...str('things'), ...str('thing_t')])),
          ),
        },
        { marker: 'Stor', plain: Uint8Array.from(pad4([...str('things'), ...nested(nestedVariant, 'thng', element)])) },
      ],
      SEED_PADDING,
    );
    const tables = [tableStruct('thing_t', 'thng', 'x:float y:float offset:vec2 hp:int')];

    test('without a table, the declaration cannot be trusted: the instance is kept as bytes with a warning', () => {
      const { value, warnings } = decoded(bytes);
      expect(elementsOf(value, 'things')![0]).toHaveProperty('$raw');
      expect(warnings.map((w) => w.code)).toContain('instance-kept-raw');
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
    });

    test('decode(bytes, { tables }) reads each known field as the table says, the unknown one as declared', () => {
      const result = decode(bytes, { tables });
      if (E.isLeft(result)) throw result.left;
      const [thing] = elementsOf(result.right.value, 'things')!;
      expect(thing).toEqual({ x: 1.5, y: -640, offset: [0.25, -3], hp: 100, extra: 42 });
      expect(result.right.warnings.map((w) => w.code)).toEqual(['unknown-field']);
      expect(Buffer.from(encodeOrThrow(edgeSaveWith({ tables }), result.right.value)).equals(bytes)).toBe(true);
      // An edit is written with the table's storage: a float in 6 bytes.
      thing!.x = -0.5;
      const edited = readDesignFile(encodeOrThrow(edgeSaveWith({ tables }), result.right.value), {
        thing_t: { x: 'float', y: 'float', offset: 'vec2', hp: 'int' },
      });
      expect(edited.stores.things).toEqual([{ x: -0.5, y: -640, offset: [0.25, -3], hp: 100, extra: 42 }]);
    });
  });

  describe('one odd GLOB lump does not sink the file', () => {
    // A `Wher` with only a level string, then lumps as the seed has them.
    const glob = [
      ...nested(nestedVariant, 'Wher', str('MAP03')),
      ...nested(nestedVariant, 'Skil', [...le32(0), ...le32(4), ...le32(0)]),
      ...nested(nestedVariant, 'Desc', [...str('odd'), ...str('today')]),
    ];
    const bytes = writeFile(
      version,
      [
        { marker: 'Glob', plain: Uint8Array.from(glob) },
        { marker: 'Stru', plain: new Uint8Array(0) },
        { marker: 'Arry', plain: new Uint8Array(0) },
      ],
      SEED_PADDING,
    );

    test('the lump is kept as bytes with a warning, the rest is read, and the file re-encodes byte-identically', () => {
      const { value, warnings } = decoded(bytes);
      const wher = globEntries(value)[0]!;
      expect(wher).toEqual({ id: 'Wher', body: { $raw: Uint8Array.from(pad4(str('MAP03'))) } });
      expect(warnings.map((w) => w.code)).toEqual(['lump-kept-raw']);
      expect(warnings[0]!.path).toEqual(expect.arrayContaining(['chunks', 0, 0, 'body']));
      expect(levelInfo(value)).toMatchObject({ skill: 4, description: 'odd', date: 'today' });
      expect(levelInfo(value).level).toBeUndefined();
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
      // Built afresh, the chunks are compressed by our compressor, not the other writer's: same values.
      const afresh = encodeOrThrow(edgeSave, viaJson(value, false));
      expect(globEntries(decoded(afresh).value)).toEqual(globEntries(value));
    });

    test('kept bytes that are not whole 4-byte units are refused on write (they would read back padded)', () => {
      const { value } = decoded(bytes);
      const glob = globEntries(value) as unknown as Array<Record<string, unknown>>;
      const at = value.chunks.findIndex((c) => c.id === 'Glob');
      for (const [entry, path, what] of [
        [
          { id: 'Wher', body: { $raw: Uint8Array.of(1, 2, 3) } },
          ['body', '$raw'],
          /a kept Wher lump's bytes .* 3 bytes is not a multiple of 4/,
        ],
        [
          { id: 'Zzzz', raw: Uint8Array.of(1, 2, 3, 4, 5) },
          ['raw'],
          /a kept chunk's bytes .* 5 bytes is not a multiple of 4/,
        ],
      ] as const) {
        glob.splice(0, 1, entry as unknown as Record<string, unknown>);
        const result = encode(edgeSave, value);
        if (E.isRight(result)) throw new Error(`${entry.id} was written`);
        expect(result.left.code).toBe('size-mismatch');
        expect(result.left.path.slice(0, 2)).toEqual(['chunks', at]);
        expect(result.left.path.slice(-path.length - 1)).toEqual([0, ...path]);
        expect(result.left.message).toMatch(what);
      }
      // Whole units are kept as they are.
      glob.splice(0, 1, { id: 'Zzzz', raw: Uint8Array.of(1, 2, 3, 4) });
      expect(globEntries(decoded(encodeOrThrow(edgeSave, value)).value)[0]).toEqual({
        id: 'Zzzz',
        raw: Uint8Array.of(1, 2, 3, 4),
      });
    });

    test('a lump with more than padding left after its fields is kept too', () => {
      const longer = writeFile(
        version,
        [
          {
            marker: 'Glob',
            plain: Uint8Array.from(nested(nestedVariant, 'Skil', [...le32(0), ...le32(4), ...le32(0), ...le32(9)])),
          },
        ],
        SEED_PADDING,
      );
      const { value, warnings } = decoded(longer);
      expect(globEntries(value)[0]!.id).toBe('Skil');
      expect(globEntries(value)[0]).toHaveProperty('body.$raw');
      expect(warnings.map((w) => w.code)).toEqual(['lump-kept-raw']);
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(longer)).toBe(true);
    });
  });

  describe('marker rules: structure markers are four lowercase characters', () => {
    const upper = [...le32(1), ...str('foo_t'), ...str('FOOO'), ...[1, 4, 1, 0, ...str('n')]];
    const bytes = writeFile(
      version,
      [
        { marker: 'Stru', plain: Uint8Array.from(pad4(nested(nestedVariant, 'Sdef', upper))) },
        {
          marker: 'Arry',
          plain: Uint8Array.from(pad4(nested(nestedVariant, 'Adef', [...le32(1), ...str('foos'), ...str('foo_t')]))),
        },
        { marker: 'Stor', plain: Uint8Array.from(pad4([...str('foos'), ...nested(nestedVariant, 'FOOO', le32(5))])) },
      ],
      SEED_PADDING,
    );

    test('a file that breaks them is read with a warning at the marker, and written back as it was', () => {
      const { value, warnings } = decoded(bytes);
      const warning = warnings.find((w) => w.code === 'marker-case')!;
      expect(warning.message).toContain('"FOOO"');
      expect(warning.path).toEqual(expect.arrayContaining(['chunks', 0, 0, 'body', 'marker']));
      expect(elementsOf(value, 'foos')).toEqual([{ n: 5 }]);
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(bytes)).toBe(true);
      // Its JSON with the stored bytes (a dump) builds the same file; without them the definition is new.
      expect(Buffer.from(encodeOrThrow(edgeSave, viaJson(value, true))).equals(bytes)).toBe(true);
      const afresh = encode(edgeSave, viaJson(value, false));
      expect(E.isLeft(afresh) && afresh.left.code).toBe('invalid-value');
    });

    test('an ordinary chunk that is not capitalised is read with a warning at its marker, and kept', () => {
      const file = writeFile(
        version,
        [
          {
            marker: 'Glob',
            plain: Uint8Array.from(nested(nestedVariant, 'WHER', [...str('G'), ...str('L'), ...le32(0), ...le32(1)])),
          },
          { marker: 'xtra', plain: Uint8Array.of(1, 2, 3, 4) },
        ],
        SEED_PADDING,
      );
      const { value, warnings } = decoded(file);
      expect(warnings.map((w) => [w.code, w.message.match(/"(\w+)"/)?.[1], w.path.slice(-1)[0]])).toEqual([
        ['marker-case', 'WHER', 'id'],
        ['marker-case', 'xtra', 'id'],
      ]);
      expect(value.chunks.map((c) => c.id)).toEqual(['Glob', 'xtra']);
      expect(Buffer.from(encodeOrThrow(edgeSave, value)).equals(file)).toBe(true);
    });

    test('a new definition that breaks them is refused on encode, with a code and a path', () => {
      const save = fullDesign(variant, version);
      const stru = save.chunks[1] as { body: { value: Array<{ body: { marker: string } }> } };
      stru.body.value[2]!.body = { ...SPOT, marker: 'Shot' };
      const result = encode(edgeSave, save);
      expect(E.isLeft(result)).toBe(true);
      if (E.isRight(result)) return;
      expect(result.left.code).toBe('invalid-value');
      expect(result.left.message).toContain('"Shot" is not lowercase');
      expect(result.left.path).toEqual(expect.arrayContaining(['chunks', 1, 2, 'body', 'marker']));
    });
  });
});

test('the independent float helper agrees with the seed’s examples', () => {
  const c = new Cursor(Uint8Array.from([...float6(1), ...float6(-Math.PI), ...float6(1000)]));
  expect([c.float(), c.float(), c.float()]).toEqual([1, Math.fround(-Math.PI), 1000]);
});
