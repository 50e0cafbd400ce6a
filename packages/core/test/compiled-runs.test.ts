// The compiled path is the one that runs: for every kind of codec the compiler plans, decode() and
// encode() of the compiled codec go through its plan (counted by compile.ts, not timed), give what
// the interpreted codec gives, and only a failure hands the value back to the interpreter.
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import { PLAN_AT } from '../src/auto-compile';
import { compiledCalls } from '../src/compile';
import { compile, decode, encode, fileFormat, type AnyCodec, type Codec } from '../src/index';
import { array, literal, magic, nothing, optional, padding, struct, taggedUnion } from '../src/index';
import { bytes, cstring, fixedString, pstring } from '../src/index';
import { f32le, f64be, i16be, i64le, u16le, u32be, u32le, u8 } from '../src/index';
import { fixedMap, map, withModel } from '../src/index';
import { customDef, defineCodec, type CodecDefType } from '../src/kit';
import { errorFields } from './compiled-shim';

/** A custom codec the compiler cannot know. */
const custom: Codec<number> = defineCodec<number>({
  name: 'custom',
  def: customDef('custom'),
  json: t.number,
  read: (r) => u8.read(r),
  write: (w, v) => u8.write(w, v),
});

interface Case {
  readonly codec: AnyCodec;
  readonly value: unknown;
  /** Bytes the compiled plan must refuse (the interpreter then gives the error). */
  readonly bad: Uint8Array;
  /** The compiler writes this kind with the codec's own `write` (it has nothing faster to offer). */
  readonly ownWrite?: true;
}

const flat = struct({ a: u8, b: i16be, c: u32le, d: f32le, e: f64be, m: magic('OK') });

/**
 * One codec per kind of definition the compiler plans (see planRead/planWrite in compile.ts), each as
 * the root of what is decoded: its plan, not an enclosing struct's, must run.
 */
const CASES: Partial<Record<CodecDefType, Case>> = {
  int: { codec: u32be, value: 0xdeadbeef, bad: Uint8Array.of(1, 2) },
  float: { codec: f64be, value: -2.5, bad: Uint8Array.of(1) },
  magic: {
    codec: struct({ m: magic('SAVE'), n: u8 }),
    value: { m: 'SAVE', n: 1 },
    bad: Uint8Array.from([83, 65, 86, 69]),
  },
  literal: { codec: literal(u16le, 1, 2), value: 2, bad: Uint8Array.of(3, 0), ownWrite: true },
  string: { codec: pstring(u8, 'utf8'), value: 'Ünïcode 😀', bad: Uint8Array.of(2, 0xc3, 0x28) },
  bytes: { codec: bytes(4), value: Uint8Array.of(1, 2, 3, 4), bad: Uint8Array.of(1, 2, 3), ownWrite: true },
  // `optional` checks the bytes a present value took: the interpreter writes it.
  optional: { codec: optional(array(u32le, 2)), value: [5, 6], bad: Uint8Array.of(1, 2, 3), ownWrite: true },
  struct: { codec: flat, value: { a: 1, b: -2, c: 3, d: 0.5, e: 1e100, m: 'OK' }, bad: new Uint8Array(20) },
  array: {
    codec: array(struct({ id: u16le, name: pstring(u8, 'ascii') }), u8),
    value: [
      { id: 1, name: 'a' },
      { id: 2, name: 'bc' },
    ],
    bad: Uint8Array.of(2, 1, 0, 1, 0x61, 2, 0),
  },
  padding: {
    codec: struct({ x: u8, p: padding(3), y: u8 }),
    value: { x: 1, p: undefined, y: 2 },
    bad: Uint8Array.of(1, 0, 0),
  },
  nothing: { codec: struct({ x: u8, n: nothing }), value: { x: 9, n: undefined }, bad: new Uint8Array(0) },
};

/** Structs around what the compiler does not know: partly compiled, still through their plan. */
const MIXED: Record<string, Case> = {
  'custom field': {
    codec: struct({ a: u32le, b: custom, c: i64le }),
    value: { a: 1, b: 2, c: -3n },
    bad: Uint8Array.of(1, 0, 0, 0, 2),
  },
  'union field': {
    codec: struct({ n: u8, u: taggedUnion(u8, { 1: u32le, 2: cstring('utf8') }), s: fixedString(3, 'ascii') }),
    value: { n: 1, u: { tag: 1, value: 7 }, s: 'abc' },
    bad: Uint8Array.of(1, 3),
  },
};

const names = ['zero', 'one', 'two'];
const byName = {
  name: 'name',
  decode: (n: number) => {
    const name = names[n];
    if (name === undefined) throw new Error(`no name ${n}`);
    return name;
  },
  encode: (name: string) => {
    const n = names.indexOf(name);
    if (n < 0) throw new Error(`no number for ${name}`);
    return n;
  },
};
const MAPS: Record<string, Case> = {
  map: {
    codec: struct({ id: u32le, kind: map(u8, byName), tag: pstring(u8, 'utf8') }),
    value: { id: 7, kind: 'two', tag: 'x' },
    bad: Uint8Array.of(7, 0, 0, 0, 9, 1, 0x78),
  },
  'map of a struct': {
    codec: array(
      map(struct({ x: u16le, y: u16le }), {
        decode: ({ x, y }: { x: number; y: number }) => {
          if (x > y) throw new Error('x after y');
          return [x, y];
        },
        encode: ([x, y]: number[]) => ({ x: x!, y: y! }),
      }),
      u8,
    ),
    value: [
      [1, 2],
      [3, 3],
    ],
    bad: Uint8Array.of(1, 5, 0, 4, 0),
  },
  fixedMap: {
    codec: array(fixedMap(u8, byName), 3),
    value: ['one', 'zero', 'two'],
    bad: Uint8Array.of(1, 2, 3),
  },
  withModel: {
    codec: withModel(struct({ n: u16le, s: pstring(u8, 'ascii') }), { name: 'modelled' }),
    value: { n: 3, s: 'abc' },
    bad: Uint8Array.of(3, 0, 4, 0x61),
  },
};

/** The reference: every struct and array runs its plan unless told not to. */
const INTERPRETED = { compiled: false } as const;

function snapshot(): typeof compiledCalls {
  return { ...compiledCalls };
}

function delta(before: typeof compiledCalls): typeof compiledCalls {
  return {
    reads: compiledCalls.reads - before.reads,
    readsRedone: compiledCalls.readsRedone - before.readsRedone,
    writes: compiledCalls.writes - before.writes,
    writesRedone: compiledCalls.writesRedone - before.writesRedone,
  };
}

describe.each([...Object.entries(CASES), ...Object.entries(MIXED), ...Object.entries(MAPS)])('%s', (_kind, c) => {
  const compiled = compile(c!.codec);

  test('encode and decode run the compiled plan, once, with the interpreted results', () => {
    const before = snapshot();
    const encoded = encode(compiled, c!.value);
    expect(encoded).toEqual(encode(c!.codec, c!.value, INTERPRETED));
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encoded) as Uint8Array;
    const decoded = decode(compiled, bytesOut);
    expect(decoded).toEqual(decode(c!.codec, bytesOut, INTERPRETED));
    expect(E.isRight(decoded) && decoded.right.value).toEqual(c!.value);
    // A codec written by its own `write` counts no call of its own; a struct or array inside it may
    // run its plan (optional's array, from its second call on).
    const counted = delta(before);
    expect({ ...counted, writes: c!.ownWrite ? 0 : counted.writes }).toEqual({
      reads: 1,
      readsRedone: 0,
      writes: c!.ownWrite ? 0 : 1,
      writesRedone: 0,
    });
    expect(counted.writes).toBeLessThanOrEqual(1);
  });

  test('a value it cannot write: the plan fails and the interpreter gives its own error', () => {
    const before = snapshot();
    const result = encode(compiled, { not: 'a value' } as never);
    const expected = encode(c!.codec, { not: 'a value' } as never, INTERPRETED);
    expect(E.isLeft(result)).toBe(true);
    expect(E.isLeft(expected) && errorFields(expected.left)).toEqual(E.isLeft(result) && errorFields(result.left));
    const counted = delta(before);
    // A codec written by its own `write` counts no call; a struct or array inside it may count its own.
    if (c!.ownWrite) expect(counted.writes).toBeLessThanOrEqual(1);
    else expect(counted.writes).toBe(1);
    expect(counted.writesRedone).toBeLessThanOrEqual(counted.writes);
  });

  test('bad bytes: the plan runs, fails, and the interpreter gives its own error', () => {
    const before = snapshot();
    const result = decode(compiled, c!.bad);
    const expected = decode(c!.codec, c!.bad, INTERPRETED);
    expect(E.isLeft(result)).toBe(true);
    expect(E.isLeft(expected) && errorFields(expected.left)).toEqual(E.isLeft(result) && errorFields(result.left));
    const counted = delta(before);
    expect(counted.reads).toBe(1);
    // A pure plan hands the whole value back; a partly compiled one reads the failing field again itself.
    expect(counted.readsRedone).toBeLessThanOrEqual(1);
  });

  test('`compiled: false` decodes and encodes interpreted: the plan does not run', () => {
    const before = snapshot();
    const encoded = encode(compiled, c!.value, { compiled: false });
    expect(encoded).toEqual(encode(c!.codec, c!.value, INTERPRETED));
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encoded) as Uint8Array;
    expect(decode(compiled, bytesOut, { compiled: false })).toEqual(decode(c!.codec, bytesOut, INTERPRETED));
    const bad = decode(compiled, c!.bad, { compiled: false });
    const expected = decode(c!.codec, c!.bad, INTERPRETED);
    expect(E.isLeft(expected) && errorFields(expected.left)).toEqual(E.isLeft(bad) && errorFields(bad.left));
    expect(delta(before)).toEqual({ reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 });
  });

  test('tracing decodes interpreted: the plan does not run', () => {
    const before = snapshot();
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encode(c!.codec, c!.value, INTERPRETED)) as Uint8Array;
    expect(decode(compiled, bytesOut, { trace: true })).toEqual(decode(c!.codec, bytesOut, { trace: true }));
    expect(delta(before).reads).toBe(0);
  });
});

test('a codec the compiler does not know runs as itself, and is not counted as compiled', () => {
  const compiled = compile(custom);
  const before = snapshot();
  expect(decode(compiled, Uint8Array.of(4))).toEqual(decode(custom, Uint8Array.of(4)));
  expect(encode(compiled, 4)).toEqual(encode(custom, 4));
  expect(delta(before)).toEqual({ reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 });
});

describe('maps call their functions once per value on the compiled path', () => {
  const counted = () => {
    const calls = { decode: 0, encode: 0 };
    const codec = map(u16le, {
      decode: (n: number) => {
        calls.decode++;
        return n * 2;
      },
      encode: (v: number) => {
        calls.encode++;
        if (v % 2 !== 0) throw new Error('odd');
        return v / 2;
      },
    });
    return { calls, codec: compile(array(codec, u8)) };
  };

  test('on success: once each, as interpreted', () => {
    const { calls, codec } = counted();
    const before = snapshot();
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encode(codec, [2, 4, 6])) as Uint8Array;
    expect(calls.encode).toBe(3);
    expect(decode(codec, bytesOut)).toEqual(E.right({ value: [2, 4, 6], warnings: [] }));
    expect(calls.decode).toBe(3);
    // The array of maps is planned whole (an array of an unplanned codec would run interpreted).
    expect(delta(before)).toEqual({ reads: 1, readsRedone: 0, writes: 1, writesRedone: 0 });
  });

  test('a function that throws: the interpreted error, from the interpreted run', () => {
    const { codec } = counted();
    const result = encode(codec, [2, 3]);
    expect(E.isLeft(result) && errorFields(result.left)).toMatchObject({
      path: [1],
      message: expect.stringContaining('odd'),
    });
  });
});

test('fileFormat decodes and encodes through the compiled codec; `compiled: false` runs it interpreted', () => {
  const codec = struct({ m: magic('FF'), n: u32le, s: pstring(u8, 'utf8') });
  const format = fileFormat(codec, { id: 'ff', title: 'FF', magic: 'FF' });
  const bytesOut = Uint8Array.of(70, 70, 1, 0, 0, 0, 1, 0x61);
  let before = snapshot();
  expect(format.decode(bytesOut)).toEqual(decode(codec, bytesOut, INTERPRETED));
  expect(format.encode({ m: 'FF', n: 1, s: 'a' })).toEqual(E.right(bytesOut));
  expect(delta(before)).toEqual({ reads: 1, readsRedone: 0, writes: 1, writesRedone: 0 });
  before = snapshot();
  expect(format.decode(bytesOut, { compiled: false })).toEqual(decode(codec, bytesOut, INTERPRETED));
  expect(format.encode({ m: 'FF', n: 1, s: 'a' }, { compiled: false })).toEqual(E.right(bytesOut));
  expect(delta(before)).toEqual({ reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 });
  // The format keeps the codec it was given; compiling is cached.
  expect(format.codec).toBe(codec);
  expect(compile(codec)).toBe(compile(compile(codec)));
});

describe('structs and arrays run their plans without compile, wherever they sit', () => {
  /** A custom codec around a codec: what the compiler runs interpreted (a checksum, a switch). */
  const around = <A>(inner: Codec<A>): Codec<A> =>
    defineCodec<A>({
      name: 'around',
      def: customDef('around'),
      json: inner.json as t.Type<A, unknown, unknown>,
      read: (r) => inner.read(r),
      write: (w, v) => inner.write(w, v),
    });
  const record = () => struct({ a: u32le, b: array(u16le, u8), s: pstring(u8, 'utf8') });
  const value = { a: 7, b: [1, 2], s: 'hé' };

  /** Uses a codec enough times that it runs its plan from the next call on. */
  const warm = (codec: AnyCodec, bytesIn: Uint8Array, value: unknown) => {
    for (let i = 0; i < PLAN_AT; i++) {
      decode(codec, bytesIn);
      encode(codec, value);
    }
  };

  test('once used enough, a struct inside an interpreted codec runs its plan, once per call', () => {
    const inner = record();
    const codec = around(inner);
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encode(codec, value)) as Uint8Array;
    expect(decode(codec, bytesOut)).toEqual(decode(codec, bytesOut, INTERPRETED));
    warm(codec, bytesOut, value);
    const before = snapshot();
    expect(decode(codec, bytesOut)).toEqual(E.right({ value, warnings: [] }));
    expect(encode(codec, value)).toEqual(E.right(bytesOut));
    // The struct's plan reads its array and string too: one call counted each way, not three.
    expect(delta(before)).toEqual({ reads: 1, readsRedone: 0, writes: 1, writesRedone: 0 });
  });

  test('the first calls of a struct run interpreted: a struct made per value is not planned', () => {
    const before = snapshot();
    const codec = record();
    for (let i = 1; i < PLAN_AT; i++)
      expect(decode(codec, Uint8Array.of(7, 0, 0, 0, 0, 0))).toEqual(
        E.right({ value: { a: 7, b: [], s: '' }, warnings: [] }),
      );
    expect(delta(before)).toEqual({ reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 });
    decode(codec, Uint8Array.of(7, 0, 0, 0, 0, 0));
    expect(delta(before)).toEqual({ reads: 1, readsRedone: 0, writes: 0, writesRedone: 0 });
  });

  test('a failed plan is redone interpreted once, nested structs included, with the interpreted error', () => {
    const codec = around(struct({ head: struct({ n: u8, inner: struct({ x: u32le }) }), tail: u8 }));
    const good = Uint8Array.of(1, 2, 0, 0, 0, 3);
    warm(codec, good, { head: { n: 1, inner: { x: 2 } }, tail: 3 });
    const bad = good.subarray(0, 4);
    const before = snapshot();
    const result = decode(codec, bad);
    expect(E.isLeft(result) && errorFields(result.left)).toEqual(
      E.isLeft(result) && errorFields((decode(codec, bad, INTERPRETED) as E.Left<Error>).left),
    );
    expect(E.isLeft(result) && result.left).toMatchObject({ path: ['head', 'inner', 'x'] });
    // Counted before the reference decode above ran (which counts nothing).
    expect(delta(before)).toEqual({ reads: 1, readsRedone: 1, writes: 0, writesRedone: 0 });
  });

  test('`compiled: false` and tracing run every struct and array interpreted', () => {
    const codec = around(array(record(), u8));
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encode(codec, [value, value])) as Uint8Array;
    warm(codec, bytesOut, [value, value]);
    const before = snapshot();
    expect(decode(codec, bytesOut, INTERPRETED)).toEqual(E.right({ value: [value, value], warnings: [] }));
    expect(encode(codec, [value, value], INTERPRETED)).toEqual(E.right(bytesOut));
    expect(E.isRight(decode(codec, bytesOut, { trace: true }))).toBe(true);
    expect(delta(before)).toEqual({ reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 });
  });

  test('compile keeps working on such a codec, and counts one call, not two', () => {
    const inner = record();
    const compiled = compile(inner);
    const bytesOut = E.getOrElseW(() => fail('encode failed'))(encode(inner, value)) as Uint8Array;
    warm(inner, bytesOut, value);
    const before = snapshot();
    expect(decode(compiled, bytesOut)).toEqual(decode(inner, bytesOut));
    expect(encode(compiled, value)).toEqual(E.right(bytesOut));
    expect(delta(before)).toEqual({ reads: 2, readsRedone: 0, writes: 1, writesRedone: 0 });
    expect(compile(inner)).toBe(compiled);
  });
});

test('a frozen struct still runs its plan, through its own read', () => {
  const codec = Object.freeze(struct({ a: u32le, b: u8 }));
  const bytesIn = Uint8Array.of(1, 0, 0, 0, 2);
  for (let i = 0; i < PLAN_AT; i++)
    expect(decode(codec, bytesIn)).toEqual(E.right({ value: { a: 1, b: 2 }, warnings: [] }));
  const before = snapshot();
  expect(decode(codec, bytesIn)).toEqual(E.right({ value: { a: 1, b: 2 }, warnings: [] }));
  expect(delta(before).reads).toBe(1);
});
