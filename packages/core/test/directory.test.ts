// directory: a table of fixed-size entries and the bodies they place, shown as one list — the laws,
// the paths and offsets of its errors, and its definition.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import * as t from 'io-ts';
import { array, bytes, decode, directory, encode, fixedMap, rebuild, struct, u16le, u8 } from '../src/index';
import { jsonBytes, layoutOf, typeNameOf } from '../src/kit';
import { checkLaws, decodeFails, encodeFails, encodeOk } from './laws';

interface File {
  kind: number;
  refs: number[];
  data: Uint8Array;
}

const entry = struct({ kind: u8, refs: u8, at: u16le, length: u16le }, 'entry');
/** One body codec per reference count, as a format memoises them. */
const bodies = new Map<number, ReturnType<typeof bodyOf>>();
const bodyOf = (refs: number) => struct({ refs: array(u16le, refs), data: bytes('rest') });
const body = (e: { refs: number }) => {
  let codec = bodies.get(e.refs);
  if (codec === undefined) {
    codec = bodyOf(e.refs);
    bodies.set(e.refs, codec);
  }
  return codec;
};
const fileJson = t.type({ kind: t.number, refs: t.array(t.number), data: jsonBytes() });

const files = (count: number) =>
  directory({
    count,
    entry,
    place: { offset: 'at', length: 'length' },
    body,
    join: (e, b): File => {
      if (e.kind === 0xff) throw new Error('kind 255 is reserved');
      return { kind: e.kind, refs: b.refs, data: b.data };
    },
    split: (f: File) => ({ entry: { kind: f.kind, refs: f.refs.length }, body: { refs: f.refs, data: f.data } }),
    json: fileJson as unknown as t.Type<File, unknown, unknown>,
    name: 'files',
  });

const archive = struct(
  {
    count: rebuild(u8, (p: { files: File[] }) => p.files.length, { mismatch: 'error' }),
    files: (p: { count: number }) => files(p.count),
  },
  'archive',
);

const fileValues: fc.Arbitrary<File> = fc.record({
  kind: fc.integer({ min: 0, max: 0xfe }),
  refs: fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 4 }),
  data: fc.uint8Array({ maxLength: 8 }),
});
const archives = fc.array(fileValues, { maxLength: 5 }).map((list) => ({ count: list.length, files: list }));

test('laws: decode(encode(v)) = v, encode(decode(b)) = b, and JSON', () => {
  expect(checkLaws(archive, archives)).toBeGreaterThan(0);
});

const two: File[] = [
  { kind: 1, refs: [0x0102], data: Uint8Array.of(9, 9) },
  { kind: 2, refs: [], data: Uint8Array.of(7) },
];
const twoBytes = Uint8Array.of(
  2,
  ...[1, 1, 0, 0, 4, 0], // entry 0: kind 1, 1 ref, body at 0, 4 bytes
  ...[2, 0, 4, 0, 1, 0], // entry 1: kind 2, no refs, body at 4, 1 byte
  ...[2, 1, 9, 9], // body 0
  7, // body 1
);

test('a bodySize hint changes no byte and no error, whatever it says', () => {
  const sized = (bodySize: (b: { refs: number[]; data: Uint8Array }) => number) =>
    directory({
      count: 3,
      entry,
      place: { offset: 'at', length: 'length' },
      body,
      join: (e, b): File => ({ kind: e.kind, refs: b.refs, data: b.data }),
      split: (f: File) => ({ entry: { kind: f.kind, refs: f.refs.length }, body: { refs: f.refs, data: f.data } }),
      json: fileJson as unknown as t.Type<File, unknown, unknown>,
      bodySize,
    });
  const list: File[] = [
    { kind: 1, refs: [7], data: Uint8Array.of(1, 2) },
    { kind: 2, refs: [], data: new Uint8Array(5000) },
    { kind: 3, refs: [1, 2], data: Uint8Array.of(3) },
  ];
  const plain = encodeOk(files(3), list);
  const hints = [
    (b: { refs: number[]; data: Uint8Array }) => 2 * b.refs.length + b.data.length, // exact
    () => 1, // too small
    () => Number.NaN,
    () => 2 ** 40, // not followed
    () => {
      throw new Error('no size');
    },
  ];
  for (const hint of hints) expect(encodeOk(sized(hint), list)).toEqual(plain);
  // An element the body refuses: the same error with a hint as without.
  const bad = [list[0]!, { kind: 2, refs: [70_000], data: new Uint8Array(0) }, list[2]!];
  const refused = encode(files(3), bad);
  expect(E.isLeft(refused)).toBe(true);
  for (const hint of hints) expect(encode(sized(hint), bad)).toEqual(refused);
});

test('entries of plain integers, read one at a time, decode as entries read all first do: values and errors', () => {
  // The same archive, its entry's kind field seen through a map (so its entries are read all first,
  // still by the array's fixed-size path: the same work charged).
  const eagerEntry = struct(
    {
      kind: fixedMap(u8, { name: 'kind', decode: (k) => k, encode: (k: number) => k }),
      refs: u8,
      at: u16le,
      length: u16le,
    },
    'entry',
  );
  const archiveOf = (e: typeof entry) =>
    struct({
      count: rebuild(u8, (p: { files: File[] }) => p.files.length, { mismatch: 'error' }),
      files: (p: { count: number }) =>
        directory({
          count: p.count,
          entry: e,
          place: { offset: 'at', length: 'length' },
          body,
          join: (en, b): File => {
            if (en.kind === 0xff) throw new Error('kind 255 is reserved');
            return { kind: en.kind, refs: b.refs, data: b.data };
          },
          split: (f: File) => ({ entry: { kind: f.kind, refs: f.refs.length }, body: { refs: f.refs, data: f.data } }),
          json: fileJson as unknown as t.Type<File, unknown, unknown>,
          name: 'files',
        }),
    });
  const lazy = archiveOf(entry);
  const eager = archiveOf(eagerEntry as unknown as typeof entry);
  const inputs = fc.oneof(
    fc.uint8Array({ maxLength: 48 }),
    archives.map((a) => encodeOk(archive, a)),
    fc
      .tuple(
        archives.map((a) => encodeOk(archive, a)),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
      )
      .map(([b, i, v]) => {
        const copy = b.slice();
        if (copy.length > 0) copy[i % copy.length] = v;
        return copy;
      }),
  );
  fc.assert(
    fc.property(inputs, fc.integer({ min: 1, max: 40 }), (bytes, maxWork) => {
      expect(decode(lazy, bytes)).toEqual(decode(eager, bytes));
      expect(decode(lazy, bytes, { maxWork })).toEqual(decode(eager, bytes, { maxWork }));
    }),
  );
});

test('the entries first, then the bodies in entry order, each placed by its entry', () => {
  expect([...encodeOk(archive, { count: 2, files: two })]).toEqual([...twoBytes]);
  const back = decode(archive, twoBytes);
  expect(E.isRight(back) && back.right.value.files).toEqual(two);
});

test('bad input: DecodeErrors at the element, with codes and file offsets', () => {
  const patched = (at: number, value: number) => twoBytes.map((b, i) => (i === at ? value : b));
  const outOfOrder = decodeFails(archive, patched(9, 5)); // entry 1's body at 5, not 4
  expect([outOfOrder.path, outOfOrder.code, outOfOrder.offset]).toEqual([['files', 1], 'bad-pointer', 1 + 6 + 2]);
  const pastEnd = decodeFails(archive, patched(11, 9)); // entry 1's body is 9 bytes long
  expect([pastEnd.path, pastEnd.code, pastEnd.offset]).toEqual([['files', 1], 'short-read', 1 + 6 + 4]);
  const shortBody = decodeFails(archive, patched(2, 3)); // entry 0 claims 3 refs: 6 bytes, in a 4-byte body
  expect([shortBody.path.slice(0, 3), shortBody.code]).toEqual([['files', 0, 'refs'], 'count-too-large']);
  const reserved = decodeFails(archive, patched(7, 0xff)); // join refuses kind 255
  expect([reserved.path, reserved.offset, reserved.message]).toEqual([['files', 1], 17, 'kind 255 is reserved']);
  const unread = directory({
    count: 1,
    entry,
    place: { offset: 'at', length: 'length' },
    body: () => u8,
    join: (e, b) => [e.kind, b],
    split: ([kind, b]: number[]) => ({ entry: { kind: kind!, refs: 0 }, body: b! }),
    json: t.array(t.number),
  });
  const leftOver = decodeFails(unread, Uint8Array.of(1, 0, 0, 0, 2, 0, 5, 6));
  expect([leftOver.path, leftOver.code, leftOver.offset]).toEqual([[0], 'size-mismatch', 7]);
  expect(decodeFails(archive, Uint8Array.of(200, 0)).code).toBe('count-too-large');
});

test('encode refusals name the element and the field of the document', () => {
  const badKind = encodeFails(archive, { count: 2, files: [two[0]!, { ...two[1]!, kind: 300 }] });
  expect([badKind.path, badKind.code]).toEqual([['files', 1, 'kind'], 'out-of-range']);
  const badRef = encodeFails(archive, { count: 2, files: [{ ...two[0]!, refs: [1, -1] }, two[1]!] });
  expect(badRef.path).toEqual(['files', 0, 'refs', 1]);
  expect(encodeFails(files(1), two).code).toBe('size-mismatch');
  const notAList = encode(files(0), 'x' as unknown as File[]);
  expect(E.isLeft(notAList) && notAList.left.code).toBe('wrong-type');
  const badSplit = encode(files(1), [null as unknown as File]);
  expect(E.isLeft(badSplit) && badSplit.left.path).toEqual([0]);
});

test('its definition, type name and layout rows', () => {
  const codec = files(3);
  expect(codec.def.type).toBe('directory');
  expect(codec.def.type === 'directory' && [codec.def.count, codec.def.entry, codec.def.place]).toEqual([
    3,
    entry,
    { offset: 'at', length: 'length' },
  ]);
  expect(typeNameOf(codec)).toBe('directory(entry[3] + bodies)');
  expect(layoutOf(codec).map((row) => [row.path, row.offset, row.size])).toEqual([
    ['[].kind', 0, 1],
    ['[].refs', 1, 1],
    ['[].at', 2, 2],
    ['[].length', 4, 2],
    ['[].body', undefined, undefined],
  ]);
  const variable = struct({ name: bytes(u8), at: u8, length: u8 });
  expect(() =>
    directory({
      count: 1,
      entry: variable,
      place: { offset: 'at', length: 'length' },
      body: () => u8,
      join: (_e, b) => b,
      split: (b: number) => ({ entry: { name: new Uint8Array() }, body: b }),
      json: t.number,
    }),
  ).toThrow(/no fixed size/);
});
