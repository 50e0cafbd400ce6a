/**
 * Errors and warnings of decoding and encoding: every one names the field path and the byte offset.
 *
 * @module
 */

/** One step of a field path: a struct field or chunk name, or an array index. */
export type PathSegment = string | number;

/** A field path such as `Glob.Vari[3].value`, outermost first. */
export type Path = ReadonlyArray<PathSegment>;

/**
 * Formats a field path the way error messages print it: names joined by dots, indexes in brackets.
 *
 * @example
 * ```ts
 * formatPath(['Glob', 'Vari', 3, 'value']); // 'Glob.Vari[3].value'
 * formatPath([]); // '(root)'
 * ```
 */
export function formatPath(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(root)' : out;
}

abstract class SavekitError extends Error {
  /** Where in the value the problem is, outermost first. */
  readonly path: Path;
  /** Byte offset in the buffer being read or written (inside a transform layer: in its output). */
  readonly offset: number;

  constructor(path: Path, offset: number, message: string) {
    super(message);
    this.path = path;
    this.offset = offset;
  }

  /** One readable line: `at header.version (offset 12): expected 4 bytes, 2 left`. */
  override toString(): string {
    return `at ${formatPath(this.path)} (offset ${this.offset}): ${this.message}`;
  }
}

/**
 * Decoding failed: the bytes do not fit the codec. `path` and `offset` say where; `message` says what
 * was expected and what was found.
 */
export class DecodeError extends SavekitError {
  override readonly name = 'DecodeError';
}

/**
 * Encoding failed: the value does not fit the codec (out of range, a character the encoding lacks, an
 * array of the wrong length, …). `offset` is where the writer stood when the problem was found.
 */
export class EncodeError extends SavekitError {
  override readonly name = 'EncodeError';
}

/**
 * Something decoding tolerated but the caller should know about: a checksum mismatch when checksums
 * are set to warn, a field an older schema did not know, and so on.
 */
export interface Warning {
  /** A stable identifier for the kind of warning, such as `checksum-mismatch`. */
  readonly code: string;
  /** Field path of the value the warning is about. */
  readonly path: Path;
  /** Byte offset the warning is about. */
  readonly offset: number;
  /** A readable sentence. */
  readonly message: string;
}

/** Formats a warning as one line, like {@link DecodeError.toString}. */
export function formatWarning(warning: Warning): string {
  return `warning at ${formatPath(warning.path)} (offset ${warning.offset}): ${warning.message}`;
}
