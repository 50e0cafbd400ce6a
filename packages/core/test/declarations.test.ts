// The declaration combinators: rebuild, peek/lookahead, Reader.attempt, withHooks and byte order as
// a parameter. Each obeys the laws (read(write(a)) = a, write(read(b)) = b) and fails with a path and
// an offset.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  BudgetError,
  byteOrdered,
  byteOrderMark,
  bytes,
  cstring,
  decode,
  DecodeError,
  f64,
  fourcc,
  fromJson,
  lookahead,
  magic,
  peek,
  rebuild,
  struct,
  toJson,
  u16,
  u16le,
  u32,
  u32le,
  u8,
  withHooks,
  type Endian,
  type TypeOf,
} from '../src/index';
import { DecodeBudget, defineCodec, customDef } from '../src/kit';
import { Reader, ReadState } from '../src/reader';
import { resolveDecodeOptions } from '../src/options';
import { checkLaws, decodeFails, encodeFails, encodeOk } from './laws';

const ascii = fc.string({ unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 8 });

describe('rebuild', () => {
  const list = struct({
    count: rebuild(u32le, (p: { items: number[] }) => p.items.length),
    items: (p: { count: number }) => array(u16le, p.count),
  });
  type List = TypeOf<typeof list>;
  const lists: fc.Arbitrary<List> = fc
    .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 6 })
    .map((items) => ({ count: items.length, items }));

  test('obeys the laws with a count the array reads', () => {
    const accepted = checkLaws(list, lists);
    expect(accepted).toBeGreaterThan(0);
  });

  test('encode computes the field: left out, stale or wrong', () => {
    const expected = Uint8Array.of(3, 0, 0, 0, 7, 0, 8, 0, 9, 0);
    expect(encodeOk(list, { items: [7, 8, 9] } as unknown as List)).toEqual(expected);
    expect(encodeOk(list, { count: 2, items: [7, 8, 9] })).toEqual(expected);
    const decoded = decode(list, expected);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.warnings).toEqual([]);
    const edited = decoded.right.value;
    edited.items.push(10); // count still says 3
    expect(encodeOk(list, edited)).toEqual(Uint8Array.of(4, 0, 0, 0, 7, 0, 8, 0, 9, 0, 10, 0));
  });

  // A redundant field: the reader does not use it, so the file may disagree with the rest.
  const named = struct({
    length: rebuild(u8, (p: { name: string }) => p.name.length),
    name: cstring('ascii'),
  });

  test('a stored value that disagrees is a warning at the field, kept and written back unchanged', () => {
    const stored = Uint8Array.of(5, 0x41, 0x42, 0);
    const decoded = decode(named, stored);
    if (E.isLeft(decoded)) throw decoded.left;
    const { value, warnings } = decoded.right;
    expect(value).toEqual({ length: 5, name: 'AB' });
    expect(warnings).toEqual([
      {
        code: 'rebuild-mismatch',
        path: ['length'],
        offset: 0,
        message: 'stored 5, but the rest of the value gives 2; the stored value is kept',
      },
    ]);
    expect(encodeOk(named, value)).toEqual(stored); // lossless
    // Asked to rebuild: the field set to undefined.
    expect(encodeOk(named, { ...value, length: undefined } as unknown as typeof value)).toEqual(
      Uint8Array.of(2, 0x41, 0x42, 0),
    );
    // The same document object after an edit of the kept field itself: computed again.
    value.length = 9;
    expect(encodeOk(named, value)).toEqual(Uint8Array.of(2, 0x41, 0x42, 0));
  });

  test('fromJson accepts a document without the field when no later field depends on it', () => {
    const parsed = fromJson(named, { name: 'ABC' });
    if (E.isLeft(parsed)) throw new Error('fromJson failed');
    expect(encodeOk(named, parsed.right)).toEqual(Uint8Array.of(3, 0x41, 0x42, 0x43, 0));
    expect(toJson(named, { length: 3, name: 'ABC' })).toEqual({ length: 3, name: 'ABC' });
  });

  test('write(read(b)) = b also for files whose redundant field disagrees', () => {
    const values = fc.record({ length: fc.constant(0), name: ascii }).map((v) => ({ ...v, length: v.name.length }));
    const accepted = checkLaws(named, values, {
      bytes: fc.tuple(fc.integer({ min: 0, max: 255 }), ascii).map(([n, s]) => {
        return Uint8Array.from([n, ...Array.from(s, (c) => c.charCodeAt(0)), 0]);
      }),
    });
    expect(accepted).toBe(1000);
  });

  test("mismatch: 'error' fails the decode at the field", () => {
    const strict = struct({
      header: struct({
        length: rebuild(u8, (p: { name: string }) => p.name.length, { mismatch: 'error' }),
        name: cstring('ascii'),
      }),
    });
    const error = decodeFails(strict, Uint8Array.of(5, 0x41, 0x42, 0));
    expect(error.path).toEqual(['header', 'length']);
    expect(error.offset).toBe(0);
    expect(error.message).toBe('stored 5, but the rest of the value gives 2');
  });

  test('an error thrown by compute is an EncodeError at the field', () => {
    const broken = struct({
      size: rebuild(u8, (): number => {
        throw new Error('no size');
      }),
      body: u8,
    });
    const error = encodeFails(broken, { size: 0, body: 1 });
    expect(error.path).toEqual(['size']);
    expect(error.offset).toBe(0);
    expect(error.message).toBe('rebuild: no size');
    const decodeError = decodeFails(broken, Uint8Array.of(1, 1));
    expect(decodeError.path).toEqual(['size']);
    expect(decodeError.message).toBe('rebuild: no size');
  });

  test('a computed value the codec refuses is an EncodeError at the field', () => {
    const big = struct({ n: rebuild(u8, (p: { items: number[] }) => p.items.length), items: array(u8, 'rest') });
    const error = encodeFails(big, { n: 0, items: new Array<number>(300).fill(1) });
    expect(error.path).toEqual(['n']);
    expect(error.message).toMatch(/300 is out of range for u8/);
  });

  test('later rebuild fields see the earlier ones computed; the value is not changed', () => {
    const chunk = struct({
      nameLength: rebuild(u8, (p: { name: string }) => p.name.length),
      dataOffset: rebuild(u8, (p: { nameLength: number }) => 2 + p.nameLength + 1),
      name: cstring('ascii'),
      data: bytes('rest'),
    });
    const value = Object.freeze({ nameLength: 0, dataOffset: 0, name: 'AB', data: Uint8Array.of(9) });
    expect(encodeOk(chunk, value)).toEqual(Uint8Array.of(2, 5, 0x41, 0x42, 0, 9));
    expect(value.nameLength).toBe(0);
    const decoded = decode(chunk, Uint8Array.of(2, 5, 0x41, 0x42, 0, 9));
    expect(E.isRight(decoded) && decoded.right.warnings).toEqual([]);
  });

  test('kept values belong to the struct object they were read into', () => {
    const table = array(named, u8);
    const stored = Uint8Array.of(2, 5, 0x41, 0x42, 0, 1, 0x43, 0); // entry 0 disagrees, entry 1 agrees
    const decoded = decode(table, stored);
    if (E.isLeft(decoded)) throw decoded.left;
    expect(decoded.right.warnings.map((w) => [w.path, w.offset])).toEqual([[[0, 'length'], 1]]);
    const [first, second] = decoded.right.value as [{ length: number; name: string }, { length: number; name: string }];
    expect(encodeOk(table, decoded.right.value)).toEqual(stored);
    second.name = 'CDE'; // not kept: computed again
    first.name = 'XY'; // kept while the document holds the stored 5
    expect(encodeOk(table, decoded.right.value)).toEqual(Uint8Array.of(2, 5, 0x58, 0x59, 0, 3, 0x43, 0x44, 0x45, 0));
    // A copy of the struct value is a new document: computed.
    expect(
      encodeOk(
        table,
        decoded.right.value.map((e) => ({ ...e })),
      ),
    ).toEqual(Uint8Array.of(2, 2, 0x58, 0x59, 0, 3, 0x43, 0x44, 0x45, 0));
  });

  test('a failed attempt drops the checks its rebuild fields registered', () => {
    const r = new Reader(Uint8Array.of(5, 0x41, 0), new ReadState(resolveDecodeOptions({})));
    const tried = r.attempt((r) => {
      const value = named.read(r);
      throw r.error(`rejected ${value.name}`);
    });
    expect(E.isLeft(tried)).toBe(true);
    expect(r.state.deferred).toHaveLength(0);
    const value = named.read(r);
    r.state.settle();
    expect(value).toEqual({ length: 5, name: 'A' });
    expect(r.state.warnings.map((w) => w.code)).toEqual(['rebuild-mismatch']);
  });

  test('tools see what the field is', () => {
    const spec = rebuild(u32le, (p: { items: unknown[] }) => p.items.length);
    expect(spec.rebuild.codec).toBe(u32le);
    expect(spec.rebuild.mismatch).toBe('keep');
  });
});

describe('peek', () => {
  const entry = struct({ kind: peek(u8), header: bytes(3) });
  const entries = fc.uint8Array({ minLength: 3, maxLength: 3 }).map((header) => ({ kind: header[0]!, header }));

  test('obeys the laws: reads without consuming, writes nothing', () => {
    expect(checkLaws(entry, entries)).toBeGreaterThan(0);
    expect(peek(u32le).size).toBe(0);
    expect(encodeOk(peek(u32le), 7)).toEqual(new Uint8Array(0));
  });

  test('a peek past the end fails with path and offset', () => {
    const error = decodeFails(struct({ a: u8, b: peek(u16le), c: u8 }), Uint8Array.of(1, 2));
    expect(error.path).toEqual(['b']);
    expect(error.offset).toBe(1);
  });
});

describe('lookahead', () => {
  const riff = struct({ id: magic('RIFF'), size: u32le });
  const list = struct({ id: magic('LIST'), count: u16le });
  const entry = lookahead(fourcc(), { RIFF: riff, LIST: list }, { otherwise: bytes('rest') });
  type Entry = TypeOf<typeof entry>;
  const latin1 = fc.uint8Array({ minLength: 4, maxLength: 12 }).filter((b) => {
    const id = String.fromCharCode(...b.subarray(0, 4));
    return id !== 'RIFF' && id !== 'LIST';
  });
  const entries: fc.Arbitrary<Entry> = fc.oneof(
    fc.nat().map((size) => ({ tag: 'RIFF' as const, value: { id: 'RIFF' as const, size } })),
    fc
      .integer({ min: 0, max: 0xffff })
      .map((count) => ({ tag: 'LIST' as const, value: { id: 'LIST' as const, count } })),
    latin1.map((raw) => ({ tag: String.fromCharCode(...raw.subarray(0, 4)), value: raw })),
  );

  test('obeys the laws; the case reads its own marker; unknown data is kept', () => {
    expect(checkLaws(entry, entries)).toBeGreaterThan(0);
    const decoded = decode(entry, Uint8Array.of(0x4c, 0x49, 0x53, 0x54, 2, 0));
    expect(E.isRight(decoded) && decoded.right.value).toEqual({ tag: 'LIST', value: { id: 'LIST', count: 2 } });
    const other = decode(entry, Uint8Array.of(0x58, 0x59, 0x5a, 0x57, 9));
    expect(E.isRight(other) && other.right.value).toEqual({
      tag: 'XYZW',
      value: Uint8Array.of(0x58, 0x59, 0x5a, 0x57, 9),
    });
  });

  test('without otherwise an unknown selector is an error listing the known ones', () => {
    const closed = lookahead(fourcc(), { RIFF: riff, LIST: list });
    const error = decodeFails(struct({ pad: u8, entry: closed }), Uint8Array.of(0, 0x58, 0x59, 0x5a, 0x57, 9));
    expect(error.path).toEqual(['entry']);
    expect(error.offset).toBe(1);
    expect(error.message).toBe('unknown tag "XYZW" (known: RIFF, LIST)');
  });

  test('an error inside a case names the case value path and the offset', () => {
    const error = decodeFails(entry, Uint8Array.of(0x4c, 0x49, 0x53, 0x54, 2));
    expect(error.path).toEqual(['value', 'count']);
    expect(error.offset).toBe(4);
  });

  test('encode refuses a value whose bytes would decode as another case', () => {
    const loose = lookahead(fourcc(), { RIFF: struct({ id: fourcc(), size: u32le }) }, { otherwise: bytes('rest') });
    const moved = encodeFails(loose, { tag: 'RIFF', value: { id: 'LIST', size: 1 } });
    expect(moved.path).toEqual([]);
    expect(moved.offset).toBe(0);
    expect(moved.message).toMatch(/start with "LIST"/);
    const raw = encodeFails(loose, { tag: 'ABCD', value: Uint8Array.of(0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0) });
    expect(raw.message).toMatch(/start with "RIFF"/);
    const short = encodeFails(loose, { tag: 'ABCD', value: Uint8Array.of(1) });
    expect(short.message).toMatch(/do not start with a fourcc/);
  });

  test('takes at least the smallest case', () => {
    expect(entry.minSize).toBe(4);
    expect(lookahead(u8, {}, { otherwise: bytes(2) }).minSize).toBe(2);
    expect(lookahead(u32le, { 1: u8 }).minSize).toBe(4);
  });

  test('unknown data with a known marker is refused on write', () => {
    const error = encodeFails(entry, { tag: 'ABCD', value: Uint8Array.of(0x4c, 0x49, 0x53, 0x54, 0, 0) } as Entry);
    expect(error.message).toMatch(/start with "LIST": they would decode as "LIST"/);
  });

  test('numeric selectors pick numeric cases', () => {
    const record = lookahead(u8, {
      1: struct({ type: u8, n: u16le }),
      2: struct({ type: u8, text: cstring('ascii') }),
    });
    const values = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((n) => ({ tag: 1 as const, value: { type: 1, n } })),
      ascii.map((text) => ({ tag: 2 as const, value: { type: 2, text } })),
    );
    expect(checkLaws(record, values)).toBeGreaterThan(0);
  });
});

describe('Reader.attempt', () => {
  const fresh = (bytes: Uint8Array, options: { maxWork?: number } = {}) =>
    new Reader(bytes, new ReadState(resolveDecodeOptions({ trace: true }), DecodeBudget.of(options, bytes.length)));
  const KEY = Symbol('key');

  test('a failed reading puts back position, path, warnings, spans, depth, layers, context and deferred checks', () => {
    const r = fresh(Uint8Array.of(1, 2, 3));
    r.state.path.push('outer');
    r.warn('before', 'kept');
    r.state.context.set(KEY, 'old');
    const work = r.state.budget.workSpent;
    let undone = 0;
    const tried = r.attempt(
      (r) => {
        r.u8();
        r.state.path.push('inner', 3);
        r.warn('inside', 'dropped');
        r.state.spans!.push({ path: ['inner'], start: 0, end: 1, layer: 0 });
        r.descend();
        r.layerReader(new Uint8Array(1));
        r.state.context.set(KEY, 'new');
        r.state.context.set('added', 1);
        r.defer(() => {
          throw new Error('must not run');
        });
        r.work(5);
        return r.take(5);
      },
      { undo: () => undone++ },
    );
    expect(E.isLeft(tried)).toBe(true);
    if (E.isRight(tried)) return;
    expect(tried.left).toBeInstanceOf(DecodeError);
    expect(tried.left.path).toEqual(['outer', 'inner', 3]);
    expect(tried.left.offset).toBe(1);
    expect(r.pos).toBe(0);
    expect(r.state.path).toEqual(['outer']);
    expect(r.state.warnings.map((w) => w.code)).toEqual(['before']);
    expect(r.state.spans).toEqual([]);
    expect(r.state.depth).toBe(0);
    expect(r.state.layers).toBe(0);
    expect([...r.state.context]).toEqual([[KEY, 'old']]);
    expect(r.state.deferred).toEqual([]);
    expect(undone).toBe(1);
    // Work is not refunded: 1 (descend) + 5.
    expect(r.state.budget.workSpent).toBe(work + 6);
  });

  test('checkpoint and rollback without attempt; settle runs checks deferred by checks', () => {
    const r = fresh(Uint8Array.of(1));
    const checkpoint = r.state.checkpoint();
    r.state.path.push('x');
    r.warn('w', 'dropped');
    r.state.rollback(checkpoint);
    expect(r.state.path).toEqual([]);
    expect(r.state.warnings).toEqual([]);
    const order: number[] = [];
    r.defer(() => {
      order.push(1);
      r.defer(() => order.push(3));
    });
    r.defer(() => order.push(2));
    r.state.settle();
    expect(order).toEqual([1, 2, 3]);
    expect(r.state.deferred).toEqual([]);
  });

  test('a successful reading keeps everything and returns the value', () => {
    const r = fresh(Uint8Array.of(7, 8));
    const tried = r.attempt((r) => {
      r.warn('w', 'kept');
      return r.u8();
    });
    expect(tried).toEqual(E.right(7));
    expect(r.pos).toBe(1);
    expect(r.state.warnings).toHaveLength(1);
  });

  test('a reading rejected by a thrown DecodeError is rolled back like a failed one', () => {
    const r = fresh(Uint8Array.of(7, 8));
    const tried = r.attempt((r) => {
      const v = r.u8();
      if (r.remaining > 0) throw r.error('left bytes over');
      return v;
    });
    expect(E.isLeft(tried) && tried.left.message).toBe('left bytes over');
    expect(r.pos).toBe(0);
  });

  test('pointer claims made in a failed attempt are dropped', () => {
    const r = fresh(Uint8Array.of(0));
    const scope = { claims: [[0, 1]] as Array<[number, number]> };
    r.state.arenas.push(scope);
    r.attempt((r) => {
      scope.claims.push([2, 3]);
      r.state.arenas.push({ claims: [] });
      throw r.error('no');
    });
    expect(scope.claims).toEqual([[0, 1]]);
    expect(r.state.arenas).toEqual([scope]);
  });

  test('budget errors and bugs are not caught', () => {
    const r = fresh(Uint8Array.of(0), { maxWork: 10 });
    expect(() => r.attempt((r) => r.work(11))).toThrow(BudgetError);
    expect(() =>
      r.attempt(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });

  test('repeated failed attempts spend the budget: a work bomb stops', () => {
    // A codec that tries a reading of one unit of work again and again: without the budget it
    // would loop a million times; with maxWork 1,000 it stops after 1,000 units.
    let tries = 0;
    const stubborn = defineCodec<number>({
      name: 'stubborn',
      def: customDef('stubborn', { model: u16le }),
      json: u8.json,
      read(r) {
        for (let i = 0; i < 1_000_000; i++) {
          tries++;
          const tried = r.attempt((r) => {
            r.work(1);
            return u16le.read(r);
          });
          if (E.isRight(tried)) return tried.right;
        }
        return u8.read(r);
      },
      write(w, v) {
        u8.write(w, v);
      },
    });
    const result = decode(stubborn, Uint8Array.of(1), { maxWork: 1000 });
    expect(E.isLeft(result) && result.left).toBeInstanceOf(BudgetError);
    expect(tries).toBe(1001);
  });
});

describe('withHooks', () => {
  const REFS = Symbol('refs');
  // A list of names and a list of indexes into it: afterRead resolves the indexes, beforeWrite checks them.
  const doc = withHooks(struct({ names: array(cstring('ascii'), u8), refs: array(u8, u8) }), {
    beforeRead: ({ context }) => context.set(REFS, 0),
    afterRead(value, { context }) {
      for (const ref of value.refs) if (ref >= value.names.length) throw new Error(`reference ${ref} dangles`);
      context.set(REFS, value.refs.length);
    },
    beforeWrite(value, { context }) {
      for (const ref of value.refs) if (ref >= value.names.length) throw new Error(`reference ${ref} dangles`);
      context.set(REFS, value.refs.length);
    },
  });
  const docs = fc
    .array(ascii, { minLength: 1, maxLength: 4 })
    .chain((names) =>
      fc.record({ names: fc.constant(names), refs: fc.array(fc.nat({ max: names.length - 1 }), { maxLength: 4 }) }),
    );

  test('obeys the laws of the codec it wraps', () => {
    expect(checkLaws(doc, docs)).toBeGreaterThan(0);
  });

  test('hooks see the value, where it starts and the shared context', () => {
    const seen: unknown[] = [];
    const probe = withHooks(u16le, {
      beforeRead: ({ start, path, reader }) => seen.push(['beforeRead', start, path, reader.pos]),
      afterRead: (v, { start, path, reader }) => seen.push(['afterRead', v, start, path, reader.pos]),
      beforeWrite: (v, { start, path }) => seen.push(['beforeWrite', v, start, path]),
      afterWrite: (v, { start, writer }) => seen.push(['afterWrite', v, start, writer.length]),
    });
    const s = struct({ pad: u8, n: probe });
    expect(encodeOk(s, { pad: 0, n: 513 })).toEqual(Uint8Array.of(0, 1, 2));
    expect(decode(s, Uint8Array.of(0, 1, 2))).toEqual(E.right({ value: { pad: 0, n: 513 }, warnings: [] }));
    expect(seen).toEqual([
      ['beforeWrite', 513, 1, ['n']],
      ['afterWrite', 513, 1, 3],
      ['beforeRead', 1, ['n'], 1],
      ['afterRead', 513, 1, ['n'], 3],
    ]);
  });

  test('a hook that throws is a DecodeError / EncodeError at the value', () => {
    const outer = struct({ head: u8, doc });
    const error = decodeFails(outer, Uint8Array.of(9, 1, 0x41, 0, 1, 4));
    expect(error.path).toEqual(['doc']);
    expect(error.offset).toBe(1);
    expect(error.message).toBe('afterRead: reference 4 dangles');
    const encodeError = encodeFails(outer, { head: 9, doc: { names: ['A'], refs: [4] } });
    expect(encodeError.path).toEqual(['doc']);
    expect(encodeError.offset).toBe(1);
    expect(encodeError.message).toBe('beforeWrite: reference 4 dangles');
  });

  test('a DecodeError thrown by a hook keeps its own path', () => {
    const pinned = withHooks(u8, {
      afterRead: (_v, { start }) => {
        throw new DecodeError(['elsewhere', 2], start, 'pinned');
      },
    });
    const error = decodeFails(struct({ a: pinned }), Uint8Array.of(1));
    expect(error.path).toEqual(['elsewhere', 2]);
  });
});

describe('byte order as a parameter', () => {
  const header = byteOrdered((order) =>
    struct({ major: u16(order), minor: u16(order), count: u32(order), scale: f64(order) }),
  );
  const file = struct({
    order: byteOrderMark({ be: 'ZSAV', le: 'VASZ' }),
    header: (p: { order: Endian }) => header(p.order),
  });
  type File = TypeOf<typeof file>;
  const files: fc.Arbitrary<File> = fc.record({
    order: fc.constantFrom<Endian>('le', 'be'),
    header: fc.record({
      major: fc.integer({ min: 0, max: 0xffff }),
      minor: fc.integer({ min: 0, max: 0xffff }),
      count: fc.nat(),
      scale: fc.double({ noNaN: true }),
    }),
  });

  test('one declaration reads and writes both orders (laws)', () => {
    expect(checkLaws(file, files)).toBeGreaterThan(0);
    const value = { major: 1, minor: 2, count: 3, scale: 0.5 };
    expect(Array.from(encodeOk(file, { order: 'be' as const, header: value }).subarray(0, 12))).toEqual([
      0x5a, 0x53, 0x41, 0x56, 0, 1, 0, 2, 0, 0, 0, 3,
    ]);
    expect(Array.from(encodeOk(file, { order: 'le' as const, header: value }).subarray(0, 12))).toEqual([
      0x56, 0x41, 0x53, 0x5a, 1, 0, 2, 0, 3, 0, 0, 0,
    ]);
  });

  test('each order is built once and keeps its fast path', () => {
    expect(header('le')).toBe(header('le'));
    expect(header('be')).not.toBe(header('le'));
    expect(header('be').size).toBe(16);
    expect(header('be').readFixed).toBeDefined();
    expect(() => header('xx' as Endian)).toThrow(RangeError);
  });

  test('an unknown mark is a DecodeError naming both', () => {
    const error = decodeFails(file, Uint8Array.of(0x41, 0x42, 0x43, 0x44));
    expect(error.path).toEqual(['order']);
    expect(error.offset).toBe(0);
    expect(error.message).toBe(
      'expected a byte-order mark "ZSAV" (big-endian) or "VASZ" (little-endian), found "ABCD"',
    );
    expect(
      encodeFails(file, { order: 'xx' as Endian, header: { major: 0, minor: 0, count: 0, scale: 0 } }).path,
    ).toEqual(['order']);
  });

  test('a peeked magic selects the declaration of each order', () => {
    const whole = byteOrdered((order) => struct({ magic: magic(order === 'be' ? 'ZSAV' : 'VASZ'), count: u32(order) }));
    const either = lookahead(byteOrderMark({ be: 'ZSAV', le: 'VASZ' }), { be: whole('be'), le: whole('le') });
    const values = fc.oneof(
      fc.nat().map((count) => ({ tag: 'be' as const, value: { magic: 'ZSAV' as const, count } })),
      fc.nat().map((count) => ({ tag: 'le' as const, value: { magic: 'VASZ' as const, count } })),
    );
    expect(checkLaws(either, values)).toBeGreaterThan(0);
  });

  test('order helpers give the named codecs', () => {
    expect(u16('le')).toBe(u16le);
    expect(u32('le')).toBe(u32le);
    expect(u32('be').name).toBe('u32be');
  });

  test('mark definitions are checked', () => {
    expect(() => byteOrderMark({ le: 'II', be: 'II' })).toThrow(RangeError);
    expect(() => byteOrderMark({ le: 'I', be: 'MM' })).toThrow(RangeError);
  });
});
