// Values in data segments: SegmentWriter and SegmentReader (on the core's Writer and Reader) agree,
// and what the reader refuses is a SegmentError with the offset in the segment and an error code.
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
