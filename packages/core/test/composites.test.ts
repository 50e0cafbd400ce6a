import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  align,
  array,
  bytes,
  cstring,
  decode,
  encode,
  f32le,
  i16le,
  lazy,
  map,
  maybe,
  nothing,
  optional,
  padding,
  sized,
  struct,
  taggedUnion,
  u16le,
  u32le,
  u8,
  type Codec,
  type TypeOf,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

describe('struct', () => {
  const header = struct({ id: u16le, level: u8, x: f32le, name: cstring('ascii') });
  type Header = TypeOf<typeof header>;
  const headers: fc.Arbitrary<Header> = fc.record({
    id: fc.integer({ min: 0, max: 65535 }),
    level: fc.integer({ min: 0, max: 255 }),
    x: fc.float().map(Math.fround),
    name: fc.string({ unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
  });

  test('obeys the laws; fields in declaration order', () => {
    checkLaws(header, headers, { equal: (a, b) => expect(encodeOk(header, a)).toEqual(encodeOk(header, b)) });
    expect(
      Object.keys(
        E.getOrElseW(() => undefined)(decode(header, encodeOk(header, { id: 1, level: 2, x: 0, name: 'a' })))?.value ??
          {},
      ),
    ).toEqual(['id', 'level', 'x', 'name']);
  });

  test('an error inside a field names the field path and offset', () => {
    const error = decodeFails(struct({ header: struct({ magic: u16le, version: u32le }) }), hexBytes('0100 0200'));
    expect(error.path).toEqual(['header', 'version']);
    expect(error.offset).toBe(2);
    expect(error.toString()).toBe('at header.version (offset 2): expected 4 bytes, 2 left');
  });

  test('writing a fixed-layout array of structs (the fast path) still names the element and field', () => {
    const rows = array(struct({ a: u8, b: u16le }), 3);
    const error = encodeFails(rows, [
      { a: 1, b: 2 },
      { a: 1, b: 70000 },
      { a: 1, b: 1 },
    ]);
    expect(error.path).toEqual([1, 'b']);
    expect(error.offset).toBe(4);
    expect(error.message).toBe('70000 is out of range for u16le (0 to 65535)');
    expect(encodeFails(rows, [{ a: 1, b: 2 }, null as never, { a: 1, b: 1 }]).path).toEqual([1]);
  });

  test('a fixed-layout struct (the fast path) still names the field that failed', () => {
    const flat = struct({ a: u32le, b: u32le, c: f32le });
    const nan = hexBytes('01000000 02000000 0100807f'); // a signalling NaN in c
    const error = decodeFails(flat, nan);
    expect(error.path).toEqual(['c']);
    expect(error.offset).toBe(8);
  });

  test('dependent fields: a count from an earlier field, a condition on a version', () => {
    const record = struct({
      version: u8,
      count: u8,
      items: (p: { count: number }) => array(u16le, p.count),
      extra: (p: { version: number }) => maybe(p.version >= 2, u32le),
    });
    const values = fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.integer({ min: 0, max: 65535 }), { maxLength: 10 }), fc.nat())
      .map(([version, items, extra]) => ({
        version,
        count: items.length,
        items,
        extra: version >= 2 ? extra % 2 ** 32 : undefined,
      }));
    checkLaws(record, values);
    const error = encodeFails(record, { version: 1, count: 3, items: [1, 2], extra: undefined });
    expect(error.path).toEqual(['items']);
    expect(error.message).toBe('expected 3 elements, got 2');
  });

  test('integer-like and __proto__ field names are refused', () => {
    expect(() => struct({ 0: u8 })).toThrow(/not allowed/);
    expect(() => struct(JSON.parse('{"__proto__": 1}'))).toThrow(/not allowed/);
  });

  test('encoding a non-object is an EncodeError', () => {
    expect(encodeFails(header, null as unknown as Header).message).toMatch(/expected an object/);
  });
});

describe('array', () => {
  test('fixed, prefixed and rest arrays obey the laws', () => {
    checkLaws(array(i16le, 3), fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 3, maxLength: 3 }));
    checkLaws(array(u8, u16le), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 30 }));
    checkLaws(array(cstring('ascii'), 'rest'), fc.array(fc.stringMatching(/^[a-z]{0,5}$/), { maxLength: 6 }));
  });

  test('errors name the element index', () => {
    const error = decodeFails(array(struct({ a: u8, name: cstring('ascii') }), 3), hexBytes('01 4100 02 4200 03 43'));
    expect(error.path).toEqual([2, 'name']);
    expect(error.offset).toBe(7);
    expect(error.toString()).toBe('at [2].name (offset 7): missing NUL terminator: 1 bytes left');
    // When the count cannot fit at all, the array says so before reading any element.
    const early = decodeFails(array(struct({ a: u8, b: u16le }), 3), hexBytes('01 0200 03 0400 05 06'));
    expect(early.message).toBe('3 elements of at least 3 bytes do not fit in the 8 bytes left');
  });

  test('a count of 2^32-1 is refused before allocating, with the count field offset', () => {
    const error = decodeFails(array(u32le, u32le), hexBytes('ffffffff 01000000'));
    expect(error.message).toBe('4294967295 elements of at least 4 bytes do not fit in the 4 bytes left');
    expect(error.offset).toBe(0);
    const empty = struct({});
    const zeroWidth = decodeFails(array(empty, u32le), hexBytes('ffffffff'));
    expect(zeroWidth.message).toMatch(/more than the limit/);
  });

  test('a rest array of elements taking no bytes is refused instead of looping', () => {
    const error = decodeFails(struct({ items: array(nothing, 'rest') }), hexBytes('01'));
    expect(error.message).toMatch(/took no bytes/);
  });
});

describe('optional, tagged unions, lazy, map', () => {
  test('optional is present while bytes are left', () => {
    const tail = struct({ a: u8, b: optional(u16le) });
    checkLaws(
      tail,
      fc.record({
        a: fc.integer({ min: 0, max: 255 }),
        b: fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }),
      }),
    );
  });

  test('optional(bytes(rest)) keeps what a window holds after its fields, and refuses a present value of no bytes', () => {
    const star = struct({ x: u8, rest: optional(bytes('rest')) });
    checkLaws(
      star,
      fc.record({
        x: fc.integer({ min: 0, max: 255 }),
        rest: fc.option(fc.uint8Array({ minLength: 1, maxLength: 6 }), { nil: undefined }),
      }),
    );
    const none = decode(star, hexBytes('07'));
    expect(E.isRight(none) && none.right.value).toEqual({ x: 7, rest: undefined });
    // Empty bytes would read back as undefined: refused where they are, with the offset they would go to.
    const empty = encodeFails(star, { x: 7, rest: new Uint8Array(0) });
    expect(empty).toMatchObject({ path: ['rest'], offset: 1 });
    expect(empty.message).toMatch(/at least one byte/);
  });

  test('taggedUnion picks the variant by tag, refuses unknown tags, or keeps them with otherwise', () => {
    const value = taggedUnion(u8, { 1: u32le, 2: cstring('ascii') });
    const values = fc.oneof(
      fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((v) => ({ tag: 1 as const, value: v })),
      fc.stringMatching(/^[a-z]{0,6}$/).map((v) => ({ tag: 2 as const, value: v })),
    );
    checkLaws(value, values as fc.Arbitrary<TypeOf<typeof value>>);
    expect(decodeFails(value, hexBytes('07')).message).toBe('unknown tag 7 (known: 1, 2)');
    const open = taggedUnion(u8, { 1: u32le }, { otherwise: bytes('rest') });
    const r = decode(open, hexBytes('09 aabb'));
    expect(E.isRight(r) && r.right.value).toEqual({ tag: 9, value: hexBytes('aabb') });
    checkLaws(
      open,
      fc.oneof(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((v) => ({ tag: 1, value: v })),
        fc
          .tuple(fc.integer({ min: 2, max: 255 }), fc.uint8Array({ maxLength: 5 }))
          .map(([tag, v]) => ({ tag, value: v })),
      ) as fc.Arbitrary<TypeOf<typeof open>>,
    );
  });

  test('lazy builds recursive types, and deep nesting fails cleanly at the depth limit', () => {
    interface Tree {
      value: number;
      children: Tree[];
    }
    const tree: Codec<Tree> = struct({ value: u8, children: lazy(() => array(tree, u8)) });
    const trees = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.record({
        value: fc.integer({ min: 0, max: 255 }),
        children: fc.oneof({ maxDepth: 4 }, fc.constant([] as Tree[]), fc.array(tie('tree'), { maxLength: 3 })),
      }),
    })).tree;
    checkLaws(tree, trees);
    // 100,000 levels: value 0, one child, …
    const deep = new Uint8Array(200_001);
    for (let i = 0; i < 100_000; i++) deep[2 * i + 1] = 1;
    const error = decodeFails(tree, deep);
    expect(error.message).toBe('nesting deeper than 512 levels');
    let nested: Tree = { value: 0, children: [] };
    for (let i = 0; i < 100_000; i++) nested = { value: 0, children: [nested] };
    const failure = encode(tree, nested);
    expect(E.isLeft(failure) && failure.left.message).toBe('nesting deeper than 512 levels');
  });

  test('map presents a stored value through a bijection; a refused value is a typed error', () => {
    const skills = ['baby', 'easy', 'medium', 'hard', 'nightmare'] as const;
    type Skill = (typeof skills)[number];
    const skill = map(u8, {
      name: 'skill',
      decode: (n): Skill => {
        if (n >= skills.length) throw new Error(`no skill ${n}`);
        return skills[n]!;
      },
      encode: (s: Skill) => skills.indexOf(s),
      is: (u): u is Skill => skills.includes(u as Skill),
    });
    checkLaws(skill, fc.constantFrom(...skills));
    const error = decodeFails(struct({ skill }), hexBytes('09'));
    expect(error.toString()).toBe('at skill (offset 0): skill: no skill 9');
  });
});

describe('padding, alignment, sized', () => {
  test('padding keeps bytes that are not the fill', () => {
    const rec = struct({ a: u8, pad: padding(3), b: u32le });
    checkLaws(
      rec,
      fc.record({
        a: fc.integer({ min: 0, max: 255 }),
        pad: fc.option(
          fc.uint8Array({ minLength: 3, maxLength: 3 }).filter((p) => p.some((b) => b !== 0)),
          { nil: undefined },
        ),
        b: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      }),
      { bytes: fc.uint8Array({ minLength: 8, maxLength: 8 }) },
    );
  });

  test('align pads to a multiple counted from the window start', () => {
    const rec = struct({ name: cstring('ascii'), pad: align(4), value: u16le });
    expect(encodeOk(rec, { name: 'ab', pad: undefined, value: 7 })).toEqual(hexBytes('61 62 00 00 0700'));
    checkLaws(
      rec,
      fc.record({
        name: fc.stringMatching(/^[a-z]{0,9}$/),
        pad: fc.constant(undefined),
        value: fc.integer({ min: 0, max: 65535 }),
      }),
    );
  });

  test('sized windows must be used whole; prefixed lengths are filled in after the body', () => {
    const body = sized(u16le, struct({ a: u8, name: cstring('ascii') }));
    checkLaws(body, fc.record({ a: fc.integer({ min: 0, max: 255 }), name: fc.stringMatching(/^[a-z]{0,9}$/) }));
    const error = decodeFails(sized(4, u16le), hexBytes('0100 0203'));
    expect(error.message).toBe('2 bytes left unread in a 4-byte field');
    expect(error.offset).toBe(2);
    expect(encodeFails(sized(4, u16le), 1).message).toBe('wrote 2 bytes into a 4-byte field');
  });
});
