// The encode suite holds encoders to "whatever encodes, decodes — to the same document": a correct
// format passes, and an encoder that throws, writes what its decoder refuses, or changes a value
// on the way is caught, with the mutated path in the report.
import * as E from 'fp-ts/lib/Either';
import {
  fileFormat,
  array,
  cstring,
  DecodeError,
  EncodeError,
  encode,
  fixedString,
  magic,
  u16le,
  u8,
  struct,
  type SaveFormat,
} from '@savekit/core';
import { jsonRecord } from '@savekit/core/kit';
import * as t from 'io-ts';
import { encodeSuite, SuiteError, type EncodeReport } from '../src/index';

const record = struct({
  magic: magic('TKIT'),
  level: u8,
  name: cstring('ascii'),
  tag: fixedString(4, 'ascii'),
  ids: array(u16le, u8),
});
type Rec = ReturnType<typeof record.read>;
const good: SaveFormat<Rec> = fileFormat(record, { id: 'encode-good', title: 'encode suite fixture', sniff: () => 1 });
const doc: Rec = { magic: 'TKIT', level: 3, name: 'hero', tag: 'SWRD', ids: [1, 2, 3, 4] };
const sample = (() => {
  const bytes = encode(record, doc);
  if (E.isLeft(bytes)) throw bytes.left;
  return bytes.right;
})();

function failureOf(run: () => unknown): SuiteError {
  try {
    run();
  } catch (error) {
    if (error instanceof SuiteError) return error;
    throw error;
  }
  throw new Error('the suite passed');
}

test('a correct format passes: refused documents are typed errors, the rest decode to the same document', () => {
  const report = encodeSuite(good, { samples: [sample], runs: 500, record: false });
  expect(report.failures).toEqual([]);
  expect(report.iterations).toBeGreaterThan(400);
  // Some mutations are refused by the JSON types (level 2^31), some by encode (a lone surrogate in
  // ASCII), and the rest encode and come back the same.
  expect(report.refusedByJson).toBeGreaterThan(0);
  expect(report.refusedByEncode).toBeGreaterThan(0);
  expect(report.encoded).toBeGreaterThan(50);
  expect(report.refusedByJson + report.refusedByEncode + report.encoded).toBe(report.iterations);
});

test('catches an encoder that throws an untyped error', () => {
  // A tag is copied into four bytes with set(): five characters overflow with a RangeError.
  const throws: SaveFormat<Rec> = {
    ...good,
    encode: (value) => {
      new Uint8Array(4).set(new TextEncoder().encode(value.tag));
      return good.encode(value);
    },
  };
  const error = failureOf(() => encodeSuite(throws, { documents: [doc], runs: 500, record: false }));
  expect(error.message).toMatch(/document 0, tag := 5 bytes: encode threw RangeError/);
});

test('catches an encoder that writes a save its decoder refuses (duplicate ids), naming the path', () => {
  // The decoder refuses duplicate ids; the encoder does not check them. A sibling's value makes one.
  const strict: SaveFormat<Rec> = {
    ...good,
    decode: (input, options) =>
      E.chain((decoded: { value: Rec }) =>
        new Set(decoded.value.ids).size === decoded.value.ids.length
          ? E.right(decoded)
          : E.left(new DecodeError(['ids'], 0, 'duplicate id')),
      )(good.decode(input, options)) as ReturnType<typeof good.decode>,
  };
  const error = failureOf(() => encodeSuite(strict, { samples: [sample], runs: 500, record: false }));
  expect(error.message).toMatch(
    /sample 0, ids\[\d\] := (a sibling's value \d|element \d duplicated): encoded into a save that does not decode: at ids \(offset 0\): duplicate id/,
  );
  // The same format with an encoder that validates passes.
  const validating: SaveFormat<Rec> = {
    ...strict,
    encode: (value) =>
      new Set(value.ids).size === value.ids.length
        ? good.encode(value)
        : E.left(new EncodeError(['ids'], 0, 'duplicate id')),
  };
  expect(encodeSuite(validating, { samples: [sample], runs: 500, record: false }).failures).toEqual([]);
});

test('catches an encoder that changes a value; `normalises` and the fixed-point check allow it', () => {
  // Names are cut to 8 characters when written: the decoded document differs, the bytes are a fixed point.
  const cuts: SaveFormat<Rec> = { ...good, encode: (value) => good.encode({ ...value, name: value.name.slice(0, 8) }) };
  const error = failureOf(() => encodeSuite(cuts, { documents: [doc], runs: 300, record: false }));
  expect(error.message).toMatch(
    /document 0, name := 256 characters: decodes to another document: at name, "a+… became "aaaaaaaa"/,
  );
  expect((error.report as EncodeReport).suite).toBe('encode');
  expect(encodeSuite(cuts, { documents: [doc], runs: 300, check: 'fixed-point', record: false }).failures).toEqual([]);
  expect(encodeSuite(cuts, { documents: [doc], runs: 300, normalises: ['name'], record: false }).failures).toEqual([]);
});

test('names of a name map are renamed too, to "", __proto__ and constructor, and must survive', () => {
  type Doc = Record<string, number>;
  const names = jsonRecord(t.number);
  // Encodes as JSON text; a decoder that parses into {} loses `__proto__` (it becomes the prototype).
  const format = (decodeInto: (text: string) => Doc): SaveFormat<Doc> => ({
    id: 'names',
    title: 'names',
    extensions: [],
    input: 'file',
    sniff: () => 1,
    decode: (input) =>
      E.right({ value: decodeInto(new TextDecoder().decode(input as Uint8Array)), warnings: [] }) as never,
    encode: (value) => E.right(new TextEncoder().encode(JSON.stringify(value))),
    json: names,
  });
  const keeps = format((text) => JSON.parse(text) as Doc);
  const loses = format((text) => Object.assign({}, JSON.parse(text) as Doc));
  const docs = [
    Object.fromEntries([
      ['a', 1],
      ['b', 2],
    ]) as Doc,
  ];
  expect(encodeSuite(keeps, { documents: docs, runs: 300, record: false }).failures).toEqual([]);
  const error = failureOf(() => encodeSuite(loses, { documents: docs, runs: 300, record: false }));
  expect(error.message).toMatch(/document 0, [ab] := name "[ab]" renamed to __proto__: decodes to another document/);
});

test('samples that do not decode, and nothing to check, are reported', () => {
  expect(() => encodeSuite(good, { samples: [Uint8Array.of(1)], record: false })).toThrow(/sample 0: does not decode/);
  expect(() => encodeSuite(good, { record: false })).toThrow(/nothing to check/);
});
