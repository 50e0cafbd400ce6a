// Names that are data (file names, ids, field names from a file) stay ordinary keys: `__proto__`,
// `constructor`, `prototype` and `hasOwnProperty` through records, their JSON form and schemas.
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either';
import { bytes, decode, encode, f32le, fromJson, toJson, u32le, type Codec } from '../src/index';
import { jsonBytes, jsonRecord, nameRecord, utf8 } from '../src/kit';
import { instanceCodec, reconcile, type Instance, type SchemaEncoding, type StructDef } from '../src/schema';

const NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'] as const;
const PROTO: string = NAMES[0];

const ownKeys = (o: object) => Object.keys(o).sort();

test('nameRecord: every name is an own key, lookups of absent names are undefined', () => {
  const record = nameRecord<number>(NAMES.map((n, i) => [n, i]));
  expect(Object.getPrototypeOf(record)).toBeNull();
  expect(ownKeys(record)).toEqual([...NAMES].sort());
  NAMES.forEach((n, i) => {
    expect(Object.hasOwn(record, n)).toBe(true);
    expect(record[n]).toBe(i);
  });
  const empty = nameRecord<number>();
  for (const n of NAMES) expect(empty[n]).toBeUndefined();
  // Assignment makes an own property too: there is no inherited `__proto__` setter.
  empty[PROTO] = 7;
  expect(Object.keys(empty)).toEqual(['__proto__']);
  expect(Object.getPrototypeOf(empty)).toBeNull();
});

describe('jsonRecord keeps every name through JSON, where t.record loses __proto__', () => {
  const files = jsonRecord(jsonBytes());
  const text = (n: string) => utf8.encode(`contents of ${n}`);
  const json = JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, Buffer.from(text(n)).toString('hex')])));

  test('the old way: t.record assigns into {} and the __proto__ entry becomes the prototype', () => {
    const old = t.record(t.string, jsonBytes()).decode(JSON.parse(json));
    if (E.isLeft(old)) throw new Error('decodes');
    expect(Object.keys(old.right)).not.toContain('__proto__');
  });

  test('decode: a null-prototype record with every name as an own key and its own contents', () => {
    const decoded = files.decode(JSON.parse(json));
    if (E.isLeft(decoded)) throw new Error('decodes');
    const record = decoded.right;
    expect(Object.getPrototypeOf(record)).toBeNull();
    expect(ownKeys(record)).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(record[n]).toEqual(text(n));
  });

  test('encode and JSON text: the same names and contents back, byte for byte', () => {
    const record = nameRecord(NAMES.map((n) => [n, text(n)]));
    const encoded = files.encode(record);
    expect(ownKeys(encoded)).toEqual([...NAMES].sort());
    expect(JSON.stringify(encoded)).toBe(json);
    const back = files.decode(JSON.parse(JSON.stringify(encoded)));
    if (E.isLeft(back)) throw new Error('decodes');
    for (const n of NAMES) expect(back.right[n]).toEqual(text(n));
    expect(files.is(record)).toBe(true);
  });

  test('refusals name the entry; non-objects are refused', () => {
    const parsedBad = files.decode(JSON.parse('{"__proto__":"zz"}'));
    if (E.isRight(parsedBad)) throw new Error('refused');
    expect(parsedBad.left[0]!.context.map((c) => c.key)).toContain('__proto__');
    for (const u of [null, 3, 'x', [], new Uint8Array(1)]) expect(E.isLeft(files.decode(u))).toBe(true);
  });

  test('inside a codec: toJson and fromJson keep the names', () => {
    const codec = { json: jsonRecord(t.string) } as unknown as Codec<Record<string, string>>;
    const record = nameRecord(NAMES.map((n) => [n, `text ${n}`]));
    const back = fromJson(codec, JSON.parse(JSON.stringify(toJson(codec, record))));
    if (E.isLeft(back)) throw back.left;
    expect(ownKeys(back.right)).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(back.right[n]).toBe(`text ${n}`);
  });
});

test('schema instances: fields a file names __proto__ or constructor are kept as own keys', () => {
  // A structure the reader knows (one field), whose file definition adds fields with hostile names.
  const def: StructDef = {
    name: 'player_t',
    marker: 'play',
    fields: [
      { name: 'health', kind: 'numeric', size: 4, count: 1 },
      ...NAMES.map((name) => ({ name, kind: 'numeric' as const, size: 2, count: 1 })),
    ],
  };
  const encoding: SchemaEncoding = {
    numeric: (size) => bytes(size),
    string: bytes(1),
    index: u32le,
    nest: (_def, body) => body,
  };
  const reconciled = reconcile(
    [def],
    [
      {
        name: 'player_t',
        marker: 'play',
        fields: [{ name: 'health', kind: 'numeric', size: 4, count: 1, codec: f32le, default: () => 0 }],
      },
    ],
    encoding,
  );
  const codec = instanceCodec('player_t', reconciled, encoding);
  const file = Uint8Array.of(0, 0, 0x80, 0x3f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  const decoded = decode(codec, file);
  if (E.isLeft(decoded)) throw decoded.left;
  const kept = decoded.right.value.$kept!;
  expect(ownKeys(kept)).toEqual([...NAMES].sort());
  expect(kept[PROTO]).toEqual(Uint8Array.of(1, 2));
  expect(kept.constructor).toEqual(Uint8Array.of(3, 4));
  const again = encode(codec, decoded.right.value);
  if (E.isLeft(again)) throw again.left;
  expect(again.right).toEqual(file);
  // Through JSON text, as `dump` and `build` do.
  const json = JSON.parse(JSON.stringify({ ...decoded.right.value, $kept: toJsonKept(kept) }));
  const back = encode(codec, { ...json, $kept: fromJsonKept(json.$kept) } as Instance);
  if (E.isLeft(back)) throw back.left;
  expect(back.right).toEqual(file);
  // A kept field missing from the document is an error, not Object.prototype's member of that name.
  const rest = Object.fromEntries(Object.entries(kept).filter(([name]) => name !== 'constructor'));
  const missing = encode(codec, { ...decoded.right.value, $kept: rest });
  expect(E.isLeft(missing)).toBe(true);
});

const keptJson = jsonRecord(jsonBytes());
const toJsonKept = (kept: Record<string, unknown>) => keptJson.encode(kept as Record<string, Uint8Array>);
function fromJsonKept(json: unknown): Record<string, Uint8Array> {
  const result = keptJson.decode(json);
  if (E.isLeft(result)) throw new Error('kept fields decode');
  return result.right;
}
