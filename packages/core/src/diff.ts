/**
 * The differences of two documents, field by field: what `savekit diff` prints and the studio lists
 * as changes. One walk serves decoded documents (maps, bytes, bigints) and their JSON forms alike.
 *
 * @module
 */
import { documentChild, documentKeys, isDocumentBranch, sameDocumentLeaf } from './document-nodes.js';
import { formatPath, type PathSegment } from './errors.js';

/** One difference between two documents. */
export interface DocumentDifference {
  /** Where, as {@link formatPath} prints it (`party[2].hp`; `(root)` for the whole document). */
  readonly path: string;
  /** A value that differs, or a field or element only the second (`added`) or first (`removed`) has. */
  readonly kind: 'changed' | 'added' | 'removed';
  /** The first document's value (absent when `added`). */
  readonly before?: unknown;
  /** The second document's value (absent when `removed`). */
  readonly after?: unknown;
}

/** A path as a chain to its parent: a child's path costs one link, not a copy of its parent's. */
interface Link {
  readonly parent: Link | undefined;
  readonly segment: PathSegment;
}

/** A pair to compare, or (with `kind`) a difference to give out when the walk reaches it. */
interface Step {
  readonly at: Link | undefined;
  readonly before: unknown;
  readonly after: unknown;
  readonly kind?: 'added' | 'removed';
}

/** Whether two key lists are the same keys in the same order. */
function sameKeys(left: ReadonlyArray<PathSegment>, right: ReadonlyArray<PathSegment>): boolean {
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return false;
  return true;
}

function pathOf(link: Link | undefined): string {
  const segments: PathSegment[] = [];
  for (let l = link; l !== undefined; l = l.parent) segments.push(l.segment);
  return formatPath(segments.reverse());
}

/**
 * The differences of two documents in document order: a leaf that differs is `changed`, an element
 * or field only one side has is `added` or `removed` (with its whole value), and a branch that
 * turned into a leaf or another kind of branch (array ↔ object) is `changed` whole. Leaves compare
 * as {@link sameDocumentLeaf} does: bytes by content, bigints by value. Map entries and object fields
 * pair by key; array elements by index, so an element inserted in the middle shows as changes up to
 * the end and one `added`.
 *
 * The walk is iterative (a document nested a million deep is fine) and skips nodes the two documents
 * share, so comparing a document with an edited copy of itself costs the length of the edited paths.
 *
 * @example
 * ```ts
 * import { diffDocuments } from '@savekit/core';
 * diffDocuments({ hp: 3, items: [1, 2] }, { hp: 4, items: [1] });
 * // [{ path: 'hp', kind: 'changed', before: 3, after: 4 },
 * //  { path: 'items[1]', kind: 'removed', before: 2 }]
 * ```
 */
export function diffDocuments(a: unknown, b: unknown): DocumentDifference[] {
  const out: DocumentDifference[] = [];
  const work: Step[] = [{ at: undefined, before: a, after: b }];
  while (work.length > 0) {
    const { at, before, after, kind } = work.pop()!; // the loop runs while there is one
    if (kind === 'added') out.push({ path: pathOf(at), kind, after });
    else if (kind === 'removed') out.push({ path: pathOf(at), kind, before });
    else if (Object.is(before, after))
      continue; // a shared node, or the same primitive
    else if (isDocumentBranch(before) && isDocumentBranch(after) && Array.isArray(before) === Array.isArray(after)) {
      const left = documentKeys(before);
      const right = documentKeys(after);
      if (sameKeys(left, right)) {
        // The common case (two decodes of one layout): no sets, and no step for a child that is the
        // same primitive or node on both sides, which is most of them. A plain object's children are
        // taken all at once, in its keys' order (a lookup by name per field cost most of the walk).
        const plain = !Array.isArray(before) && !(before instanceof Map) && !(after instanceof Map);
        const xs = plain ? Object.values(before) : undefined;
        const ys = plain ? Object.values(after) : undefined;
        for (let i = left.length - 1; i >= 0; i--) {
          const key = left[i]!;
          const x = xs !== undefined ? xs[i] : documentChild(before, key);
          const y = ys !== undefined ? ys[i] : documentChild(after, key);
          if (!Object.is(x, y)) work.push({ at: { parent: at, segment: key }, before: x, after: y });
        }
        continue;
      }
      const inLeft = new Set(left);
      const inRight = new Set(right);
      const keys = [...left, ...right.filter((k) => !inLeft.has(k))];
      // Pushed last to first, so they come off the stack in document order.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!; // i is within keys
        const link = { parent: at, segment: key };
        const x = documentChild(before, key);
        const y = documentChild(after, key);
        if (!inRight.has(key)) work.push({ at: link, before: x, after: undefined, kind: 'removed' });
        else if (!inLeft.has(key)) work.push({ at: link, before: undefined, after: y, kind: 'added' });
        else work.push({ at: link, before: x, after: y });
      }
    } else if (!sameDocumentLeaf(before, after)) out.push({ path: pathOf(at), kind: 'changed', before, after });
  }
  return out;
}
