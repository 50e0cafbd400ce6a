/**
 * `@savekit/core`: schema-driven binary codecs for savegames. Decode and encode with the same
 * declarations, get lossless JSON, and typed errors naming the field path and byte offset.
 *
 * This is the front door: the combinators, `decode`/`encode`, errors, JSON and the format
 * contract. Writing codecs by hand (the `Reader` and `Writer`, `defineCodec`, definitions, limits'
 * internals) is `@savekit/core/kit`; object graphs are `@savekit/core/graph`, self-describing schemas
 * `@savekit/core/schema` and file-system helpers `@savekit/core/node`.
 *
 * @packageDocumentation
 */
export {
  DecodeError,
  documentPath,
  EncodeError,
  ERROR_CODES,
  FieldError,
  formatPath,
  formatWarning,
  isErrorCode,
  isPathAnnotation,
  pathAnnotation,
  type ErrorArgs,
  type ErrorCode,
  type Path,
  type PathAnnotation,
  type PathSegment,
  type Warning,
  type WarningCode,
} from './errors.js';
export type { ChecksumPolicy, DecodeOptions, EncodeOptions } from './options.js';
export { BudgetError, type BudgetName } from './budget.js';
export type { FieldSpan } from './reader.js';
export { diffDocuments, type DocumentDifference } from './diff.js';
export {
  decode,
  decodeOrThrow,
  encode,
  encodeOrThrow,
  isCodec,
  type AnyCodec,
  type Codec,
  type Decoded,
  type TypeOf,
} from './codec.js';
export {
  fromHex,
  fromJson,
  JsonError,
  toHex,
  toJson,
  type FloatJson,
  type JsonOptions,
  type JsonProblem,
  type JsonProblemInit,
} from './json.js';
export * from './integers.js';
export { float, f32be, f32le, f64be, f64le, type FloatOptions, type NaNBits } from './floats.js';
export { bits, type BitFields, type BitFieldSpec, type BitOrder, type BitsOptions } from './bits.js';
export type { EncodingName } from './encodings.js';
export {
  cstring,
  fixedString,
  pstring,
  type FixedStringKeepOptions,
  type FixedStringOptions,
  type TextOptions,
  type TextWithTail,
} from './strings.js';
export type { ShareOptions } from './shared-text.js';
export type { CountSpec } from './size.js';
export { bytes } from './bytes.js';
export { borrowedBytes } from './borrowed.js';
export { literal, magic } from './literal.js';
export { struct, type FieldSpec, type Fields, type FieldType, type StructType } from './struct.js';
export { reordered } from './reordered.js';
export { array } from './array.js';
export { directory, type DirectoryOptions, type DirectorySplit } from './directory.js';
export { maybe, nothing, optional } from './optional.js';
export { taggedUnion, type OtherTag, type Tagged } from './union.js';
export { lazy } from './lazy.js';
export { rebuild, type RebuildInfo, type RebuildMismatch, type RebuildOptions, type RebuildSpec } from './rebuild.js';
export { peek } from './peek.js';
export {
  lookahead,
  switchOn,
  switchOnDemand,
  type LookaheadOptions,
  type SwitchCases,
  type SwitchOnDemandOptions,
  type SwitchOptions,
} from './switch-on.js';
export { remaining } from './remaining.js';
export { chunkBody } from './chunk-body.js';
export {
  contextKey,
  contextValue,
  fromContext,
  provide,
  type ContextKey,
  type FromContextOptions,
  type ProvideSite,
} from './context.js';
export {
  fallback,
  orRaw,
  type FallbackOptions,
  type FallbackWarning,
  type OrRawOptions,
  type Raw,
} from './fallback.js';
export { withHooks, type CodecHooks, type ReadHookContext, type WriteHookContext } from './hooks.js';
export { nestingLimit, type NestingLimitOptions } from './nesting-limit.js';
export {
  byteOrdered,
  byteOrderMark,
  f32,
  f64,
  i16,
  i24,
  i32,
  i48,
  i64,
  u16,
  u24,
  u32,
  u48,
  u64,
  type ByteOrdered,
} from './byte-order.js';
export { fixedMap, map, withModel, type Bijection, type ModelOptions } from './map.js';
export { fieldsMap, type FieldsBijection, type FixedFields } from './fields-map.js';
export { align, padding, type Padding } from './padding.js';
export { aligned } from './aligned.js';
export { patch, sized } from './sized.js';
export { beforeTrailer } from './trailer.js';
export {
  chunk,
  chunkList,
  fourcc,
  isRawChunk,
  type ChunkEntry,
  type ChunkFraming,
  type ChunkListOptions,
  type KnownChunk,
  type RawChunk,
} from './chunk.js';
export {
  compression,
  layer,
  transform,
  transformKeeping,
  xor,
  type ByteLayer,
  type Compressor,
  type Kept,
  type LayerArgs,
  type LayerLimits,
  type TransformOptions,
} from './transform.js';
export {
  adler32,
  checksum,
  crc32,
  sha256,
  type ChecksumAlgorithm,
  type ChecksumOptions,
} from './checksum.js';
export { arena, pointer, type Arena, type Pointer, type PointerOptions, type Unclaimed } from './pointer.js';
export { bytesUntil, type BytesUntilOptions } from './bytes-until.js';
export { windowsAt, type WindowAt, type WindowsAt, type WindowsAtOptions } from './windows-at.js';
export {
  checkTreePath,
  fileFormat,
  FormatRegistry,
  formatsOf,
  isSaveFormat,
  isSaveTree,
  NAME_CONFIDENCE,
  type AnySaveFormat,
  type Confidence,
  type FieldMapOptions,
  type FileFormat,
  type FileFormatOptions,
  type Signature,
  type SaveFormat,
  type SaveInput,
  type SaveTree,
  type SniffResult,
} from './format.js';
export {
  viewsOf,
  type DocumentPath,
  type RasterPicture,
  type SaveView,
  type TablePicture,
  type VectorPicture,
  type ViewEdit,
  type ViewMark,
  type ViewPicture,
  type ViewRegion,
  type ViewTarget,
} from './views.js';
export { arrayIndex, refTo, withArrayIndexes, type IndexRef } from './array-index.js';
export { compile, decoder } from './compile.js';
