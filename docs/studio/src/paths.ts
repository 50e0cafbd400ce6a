/**
 * Document paths as text: the studio names every node by `formatPath` (what `dump`, errors and
 * `savekit diff` print), and reads a view's path back into segments.
 *
 * @module
 */

/** A path's segments: field names and array indexes. */
export type Segments = Array<string | number>;

/** Segments of a formatted path (`chunks[3].body.name` → `['chunks', 3, 'body', 'name']`; `(root)` → `[]`). */
export function parsePath(text: string): Segments {
  if (text === '(root)' || text === '') return [];
  const out: Segments = [];
  for (const match of text.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    if (match[1] !== undefined) out.push(Number(match[1]));
    else out.push(match[2]!);
  }
  return out;
}
