// Compiled codecs give exactly what the interpreted ones give: values, warnings, and errors down to
// message, code, path and offset, on hostile and random input; decoder() is decodeOrThrow.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import {
  array,
  bytes,
  compile,
  cstring,
  decode,
  decodeOrThrow,
  decoder,
  encode,
  f32be,
  f32le,
  f64be,
  f64le,
  fixedString,
  i16be,
  i16le,
  i24le,
  i32be,
  i32le,
  i64le,
  i8,
  literal,
  magic,
  nothing,
  optional,
  padding,
  pstring,
  struct,
  taggedUnion,
  u16be,
  u16le,
  u32be,
  u32le,
  u48le,
  u8,
  type AnyCodec,
  type Codec,
  type DecodeOptions,
} from '../src/index';
import { customDef, defineCodec } from '../src/kit';
import { errorFields } from './compiled-shim';

/** A custom codec the compiler cannot know: a u8 that warns on odd values. */
const oddWarns: Codec<number> = defineCodec<number>({
  name: 'oddWarns',
  def: customDef('oddWarns'),
  json: t.number,
  read(r) {
    const at = r.pos;
    const v = u8.read(r);
    if (v % 2 === 1) r.warn('odd', `odd value ${v}`, at);
    return v;
  },
  write(w, v) {
    u8.write(w, v);
  },
});

const item = struct({ id: u16le, count: u8, tag: pstring(u8, 'utf8') });
const fixedPart = struct({ a: i8, b: i16be, c: i24le, d: u48le, e: f32le, f: f64be, big: i64le, m: magic('OK') });
/** Every kind of node the compiler knows, and some it does not, in one tree. */
const tree = struct({
  head: fixedPart,
  version: literal(u8, 1, 2),
  pad: padding(2),
  name: pstring(u8, 'utf8'),
  ascii: pstring(u16le, 'ascii'),
  note: cstring('cp437'),
  label: fixedString(6, 'ascii'),
  raw: bytes(3),
  blob: bytes(u8),
  stats: array(u16le, 3),
  items: array(item, u8),
  odd: oddWarns,
  union: taggedUnion(u8, { 1: u32le, 2: cstring('utf8') }),
  extra: (p: { version: number }): AnyCodec => (p.version === 2 ? array(fixedPart, u8) : nothing),
  fixedItems: array(struct({ x: u8, y: oddWarns }), 2),
  rest: optional(array(u32be, 'rest')),
});

const sampleValue = {
  head: { a: -3, b: -300, c: -70000, d: 2 ** 40 + 5, e: 1.5, f: -2.25, big: -5n, m: 'OK' as const },
  version: 2 as const,
  pad: undefined,
  name: 'Ånnä 😀',
  ascii: 'plain',
  note: '░▒▓',
  label: 'lbl',
  raw: Uint8Array.of(1, 2, 3),
  blob: Uint8Array.of(9, 8),
  stats: [1, 2, 65535],
  items: [
    { id: 7, count: 1, tag: 'sword' },
    { id: 8, count: 2, tag: 'Ølbrauer' },
  ],
  odd: 3,
  union: { tag: 2 as const, value: 'hi' },
  extra: [{ a: 1, b: 2, c: 3, d: 4, e: 0.5, f: 1, big: 1n, m: 'OK' as const }],
  fixedItems: [
    { x: 1, y: 3 },
    { x: 2, y: 4 },
  ],
  rest: [1, 2],
};

type Result = E.Either<Error, unknown>;

function same(interpreted: Result, compiled: Result): void {
  if (E.isLeft(interpreted) && E.isLeft(compiled)) {
    expect(errorFields(compiled.left)).toEqual(errorFields(interpreted.left));
    expect(compiled.left.constructor).toBe(interpreted.left.constructor);
  } else {
    expect(compiled).toEqual(interpreted);
    expect(isDeepStrictEqual(compiled, interpreted)).toBe(true);
  }
}

function sameDecode(codec: AnyCodec, input: Uint8Array, options?: DecodeOptions): void {
  same(decode(codec, input, options), decode(compile(codec), input, options));
}

const mutations = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 });

describe('compile', () => {
  const sample = encode(tree, sampleValue);
  if (E.isLeft(sample)) throw sample.left;
  const bytesOf = sample.right;

  test('round-trips the sample with the same value and warnings as the interpreted codec', () => {
    const compiled = compile(tree);
    const decoded = decode(compiled, bytesOf);
    expect(decoded).toEqual(decode(tree, bytesOf));
    if (E.isLeft(decoded)) throw decoded.left;
    // Warnings of a subtree left to the interpreter carry the full path.
    expect(decoded.right.warnings.map((w) => w.path)).toEqual([['odd'], ['fixedItems', 0, 'y']]);
    expect(encode(compiled, sampleValue)).toEqual(E.right(bytesOf));
  });

  test('keeps what tools read: name, definition, sizes, children, JSON type', () => {
    const compiled = compile(tree);
    expect(compiled.name).toBe(tree.name);
    expect(compiled.def).toBe(tree.def);
    expect(compiled.minSize).toBe(tree.minSize);
    expect(compiled.children).toBe(tree.children);
    expect(compiled.json).toBe(tree.json);
    expect(compile(fixedPart).size).toBe(fixedPart.size);
    // Compiling a compiled codec compiles the original again.
    expect(decode(compile(compile(tree)), bytesOf)).toEqual(decode(tree, bytesOf));
  });

  test('truncated at every byte: the same error', () => {
    for (let cut = 0; cut <= bytesOf.length; cut++) sameDecode(tree, bytesOf.subarray(0, cut));
  });

  test('every single-byte change: the same value or error', () => {
    for (let at = 0; at < bytesOf.length; at++) {
      for (const value of [0x00, 0x7f, 0x80, 0xff]) {
        const changed = bytesOf.slice();
        changed[at] = value;
        sameDecode(tree, changed);
      }
    }
  });

  test('fuzz: mutated and random input, with budgets and options, gives the same result', () => {
    fc.assert(
      fc.property(
        mutations,
        fc.uint8Array({ maxLength: 120 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
        fc.constantFrom<DecodeOptions['trailing']>('error', 'keep'),
        // A traced decode takes the interpreted path: drawn 1 in 8, so most runs exercise the compiled one.
        fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
        (changes, random, useRandom, maxWork, trailing, trace) => {
          const input = useRandom ? random : bytesOf.slice();
          if (!useRandom) for (const [at, b] of changes) input[at % input.length] = b;
          const options: DecodeOptions = { maxWork, trailing, trace };
          for (const codec of [tree, fixedPart, item, array(item, u8), array(fixedPart, 'rest')] as AnyCodec[])
            sameDecode(codec, input, options);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('fuzz: UTF-8 and ASCII text decode as the platform does, and refuse what it refuses', () => {
    const utf8Codec = pstring(u8, 'utf8');
    const asciiCodec = pstring(u8, 'ascii');
    const bytesLike = fc.oneof(
      fc.uint8Array({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 30 }).map((s) => new TextEncoder().encode(s)),
      fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), mutations).map(([s, changes]) => {
        const b = new TextEncoder().encode(s);
        for (const [at, v] of changes) if (b.length > 0) b[at % b.length] = v;
        return b;
      }),
    );
    fc.assert(
      fc.property(bytesLike, (text) => {
        const input = Uint8Array.from([Math.min(text.length, 255), ...text.subarray(0, 255)]);
        sameDecode(utf8Codec, input);
        sameDecode(asciiCodec, input);
      }),
      { numRuns: 3000 },
    );
  });

  test('fuzz: encoding strings, including lone surrogates, gives the same bytes or error', () => {
    const codecs: AnyCodec[] = [pstring(u8, 'utf8'), pstring(u16le, 'utf8'), struct({ s: pstring(u8, 'utf8') })];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('grapheme', 'binary') as never, maxLength: 100 }), (text) => {
        for (const codec of codecs) {
          const value = codec.def.type === 'struct' ? { s: text } : text;
          same(encode(codec, value), encode(compile(codec), value));
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('fuzz: values the codec cannot write give the same EncodeError', () => {
    const values = fc.oneof(
      fc.constant(sampleValue),
      fc.anything(),
      fc
        .tuple(
          fc.constantFrom(...Object.keys(sampleValue)),
          fc.oneof(fc.anything(), fc.integer(), fc.double(), fc.constant(-1)),
        )
        .map(([key, bad]) => ({ ...sampleValue, [key]: bad })),
      fc
        .tuple(
          fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'big', 'm'),
          fc.oneof(fc.double(), fc.bigInt(), fc.string()),
        )
        .map(([key, bad]) => ({ ...sampleValue, head: { ...sampleValue.head, [key]: bad } })),
    );
    fc.assert(
      fc.property(values, (value) => {
        same(encode(tree, value as never), encode(compile(tree), value as never));
        same(encode(array(fixedPart, u8), [value] as never), encode(compile(array(fixedPart, u8)), [value] as never));
      }),
      { numRuns: 2000 },
    );
  });

  test('a spent work budget fails where the interpreter fails, with its error', () => {
    const records = array(struct({ a: u8, name: cstring('ascii') }), u32le);
    const input = encode(
      records,
      Array.from({ length: 50 }, () => ({ a: 1, name: 'x' })),
    );
    if (E.isLeft(input)) throw input.left;
    for (let maxWork = 1; maxWork <= 160; maxWork++) sameDecode(records, input.right, { maxWork });
  });

  test('encoding a fixed-layout array sizes the output once and hands it over without a copy', () => {
    const records = compile(array(struct({ a: u32le, b: u16le }), u16le));
    const out = encode(
      records,
      Array.from({ length: 1000 }, (_, i) => ({ a: i, b: i & 0xffff })),
    );
    if (E.isLeft(out)) throw out.left;
    expect(out.right.length).toBe(2 + 6000);
    expect(out.right.buffer.byteLength).toBe(out.right.length);
  });

  test('runs inside interpreted codecs and around interpreted ones', () => {
    const inner = compile(struct({ x: u8, y: oddWarns }));
    const outer = struct({ list: array(inner, u8), after: u8 });
    const input = Uint8Array.of(2, 1, 3, 2, 5, 9);
    expect(decode(outer, input)).toEqual(
      decode(struct({ list: array(struct({ x: u8, y: oddWarns }), u8), after: u8 }), input),
    );
    sameDecode(outer, input.subarray(0, 4));
  });
});

describe('decoder', () => {
  const record = struct({ a: u32le, b: u16le, name: pstring(u8, 'ascii') });
  const read = decoder(record);
  const expectSame = (input: Uint8Array) => {
    let expected: E.Either<unknown, unknown>;
    try {
      expected = E.right(decodeOrThrow(record, input));
    } catch (error) {
      expected = E.left(error);
    }
    let actual: E.Either<unknown, unknown>;
    try {
      actual = E.right(read(input));
    } catch (error) {
      actual = E.left(error);
    }
    expect(actual).toEqual(expected);
    if (E.isLeft(actual) && E.isLeft(expected))
      expect(errorFields(actual.left as Error)).toEqual(errorFields(expected.left as Error));
  };

  test('is decodeOrThrow: values, errors and trailing bytes, at any offset of any buffer', () => {
    const whole = Uint8Array.of(0xee, 1, 0, 0, 0, 2, 0, 2, 0x41, 0x42, 0xee, 0xee);
    expectSame(whole.subarray(1, 10));
    expect(read(whole.subarray(1, 10))).toEqual({ a: 1, b: 2, name: 'AB' });
    expectSame(whole.subarray(1, 11)); // a trailing byte
    expectSame(whole.subarray(1, 9)); // short
    expectSame(Uint8Array.of(1, 0, 0, 0, 2, 0, 1, 0xc3)); // not ASCII
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), fc.nat({ max: 4 }), (input, skip) => {
        const padded = new Uint8Array(input.length + skip);
        padded.set(input, skip);
        expectSame(padded.subarray(skip));
      }),
      { numRuns: 1000 },
    );
  });

  test('a fixed-layout decoder called with one array again sees its bytes, and other arrays their own', () => {
    // The decoder remembers the last array's buffer and offset: what it reads must still be the
    // array's current bytes, and another array (of the same buffer or not) its own.
    const fixed = struct({ a: u32le, b: u16le });
    const readFixed = decoder(fixed);
    const buffer = new Uint8Array(16);
    const first = buffer.subarray(2, 8);
    const second = buffer.subarray(8, 14);
    for (let n = 0; n < 20; n++) {
      first[0] = n;
      second[4] = n + 1;
      expect(readFixed(first)).toEqual({ a: n, b: 0 });
      expect(readFixed(second)).toEqual({ a: 0, b: n + 1 });
      expect(readFixed(first)).toEqual(decodeOrThrow(fixed, first));
    }
    const other = Uint8Array.of(9, 0, 0, 0, 7, 0);
    expect(readFixed(other)).toEqual({ a: 9, b: 7 });
    // A detached buffer: the array is empty, and the error is decodeOrThrow's.
    const kept = Uint8Array.of(1, 0, 0, 0, 2, 0);
    expect(readFixed(kept)).toEqual({ a: 1, b: 2 });
    structuredClone(kept.buffer, { transfer: [kept.buffer] });
    let expected: unknown;
    try {
      decodeOrThrow(fixed, kept);
    } catch (error) {
      expected = errorFields(error as Error);
    }
    expect(expected).toBeDefined();
    expect(() => readFixed(kept)).toThrow();
    try {
      readFixed(kept);
    } catch (error) {
      expect(errorFields(error as Error)).toEqual(expected);
    }
  });

  test('codecs that do not compile completely take the ordinary path', () => {
    const withCustom = decoder(struct({ a: u8, b: oddWarns }));
    expect(withCustom(Uint8Array.of(1, 3))).toEqual({ a: 1, b: 3 });
    expect(() => withCustom(Uint8Array.of(1))).toThrow('expected 1 byte, 0 left');
  });
});

test('the compiler generates no code (it runs under a CSP without unsafe-eval)', () => {
  const source = readFileSync(join(__dirname, '..', 'src', 'compile.ts'), 'utf8');
  expect(source).not.toMatch(/new Function|\beval\(/);
});

test('a struct the interpreter reads at offsets, with a custom fixed-size field, spends the same work', () => {
  const custom: Codec<number> = defineCodec<number>({
    name: 'customU16',
    def: customDef('oddWarns'),
    json: t.number,
    size: 2,
    read: (r) => u16le.read(r),
    readFixed: (r, at) => r.view.getUint16(at, true),
    write: (w, v) => u16le.write(w, v),
  });
  const pair = struct({ a: u8, b: custom });
  const cases: Array<[AnyCodec, Uint8Array]> = [
    [pair, Uint8Array.of(1, 2, 0)],
    [struct({ head: pair, tail: pstring(u8, 'ascii') }), Uint8Array.of(1, 2, 0, 1, 0x41)],
    [array(pair, u8), Uint8Array.of(3, 1, 2, 0, 3, 4, 0, 5, 6, 0)],
  ];
  for (const [codec, input] of cases) {
    for (let maxWork = 1; maxWork <= 12; maxWork++) {
      const interpreted = decode(codec, input, { maxWork });
      const compiled = decode(compile(codec), input, { maxWork });
      expect(E.isLeft(compiled) ? errorFields(compiled.left) : compiled).toEqual(
        E.isLeft(interpreted) ? errorFields(interpreted.left) : interpreted,
      );
    }
  }
});

test('fixed-layout runs of every length from 1 to 13, whole or cut by a string, read and write as interpreted', () => {
  // Runs are unrolled in blocks of four and chained: each length is a different chain.
  const kinds: ReadonlyArray<Codec<number>> = [u32le, u16le, u8, f32le, i16be];
  for (let n = 1; n <= 13; n++) {
    for (const cut of [false, true]) {
      const fields: Record<string, AnyCodec> = {};
      const value: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        fields[`f${i}`] = kinds[i % kinds.length]!;
        value[`f${i}`] = i * 3 + 1;
        if (cut && i === 2) {
          // A string after the third field: two runs, of 3 and n - 3 fields.
          fields.name = pstring(u8, 'utf8');
          value.name = 'run';
        }
      }
      const codec = struct(fields);
      const compiled = compile(codec);
      const bytesOf = encode(codec, value);
      if (E.isLeft(bytesOf)) throw bytesOf.left;
      expect(encode(compiled, value)).toEqual(bytesOf);
      const decoded = decode(compiled, bytesOf.right);
      same(decode(codec, bytesOf.right), decoded);
      if (E.isRight(decoded)) expect(Object.keys(decoded.right.value as object)).toEqual(Object.keys(value));
      for (let end = 0; end < bytesOf.right.length; end++) sameDecode(codec, bytesOf.right.subarray(0, end));
      // A value with a field of the wrong kind: the same EncodeError, at the same path.
      same(encode(codec, { ...value, [`f${n - 1}`]: 'x' }), encode(compiled, { ...value, [`f${n - 1}`]: 'x' }));
    }
  }
});

test('every number type read by code, among many struct shapes, reads as interpreted into plain objects', () => {
  // Number fields are read through one shared function by type code, and records are made by a
  // constructor per struct; neither may change a value, its keys or its prototype.
  const kinds: ReadonlyArray<Codec<number>> = [
    u8,
    i8,
    u16le,
    u16be,
    i16le,
    i16be,
    u32le,
    u32be,
    i32le,
    i32be,
    f32le,
    f32be,
    f64le,
    f64be,
  ];
  const shapes = kinds.map((_, s) => {
    const fields: Record<string, AnyCodec> = {};
    for (let i = 0; i < kinds.length; i++) fields[`s${s}f${i}`] = kinds[(i + s) % kinds.length]!;
    return { shape: struct(fields), names: Object.keys(fields) };
  });
  const size = kinds.reduce((n, k) => n + (k.size ?? 0), 0);
  fc.assert(
    fc.property(fc.uint8Array({ minLength: size * 2, maxLength: size * 2 }), (input) => {
      for (const { shape, names } of shapes) {
        const codec = array(shape, 2);
        const decoded = decode(compile(codec), input);
        same(decode(codec, input), decoded);
        if (E.isRight(decoded)) {
          const first = (decoded.right.value as object[])[0]!;
          expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
          expect(Object.keys(first)).toEqual(names);
        }
      }
    }),
    { numRuns: 50 },
  );
});

test('arrays longer than a piece (8,192 elements) read whole, in order, as interpreted', () => {
  // Long arrays are read in pieces of 8,192 and joined at the end (compile.ts, PIECE): every kind
  // of count, around piece boundaries, with fixed- and variable-size elements.
  const record = struct({ a: u32le, b: u16be });
  const named = struct({ id: u8, name: pstring(u8, 'ascii') });
  for (const n of [8191, 8192, 8193, 16384, 3 * 8192 + 5]) {
    const records = new Uint8Array(n * 6).map((_, i) => (i * 131 + 7) & 0xff);
    const names = new Uint8Array(n * 3);
    for (let i = 0; i < n; i++) names.set([i & 0xff, 1, 0x41 + (i % 26)], i * 3);
    const prefix = Uint8Array.of(n & 0xff, (n >> 8) & 0xff, 0, 0);
    const cases: Array<[AnyCodec, Uint8Array]> = [
      [array(record, n), records],
      [array(record, u32le), Uint8Array.from([...prefix, ...records])],
      [array(record, 'rest'), records],
      [array(named, n), names],
      [array(named, u32le), Uint8Array.from([...prefix, ...names])],
    ];
    for (const [codec, input] of cases) {
      const compiled = decode(compile(codec), input);
      same(decode(codec, input, { compiled: false }), compiled);
      expect(E.isRight(compiled) && (compiled.right.value as unknown[]).length).toBe(n);
    }
  }
});

test('an array of more than 1,024 pieces is joined in order', () => {
  // Pieces are joined 1,024 at a time (one call's arguments), then the joined ones again.
  const n = 1024 * 8192 + 3;
  const input = new Uint8Array(n).map((_, i) => (i * 7) & 0xff);
  const value = decodeOrThrow(compile(array(u8, 'rest')), input);
  expect(value.length).toBe(n);
  let wrong = 0;
  for (let i = 0; i < n; i++) if (value[i] !== input[i]) wrong++;
  expect(wrong).toBe(0);
});

test('a fixed count of elements that take no bytes is held to maxElements compiled, as interpreted', () => {
  // Found by a differential hunt: the compiled plan read them as a run of no bytes, with no check.
  for (const codec of [array(bytes(0), 3), struct({ n: u8, list: array(array(u8, 0), 3) })] as AnyCodec[]) {
    const input = codec.minSize === 0 ? new Uint8Array(0) : Uint8Array.of(7);
    const interpreted = decode(codec, input, { maxElements: 2, compiled: false });
    for (const run of [compile(codec), codec]) {
      for (let i = 0; i < 10; i++) {
        const compiled = decode(run, input, { maxElements: 2 });
        expect(E.isLeft(compiled) && { ...compiled.left, message: compiled.left.message }).toEqual(
          E.isLeft(interpreted) && { ...interpreted.left, message: interpreted.left.message },
        );
      }
      expect(E.isLeft(interpreted) && interpreted.left.code).toBe('count-too-large');
      expect(E.isRight(decode(run, input, { maxElements: 3 }))).toBe(true);
    }
  }
});

test('a negative length read from a signed prefix is an error, not a step backwards', () => {
  // Found by the same hunt: borrow(-1) passed the bounds check and moved the reader back a byte.
  const codec = struct({ s: pstring(i8), t: u8 });
  for (const compiled of [false, true])
    for (let i = 0; i < 10; i++) {
      const result = decode(codec, Uint8Array.of(0xff, 65, 66), { compiled });
      expect(E.isLeft(result) && [result.left.code, result.left.path, result.left.offset]).toEqual([
        'out-of-range',
        ['s'],
        1,
      ]);
    }
});
