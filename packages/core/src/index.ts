/**
 * `@savekit/core`: schema-driven binary codecs for savegames. Decode and encode with the same
 * declarations, get lossless JSON, and typed errors naming the field path and byte offset.
 *
 * @packageDocumentation
 */
export {
  DecodeError,
  documentPath,
  EncodeError,
  ERROR_CODES,
  formatPath,
  formatWarning,
  isErrorCode,
  isPathAnnotation,
  pathAnnotation,
  type ErrorCode,
  type Path,
  type PathAnnotation,
  type PathSegment,
  type Warning,
  type WarningCode,
} from './errors.js';
export {
  resolveDecodeOptions,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_ELEMENTS,
  DEFAULT_MAX_TRANSFORM_OUTPUT,
  type ChecksumPolicy,
  type DecodeOptions,
  type EncodeOptions,
  type ResolvedDecodeOptions,
} from './options.js';
export {
  BUDGET_OPTION,
  BudgetError,
  DecodeBudget,
  defaultBudgetLimits,
  isOutputLimitError,
  MIN_TOTAL_OUTPUT,
  MIN_WORK,
  OUTPUT_PER_INPUT_BYTE,
  OutputLimitError,
  WORK_PER_INPUT_BYTE,
  type BudgetLimits,
  type BudgetName,
  type BudgetOptions,
} from './budget.js';
export { inflateBounded, type DeflateWrapper, type InflateLimits } from './inflate.js';
export { Reader, ReadState, type AttemptOptions, type FieldSpan, type ReadCheckpoint } from './reader.js';
export { Writer, WriteState } from './writer.js';
export {
  decode,
  decodeOrThrow,
  defineCodec,
  encode,
  encodeOrThrow,
  guardRead,
  guardWrite,
  readChild,
  writeChild,
  type AnyCodec,
  type Codec,
  type CodecChild,
  type CodecSpec,
  type CodecSpecBase,
  type Decoded,
  type DefinedCodecSpec,
  type LegacyCodecSpec,
  type TypeOf,
} from './codec.js';
export * from './def.js';
export {
  fromHex,
  fromJson,
  jsonBigInt,
  jsonBytes,
  jsonFloat,
  jsonInt,
  jsonRecord,
  JsonError,
  nameRecord,
  reportJsonErrors,
  toHex,
  toJson,
  type FloatJson,
  type JsonOptions,
  type JsonProblem,
} from './json.js';
export * from './integers.js';
export { float, f32be, f32le, f64be, f64le, type FloatOptions, type NaNBits } from './floats.js';
export { bits, type BitFields, type BitFieldSpec, type BitOrder, type BitsOptions } from './bits.js';
export {
  ascii,
  cp437,
  CP437_UPPER,
  textEncoding,
  TextCodingError,
  utf8,
  type EncodingName,
  type TextEncoding,
} from './encodings.js';
export {
  cstring,
  fixedString,
  pstring,
  type FixedStringKeepOptions,
  type FixedStringOptions,
  type TextWithTail,
} from './strings.js';
export type { CountSpec } from './size.js';
export { bytes, bytesEqual } from './bytes.js';
export { borrowedBytes } from './borrowed.js';
export { literal, magic } from './literal.js';
export { struct, type FieldSpec, type Fields, type FieldType, type StructType } from './struct.js';
export { reordered } from './reordered.js';
export { array } from './array.js';
export { maybe, nothing, optional } from './optional.js';
export { taggedUnion, type OtherTag, type Tagged } from './union.js';
export { lazy } from './lazy.js';
export { rebuild, type RebuildInfo, type RebuildMismatch, type RebuildOptions, type RebuildSpec } from './rebuild.js';
export { lookahead, peek, type LookaheadOptions } from './peek.js';
export { switchOn, type SwitchOptions } from './switch-on.js';
export { withHooks, type CodecHooks, type ReadHookContext, type WriteHookContext } from './hooks.js';
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
export { map, type Bijection } from './map.js';
export { align, padding, type Padding } from './padding.js';
export { aligned } from './aligned.js';
export { patch, sized } from './sized.js';
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
  checksumMismatch,
  crc32,
  reportChecksumMismatch,
  sha256,
  type ChecksumAlgorithm,
  type ChecksumOptions,
} from './checksum.js';
export { arena, pointer, type Arena, type Pointer, type PointerOptions, type Unclaimed } from './pointer.js';
export {
  checkTreePath,
  fileFormat,
  FormatRegistry,
  isSaveTree,
  type AnySaveFormat,
  type Confidence,
  type FileFormat,
  type FileFormatOptions,
  type Signature,
  type SaveFormat,
  type SaveInput,
  type SaveTree,
  type SniffResult,
} from './format.js';
export { grouped, plural } from './counts.js';
export {
  ArrayNumbering,
  ArrayTable,
  arrayIndex,
  arrayIndexes,
  attachTarget,
  numberArrays,
  refTo,
  resolveArrayIndexes,
  withArrayIndexes,
  type ArrayIndexes,
  type IndexRef,
  type PendingRef,
} from './array-index.js';
export {
  graphObject,
  graphSize,
  readGraph,
  writeGraph,
  type GraphImage,
  type GraphRestorer,
  type GraphSaver,
  type ObjectSink,
  type RestoreCallback,
  type RestoreGenerator,
  type RestoreContext,
  type RestoredGraph,
  type RestoreStatus,
} from './graph.js';
export { graphImage } from './graph-codec.js';
export {
  defaultInstance,
  definitionsOf,
  instanceCodec,
  reconcile,
  type ArrayDef,
  type FieldDef,
  type FieldKind,
  type FieldPlan,
  type Instance,
  type KnownField,
  type KnownStruct,
  type Reconciled,
  type SchemaEncoding,
  type StructDef,
  type StructPlan,
} from './schema.js';
export { layoutOf, typeNameOf, type LayoutRow } from './layout.js';
export { compile, decoder } from './compile.js';
