// Segment readers share one read state (a state per object cost a million-object load more than its
// reads); each reader starts from it emptied, so what one segment spent or left behind never reaches
// the next: work is bounded per segment, as when every reader had a state of its own.
import { array, u8, pstring, u32be } from '@savekit/core';
import { SegmentError, SegmentReader } from '@savekit/zippy';

const noObjects = (): null => null;

test('work spent reading one segment is not charged to the next (each has the whole budget)', () => {
  // 3,000,000 one-byte elements charge 3,000,000 units: one segment is under the 4 Mi default, two
  // together are not — a budget shared across readers refused the second.
  const bytes = new Uint8Array(3_000_000);
  for (let round = 0; round < 3; round++) {
    const reader = new SegmentReader(bytes, noObjects);
    expect(reader.read(array(u8, bytes.length))).toHaveLength(bytes.length);
  }
});

test('a failed read leaves nothing for the next reader: its error is its own, at its own offset', () => {
  // A string claiming 9 bytes with 2 left fails inside the codec, with a path entered.
  const bad = new SegmentReader(Uint8Array.of(0, 0, 0, 9, 65, 66), noObjects);
  expect(() => bad.read(pstring(u32be, 'utf8'))).toThrow(SegmentError);
  const good = new SegmentReader(Uint8Array.of(0, 0, 0, 2, 65, 66, 7), noObjects);
  expect(good.read(pstring(u32be, 'utf8'))).toBe('AB');
  expect(good.u8()).toBe(7);
  let error: unknown;
  try {
    good.u8();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SegmentError);
  expect((error as SegmentError).offset).toBe(7);
  expect((error as SegmentError).code).toBe('short-read');
});

test('integer(): a number only while it is a safe integer, else a bigint (both ends of the safe range)', () => {
  const read = (...bytes: number[]) => new SegmentReader(Uint8Array.from(bytes), noObjects).integer();
  expect(read(0xff, 0xe0, 0, 0, 0, 0, 0, 1)).toBe(-(2 ** 53) + 1);
  expect(read(0xff, 0xe0, 0, 0, 0, 0, 0, 0)).toBe(-(2n ** 53n));
  expect(read(0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)).toBe(2 ** 53 - 1);
  expect(read(0, 0x20, 0, 0, 0, 0, 0, 0)).toBe(2n ** 53n);
});
