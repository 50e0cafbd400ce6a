// What a plugin author met writing a Doom WAD plugin from the docs (issue 18, item 8), each as a
// regression test: empty pointer targets at the end of the arena, fields that need a later field
// (`reordered`), negative counts from the file, encode errors under pointers at file offsets,
// several magics, `nullOffset: 'none'`, and `fileFormat`.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import {
  pathAnnotation,
  arena,
  array,
  bytes,
  decode,
  encode,
  fileFormat,
  fixedString,
  i32le,
  literal,
  magic,
  pointer,
  reordered,
  struct,
  u8,
  u16le,
  type Arena,
  type Pointer,
} from '../src/index';
import { checkLaws, decodeFails, encodeFails, encodeOk, hexBytes } from './laws';

// A tiny WAD-like file: a count, an i32 offset to `count` entries { offset, size, name[2] }.
const entry = reordered(
  {
    size: u8,
    data: (e: { size: number }) => pointer(i32le, bytes(e.size), { nullOffset: 'none' }),
    name: fixedString(2, 'ascii'),
  },
  [['data', 4], 'size', 'name'],
  'entry',
);
const file = arena(
  struct({
    count: i32le,
    table: (h: { count: number }) => pointer(i32le, array(entry, h.count), { nullOffset: 'none' }),
  }),
);
type File = Arena<{ count: number; table: Pointer<Array<{ size: number; data: Pointer<Uint8Array>; name: string }>> }>;

function decoded<A>(codec: Parameters<typeof decode<A>>[0], input: Uint8Array): A {
  const result = decode(codec, input);
  if (E.isLeft(result)) throw new Error(result.left.toString());
  return result.right.value;
}

describe('empty pointer targets', () => {
  test('a zero-length target at the very end of the arena is read and written back', () => {
    const empty = hexBytes('00000000 08000000'); // no entries; the empty table at 8, the end
    const value = decoded<File>(file, empty);
    expect(value.root.table).toEqual({ at: 8, target: [] });
    expect(encodeOk(file, value)).toEqual(empty);
  });

  test('a zero-length target inside the root or under a pointer slot claims nothing', () => {
    // One entry with an empty lump at 0 (inside the root) and the table at 8.
    const bytes0 = hexBytes('01000000 08000000 00000000 00 4142');
    const value = decoded<File>(file, bytes0);
    expect(value.root.table.target[0]).toEqual({ size: 0, data: { at: 0, target: new Uint8Array(0) }, name: 'AB' });
    expect(encodeOk(file, value)).toEqual(bytes0);
  });

  test('one past the end is still outside the arena', () => {
    expect(decodeFails(file, hexBytes('00000000 09000000')).message).toBe(
      'pointer to 9 is outside the arena (8 bytes)',
    );
  });

  test('an empty target whose place is past the end of a shrunk image goes to its end, not past it', () => {
    const value: File = {
      root: { count: 1, table: { target: [{ size: 0, data: { at: 500, target: new Uint8Array(0) }, name: 'A' }] } },
      unclaimed: [],
    };
    const out = encodeOk(file, value);
    expect(out.length).toBe(8 + 7);
    expect(decoded<File>(file, out).root.table.target[0]!.data.at).toBe(out.length);
  });
});

describe('reordered: a field that needs one stored after it', () => {
  test('reads in declaration order, stores in the given order', () => {
    // The entry's bytes: offset (4), size (1), name (2); the data at 15.
    const input = hexBytes('01000000 08000000 0f000000 03 4142 616263');
    const value = decoded<File>(file, input);
    expect(value.root.table.target).toEqual([{ size: 3, data: { at: 15, target: hexBytes('616263') }, name: 'AB' }]);
    expect(Object.keys(value.root.table.target[0]!)).toEqual(['size', 'data', 'name']);
    expect(encodeOk(file, value)).toEqual(input);
  });

  test('one target object named by two entries is written once, though each entry has its own codec', () => {
    const shared = hexBytes('616263');
    const value: File = {
      root: {
        count: 2,
        table: {
          target: [
            { size: 3, data: { target: shared }, name: 'A' },
            { size: 3, data: { target: shared }, name: 'B' },
          ],
        },
      },
      unclaimed: [],
    };
    const out = encodeOk(file, value);
    expect(out.length).toBe(8 + 2 * 7 + 3);
    const [a, b] = decoded<File>(file, out).root.table.target;
    expect(a!.data.at).toBe(b!.data.at);
  });

  test('laws: read(write(a)) = a and write(read(b)) = b, with JSON', () => {
    // Fixed-size fields stored in another order than declared.
    const swapped = reordered({ a: u8, b: u16le, c: u8 }, ['c', 'b', 'a']);
    expect(swapped.size).toBe(4);
    expect(encodeOk(swapped, { a: 1, b: 0x0302, c: 4 })).toEqual(hexBytes('04 0203 01'));
    checkLaws(swapped, fc.record({ a: fc.nat(255), b: fc.nat(0xffff), c: fc.nat(255) }));
    // A length stored after the bytes it measures.
    const tail = reordered({ n: u8, data: (p: { n: number }) => bytes(p.n), tag: u8 }, ['tag', ['data', 2], 'n']);
    checkLaws(
      tail,
      fc.record({ n: fc.constant(2), data: fc.uint8Array({ minLength: 2, maxLength: 2 }), tag: fc.nat(255) }),
    );
  });

  test('errors name the field and its offset', () => {
    const short = decodeFails(reordered({ a: u8, b: u16le }, ['b', 'a']), hexBytes('0102'));
    expect([short.path, short.offset, short.message]).toEqual([['a'], 2, 'expected 1 byte, 0 left']);
    const tail = reordered({ n: u8, data: (p: { n: number }) => bytes(p.n) }, [['data', 2], 'n']);
    const wrong = decodeFails(tail, hexBytes('0102 03'));
    expect([wrong.path, wrong.offset, wrong.message]).toEqual([
      ['data'],
      0,
      'took 3 bytes, where its declaration says 2',
    ]);
  });

  test('declarations whose offsets cannot be known are refused when made', () => {
    const later = (p: { n: number }) => bytes(p.n);
    expect(() => reordered({ n: u8, data: later }, ['data', 'n'])).toThrow(/cannot be found before data is read/);
    expect(() => reordered({ a: u8, b: u8 }, ['a'] as never)).toThrow(/name each field once/);
    expect(() => reordered({ a: u8, b: u8 }, [['a', 2], 'b'])).toThrow(/given size 2, but its codec takes 1/);
  });
});

describe('counts from the file', () => {
  test('a negative count is a DecodeError, whether a dependent count or a count prefix', () => {
    const negative = decodeFails(file, hexBytes('ffffffff 08000000'));
    expect([negative.name, negative.path, negative.offset]).toEqual(['DecodeError', ['root', 'table'], 4]);
    expect(negative.message).toMatch(/^cannot choose the codec of this field: array: a count must be/);
    const prefixed = decodeFails(array(u8, i32le), hexBytes('feffffff'));
    expect([prefixed.message, prefixed.offset]).toEqual(['count -2 is not a non-negative integer', 0]);
    expect(decodeFails(bytes(i32le), hexBytes('ffffffff')).message).toBe('count -1 is not a non-negative integer');
  });

  test('on encode, a negative count is an EncodeError at the field', () => {
    const counted = struct({ n: i32le, items: (p: { n: number }) => array(u8, p.n) });
    const error = encodeFails(counted, { n: -1, items: [] });
    expect([error.name, error.path]).toEqual(['EncodeError', ['items']]);
  });
});

describe('encode errors under a pointer', () => {
  test('give the file offset of the target, not an offset inside it', () => {
    const input = hexBytes('01000000 08000000 0f000000 03 4142 616263');
    const value = decoded<File>(file, input);
    value.root.table.target[0]!.name = 'toolong';
    const error = encodeFails(file, value);
    expect([error.path, error.offset]).toEqual([['root', 'table', 'target', pathAnnotation('@8'), 0, 'name'], 8 + 5]);
  });

  test('a new target has no offset yet: the error says so', () => {
    const value: File = {
      root: { count: 1, table: { target: [{ size: 1, data: { target: hexBytes('00') }, name: 'ABC' }] } },
      unclaimed: [],
    };
    const error = encodeFails(file, value);
    expect(error.message).toMatch(/\(offset 5 in a new target, not yet placed\)$/);
  });

  test('an offset too large for its slot is an error at the slot', () => {
    const small = arena(struct({ p: pointer(u8, bytes(300)), q: pointer(u8, bytes(1)) }));
    const value = { root: { p: { target: new Uint8Array(300) }, q: { target: hexBytes('01') } }, unclaimed: [] };
    const error = encodeFails(small, value);
    expect([error.path, error.offset]).toEqual([['root', 'q'], 1]); // q's slot; its target went to 302
  });

  test('an edited offset past every byte the arena holds does not grow the image', () => {
    const input = hexBytes('01000000 08000000 0f000000 03 4142 616263');
    const value = decoded<File>(file, input);
    value.root.table.target[0]!.data.at = 2 ** 31;
    expect(encodeOk(file, value)).toEqual(input); // moved back to the end, where it was
    value.unclaimed = [{ at: 2 ** 31, bytes: hexBytes('00') }];
    expect(encodeFails(file, value).message).toMatch(/end past every byte the arena holds/);
  });
});

describe('magic, literal and nullOffset', () => {
  test('magic takes several accepted values and says which it found', () => {
    const identification = magic('IWAD', 'PWAD');
    expect(decoded(identification, hexBytes('50574144'))).toBe('PWAD');
    expect(encodeOk(identification, 'IWAD')).toEqual(hexBytes('49574144'));
    expect(decodeFails(identification, hexBytes('58574144')).message).toBe('expected "IWAD" or "PWAD", found "XWAD"');
    expect(decoded(literal(i32le, 1, 2), hexBytes('02000000'))).toBe(2);
  });

  test("nullOffset: 'none' makes every offset a target and null an error that says why", () => {
    const anywhere = arena(struct({ p: pointer(u8, u8, { nullOffset: 'none' }) }));
    expect(decoded(anywhere, hexBytes('01 07')).root.p).toEqual({ at: 1, target: 7 });
    // Offset 0 is an offset like any other (here an empty target at the start).
    const empty = arena(struct({ p: pointer(u8, bytes(0), { nullOffset: 'none' }) }));
    expect(decoded(empty, hexBytes('00')).root.p).toEqual({ at: 0, target: new Uint8Array(0) });
    const error = encodeFails(anywhere, { root: { p: null as never }, unclaimed: [] });
    expect(error.message).toBe("got null, but this pointer has no null offset (nullOffset: 'none'): give { target }");
    // The old spelling still works.
    const old = arena(struct({ p: pointer(u8, u8, { nullOffset: undefined }) }));
    expect(E.isLeft(encode(old, { root: { p: null }, unclaimed: [] }))).toBe(true);
  });
});

describe('fileFormat', () => {
  const header = struct({ identification: magic('IWAD', 'PWAD'), count: i32le });
  const format = fileFormat(header, {
    id: 'head',
    title: 'Head',
    extensions: ['.hd'],
    magic: ['IWAD', { bytes: 'PWAD', confidence: 0.5 }],
    minLength: 8,
    sniff: (input) => (input instanceof Map && input.has('x') ? 0.3 : 0),
    summary: (doc) => [`${doc.identification} × ${doc.count}`],
  });

  test('sniffs by signature (each with its confidence), then by the fallback; never throws', () => {
    expect(format.sniff(hexBytes('49574144 01000000'))).toBe(0.9);
    expect(format.sniff(hexBytes('50574144 01000000'))).toBe(0.5);
    expect(format.sniff(hexBytes('49574144'))).toBe(0); // shorter than minLength
    expect(format.sniff(new Map([['x', new Uint8Array(0)]]))).toBe(0.3);
    const throwing = fileFormat(header, {
      id: 't',
      title: 'T',
      sniff: () => {
        throw new Error('no');
      },
    });
    expect(throwing.sniff(new Uint8Array(0))).toBe(0);
  });

  test('decode, encode, JSON, field map and summary come from the codec', () => {
    const input = hexBytes('49574144 02000000');
    const doc = format.decode(input);
    expect(E.isRight(doc) && doc.right.value).toEqual({ identification: 'IWAD', count: 2 });
    expect(E.isRight(doc) && format.encode(doc.right.value)).toEqual(E.right(input));
    expect(format.json).toBe(header.json);
    expect(format.codec).toBe(header);
    expect(format.fieldMap?.(input).map((s) => s.path.join('.'))).toEqual(['identification', 'count']);
    expect(format.fieldMap?.(hexBytes('00'))).toEqual([]);
    expect(format.summary?.({ identification: 'PWAD', count: 3 })).toEqual(['PWAD × 3']);
    expect([format.id, format.title, format.extensions, format.input]).toEqual(['head', 'Head', ['.hd'], 'file']);
    const tree = format.decode(new Map());
    expect(E.isLeft(tree) && tree.left.message).toBe('Head: expected one file, got a folder');
  });

  test('every part can be replaced', () => {
    const custom = fileFormat(header, {
      id: 'c',
      title: 'C',
      input: 'both',
      decode: () => E.right({ value: { identification: 'IWAD', count: 0 }, warnings: [] }),
      encode: () => E.right(new Uint8Array(1)),
      fieldMap: () => [],
    });
    expect(custom.input).toBe('both');
    expect(custom.decode(new Map())).toEqual(E.right({ value: { identification: 'IWAD', count: 0 }, warnings: [] }));
    expect(custom.encode({ identification: 'IWAD', count: 0 })).toEqual(E.right(new Uint8Array(1)));
    expect(custom.summary).toBeUndefined();
  });
});
