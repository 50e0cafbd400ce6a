// toJson of a value not of its codec's shape: io-ts's encoders trust their input, so a part of another
// shape was written into the JSON form unseen (a list that was not one became `[]`, a number stood
// where a name belongs) or blamed on the root with the whole type's name. Each is now a JsonError at
// the part, naming the type expected there and what was found.
import * as t from 'io-ts';
import { array, formatPath, JsonError, pstring, struct, switchOn, toJson, u8, u16le } from '../src/index';
import { jsonArray, jsonRecord, nameRecord, type MisfitPart, type NamesMisfitPart } from '../src/kit';

/** toJson's refusal as `path: message` (a part not of its shape: code `wrong-type`; JSON cannot hold it: `invalid-value`). */
function refused(json: t.Mixed, value: unknown, code = 'wrong-type'): string {
  try {
    toJson({ json }, value as never);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonError);
    const problems = (error as JsonError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]!.code).toBe(code);
    return `${formatPath(problems[0]!.path)}: ${problems[0]!.message}`;
  }
  throw new Error('expected toJson to refuse the value');
}

test('a list that is not one, and a name record that is not one, are refused, not written empty', () => {
  const rows = t.type({ rows: jsonArray(jsonArray(t.string)) });
  expect(rows.encode({ rows: [['a']] })).toEqual({ rows: [['a']] });
  expect(refused(rows, { rows: 5 })).toBe('rows: not Array<Array<string>>: got 5');
  // The encoders refuse them too, for JSON types that call them without asking `is` first.
  expect(() => jsonArray(t.string).encode(5 as never)).toThrow('expected an array, got 5');
  const files = jsonRecord(t.number);
  expect(() => files.encode('a' as never)).toThrow('expected an object of names, got "a"');
  expect(
    refused(t.type({ files }), {
      files: nameRecord<unknown>([
        ['a.txt', 1],
        ['b.txt', 'two'],
      ]),
    }),
  ).toBe('files.b.txt: not number: got "two"');
});

test('a hole is named as one; a refinement names itself', () => {
  const list = t.type({ names: jsonArray(t.string) });
  const holey = ['a'];
  holey[2] = 'c';
  expect(refused(list, { names: holey })).toBe(
    'names[1]: not string: the array has no element at [1] (a hole: JSON has none)',
  );
  expect(refused(t.type({ count: t.Int }), { count: 1.5 })).toBe('count: not Int: got 1.5');
  expect(refused(t.type({ count: t.Int }), { count: 'one' })).toBe('count: not number: got "one"');
});

test("a union is looked into by the member its tag names, or the only one of the value's kind", () => {
  const doc = t.union([
    t.type({ kind: t.literal('disk'), entries: jsonArray(t.string) }),
    t.intersection([t.type({ kind: t.literal('save') }), t.partial({ name: t.string })]),
  ]);
  expect(refused(doc, { kind: 'disk', entries: ['a', 7] })).toBe('entries[1]: not string: got 7');
  expect(refused(doc, { kind: 'save', name: 7 })).toBe('name: not string: got 7');
  // No tag matches: the union itself is the misfit.
  expect(refused(doc, { kind: 'tape' })).toMatch(/^\(root\): not \(\{ kind: "disk"/);
  const listOrText = t.union([t.string, jsonArray(t.number)]);
  expect(refused(t.type({ value: listOrText }), { value: [1, 'x'] })).toBe('value[1]: not number: got "x"');
});

test('a struct is looked into field by field, its chosen codecs included', () => {
  const record = struct({
    kind: u8,
    name: pstring(u16le),
    values: (p: { kind: number }) => array(p.kind === 1 ? u8 : u16le, u8),
  });
  expect(toJson(record, { kind: 1, name: 'a', values: [1] })).toEqual({ kind: 1, name: 'a', values: [1] });
  expect(refused(record.json, { kind: 1, name: 5, values: [1] })).toMatch(/^name: not .*: got 5$/);
  expect(refused(record.json, { kind: 1, name: 'a', values: [1, 'x'] })).toBe('values[1]: not u8: got "x"');
});

test('a JSON type of your own is looked into through misfitPart', () => {
  // A struct among other kinds of member is the one an object was meant for; two structs and no tag
  // leave the union itself as the misfit.
  const square = struct({ side: u8 });
  const oblong = struct({ width: u8, height: u8 });
  expect(refused(t.union([t.string, square.json]), { side: 'x' })).toBe('side: not u8: got "x"');
  expect(refused(t.union([square.json, oblong.json]), { side: 'x' })).toMatch(
    /^\(root\): not \(struct \| struct\): got/,
  );
  // A switch's default JSON type is looked into through the case its caseOf picks.
  const shape = switchOn(u8, { square, oblong } as const, {
    select: (n) => (n === 1 ? 'square' : 'oblong'),
    caseOf: (v) => ('side' in v ? 'square' : 'oblong'),
  });
  expect(refused(shape.json, { width: 2, height: 'x' })).toBe('height: not u8: got "x"');
  expect(refused(shape.json, { side: 'x' })).toBe('side: not u8: got "x"');

  // The example of NamesMisfitPart's documentation.
  class Pair extends t.Type<[string, number]> implements NamesMisfitPart {
    constructor() {
      super(
        'Pair',
        (u): u is [string, number] => Array.isArray(u) && typeof u[0] === 'string' && typeof u[1] === 'number',
        (u, c) => (this.is(u) ? t.success(u) : t.failure(u, c)),
        t.identity,
      );
    }
    misfitPart(value: unknown): MisfitPart | undefined {
      if (!Array.isArray(value)) return undefined;
      if (typeof value[0] !== 'string') return { key: 0, type: t.string, value: value[0] };
      if (typeof value[1] !== 'number') return { key: 1, type: t.number, value: value[1] };
      return undefined;
    }
  }
  expect(refused(t.type({ pair: new Pair() }), { pair: ['a', 'b'] })).toBe('pair[1]: not number: got "b"');
  expect(refused(new Pair(), 5)).toBe('(root): not Pair: got 5');

  // Without a key: the value itself, seen as the member it was meant for.
  const meant = t.type({ size: t.number });
  class Either extends t.Type<unknown> implements NamesMisfitPart {
    constructor() {
      super('Either', (u): u is unknown => meant.is(u), t.success, t.identity);
    }
    misfitPart(value: unknown): MisfitPart | undefined {
      return meant.is(value) ? undefined : { type: meant, value };
    }
  }
  expect(refused(new Either(), { size: '1' })).toBe('size: not number: got "1"');
});

test("a type's name past 80 characters is cut short in the message", () => {
  const props = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field${i}`, t.number]));
  const wide = t.type(props);
  const message = refused(t.type({ part: wide }), { part: 5 });
  expect(message).toMatch(/^part: not \{ field0: number, .*…: got 5$/);
  expect(message.length).toBeLessThan(120);
});

test('what JSON cannot hold is refused where the JSON form holds it, not written as null or thrown by JSON.stringify', () => {
  const doc = t.type({ level: t.number, extra: t.unknown, tags: t.array(t.unknown) });
  const ok = { level: 1, extra: { nested: [1, 'a', null, true] }, tags: [] };
  expect(toJson({ json: doc }, ok)).toEqual(ok);
  expect(refused(doc, { ...ok, level: Number.NaN }, 'invalid-value')).toBe(
    'level: not JSON data: NaN, which JSON writes as null',
  );
  expect(refused(doc, { ...ok, extra: { deep: [1, 2, -Infinity] } }, 'invalid-value')).toBe(
    'extra.deep[2]: not JSON data: -Infinity, which JSON writes as null',
  );
  expect(refused(doc, { ...ok, extra: { count: 10n } }, 'invalid-value')).toBe(
    'extra.count: not JSON data: 10n, a bigint, which JSON cannot write',
  );
  expect(refused(doc, { ...ok, tags: ['a', undefined] }, 'invalid-value')).toBe(
    'tags[1]: not JSON data: undefined in a list, which JSON writes as null',
  );
  expect(refused(doc, { ...ok, extra: new Map() }, 'invalid-value')).toBe(
    'extra: not JSON data: a Map, which JSON would not write as it is',
  );
  expect(refused(doc, { ...ok, extra: Symbol('s') }, 'invalid-value')).toBe(
    'extra: not JSON data: a symbol, which JSON cannot write',
  );
  // An absent optional property is left out, as JSON.stringify does.
  expect(toJson({ json: t.partial({ name: t.string }) }, { name: undefined } as never)).toEqual({ name: undefined });
});

test("a value whose reading throws (a Proxy trap) is a JsonError at it, not the trap's error", () => {
  const trap = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
      ownKeys() {
        throw new Error('trap');
      },
    },
  );
  const doc = t.type({ items: t.array(t.type({ name: t.string })) });
  expect(refused(doc, { items: [{ name: 'a' }, trap] })).toBe('items[1]: not { name: string }: trap');
});
