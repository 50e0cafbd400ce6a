// Typed codec definitions: every combinator states what it is, with its parameters, in `codec.def`.
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import { decode, encode, type AnyCodec, type Codec } from '../src/index';
import { bits, f32be, f64le, float, i16be, i64be, int, u16le, u24be, u32le, u64le, u8 } from '../src/index';
import { align, bytes, cstring, fixedString, fourcc, literal, magic, padding, pstring } from '../src/index';
import { rebuild, directory, arena, array, chunk, chunkList, lookahead, switchOn, lazy, map } from '../src/index';
import {
  maybe,
  nothing,
  optional,
  orRaw,
  pointer,
  sized,
  struct,
  taggedUnion,
  windowsAt,
  bytesUntil,
} from '../src/index';
import { checksum, crc32, transform, transformKeeping, xor } from '../src/index';
import { contextKey, fromContext, provide } from '../src/index';
import {
  countDef,
  customDef,
  defineCodec,
  layoutOf,
  layoutTables,
  partsOf,
  typeNameOf,
  unreachableDef,
  type CodecSpec,
  type CodecDefType,
  type DefOf,
  jsonBytes,
} from '../src/kit';
import { graphImage } from '../src/graph';
import { instanceCodec, reconcile, type KnownStruct, type SchemaEncoding } from '../src/schema';

/** The definition of `codec`, which must be of variant `type`. */
function defOf<T extends CodecDefType>(codec: AnyCodec, type: T): DefOf<T> {
  expect(codec.def.type).toBe(type);
  return codec.def as DefOf<T>;
}

const framing = { marker: fourcc({ alnum: true }), length: u32le, align: 4 };
const schemaEncoding: SchemaEncoding = {
  numeric: (size) => bytes(size),
  string: cstring('ascii'),
  index: u32le,
  nest: (_def, body) => body,
};
const schema: KnownStruct[] = [
  {
    name: 'thing_t',
    marker: 'thng',
    fields: [{ name: 'hp', kind: 'numeric', size: 2, count: 1, codec: u16le, default: () => 0 }],
  },
];

describe('every core combinator states its definition', () => {
  test('integers: width, signedness, byte order and range', () => {
    expect(u8.def).toEqual({ type: 'int', bits: 8, signed: false, endian: 'le', min: 0, max: 255 });
    expect(i16be.def).toEqual({ type: 'int', bits: 16, signed: true, endian: 'be', min: -32768, max: 32767 });
    expect(u24be.def).toEqual({ type: 'int', bits: 24, signed: false, endian: 'be', min: 0, max: 0xffffff });
    expect(int(48, true).def).toEqual({
      type: 'int',
      bits: 48,
      signed: true,
      endian: 'le',
      min: -(2 ** 47),
      max: 2 ** 47 - 1,
    });
    expect(u64le.def).toEqual({ type: 'int', bits: 64, signed: false, endian: 'le', min: 0n, max: 2n ** 64n - 1n });
    expect(i64be.def).toEqual({
      type: 'int',
      bits: 64,
      signed: true,
      endian: 'be',
      min: -(2n ** 63n),
      max: 2n ** 63n - 1n,
    });
  });

  test('floats: width, byte order and what happens to NaN payloads', () => {
    expect(f32be.def).toEqual({ type: 'float', bits: 32, endian: 'be', nan: 'refuse' });
    expect(f64le.def).toEqual({ type: 'float', bits: 64, endian: 'le', nan: 'refuse' });
    expect(float(64, 'be', { nan: 'keep' }).def).toEqual({ type: 'float', bits: 64, endian: 'be', nan: 'keep' });
  });

  test('bits: order, size and every field placed', () => {
    const codec = bits({ a: 3, gap: 5, b: { at: 8, width: 8 }, c: 8 }, { order: 'msb', bytes: 3 });
    expect(codec.def).toEqual({
      type: 'bits',
      order: 'msb',
      bytes: 3,
      fields: [
        { name: 'a', at: 0, width: 3 },
        { name: 'gap', at: 3, width: 5 },
        { name: 'b', at: 8, width: 8 },
        { name: 'c', at: 16, width: 8 },
      ],
    });
  });

  test('magic, literal, fourcc', () => {
    expect(magic('IWAD', 'PWAD').def).toEqual({ type: 'magic', alternatives: ['IWAD', 'PWAD'] });
    const version = literal(u16le, 2, 3);
    expect(defOf(version, 'literal').codec).toBe(u16le);
    expect(defOf(version, 'literal').values).toEqual([2, 3]);
    expect(fourcc().def).toEqual({ type: 'fourcc', alnum: false });
    expect(fourcc({ alnum: true }).def).toEqual({ type: 'fourcc', alnum: true });
  });

  test('strings: encoding and how the text ends', () => {
    expect(cstring('cp437').def).toEqual({ type: 'string', encoding: 'cp437', termination: { type: 'nul' } });
    const p = defOf(pstring(u16le, 'ascii'), 'string');
    expect(p.encoding).toBe('ascii');
    expect(p.termination).toEqual({ type: 'prefix', length: u16le });
    expect(p.termination.type === 'prefix' && p.termination.length).toBe(u16le);
    expect(fixedString(8).def).toEqual({
      type: 'string',
      encoding: 'utf8',
      termination: { type: 'fixed', size: 8, pad: 0, tail: 'refuse' },
    });
    expect(fixedString(8, 'ascii', { pad: 0x20 }).def).toEqual({
      type: 'string',
      encoding: 'ascii',
      termination: { type: 'fixed', size: 8, pad: 0x20, tail: 'refuse' },
    });
    expect(fixedString(8, 'ascii', { tail: 'keep' }).def).toEqual({
      type: 'string',
      encoding: 'ascii',
      termination: { type: 'fixed', size: 8, pad: 0, tail: 'keep' },
    });
  });

  test('bytes and arrays: the count is fixed, a prefix or the rest of the window', () => {
    expect(bytes(16).def).toEqual({ type: 'bytes', count: { type: 'fixed', count: 16 } });
    expect(bytes('rest').def).toEqual({ type: 'bytes', count: { type: 'rest' } });
    expect(defOf(bytes(u8), 'bytes').count).toEqual({ type: 'prefix', codec: u8 });
    const list = defOf(array(u32le, u16le), 'array');
    expect(list.element).toBe(u32le);
    expect(list.count.type === 'prefix' && list.count.codec).toBe(u16le);
    expect(array(u8, 3).def).toEqual({ type: 'array', element: u8, count: { type: 'fixed', count: 3 } });
    expect([countDef(2), countDef('rest'), countDef(u8)]).toEqual([
      { type: 'fixed', count: 2 },
      { type: 'rest' },
      { type: 'prefix', codec: u8 },
    ]);
  });

  test('struct: fields in order, dependent ones as their function', () => {
    const dependent = (p: { n: number }) => array(u8, p.n);
    const def = defOf(struct({ n: u8, items: dependent }), 'struct');
    expect(def.fields.map((f) => f.name)).toEqual(['n', 'items']);
    expect(def.fields[0]!.spec).toBe(u8);
    expect(def.fields[1]!.spec).toBe(dependent);
  });

  test('optional, nothing, maybe, padding and align', () => {
    expect(defOf(optional(u8), 'optional').codec).toBe(u8);
    expect(nothing.def).toEqual({ type: 'nothing' });
    expect(maybe(false, u8).def).toEqual({ type: 'nothing' });
    expect(maybe(true, u8)).toBe(u8);
    expect(padding(4, 0xff).def).toEqual({ type: 'padding', to: 'count', count: 4, fill: 0xff });
    expect(align(8).def).toEqual({ type: 'padding', to: 'boundary', boundary: 8, fill: 0 });
  });

  test('taggedUnion: the tag codec, each variant with its tag value, and otherwise', () => {
    const rest = bytes('rest');
    const numeric = defOf(taggedUnion(u8, { 1: u32le, 2: cstring('ascii') }, { otherwise: rest }), 'taggedUnion');
    expect(numeric.tag).toBe(u8);
    expect(numeric.variants.map((v) => v.tag)).toEqual([1, 2]); // numbers: the tag codec reads numbers
    expect(numeric.variants[0]!.codec).toBe(u32le);
    expect(numeric.otherwise).toBe(rest);
    const named = defOf(taggedUnion(fourcc(), { HEAD: u8 }), 'taggedUnion');
    expect(named.variants).toEqual([{ tag: 'HEAD', codec: u8 }]);
    expect(named.otherwise).toBeUndefined();
  });

  test('map, sized, lazy', () => {
    const bijection = { decode: (n: number) => n * 2, encode: (n: number) => n / 2 };
    const m = defOf(map(u8, bijection), 'map');
    expect(m.stored).toBe(u8);
    expect(m.bijection).toBe(bijection);
    expect(sized(12, u32le).def).toEqual({ type: 'sized', size: { type: 'fixed', count: 12 }, body: u32le });
    expect(sized(u16le, u32le).def).toEqual({ type: 'sized', size: { type: 'prefix', codec: u16le }, body: u32le });
    const later = lazy(() => u8);
    expect(defOf(later, 'lazy').resolve()).toBe(u8);
  });

  test('chunks: framing, marker and body; lists with their known chunks and stop markers', () => {
    const body = struct({ n: u8 });
    const one = defOf(chunk(framing, 'Vari', body), 'chunk');
    expect(one.framing).toBe(framing);
    expect(one.marker).toBe('Vari');
    expect(one.body).toBe(body);
    const list = defOf(chunkList(framing, { Vari: body, Wads: u32le }, { until: ['ENDE'] }), 'chunkList');
    expect(list.known).toEqual([
      { marker: 'Vari', codec: body },
      { marker: 'Wads', codec: u32le },
    ]);
    expect(list.until).toEqual(['ENDE']);
    expect(defOf(chunkList(framing, {}), 'chunkList').until).toEqual([]);
  });

  test('transform and transformKeeping: the layers in order, the decoded length, what is kept', () => {
    const key = xor('K');
    const plain = defOf(transform(bytes('rest'), key), 'transform');
    expect(plain.layers).toEqual([key]);
    expect(plain.decodedLength).toBeUndefined();
    expect(plain.keep).toBe('never');
    const keeping = defOf(transformKeeping(u32le, { decodedLength: u16le, keep: 'always' }, key), 'transform');
    expect(keeping.codec).toBe(u32le);
    expect(keeping.decodedLength).toBe(u16le);
    expect(keeping.keep).toBe('always');
    expect(defOf(transformKeeping(u32le, key), 'transform').keep).toBe('when-different');
  });

  test('checksum: body, algorithm, stored digest, position and coverage', () => {
    expect(checksum(u8, { algorithm: crc32, stored: u32le }).def).toEqual({
      type: 'checksum',
      body: u8,
      algorithm: crc32,
      stored: u32le,
      position: 'after',
      covers: 'value',
    });
    const before = defOf(checksum(u8, { algorithm: crc32, stored: u32le, position: 'before' }), 'checksum');
    expect([before.position, before.covers]).toEqual(['before', 'value']);
    const window = defOf(checksum(u8, { algorithm: crc32, stored: u32le, covers: 'window' }), 'checksum');
    expect(window.covers).toBe('window');
  });

  test('pointer and arena', () => {
    const target = cstring('ascii');
    expect(pointer(u16le, target).def).toEqual({
      type: 'pointer',
      offset: u16le,
      target,
      nullOffset: 0,
      base: 'arena',
      reserved: [0],
      align: 1,
    });
    expect(pointer(u32le, target, { nullOffset: undefined, base: 'pointer', reserved: [4], align: 2 }).def).toEqual({
      type: 'pointer',
      offset: u32le,
      target,
      nullOffset: undefined,
      base: 'pointer',
      reserved: [4],
      align: 2,
    });
    expect(defOf(arena(target), 'arena').root).toBe(target);
  });

  test('graphImage and schema instances', () => {
    expect(graphImage.def).toEqual({ type: 'graphImage' });
    const plans = reconcile(
      [{ name: 'thing_t', marker: 'thng', fields: [{ name: 'hp', kind: 'numeric', size: 2, count: 1 }] }],
      schema,
      schemaEncoding,
    );
    const def = defOf(instanceCodec('thing_t', plans, schemaEncoding), 'instance');
    expect(def.struct).toBe('thing_t');
    expect(def.plan).toBe(plans.plans.get('thing_t'));
    expect(def.elements()).toEqual([u16le]);
  });
});

describe('codecs a package defines itself', () => {
  const spec = {
    name: 'yesNo',
    json: t.boolean,
    size: 1,
    read: (r: Parameters<Codec<boolean>['read']>[0]) => u8.read(r) === 0x59,
    write: (w: Parameters<Codec<boolean>['write']>[0], v: boolean) => u8.write(w, v ? 0x59 : 0x4e),
  };

  test('customDef: a name, parameters, and optionally a model codec and samples', () => {
    const codec = defineCodec<boolean>({
      ...spec,
      def: customDef('yesNo', { params: { yes: 'Y' }, samples: [true, false] }),
    });
    expect(codec.def).toEqual({ type: 'custom', name: 'yesNo', params: { yes: 'Y' }, samples: [true, false] });
    expect(customDef('plain')).toEqual({ type: 'custom', name: 'plain', params: {} });
    expect(customDef('modelled', { model: u16le }).model).toBe(u16le);
    expect(E.isRight(encode(codec, true)) && decode(codec, Uint8Array.of(0x59))).toEqual(
      E.right({ value: true, warnings: [] }),
    );
  });

  test('a codec without a typed def is refused: by the compiler, and at run time for JavaScript callers', () => {
    // @ts-expect-error — `def` is required
    const missing: CodecSpec<boolean> = { ...spec };
    // @ts-expect-error — the free-form `kind`/`meta` form of before typed definitions is gone
    const freeForm: CodecSpec<boolean> = { ...spec, kind: 'yesNo', meta: { yes: 'Y' } };
    expect(() => defineCodec(missing)).toThrow(/defineCodec\("yesNo"\): a codec needs a typed `def`/);
    expect(() => defineCodec(freeForm)).toThrow(TypeError);
  });
});

describe('tools switch over def.type exhaustively', () => {
  test('unreachableDef refuses at run time what the compiler refuses at compile time', () => {
    // The core's own tools switch over def.type with unreachableDef in the default branch: each
    // compiles only while it knows every variant, and refuses one it does not know at run time.
    const vanished = { ...u8, def: { type: 'vanished' } } as unknown as AnyCodec;
    for (const tool of [typeNameOf, layoutOf, partsOf])
      expect(() => tool(vanished)).toThrow('unknown codec definition "vanished"');
    expect(() => unreachableDef({ type: 'gone' } as never)).toThrow('unknown codec definition "gone"');
  });
});

describe('layoutOf and typeNameOf', () => {
  test('a structure flattened: offsets while sizes are fixed, bit fields, dependent fields', () => {
    const header = struct({
      magic: magic('WAD1'),
      flags: bits({ a: 1, b: 7 }, { order: 'lsb' }),
      count: u16le,
      inner: struct({ x: i16be, name: fixedString(4, 'ascii') }),
      items: (p: { count: number }) => array(u8, p.count),
      tail: u32le,
    });
    expect(layoutOf(header)).toEqual([
      { path: 'magic', offset: 0, size: 4, type: 'magic "WAD1"', parts: [] },
      { path: 'flags.a', offset: 4, size: undefined, bits: { at: 0, width: 1, order: 'lsb' }, type: 'u1', parts: [] },
      { path: 'flags.b', offset: 4, size: undefined, bits: { at: 1, width: 7, order: 'lsb' }, type: 'u7', parts: [] },
      { path: 'count', offset: 5, size: 2, type: 'u16le', parts: [] },
      { path: 'inner.x', offset: 7, size: 2, type: 'i16be', parts: [] },
      { path: 'inner.name', offset: 9, size: 4, type: 'fixedString(4, ascii)', parts: [] },
      { path: 'items', offset: 13, size: undefined, type: 'depends on earlier fields', parts: [] },
      { path: 'tail', offset: undefined, size: 4, type: 'u32le', parts: [] },
    ]);
  });

  test('checksums, fixed windows and mapped values are laid out in place', () => {
    const body = struct({ a: u8, b: u16le });
    expect(layoutOf(checksum(body, { algorithm: crc32, stored: u32le, position: 'before' }))).toEqual([
      { path: 'CRC-32', offset: 0, size: 4, type: 'u32le', parts: [] },
      { path: 'a', offset: 4, size: 1, type: 'u8', parts: [] },
      { path: 'b', offset: 5, size: 2, type: 'u16le', parts: [] },
    ]);
    expect(layoutOf(struct({ s: sized(3, body), c: checksum(u8, { algorithm: crc32, stored: u32le }) }))).toEqual([
      { path: 's.a', offset: 0, size: 1, type: 'u8', parts: [] },
      { path: 's.b', offset: 1, size: 2, type: 'u16le', parts: [] },
      { path: 'c', offset: 3, size: 1, type: 'u8', parts: [] },
      { path: 'c.CRC-32', offset: 4, size: 4, type: 'u32le', parts: [] },
    ]);
    expect(layoutOf(map(u8, { decode: (n: number) => n, encode: (n: number) => n, name: 'level' }))).toEqual([
      { path: '', offset: 0, size: 1, type: 'u8', parts: [] },
    ]);
    const name = cstring('ascii');
    expect(layoutOf(sized(u8, name))).toEqual([
      {
        path: '',
        offset: 0,
        size: undefined,
        type: 'cstring(ascii) in u8 bytes',
        parts: [{ key: 'body', codec: name }],
      },
    ]);
  });

  test('containers are one row each, with their cases as parts (so a table can link to them)', () => {
    const riff = struct({ id: magic('RIFF'), size: u32le });
    const list = struct({ id: magic('LIST'), count: u16le });
    const raw = bytes('rest');
    const union = taggedUnion(u8, { 1: riff, 2: list }, { otherwise: raw });
    const chosen = lookahead(fourcc(), { RIFF: riff, LIST: list }, { otherwise: raw });
    const hidden = switchOn(fourcc(), { RIFF: riff, LIST: list }, { caseOf: (v) => v.id });
    const chunks = chunkList(framing, { Vari: riff });
    const file = struct({ union, chosen, hidden, chunks, entries: array(list, u8) });
    const rows = layoutOf(file);
    expect(rows.map((r) => [r.path, r.offset, r.type])).toEqual([
      ['union', 0, 'taggedUnion(u8: 1 | 2 | *)'],
      ['chosen', undefined, 'lookahead(fourcc: "RIFF" | "LIST" | *)'],
      ['hidden', undefined, 'switchOn(fourcc: "RIFF" | "LIST")'],
      ['chunks', undefined, 'chunks (Vari, others raw)'],
      ['entries', undefined, 'struct[u8]'],
    ]);
    const parts = (path: string) => rows.find((r) => r.path === path)!.parts.map((p) => [p.key, p.codec]);
    expect(parts('union')).toEqual([
      ['1', riff],
      ['2', list],
      ['otherwise', raw],
    ]);
    expect(parts('chosen')).toEqual([
      ['RIFF', riff],
      ['LIST', list],
      ['otherwise', raw],
    ]);
    expect(parts('hidden')).toEqual([
      ['RIFF', riff],
      ['LIST', list],
    ]);
    expect(parts('chunks')).toEqual([['Vari', riff]]);
    expect(parts('entries')).toEqual([['element', list]]);
    expect(partsOf(u8)).toEqual([]);
  });

  test('layoutTables: every named codec, then the structures their rows hold, each once (recursion ends)', () => {
    const entry = struct({ id: u16le, name: cstring('ascii') });
    type Node = { value: number; next: Node[] };
    const node: Codec<Node> = lazy(() => struct({ value: u8, next: array(node, u8) }), 'node');
    const file = struct({ count: u8, entries: array(entry, 'rest') });
    const tables = layoutTables({ file, entry2: entry, node });
    expect(tables.map((t) => t.name)).toEqual(['file', 'entry2', 'node', 'node:resolved']);
    expect(tables[1]!.codec).toBe(entry);
    expect(layoutTables({ file }).map((t) => t.name)).toEqual(['file', 'file.entries:element']);
    // A part said in full by its type (u16le elements) gets no table of its own.
    expect(layoutTables({ list: array(u16le, u8) }).map((t) => t.name)).toEqual(['list']);
  });

  test('a type name for every variant', () => {
    const custom = defineCodec<boolean>({
      name: 'yesNo',
      def: customDef('yesNo'),
      json: t.boolean,
      read: (r) => u8.read(r) === 1,
      write: (w, v) => u8.write(w, v ? 1 : 0),
    });
    const plans = reconcile(
      [{ name: 'thing_t', marker: 'thng', fields: [{ name: 'hp', kind: 'numeric', size: 2, count: 1 }] }],
      schema,
      schemaEncoding,
    );
    const COUNT = contextKey('count', () => 0);
    const names: Record<CodecDefType, Array<[AnyCodec, string]>> = {
      int: [
        [u8, 'u8'],
        [i64be, 'i64be'],
      ],
      float: [
        [f32be, 'f32be'],
        [float(64, 'le', { nan: 'keep' }), 'f64le (NaN payloads kept)'],
      ],
      bits: [[bits({ a: 4, b: 4 }, { order: 'msb' }), 'bits(1 bytes, msb)']],
      magic: [[magic('AB', 'CD'), 'magic "AB" | "CD"']],
      literal: [[literal(u8, 1, 2), 'u8 = 1 | 2']],
      fourcc: [
        [fourcc(), 'fourcc'],
        [fourcc({ alnum: true }), 'fourcc (letters and digits)'],
      ],
      string: [
        [cstring('ascii'), 'cstring(ascii)'],
        [pstring(u16le, 'utf8'), 'pstring(u16le, utf8)'],
        [fixedString(8, 'cp437'), 'fixedString(8, cp437)'],
      ],
      bytes: [
        [bytes(4), 'u8[4]'],
        [bytes(u16le), 'u8[u16le]'],
        [bytes('rest'), 'u8[rest]'],
      ],
      struct: [[struct({ a: u8 }, 'header'), 'header']],
      array: [[array(u32le, u8), 'u32le[u8]']],
      optional: [[optional(u8), 'u8?']],
      nothing: [[nothing, 'nothing']],
      padding: [
        [padding(3), 'padding(3)'],
        [align(4), 'align(4)'],
      ],
      taggedUnion: [
        [taggedUnion(u8, { 1: u8, 2: u16le }), 'taggedUnion(u8: 1 | 2)'],
        [taggedUnion(fourcc(), { HEAD: u8 }, { otherwise: bytes('rest') }), 'taggedUnion(fourcc: "HEAD" | *)'],
      ],
      switch: [
        [
          switchOn(
            u8,
            { a: u8, b: u16le },
            { select: (n) => (n < 128 ? 'a' : 'b'), caseOf: (n) => (n < 128 ? 'a' : 'b') },
          ),
          'switchOn(u8: "a" | "b")',
        ],
        [lookahead(u8, { 1: u8 }), 'lookahead(u8: "1")'],
        [switchOn(fourcc(), { HEAD: fourcc() }, { caseOf: () => 'HEAD' }), 'switchOn(fourcc: "HEAD")'],
      ],
      map: [[map(u8, { decode: (n: number) => n, encode: (n: number) => n, name: 'level' }), 'level']],
      sized: [[sized(8, u32le), 'u32le in 8 bytes']],
      chunk: [[chunk(framing, 'Vari', u8), 'chunk "Vari"']],
      chunkList: [
        [chunkList(framing, { Vari: u8 }), 'chunks (Vari, others raw)'],
        [chunkList(framing, {}), 'chunks (others raw)'],
      ],
      transform: [
        [transform(bytes('rest'), xor('K'), xor('L')), 'u8[rest] <xor, xor>'],
        [transformKeeping(bytes('rest'), { decodedLength: u32le }, xor('K')), 'u8[rest] <xor>'],
      ],
      checksum: [[checksum(u8, { algorithm: crc32, stored: u32le }), 'u8 + CRC-32']],
      pointer: [[pointer(u16le, cstring('ascii')), 'u16le → cstring(ascii)']],
      arena: [[arena(u8), 'arena(u8)']],
      bytesUntil: [[bytesUntil(u8), 'bytes until u8']],
      windowsAt: [[windowsAt(4, u16le, struct({ a: u8 })), 'u16le[4] → struct to the next offset']],
      directory: [
        [
          directory({
            count: 2,
            entry: struct({ at: u8, length: u8 }, 'entry'),
            place: { offset: 'at', length: 'length' },
            body: () => bytes('rest'),
            join: (_e, b) => b,
            split: (b: Uint8Array) => ({ entry: {}, body: b }),
            json: jsonBytes(),
          }),
          'directory(entry[2] + bodies)',
        ],
      ],
      lazy: [[lazy(() => u8, 'node'), 'node']],
      rebuild: [[rebuild(u16le, () => 0).rebuild.field, 'u16le, computed on write']],
      graphImage: [[graphImage, 'graphImage']],
      instance: [[instanceCodec('thing_t', plans, schemaEncoding), 'instance(thing_t)']],
      provide: [[provide(u8, COUNT, (_, n) => n), 'u8']],
      fromContext: [[fromContext(COUNT, (n) => array(u8, n), { json: t.array(u8.json) }), 'depends on count']],
      fallback: [[orRaw(u32le, { warning: { code: 'kept', message: 'kept' } }), 'u32le, else raw']],
      custom: [[custom, 'yesNo']],
    };
    for (const [type, cases] of Object.entries(names)) {
      for (const [codec, name] of cases) {
        expect(codec.def.type).toBe(type);
        expect(typeNameOf(codec)).toBe(name);
      }
    }
  });
});
