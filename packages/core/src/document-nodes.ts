/**
 * The nodes of a decoded document as every document walk sees them: arrays, plain objects and maps
 * are branches; primitives, bigints, dates, bytes and other typed arrays are leaves.
 *
 * @module
 */
import { bytesEqual } from './bytes.js';

/**
 * Whether a document node has children: an array, a map or another object that is not bytes, another
 * typed array or a date.
 *
 * @example
 * ```ts
 * import { isDocumentBranch } from '@savekit/core/kit';
 * isDocumentBranch({ hp: 3 }); // true
 * isDocumentBranch(Uint8Array.of(1)); // false: bytes are a leaf
 * ```
 */
export function isDocumentBranch(node: unknown): node is object {
  return node !== null && typeof node === 'object' && !ArrayBuffer.isView(node) && !(node instanceof Date);
}

/**
 * The keys of a branch in order: indexes of an array, a map's string and number keys, an object's own
 * enumerable keys.
 */
export function documentKeys(node: object): Array<string | number> {
  if (Array.isArray(node)) return node.map((_, i) => i);
  if (node instanceof Map) return [...node.keys()].filter((k) => typeof k === 'string' || typeof k === 'number');
  return Object.keys(node);
}

/**
 * The child of a branch at `key` (a map's entry under the key, or under its string form), or
 * `undefined`. Only own keys are children: `"toString"` is not a child of `{}`.
 */
export function documentChild(node: object, key: string | number): unknown {
  if (node instanceof Map) return node.has(key) ? node.get(key) : node.get(String(key));
  return Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
}

/**
 * Whether two leaves are the same value: `Object.is` for primitives and bigints (so `NaN` equals
 * `NaN` and `-0` differs from `0`), byte for byte for typed arrays of one kind, by time for dates.
 */
export function sameDocumentLeaf(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    return (
      a.constructor === b.constructor &&
      bytesEqual(
        new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
        new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
      )
    );
  }
  return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
}
