/**
 * The plugin contract every format package implements, the registry that picks a format for an
 * unknown save, and save trees (saves made of several named files).
 *
 * @module
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { decode, encode, type Codec, type Decoded } from './codec.js';
import { compile } from './compile.js';
import { BudgetError } from './budget.js';
import { DecodeError, type EncodeError } from './errors.js';
import { latin1Bytes } from './literal.js';
import type { DecodeOptions, EncodeOptions } from './options.js';
import type { FieldSpan } from './reader.js';
import { hasMembers } from './members.js';
import type { SaveView } from './views.js';

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
  /**
   * File names its files usually have, lower case (`starinfo.dat`): when a caller knows the name
   * ({@link FormatRegistry.sniff}), a format that claims the bytes and has the name is preferred
   * (optional). A name never makes a format claim bytes its `sniff` refuses.
   */
  readonly fileNames?: ReadonlyArray<string>;
  /** Whether the format reads a single file, a tree of files, or both. */
  readonly input: 'file' | 'tree' | 'both';
  /** How likely `input` is this format; must be fast and must never throw. */
  sniff(input: SaveInput): Confidence;
  /** Decodes a save into its document. */
  decode(input: SaveInput, options?: DecodeOptions): E.Either<DecodeError, Decoded<Doc>>;
  /** Encodes a document back into a save. */
  encode(doc: Doc, options?: EncodeOptions): E.Either<EncodeError, SaveInput>;
  /** The io-ts type of the document's lossless JSON form. */
  readonly json: t.Type<Doc, unknown, unknown>;
  /**
   * Byte ranges of the input's fields, for hex views (optional). With `{ layers: false }` only the
   * file's own bytes need spans (layer 0): a view of the file asks so, and a save whose compressed
   * chunks hold millions of fields is then mapped without a span per field. With `{ maxSpans }` a map
   * that would hold more spans throws a `BudgetError` (`budget: 'spans'`) instead: a tool asks for
   * the map it can hold, and falls back to a coarser one.
   */
  fieldMap?(input: Uint8Array, options?: FieldMapOptions): ReadonlyArray<FieldSpan>;
  /** One-line facts a person wants first (variant, level, thumbnail size, …), for `inspect` (optional). */
  summary?(doc: Doc): ReadonlyArray<string>;
  /** Pictures of a document (a thumbnail, a star map, a world's tiles) for tools such as the studio (optional; see {@link viewsOf}). */
  readonly views?: ReadonlyArray<SaveView<Doc>>;
}

/** A format, whatever its document type. */
// biome-ignore lint/suspicious/noExplicitAny: formats are invariant in their document type (its io-ts `json`), so `SaveFormat<unknown>` would not accept them
export type AnySaveFormat = SaveFormat<any>;

/**
 * Whether a value is a {@link SaveFormat}: an object with a string `id` and `sniff`, `decode` and
 * `encode` functions. What a plugin module's exports are checked with (see {@link formatsOf}).
 */
export function isSaveFormat(value: unknown): value is AnySaveFormat {
  return hasMembers(value, { id: 'string', sniff: 'function', decode: 'function', encode: 'function' });
}

/**
 * The formats a module exports, by the plugin contract: its `format` export, its default export,
 * and the members of a `formats` array, each once and in that order; values that are not formats
 * are skipped. The CLI loads plugins with it, the docs find format packages with it, and the
 * conformance kit picks a module's format with it.
 *
 * @example
 * ```ts
 * import { formatsOf } from '@savekit/core';
 * const formats = formatsOf(await import('@savekit/uqm')); // [uqmFormat]
 * ```
 */
export function formatsOf(module: Readonly<Record<string, unknown>>): AnySaveFormat[] {
  const found: AnySaveFormat[] = [];
  const listed = Array.isArray(module.formats) ? (module.formats as unknown[]) : [];
  for (const candidate of [module.format, module.default, ...listed]) {
    if (isSaveFormat(candidate) && !found.includes(candidate)) found.push(candidate);
  }
  return found;
}

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

  /**
   * Every format that claims `input` (confidence above 0), most confident first. With the input's
   * file `name` (a path or a base name), a claiming format whose {@link SaveFormat.fileNames} has
   * that base name gains {@link NAME_CONFIDENCE} (up to 1), so the name settles a close call.
   */
  sniff(input: SaveInput, name?: string): SniffResult[] {
    const base = name === undefined ? undefined : baseName(name);
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
      if (confidence > 0 && base !== undefined && format.fileNames?.includes(base) === true)
        confidence += NAME_CONFIDENCE;
      if (confidence > 0) results.push({ format, confidence: Math.min(1, confidence) });
    }
    return results.sort((a, b) => b.confidence - a.confidence);
  }

  /** The most likely format of `input` (named `name`, when known), or `undefined` when none claims it. */
  detect(input: SaveInput, name?: string): AnySaveFormat | undefined {
    return this.sniff(input, name)[0]?.format;
  }
}

/** What a file name matching a format's {@link SaveFormat.fileNames} adds to its confidence. */
export const NAME_CONFIDENCE = 0.2;

/** The last segment of a `/`- or `\`-separated path, lower case. */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').toLowerCase();
}

/** A signature {@link fileFormat} sniffs for: its bytes (one character per byte), where, and how sure a match makes it. */
export interface Signature {
  /** The bytes, as a string of byte values (`'IWAD'`, `'UMS\x01Summ'`), as {@link magic} takes them. */
  readonly bytes: string;
  /** Offset of the signature in the file (default 0). */
  readonly at?: number;
  /** The confidence a match gives (default: the options' `confidence`). */
  readonly confidence?: Confidence;
}

/** What {@link fileFormat} needs besides the codec; everything but `id` and `title` has a default. */
export interface FileFormatOptions<Doc> {
  /** A short, stable identifier (`wad`, `edge`). */
  readonly id: string;
  /** A readable title, also used in the message refusing a folder (`Doom WAD`). */
  readonly title: string;
  /** File extensions, lower case with the dot (default none). */
  readonly extensions?: ReadonlyArray<string>;
  /** File names its files usually have, lower case (see {@link SaveFormat.fileNames}; default none). */
  readonly fileNames?: ReadonlyArray<string>;
  /**
   * Signatures that identify the format: a file starting with any of them is claimed with
   * `confidence`. Several alternatives (`['IWAD', 'PWAD']`), or {@link Signature}s with their own
   * offset and confidence.
   */
  readonly magic?: string | ReadonlyArray<string | Signature>;
  /** Files shorter than this are never claimed by a signature (default 0: the signature's own length). */
  readonly minLength?: number;
  /** The confidence a signature match gives (default 0.9). */
  readonly confidence?: Confidence;
  /**
   * How likely an input no signature matched is this format (a format without a magic, a weaker
   * fallback such as UQM's 0.7 saves, or trees). Must be fast; anything it throws counts as 0.
   */
  readonly sniff?: (input: SaveInput) => Confidence;
  /** One-line facts for `savekit inspect` (see {@link SaveFormat.summary}). */
  readonly summary?: (doc: Doc) => ReadonlyArray<string>;
  /** Pictures of a document (see {@link SaveFormat.views}). */
  readonly views?: ReadonlyArray<SaveView<Doc>>;
  /** The JSON type of the document (default the codec's). */
  readonly json?: t.Type<Doc, unknown, unknown>;
  /** Options of the traced decode behind `fieldMap` (default `{ checksums: 'warn' }`, so a file with a bad checksum still has a map). */
  readonly traceOptions?: DecodeOptions;
  /** `'tree'` or `'both'` for a format that also reads folders; give `decode` and `encode` for them (default `'file'`). */
  readonly input?: SaveFormat<Doc>['input'];
  /** Replaces the codec's decode (a format whose document is more than one codec reads). */
  readonly decode?: SaveFormat<Doc>['decode'];
  /** Replaces the codec's encode. */
  readonly encode?: SaveFormat<Doc>['encode'];
  /** Replaces the field map derived from a traced decode of the codec. */
  readonly fieldMap?: (input: Uint8Array, options?: FieldMapOptions) => ReadonlyArray<FieldSpan>;
}

/** What a {@link SaveFormat.fieldMap} is asked for. */
export interface FieldMapOptions {
  /**
   * Whether the fields inside byte layers (decompressed, decrypted bytes) are wanted too (default
   * `true`). `false` asks for the file's own bytes only; a map may still give more.
   */
  readonly layers?: boolean | undefined;
  /**
   * The most spans the map may hold (default: no limit). A save whose map would hold more throws a
   * `BudgetError` with `budget: 'spans'` (thrown, as a map has no other way to say it is not whole;
   * a save that does not decode still maps to none).
   */
  readonly maxSpans?: number | undefined;
}

/** A {@link SaveFormat} made by {@link fileFormat}: the format, and the codec it reads (for the conformance kit). */
export interface FileFormat<Doc> extends SaveFormat<Doc> {
  /** The document's codec (`roundTripSuite(format, { codec: format.codec })`). */
  readonly codec: Codec<Doc>;
}

/**
 * A format plugin from the document's codec: `sniff` from the signatures, `decode` and `encode`
 * through the codec (a folder is refused with a DecodeError), the JSON type, a `fieldMap` from a
 * traced decode, and the `summary` given. Each part can be replaced for formats that need more.
 *
 * `decode` and `encode` run the codec compiled (see `compile`): the same values, warnings and
 * errors as the codec itself, faster where the compiler knows the codec's parts. Options pass
 * through, so `{ compiled: false }` runs it interpreted.
 *
 * @example
 * ```ts
 * import { fileFormat, i32le, magic, struct } from '@savekit/core';
 * const header = struct({ identification: magic('IWAD', 'PWAD'), numlumps: i32le, infotableofs: i32le });
 * export const format = fileFormat(header, {
 *   id: 'wad-header',
 *   title: 'Doom WAD header',
 *   extensions: ['.wad'],
 *   magic: ['IWAD', 'PWAD'],
 *   summary: (doc) => [`${doc.identification}, ${doc.numlumps} lumps`],
 * });
 * ```
 */
export function fileFormat<Doc>(codec: Codec<Doc>, options: FileFormatOptions<Doc>): FileFormat<Doc> {
  const confidence = options.confidence ?? 0.9;
  const magics = options.magic === undefined ? [] : typeof options.magic === 'string' ? [options.magic] : options.magic;
  const signatures = magics.map((m) => {
    const sig = typeof m === 'string' ? { bytes: m } : m;
    const at = sig.at ?? 0;
    if (!Number.isSafeInteger(at) || at < 0) throw new RangeError(`fileFormat: signature offset ${at} is not valid`);
    return { at, bytes: latin1Bytes(sig.bytes), confidence: sig.confidence ?? confidence };
  });
  const minLength = options.minLength ?? 0;
  const title = options.title;
  // Decoding and encoding run the compiled codec (same values, warnings and errors, faster), unless
  // the caller passes `compiled: false`; `codec` stays the one given.
  const compiled = compile(codec);
  const traceOptions: DecodeOptions = { checksums: 'warn', ...options.traceOptions, trace: true };
  const matches = (input: Uint8Array, at: number, bytes: Uint8Array): boolean => {
    if (input.length < at + bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (input[at + i] !== bytes[i]) return false;
    return true;
  };
  const format: FileFormat<Doc> = {
    id: options.id,
    title,
    extensions: options.extensions ?? [],
    input: options.input ?? 'file',
    codec,
    sniff(input) {
      if (!isSaveTree(input) && input.length >= minLength) {
        for (const sig of signatures) if (matches(input, sig.at, sig.bytes)) return sig.confidence;
      }
      if (options.sniff === undefined) return 0;
      try {
        return options.sniff(input);
      } catch {
        return 0; // a sniffer must not throw
      }
    },
    decode:
      options.decode ??
      ((input, decodeOptions) =>
        isSaveTree(input)
          ? E.left(new DecodeError([], 0, `${title}: expected one file, got a folder`))
          : decode(compiled, input, decodeOptions)),
    encode: options.encode ?? ((doc, encodeOptions) => encode(compiled, doc, encodeOptions)),
    json: options.json ?? codec.json,
    fieldMap:
      options.fieldMap ??
      ((input, mapOptions) => {
        const result = decode(codec, input, {
          ...traceOptions,
          traceLayers: mapOptions?.layers ?? true,
          maxSpans: mapOptions?.maxSpans,
        });
        if (E.isRight(result)) return result.right.spans ?? [];
        if (result.left instanceof BudgetError && result.left.budget === 'spans') throw result.left;
        return [];
      }),
  };
  const named = options.fileNames === undefined ? format : { ...format, fileNames: options.fileNames };
  const withSummary = options.summary === undefined ? named : { ...named, summary: options.summary };
  return options.views === undefined ? withSummary : { ...withSummary, views: options.views };
}
