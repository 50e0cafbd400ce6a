/**
 * The ways a command fails, with their exit codes.
 *
 * @module
 */
import { type DecodeError, type EncodeError, JsonError } from '@savekit/core';
import { showName } from './show.js';

/** A mistake in how the command was called (exit code 2): unknown command, missing file, bad option. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

/** A save that is invalid, differs or cannot be written (exit code 1). */
export class SaveFailure extends Error {
  override readonly name: string = 'SaveFailure';
  readonly exitCode = 1;

  constructor(
    /** The save (or JSON document) concerned. */
    readonly file: string,
    /** What went wrong: a typed error keeps its path and offset. */
    readonly detail: DecodeError | EncodeError | JsonError | string,
  ) {
    // One line per problem (a JsonError has several), each naming the file and, as a decode or encode
    // error does, starting with its code; the file name and whatever came from the save (entry names
    // in paths, a format's message) printed safely.
    const lines =
      typeof detail === 'string'
        ? [detail]
        : detail instanceof JsonError && detail.problems.length > 0
          ? detail.problems.map((problem) => `[${problem.code}] ${new JsonError([problem]).toString()}`)
          : [detail instanceof JsonError ? detail.toString() : describeError(detail)];
    super(lines.map((line) => `${showName(file)}: ${showName(line)}`).join('\n'));
  }
}

/**
 * A decode or encode error as one line with its code first, so scripts can branch on the kind of
 * failure: `[short-read] at header.version (offset 12): expected 4 bytes, 2 left`.
 */
export function describeError(error: DecodeError | EncodeError): string {
  return `[${error.code}] ${error.toString()}`;
}

/**
 * A file (or folder) that no registered format recognises (exit code 1). `verify` walking a folder
 * skips such files (a README next to the saves is not a broken save); named on its own it is an error.
 */
export class UnrecognisedSave extends SaveFailure {
  override readonly name: string = 'UnrecognisedSave';
}
