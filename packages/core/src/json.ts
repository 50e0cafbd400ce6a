/**
 * Lossless JSON: the io-ts types of the JSON forms codecs use (integers with their range, bigint as
 * decimal strings, bytes as hex, floats exact including -0, NaN and infinities), and
 * `toJson` / `fromJson` over any codec.
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { formatPath, type Path, type PathSegment } from './errors.js';
import type { Codec } from './codec.js';

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

const HEX_DIGITS = '0123456789abcdef';

/** Lower-case hex of bytes, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  }
  return out;
}

/** Parses hex (either case, even length) into bytes, or `undefined` if it is not hex. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
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

/** One problem found while validating a JSON document against a codec's type. */
export interface JsonProblem {
  /** Where in the document, outermost first. */
  readonly path: Path;
  /** What was wrong. */
  readonly message: string;
}

/** A JSON document does not fit a codec's type. Lists every problem io-ts found, each with its path. */
export class JsonError extends Error {
  override readonly name = 'JsonError';
  /** The problems, each with a path. */
  readonly problems: ReadonlyArray<JsonProblem>;

  constructor(problems: ReadonlyArray<JsonProblem>) {
    super(problems.map((p) => `at ${formatPath(p.path)}: ${p.message}`).join('; '));
    this.problems = problems;
  }

  /** One line per problem. */
  override toString(): string {
    return this.problems.map((p) => `at ${formatPath(p.path)}: ${p.message}`).join('\n');
  }
}

function isArrayType(type: t.Decoder<unknown, unknown>): boolean {
  const tag = (type as { _tag?: string })._tag;
  return tag === 'ArrayType' || tag === 'ReadonlyArrayType' || tag === 'TupleType';
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(value);
  }
}

/** Turns io-ts validation errors into {@link JsonProblem}s with readable paths. */
export function reportJsonErrors(errors: t.Errors): JsonProblem[] {
  return errors.map((error) => {
    const path: PathSegment[] = [];
    const context = error.context;
    for (let i = 1; i < context.length; i++) {
      const key = context[i]!.key;
      // Unions and intersections add entries whose key is a member index, not a document key.
      const parent = context[i - 1]!.type as { _tag?: string };
      if (parent._tag === 'UnionType' || parent._tag === 'IntersectionType') continue;
      if (key === '') continue;
      path.push(isArrayType(context[i - 1]!.type) && /^\d+$/.test(key) ? Number(key) : key);
    }
    const last = context[context.length - 1];
    const message = error.message ?? `expected ${last?.type.name ?? 'a value'}, got ${describeValue(error.value)}`;
    return { path, message };
  });
}

/** The lossless JSON form of a value (numbers, strings, arrays and plain objects only). */
export function toJson<A>(codec: Codec<A>, value: A): unknown {
  return codec.json.encode(value);
}

/** Reads a value back from its JSON form, validated by the codec's io-ts type. */
export function fromJson<A>(codec: Codec<A>, json: unknown): E.Either<JsonError, A> {
  const result = codec.json.decode(json);
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
  return new t.Type<Record<string, A>, Record<string, O>, unknown>(
    name,
    (u): u is Record<string, A> => isPlainRecord(u) && Object.keys(u).every((k) => codomain.is(u[k])),
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
      const out = nameRecord<O>();
      for (const key of Object.keys(a)) out[key] = codomain.encode(a[key]!);
      return out;
    },
  );
}
