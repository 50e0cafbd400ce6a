/** Comparing saves, as the suites check that writing a document again gives the save back. */
import { isSaveTree, type SaveInput } from '@savekit/core';
import { bytesEqual } from '@savekit/core/kit';

/** Whether two saves are the same: the same bytes, or trees of the same files with the same bytes. */
export function sameSave(a: SaveInput, b: SaveInput): boolean {
  if (isSaveTree(a) || isSaveTree(b)) {
    if (!isSaveTree(a) || !isSaveTree(b) || a.size !== b.size) return false;
    for (const [name, bytes] of a) {
      const other = b.get(name);
      if (other === undefined || !bytesEqual(bytes, other)) return false;
    }
    return true;
  }
  return bytesEqual(a, b);
}
