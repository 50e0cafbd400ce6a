/**
 * The whole savegame: header, top-level chunks, trailer with its Adler-32 — as declarations over the
 * core, for every variant and both layouts (the engine's and the design doc's draft).
 *
 * @module
 */
import type { Either } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  adler32,
  aligned,
  bytes,
  checksum,
  chunk,
  decode as decodeWith,
  chunkList,
  FieldError,
  fourcc,
  isRawChunk,
  magic,
  map,
  remaining,
  struct,
  switchOn,
  transformKeeping,
  u32le,
  withArrayIndexes,
  withHooks,
  type Codec,
  type DecodeError,
  type DecodeOptions,
  type Decoded,
  type Kept,
  type KnownChunk,
  type RawChunk,
} from '@savekit/core';
import { denseList, describeValue, type MisfitPart, type NamesMisfitPart } from '@savekit/core/kit';
import type { ArrayDef, StructDef } from '@savekit/core/schema';
import { dataBody, type DataBody } from './data.js';
import { arrayDef, DEFINITION_ORIGIN, ELEMENT_COUNTS, structDef } from './definitions.js';
import { DESIGN_LUMPS, globBody, type GlobEntry } from './glob.js';
import { oftenOneOf } from './models.js';
import { tableFor, withReaderTables, type EngineTable, type TableStruct } from './tables.js';
import {
  nestedFraming,
  ordinaryFraming,
  storedLayers,
  topFraming,
  VARIANT_VERSIONS,
  variantOf,
  type EdgeVariant,
} from './variants.js';

/** The header's 4 padding bytes as the engine writes them. */
export const ENGINE_HEADER_PADDING: Uint8Array = Uint8Array.of(0x1a, 0x0d, 0x0a, 0x00);
/** The header's padding as the design doc (and the seed) gives it; readers accept it too. */
export const DESIGN_HEADER_PADDING: Uint8Array = Uint8Array.of(0x0d, 0x0a, 0x1a, 0x00);

/** A `Stru` body: the engine's single definition, or the draft's container of `Sdef` chunks. */
export type StruBody = StructDef | Array<KnownChunk<'Sdef', StructDef> | RawChunk>;
/** An `Arry` body: the engine's single definition, or the draft's container of `Adef` chunks. */
export type ArryBody = ArrayDef | Array<KnownChunk<'Adef', ArrayDef> | RawChunk>;

/** The top-level chunks, each kept with its stored (compressed) bytes while unchanged. */
export interface TopChunks {
  Glob: Kept<GlobEntry[]>;
  Stru: Kept<StruBody>;
  Arry: Kept<ArryBody>;
  Data: Kept<DataBody>;
  Stor: Kept<DataBody>;
}

/** A top-level chunk: a known one (`{ id, body: { value, stored? } }`) or an unknown one kept raw. */
export type TopChunk = { [K in keyof TopChunks]: KnownChunk<K, TopChunks[K]> }[keyof TopChunks] | RawChunk;

/** Which layout the chunks follow. */
export type EdgeLayout = 'engine' | 'design';

/** A decoded EDGE savegame. */
export interface EdgeSave {
  /** The variant, from the version (reported; on write it must agree with `version`). */
  variant: EdgeVariant;
  /** The engine's layout or the design doc's draft (reported; on write it must agree with the chunks). */
  layout: EdgeLayout;
  /** The header's version field (`0x12900`, `0x13506`, `0xEC`, …): it decides the variant. */
  version: number;
  /** The header's 4 padding bytes (the engine: `1A 0D 0A 00`; the design doc: `0D 0A 1A 00`). */
  padding: Uint8Array;
  /** The top-level chunks in file order. */
  chunks: TopChunk[];
}

/** The top-level chunk list of a variant and release table, with references resolved on read and renumbered on write. */
function topChunks(variant: EdgeVariant, table: EngineTable): Codec<TopChunk[]> {
  const layers = storedLayers(variant);
  // Files come from miniLZO 1.06, zlib or miniz builds, whose bytes ours rarely equal: every chunk keeps
  // its stored bytes, so decoding never compresses anything just to compare.
  const keep = <A>(codec: Codec<A>) => transformKeeping(codec, { decodedLength: u32le, keep: 'always' }, ...layers);
  // A definition chunk that still carries the bytes it was read from is written back as it was; one
  // without them is new, and the seed's marker rules hold for it (see DEFINITION_ORIGIN).
  const keepDefinitions = <A>(codec: Codec<A>) =>
    withHooks(keep(codec), {
      beforeWrite: (kept, { context }) =>
        context.set(DEFINITION_ORIGIN, kept?.stored instanceof Uint8Array ? 'file' : 'new'),
      afterWrite: (_kept, { context }) => context.set(DEFINITION_ORIGIN, undefined),
    });
  const nested = ordinaryFraming(variant);
  const padded = <A>(codec: Codec<A>) => alignedBody(codec);
  const stru = definitionsOrContainer(padded(structDef), chunkList(nested, { Sdef: padded(structDef) }), 'Sdef');
  const arry = definitionsOrContainer(padded(arrayDef), chunkList(nested, { Adef: padded(arrayDef) }), 'Adef');
  const data = dataBody(variant, table);
  const list = chunkList(
    topFraming(variant),
    {
      Glob: keep(globBody(variant)),
      Stru: keepDefinitions(stru),
      Arry: keepDefinitions(arry),
      Data: keep(data),
      Stor: keep(data),
    },
    { until: ['ENDE'] },
  );
  return withReferences(list as unknown as Codec<TopChunk[]>);
}

/** A definition followed by zero padding to 4 bytes (the engine pads every chunk's data). */
const alignedBody = <A>(codec: Codec<A>): Codec<A> => aligned(4, codec);

/** The engine's single definition, or the draft's container of definition chunks (told by the first marker). */
function definitionsOrContainer<D extends object, C extends unknown[]>(
  single: Codec<D>,
  container: Codec<C>,
  marker: string,
): Codec<D | C> {
  const either = switchOn(
    fourcc(),
    { design: container, engine: single },
    {
      name: `${single.name} | ${marker} chunks`,
      select: (first) => (first === marker ? 'design' : 'engine'),
      // A definition is a record, never an array: an array is the container's chunk list.
      caseOf: (value) => (Array.isArray(value) ? 'design' : 'engine'),
    },
  ) as Codec<D | C>;
  // An empty area (a save with no definitions: variant A stores `11 00 00`, C stores nothing) has no
  // marker to look at: it is the draft's container, holding no chunks.
  return switchOn(
    remaining(),
    { empty: container, some: either },
    {
      name: either.name,
      select: (left) => (left === 0 ? 'empty' : 'some'),
      caseOf: (value) => (Array.isArray(value) && value.length === 0 ? 'empty' : 'some'),
    },
  ) as Codec<D | C>;
}

/** Every Data/Stor body of a chunk list. */
function dataBodies(chunks: ReadonlyArray<TopChunk>): DataBody[] {
  const out: DataBody[] = [];
  for (const c of chunks) {
    if (typeof c === 'object' && c !== null && (c.id === 'Data' || c.id === 'Stor') && !isRawChunk(c)) {
      const body = (c as KnownChunk<'Data', Kept<DataBody>>).body?.value;
      if (body !== undefined && Array.isArray(body.elements)) out.push(body);
    }
  }
  return out;
}

/**
 * Every array's elements, by name (the core's named arrays): INDEX references are resolved against
 * them once every array is read (a reference may point forward), and on write every array is
 * numbered first, so references follow their elements.
 */
function withReferences(list: Codec<TopChunk[]>): Codec<TopChunk[]> {
  const counted = withHooks(list, {
    // Arry chunks are written with the element count of their Data chunk (see ELEMENT_COUNTS).
    beforeWrite: (chunks, { context }) => {
      const counts = new Map<string, number>();
      if (Array.isArray(chunks))
        for (const body of dataBodies(chunks))
          if (!counts.has(body.array)) counts.set(body.array, body.elements.length);
      context.set(ELEMENT_COUNTS, counts);
    },
  });
  return withArrayIndexes(counted, (chunks) =>
    Array.isArray(chunks) ? dataBodies(chunks).map((body) => [body.array, body.elements] as const) : [],
  );
}

/** Whether a Glob holds a lump only design files have; stops at a hole (which writing then refuses at its path). */
function hasDesignLump(lumps: ReadonlyArray<GlobEntry>): boolean {
  for (let i = 0; i < lumps.length && i in lumps; i++) if (DESIGN_LUMPS.includes(lumps[i]!.id)) return true;
  return false;
}

/** Which layout a chunk list follows: the draft's if it has any of its chunks or lumps. */
export function layoutOf(chunks: ReadonlyArray<TopChunk>): EdgeLayout {
  for (const c of chunks) {
    if (c.id === 'Stor') return 'design';
    if (isRawChunk(c)) continue;
    const value = (c.body as Kept<unknown>).value;
    if ((c.id === 'Stru' || c.id === 'Arry') && Array.isArray(value)) return 'design';
    if (c.id === 'Glob' && Array.isArray(value) && hasDesignLump(value as GlobEntry[])) return 'design';
  }
  return 'engine';
}

interface StoredFile {
  magic: 'EdgeSave';
  padding: Uint8Array;
  version: number;
  chunks: TopChunk[];
  end: 'ENDE';
  magicAgain: 'EdgeSave';
}

/** The chunk-list codecs of the built-in tables, by variant and release. */
const fileCodecs = new Map<string, Codec<TopChunk[]>>();

/** The chunk list of a version, read with the reader's own tables in front of the release's. */
function chunksFor(version: number, tables: ReadonlyArray<TableStruct>, cache: Map<string, Codec<TopChunk[]>>) {
  const variant = variantOf(version);
  const table = withReaderTables(tableFor(version), tables);
  const key = `${variant}:${table.release}`;
  let codec = cache.get(key);
  if (codec === undefined) {
    codec = topChunks(variant, table);
    cache.set(key, codec);
  }
  return codec;
}

/**
 * The header's version: any u32, with a model for tools that as often as not is one of the versions
 * that name a variant exactly (B and D are single versions a drawn u32 would not hit).
 */
const version = oftenOneOf(
  u32le,
  'version',
  Object.values(VARIANT_VERSIONS) as [number, ...number[]],
  'another version',
);

/** The stored file of a set of reader tables (none: the built-in release tables). */
function storedFileOf(chunksOf: (version: number) => Codec<TopChunk[]>): Codec<StoredFile> {
  return checksum(
    struct({
      magic: magic('EdgeSave'),
      padding: bytes(4),
      version,
      chunks: (p: { version: number }) => chunksOf(p.version),
      end: magic('ENDE'),
      magicAgain: magic('EdgeSave'),
    }),
    { algorithm: adler32, stored: u32le, covers: 'window' },
  ) as unknown as Codec<StoredFile>;
}

function saveJsonOf(topChunkJson: (version: number) => t.Type<TopChunk[], unknown, unknown>) {
  return new SaveJson(topChunkJson);
}

/** The save's header fields in JSON (the chunks' type follows from the version). */
const SAVE_HEAD = t.type({
  variant: t.keyof({ A: null, B: null, C: null, D: null }),
  layout: t.keyof({ engine: null, design: null }),
  version: t.Int,
});

/**
 * The save's JSON type: the header, then the chunks of the version's tables. `toJson` looks into it
 * ({@link NamesMisfitPart}), so a part of another shape is named where the document holds it.
 */
class SaveJson extends t.Type<EdgeSave, unknown, unknown> implements NamesMisfitPart {
  constructor(private readonly topChunkJson: (version: number) => t.Type<TopChunk[], unknown, unknown>) {
    super(
      'EdgeSave',
      (u): u is EdgeSave => isSaveShape(u) && this.misfitPart(u) === undefined,
      (u, c) => {
        const head = SAVE_HEAD.validate(u, c);
        if (head._tag === 'Left') return head;
        const o = u as Record<string, unknown>;
        const padding = bytes(4).json.validate(o.padding, [
          ...c,
          { key: 'padding', type: bytes(4).json, actual: o.padding },
        ]);
        if (padding._tag === 'Left') return padding;
        const version = head.right.version;
        if (version < 0 || version > 0xffffffff) return t.failure(u, c, `version ${version} does not fit 32 bits`);
        const chunksType = topChunkJson(version);
        const chunks = chunksType.validate(o.chunks, [...c, { key: 'chunks', type: chunksType, actual: o.chunks }]);
        if (chunks._tag === 'Left') return chunks;
        // A known chunk's body is its value and, while unchanged, its stored bytes: anything else would be
        // dropped on write.
        const given = o.chunks as ReadonlyArray<unknown>;
        for (const [i, chunk] of chunks.right.entries()) {
          if (isRawChunk(chunk)) continue;
          // The input's own keys (a `__proto__` key of parsed JSON is an own property there).
          const body = (given[i] as { body?: unknown } | undefined)?.body;
          if (typeof body !== 'object' || body === null) continue;
          const extra = Object.keys(body).find((key) => key !== 'value' && key !== 'stored');
          if (extra !== undefined)
            return t.failure(
              u,
              [...c, { key: 'chunks', type: chunksType, actual: o.chunks }],
              `chunks[${i}].body has an unknown property ${JSON.stringify(extra)}`,
            );
        }
        return t.success({
          variant: head.right.variant,
          layout: head.right.layout,
          version,
          padding: padding.right,
          chunks: chunks.right,
        });
      },
      (a) => ({
        variant: a.variant,
        layout: a.layout,
        version: a.version,
        padding: bytes(4).json.encode(a.padding),
        chunks: topChunkJson(a.version).encode(a.chunks),
      }),
    );
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const o = value as Record<string, unknown>;
    for (const [key, type] of Object.entries(SAVE_HEAD.props))
      if (!type.is(o[key])) return { key, type, value: o[key] };
    const padding = bytes(4).json;
    if (!padding.is(o.padding)) return { key: 'padding', type: padding, value: o.padding };
    const version = o.version as number;
    if (version < 0 || version > 0xffffffff) return { key: 'version', type: u32le.json, value: version };
    const chunks = this.topChunkJson(version);
    return chunks.is(o.chunks) ? undefined : { key: 'chunks', type: chunks, value: o.chunks };
  }
}

/** An object with a numeric version and a chunk list: what the save's codec takes to be a save (not checked deeper). */
function isSaveShape(u: unknown): u is EdgeSave {
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof (u as EdgeSave).version === 'number' &&
    Array.isArray((u as EdgeSave).chunks)
  );
}

/**
 * An EDGE savegame file, every variant and both layouts. Decoding checks the Adler-32 trailer (a
 * mismatch is an error, or a warning with `{ checksums: 'warn' }`); encoding writes a fresh one.
 * Re-encoding an unmodified document gives the identical file; a changed chunk is recompressed, the
 * others keep their stored bytes. The document is the file seen with its variant and layout, which
 * follow from the version and the chunks.
 */
export const edgeSave: Codec<EdgeSave> = saveCodec((version) => chunksFor(version, [], fileCodecs), 'edgeSave');

/** Options of {@link edgeSaveWith} and {@link decode}. */
export interface EdgeReadOptions {
  /**
   * The reader's own structure tables (see {@link tableStruct}): for each structure named here, how
   * each of its fields is really stored — the seed's "Structure Tables". They take the place of the
   * release's table for a structure of the same name and add structures it lacks (a mod's, a port's, a
   * new one); a field a table knows is read as the table says, whatever size the file declares, and
   * only fields no table knows are read by their declaration. Default: none (the release's tables).
   */
  readonly tables?: ReadonlyArray<TableStruct> | undefined;
}

const withTables = new WeakMap<ReadonlyArray<TableStruct>, Codec<EdgeSave>>();

/**
 * The EDGE save codec reading (and writing) with the reader's own structure tables in front of the
 * release's. The same tables must be given to encode what was decoded with them.
 */
export function edgeSaveWith(options: EdgeReadOptions = {}): Codec<EdgeSave> {
  const tables = options.tables;
  if (tables === undefined || tables.length === 0) return edgeSave;
  let codec = withTables.get(tables);
  if (codec === undefined) {
    const cache = new Map<string, Codec<TopChunk[]>>();
    codec = saveCodec((version) => chunksFor(version, tables, cache), 'edgeSaveWith(tables)');
    withTables.set(tables, codec);
  }
  return codec;
}

/**
 * Refuses a chunk list the save's own checks could not walk (they run before the list is written): not
 * a list, a hole, or an entry that is not a chunk, each at its path. Stops at the first: a sparse list
 * of length 2^32 − 1 is refused, not walked.
 */
function checkChunkList(chunks: unknown): void {
  for (const [i, chunk] of denseList(chunks, ['chunks'], 'chunk').entries())
    if (typeof chunk !== 'object' || chunk === null)
      throw new FieldError(['chunks', i], `expected a chunk, got ${describeValue(chunk)}`, 'wrong-type');
}

function saveCodec(chunksOf: (version: number) => Codec<TopChunk[]>, name: string): Codec<EdgeSave> {
  const saveJson = saveJsonOf((version) => chunksOf(version).json);
  return map(storedFileOf(chunksOf), {
    name,
    // The constants around the chunks have no place in the document.
    framing: ['magic', 'end', 'magicAgain'],
    json: saveJson,
    is: isSaveShape,
    decode: (file): EdgeSave => ({
      variant: variantOf(file.version),
      layout: layoutOf(file.chunks),
      version: file.version,
      padding: file.padding,
      chunks: file.chunks,
    }),
    encode: (save): StoredFile => {
      if (typeof save !== 'object' || save === null) throw new Error('expected an EDGE save document');
      checkChunkList(save.chunks);
      if (!Number.isInteger(save.version) || save.version < 0 || save.version > 0xffffffff)
        throw new Error(`version ${String(save.version)} does not fit 32 bits`);
      const variant = variantOf(save.version);
      if (save.variant !== variant)
        throw new Error(
          `variant ${save.variant} does not match version 0x${save.version.toString(16)} (variant ${variant}); set the version to change variant (see convertVariant)`,
        );
      const layout = layoutOf(save.chunks);
      if (save.layout !== layout)
        throw new Error(`layout ${save.layout} does not match the chunks, which follow the ${layout} layout`);
      return {
        magic: 'EdgeSave',
        padding: save.padding,
        version: save.version,
        chunks: save.chunks,
        end: 'ENDE',
        magicAgain: 'EdgeSave',
      };
    },
  });
}

/** A nested chunk codec of a variant, for formats built on EDGE's framing. */
export const nestedChunk = <M extends string, A>(variant: EdgeVariant, marker: M, body: Codec<A>) =>
  chunk(nestedFraming(variant), marker, body);

/** Options of {@link decode}: the core's decode options and the reader's own tables. */
export interface EdgeDecodeOptions extends DecodeOptions, EdgeReadOptions {}

/**
 * Decodes an EDGE save, optionally with the reader's own structure tables (`{ tables }`, see
 * {@link EdgeReadOptions.tables}) — for a design schema of one's own: a mod, a port, a new structure.
 * The rest of the options are the core's `decode` options. Encode such a save with
 * `encode(edgeSaveWith({ tables }), save)`.
 *
 * @example
 * ```ts
 * import { decode, tableStruct } from '@savekit/edge';
 * declare const bytes: Uint8Array;
 * const tables = [tableStruct('shootspot_t', 'shot', 'x:float y:float z:float')];
 * const result = decode(bytes, { tables, checksums: 'warn' });
 * ```
 */
export function decode(bytes: Uint8Array, options: EdgeDecodeOptions = {}): Either<DecodeError, Decoded<EdgeSave>> {
  const { tables, ...rest } = options;
  return decodeWith(edgeSaveWith({ tables }), bytes, rest);
}
