// The write cursor's buffer policy: writes grow the buffer by doubling (headroom for what follows), a
// codec that knows its size presizes exactly, and finishing an exactly full buffer copies nothing.
import fc from 'fast-check';
import { Writer, WriteState } from '../src/kit';

const writer = (capacity = 16) => new Writer(new WriteState(64), capacity);

test('small writes grow the buffer by doubling', () => {
  const w = writer(16);
  w.fill(17, 7);
  expect(w.buf.length).toBe(32);
  w.fill(16, 7);
  expect(w.buf.length).toBe(64);
});

test('a large write doubles until it fits', () => {
  const w = writer(16);
  w.fill(1000, 1);
  expect(w.buf.length).toBe(1024);
});

test('presize grows exactly once to the size asked; finishing then copies nothing', () => {
  const w = writer(16);
  w.fill(4, 1);
  w.presize(1_000_000);
  expect(w.buf.length).toBe(1_000_004);
  w.presize(10); // already room: nothing changes
  expect(w.buf.length).toBe(1_000_004);
  w.fill(1_000_000, 2);
  const bytes = w.finish();
  expect(bytes).toBe(w.buf);
  expect(bytes.length).toBe(1_000_004);
  expect([bytes[0], bytes[3], bytes[4], bytes[1_000_003]]).toEqual([1, 1, 2, 2]);
});

test('finishing a partly filled buffer returns a copy of exactly the written bytes', () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }), (parts) => {
      const w = writer(8);
      for (const part of parts) w.append(part);
      const expected = Uint8Array.from(parts.flatMap((p) => [...p]));
      const bytes = w.finish();
      expect(bytes).toEqual(expected);
      if (bytes !== w.buf) expect(bytes.buffer).not.toBe(w.buf.buffer);
    }),
  );
});
