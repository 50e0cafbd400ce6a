// Named arrays and INDEX references (array-index.ts): the numbering for writing, the table for
// reading, and the `arrayIndex` field inside `withArrayIndexes` — its laws, its resolution of
// forward references, its renumbering of edited arrays and its errors with path and offset.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  array,
  arrayIndex,
  decode,
  map,
  u32le,
  DecodeError,
  decodeOrThrow,
  encode,
  EncodeError,
  orRaw,
  sized,
  refTo,
  struct,
  u16le,
  u8,
  withArrayIndexes,
  withHooks,
  type Codec,
  type IndexRef,
  type PathSegment,
} from '../src/index';
import {
  ArrayNumbering,
  ArrayTable,
  attachTarget,
  arrayIndexes,
  DecodeBudget,
  PendingRefs,
  Reader,
  ReadState,
  resolveDecodeOptions,
  Writer,
  WriteState,
} from '../src/kit';
import { checkLaws, encodeOk } from './laws';

interface Thing {
  hp: number;
  target: IndexRef | null;
}

const thing = struct({ hp: u8, target: arrayIndex('things') });
const things = withArrayIndexes(array(thing, u8), (list: Thing[]) => [['things', list]]);

/** Lists of things whose targets point at random elements of the same list (or null). */
const lists: fc.Arbitrary<Thing[]> = fc
  .array(fc.tuple(fc.nat({ max: 255 }), fc.option(fc.nat(), { nil: null })), { maxLength: 12 })
  .map((entries) => {
    const list: Thing[] = entries.map(([hp]) => ({ hp, target: null }));
    entries.forEach(([, to], i) => {
      if (to !== null) list[i]!.target = refTo('things', list[to % list.length]!, (to % list.length) + 1);
    });
    return list;
  });

const ok = <A>(result: E.Either<unknown, A>): A => {
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

describe('arrayIndex inside withArrayIndexes', () => {
  test('the laws: read(write(a)) = a, write(read(b)) = b, and the JSON round trip', () => {
    const accepted = checkLaws(things, lists);
    expect(accepted).toBeGreaterThan(0);
  });

  test('INDEX is 1 + the position, 0 is null, and a reference may point forward', () => {
    const bytes = Uint8Array.of(3, 10, 3, 0, 0, 0, 20, 0, 0, 0, 0, 30, 1, 0, 0, 0);
    const list = ok(decode(things, bytes)).value;
    expect(list[0]!.target).toEqual({ $ref: 'things', index: 3 });
    expect(list[0]!.target!.target).toBe(list[2]);
    expect(list[1]!.target).toBeNull();
    expect(list[2]!.target!.target).toBe(list[0]);
  });

  test('editing the array renumbers every reference that has its element', () => {
    const list = ok(decode(things, Uint8Array.of(3, 10, 3, 0, 0, 0, 20, 0, 0, 0, 0, 30, 1, 0, 0, 0))).value;
    list.splice(1, 1); // the third thing is now the second
    expect(Array.from(encodeOk(things, list))).toEqual([2, 10, 2, 0, 0, 0, 30, 1, 0, 0, 0]);
    // An element removed while still referred to cannot be numbered.
    const dangling = ok(decode(things, Uint8Array.of(2, 10, 2, 0, 0, 0, 20, 0, 0, 0, 0))).value;
    const gone = dangling.pop()!;
    expect(gone.hp).toBe(20);
    const error = encode(things, dangling);
    expect(E.isLeft(error) && error.left).toBeInstanceOf(EncodeError);
    expect(E.isLeft(error) && error.left.path).toEqual([0, 'target']);
    expect(E.isLeft(error) && error.left.message).toMatch(/no longer in things/);
  });

  test('decode errors name the reference by path and offset', () => {
    // The second thing's target (offset 7) is INDEX 5 of 2 elements.
    const result = decode(things, Uint8Array.of(2, 10, 0, 0, 0, 0, 20, 5, 0, 0, 0));
    expect(E.isLeft(result)).toBe(true);
    const error = (result as E.Left<DecodeError>).left;
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.path).toEqual([1, 'target']);
    expect(error.offset).toBe(7);
    expect(error.message).toMatch('INDEX 5 is past the end of things (2 elements)');
  });

  test('encode errors: another array, INDEX 0, past the end, not a reference', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ $ref: 'others', index: 1 }, /this field's INDEX is into things/],
      [{ $ref: 'things', index: 0 }, /INDEX 0 is NULL/],
      [{ $ref: 'things', index: 3 }, /INDEX 3 is past the end of things \(1 elements\)/],
      [{ $ref: 'things', index: 2 ** 32 }, /does not fit 32 bits/],
      ['mobj', /expected null or \{ \$ref, index \}/],
    ];
    for (const [target, message] of cases) {
      const result = encode(things, [{ hp: 1, target: target as IndexRef }]);
      expect(E.isLeft(result)).toBe(true);
      const error = (result as E.Left<EncodeError>).left;
      expect(error.path).toEqual([0, 'target']);
      expect(error.message).toMatch(message);
    }
  });

  test('in place (writeFixed) the same bytes as `write`, and a throw for what `write` refuses', () => {
    const index = arrayIndex('things');
    const place = (value: unknown): number[] => {
      const w = new Writer(new WriteState(8), 8);
      const at = w.ensure(4);
      index.writeFixed!(w, at, value as IndexRef | null);
      w.length = at + 4;
      return Array.from(w.written());
    };
    expect(place(null)).toEqual([0, 0, 0, 0]);
    expect(place({ $ref: 'things', index: 0x01020304 })).toEqual([4, 3, 2, 1]);
    for (const bad of [
      { $ref: 'others', index: 1 },
      { $ref: 'things', index: 0 },
      'mobj',
      { $ref: 'things', index: 2 ** 32 },
    ])
      expect(() => place(bad)).toThrow(EncodeError);
  });

  test('a reference into an array the value does not carry keeps its number', () => {
    const loose = withArrayIndexes(array(struct({ line: arrayIndex('lines') }), u8), () => []);
    const value = ok(decode(loose, Uint8Array.of(1, 9, 0, 0, 0))).value;
    expect(value).toEqual([{ line: { $ref: 'lines', index: 9 } }]);
    expect(value[0]!.line!.target).toBeUndefined();
    expect(Array.from(encodeOk(loose, value))).toEqual([1, 9, 0, 0, 0]);
  });

  test('a field of no declared array reads into the array the document names', () => {
    const free = arrayIndex(undefined);
    expect(free.name).toBe('index(?)');
    expect(Array.from(encodeOk(free, { $ref: 'anything', index: 7 }))).toEqual([7, 0, 0, 0]);
  });

  test('the stored number is read in place, and through its codec when short or of another kind', () => {
    // In place (an integer with its bytes there): the same value and position as its `read`.
    const wide = arrayIndex('things', u16le);
    const reader = new Reader(Uint8Array.of(9, 3, 0, 0), new ReadState(resolveDecodeOptions(undefined)), 1);
    expect(wide.read(reader)).toEqual({ $ref: 'things', index: 3 });
    expect(reader.pos).toBe(3);
    // Too few bytes: the stored codec's own error, with the field's path and offset.
    const short = decode(struct({ hp: u8, target: arrayIndex('things') }), Uint8Array.of(1, 2, 0));
    expect(E.isLeft(short) && [short.left.path, short.left.offset, short.left.code]).toEqual([
      ['target'],
      1,
      'short-read',
    ]);
    // A stored codec that is not an integer is read by its `read` (whose errors and work are its own).
    const odd = map(u32le, { name: 'odd', decode: (n) => n, encode: (n: number) => n });
    expect(decodeOrThrow(arrayIndex('things', odd), Uint8Array.of(4, 0, 0, 0))).toEqual({ $ref: 'things', index: 4 });
  });

  test('reference resolution is charged as work: a unit per reference', () => {
    const bytes = encodeOk(
      things,
      Array.from({ length: 50 }, (_, i) => ({ hp: i, target: null })),
    );
    const refs = Uint8Array.from(bytes);
    for (let i = 0; i < 50; i++) refs[1 + i * 5 + 1] = 1; // every target → the first thing
    const tight = decode(things, refs, { maxWork: 150 });
    const roomy = decode(things, refs, { maxWork: 100_000 });
    expect(E.isRight(roomy)).toBe(true);
    // 50 elements, 100 fields, 50 references: more than 150 units.
    expect(E.isLeft(tight) && tight.left.message).toMatch(/maxWork/);
  });
});

describe('references into arrays of many elements (checks of where elements are put off)', () => {
  // 300 things, each targeting another: past the first references checked in place.
  const many = (): Thing[] => {
    const list: Thing[] = Array.from({ length: 250 }, (_, i) => ({ hp: i % 200, target: null }));
    list.forEach((thing, i) => {
      thing.target = refTo('things', list[(i * 7 + 3) % list.length]!);
    });
    return list;
  };
  const bigThings = withArrayIndexes(array(thing, u16le), (list: Thing[]) => [['things', list]]);
  const decoded = (): Thing[] => ok(decode(bigThings, encodeOk(bigThings, many()))).value;
  /** A copy of `list` whose references have no position to go by (each is found by its element). */
  const unnumbered = (list: Thing[]): Thing[] => {
    const copies: Thing[] = list.map((t) => ({ hp: t.hp, target: null }));
    list.forEach((t, i) => {
      if (t.target !== null) copies[i]!.target = refTo('things', copies[list.indexOf(t.target.target as Thing)]!);
    });
    return copies;
  };
  const fresh = (list: Thing[]): number[] => Array.from(encodeOk(bigThings, unnumbered(list)));

  test('an unchanged list writes every reference at its position', () => {
    const list = decoded();
    expect(list[200]!.target!.index).toBe(((200 * 7 + 3) % 250) + 1);
    expect(Array.from(encodeOk(bigThings, list))).toEqual(fresh(list));
  });

  test('two elements swapped far into the list: the references to them follow', () => {
    const list = decoded();
    [list[150], list[230]] = [list[230]!, list[150]!];
    const written = Array.from(encodeOk(bigThings, list));
    expect(written).toEqual(fresh(list));
    // The element now at 150 is referred to by number 151.
    const back = ok(decode(bigThings, Uint8Array.from(written))).value;
    expect(back[150]!.hp).toBe(list[150]!.hp);
  });

  test("an element removed while referred to: the error is the reference's, before a later one", () => {
    const list = decoded();
    const referrer = list.findIndex((t, i) => i > 100 && t.target!.index > 120 && t.target!.index < 240);
    const gone = list[referrer]!.target!.target as Thing;
    list.splice(list.indexOf(gone), 1);
    list[list.length - 1]!.hp = 300; // a later field that does not fit
    const result = encode(bigThings, list);
    expect(E.isLeft(result)).toBe(true);
    const error = (result as E.Left<EncodeError>).left;
    const at = list.findIndex((t) => t.target?.target === gone);
    expect(error.path).toEqual([at, 'target']);
    expect(error.message).toMatch(/no longer in things/);
  });

  test('the array numbered again inside the value: each reference by the numbering it is written under', () => {
    const twice = withArrayIndexes(
      struct({
        a: array(thing, u16le),
        b: withArrayIndexes(array(thing, u16le), (inner: Thing[]) => [['things', inner]]),
      }),
      (outer: { a: Thing[]; b: Thing[] }) => [['things', outer.a]],
    );
    const a = decoded();
    const b = decoded();
    const expected = [...fresh(a), ...fresh(b)];
    expect(Array.from(encodeOk(twice, { a, b }))).toEqual(expected);
    // b numbered as a reversed list: its references follow it, a's keep a's numbering.
    const reversed = unnumbered(b).reverse();
    expect(Array.from(encodeOk(twice, { a, b: reversed }))).toEqual([...fresh(a), ...fresh(reversed)]);
  });
});

describe('ArrayNumbering and ArrayTable', () => {
  test('INDEX is 1 + the position in the named array, 0 for null; arrays are allocated before use', () => {
    const m1 = { name: 'imp' };
    const m2 = { name: 'zombie' };
    const numbering = new ArrayNumbering<{ name: string }>({ mobjs: [m1, m2], players: [] });
    expect(numbering.indexOf('mobjs', m2)).toBe(2);
    expect(numbering.indexOf('mobjs', null)).toBe(0);
    expect(numbering.count('mobjs')).toBe(2);
    expect(numbering.has('players')).toBe(true);
    expect(numbering.positionOf('players', m1)).toBeUndefined();
    expect(() => numbering.indexOf('players', m1)).toThrow(/not an element of players/);
    expect(() => numbering.indexOf('lines', m1)).toThrow(/no array named "lines"/);
    // An element in an array twice is numbered by its first position; renumbering replaces.
    numbering.set('mobjs', [m2, m1, m2]);
    expect(numbering.indexOf('mobjs', m2)).toBe(1);
    expect(numbering.count('mobjs')).toBe(3);
    // A hint (the index a reference was read with) never overrides the first position.
    expect(numbering.positionOf('mobjs', m2, 3)).toBe(1);
    expect(numbering.positionOf('mobjs', m1, 2)).toBe(2);
    numbering.set('mobjs', [m1, m2]);
    expect(numbering.positionOf('mobjs', m2, 2)).toBe(2);
    expect(numbering.positionOf('mobjs', m2, 1)).toBe(2); // a stale hint: the element's position
    expect(numbering.positionOf('mobjs', m2, 7)).toBe(2);
    expect(numbering.positionOf('mobjs', { name: 'gone' }, 1)).toBeUndefined();

    const table = new ArrayTable<{ name: string }>();
    const mobjs = table.allocate('mobjs', 3, () => ({ name: '' }));
    expect(table.resolve('mobjs', 2, ['mobj', 'target'])).toBe(mobjs[1]);
    expect(table.resolve('mobjs', 0)).toBeNull();
    expect(() => table.resolve('mobjs', 4, ['mobjs', 0, 'target'], 40)).toThrow('INDEX 4 is outside mobjs (1 to 3)');
    expect(() => table.resolve('sectors', 1)).toThrow(/unknown array "sectors"/);
    expect(() => table.allocate('huge', 2 ** 32 - 1, () => ({ name: '' }))).toThrow(/cannot have 4294967295 elements/);
    expect(() => table.allocate('mobjs', 1, () => ({ name: '' }))).toThrow(/defined twice/);
    table.set('players', [m1]);
    expect(table.resolve('players', 1)).toBe(m1);
  });
});

test('a reference is a plain object whose target is not enumerable, however it was made', () => {
  const element = { hp: 1 };
  const made = refTo('things', element, 1);
  const literal: IndexRef = { $ref: 'things', index: 1 };
  attachTarget(literal, element);
  for (const ref of [made, literal]) {
    expect(Object.getPrototypeOf(ref)).toBe(Object.prototype);
    expect(Object.keys(ref)).toEqual(['$ref', 'index']);
    expect(JSON.stringify(ref)).toBe('{"$ref":"things","index":1}');
    expect(ref.target).toBe(element);
    // Pointed elsewhere, it stays out of the keys.
    const other = { hp: 2 };
    attachTarget(ref, other);
    expect(ref.target).toBe(other);
    expect(Object.keys(ref)).toEqual(['$ref', 'index']);
  }
  // A decoded reference has its target once its array is read.
  const [first, second] = decodeOrThrow(things, Uint8Array.of(2, 5, 2, 0, 0, 0, 7, 0, 0, 0, 0));
  expect(first?.target?.target).toBe(second);
  expect(Object.keys(first?.target ?? {})).toEqual(['$ref', 'index']);
});

test('pending references give back each path as it was read, across rollbacks', () => {
  const segment = fc.oneof(fc.constantFrom('chunks', 'body', 'elements', 'target'), fc.nat(3));
  const step = fc.oneof(fc.record({ push: fc.array(segment, { maxLength: 6 }) }), fc.record({ truncate: fc.nat(8) }));
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const pending = new PendingRefs();
      const expected: Array<{ path: PathSegment[]; offset: number }> = [];
      steps.forEach((s, i) => {
        if ('push' in s) {
          const path: PathSegment[] = [...s.push];
          pending.push({ $ref: 'things', index: i + 1 }, path, i);
          path.push('changed after'); // the path is copied, not kept
          expected.push({ path: s.push, offset: i });
        } else {
          pending.truncate(s.truncate);
          expected.length = Math.min(expected.length, s.truncate);
        }
        expect(pending.length).toBe(expected.length);
      });
      expected.forEach(({ path, offset }, i) => {
        expect(pending.pathAt(i)).toEqual(path);
        expect(pending.at(i)).toEqual({ ref: { $ref: 'things', index: offset + 1 }, path, offset });
      });
    }),
    { numRuns: 500 },
  );
});

describe('the lean first reading (ReadState.errorDetail off): references kept without their paths', () => {
  /** `decode` as it was before the lean reading: every reference's path kept from the start. */
  const detailed = <A>(codec: typeof things | typeof keptThings, bytes: Uint8Array, maxWork?: number) => {
    const options = maxWork === undefined ? undefined : { maxWork };
    const state = new ReadState(resolveDecodeOptions(options), DecodeBudget.of(options, bytes.length));
    expect(state.errorDetail).toBe(true);
    const reader = new Reader(bytes, state);
    try {
      const value = codec.read(reader) as A;
      state.settle();
      if (reader.pos < reader.end) throw reader.error('trailing-bytes', 'trailing');
      return E.right({ value, warnings: state.warnings });
    } catch (error) {
      if (error instanceof DecodeError) return E.left(error);
      throw error;
    }
  };
  // A list inside a window whose failure is forgiven: the kept bytes' warning carries the error.
  const keptThings = sized(
    u8,
    orRaw(things, { warning: { code: 'kept-raw', message: 'the things are kept as bytes' } }),
  ) as unknown as typeof things;
  const summary = (result: E.Either<DecodeError, { value: unknown; warnings: unknown }>) =>
    E.isLeft(result)
      ? { error: [result.left.path, result.left.offset, result.left.code, result.left.message] }
      : {
          value: JSON.stringify(result.right.value, (_, v) => (v instanceof Uint8Array ? Array.from(v) : v)),
          warnings: result.right.warnings,
        };

  test('decode gives what a reading that kept every path gives: values, warnings, errors, budget', () => {
    const listBytes = fc.array(fc.tuple(fc.nat({ max: 255 }), fc.nat({ max: 9 })), { maxLength: 8 }).map((entries) => {
      const out = [entries.length];
      for (const [hp, target] of entries) out.push(hp, target, 0, 0, 0);
      return Uint8Array.from(out);
    });
    fc.assert(
      fc.property(
        listBytes,
        fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
        fc.boolean(),
        (bytes, maxWork, inWindow) => {
          const codec = inWindow ? keptThings : things;
          const input = inWindow ? Uint8Array.of(bytes.length, ...bytes) : bytes;
          const options = maxWork === undefined ? undefined : { maxWork };
          expect(summary(decode(codec, input, options))).toEqual(summary(detailed(codec, input, maxWork)));
        },
      ),
      { numRuns: 600 },
    );
  });

  test('a file that decodes is read once; one refused for a reference past its array, twice', () => {
    // Reads counted as the codec's own reads (the compiled path may read a value more than once):
    // a refusal that needs a path costs two readings' worth, any other one reading's.
    let reads = 0;
    const counting = <A>(codec: Codec<A>) => withHooks(codec, { beforeRead: () => void reads++ });
    expect(E.isRight(decode(counting(things), Uint8Array.of(2, 10, 2, 0, 0, 0, 20, 1, 0, 0, 0)))).toBe(true);
    const once = reads;
    expect(once).toBeGreaterThan(0);
    reads = 0;
    const refused = decode(counting(things), Uint8Array.of(2, 10, 0, 0, 0, 0, 20, 5, 0, 0, 0));
    expect(E.isLeft(refused) && [refused.left.path, refused.left.offset]).toEqual([[1, 'target'], 7]);
    expect(reads).toBe(2 * once); // the lean reading, then the one that keeps the reference's path
    // A refusal that needs no path (too few bytes) is not read again.
    reads = 0;
    expect(E.isLeft(decode(counting(things), Uint8Array.of(1, 10, 2)))).toBe(true);
    expect(reads).toBe(once);
  });

  test('a lean reading keeps no path, and says so when an error needed one', () => {
    const state = new ReadState(resolveDecodeOptions(undefined));
    state.errorDetail = false;
    // The second thing's target (offset 7) is INDEX 5 of 2 elements.
    const reader = new Reader(Uint8Array.of(2, 10, 0, 0, 0, 0, 20, 5, 0, 0, 0), state);
    expect(() => things.read(reader)).toThrow('INDEX 5 is past the end of things (2 elements)');
    expect(state.detailMissed).toBe(true);
    expect(arrayIndexes(state.context).pending.recordsPaths).toBe(false);
    // A good list: nothing missed.
    const fine = new ReadState(resolveDecodeOptions(undefined));
    fine.errorDetail = false;
    things.read(new Reader(Uint8Array.of(2, 10, 2, 0, 0, 0, 20, 1, 0, 0, 0), fine));
    expect(fine.detailMissed).toBe(false);
  });

  test('a list without paths keeps its references and refuses to make up paths', () => {
    const pending = new PendingRefs(false);
    for (let i = 1; i <= 5; i++) pending.push({ $ref: 'things', index: i }, ['elements', i, 'target'], i * 4);
    expect(pending.length).toBe(5);
    expect(pending.refAt(3)).toEqual({ $ref: 'things', index: 4 });
    pending.truncate(2);
    expect(pending.length).toBe(2);
    expect(pending.refAt(1)).toEqual({ $ref: 'things', index: 2 });
    expect(() => pending.pathAt(0)).toThrow(/not recorded/);
    expect(() => pending.offsetAt(0)).toThrow(/not recorded/);
  });
});
