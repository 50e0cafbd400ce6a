/**
 * The plugin contract every format package implements, the registry that picks a format for an
 * unknown save, and save trees (saves made of several named files).
 *
 * @module
 */
import type * as t from 'io-ts';
import type { Either } from 'fp-ts/lib/Either.js';
import type { Decoded } from './codec.js';
import type { DecodeError, EncodeError } from './errors.js';
import type { DecodeOptions, EncodeOptions } from './options.js';
import type { FieldSpan } from './reader.js';

/**
 * A save made of several files (a Terrarum save directory, a disk image's entries): relative path →
 * bytes. Paths use `/`, never start with `/`, and have no `.` or `..` segments (see {@link checkTreePath}).
 */
export type SaveTree = ReadonlyMap<string, Uint8Array>;

/** What a format reads and writes: one file's bytes, or a tree of files. */
export type SaveInput = Uint8Array | SaveTree;

/** Whether a save input is a tree of files. */
export function isSaveTree(input: SaveInput): input is SaveTree {
  return input instanceof Map;
}

/**
 * Checks a save-tree path: relative, `/`-separated, no empty, `.` or `..` segment, no NUL or
 * backslash. Returns the reason it is refused, or `undefined` when it is fine. Formats that read
 * containers must refuse entries that fail this, so nothing is ever written outside a save.
 */
export function checkTreePath(path: string): string | undefined {
  if (path.length === 0) return 'empty path';
  if (path.includes('\0')) return 'NUL in path';
  if (path.includes('\\')) return 'backslash in path';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'absolute path';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return `path segment ${JSON.stringify(segment)}`;
  }
  return undefined;
}

/** How sure a format is that an input is its own: 0 (not mine) to 1 (certainly mine). */
export type Confidence = number;

/**
 * A savegame format. Format packages export one of these; the CLI, the docs playground and the
 * conformance kit use nothing else.
 *
 * @typeParam Doc - the decoded document.
 */
export interface SaveFormat<Doc> {
  /** A short, stable identifier (`edge`, `uqm`). */
  readonly id: string;
  /** A readable title. */
  readonly title: string;
  /** File extensions, lower case with the dot (`.esg`); empty for folder saves. */
  readonly extensions: ReadonlyArray<string>;
  /** Whether the format reads a single file, a tree of files, or both. */
  readonly input: 'file' | 'tree' | 'both';
  /** How likely `input` is this format; must be fast and must never throw. */
  sniff(input: SaveInput): Confidence;
  /** Decodes a save into its document. */
  decode(input: SaveInput, options?: DecodeOptions): Either<DecodeError, Decoded<Doc>>;
  /** Encodes a document back into a save. */
  encode(doc: Doc, options?: EncodeOptions): Either<EncodeError, SaveInput>;
  /** The io-ts type of the document's lossless JSON form. */
  readonly json: t.Type<Doc, unknown, unknown>;
  /** Byte ranges of the input's fields, for hex views (optional). */
  fieldMap?(input: Uint8Array): ReadonlyArray<FieldSpan>;
  /** One-line facts a person wants first (variant, level, thumbnail size, …), for `inspect` (optional). */
  summary?(doc: Doc): ReadonlyArray<string>;
}

/** A format, whatever its document type. */
// biome-ignore lint/suspicious/noExplicitAny: formats are invariant in their document type (its io-ts `json`), so `SaveFormat<unknown>` would not accept them
export type AnySaveFormat = SaveFormat<any>;

/** A registry's guess for an input: the format and its confidence. */
export interface SniffResult {
  readonly format: AnySaveFormat;
  readonly confidence: Confidence;
}

/** The formats an application knows, and a way to pick one for an unknown save. */
export class FormatRegistry {
  private readonly formats = new Map<string, AnySaveFormat>();

  /** A registry holding `formats`. */
  constructor(formats: Iterable<AnySaveFormat> = []) {
    for (const format of formats) this.register(format);
  }

  /** Adds a format; its id must be new. Returns the registry. */
  register(format: AnySaveFormat): this {
    if (this.formats.has(format.id))
      throw new Error(`a format with id ${JSON.stringify(format.id)} is already registered`);
    this.formats.set(format.id, format);
    return this;
  }

  /** The format with this id, if any. */
  get(id: string): AnySaveFormat | undefined {
    return this.formats.get(id);
  }

  /** Every format, in registration order. */
  list(): ReadonlyArray<AnySaveFormat> {
    return [...this.formats.values()];
  }

  /** Every format that claims `input` (confidence above 0), most confident first. */
  sniff(input: SaveInput): SniffResult[] {
    const results: SniffResult[] = [];
    for (const format of this.formats.values()) {
      const kind = isSaveTree(input) ? 'tree' : 'file';
      if (format.input !== 'both' && format.input !== kind) continue;
      let confidence = 0;
      try {
        confidence = format.sniff(input);
      } catch {
        confidence = 0; // a sniffer must not throw; one that does claims nothing
      }
      if (confidence > 0) results.push({ format, confidence: Math.min(1, confidence) });
    }
    return results.sort((a, b) => b.confidence - a.confidence);
  }

  /** The most likely format of `input`, or `undefined` when none claims it. */
  detect(input: SaveInput): AnySaveFormat | undefined {
    return this.sniff(input)[0]?.format;
  }
}
