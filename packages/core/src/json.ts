/**
 * Lossless JSON: the io-ts types of the JSON forms codecs use (integers with their range, bigint as
 * decimal strings, bytes as hex, floats exact including -0, NaN and infinities), and
 * `toJson` / `fromJson` over any codec.
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { type ErrorCode, formatPath, type Path, type PathSegment } from './errors.js';
import type { Codec } from './codec.js';
import { jsonDescend, jsonTooDeep, tooDeepMessage, withJsonDepthLimit } from './json-depth.js';

/** An integer in `[min, max]`, as a JSON number. */
export function jsonInt(name: string, min: number, max: number): t.Type<number, number, unknown> {
  return new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max
        ? t.success(u)
        : t.failure(u, c, `expected an integer from ${min} to ${max}`),
    (a) => a,
  );
}

/** A bigint in `[min, max]`, as a JSON decimal string (numbers are accepted when they are exact). */
export function jsonBigInt(name: string, min: bigint, max: bigint): t.Type<bigint, string, unknown> {
  const inRange = (b: bigint) => b >= min && b <= max;
  return new t.Type<bigint, string, unknown>(
    name,
    (u): u is bigint => typeof u === 'bigint' && inRange(u),
    (u, c) => {
      let value: bigint | undefined;
      if (typeof u === 'string' && /^-?(0|[1-9][0-9]*)$/.test(u)) value = BigInt(u);
      else if (typeof u === 'number' && Number.isSafeInteger(u)) value = BigInt(u);
      else if (typeof u === 'bigint') value = u;
      return value !== undefined && inRange(value)
        ? t.success(value)
        : t.failure(u, c, `expected a decimal integer string from ${min} to ${max}`);
    },
    (a) => a.toString(),
  );
}

/** Each byte's two lower-case hex digits. */
const HEX_PAIRS: ReadonlyArray<string> = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Each byte's two hex digits as character codes, high digit in the high byte (for {@link toHex}'s long path). */
const HEX_CODES: Uint16Array = Uint16Array.from(HEX_PAIRS, (pair) => (pair.charCodeAt(0) << 8) | pair.charCodeAt(1));

/** Bytes past which {@link toHex} spells into a character buffer rather than joining strings. */
const HEX_LONG = 64;

/** Hex digits spelled per TextDecoder call (so no one call's buffer is large). */
const HEX_BLOCK = 1 << 16;

/** Decodes the spelled digits: ASCII, which UTF-8 decoders read fastest. */
let asciiDecoder: TextDecoder | undefined;

/** Lower-case hex of bytes, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n <= HEX_LONG) {
    let out = '';
    for (let i = 0; i < n; i++) out += HEX_PAIRS[bytes[i]!]!;
    return out;
  }
  // Long runs (kept chunk bytes, pictures) are spelled as ASCII and decoded a block at a time: joining
  // two-letter strings made a rope of millions of pieces, and a string per byte for the collector.
  asciiDecoder ??= new TextDecoder();
  const block = new Uint8Array(Math.min(n, HEX_BLOCK) * 2);
  const parts: string[] = [];
  for (let start = 0; start < n; start += HEX_BLOCK) {
    const end = Math.min(n, start + HEX_BLOCK);
    let j = 0;
    for (let i = start; i < end; i++) {
      const code = HEX_CODES[bytes[i]!]!;
      block[j++] = code >> 8;
      block[j++] = code & 0xff;
    }
    parts.push(asciiDecoder.decode(block.subarray(0, j)));
  }
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/** Each character code's hex value (0–15), or −1: indexed by codes below 128. */
const HEX_VALUES: Int8Array = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let d = 0; d < 16; d++) {
    values['0123456789abcdef'.charCodeAt(d)] = d;
    values['0123456789ABCDEF'.charCodeAt(d)] = d;
  }
  return values;
})();

/** Parses hex (either case, even length) into bytes, or `undefined` if it is not hex. */
export function fromHex(hex: string): Uint8Array | undefined {
  const n = hex.length;
  if (n % 2 !== 0) return undefined;
  const out = new Uint8Array(n / 2);
  for (let i = 0, j = 0; i < n; i += 2, j++) {
    const high = hex.charCodeAt(i);
    const low = hex.charCodeAt(i + 1);
    // A code of 128 or more is no digit: it reads the −1 of code 127 (DEL).
    const h = HEX_VALUES[Math.min(high, 127)]!;
    const l = HEX_VALUES[Math.min(low, 127)]!;
    if ((h | l) < 0) return undefined;
    out[j] = (h << 4) | l;
  }
  return out;
}

/** Bytes as a lower-case hex JSON string, optionally of a fixed length. */
export function jsonBytes(size?: number): t.Type<Uint8Array, string, unknown> {
  const okSize = (b: Uint8Array) => size === undefined || b.length === size;
  return new t.Type<Uint8Array, string, unknown>(
    size === undefined ? 'HexBytes' : `HexBytes(${size})`,
    (u): u is Uint8Array => u instanceof Uint8Array && okSize(u),
    (u, c) => {
      const bytes = typeof u === 'string' ? fromHex(u) : u instanceof Uint8Array ? u : undefined;
      if (bytes === undefined) return t.failure(u, c, 'expected a hex string');
      return okSize(bytes) ? t.success(bytes) : t.failure(u, c, `expected ${size} bytes of hex`);
    },
    toHex,
  );
}

/** The message of a hole in an array (an index below its length that holds no element). */
const holeMessage = (i: number) => `the array has no element at [${i}] (a hole: JSON has none)`;

/**
 * An array of `item` in a JSON form: io-ts's `t.array` (an `ArrayType`, so paths keep their indexes
 * as numbers), except that it stops at the first index that holds no element. JSON text has no
 * holes, but a script can hand over `new Array(2 ** 32 - 1)`: `t.array` checks each of its four
 * billion missing elements and keeps an error for each until the heap runs out (the process
 * aborts), and its encode walks them all. Here a hole is one failure at its index, in `validate`
 * and `is`, and a `RangeError` naming it in `encode`.
 *
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { jsonArray } from '@savekit/core/kit';
 * const names = jsonArray(t.string);
 * names.is(['a', 'b']); // true
 * names.is(new Array(2 ** 32 - 1)); // false, at once
 * ```
 */
export function jsonArray<C extends t.Mixed>(item: C, name = `Array<${item.name}>`): t.ArrayC<C> {
  const identity = item.encode === t.identity;
  return new t.ArrayType<C, Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown>(
    name,
    (u): u is Array<t.TypeOf<C>> => {
      if (!Array.isArray(u)) return false;
      for (let i = 0; i < u.length; i++) if (!(i in u) || !item.is(u[i])) return false;
      return true;
    },
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c);
      const errors: t.Errors = [];
      let out: unknown[] = u;
      for (let i = 0; i < u.length; i++) {
        if (!(i in u)) {
          errors.push({
            value: undefined,
            context: t.appendContext(c, String(i), item, undefined),
            message: holeMessage(i),
          });
          break;
        }
        const element = u[i];
        const result = item.validate(element, t.appendContext(c, String(i), item, element));
        if (E.isLeft(result)) for (const error of result.left) errors.push(error);
        else if (out !== u) out.push(result.right);
        else if (result.right !== element) {
          // Copied only when an element decodes to something else, as t.array does, and only the
          // elements read so far (a copy of the whole would copy a sparse array's length).
          out = u.slice(0, i);
          out.push(result.right);
        }
      }
      return errors.length > 0 ? t.failures(errors) : t.success(out as Array<t.TypeOf<C>>);
    },
    (a) => {
      // io-ts's encoders trust their input: a value that is not a list would be written as an empty one.
      if (!Array.isArray(a)) throw new TypeError(`expected an array, got ${describeValue(a)}`);
      const out: Array<t.OutputOf<C>> = [];
      for (let i = 0; i < a.length; i++) {
        if (!(i in a)) throw new RangeError(holeMessage(i));
        out.push(identity ? a[i] : item.encode(a[i]));
      }
      return out;
    },
    item,
  );
}

/**
 * A typed array's numbers as a plain array: what a JSON form lists tiles, columns or samples as.
 * `Array.from` walks a typed array through its iterator; a loop is faster, and pushing keeps the array
 * packed, which `JSON.stringify` writes about three times faster than an array made at its length
 * (holey until filled). A 3,600 × 3,600 world's two tile layers: listed and stringified in 0.5–0.6 s
 * against 0.8–1.0 s.
 *
 * @example
 * ```ts
 * import { numberList } from '@savekit/core/kit';
 * numberList(Uint16Array.of(1, 2, 65535)); // [1, 2, 65535]
 * ```
 */
export function numberList(values: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) out.push(values[i]!);
  return out;
}

/** The JSON spelling of floats JSON numbers cannot hold. */
export type FloatJson = number | 'NaN' | 'Infinity' | '-Infinity' | '-0';

/**
 * A float as JSON: a number when JSON can hold it exactly (JavaScript prints doubles so that they
 * parse back to the same bits), else one of `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`.
 */
export const jsonFloat: t.Type<number, FloatJson, unknown> = new t.Type<number, FloatJson, unknown>(
  'Float',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    if (typeof u === 'number') return t.success(u);
    switch (u) {
      case 'NaN':
        return t.success(NaN);
      case 'Infinity':
        return t.success(Infinity);
      case '-Infinity':
        return t.success(-Infinity);
      case '-0':
        return t.success(-0);
      default:
        return t.failure(u, c, 'expected a number or "NaN", "Infinity", "-Infinity", "-0"');
    }
  },
  (a) => {
    if (Number.isNaN(a)) return 'NaN';
    if (a === Infinity) return 'Infinity';
    if (a === -Infinity) return '-Infinity';
    if (Object.is(a, -0)) return '-0';
    return a;
  },
);

/** One problem found while validating a JSON document against a codec's type, or converting a value to JSON. */
export interface JsonProblem {
  /** Where in the document, outermost first. */
  readonly path: Path;
  /** What was wrong. */
  readonly message: string;
  /**
   * What kind of problem, for tools to branch on (see {@link ErrorCode}): `wrong-type` (a part not of
   * its type's shape, a hole in a list), `too-deep` (nesting past the limit), `invalid-value` (a value
   * the type refuses for a reason of its own, or JSON cannot hold).
   */
  readonly code: ErrorCode;
}

/** A {@link JsonProblem} as {@link JsonError}'s constructor takes it: without a code, `invalid-value`. */
export type JsonProblemInit = Omit<JsonProblem, 'code'> & { readonly code?: ErrorCode | undefined };

/** Path segments a message shows in full at each end of a long path; the middle is counted. */
const PATH_HEAD = 8;
const PATH_TAIL = 4;

/**
 * A path as messages print it, cut when long: `kids[0].kids[0]…(1016 more)…kids[0]`. The
 * problem's `path` keeps every segment.
 */
function formatPathCut(path: Path): string {
  if (path.length <= PATH_HEAD + PATH_TAIL + 1) return formatPath(path);
  const hidden = path.length - PATH_HEAD - PATH_TAIL;
  return `${formatPath(path.slice(0, PATH_HEAD))}…(${hidden} more)…${formatPath(path.slice(-PATH_TAIL))}`;
}

/**
 * A JSON document does not fit a codec's type (from {@link fromJson}), or a value is nested deeper
 * than the limit allows (from {@link fromJson} or {@link toJson}). Lists every problem found, each
 * with its path; messages cut long paths in the middle, `problems` keeps them whole.
 */
export class JsonError extends Error {
  override readonly name = 'JsonError';
  /** The problems, each with a path. */
  readonly problems: ReadonlyArray<JsonProblem>;

  constructor(problems: ReadonlyArray<JsonProblemInit>) {
    super(problems.map((p) => `at ${formatPathCut(p.path)}: ${p.message}`).join('; '));
    this.problems = problems.map((p) => ({ path: p.path, message: p.message, code: p.code ?? 'invalid-value' }));
  }

  /** One line per problem. */
  override toString(): string {
    return this.problems.map((p) => `at ${formatPathCut(p.path)}: ${p.message}`).join('\n');
  }
}

/** Options of {@link fromJson} and {@link toJson}. `undefined` means the default, as for `decode`. */
export interface JsonOptions {
  /**
   * How deep recursive codecs (`lazy`) may nest in the document or value before the conversion fails
   * with a {@link JsonError}. Default 512, as for `decode` and `encode`.
   */
  readonly maxDepth?: number | undefined;
}

/** Values found too deep, by the error reporting them (so `toJson` can say where they are). */
const tooDeepValues = new WeakMap<JsonError, unknown>();

/**
 * The error of a value met past the nesting limit while checking or encoding;
 * {@link fromJson} and {@link toJson} find its path.
 */
function tooDeepError(value: unknown): JsonError {
  const error = new JsonError([{ path: [], message: tooDeepMessage(), code: 'too-deep' }]);
  tooDeepValues.set(error, value);
  return error;
}

/**
 * The path of `target` in `root` (the shortest, breadth first), or `undefined`. A work list with a
 * parent link per object: no recursion, each object visited once.
 */
function findPath(root: unknown, target: unknown): PathSegment[] | undefined {
  const isNode = (u: unknown): u is object => typeof u === 'object' && u !== null && !ArrayBuffer.isView(u);
  if (!isNode(target)) return undefined;
  const parents = new Map<object, { readonly parent: object; readonly key: PathSegment } | null>();
  if (!isNode(root)) return undefined;
  parents.set(root, null);
  const queue: object[] = [root];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    if (node === target) {
      const path: PathSegment[] = [];
      for (let link = parents.get(node); link; link = parents.get(link.parent)) path.push(link.key);
      return path.reverse();
    }
    const visit = (key: PathSegment, child: unknown) => {
      if (isNode(child) && !parents.has(child)) {
        parents.set(child, { parent: node, key });
        queue.push(child);
      }
    };
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(i, node[i]);
    else for (const key of Object.keys(node)) visit(key, (node as Record<string, unknown>)[key]);
  }
  return undefined;
}

/** A too-deep error from inside a conversion, with the path of the value in `root` when it is found. */
function placeTooDeep(error: JsonError, root: unknown): JsonError {
  if (!tooDeepValues.has(error)) return error;
  const path = findPath(root, tooDeepValues.get(error));
  return path === undefined ? error : new JsonError(error.problems.map((p) => ({ ...p, path })));
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** The error of a conversion the call stack could not hold (when a limit was raised too far). */
const stackOverflowError = () =>
  new JsonError([{ path: [], message: 'nesting too deep for the call stack', code: 'too-deep' }]);

/**
 * The JSON type of a `lazy` codec (internal: `lazy` builds its type with it). Each level is a level
 * of recursion in io-ts, so each is counted and refused past the limit: validation as a failure at
 * the document path, `is` and `encode` as a thrown {@link JsonError}.
 */
class LazyJsonType<A> extends t.Type<A, unknown, unknown> {
  readonly _tag = 'LazyJsonType' as const;
  constructor(
    name: string,
    readonly resolve: () => t.Type<A, unknown, unknown>,
  ) {
    super(
      name,
      (u): u is A => {
        if (jsonTooDeep()) throw tooDeepError(u);
        return jsonDescend(() => resolve().is(u));
      },
      (u, c) => (jsonTooDeep() ? t.failure(u, c, tooDeepMessage()) : jsonDescend(() => resolve().validate(u, c))),
      (a) => {
        if (jsonTooDeep()) throw tooDeepError(a);
        return jsonDescend(() => resolve().encode(a));
      },
    );
  }
}

/** The JSON type of `lazy(define)`: `resolve` gives the defined codec's type (internal). */
export function lazyJson<A>(name: string, resolve: () => t.Type<A, unknown, unknown>): t.Type<A, unknown, unknown> {
  return new LazyJsonType(name, resolve);
}

/** A type with the `lazy` levels around it looked through (they pass the context on unchanged). */
function resolved(type: t.Decoder<unknown, unknown>): t.Decoder<unknown, unknown> {
  let current = type;
  for (let i = 0; current instanceof LazyJsonType && i < 64; i++) current = current.resolve();
  return current;
}

function isArrayType(type: t.Decoder<unknown, unknown>): boolean {
  const tag = (resolved(type) as { _tag?: string })._tag;
  return tag === 'ArrayType' || tag === 'ReadonlyArrayType' || tag === 'TupleType';
}

/** How much of a value a message shows. */
const PREVIEW_CHARS = 60;

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  const text = jsonPreview(value, PREVIEW_CHARS + 1);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 3)}...` : text;
}

/** What is left to write of a value's preview: text, a value, or the rest of an array or object. */
type PreviewStep =
  | string
  | { readonly value: unknown; readonly inArray: boolean }
  | { readonly array: ArrayLike<unknown>; readonly index: number }
  | {
      readonly object: Record<string, unknown>;
      readonly keys: string[];
      readonly index: number;
      readonly wrote: boolean;
    };

/**
 * The start of a value's JSON text, as `JSON.stringify` writes it, stopping once it has `limit`
 * characters: a work list, not recursion, so the work is bounded by `limit` (and the keys of the
 * objects opened), not by the size or depth of the value. Values JSON cannot hold are written as
 * `String` does (a bigint with `n`).
 */
function jsonPreview(value: unknown, limit: number): string {
  let out = '';
  const todo: PreviewStep[] = [{ value, inArray: false }];
  while (todo.length > 0 && out.length < limit) {
    const step = todo.pop()!;
    if (typeof step === 'string') {
      out += step;
    } else if ('array' in step) {
      if (step.index >= step.array.length) out += ']';
      else {
        if (step.index > 0) out += ',';
        todo.push({ array: step.array, index: step.index + 1 }, { value: step.array[step.index], inArray: true });
      }
    } else if ('object' in step) {
      let index = step.index;
      // Keys whose values JSON leaves out (undefined, functions, symbols) are skipped, as JSON.stringify does.
      while (index < step.keys.length && isOmitted(step.object[step.keys[index]!])) index++;
      if (index >= step.keys.length) out += '}';
      else {
        const key = step.keys[index]!;
        out += `${step.wrote ? ',' : ''}${JSON.stringify(key.slice(0, limit))}:`;
        todo.push(
          { object: step.object, keys: step.keys, index: index + 1, wrote: true },
          { value: step.object[key], inArray: false },
        );
      }
    } else {
      let v = step.value;
      if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
        try {
          v = (v as { toJSON: () => unknown }).toJSON();
        } catch {
          v = String(v);
        }
      }
      if (typeof v === 'string') out += JSON.stringify(v.slice(0, limit));
      else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'null';
      else if (typeof v === 'boolean' || v === null) out += String(v);
      else if (typeof v === 'bigint') out += `${v}n`;
      else if (isOmitted(v)) out += step.inArray ? 'null' : String(v);
      else if (Array.isArray(v)) {
        out += '[';
        todo.push({ array: v, index: 0 });
      } else {
        out += '{';
        const object = v as Record<string, unknown>;
        todo.push({ object, keys: Object.keys(object), index: 0, wrote: false });
      }
    }
  }
  return out;
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * The code of a validation failure: a type's own message is `invalid-value` (a range, a text that
 * does not decode), except the nesting limit's (`too-deep`) and a hole's (`wrong-type`); io-ts's
 * plain mismatch, with no message, is `wrong-type`.
 */
function problemCode(message: string | undefined): ErrorCode {
  if (message === undefined || HOLE.test(message)) return 'wrong-type';
  return TOO_DEEP.test(message) ? 'too-deep' : 'invalid-value';
}
const HOLE = /^the array has no element at \[\d+\] \(a hole/;
const TOO_DEEP = /^nesting (deeper than \d+ levels|too deep)/;

/** Turns io-ts validation errors into {@link JsonProblem}s with readable paths. */
export function reportJsonErrors(errors: t.Errors): JsonProblem[] {
  return errors.map((error) => {
    const path: PathSegment[] = [];
    const context = error.context;
    for (let i = 1; i < context.length; i++) {
      const key = context[i]!.key;
      // Unions and intersections add entries whose key is a member index, not a document key.
      const parent = resolved(context[i - 1]!.type) as { _tag?: string };
      if (parent._tag === 'UnionType' || parent._tag === 'IntersectionType') continue;
      if (key === '') continue;
      path.push(isArrayType(context[i - 1]!.type) && /^\d+$/.test(key) ? Number(key) : key);
    }
    const last = context[context.length - 1];
    const message = error.message ?? `expected ${last?.type.name ?? 'a value'}, got ${describeValue(error.value)}`;
    return { path, message, code: problemCode(error.message) };
  });
}

/**
 * The lossless JSON form of a value (numbers, strings, arrays and plain objects only). Takes a codec,
 * or anything with its `json` type (a save format).
 *
 * @throws {@link JsonError} when recursive codecs nest deeper than `options.maxDepth` (default 512),
 * naming the path of the value where the limit was reached (`too-deep`); when the value is not of the
 * codec's shape (`wrong-type`), naming the deepest part the JSON type's own parts show is wrong; and
 * when its JSON form holds what JSON cannot (NaN, a bigint: `invalid-value`), naming where.
 */
export function toJson<A>(codec: Pick<Codec<A>, 'json'>, value: A, options?: JsonOptions): unknown {
  try {
    return withJsonDepthLimit(options?.maxDepth, () => {
      // io-ts's `encode` trusts its input, so a part of another shape could pass through unseen (a
      // list that is not one written as empty, a number where a name belongs). `is` asks first: under 2%
      // of the encoding on 50 MB saves, and io-ts's own composite types answer it without allocating.
      if (!codec.json.is(value)) throw misfitError(codec.json, value, undefined);
      const json = codec.json.encode(value);
      // What JSON cannot hold (NaN, a bigint) passes many `is` checks (`t.number`, `t.unknown`) and
      // would be lost or refused by JSON.stringify: refused here, where the JSON form holds it.
      const unfit = notJsonData(json);
      if (unfit !== undefined) throw notJsonDataError(json, unfit);
      return json;
    });
  } catch (error) {
    if (error instanceof JsonError) throw placeTooDeep(error, value);
    if (isStackOverflow(error)) throw stackOverflowError();
    // What `is` let through and the encoder ran into: at the part the type's parts show is wrong.
    throw misfitError(codec.json, value, error instanceof Error ? error.message : String(error));
  }
}

/** A part of a JSON form that JSON cannot hold: `key` of `container` (no container: the whole). */
interface NotJsonData {
  readonly container: object | undefined;
  readonly key: PathSegment;
  readonly value: unknown;
}

/**
 * The first part of `json` that is not JSON data (JSON.stringify would lose or refuse it): a number
 * that is not finite, a bigint, a symbol or function, `undefined` in a list, an object that is not a
 * plain one (a typed array, a Map). `undefined` under an object's key is fine: the key is left out,
 * as an absent optional property is. A work list, no recursion; 3–9% of `toJson` on 50 MB saves.
 */
function notJsonData(json: unknown): NotJsonData | undefined {
  const fits = (value: unknown, inList: boolean): boolean => {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return true;
      case 'number':
        return Number.isFinite(value);
      case 'undefined':
        return !inList;
      case 'object':
        return value === null || Array.isArray(value) || isPlainData(value);
      default:
        return false;
    }
  };
  if (!fits(json, true)) return { container: undefined, key: '', value: json };
  const work: unknown[] = [json];
  while (work.length > 0) {
    const node = work.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (!fits(item, true)) return { container: node, key: i, value: item };
        if (typeof item === 'object' && item !== null) work.push(item);
      }
    } else {
      for (const key in node) {
        const item = (node as Record<string, unknown>)[key];
        if (!fits(item, false)) return { container: node, key, value: item };
        if (typeof item === 'object' && item !== null) work.push(item);
      }
    }
  }
  return undefined;
}

/** An object JSON writes as its own properties: one of `Object`'s, or with no prototype. */
function isPlainData(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The JsonError of a part {@link notJsonData} found, at its path in the JSON form (the document's). */
function notJsonDataError(json: unknown, unfit: NotJsonData): JsonError {
  const at = unfit.container === undefined ? [] : [...(findPath(json, unfit.container) ?? []), unfit.key];
  const value = unfit.value;
  const what =
    typeof value === 'number'
      ? `${value}, which JSON writes as null`
      : value === undefined
        ? 'undefined in a list, which JSON writes as null'
        : typeof value === 'bigint'
          ? `${value}n, a bigint, which JSON cannot write`
          : typeof value === 'object' && value !== null
            ? `a ${value.constructor?.name ?? 'non-plain object'}, which JSON would not write as it is`
            : `a ${typeof value}, which JSON cannot write`;
  return new JsonError([{ path: at, message: `not JSON data: ${what}`, code: 'invalid-value' }]);
}

/** A value as a message shows it; one whose reading throws (a Proxy's trap) is said to. */
function shown(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return 'a value whose reading throws';
  }
}

/** Longest type name a message quotes whole (a format's root type can be named in thousands of characters). */
const TYPE_NAME_CHARS = 80;

/**
 * The JsonError of a value not of `type`'s shape: at the deepest part {@link misfitOf} finds, naming
 * the type expected there, and `reason` (what the encoder ran into) or else the part's value.
 */
function misfitError(type: t.Mixed, value: unknown, reason: string | undefined): JsonError {
  const misfit = misfitOf(type, value);
  const name = misfit.type.name;
  const expected = name.length > TYPE_NAME_CHARS ? `${name.slice(0, TYPE_NAME_CHARS - 1)}…` : name;
  const message = `not ${expected}: ${reason ?? (misfit.hole !== undefined ? holeMessage(misfit.hole) : `got ${shown(misfit.value)}`)}`;
  return new JsonError([{ path: misfit.path, message, code: 'wrong-type' }]);
}

/** Most steps {@link misfitOf} takes down a value (each is one level: it never recurses). */
const MISFIT_STEPS = 10_000;

/**
 * Where `value` is not of `type`'s shape: from the root down, through the parts io-ts types declare
 * (an interface's or partial's properties, an array's elements and holes, a record's values, an
 * intersection's members, refinements, read-only and exact wrappers, lazy types, the member of a union
 * the value was meant for, and the parts a {@link NamesMisfitPart} type names: structs, name records,
 * formats' own document types), the deepest part whose type's `is` refuses it; the root when no part
 * is found. One path down, in a loop.
 */
function misfitOf(root: t.Mixed, value: unknown): Misfit {
  const walk = { path: [] as PathSegment[], type: root, value };
  try {
    return misfitFrom(walk);
  } catch {
    // A part whose reading throws (a Proxy's trap, a getter): the walk stops where it had got to.
    return walk;
  }
}

/** Where {@link misfitOf} found a part not of its type (`hole`: the index of a missing element). */
interface Misfit {
  readonly path: PathSegment[];
  readonly type: t.Mixed;
  readonly value: unknown;
  readonly hole?: number;
}

/** {@link misfitOf}'s walk, moving `walk` down as it goes (so a throw leaves it where the walk got to). */
function misfitFrom(walk: { path: PathSegment[]; type: t.Mixed; value: unknown }): Misfit {
  const path = walk.path;
  for (let step = 0; step < MISFIT_STEPS; step++) {
    const type = walk.type;
    const at = walk.value;
    const current = resolved(type) as t.Mixed & Partial<MisfitParts>;
    if (namesMisfitPart(current)) {
      const part = current.misfitPart(at);
      // A part that is the value itself as the same type again would not get anywhere.
      if (part === undefined || (part.key === undefined && part.type === current)) return walk;
      if (part.key !== undefined) path.push(part.key);
      walk.type = part.type;
      walk.value = part.value;
      continue;
    }
    switch (current._tag) {
      case 'RefinementType':
        // What the base type takes and the refinement does not (a float where an integer belongs) is
        // the refinement's misfit.
        if (!refuses(current.type!, at)) return walk;
        walk.type = current.type!;
        continue;
      case 'ReadonlyType':
      case 'ExactType':
      case 'StrictType':
      case 'RecursiveType':
        walk.type = current.type!;
        continue;
      case 'IntersectionType': {
        const member = current.types!.find((m) => refuses(m, at));
        if (member === undefined) return walk;
        walk.type = member;
        continue;
      }
      case 'InterfaceType':
      case 'PartialType': {
        // A list where an object belongs is the misfit itself (not its missing first property).
        if (typeof at !== 'object' || at === null || Array.isArray(at)) return walk;
        const record = at as Record<string, unknown>;
        const key = Object.keys(current.props!).find((k) => {
          const v = record[k];
          return !(current._tag === 'PartialType' && v === undefined) && refuses(current.props![k]!, v);
        });
        if (key === undefined) return walk;
        const part = record[key];
        path.push(key);
        walk.type = current.props![key]!;
        walk.value = part;
        continue;
      }
      case 'ArrayType':
      case 'ReadonlyArrayType': {
        if (!Array.isArray(at)) return walk;
        const item = current.type!;
        let found = -1;
        for (let i = 0; i < at.length && found < 0; i++) if (!(i in at) || refuses(item, at[i])) found = i;
        if (found < 0) return walk;
        path.push(found);
        if (!(found in at)) return { path, type: item, value: undefined, hole: found };
        const element = at[found];
        walk.type = item;
        walk.value = element;
        continue;
      }
      case 'UnionType': {
        const member = intendedMember(current.types!, at);
        if (member === undefined || !refuses(member, at)) return walk;
        walk.type = member;
        continue;
      }
      case 'DictionaryType': {
        if (typeof at !== 'object' || at === null || Array.isArray(at)) return walk;
        const record = at as Record<string, unknown>;
        const key = Object.keys(record).find((k) => refuses(current.codomain!, record[k]));
        if (key === undefined) return walk;
        const part = record[key];
        path.push(key);
        walk.type = current.codomain!;
        walk.value = part;
        continue;
      }
      default:
        return walk;
    }
  }
  return walk;
}

/** Whether `type` refuses `value`, reading whose parts throws counted as refusing (the walk goes down to it). */
function refuses(type: t.Mixed, value: unknown): boolean {
  try {
    return !type.is(value);
  } catch {
    return true;
  }
}

/**
 * A part of a value and the JSON type it should have had (see {@link NamesMisfitPart}): under `key`,
 * or, without one, the same value seen as another type (the member of a switch it was meant for).
 */
export interface MisfitPart {
  /** The property or index the part is under; absent: the value itself, as `type`. */
  readonly key?: PathSegment;
  /** The JSON type the part should be of. */
  readonly type: t.Mixed;
  /** The part. */
  readonly value: unknown;
}

/**
 * A JSON type of your own that `toJson` can look into. io-ts's interfaces, arrays, records, unions and
 * intersections and the core's structs and name records are looked into already; a `new t.Type` is
 * opaque, so a value it refuses (or whose encoding throws) is blamed on the whole. Giving the type a
 * `misfitPart` method lets `toJson` name the part instead: return the first part of `value` whose
 * type refuses it (or the member of a switch the value was meant for), or undefined when there is none.
 *
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { toJson } from '@savekit/core';
 * import type { MisfitPart, NamesMisfitPart } from '@savekit/core/kit';
 * class Pair extends t.Type<[string, number]> implements NamesMisfitPart {
 *   constructor() {
 *     super('Pair', (u): u is [string, number] => Array.isArray(u) && typeof u[0] === 'string' && typeof u[1] === 'number',
 *       (u, c) => (this.is(u) ? t.success(u) : t.failure(u, c)), t.identity);
 *   }
 *   misfitPart(value: unknown): MisfitPart | undefined {
 *     if (!Array.isArray(value)) return undefined;
 *     if (typeof value[0] !== 'string') return { key: 0, type: t.string, value: value[0] };
 *     if (typeof value[1] !== 'number') return { key: 1, type: t.number, value: value[1] };
 *     return undefined;
 *   }
 * }
 * toJson({ json: new Pair() }, ['a', 'b'] as never); // throws a JsonError at [1]: not number: got "b"
 * ```
 */
export interface NamesMisfitPart {
  /** The first part of `value` not of its type, or undefined. */
  misfitPart(value: unknown): MisfitPart | undefined;
}

function namesMisfitPart(type: unknown): type is NamesMisfitPart {
  return typeof (type as Partial<NamesMisfitPart>).misfitPart === 'function';
}

/**
 * The member of a union that `value` was meant to be: the first whose literal properties (a tag such
 * as `kind: "disk"`, through intersections and wrappers) it has; else the only member of its kind
 * (list or object). Undefined when the value does not say.
 */
function intendedMember(union: ReadonlyArray<t.Mixed>, value: unknown): t.Mixed | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // A union of unions is one union of their members.
  const members: t.Mixed[] = [];
  const work = [...union].reverse();
  for (let guard = 0; work.length > 0 && guard < 1024; guard++) {
    const member = work.pop()!;
    const inner = resolved(member) as t.Mixed & Partial<MisfitParts>;
    if (inner._tag === 'UnionType') work.push(...[...inner.types!].reverse());
    else members.push(member);
  }
  const record = value as Record<string, unknown>;
  const tagged = members.find((member) => {
    const tags = literalProps(member);
    return tags.length > 0 && tags.every(([key, literal]) => record[key] === literal);
  });
  if (tagged !== undefined) return tagged;
  const list = Array.isArray(value);
  const sameKind = members.filter((member) => {
    const tag = (resolved(member) as { _tag?: string })._tag;
    return list
      ? isArrayType(member)
      : (tag !== undefined && OBJECT_TAGS.has(tag)) || namesMisfitPart(resolved(member));
  });
  return sameKind.length === 1 ? sameKind[0] : undefined;
}

/** The tags of io-ts types whose values are objects with named properties. */
const OBJECT_TAGS = new Set([
  'InterfaceType',
  'PartialType',
  'IntersectionType',
  'ExactType',
  'StrictType',
  'DictionaryType',
]);

/** The properties of `type` (an interface, through intersections and wrappers) whose type is a literal. */
function literalProps(type: t.Mixed): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const work: t.Mixed[] = [type];
  for (let guard = 0; work.length > 0 && guard < 256; guard++) {
    const current = resolved(work.pop()!) as t.Mixed & Partial<MisfitParts>;
    switch (current._tag) {
      case 'RefinementType':
      case 'ReadonlyType':
      case 'ExactType':
      case 'StrictType':
        work.push(current.type!);
        break;
      case 'IntersectionType':
        work.push(...current.types!);
        break;
      case 'InterfaceType':
        for (const [key, prop] of Object.entries(current.props!)) {
          const p = resolved(prop) as { _tag?: string; value?: unknown };
          if (p._tag === 'LiteralType') out.push([key, p.value]);
        }
        break;
    }
  }
  return out;
}

/** The parts of io-ts's composite types that {@link misfitOf} descends through. */
interface MisfitParts {
  readonly _tag: string;
  readonly type: t.Mixed;
  readonly types: ReadonlyArray<t.Mixed>;
  readonly props: Readonly<Record<string, t.Mixed>>;
  readonly codomain: t.Mixed;
}

/**
 * Reads a value back from its JSON form, validated by the io-ts type of the codec (or of anything with
 * a `json` type, such as a save format). A document in which
 * recursive codecs (`lazy`) nest deeper than `options.maxDepth` (default 512) is a {@link JsonError}
 * at the path where the limit was reached, found before the call stack runs out.
 */
export function fromJson<A>(
  codec: Pick<Codec<A>, 'json'>,
  json: unknown,
  options?: JsonOptions,
): E.Either<JsonError, A> {
  let result: t.Validation<A>;
  try {
    result = withJsonDepthLimit(options?.maxDepth, () => codec.json.decode(json));
  } catch (error) {
    if (error instanceof JsonError) return E.left(placeTooDeep(error, json));
    if (isStackOverflow(error)) return E.left(stackOverflowError());
    throw error;
  }
  return E.isLeft(result) ? E.left(new JsonError(reportJsonErrors(result.left))) : E.right(result.right);
}

/**
 * A record keyed by names that are data (file names, actor ids, table names): an object with no
 * prototype, so `__proto__`, `constructor`, `prototype` and `hasOwnProperty` are ordinary keys —
 * `record['__proto__'] = v` stores an own property, and looking up a name that is not there gives
 * `undefined`, never an `Object.prototype` member. Built from `entries` when given (later entries
 * win).
 */
export function nameRecord<A>(entries: Iterable<readonly [string, A]> = []): Record<string, A> {
  const out = Object.create(null) as Record<string, A>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

const isPlainRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && !(u instanceof Uint8Array);

/**
 * The JSON form of a {@link nameRecord}: an object whose keys are names (any string, `__proto__`
 * included) and whose values are `codomain`'s. Unlike io-ts's `t.record`, which assigns into `{}`
 * (so a `__proto__` key sets the prototype and vanishes), both directions keep every own key as an
 * own key: decoding gives a null-prototype record, encoding a null-prototype JSON object
 * (`JSON.stringify` writes it like any other).
 */
export function jsonRecord<A, O>(
  codomain: t.Type<A, O, unknown>,
  name = `{ [name: string]: ${codomain.name} }`,
): t.Type<Record<string, A>, Record<string, O>, unknown> {
  return new NameRecordType(name, codomain);
}

/** {@link jsonRecord}'s type: it names the value `toJson` finds a misfit under. */
class NameRecordType<A, O> extends t.Type<Record<string, A>, Record<string, O>, unknown> implements NamesMisfitPart {
  constructor(
    name: string,
    readonly codomain: t.Type<A, O, unknown>,
  ) {
    super(
      name,
      (u): u is Record<string, A> => isPlainRecord(u) && this.misfitPart(u) === undefined,
      (u, c) => {
        if (!isPlainRecord(u)) return t.failure(u, c, 'expected an object of names');
        const out = nameRecord<A>();
        const errors: t.ValidationError[] = [];
        for (const key of Object.keys(u)) {
          const value = u[key];
          const result = codomain.validate(value, [...c, { key, type: codomain, actual: value }]);
          if (result._tag === 'Left') errors.push(...result.left);
          else out[key] = result.right;
        }
        return errors.length > 0 ? t.failures(errors) : t.success(out);
      },
      (a) => {
        if (!isPlainRecord(a)) throw new TypeError(`expected an object of names, got ${describeValue(a)}`);
        const out = nameRecord<O>();
        for (const key of Object.keys(a)) out[key] = codomain.encode(a[key]!);
        return out;
      },
    );
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    if (!isPlainRecord(value)) return undefined;
    const key = Object.keys(value).find((k) => !this.codomain.is(value[k]));
    return key === undefined ? undefined : { key, type: this.codomain, value: value[key] };
  }
}
