/**
 * Errors and warnings of decoding and encoding: every one names the field path, the byte offset and a
 * stable code.
 *
 * @module
 */

/**
 * A note on a path that is not a step into the document: a byte layer the value was read through
 * (`<lzo1x>`), the offset a pointer's target was found at (`<@44>`), a framing field the document does
 * not hold (a chunk's `<length>`, a checksum's `<crc32>`). {@link formatPath} prints it in angle brackets;
 * tools that resolve a path in the decoded document skip it ({@link documentPath}).
 */
export interface PathAnnotation {
  /** The text printed between the angle brackets. */
  readonly annotation: string;
}

/**
 * One step of a field path: a struct field or array index of the decoded document (as `toJson` shows
 * it), or a {@link PathAnnotation} that names a layer, a pointer offset or a framing field.
 */
export type PathSegment = string | number | PathAnnotation;

/** A field path such as `chunks[0].body.Vari[3].value`, outermost first. */
export type Path = ReadonlyArray<PathSegment>;

/** An annotation segment (see {@link PathAnnotation}). */
export function pathAnnotation(annotation: string): PathAnnotation {
  return { annotation };
}

/** Whether a path segment is an annotation rather than a key or index of the document. */
export function isPathAnnotation(segment: PathSegment): segment is PathAnnotation {
  return typeof segment === 'object' && segment !== null;
}

/**
 * The document part of a path: its keys and indexes, without annotations — what resolves in
 * `toJson(value)`.
 *
 * @example
 * ```ts
 * documentPath(['chunks', 2, 'body', pathAnnotation('lzo1x'), 'elements']); // ['chunks', 2, 'body', 'elements']
 * ```
 */
export function documentPath(path: Path): Array<string | number> {
  const out: Array<string | number> = [];
  for (const segment of path) if (!isPathAnnotation(segment)) out.push(segment);
  return out;
}

/**
 * Formats a field path the way error messages print it: names joined by dots, indexes in brackets,
 * annotations in angle brackets (consecutive ones together).
 *
 * @example
 * ```ts
 * formatPath(['Glob', 'Vari', 3, 'value']); // 'Glob.Vari[3].value'
 * formatPath(['chunks', 2, 'body', pathAnnotation('lzo1x'), pathAnnotation('xor'), 'elements', 0]);
 * // 'chunks[2].body <lzo1x, xor> .elements[0]'
 * formatPath([]); // '(root)'
 * ```
 */
export function formatPath(path: Path): string {
  let out = '';
  let notes: string[] = [];
  for (const segment of path) {
    if (isPathAnnotation(segment)) {
      notes.push(segment.annotation);
      continue;
    }
    if (notes.length > 0) {
      out += `${out === '' ? '' : ' '}<${notes.join(', ')}> `;
      notes = [];
      out += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
    } else if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  if (notes.length > 0) out += `${out === '' ? '' : ' '}<${notes.join(', ')}>`;
  return out === '' ? '(root)' : out;
}

/**
 * What went wrong, as a stable machine-readable code: branch on it instead of the message text. Each
 * decode or encode error carries exactly one (see the table in the errors guide).
 *
 * - `short-read` — the bytes end before a value does: a truncated file, a length that runs past its
 *   window, a missing terminator.
 * - `count-too-large` — a count or length read from the file is more than the bytes left or a limit
 *   allows (elements that cannot fit, a decoded length over the per-layer limit).
 * - `bad-magic` — a fixed value (magic, literal, chunk marker, end marker) is something else.
 * - `unknown-tag` — a union tag or discriminator no codec is declared for.
 * - `checksum-mismatch` — a stored checksum disagrees with the data (see `DecodeOptions.checksums`).
 * - `budget-exceeded` — the decode's work, output or allocation budget ran out (a `BudgetError`).
 * - `too-deep` — nesting past `maxDepth`, or past what the call stack holds.
 * - `layer-failed` — a byte layer (decompressor, cipher) failed or produced the wrong amount.
 * - `invalid-text` — text not valid in its encoding, or a character the encoding lacks.
 * - `out-of-range` — a number does not fit its type (or a float is not exactly representable).
 * - `size-mismatch` — a recorded or fixed size disagrees with the content: a chunk's length and its
 *   body, a fixed count and the array given, bytes written into a sized field.
 * - `trailing-bytes` — bytes left unread after a value that must use its window whole.
 * - `bad-pointer` — a pointer or reference that points nowhere valid: outside its arena, into the root,
 *   around a cycle, into an unknown array.
 * - `wrong-type` — (encoding) the value is not of the shape the codec writes.
 * - `out-of-memory` — the engine could not allocate what a valid decode or encode needed.
 * - `invalid-value` — anything else: a value the codec refuses for a reason of its own (a mapping
 *   refused it, a definition is malformed, a value that could not be written back unchanged). The code
 *   of `reader.error(message)` and `writer.error(message)` without one.
 */
export type ErrorCode =
  | 'short-read'
  | 'count-too-large'
  | 'bad-magic'
  | 'unknown-tag'
  | 'checksum-mismatch'
  | 'budget-exceeded'
  | 'too-deep'
  | 'layer-failed'
  | 'invalid-text'
  | 'out-of-range'
  | 'size-mismatch'
  | 'trailing-bytes'
  | 'bad-pointer'
  | 'wrong-type'
  | 'out-of-memory'
  | 'invalid-value';

/** Every {@link ErrorCode}, in the order of the guide's table (for tools that list or validate them). */
export const ERROR_CODES: ReadonlyArray<ErrorCode> = [
  'short-read',
  'count-too-large',
  'bad-magic',
  'unknown-tag',
  'checksum-mismatch',
  'budget-exceeded',
  'too-deep',
  'layer-failed',
  'invalid-text',
  'out-of-range',
  'size-mismatch',
  'trailing-bytes',
  'bad-pointer',
  'wrong-type',
  'out-of-memory',
  'invalid-value',
];

/** Whether `value` is one of the {@link ErrorCode}s. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as ReadonlyArray<string>).includes(value);
}

abstract class SavekitError extends Error {
  /** Where in the value the problem is, outermost first (a document path with annotations). */
  readonly path: Path;
  /** Byte offset in the buffer being read or written (inside a transform layer: in its output). */
  readonly offset: number;
  /** What kind of failure it is (see {@link ErrorCode}). */
  readonly code: ErrorCode;

  constructor(path: Path, offset: number, message: string, code: ErrorCode = 'invalid-value') {
    super(message);
    this.path = path;
    this.offset = offset;
    this.code = code;
  }

  /** One readable line: `at header.version (offset 12): expected 4 bytes, 2 left`. */
  override toString(): string {
    return `at ${formatPath(this.path)} (offset ${this.offset}): ${this.message}`;
  }
}

/**
 * Decoding failed: the bytes do not fit the codec. `path` and `offset` say where, `code` what kind of
 * failure; `message` says what was expected and what was found.
 */
export class DecodeError extends SavekitError {
  override readonly name = 'DecodeError';

  /**
   * The same error under `prefix` (for a decode nested in a larger document: a file of a save
   * folder), keeping its code and offset.
   */
  within(prefix: Path): DecodeError {
    return new DecodeError([...prefix, ...this.path], this.offset, this.message, this.code);
  }
}

/**
 * Encoding failed: the value does not fit the codec (out of range, a character the encoding lacks, an
 * array of the wrong length, …). `offset` is where the writer stood when the problem was found.
 */
export class EncodeError extends SavekitError {
  override readonly name = 'EncodeError';

  /** The same error under `prefix`, keeping its code and offset (see {@link DecodeError.within}). */
  within(prefix: Path): EncodeError {
    return new EncodeError([...prefix, ...this.path], this.offset, this.message, this.code);
  }
}

/**
 * Thrown by a function of a format's own — a `map`'s `encode` or `decode`, a `rebuild`'s computation —
 * to refuse the value for one part of it: the {@link EncodeError} or {@link DecodeError} it becomes names
 * the value's path followed by `at` (`['objects']`, `['chunks', 3]`), so the error points at the part
 * that is wrong, as the document names it, rather than at the field being computed. Anything else such
 * a function throws is reported at the value's own path.
 *
 * @example
 * ```ts
 * import { FieldError, rebuild, struct, u8, u32le, array } from '@savekit/core';
 * const list = struct({
 *   count: rebuild(u32le, (p: { items: unknown }) => {
 *     if (!Array.isArray(p.items)) throw new FieldError(['items'], 'expected a list', 'wrong-type');
 *     return p.items.length;
 *   }),
 *   items: (p: { count: number }) => array(u8, p.count),
 * });
 * // encode(list, { items: 7 }): an EncodeError at `items`, code `wrong-type`
 * ```
 */
export class FieldError extends Error {
  override readonly name = 'FieldError';

  constructor(
    /** The part refused, relative to the value the function was given. */
    readonly at: Path,
    message: string,
    /** The code of the error it becomes. */
    readonly code: ErrorCode = 'invalid-value',
  ) {
    super(message);
  }
}

/**
 * The codes of the warnings the core emits: `checksum-mismatch` (a stored checksum disagrees with the
 * data and checksums are set to warn) and `warnings-dropped` (more warnings than
 * `DecodeOptions.maxWarnings`: the last warning, at the root, counts those left out). Format packages add their own (EDGE's `unknown-field`, …), so a
 * {@link Warning}'s code is any string; these are the ones every format shares.
 */
export type WarningCode = 'checksum-mismatch' | 'warnings-dropped';

/**
 * Something decoding tolerated but the caller should know about: a checksum mismatch when checksums
 * are set to warn, a field an older schema did not know, and so on.
 */
export interface Warning {
  /** A stable identifier for the kind of warning: a {@link WarningCode}, or a format's own. */
  readonly code: WarningCode | (string & {});
  /** Field path of the value the warning is about. */
  readonly path: Path;
  /** Byte offset the warning is about. */
  readonly offset: number;
  /** A readable sentence. */
  readonly message: string;
}

/**
 * A short description of any value for an error message: strings quoted (cut at 80 characters),
 * numbers, booleans and null as written, bigints with `n`, anything else by its kind (`an array of 3`,
 * `{}` for an object with no keys): describing a value never throws, and costs nothing however large
 * the value (a whole document given where a number goes is not serialised for the message).
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string': {
      const text = JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}…` : value);
      return text;
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
    case 'function':
      return `a ${typeof value}`;
  }
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return `an array of ${value.length}`;
    if (ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? 'typed array'} of ${value.byteLength} bytes`;
    for (const _ in value as object) return 'an object';
    return '{}';
  } catch {
    return 'an object'; // a Proxy whose traps throw
  }
}

/** Formats a warning as one line, like {@link DecodeError.toString}. */
export function formatWarning(warning: Warning): string {
  return `warning at ${formatPath(warning.path)} (offset ${warning.offset}): ${warning.message}`;
}

/**
 * The arguments of a reader's or writer's `error`: `(message, offset?)`, or `(code, message,
 * offset?)` to give the error an {@link ErrorCode} (without one it is `invalid-value`). The offset
 * defaults to the current position.
 */
export type ErrorArgs =
  | [message: string, offset?: number | undefined]
  | [code: ErrorCode, message: string, offset?: number | undefined];

/**
 * Makes the error `error(...args)` asks for (see {@link ErrorArgs}): a string second argument means
 * the first is the code. `here` is the offset when none is given.
 *
 * @internal
 */
export function errorOf<E>(
  make: new (path: Path, offset: number, message: string, code: ErrorCode) => E,
  path: Path,
  here: number,
  args: ErrorArgs,
): E {
  const [first, second, third] = args as [string, string | number | undefined, number | undefined];
  return typeof second === 'string'
    ? new make(path, third ?? here, second, first as ErrorCode)
    : new make(path, second ?? here, first, 'invalid-value');
}
