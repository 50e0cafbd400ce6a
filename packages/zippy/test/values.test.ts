// Values in data segments: SegmentWriter and SegmentReader (on the core's Writer and Reader) agree,
// and what the reader refuses is a SegmentError with the offset in the segment and an error code.
import { BytesTable } from '@savekit/core/kit';
import { LuaInteger, PrecisionError, SegmentError, SegmentReader, SegmentWriter, type ZValue } from '@savekit/zippy';

const target = {};
const values: ZValue[] = [
  null,
  false,
  true,
  -0,
  1.5,
  Number.POSITIVE_INFINITY,
  new LuaInteger(-(2n ** 63n)),
  Uint8Array.of(0x41, 0, 0xff),
  { ref: target },
];

const reader = (bytes: Uint8Array) =>
  new SegmentReader(bytes, (slot, at) => {
    if (slot !== 0) throw new SegmentError(`slot ${slot}`, at);
    return target;
  });

test('what the writer writes, the reader reads', () => {
  const w = new SegmentWriter();
  for (const v of values) w.value(v);
  const r = reader(w.done());
  expect(values.map(() => r.value())).toEqual(values);
  expect(r.atEnd).toBe(true);
});

test('a NaN with a payload is read as NaN (the writer writes the quiet one)', () => {
  const bytes = Uint8Array.of(0x03, 0x7f, 0xf0, 0, 0, 0, 0, 0, 1);
  expect(reader(bytes).value()).toBeNaN();
});

test('refusals: SegmentErrors with the offset in the segment and a code', () => {
  const fails = (bytes: number[]) => {
    try {
      reader(Uint8Array.from(bytes)).value();
    } catch (error) {
      if (error instanceof SegmentError) return [error.offset, error.code];
      throw error;
    }
    throw new Error('read without an error');
  };
  expect(fails([0x03, 0, 0])).toEqual([1, 'short-read']); // a number cut short
  expect(fails([0x04, 0xff, 0xff, 0xff, 0xff, 0x41])).toEqual([1, 'short-read']); // a string claiming 4 GiB: its length runs past the end
  expect(fails([0x09])).toEqual([0, 'unknown-tag']);
  expect(fails([0x05, 0, 0, 0, 2])).toEqual([1, 'invalid-value']); // slot 2 does not exist
});

test('each byte order and number format: what the writer writes, the reader reads; the bytes are in that order', () => {
  for (const byteOrder of ['be', 'le'] as const)
    for (const numberFormat of [0, 1]) {
      const format = { byteOrder, numberFormat };
      const w = new SegmentWriter(format);
      w.u32(0x4c554100);
      for (const v of values) w.value(v);
      const bytes = w.done();
      expect([...bytes.subarray(0, 4)]).toEqual(
        byteOrder === 'be' ? [0x4c, 0x55, 0x41, 0x00] : [0x00, 0x41, 0x55, 0x4c],
      );
      const r = new SegmentReader(bytes, () => target, format);
      expect(r.u32()).toBe(0x4c554100);
      expect(values.map(() => r.value())).toEqual(values);
      expect(r.atEnd).toBe(true);
      // Three numbers among the values (−0, 1.5, ∞): 8 bytes each, or 4.
      const wide = new SegmentWriter({ byteOrder });
      for (const v of values) wide.value(v);
      expect(wide.done().length - (bytes.length - 4)).toBe(numberFormat === 1 ? 12 : 0);
    }
});

test('number format 1: a number a float would change is a PrecisionError at its offset, unless allowed', () => {
  const w = new SegmentWriter({ numberFormat: 1 });
  w.u8(0);
  expect(() => w.f64(0.1)).toThrow(PrecisionError);
  let caught: unknown;
  try {
    w.f64(1 / 3);
  } catch (error) {
    caught = error;
  }
  expect(caught instanceof PrecisionError && [caught.offset, caught.value]).toEqual([1, 1 / 3]);
  const lossy = new SegmentWriter({ numberFormat: 1, allowPrecisionLoss: true });
  lossy.f64(0.1);
  expect(new SegmentReader(lossy.done(), () => null, { numberFormat: 1 }).f64()).toBe(Math.fround(0.1));
});

test('slots: first mention first, a repeat its own slot, past a few references and after a reset', () => {
  const targets = Array.from({ length: 20 }, () => ({}));
  const w = new SegmentWriter();
  for (let round = 0; round < 2; round++) {
    // 0, 1, 0, 2, 1, 3, …: every target met twice, the repeat after the next one is new.
    const order = targets.flatMap((t, i) => (i === 0 ? [t] : [t, targets[i - 1]!]));
    expect(order.map((t) => w.slot(t))).toEqual(order.map((t) => targets.indexOf(t)));
    expect(w.references).toEqual(targets);
    w.reset();
    expect(w.references).toEqual([]);
    expect(w.slot(targets[5]!)).toBe(0);
    w.reset();
  }
});

test('a segment read inside a larger buffer: offsets and errors count from the segment', () => {
  const w = new SegmentWriter();
  w.u32(7);
  w.value(Uint8Array.of(1, 2));
  const segment = w.done();
  const file = new Uint8Array(100);
  file.set(segment, 40);
  const inside = file.subarray(40, 40 + segment.length);
  const r = reader(inside);
  expect(r.u32()).toBe(7);
  expect(r.pos).toBe(4);
  expect(r.value()).toEqual(Uint8Array.of(1, 2));
  expect(r.atEnd).toBe(true);
  // Cut short: the error is where it is in a segment of its own, not at the buffer's offset.
  const errorOf = (segmentBytes: Uint8Array): SegmentError => {
    const cut = reader(segmentBytes);
    cut.pos = 4;
    try {
      cut.value();
    } catch (e) {
      return e as SegmentError;
    }
    throw new Error('read past the end');
  };
  const error = errorOf(file.subarray(40, 40 + segment.length - 1));
  expect(error).toBeInstanceOf(SegmentError);
  const alone = errorOf(segment.slice(0, segment.length - 1));
  expect([error.message, error.offset, error.code]).toEqual([alone.message, alone.offset, alone.code]);
  expect(error.offset).toBeLessThan(segment.length);
  expect(error.code).toBe('short-read');
});

test('SegmentReader.within a range reads what a reader of the range as a view reads: values, offsets, errors, its bytes', () => {
  const w = new SegmentWriter();
  for (const v of values) w.value(v);
  const segment = w.done();
  const resolve = (slot: number, at: number) => {
    if (slot !== 0) throw new SegmentError(`slot ${slot}`, at);
    return target;
  };
  // The range inside a buffer that is itself a view at an offset of a larger one.
  const outer = new Uint8Array(300);
  outer.set(segment, 37 + 11);
  const data = outer.subarray(37);
  const r = SegmentReader.within(data, 11, 11 + segment.length, resolve);
  expect(r.length).toBe(segment.length);
  expect(r.bytes).toEqual(segment);
  expect(r.peek()).toBe(segment[0]);
  expect(values.map(() => r.value())).toEqual(values);
  expect(r.atEnd).toBe(true);
  expect(r.peek()).toBeUndefined();
  // Cut one byte short: the error a reader of the cut segment alone gives.
  const failure = (read: SegmentReader): unknown => {
    try {
      for (;;) read.value();
    } catch (e) {
      return e;
    }
  };
  const cut = failure(SegmentReader.within(data, 11, 11 + segment.length - 1, resolve)) as SegmentError;
  const alone = failure(new SegmentReader(segment.slice(0, -1), resolve)) as SegmentError;
  expect(cut).toBeInstanceOf(SegmentError);
  expect([cut.message, cut.offset, cut.code]).toEqual([alone.message, alone.offset, alone.code]);
  // find: the next bytes looked up where they lie, without moving; none past the end.
  const table = new BytesTable<string>({ most: 4, longest: 8 });
  table.keep(Uint8Array.of(0, 0, 0, 3), 0, 4, 'three');
  const counted = SegmentReader.within(Uint8Array.of(9, 0, 0, 0, 3, 9), 1, 5, resolve);
  expect(counted.find(table, 4)).toBe('three');
  expect(counted.pos).toBe(0);
  expect(counted.find(table, 5)).toBeUndefined();
  expect(() => SegmentReader.within(data, 5, 4, resolve)).toThrow(RangeError);
  expect(() => SegmentReader.within(data, 0, data.length + 1, resolve)).toThrow(RangeError);
});
