/**
 * `@savekit/core/kit`: the codec author's kit, for codecs and tools written by hand.
 *
 * What a package needs to write codecs of its own and tools that walk codecs, kept out of
 * `@savekit/core` so that the front door is the declarations a format is written with (as
 * protobuf-es keeps its wire reader and writer in `./wire`):
 *
 * - the cursor over the bytes and its state: {@link Reader}, {@link ReadState}, {@link Writer},
 *   {@link WriteState};
 * - making a codec by hand: {@link defineCodec}, {@link readChild}/{@link writeChild} (a child
 *   under its path segment), {@link guardRead}/{@link guardWrite} (foreign exceptions to typed
 *   errors), the typed definitions {@link CodecDef} with {@link customDef} and {@link countDef};
 * - {@link pairMap}: two fixed fields decoded as arguments (a float stored as a pair), for hot values,
 *   and {@link frexp32}, a float32 split into exponent and significand from its bits;
 * - the JSON building blocks of a codec's `json` type ({@link jsonArray}, {@link jsonBytes}, {@link jsonInt}, {@link numberList}, …;
 *   {@link NamesMisfitPart} for a type of your own that `toJson` can look into) and
 *   text encodings ({@link utf8}, {@link cp437}, …);
 * - limits: {@link resolveDecodeOptions} and the defaults, the shared {@link DecodeBudget} and its
 *   internals, {@link inflateBounded}, {@link inflateMatches};
 * - reflection: {@link layoutOf}, {@link typeNameOf}, {@link fixedField} (one declared field read in
 *   place); the array numbering behind `arrayIndex`;
 * - {@link BytesTable}: values found again from short bytes read in place (shared names);
 * - message helpers ({@link plural}, {@link grouped}, {@link describeValue}) and {@link reportChecksumMismatch};
 * - {@link denseList}: a list a format walks before its codec, refused at its first hole.
 *
 * @packageDocumentation
 */
export { Reader, ReadState, ROLLBACK, type AttemptOptions, type ReadCheckpoint, type Rollbackable } from './reader.js';
export { Writer, WriteState } from './writer.js';
export {
  defineCodec,
  guardRead,
  guardWrite,
  readChild,
  writeChild,
  type CodecChild,
  type CodecSpec,
} from './codec.js';
export * from './def.js';
export { isRebuild } from './rebuild.js';
export {
  resolveDecodeOptions,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_ELEMENTS,
  DEFAULT_MAX_TRANSFORM_OUTPUT,
  type ResolvedDecodeOptions,
} from './options.js';
export {
  BUDGET_OPTION,
  DecodeBudget,
  defaultBudgetLimits,
  isOutputLimitError,
  MIN_TOTAL_OUTPUT,
  MIN_WORK,
  OUTPUT_PER_INPUT_BYTE,
  OUTPUT_WORK_PER_INPUT_BYTE,
  OutputLimitError,
  UNITS_PER_CHUNK,
  WORK_PER_INPUT_BYTE,
  WORK_PER_OUTPUT_BYTE,
  type BudgetLimits,
  type BudgetOptions,
} from './budget.js';
export { inflateBounded, inflateMatches, type DeflateWrapper, type InflateLimits } from './inflate.js';
export { pairMap, type PairBijection } from './pair-map.js';
export { frexp32, type Frexp32 } from './frexp.js';
export {
  jsonArray,
  jsonBigInt,
  jsonBytes,
  jsonFloat,
  jsonInt,
  jsonRecord,
  nameRecord,
  numberList,
  reportJsonErrors,
  type MisfitPart,
  type NamesMisfitPart,
} from './json.js';
export { ascii, cp437, CP437_UPPER, textEncoding, TextCodingError, utf8, type TextEncoding } from './encodings.js';
export { bytesEqual, concatBytes } from './bytes.js';
export { documentChild, documentKeys, isDocumentBranch, sameDocumentLeaf } from './document-nodes.js';
export { checksumMismatch, reportChecksumMismatch } from './checksum.js';
export { grouped, plural } from './counts.js';
export { describeValue } from './errors.js';
export { denseList } from './dense-list.js';
export {
  ArrayNumbering,
  ArrayTable,
  arrayIndexes,
  attachTarget,
  numberArrays,
  PendingRefs,
  resolveArrayIndexes,
  type ArrayIndexes,
  type PendingRef,
} from './array-index.js';
export {
  layoutOf,
  layoutTables,
  partsOf,
  typeNameOf,
  type LayoutPart,
  type LayoutRow,
  type LayoutTable,
} from './layout.js';
export { fixedField, type FixedField } from './fixed-field.js';
export { BytesTable, type BytesTableOptions } from './bytes-table.js';
