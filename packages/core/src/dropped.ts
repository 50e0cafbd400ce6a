/**
 * Paths are document paths: a stored field the presented value has no place for (a header count
 * rebuilt on write, a directory entry's offset, a look-ahead copy) stays visible in trace spans and
 * warnings, but as annotations from that field on (`file <count>`), not as segments that do not exist.
 *
 * @module
 */
import { isPathAnnotation, pathAnnotation, type PathSegment } from './errors.js';
import type { ReadState } from './reader.js';

/** Whether `segment` names a part of `value` (an own key of an object, an index of an array). */
function holds(value: unknown, segment: string | number): boolean {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return false;
  if (typeof segment === 'number') return Array.isArray(value) && segment >= 0 && segment < value.length;
  return !Array.isArray(value) && Object.hasOwn(value, segment);
}

/**
 * Rewrites the spans and warnings read since `spans` and `warnings`: where the segment at `depth`
 * (annotations skipped) is not a part of `presentedAt(path)` — the presented value the path's first
 * `depth` segments lead to — it and the segments after it become annotations.
 */
export function annotateDropped(
  state: ReadState,
  spans: number,
  warnings: number,
  depth: number,
  presentedAt: (path: ReadonlyArray<PathSegment>) => unknown,
): void {
  const fix = (path: ReadonlyArray<PathSegment>): PathSegment[] | undefined => {
    let at = depth;
    while (at < path.length && isPathAnnotation(path[at]!)) at++;
    const segment = path[at];
    if (segment === undefined || isPathAnnotation(segment) || holds(presentedAt(path), segment)) return undefined;
    const notes = path.slice(at).map((s) => (isPathAnnotation(s) ? s : pathAnnotation(String(s))));
    return [...path.slice(0, at), ...notes];
  };
  const list = state.spans;
  if (list !== undefined)
    for (let i = spans; i < list.length; i++) {
      const path = fix(list[i]!.path);
      if (path !== undefined) list[i] = { ...list[i]!, path };
    }
  for (let i = warnings; i < state.warnings.length; i++) {
    const path = fix(state.warnings[i]!.path);
    if (path !== undefined) state.warnings[i] = { ...state.warnings[i]!, path };
  }
}
