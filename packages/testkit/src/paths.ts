/**
 * Document paths: every path a decode reports — of a trace span, a warning, an error — must be the
 * path of a value in the decoded document, as `toJson` shows it (and `savekit dump` and `diff` print
 * it). Annotations (layers, pointer offsets, framing fields) are skipped; everything else must resolve.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, documentPath, formatPath, toJson, type AnyCodec, type DecodeOptions, type Path } from '@savekit/core';

/** A path that does not resolve in the decoded document. */
export interface PathProblem {
  /** What reported it: a trace span, a warning, or the error of a cut-short input. */
  readonly source: 'span' | 'warning' | 'error';
  /** The path as printed (`chunks[0].body <lzo1x> .name`). */
  readonly path: string;
  /** How many of its document segments resolve (the first that does not is the next one). */
  readonly resolved: number;
  /** For errors: the length of the input that failed. */
  readonly cutAt?: number;
}

/**
 * How far a path resolves in a JSON document: the number of its document segments (annotations
 * skipped) that name an array index or object key present at that point.
 *
 * @example
 * ```ts
 * resolvePath({ chunks: [{ id: 'Glob', body: {} }] }, ['chunks', 0, 'body']); // 3
 * resolvePath({ chunks: [] }, ['chunks', 0, 'body']); // 1
 * ```
 */
export function resolvePath(json: unknown, path: Path): number {
  let at = json;
  let resolved = 0;
  for (const segment of documentPath(path)) {
    if (typeof segment === 'number') {
      if (!Array.isArray(at) || segment < 0 || segment >= at.length) break;
      at = at[segment];
    } else {
      if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, segment)) break;
      at = (at as Record<string, unknown>)[segment];
    }
    resolved += 1;
  }
  return resolved;
}

/** Whether every document segment of `path` resolves in `json` (see {@link resolvePath}). */
export function pathResolves(json: unknown, path: Path): boolean {
  return resolvePath(json, path) === documentPath(path).length;
}

/**
 * Decodes `bytes` with `codec`, tracing, and returns every span or warning path that does not resolve
 * in `toJson(codec, value)` — none for a codec whose paths are document paths. Throws when the bytes
 * do not decode (check a valid encoding).
 *
 * @example
 * ```ts
 * expect(checkDecodedPaths(save, bytes)).toEqual([]);
 * ```
 */
export function checkDecodedPaths(codec: AnyCodec, bytes: Uint8Array, options: DecodeOptions = {}): PathProblem[] {
  const decoded = decode(codec, bytes, { ...options, trace: true });
  if (E.isLeft(decoded)) throw decoded.left;
  const json = toJson(codec, decoded.right.value);
  const problems: PathProblem[] = [];
  const check = (source: 'span' | 'warning', path: Path) => {
    const resolved = resolvePath(json, path);
    if (resolved !== documentPath(path).length) problems.push({ source, path: formatPath(path), resolved });
  };
  for (const span of decoded.right.spans ?? []) check('span', span.path);
  for (const warning of decoded.right.warnings) check('warning', warning.path);
  return problems;
}

/** Options of {@link checkErrorPaths}. */
export interface ErrorPathOptions {
  /** Decode options for every cut (default none). */
  readonly decodeOptions?: DecodeOptions;
  /** How many cut points to try, spread over the input (default: every length up to 512, else 512). */
  readonly cuts?: number;
}

/**
 * Cuts a valid encoding short at many lengths and decodes each cut: every DecodeError's path must be
 * a path of the full document — it names the value the decode got as far as, so each of its document
 * segments resolves in `toJson` of the whole `bytes`' value. Returns the ones that do not.
 *
 * @example
 * ```ts
 * expect(checkErrorPaths(save, bytes)).toEqual([]);
 * ```
 */
export function checkErrorPaths(codec: AnyCodec, bytes: Uint8Array, options: ErrorPathOptions = {}): PathProblem[] {
  const decodeOptions = options.decodeOptions ?? {};
  const full = decode(codec, bytes, decodeOptions);
  if (E.isLeft(full)) throw full.left;
  const json = toJson(codec, full.right.value);
  const cuts = Math.min(options.cuts ?? 512, bytes.length);
  const problems: PathProblem[] = [];
  const tried = new Set<number>();
  for (let k = 0; k < cuts; k++) {
    const length = Math.floor((k * bytes.length) / Math.max(cuts, 1));
    if (tried.has(length)) continue;
    tried.add(length);
    const cut = decode(codec, bytes.subarray(0, length), decodeOptions);
    if (E.isRight(cut)) continue;
    const path = cut.left.path;
    const resolved = resolvePath(json, path);
    if (resolved !== documentPath(path).length)
      problems.push({ source: 'error', path: formatPath(path), resolved, cutAt: length });
  }
  return problems;
}
