// The byte comparison of integer typed arrays (test/typed-array-equality.cjs, a jest setup file) gives
// jest's answers: equal contents pass, any difference fails, and what it does not handle (float arrays,
// a Buffer against a Uint8Array under toStrictEqual, matchers) is still jest's.
import { readFileSync } from 'node:fs';

test('integer typed arrays: equal contents are equal, one changed element or length is not', () => {
  const big = Uint16Array.from({ length: 100_000 }, (_, i) => i & 0xffff);
  expect(big).toEqual(big.slice());
  expect(big).toStrictEqual(big.slice());
  const changed = big.slice();
  changed[99_999] = 1;
  expect(big).not.toEqual(changed);
  expect(big).not.toEqual(big.subarray(1));
  // A view compares its own window, not the whole buffer.
  const bytes = Uint8Array.of(9, 1, 2, 3, 9);
  expect(bytes.subarray(1, 4)).toEqual(Uint8Array.of(1, 2, 3));
  expect(Int32Array.of(-1)).not.toEqual(Uint32Array.of(0xffffffff));
  expect([BigInt64Array.of(-1n)]).toEqual([BigInt64Array.of(-1n)]);
  expect(BigInt64Array.of(-1n)).not.toEqual(BigInt64Array.of(1n));
});

test("what it leaves to jest: floats by value, Buffers against Uint8Arrays, Node's Buffers, matchers", () => {
  // Different NaN bits, -0 against 0: jest compares float elements with Object.is.
  const nan = new Float64Array(1);
  new DataView(nan.buffer).setBigUint64(0, 0x7ff8000000000001n, true);
  expect(nan).toEqual(Float64Array.of(Number.NaN));
  expect(Float32Array.of(-0)).not.toEqual(Float32Array.of(0));
  expect(Buffer.from([1, 2])).toEqual(Uint8Array.of(1, 2));
  expect(Buffer.from([1, 2])).not.toStrictEqual(Uint8Array.of(1, 2));
  // A Buffer from Node (another realm's Uint8Array) against one made here.
  const file = readFileSync(__filename);
  expect(file).toEqual(Buffer.from(file));
  expect({ bytes: Uint8Array.of(1) }).toEqual({ bytes: expect.any(Uint8Array) });
});
