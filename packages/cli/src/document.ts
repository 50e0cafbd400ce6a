/**
 * What every command does first: pick the format, decode the save; and the JSON envelope that
 * `dump` writes and `build` reads.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  fromJson,
  JsonError,
  type AnySaveFormat,
  type Decoded,
  type DecodeOptions,
  type FormatRegistry,
  formatWarning,
  type SaveInput,
  type Warning,
} from '@savekit/core';
import type { CliContext } from './context.js';
import { SaveFailure, UnrecognisedSave, UsageError } from './errors.js';
import { isDirectory, readSave } from './io.js';
import { parseJsonInParts } from './json-parts.js';
import { showName } from './show.js';

/** The format to use for a save: the one named, or the likeliest claimant. */
export function chooseFormat(registry: FormatRegistry, input: SaveInput, file: string, id?: string): AnySaveFormat {
  if (id !== undefined) {
    const format = registry.get(id);
    if (format === undefined) {
      throw new UsageError(
        `unknown format ${JSON.stringify(id)} (known: ${
          registry
            .list()
            .map((f) => f.id)
            .join(', ') || 'none'
        })`,
      );
    }
    return format;
  }
  const found = registry.detect(input, file);
  if (found === undefined) {
    const known =
      registry
        .list()
        .map((f) => f.id)
        .join(', ') || 'none registered; use --plugin';
    throw new UnrecognisedSave(
      file,
      `no registered format recognises this ${isDirectory(file) ? 'folder' : 'file'} (formats: ${known})`,
    );
  }
  return found;
}

/** What `--ignore-checksums` asks of every format: checksum mismatches as warnings (the core's policy). */
export interface ChecksumOptions {
  readonly ignoreChecksums?: boolean;
}

/** The decode options of a command's `--ignore-checksums`. */
export function checksumOptions(options: ChecksumOptions): DecodeOptions | undefined {
  return options.ignoreChecksums ? { checksums: 'warn' } : undefined;
}

/** The checksum mismatches among a decode's warnings. */
export function checksumWarnings(warnings: ReadonlyArray<Warning>): Warning[] {
  return warnings.filter((w) => w.code === 'checksum-mismatch');
}

/** Decodes a save with a format; a DecodeError becomes a failure naming the file. */
export function decodeSave(
  format: AnySaveFormat,
  input: SaveInput,
  file: string,
  options?: DecodeOptions,
): Decoded<unknown> {
  let result: ReturnType<AnySaveFormat['decode']>;
  try {
    result = format.decode(input, options);
  } catch (error) {
    // A format must return its errors; one that throws has a bug, but the user still gets a line.
    throw new SaveFailure(
      file,
      `format ${format.id} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (E.isLeft(result)) throw new SaveFailure(file, result.left);
  return result.right;
}

/** What a command that reads a save is told: the format (instead of sniffing) and `--ignore-checksums`. */
export interface SaveOptions extends ChecksumOptions {
  readonly format?: string;
}

/** A save as a command opens it: its bytes (or files), its format and its decoded document. */
export interface OpenedSave {
  readonly input: SaveInput;
  readonly format: AnySaveFormat;
  readonly decoded: Decoded<unknown>;
}

/** Reads a save, picks its format and decodes it as the options say (a failure names the file). */
export function openSave(ctx: CliContext, file: string, options: SaveOptions): OpenedSave {
  const input = readSave(file, ctx.maxSaveBytes);
  const format = chooseFormat(ctx.registry, input, file, options.format);
  return { input, format, decoded: decodeSave(format, input, file, checksumOptions(options)) };
}

/** Prints a decode's warnings to standard error, one line each naming the file. */
export function printWarnings(ctx: CliContext, file: string, warnings: ReadonlyArray<Warning>): void {
  for (const warning of warnings)
    ctx.err(`savekit: ${showName(file)}: [${warning.code}] ${showName(formatWarning(warning))}`);
}

/** Encodes a document with a format. */
export function encodeSave(format: AnySaveFormat, doc: unknown, file: string): SaveInput {
  let result: ReturnType<AnySaveFormat['encode']>;
  try {
    result = format.encode(doc);
  } catch (error) {
    throw new SaveFailure(
      file,
      `format ${format.id} failed to encode: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (E.isLeft(result)) throw new SaveFailure(file, result.left);
  return result.right;
}

/** The JSON file `dump` writes: which format, which envelope version, the lossless document. */
export interface Envelope {
  readonly savekit: 1;
  readonly format: string;
  readonly document: unknown;
}

/** A document as its JSON envelope. */
export function toEnvelope(format: AnySaveFormat, doc: unknown): Envelope {
  return { savekit: 1, format: format.id, document: format.json.encode(doc) };
}

/** Reads an envelope back: its format, and the document validated by the format's io-ts type. */
export function fromEnvelope(
  registry: FormatRegistry,
  json: unknown,
  file: string,
): { format: AnySaveFormat; doc: unknown } {
  if (
    typeof json !== 'object' ||
    json === null ||
    (json as Envelope).savekit !== 1 ||
    typeof (json as Envelope).format !== 'string'
  ) {
    throw new SaveFailure(file, 'not a savekit JSON document (expected { "savekit": 1, "format": …, "document": … })');
  }
  const envelope = json as Envelope;
  const format = registry.get(envelope.format);
  if (format === undefined) throw new UsageError(`${file}: unknown format ${JSON.stringify(envelope.format)}`);
  // The core's fromJson: a document nested past its limit is a JsonError like any other problem.
  const result = fromJson(format, envelope.document);
  if (E.isLeft(result))
    throw new SaveFailure(
      file,
      new JsonError(result.left.problems.map((p) => ({ ...p, path: ['document', ...p.path] }))),
    );
  return { format, doc: result.right };
}

/**
 * JSON files longer than this many bytes are parsed a part at a time ({@link parseJsonInParts}): V8
 * makes no string longer than 2^29 − 24 characters, and `dump` writes longer documents than that (a
 * large world's tiles). UTF-8 never decodes to more characters than it has bytes, so a file up to
 * this size is one text for `JSON.parse`, as ever (six times faster than the parser in parts).
 */
export const WHOLE_JSON_MOST = 2 ** 29 - 24;

/** Parses a JSON file's bytes (UTF-8), whole or a part at a time; a syntax error is a failure naming the file. */
export function parseJsonBytes(bytes: Uint8Array, file: string, whole = WHOLE_JSON_MOST): unknown {
  // The byte order mark is kept, as reading the file as text keeps it (JSON.parse refuses it).
  if (bytes.length <= whole) return parseJson(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), file);
  try {
    return parseJsonInParts(bytes);
  } catch (error) {
    throw new SaveFailure(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Parses JSON text; a syntax error is a failure naming the file. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SaveFailure(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
