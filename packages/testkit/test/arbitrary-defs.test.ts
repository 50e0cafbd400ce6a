// arbitrary(codec) for every variant of the core's codec definitions: the table below is typed by
// `CodecDefType`, so a new variant does not compile until it has cases here.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import { decode, encode, type AnyCodec, type Codec } from '@savekit/core';
import { bits, f32be, f64le, float, i24be, i64be, u16be, u16le, u32le, u64le, u8 } from '@savekit/core';
import { align, bytes, cstring, fixedString, fourcc, literal, magic, padding, pstring } from '@savekit/core';
import {
  directory,
  arena,
  array,
  windowsAt,
  bytesUntil,
  chunk,
  chunkList,
  lazy,
  lookahead,
  map,
  nothing,
  optional,
} from '@savekit/core';
import { orRaw, pointer, rebuild, sized, struct, switchOn, taggedUnion } from '@savekit/core';
import { checksum, compression, crc32, sha256, transform, transformKeeping, xor } from '@savekit/core';
import { contextKey, fromContext, provide } from '@savekit/core';
import { customDef, defineCodec, isRebuild, type CodecDefType, jsonBytes } from '@savekit/core/kit';
import { graphImage } from '@savekit/core/graph';
import { definitionsOf, instanceCodec, reconcile, type Instance } from '@savekit/core/schema';
import { encoding, newer, older } from '../../core/test/schema-fixture';
import { arbitrary } from '../src/index';
import { encodesBackTheSame } from './generated-round-trip';

const framing = { marker: fourcc({ alnum: true }), length: u32le, align: 4, endMarker: (m: string) => m.toUpperCase() };
const identity = { name: 'identity', compress: (b: Uint8Array) => b.slice(), decompress: (b: Uint8Array) => b.slice() };

interface Tree {
  value: number;
  children: Tree[];
}
const tree: Codec<Tree> = struct({ value: u8, children: lazy(() => array(tree, u8)) });

// A self-describing structure read with a newer schema than the file's (the core's schema tests'
// player): unknown fields kept, missing ones defaulted, fewer and more elements than the reader expects.
const plans = reconcile(definitionsOf(older), newer, encoding);
const player = instanceCodec('player_t', plans, encoding);

// A custom codec: a LEB128 varint of 0 to 65535, whose values are exactly u16le's (the model).
const varint16 = defineCodec<number>({
  name: 'varint16',
  def: customDef('varint16', { model: u16le }),
  json: t.number,
  minSize: 1,
  read(r) {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const at = r.pos;
      const b = u8.read(r);
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) {
        if (value > 0xffff || (b === 0 && shift > 0))
          throw r.error(`varint16 ${value} is not canonical or too large`, at);
        return value;
      }
      if (shift >= 14) throw r.error('varint16 longer than 3 bytes', at);
    }
  },
  write(w, value) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw w.error(`${value} is out of range for varint16`);
    let rest = value;
    while (rest >= 0x80) {
      u8.write(w, (rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    u8.write(w, rest);
  },
});
// A custom codec documented by samples only: a flag stored as 'Y' or 'N'.
const yesNo = defineCodec<boolean>({
  name: 'yesNo',
  def: customDef('yesNo', { samples: [true, false] }),
  json: t.boolean,
  size: 1,
  read(r) {
    const at = r.pos;
    const b = u8.read(r);
    if (b !== 0x59 && b !== 0x4e) throw r.error(`expected Y or N, found 0x${b.toString(16)}`, at);
    return b === 0x59;
  },
  write: (w, value) => u8.write(w, value ? 0x59 : 0x4e),
});

/** Names defined so far (each once), and a record that must name one of them (none: no record can be written). */
const NAMES = contextKey<ReadonlyArray<string>>('names', () => []);
const defineName = provide(cstring('ascii'), NAMES, (names, name) => {
  if (names.includes(name)) throw new Error(`${name} is defined twice`);
  return [...names, name];
});
const useName = fromContext(
  NAMES,
  (names) => {
    if (names.length === 0) throw new Error('no name is defined yet');
    return literal(cstring('ascii'), ...(names as [string, ...string[]]));
  },
  { json: t.string },
);

const cases: { [T in CodecDefType]: ReadonlyArray<[string, AnyCodec]> } = {
  int: [
    ['u8', u8],
    ['i24be', i24be],
    ['u64le', u64le],
    ['i64be', i64be],
  ],
  float: [
    ['f32be', f32be],
    ['f64le', f64le],
    ['f32 keeping NaN payloads', float(32, 'le', { nan: 'keep' })],
    ['f64 keeping NaN payloads', float(64, 'be', { nan: 'keep' })],
  ],
  bits: [
    ['lsb', bits({ a: 1, b: 3, c: 12 }, { order: 'lsb' })],
    ['msb, 40 bits', bits({ hi: 33, lo: 7 }, { order: 'msb' })],
  ],
  magic: [['two alternatives', magic('IWAD', 'PWAD')]],
  literal: [
    ['numbers', literal(u8, 1, 2, 200)],
    ['text', literal(fixedString(4, 'ascii'), 'ZSAV', 'VASZ')],
  ],
  fourcc: [
    ['any bytes', fourcc()],
    ['letters and digits', fourcc({ alnum: true })],
  ],
  string: [
    ['cstring', cstring('utf8')],
    ['pstring, a short prefix', pstring(u8, 'cp437')],
    ['fixedString', fixedString(10, 'ascii')],
    ['fixedString padded with spaces', fixedString(6, 'ascii', { pad: 0x20 })],
    ['fixedString keeping its tail', fixedString(8, 'ascii', { tail: 'keep' })],
  ],
  bytes: [
    ['fixed', bytes(5)],
    ['prefixed', bytes(u16le)],
    ['rest', bytes('rest')],
  ],
  struct: [
    ['plain', struct({ a: u8, b: cstring('ascii') })],
    ['dependent', struct({ n: u8, items: (p: { n: number }) => array(u16be, p.n) })],
  ],
  array: [
    ['fixed', array(u16le, 3)],
    ['prefixed', array(cstring('ascii'), u8)],
    ['rest', array(u32le, 'rest')],
  ],
  optional: [['at the end', struct({ a: u8, tail: optional(u16le) })]],
  nothing: [['nothing', struct({ a: u8, none: nothing })]],
  padding: [
    ['a count', struct({ a: u8, pad: padding(3, 0xff) })],
    ['a boundary', struct({ a: u8, pad: align(4) })],
  ],
  taggedUnion: [
    ['numeric tags', taggedUnion(u8, { 1: u32le, 2: cstring('ascii') })],
    ['otherwise', taggedUnion(fourcc(), { HEAD: u8 }, { otherwise: bytes('rest') })],
  ],
  switch: [
    [
      'a layout chosen by its magic',
      switchOn(
        fourcc(),
        { UMS1: struct({ magic: magic('UMS1'), level: u8 }), MMV4: struct({ magic: magic('MMV4'), seed: u16le }) },
        { caseOf: (doc) => ('level' in doc ? 'UMS1' : 'MMV4') },
      ),
    ],
    [
      'lookahead, numeric selector',
      lookahead(u8, {
        1: struct({ type: literal(u8, 1), n: u16le }),
        2: struct({ type: literal(u8, 2), s: cstring('ascii') }),
      }),
    ],
    [
      'switchOn, cases told apart by their magic',
      switchOn(
        fourcc(),
        { HEAD: struct({ id: magic('HEAD'), n: u8 }), BODY: struct({ id: magic('BODY'), s: cstring('ascii') }) },
        {
          caseOf: (v) => v.id,
        },
      ),
    ],
    [
      // The legacy case's first field can spell the other's magic: such values are left out.
      'switchOn, a case without a magic',
      switchOn(
        fourcc(),
        { current: struct({ id: magic('SAV1'), n: u8 }), legacy: struct({ n: u32le }) },
        {
          select: (m) => (m === 'SAV1' ? 'current' : 'legacy'),
          caseOf: (v) => ('id' in v ? 'current' : 'legacy'),
        },
      ),
    ],
  ],
  map: [['a bijection', map(u8, { decode: (n: number) => n * 2, encode: (n: number) => n / 2 })]],
  sized: [
    ['fixed', sized(6, fixedString(6, 'ascii'))],
    ['prefixed', sized(u8, array(u16le, 'rest'))],
  ],
  chunk: [['one chunk', chunk(framing, 'Vari', struct({ n: cstring('ascii') }))]],
  chunkList: [['known and raw', chunkList(framing, { Vari: cstring('ascii'), Wads: u32le }, { until: ['ENDE'] })]],
  transform: [
    ['xor', sized(u16le, transform(bytes('rest'), xor('K')))],
    [
      'keeping, with a decoded length',
      sized(u16le, transformKeeping(array(u16le, 'rest'), { decodedLength: u8 }, compression(identity))),
    ],
  ],
  checksum: [
    ['after', checksum(cstring('ascii'), { algorithm: crc32, stored: u32le })],
    ['before', checksum(array(u8, u8), { algorithm: sha256, stored: bytes(32), position: 'before' })],
  ],
  pointer: [
    ['nullable', arena(struct({ slots: array(pointer(u16le, cstring('ascii')), 3) }))],
    ['never null', arena(struct({ head: pointer(u32le, u16le, { nullOffset: undefined }) }))],
  ],
  arena: [['a root only', arena(struct({ a: u8 }))]],
  bytesUntil: [
    [
      'records whose bodies run to the next mark',
      array(struct({ tag: literal(u8, 0xfe), body: bytesUntil(literal(u8, 0xfe)) }), 'rest'),
    ],
  ],
  windowsAt: [
    [
      'u16 offsets, blocks of u16 lists to the next offset',
      windowsAt(6, u16le, struct({ items: array(u16le, 'rest') })),
    ],
    [
      'u8 offsets, one-byte blocks, 255 for none, keys renamed',
      windowsAt(4, u8, struct({ b: u8 }), { nullOffset: 0xff, index: 'star', blocks: 'systems' }),
    ],
  ],
  directory: [
    [
      'three entries and the bodies they place, counts in the entries',
      directory({
        count: 3,
        entry: struct({ kind: u8, refs: u8, at: u16le, length: u16le }),
        place: { offset: 'at', length: 'length' },
        body: (e: { refs: number }) => struct({ refs: array(u16le, e.refs), data: bytes('rest') }),
        join: (e, b) => ({ kind: e.kind, ...b }),
        split: (f: { kind: number; refs: number[]; data: Uint8Array }) => ({
          entry: { kind: f.kind, refs: f.refs.length },
          body: { refs: f.refs, data: f.data },
        }),
        json: t.type({ kind: t.number, refs: t.array(t.number), data: jsonBytes() }) as unknown as t.Type<
          { kind: number; refs: number[]; data: Uint8Array },
          unknown,
          unknown
        >,
      }),
    ],
  ],
  rebuild: [
    [
      'a count the array after it reads, and an offset nothing reads',
      struct({
        count: rebuild(u32le, (p: { items: number[] }) => p.items.length),
        end: rebuild(u32le, (p: { count: number }) => 8 + 2 * p.count),
        items: (p: { count: number }) => array(u16le, p.count),
      }),
    ],
  ],
  lazy: [['a tree', tree]],
  graphImage: [['graph images', graphImage]],
  instance: [['a structure of the file read with a newer schema', player]],
  provide: [['names a later list uses', struct({ names: array(defineName, u8), uses: array(useName, u8) })]],
  fromContext: [
    [
      'chunks whose data needs the definitions before them',
      chunkList(framing, { Name: defineName, Uses: array(useName, u8) }, { until: ['ENDE'] }),
    ],
  ],
  fallback: [
    [
      'a record, else its bytes kept',
      sized(5, orRaw(struct({ tag: magic('R'), n: u32le }), { warning: { code: 'kept', message: 'kept' } })),
    ],
  ],
  custom: [
    ['derived from its model', struct({ n: varint16, rest: array(varint16, u8) })],
    ['drawn from its samples', struct({ flag: yesNo })],
  ],
};

/** `value` without the `at` keys pointers are read back with. */
function withoutAt(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAt);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'at')
      .map(([k, v]) => [k, withoutAt(v)]),
  );
}

describe.each(Object.entries(cases))('arbitrary for %s codecs', (type, list) => {
  test.each(list)('%s: generated values encode, decode and encode to the same bytes', (_name, codec) => {
    const seen = new Set<CodecDefType>();
    const walk = (c: AnyCodec, depth: number) => {
      seen.add(c.def.type);
      if (depth < 4) for (const child of c.children) walk(child.codec, depth + 1);
      if (c.def.type === 'lazy' && depth < 4) walk(c.def.resolve(), depth + 1);
      // A rebuild field is a function of the parent: its codec is on the spec.
      if (c.def.type === 'struct')
        for (const f of c.def.fields) if (isRebuild(f.spec)) walk(f.spec.rebuild.field, depth + 1);
    };
    walk(codec, 0);
    expect(seen.has(type as CodecDefType)).toBe(true);
    fc.assert(
      fc.property(arbitrary(codec), (value) => {
        const back = encodesBackTheSame(codec, value);
        // Pointers read back with the offset they were found at (`at`); nothing else is added.
        expect(type === 'pointer' ? withoutAt(back) : back).toEqual(value);
      }),
      { numRuns: 200 },
    );
  });
});

describe('what the derived values reach', () => {
  const sample = <A>(codec: Codec<A>, n = 400) => fc.sample(arbitrary(codec), { numRuns: n, seed: 7 });

  test('rebuild fields are computed from the rest; what a later field reads is drawn small', () => {
    const list = struct({
      count: rebuild(u32le, (p: { items: number[] }) => p.items.length),
      items: (p: { count: number }) => array(u8, p.count),
    });
    const values = sample(list);
    expect(values.every((v) => v.count === v.items.length && v.count <= 8)).toBe(true);
    expect(new Set(values.map((v) => v.count)).size).toBeGreaterThan(4);
    // A width and a height the pixels take their size from: 32-bit fields, drawn mostly small.
    const picture = struct({
      width: u32le,
      height: u32le,
      pixels: (p: { width: number; height: number }) => bytes(p.width * p.height),
    });
    const pictures = sample(picture, 200);
    expect(pictures.filter((v) => v.width <= 8 && v.height <= 8).length).toBeGreaterThan(100);
    for (const v of pictures) expect(v.pixels.length).toBe(v.width * v.height);
  });

  test('a fixed count too large to generate skips the value that needs it, even behind lazy', () => {
    // `n` is drawn mostly small, sometimes over all of u32: an array of millions is not generated.
    const counted = struct({ n: u32le, items: (p: { n: number }) => array(u8, p.n) });
    const values = sample(counted, 200);
    for (const v of values) expect(v.items.length).toBe(v.n);
    expect(values.every((v) => v.n <= 8 * 64)).toBe(true);
    // Behind `lazy` the count is only met while generating: the element holding it is skipped.
    const behind = struct({
      n: u32le,
      items: (p: { n: number }) => lazy(() => array(u8, p.n)),
    });
    for (const v of sample(behind, 100)) expect(v.items.length).toBe(v.n);
  });

  test('a map or a directory whose values a model gives is derived from the model', () => {
    // Stored values 0…3 only: drawing u32s and filtering would starve.
    const reference = map(u32le, {
      decode: (n) => {
        if (n > 3) throw new Error('no such object');
        return n;
      },
      encode: (n: number) => n,
      model: () => literal(u8, 0, 1, 2, 3) as Codec<number>,
    });
    expect(new Set(sample(array(reference, 4), 100).flat())).toEqual(new Set([0, 1, 2, 3]));
    const entry = struct({ tag: u8, at: u32le, length: u32le });
    const tagged = directory({
      count: 2,
      entry,
      place: { offset: 'at', length: 'length' },
      body: () => bytes('rest'),
      // The body starts with the entry's tag: pairs drawn apart almost never agree.
      join: (e: { tag: number }, body: Uint8Array) => {
        if (body[0] !== e.tag) throw new Error('the body does not start with its tag');
        return { tag: e.tag, body };
      },
      split: (v: { tag: number; body: Uint8Array }) => ({ entry: { tag: v.tag }, body: v.body }),
      json: t.type({ tag: t.number, body: jsonBytes() }) as unknown as t.Type<
        { tag: number; body: Uint8Array },
        unknown,
        unknown
      >,
      model: () =>
        map(struct({ tag: u8, rest: bytes(u8) }), {
          decode: ({ tag, rest }) => ({ tag, body: Uint8Array.of(tag, ...rest) }),
          encode: (v: { tag: number; body: Uint8Array }) => ({ tag: v.tag, rest: v.body.subarray(1) }),
        }) as unknown as Codec<{ tag: number; body: Uint8Array }>,
    });
    for (const value of sample(tagged, 100)) {
      const bytes = encode(tagged, value);
      expect(E.isRight(bytes) && decode(tagged, bytes.right)).toEqual(E.right({ value, warnings: [] }));
    }
  });

  test('NaN payloads are generated for floats that keep them, as { nan } with every bit', () => {
    const values = sample(float(32, 'le', { nan: 'keep' }));
    const kept = values.filter((v) => typeof v === 'object') as Array<{ nan: string }>;
    expect(kept.length).toBeGreaterThan(0);
    for (const v of kept) expect(v.nan).toMatch(/^[0-9a-f]{8}$/);
    expect(sample(f32be).every((v) => typeof v === 'number')).toBe(true);
  });

  test('fixed strings that keep their tail get tails, starting with the NUL and filling the field', () => {
    const values = sample(fixedString(8, 'ascii', { tail: 'keep' }));
    const tails = values.filter((v) => typeof v === 'object') as Array<{ text: string; tail: Uint8Array }>;
    expect(tails.length).toBeGreaterThan(0);
    for (const v of tails) {
      expect(v.tail[0]).toBe(0);
      expect(v.text.length + v.tail.length).toBe(8);
    }
  });

  test('a prefixed count never passes what its prefix can hold', () => {
    const codec = pstring(u8, 'utf8');
    for (const s of sample(codec)) expect(new TextEncoder().encode(s).length).toBeLessThanOrEqual(255);
    const small = sized(u8, bytes('rest'));
    for (const b of fc.sample(arbitrary(small, { maxLength: 100 }), { numRuns: 200, seed: 3 }))
      expect(b.length).toBeLessThanOrEqual(255);
  });

  test('instances: unknown fields and extra elements under $kept, missing fields at their defaults', () => {
    const values = sample(player, 50) as Instance[];
    for (const v of values) {
      expect(v.armor).toBe(100);
      expect((v.weapons as unknown[]).length).toBe(3);
      expect((v.weapons as Array<{ clip: number }>)[2]).toEqual({ kind: 0, owned: 0, clip: 0 });
      expect((v.ammo as unknown[]).length).toBe(2);
      expect(Object.keys(v.$kept as object).sort()).toEqual(['ammo', 'target']);
    }
  });

  test('data that needs definitions is generated after them, naming what they defined', () => {
    const list = chunkList(framing, { Name: defineName, Uses: array(useName, u8) }, { until: ['ENDE'] });
    const values = sample(list) as Array<Array<{ id: string; body?: unknown }>>;
    const withData = values.filter((chunks) => chunks.some((c) => c.id === 'Uses' && (c.body as string[]).length > 0));
    expect(withData.length).toBeGreaterThan(20);
    for (const chunks of withData) {
      const first = chunks.findIndex((c) => c.id === 'Uses');
      expect(chunks.slice(0, first).some((c) => c.id === 'Name')).toBe(true);
    }
  });

  test('a custom codec: its model is used, else its samples; without either it names what to add', () => {
    for (const n of sample(varint16)) expect(n >= 0 && n <= 0xffff).toBe(true);
    expect(new Set(sample(yesNo))).toEqual(new Set([true, false]));
    const opaque = defineCodec<number>({ ...u8, def: customDef('opaque') });
    expect(() => arbitrary(opaque)).toThrow(/give its definition a model or samples \(customDef\)/);
    expect(fc.sample(arbitrary(opaque, { overrides: new Map([[opaque as AnyCodec, fc.constant(9)]]) }), 3)).toEqual([
      9, 9, 9,
    ]);
  });
});
