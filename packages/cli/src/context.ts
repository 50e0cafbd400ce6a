/**
 * What every command gets: the formats, colours, and where to print.
 *
 * @module
 */
import type { FormatRegistry } from '@savekit/core';
import type { Colors } from 'picocolors/types.js';

/** The shared state of one `savekit` run. */
export interface CliContext {
  /** The registered formats. */
  readonly registry: FormatRegistry;
  /** Colours (all no-ops unless stdout is a terminal and --no-color was not given). */
  readonly colors: Colors;
  /** Prints a line to standard output. */
  out(line: string): void;
  /** Writes bytes to standard output as they are (`build` without `-o`). */
  write(bytes: Uint8Array): void;
  /** Whether standard output is a terminal (no binary goes there). */
  readonly stdoutIsTerminal: boolean;
  /** Prints a line to standard error. */
  err(line: string): void;
  /** Whether standard error is a terminal (progress bars go there). */
  readonly interactive: boolean;
  /**
   * The size limit of a save (a file, or a folder's files together) and of a JSON document, in
   * bytes: `--max-size`, else `SAVEKIT_MAX_SIZE`, else 1 GiB. Absent: 1 GiB.
   */
  readonly maxSaveBytes?: number;
}
