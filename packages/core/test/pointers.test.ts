import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  arena,
  array,
  lazy,
  type AnyCodec,
  cstring,
  decode,
  fromJson,
  pointer,
  struct,
  toJson,
  u16le,
  u32le,
  u8,
  type Arena,
  type Pointer,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

// A header of four u16 offsets to NUL-terminated names; offset 0 means "absent".
const names = arena(struct({ count: u8, slots: array(pointer(u16le, cstring('ascii')), 4) }));
type Names = Arena<{ count: number; slots: Array<Pointer<string> | null> }>;

describe('pointers and arenas', () => {
  test('reads targets at their offsets and writes an unchanged arena back byte for byte', () => {
    // header (9 bytes), a gap byte 0xee, then "ab\0" at 10 and "c\0" at 13; slot 2 is null, slot 3 shares "ab".
    const file = hexBytes('04 0a00 0d00 0000 0a00 ee 616200 6300');
    const decoded = decode(names, file);
    if (E.isLeft(decoded)) throw decoded.left;
    const value = decoded.right.value;
    expect(value.root.slots).toEqual([
      { at: 10, target: 'ab' },
      { at: 13, target: 'c' },
      null,
      { at: 10, target: 'ab' },
    ]);
    expect(value.unclaimed).toEqual([{ at: 9, bytes: hexBytes('ee') }]);
    expect(encodeOk(names, value)).toEqual(file);
    // Through JSON too.
    const json = JSON.parse(JSON.stringify(toJson(names, value)));
    const back = fromJson(names, json);
    if (E.isLeft(back)) throw back.left;
    expect(encodeOk(names, back.right)).toEqual(file);
  });

  test('a grown target moves to the end; nothing overlaps and offset 0 is never used', () => {
    const file = hexBytes('02 0900 0c00 0000 0000 616200 6300');
    const decoded = decode(names, file);
    if (E.isLeft(decoded)) throw decoded.left;
    const value = decoded.right.value;
    (value.root.slots[0] as Pointer<string>).target = 'abcdef';
    value.root.slots[2] = { target: 'new' };
    const out = encodeOk(names, value);
    const again = decode(names, out);
    if (E.isLeft(again)) throw again.left;
    expect(again.right.value.root.slots.map((s) => s?.target ?? null)).toEqual(['abcdef', 'c', 'new', null]);
    // "c" stays where it was; the grown and the new name go after everything else.
    expect(again.right.value.root.slots[1]?.at).toBe(12);
    expect(again.right.value.root.slots[0]?.at).toBe(14);
    expect(again.right.value.root.slots[2]?.at).toBe(21);
  });

  test('new targets in an empty arena never take a reserved offset', () => {
    const bare = arena(pointer(u16le, cstring('ascii'), { reserved: [2, 3] }));
    // root is 2 bytes, so the first free offset is 2: reserved, as is 3; the target goes to 4.
    const out = encodeOk(bare, { root: { target: 'x' }, unclaimed: [] });
    expect(out).toEqual(hexBytes('0400 0000 7800'));
  });

  test('obeys the laws for random name tables', () => {
    const slot = fc.option(fc.record({ target: fc.stringMatching(/^[a-z]{0,6}$/) }), { nil: null, freq: 3 });
    const values: fc.Arbitrary<Names> = fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.array(slot, { minLength: 4, maxLength: 4 }))
      .map(([count, slots]) => ({ root: { count, slots }, unclaimed: [] as Names['unclaimed'] }));
    // Values the writer lays out itself get offsets on decode; compare by re-encoding.
    checkLaws(names, values, {
      equal: (a, b) =>
        expect(a.root.slots.map((s) => s?.target ?? null)).toEqual(b.root.slots.map((s) => s?.target ?? null)),
    });
  });

  test('a pointer outside the arena, a cycle, a pointer outside any arena: DecodeErrors', () => {
    const outside = decodeFails(names, hexBytes('01 ff00 0000 0000 0000'));
    expect(outside.message).toBe('pointer to 255 is outside the arena (9 bytes)');
    expect(outside.path).toEqual(['root', 'slots', 0]);
    expect(outside.offset).toBe(1);
    const intoHeader = decodeFails(names, hexBytes('01 0300 0000 0000 0000'));
    expect(intoHeader.message).toBe('pointer to 3 points into the root value (which ends at 9)');
    const withField = arena(pointer(u16le, struct({ tag: u8, self: pointer(u16le, u8) })));
    // A struct whose pointer field points at its own first byte is fine, and written back exactly.
    const own = decode(withField, hexBytes('0200 07 0200'));
    expect(E.isRight(own) && encodeOk(withField, own.right.value)).toEqual(hexBytes('0200 07 0200'));
    // A target laid over another target's pointer cannot be written back: refused.
    const two = arena(
      struct({ a: pointer(u16le, struct({ tag: u8, self: pointer(u16le, u8) })), b: pointer(u16le, u16le) }),
    );
    expect(decodeFails(two, hexBytes('0400 0500 07 0800 00 09')).message).toBe(
      'the target at 5 overlaps the pointer at 5',
    );
    const fine = decode(withField, hexBytes('0200 07 0500 09'));
    expect(E.isRight(fine) && fine.right.value.root?.target).toEqual({ tag: 7, self: { at: 5, target: 9 } });
    const selfRef: AnyCodec = pointer(
      u16le,
      lazy(() => selfRef),
    );
    const loop = decodeFails(arena(selfRef), hexBytes('0200 0200'));
    expect(loop.message).toMatch(/pointer cycle/);
    expect(decodeFails(pointer(u16le, u8), hexBytes('0100')).message).toBe('a pointer must be read inside an arena');
    expect(encodeFails(pointer(u16le, u8), { target: 1 }).message).toBe('a pointer must be written inside an arena');
  });

  test('unclaimed bytes that would collide with a grown root are refused, not dropped', () => {
    const file = hexBytes('01 0000 0000 0000 0000 ee');
    const decoded = decode(names, file);
    if (E.isLeft(decoded)) throw decoded.left;
    const grown = arena(struct({ count: u8, slots: array(pointer(u16le, cstring('ascii')), 4), extra: u32le }));
    const error = encodeFails(grown, { ...decoded.right.value, root: { ...decoded.right.value.root, extra: 1 } });
    expect(error.message).toMatch(/unclaimed bytes at 9 collide/);
  });
});
