// The laws of what a data segment holds. A value (`segmentValue`: a type byte and its payload,
// references as slots) and a C structure's segment 0 (`adataSegment`: tag, DataType, payload) are
// declarations, on which SegmentReader / SegmentWriter and writeAData / restoreAData stand; the
// laws hold over values derived from them, the structures written restore equal, and a segment cut
// anywhere is an error at its offset, which the savefile reports at the segment's document path.
import * as E from 'fp-ts/lib/Either';
import fc from 'fast-check';
import { type Codec, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  adataSegment,
  allocateAData,
  type AData,
  dataTypeOf,
  List,
  LuaInteger,
  Range,
  restoreAData,
  ScriptClass,
  SegmentError,
  SegmentReader,
  SegmentWriter,
  segmentValue,
  type SegmentFormat,
  type StoredValue,
  Vector,
  writeAData,
  zippyFile,
  type ZValue,
} from '@savekit/zippy';
import { arbitrary } from '@savekit/testkit';
import { checkLaws } from '../../core/test/laws';
import { checkCutsRefused } from './cut-law';
import { loadStructures, saveStructures } from './structures';

const FORMATS: Array<[string, SegmentFormat]> = [
  ['be, f64', { byteOrder: 'be', numberFormat: 0 }],
  ['le, f64', { byteOrder: 'le', numberFormat: 0 }],
  ['be, f32', { byteOrder: 'be', numberFormat: 1 }],
  ['le, f32', { byteOrder: 'le', numberFormat: 1 }],
];

/** A stored NaN kept as its bits, as the NaN Lua has. */
const plainNaN = (v: StoredValue): StoredValue => (v !== null && typeof v === 'object' && 'nan' in v ? Number.NaN : v);

/**
 * The laws of a declaration, as two tests: it round-trips every value derived from it (and every
 * byte string it accepts) byte for byte, and an encoding cut short is a DecodeError with a path and
 * an offset inside the bytes, its code one of `codes`. Returns the derived values.
 */
function declarationLaws<A>(codec: Codec<A>, codes: string[]): fc.Arbitrary<A> {
  const values = arbitrary(codec);
  test('round-trips every derived value, and every byte string it accepts, byte for byte', () => {
    // The core's law checks type their codecs by the core's sources, this package by its build.
    expect(checkLaws(codec as never, values as never)).toBeGreaterThan(0);
  });
  test(`a value cut short is a DecodeError with a path, an offset inside the bytes and ${codes.join(' or ')}`, () => {
    const met = [...checkCutsRefused(codec, values)];
    expect(met.length).toBeGreaterThan(0);
    expect(met.filter((code) => !codes.includes(code))).toEqual([]);
  });
  return values;
}

describe.each(FORMATS)('segmentValue(%s)', (_name, format) => {
  const codec = segmentValue(format);
  const values = declarationLaws(codec, ['short-read']);

  test('SegmentWriter and SegmentReader write and read exactly what the declaration does', () => {
    const target = {};
    fc.assert(
      // A NaN's bits are the declaration's to keep; Lua values have one NaN.
      fc.property(fc.array(values.map(plainNaN), { maxLength: 8 }), (stored) => {
        // Slot 0 is the only object: every reference is to it.
        const asValue = (v: StoredValue): ZValue =>
          v !== null && typeof v === 'object' && 'slot' in v ? { ref: target } : (v as ZValue); // no NaNBits left
        const w = new SegmentWriter({ ...format, allowPrecisionLoss: true });
        for (const v of stored) w.value(asValue(v));
        const expected = stored.map((v) =>
          encodeOrThrow(codec, v !== null && typeof v === 'object' && 'slot' in v ? { slot: 0 } : v),
        );
        expect(w.done()).toEqual(Uint8Array.from(expected.flatMap((b) => [...b])));
        const r = new SegmentReader(w.done(), () => target, format);
        expect(stored.map(() => r.value())).toEqual(stored.map(asValue));
        expect(r.atEnd).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

/** Values a structure holds without references: nil, booleans, numbers, integers, strings. */
const plainValue: fc.Arbitrary<ZValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => new LuaInteger(n)),
  fc.uint8Array({ maxLength: 12 }),
);

/** Structures whose segments refer to nothing (a Class without superclass): restorable alone. */
const structures: fc.Arbitrary<AData> = fc.oneof(
  fc.array(fc.double(), { maxLength: 6 }).map((values) => new Vector(values)),
  fc.tuple(fc.double(), fc.double(), fc.boolean(), fc.boolean()).map(([lo, hi, a, b]) => new Range(lo, hi, a, b)),
  fc.array(plainValue, { maxLength: 6 }).map((values) => List.of(values)),
  fc
    .tuple(fc.string({ maxLength: 8 }), plainValue, fc.boolean())
    .map(([name, members, bind]) => new ScriptClass(name, null, members, bind)),
);

/** A structure restored from its segment (in `format`), references refused. */
function restored(segment: Uint8Array, type: number, format: SegmentFormat): AData {
  const value = allocateAData(type);
  const reader = new SegmentReader(
    segment,
    (slot, at) => {
      throw new SegmentError(`slot ${slot}`, at);
    },
    format,
  );
  expect(restoreAData(value, reader, { value: (v) => v })).toBeUndefined();
  return value;
}

describe.each(FORMATS.slice(0, 2))('writeAData / restoreAData (%s)', (_name, format) => {
  test('what is written restores equal, and rewrites to the same bytes', () => {
    fc.assert(
      fc.property(structures, (structure) => {
        const { segment } = writeAData(structure, undefined, format);
        const back = restored(segment, dataTypeOf(structure), format);
        expect(back).toEqual(structure);
        expect(writeAData(back, undefined, format).segment).toEqual(segment);
      }),
      { numRuns: 300 },
    );
  });

  test('a segment cut anywhere after its DataType is a SegmentError at an offset inside it', () => {
    fc.assert(
      fc.property(structures, fc.nat(), (structure, cut) => {
        const { segment } = writeAData(structure, undefined, format);
        const prefix = segment.subarray(0, 8 + (cut % (segment.length - 8)));
        let caught: unknown;
        try {
          restored(prefix, dataTypeOf(structure), format);
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(SegmentError);
        expect((caught as SegmentError).offset).toBeLessThanOrEqual(prefix.length);
      }),
      { numRuns: 300 },
    );
  });
});

test('a structure cut short in a savefile is a DecodeError at its segment, with the offset in it', () => {
  const saved = saveStructures([new Vector([1, 2, 3])], { crc: false, byteOrder: 'le' });
  if (E.isLeft(saved)) throw saved.left;
  const file = decodeOrThrow(zippyFile, saved.right);
  const segment = file.objects[0]!.segments[0]!;
  const cut = { ...file, objects: [{ ...file.objects[0]!, segments: [segment.subarray(0, 20)] }] };
  const result = loadStructures(encodeOrThrow(zippyFile, cut));
  // The Vector's count (at 8) claims three numbers; twelve bytes are left.
  expect(E.isLeft(result) && [result.left.path, result.left.offset, result.left.code]).toEqual([
    ['objects', 0, 'segments', 0],
    8,
    'count-too-large',
  ]);
});

describe.each(FORMATS)('adataSegment(%s)', (_name, format) => {
  const codec = adataSegment(format);
  // A count past the end (a Vector's, a List's) is refused before its elements are read.
  declarationLaws(codec, ['short-read', 'count-too-large']);

  test('writeAData writes exactly what the declaration does', () => {
    fc.assert(
      fc.property(structures, (structure) => {
        const { segment } = writeAData(structure, undefined, { ...format, allowPrecisionLoss: true });
        expect(encodeOrThrow(codec, decodeOrThrow(codec, segment))).toEqual(segment);
      }),
      { numRuns: 200 },
    );
  });
});
