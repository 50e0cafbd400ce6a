// Schema evolution: files written with an older and a newer schema, read with the other.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  arrayIndex,
  bytes,
  decode,
  encode,
  EncodeError,
  fourcc,
  map,
  maybe,
  refTo,
  struct,
  u16le,
  u32le,
  u8,
  withArrayIndexes,
  type PathSegment,
  type TypeOf,
  type Codec,
} from '@savekit/core';
import {
  defaultInstance,
  definitionsOf,
  instanceCodec,
  reconcile,
  type FieldKind,
  type Instance,
  type KnownField,
  type KnownStruct,
  type SchemaEncoding,
  type StructDef,
} from '@savekit/core/schema';
import { encoding, newer, numeric, older, text, zero } from './schema-fixture';

const kinds: FieldKind[] = ['numeric', 'index', 'string', 'struct'];
const kind = map(u8, {
  decode: (n: number): FieldKind => {
    if (n < 1 || n > 4) throw new Error(`field kind ${n}`);
    return kinds[n - 1]!;
  },
  encode: (k: FieldKind) => kinds.indexOf(k) + 1,
});
// A definition as a file stores it (EDGE's Stru layout, with our small strings).
const fieldDef = struct({
  kind,
  size: u8,
  count: u16le,
  name: text,
  ref: (p: { kind: FieldKind }) => maybe(p.kind === 'index' || p.kind === 'struct', text),
});
const structDef = struct({ name: text, marker: fourcc(), fields: array(fieldDef, u8) });

/** A small self-describing file: the definitions, then one player_t instance. */
function fileCodec(defs: StructDef[], schema: KnownStruct[]) {
  const plan = reconcile(defs, schema, encoding);
  return { plan, codec: struct({ defs: array(structDef, u8), player: instanceCodec('player_t', plan, encoding) }) };
}

function writeWith(schema: KnownStruct[], player: Instance): Uint8Array {
  const defs = definitionsOf(schema);
  const { codec } = fileCodec(defs, schema);
  const out = encode(codec, { defs: defs as TypeOf<typeof structDef>[], player });
  if (E.isLeft(out)) throw out.left;
  return out.right;
}

/** Reads a file with a schema: the definitions first, then the data through the reconciled plan. */
function readWith(schema: KnownStruct[], file: Uint8Array) {
  const head = decode(struct({ defs: array(structDef, u8), rest: bytes('rest') }), file);
  if (E.isLeft(head)) throw head.left;
  const { plan, codec } = fileCodec(head.right.value.defs as StructDef[], schema);
  const result = decode(codec, file);
  if (E.isLeft(result)) throw result.left;
  return { value: result.right.value, warnings: plan.warnings, reencode: () => encode(codec, result.right.value) };
}

const oldPlayer: Instance = {
  health: 75.5,
  speed: 123456,
  name: 'marine',
  weapons: [
    { kind: 1, owned: 1 },
    { kind: 2, owned: 0 },
  ],
  target: 3,
  ammo: [10, 20, 30, 40],
};

describe('schema evolution', () => {
  const oldFile = writeWith(older, oldPlayer);

  test('a file describes itself and reads back with the same schema without warnings', () => {
    const { value, warnings, reencode } = readWith(older, oldFile);
    expect(warnings).toEqual([]);
    expect(value.player).toEqual(oldPlayer);
    expect(E.isRight(reencode()) && reencode()).toEqual(E.right(oldFile));
  });

  test('an older file read with a newer schema: each rule, as a warning with its path', () => {
    const { value, warnings, reencode } = readWith(newer, oldFile);
    const codes = warnings.map((w) => `${w.code} ${w.path.join('.')}`);
    expect(codes).toEqual([
      'missing-elements Stru.player_t.weapons',
      'unknown-field Stru.player_t.target',
      'extra-elements Stru.player_t.ammo',
      'missing-field Stru.player_t.armor',
      'missing-field Stru.weap_t.clip',
    ]);
    const player = value.player;
    expect(player.health).toBe(75.5);
    expect(player.speed).toBe(123456); // the 6-byte encoding came from the reader's schema
    expect(player.armor).toBe(100); // missing field: default
    expect(player.ammo).toEqual([10, 20]); // fewer expected: the rest kept
    expect(player.weapons).toEqual([
      { kind: 1, owned: 1, clip: 0 },
      { kind: 2, owned: 0, clip: 0 },
      { kind: 0, owned: 0, clip: 0 },
    ]);
    expect(player.$kept).toEqual({ target: 3, ammo: [30, 40] }); // an unknown INDEX is read as one
    // Unknown fields and extra elements ride along: re-encoding gives the identical file.
    expect(reencode()).toEqual(E.right(oldFile));
  });

  test('a newer file read with an older schema: new fields kept, extra elements kept, identical re-encoding', () => {
    const newPlayer: Instance = {
      health: 1,
      speed: 7,
      name: 'doomguy',
      weapons: [
        { kind: 1, owned: 1, clip: 50 },
        { kind: 2, owned: 1, clip: 8 },
        { kind: 3, owned: 0, clip: 0 },
      ],
      ammo: [5, 6],
      armor: 200,
    };
    const newFile = writeWith(newer, newPlayer);
    const { value, warnings, reencode } = readWith(older, newFile);
    expect(warnings.map((w) => w.code)).toEqual([
      'extra-elements',
      'missing-elements',
      'unknown-field',
      'missing-field',
      'unknown-field',
    ]);
    expect(value.player.ammo).toEqual([5, 6, 0, 0]);
    expect(value.player.target).toBe(0);
    expect((value.player.$kept as Record<string, unknown>).armor).toEqual(Uint8Array.of(200, 0, 0, 0));
    expect(reencode()).toEqual(E.right(newFile));
  });

  test('a structure the reader does not know is decoded from the file definition and kept', () => {
    const withExtra: KnownStruct[] = [
      {
        ...older[0]!,
        fields: [
          ...older[0]!.fields,
          { name: 'stats', kind: 'struct', size: 0, count: 1, ref: 'stat_t', default: () => ({}) },
        ],
      },
      older[1]!,
      {
        name: 'stat_t',
        marker: 'stat',
        fields: [
          { name: 'kills', kind: 'numeric', size: 2, count: 1, codec: u16le, default: zero },
          { name: 'note', kind: 'string', size: 0, count: 1, default: () => '' },
        ],
      },
    ];
    const file = writeWith(withExtra, { ...oldPlayer, stats: { kills: 9, note: 'ok' } });
    const { value, warnings, reencode } = readWith(older, file);
    expect(warnings.map((w) => `${w.code} ${w.path.join('.')}`)).toEqual([
      'unknown-field Stru.player_t.stats',
      'unknown-struct Stru.stat_t',
    ]);
    expect((value.player.$kept as Record<string, unknown>).stats).toEqual({
      $kept: { kills: Uint8Array.of(9, 0), note: 'ok' },
    });
    expect(reencode()).toEqual(E.right(file));
  });

  test('a field whose kind changed is an error: once a name is used its type is fixed', () => {
    const retyped: KnownStruct[] = [
      {
        ...older[0]!,
        fields: older[0]!.fields.map((f) =>
          f.name === 'name' ? { ...f, kind: 'numeric' as const, size: 4, codec: u32le } : f,
        ),
      },
      older[1]!,
    ];
    expect(() => readWith(retyped, oldFile)).toThrow(
      'field name of player_t changed kind from numeric to string; once a name is used its type is fixed for all time',
    );
  });

  test('a numeric field whose declared size changed is kept by its declared size, with a warning', () => {
    const resized: KnownStruct[] = [
      {
        ...older[0]!,
        fields: older[0]!.fields.map((f) => (f.name === 'health' ? { ...f, size: 8, codec: bytes(8) } : f)),
      },
      older[1]!,
    ];
    const { value, warnings, reencode } = readWith(resized, oldFile);
    expect(warnings.map((w) => w.code)).toEqual(['size-changed']);
    expect((value.player.$kept as Record<string, unknown>).health).toBeInstanceOf(Uint8Array);
    expect(reencode()).toEqual(E.right(oldFile));
  });

  test('instances have their fields as own properties in file order, whatever their names (__proto__ too)', () => {
    const odd: KnownStruct[] = [
      {
        name: 'player_t',
        marker: 'play',
        fields: ['toString', '__proto__', 'constructor'].map((name) => numeric(name, 2, u16le)),
      },
    ];
    const file = writeWith(odd, JSON.parse('{"toString":1,"__proto__":2,"constructor":3}') as Instance);
    const { value } = readWith(
      [
        {
          ...odd[0]!,
          fields: [
            ...odd[0]!.fields,
            { name: 'later', kind: 'numeric', size: 2, count: 1, codec: u16le, default: () => 7 },
          ],
        },
      ],
      file,
    );
    const player = value.player as Record<string, unknown>;
    expect(Object.keys(player)).toEqual(['toString', '__proto__', 'constructor', 'later']);
    expect(Object.getPrototypeOf(player)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(player, '__proto__')?.value).toBe(2);
    expect([player.toString, player.constructor, player.later]).toEqual([1, 3, 7]);
    expect(({} as Record<string, unknown>).later).toBeUndefined(); // nothing leaked onto Object.prototype
  });

  test("a field read as null keeps its place, and a field the file lacks its default, in the reader's order", () => {
    // A byte 0 reads as null (an INDEX to nothing, a NULL string), any other as its number.
    const nullable = map(u8, {
      decode: (n: number): number | null => (n === 0 ? null : n),
      encode: (v: number | null) => v ?? 0,
    });
    const names = ['a', 'b', 'c', 'd', 'e'];
    const schema: KnownStruct[] = [
      {
        name: 'player_t',
        marker: 'play',
        fields: [
          ...names.map(
            (n): KnownField => ({ name: n, kind: 'numeric', size: 1, count: 1, codec: nullable, default: () => null }),
          ),
          { name: 'pair', kind: 'numeric', size: 1, count: 2, codec: nullable, default: () => null },
          numeric('after', 1, u8),
          numeric('seven', 1, u8, 1, 7),
          numeric('minusZero', 1, u8, 1, -0),
          numeric('twoFives', 1, u8, 2, 5),
          { name: 'fresh', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => ({ made: true }) },
        ],
      },
    ];
    // The file lacks the fields from `e` on: they take their defaults, after the fields the file has.
    const lacking = new Set(['e', 'seven', 'minusZero', 'twoFives', 'fresh']);
    const fileSchema: KnownStruct[] = [
      { ...schema[0]!, fields: schema[0]!.fields.filter((f) => !lacking.has(f.name)) },
    ];
    const codec = instanceCodec('player_t', reconcile(definitionsOf(fileSchema), schema, encoding), encoding);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 7, maxLength: 7 }).map((b) => b.map((x) => x % 3)),
        fc.boolean(),
        (b, trace) => {
          const result = decode(codec, b, { trace });
          if (E.isLeft(result)) throw result.left;
          const at = (i: number) => (b[i] === 0 ? null : b[i]);
          const expected = {
            ...{ a: at(0), b: at(1), c: at(2), d: at(3), pair: [at(4), at(5)], after: b[6] },
            ...{ e: null, seven: 7, minusZero: -0, twoFives: [5, 5], fresh: { made: true } },
          };
          const value = result.right.value;
          expect(Object.keys(value)).toEqual(Object.keys(expected));
          expect(value).toStrictEqual(expected);
          expect(Object.is(value.minusZero, -0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('new instances start from defaults, nested structures included', () => {
    expect(defaultInstance(newer[0]!, newer)).toEqual({
      health: 0,
      speed: 0,
      name: '',
      ammo: [0, 0],
      armor: 100,
      weapons: [
        { kind: 0, owned: 0, clip: 0 },
        { kind: 0, owned: 0, clip: 0 },
        { kind: 0, owned: 0, clip: 0 },
      ],
    });
  });
});

describe('schema hooks for formats', () => {
  const defs: StructDef[] = [
    {
      name: 'node_t',
      marker: 'node',
      fields: [
        { name: 'next', kind: 'index', size: 4, count: 1, ref: 'nodes' },
        { name: 'tip', kind: 'struct', size: 0, count: 1, ref: 'tip_alias_t' },
      ],
    },
    { name: 'tip_t', marker: 'tipp', fields: [{ name: 'v', kind: 'numeric', size: 1, count: 1 }] },
  ];

  test('INDEX codecs per referred array, and a struct field naming an undefined structure through `unresolved`', () => {
    const seen: Array<string | undefined> = [];
    const tip = instanceCodec('tip_t', reconcile(defs, [], encoding), encoding);
    const hooks: SchemaEncoding = {
      ...encoding,
      index: (ref) => {
        seen.push(ref);
        return map(u32le, { decode: (n) => ({ $ref: ref, n }), encode: (r: { n: number }) => r.n });
      },
      unresolved: (field) => {
        expect(field.ref).toBe('tip_alias_t');
        return encoding.nest(defs[1]!, tip);
      },
    };
    const codec = instanceCodec('node_t', reconcile(defs, [], hooks), hooks);
    const value = { $kept: { next: { $ref: 'nodes', n: 2 }, tip: { $kept: { v: Uint8Array.of(9) } } } };
    const out = encode(codec, value as unknown as Instance);
    if (E.isLeft(out)) throw out.left;
    expect(seen).toEqual(['nodes']);
    const back = decode(codec, out.right);
    expect(E.isRight(back) && back.right.value).toEqual(value);
  });

  test('without `unresolved`, such a field is a DecodeError on read and an EncodeError on write (not a crash)', () => {
    const codec = instanceCodec('node_t', reconcile(defs, [], encoding), encoding);
    const read = decode(codec, Uint8Array.of(1, 0, 0, 0, 0x74, 0x69, 0x70, 0x70, 1, 0, 9));
    expect(E.isLeft(read) && read.left.message).toMatch(/nests undefined structure tip_alias_t/);
    const written = encode(codec, { $kept: { next: 1, tip: {} } });
    expect(E.isLeft(written) && written.left.name).toBe('EncodeError');
  });
});

describe('instances written in place past INDEX and fixed-count array fields', () => {
  // hp, an INDEX, a vec of two u16s, then a u8: all fixed-size, so one write run; reading them is
  // field by field (an INDEX records its reference as it is read), the same bytes either way.
  const schema: KnownStruct[] = [
    {
      name: 'thing_t',
      marker: 'thng',
      fields: [
        { name: 'hp', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => 0 },
        {
          name: 'target',
          kind: 'index',
          size: 4,
          count: 1,
          ref: 'things',
          codec: arrayIndex('things'),
          default: () => null,
        },
        { name: 'pos', kind: 'numeric', size: 4, count: 1, codec: array(u16le, 2), default: () => [0, 0] },
        { name: 'tag', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => 0 },
      ],
    },
  ];
  const plan = reconcile(definitionsOf(schema), schema, encoding);
  const thing = instanceCodec('thing_t', plan, encoding);
  const things = withArrayIndexes(array(thing, u8), (list: Instance[]) => [['things', list]]);

  test('an edited array renumbers references written in place; the bytes read back', () => {
    const list: Instance[] = [
      { hp: 1, target: null, pos: [1, 2], tag: 3 },
      { hp: 4, target: null, pos: [5, 6], tag: 7 },
    ];
    list[0]!.target = refTo('things', list[1]!, 2);
    const bytes = encode(things, list);
    if (E.isLeft(bytes)) throw bytes.left;
    expect(Array.from(bytes.right)).toEqual([2, 1, 2, 0, 0, 0, 1, 0, 2, 0, 3, 4, 0, 0, 0, 0, 5, 0, 6, 0, 7]);
    const back = decode(things, bytes.right);
    expect(E.isRight(back) && back.right.value).toEqual([
      { ...list[0], target: { $ref: 'things', index: 2 } },
      list[1],
    ]);
    list.reverse(); // the referred thing is now the first: the stored INDEX follows it
    const again = encode(things, list);
    expect(E.isRight(again) && Array.from(again.right.subarray(11, 16))).toEqual([1, 1, 0, 0, 0]);
  });

  test('what the run refuses is redone field by field: the error names the field, at its offset', () => {
    const cases: Array<[Partial<Instance>, PathSegment, number, RegExp]> = [
      [{ target: { $ref: 'others', index: 1 } }, 'target', 2, /this field's INDEX is into things/],
      [{ target: refTo('things', { gone: true }, 1) }, 'target', 2, /no longer in things/],
      [{ target: 'x' }, 'target', 2, /expected null or \{ \$ref, index \}/],
      [{ pos: [1, 2, 3] }, 'pos', 6, /3/],
      [{ pos: [1, 70000] }, 1, 8, /70000/],
      [{ tag: 256 }, 'tag', 10, /256/],
    ];
    for (const [change, key, offset, message] of cases) {
      const result = encode(things, [{ hp: 1, target: null, pos: [1, 2], tag: 3, ...change }]);
      expect(E.isLeft(result)).toBe(true);
      const error = (result as E.Left<EncodeError>).left;
      expect(error).toBeInstanceOf(EncodeError);
      expect(error.path).toEqual(key === 1 ? [0, 'pos', 1] : [0, key]);
      expect(error.offset).toBe(offset);
      expect(error.message).toMatch(message);
    }
  });
});

describe('fields of several elements', () => {
  const schema: KnownStruct[] = [
    {
      name: 'guard_t',
      marker: 'gard',
      fields: [
        { name: 'armour', kind: 'numeric', size: 1, count: 3, codec: u8, default: () => 0 },
        { name: 'hp', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => 0 },
      ],
    },
  ];
  const guard = instanceCodec('guard_t', reconcile(definitionsOf(schema), schema, encoding), encoding);

  test('more or fewer elements than the structure holds is an EncodeError at the field, never a truncation', () => {
    expect(encode(guard, { armour: [1, 2, 3], hp: 4 })).toEqual(E.right(Uint8Array.of(1, 2, 3, 4)));
    for (const armour of [[1, 2, 3, 9], [1, 2], []]) {
      const result = encode(guard, { armour, hp: 4 });
      if (E.isRight(result)) throw new Error(`${armour.length} elements were written`);
      expect([result.left.code, result.left.path, result.left.offset]).toEqual(['size-mismatch', ['armour'], 0]);
      expect(result.left.message).toMatch(
        new RegExp(`^field armour has ${armour.length} elements; (guard_t.armour holds|the definition says) 3$`),
      );
    }
  });
});

describe('checkKeys and instances whose keys are not in the plan order', () => {
  const schema: KnownStruct[] = [
    {
      name: 'pair_t',
      marker: 'pair',
      fields: [
        { name: 'a', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => 0 },
        { name: 'b', kind: 'numeric', size: 2, count: 1, codec: u16le, default: () => 0 },
        { name: 'c', kind: 'numeric', size: 1, count: 1, codec: u8, default: () => 0 },
      ],
    },
  ];
  const seen: Array<{ keys: ReadonlyArray<string>; lead: number }> = [];
  const checking: SchemaEncoding = {
    ...encoding,
    checkKeys: (w, plan, value, keys, lead) => {
      expect(plan.def.name).toBe('pair_t');
      seen.push({ keys: [...keys], lead });
      if (Object.hasOwn(value, 'bad')) throw w.errorAt('bad', 'no field bad');
    },
  };
  const pair = instanceCodec('pair_t', reconcile(definitionsOf(schema), schema, checking), checking);
  const framed = struct({ head: u8, pair });

  test('the same bytes whatever the order of the keys; the check is told the keys and how many lead in order', () => {
    seen.length = 0;
    const inOrder = encode(framed, { head: 9, pair: { a: 1, b: 0x302, c: 4 } });
    const shuffled = encode(framed, { head: 9, pair: { c: 4, a: 1, b: 0x302 } });
    const partly = encode(framed, { head: 9, pair: { a: 1, c: 4, b: 0x302, extra: 5 } });
    for (const out of [inOrder, shuffled, partly])
      expect(E.isRight(out) && Array.from(out.right)).toEqual([9, 1, 2, 3, 4]);
    expect(seen).toEqual([
      { keys: ['a', 'b', 'c'], lead: 3 },
      { keys: ['c', 'a', 'b'], lead: 0 },
      { keys: ['a', 'c', 'b', 'extra'], lead: 1 },
    ]);
  });

  test('keys counted in place: the check is told the own keys and lead, whatever the value has or inherits', () => {
    // Own keys in any order, some missing, some extra; enumerable keys on the prototype too (for…in
    // meets them, Object.keys does not); `c` inherited right after own `a`, `b` looks like the plan.
    const key = fc.constantFrom('a', 'b', 'c', 'extra');
    const values: Record<string, number> = { a: 1, b: 0x302, c: 4, extra: 5 };
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 4 }), fc.uniqueArray(key, { maxLength: 2 }), (own, inherited) => {
        const proto = Object.create(Object.prototype) as Record<string, number>;
        for (const k of inherited) proto[k] = values[k]! + 100;
        const value = Object.create(proto) as Record<string, number>;
        for (const k of own) value[k] = values[k]!;
        seen.length = 0;
        const out = encode(framed, { head: 9, pair: value as never });
        const keys = Object.keys(value);
        let lead = 0;
        while (lead < Math.min(3, keys.length) && keys[lead] === ['a', 'b', 'c'][lead]) lead++;
        expect(seen).toEqual([{ keys, lead }]);
        // The bytes of the same values as a plain object (an inherited value is read through the prototype).
        const plain = { a: value.a, b: value.b, c: value.c };
        const expected = encode(framed, { head: 9, pair: plain as never });
        expect(E.isRight(out) ? Array.from(out.right) : out.left.message).toEqual(
          E.isRight(expected) ? Array.from(expected.right) : expected.left.message,
        );
      }),
      { numRuns: 400 },
    );
  });

  test('an instance of a structure written inside one of its own kind keeps its own values', () => {
    // node_t holds a list of node_t (the format's framing of a nested instance is a counted list here):
    // the inner writes must not take the outer instance's values, whose last field comes after them.
    const known: KnownStruct[] = [
      {
        name: 'node_t',
        marker: 'node',
        fields: [
          numeric('v', 1, u8),
          { name: 'kids', kind: 'struct', size: 0, count: 1, ref: 'node_t', default: () => [] },
          numeric('w', 1, u8),
        ],
      },
    ];
    const listing: SchemaEncoding = {
      ...encoding,
      nest: (_def, body) => array(body, u8) as unknown as Codec<Instance>,
    };
    const node = instanceCodec('node_t', reconcile(definitionsOf(known), known, listing), listing);
    const tree = {
      v: 1,
      kids: [
        { v: 2, kids: [], w: 20 },
        { v: 3, kids: [{ v: 4, kids: [], w: 40 }], w: 30 },
      ],
      w: 10,
    };
    const out = encode(node, tree as unknown as Instance);
    if (E.isLeft(out)) throw out.left;
    expect(Array.from(out.right)).toEqual([1, 2, 2, 0, 20, 3, 1, 4, 0, 40, 30, 10]);
    const back = decode(node, out.right);
    expect(E.isRight(back) && back.right.value).toEqual(tree);
  });

  test('a refusal comes before anything of the instance is written, at its path and offset', () => {
    const out = encode(framed, { head: 9, pair: { a: 1, b: 2, c: 3, bad: 1 } });
    expect(E.isLeft(out)).toBe(true);
    const error = (out as E.Left<EncodeError>).left;
    expect(error.path).toEqual(['pair', 'bad']);
    expect(error.offset).toBe(1);
    expect(error.message).toMatch('no field bad');
  });
});
