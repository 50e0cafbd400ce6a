/**
 * The ways a command fails, with their exit codes.
 *
 * @module
 */
import type { DecodeError, EncodeError, JsonError } from '@savekit/core';

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
    super(`${file}: ${typeof detail === 'string' ? detail : detail.toString().replace(/\n/g, `\n${file}: `)}`);
  }
}

/**
 * A file (or folder) that no registered format recognises (exit code 1). `verify` walking a folder
 * skips such files (a README next to the saves is not a broken save); named on its own it is an error.
 */
export class UnrecognisedSave extends SaveFailure {
  override readonly name: string = 'UnrecognisedSave';
}
