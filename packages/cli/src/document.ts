/**
 * What every command does first: pick the format, decode the save; and the JSON envelope that
 * `dump` writes and `build` reads.
 *
 * @module
 */
import { parseChunked } from '@discoveryjs/json-ext';
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
 * Texts longer than this many bytes are parsed a part at a time: JavaScript makes no string longer
 * than about 512 MiB, and `dump` writes longer documents than that (a large world's tiles).
 */
export const WHOLE_JSON_MOST = 256 * 1024 * 1024;

/** Bytes of a JSON file parsed per part when it is parsed in parts. */
const JSON_PART = 1 << 20;

/**
 * Text that may spell a `__proto__` key: the name, or an escape of one of its letters. The parser in
 * parts (json-ext's `parseChunked`) loses such a key, or fails, when a part ends inside its object,
 * where `JSON.parse` keeps it as an ordinary key; a document with none of these cannot have one.
 */
const PROTO_SPELLINGS = ['proto', '\\u005f', '\\u005F', '\\u0070', '\\u0072', '\\u006f', '\\u006F', '\\u0074'].map(
  (t) => Buffer.from(t, 'latin1'),
);

/**
 * Parses a JSON file's bytes (UTF-8): as one text up to `whole` bytes, else a part at a time, never
 * holding the text whole. A syntax error is a failure naming the file.
 */
export async function parseJsonBytes(bytes: Uint8Array, file: string, whole = WHOLE_JSON_MOST): Promise<unknown> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // The byte order mark is kept, as reading the file as text keeps it (JSON.parse refuses it).
  const asText = () => {
    try {
      return buffer.toString('utf8');
    } catch (error) {
      // Past the longest string the JavaScript engine makes (about 512 MiB).
      throw new SaveFailure(
        file,
        `too large to read as text: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  if (bytes.length <= whole || PROTO_SPELLINGS.some((p) => buffer.includes(p))) return parseJson(asText(), file);
  // json-ext refuses text cut short inside a value, as JSON.parse does; it lets closing brackets go
  // missing at the very end, which loses no value.
  try {
    return await parseChunked(function* () {
      for (let at = 0; at < bytes.length; at += JSON_PART) yield bytes.subarray(at, at + JSON_PART);
    });
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
