// Jest setup (jest.config.cjs, setupFilesAfterEnv): toEqual and toStrictEqual compare two integer typed
// arrays of the same type by their bytes. Jest's own comparison walks a typed array key by key, about
// a microsecond an element: a 3 MB save compared with toEqual cost 4 s, and the tests compare many
// (the Terrarum demo world's layers, megabyte graph segments, re-encoded saves). Comparing the bytes
// gives the same answer for integer elements; anything else — float arrays (NaN payloads and -0
// compare by value, not bytes), a Buffer against a Uint8Array, asymmetric matchers — goes on to jest's
// comparison as before, and so does every failure message.

/** Typed arrays whose elements are equal exactly when their bytes are (by tag: Node's own Buffers come
 * from outside the test's realm). */
const INTEGER_ARRAYS = new Set(
  ['Int8', 'Uint8', 'Uint8Clamped', 'Int16', 'Uint16', 'Int32', 'Uint32', 'BigInt64', 'BigUint64'].map(
    (name) => `[object ${name}Array]`,
  ),
);

/**
 * True or false for two integer typed arrays of one type (by constructor name, as jest's strict
 * check: a Buffer is compared only with a Buffer); undefined, so jest decides, for anything else.
 */
function integerArraysEqual(a, b) {
  const tag = Object.prototype.toString.call(a);
  if (!INTEGER_ARRAYS.has(tag) || Object.prototype.toString.call(b) !== tag) return undefined;
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return undefined; // a spoofed tag
  if (a.constructor?.name !== b.constructor?.name) return undefined;
  if (a.length !== b.length) return false;
  const bytes = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  return Buffer.compare(bytes(a), bytes(b)) === 0;
}

expect.addEqualityTesters([integerArraysEqual]);
