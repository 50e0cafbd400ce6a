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
  renames?: StoredRenames,
): void {
  const fix = (path: ReadonlyArray<PathSegment>): PathSegment[] | undefined => {
    const declared = renames === undefined ? undefined : renamedPath(path, depth, renames);
    if (declared !== undefined) return declared;
    let at = depth;
    while (at < path.length && isPathAnnotation(path[at]!)) at++;
    const segment = path[at];
    if (segment === undefined || isPathAnnotation(segment) || holds(presentedAt(path), segment)) return undefined;
    return annotatedFrom(path, at);
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

/** What a `map` declares of its stored fields' paths (see `Bijection.framing` and `Bijection.hoisted`). */
export interface StoredRenames {
  readonly framing: ReadonlySet<string>;
  readonly hoisted: string | undefined;
  readonly storedAt: string | undefined;
}

/** The renames a bijection declares, or undefined when it declares none (the common case). */
export function storedRenames(declared: {
  readonly framing?: ReadonlyArray<string>;
  readonly hoisted?: string;
  readonly storedAt?: string;
}): StoredRenames | undefined {
  const { framing, hoisted, storedAt } = declared;
  if ((framing === undefined || framing.length === 0) && hoisted === undefined && storedAt === undefined)
    return undefined;
  return { framing: new Set(framing ?? []), hoisted, storedAt };
}

/** `path` with its segments from `at` on as annotations. */
function annotatedFrom(path: ReadonlyArray<PathSegment>, at: number): PathSegment[] {
  const notes = path.slice(at).map((s) => (isPathAnnotation(s) ? s : pathAnnotation(String(s))));
  return [...path.slice(0, at), ...notes];
}

/**
 * `path` as the presented value names it, by what the `map` at `depth` declares: under `storedAt`
 * when the stored value is held there; else a framing field and what is inside it become
 * annotations, the hoisted field's segment goes. Undefined when nothing declared applies (the
 * segment at `depth` is another field, or the path ends before it).
 */
export function renamedPath(
  path: ReadonlyArray<PathSegment>,
  depth: number,
  renames: StoredRenames,
): PathSegment[] | undefined {
  if (renames.storedAt !== undefined)
    return path.length > depth ? [...path.slice(0, depth), renames.storedAt, ...path.slice(depth)] : undefined;
  let at = depth;
  while (at < path.length && isPathAnnotation(path[at]!)) at++;
  const segment = path[at];
  if (typeof segment !== 'string') return undefined;
  if (renames.framing.has(segment)) return annotatedFrom(path, at);
  if (segment === renames.hoisted) return [...path.slice(0, at), ...path.slice(at + 1)];
  return undefined;
}

/**
 * Renames the path of an error thrown inside a `map`'s stored value at `depth` (see
 * {@link renamedPath}), in place: the error keeps its class, code, offset and message.
 */
export function renameStored(
  error: { readonly path: ReadonlyArray<PathSegment> },
  depth: number,
  renames: StoredRenames,
): void {
  const path = renamedPath(error.path, depth, renames);
  if (path !== undefined) (error as { path: ReadonlyArray<PathSegment> }).path = path;
}

/**
 * Names the segments of an error's path from `depth` on as annotations, in place: for what a codec
 * read that the document has no place for (a selector read ahead), as spans of it are dropped.
 */
export function annotateErrorFrom(error: { readonly path: ReadonlyArray<PathSegment> }, depth: number): void {
  if (error.path.length <= depth) return;
  (error as { path: ReadonlyArray<PathSegment> }).path = annotatedFrom(error.path, depth);
}
