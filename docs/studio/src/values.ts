/**
 * Walking decoded documents as they are (the core's document nodes: arrays, plain objects, maps;
 * typed arrays as leaves): the node at a path, a copy with one node replaced, equality, and leaves
 * printed as `savekit diff` prints them (JSON forms: 64-bit integers and bytes as strings). Every walk
 * is iterative and skips subtrees the two documents share, so a one-field edit of a 50 MB save is
 * compared in the time of its path. The differences themselves are the core's `diffDocuments`.
 *
 * @module
 */
import { formatPath, toHex } from '@savekit/core';
import { documentChild as child, documentKeys, isDocumentBranch, sameDocumentLeaf } from '@savekit/core/kit';
import type { Segments } from './paths.js';

/** The node at a path, or undefined. */
export function at(root: unknown, path: Segments): unknown {
  let node = root;
  for (const segment of path) {
    if (!isDocumentBranch(node)) return undefined;
    node = child(node, segment);
  }
  return node;
}

/** A copy of `root` with the node at `path` replaced: only the nodes on the path are copied (prototypes kept). */
export function setIn(root: unknown, path: Segments, value: unknown): unknown {
  const parents: unknown[] = [];
  let node = root;
  for (const segment of path) {
    parents.push(node);
    node = isDocumentBranch(node) ? child(node, segment) : undefined;
  }
  let replaced = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const parent = parents[i];
    const key = path[i]!;
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy[key as number] = replaced;
      replaced = copy;
    } else if (parent instanceof Map) {
      const copy = new Map(parent);
      copy.set(parent.has(key) ? key : String(key), replaced);
      replaced = copy;
    } else if (isDocumentBranch(parent)) {
      const copy = Object.assign(Object.create(Object.getPrototypeOf(parent)) as object, parent);
      (copy as Record<string | number, unknown>)[key] = replaced;
      // An edited value no longer has the bytes a kept layer stored for it: they are made afresh.
      if (key === 'value' && isKept(parent)) delete (copy as { stored?: unknown }).stored;
      replaced = copy;
    } else throw new RangeError(`no field at ${formatPath(path.slice(0, i + 1))}`);
  }
  return replaced;
}

/**
 * Whether a node is a value with the stored bytes of its layers kept (`transformKeeping`'s
 * `{ value, stored }`: a compressed stream another compressor wrote, kept so an unchanged save is
 * written back byte for byte).
 */
export function isKept(node: unknown): boolean {
  if (!isDocumentBranch(node) || Array.isArray(node) || node instanceof Map) return false;
  const keys = Object.keys(node);
  return keys.includes('value') && keys.every((k) => k === 'value' || k === 'stored');
}

/**
 * Whether two documents are equal (iteratively; shared nodes are not walked), the bytes kept for a
 * layer's value aside (see {@link isKept}): a re-encoded save decodes with its layers' own bytes.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  const work: Array<[unknown, unknown]> = [[a, b]];
  const keys = (node: object) => (isKept(node) ? ['value'] : documentKeys(node));
  while (work.length > 0) {
    const [x, y] = work.pop()!;
    if (x === y) continue;
    if (isDocumentBranch(x) && isDocumentBranch(y)) {
      if (Array.isArray(x) !== Array.isArray(y) || Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
      const xs = keys(x);
      const ys = keys(y);
      if (xs.length !== ys.length || xs.some((k, i) => k !== ys[i])) return false;
      for (const k of xs) work.push([child(x, k), child(y, k)]);
    } else if (!sameDocumentLeaf(x, y)) return false;
  }
  return true;
}

/**
 * A leaf as its JSON form prints (`"0a1b…"` for bytes, `"123"` for a 64-bit integer, `"NaN"`), at
 * most `max` characters (`...` past it, as `savekit diff` cuts), branches as `{n}` or `[n]`.
 */
export function showValue(value: unknown, max: number): string {
  let text: string;
  if (value instanceof Uint8Array)
    text = `"${toHex(value.subarray(0, Math.ceil(max / 2)))}${value.length > max / 2 ? '…' : ''}" (${value.length.toLocaleString('en')} bytes)`;
  else if (ArrayBuffer.isView(value))
    text = `${value.constructor.name}(${((value as unknown as { length?: number }).length ?? value.byteLength).toLocaleString('en')})`;
  else if (typeof value === 'bigint') text = `"${value}"`;
  else if (typeof value === 'number' && !Number.isFinite(value)) text = `"${value}"`;
  else if (Object.is(value, -0)) text = '"-0"';
  else if (Array.isArray(value)) text = `[${value.length}]`;
  else if (value instanceof Map) text = `{${value.size}}`;
  else if (isDocumentBranch(value)) text = `{${documentKeys(value).length}}`;
  else text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
