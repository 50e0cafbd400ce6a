// The write cursor's buffer policy: small writes double the buffer, a large reservation gets exactly
// what it asked for, and finishing an exactly full buffer hands it over without a copy.
import fc from 'fast-check';
import { Writer, WriteState } from '../src/index';

const writer = (capacity = 16) => new Writer(new WriteState(64), capacity);

test('small writes grow the buffer by doubling', () => {
  const w = writer(16);
  w.fill(17, 7);
  expect(w.buf.length).toBe(32);
  w.fill(16, 7);
  expect(w.buf.length).toBe(64);
});

test('a reservation larger than double gets exactly its size; finishing then copies nothing', () => {
  const w = writer(16);
  w.fill(4, 1);
  const at = w.ensure(1_000_000);
  expect(at).toBe(4);
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
