/**
 * `@savekit/edge`: EDGE savegames — the engine's four variants (A: XOR + LZO1X-1 with end markers,
 * B: LZO1X-1, C: zlib or stored, D: EDGE-classic) and the design doc's draft layout, read and written
 * byte for byte on `@savekit/core`.
 *
 * @packageDocumentation
 */
export * from './primitives.js';
export {
  EDGE_CLASSIC_VERSION,
  edgeXorLayer,
  endMarkerOf,
  lzoLayer,
  nestedFraming,
  ordinaryFraming,
  ordinaryMarker,
  storedLayers,
  topFraming,
  VARIANT_VERSIONS,
  variantOf,
  zlibBound,
  zlibLevel1,
  zlibOrStoredLayer,
  type EdgeVariant,
} from './variants.js';
export { arrayDef, DEFINITION_ORIGIN, fieldDef, FIELD_KIND_CODES, structDef } from './definitions.js';
export { dataBody, type DataBody } from './data.js';
export {
  countCrc,
  desc,
  DESIGN_LUMPS,
  dfck,
  globBody,
  globLumps,
  isRawLump,
  lumpOrRaw,
  lvck,
  skil,
  vari,
  wads,
  wdck,
  when,
  wher,
  type GlobEntry,
} from './glob.js';
export {
  thumbnail,
  thumbnailFromRgba,
  thumbnailToRgba,
  THUMBNAIL_HEIGHT,
  THUMBNAIL_WIDTH,
  type Thumbnail,
} from './thumbnail.js';
export {
  attachTarget,
  indexRef,
  parseImageRef,
  parseLightTypeRef,
  parsePlaneMoverRef,
  parseScriptRef,
  parseSectorNumber,
  parseSpecialRef,
  parseStateRef,
  parseStringRef,
  parseSurfaceRef,
  refTo,
  STRING_REFERENCE_FIELDS,
  type ImageRef,
  type IndexRef,
  type LightTypeRef,
  type PlaneMoverRef,
  type ScriptRef,
  type SpecialRef,
  type StateRef,
  type StringRef,
  type SurfaceRef,
} from './references.js';
export {
  ENGINE_TABLES,
  knownField,
  knownStructs,
  numericBySize,
  TABLE_127,
  TABLE_129,
  TABLE_135,
  TABLE_CLASSIC,
  tableFor,
  tableStruct,
  withReaderTables,
  type EngineTable,
  type FieldEncoding,
  type TableField,
  type TableStruct,
} from './tables.js';
export {
  decode,
  DESIGN_HEADER_PADDING,
  edgeSave,
  edgeSaveWith,
  ENGINE_HEADER_PADDING,
  layoutOf,
  nestedChunk,
  type ArryBody,
  type EdgeDecodeOptions,
  type EdgeLayout,
  type EdgeReadOptions,
  type EdgeSave,
  type StruBody,
  type TopChunk,
  type TopChunks,
} from './save.js';
export {
  arrays,
  convertVariant,
  elementsOf,
  globEntries,
  globLump,
  levelInfo,
  parseCountCheck,
  setVariable,
  structures,
  summary,
  thumbnailOf,
  variable,
  variables,
  type CountCheck,
  type LevelInfo,
} from './document.js';
export {
  checkDdf,
  checkLevel,
  mapChecks,
  type CheckDifference,
  type CheckLevelOptions,
  type CheckMismatch,
  type DdfCheck,
  type LevelCheck,
} from './map-checks.js';
export { mapLumpsFromWad, type MapLumps } from './doom-map.js';
export {
  CHECKED_LINE_FLAGS,
  combineCrcs,
  countCheckOf,
  DDF_CLASSES,
  ddfChecks,
  designLevelChecks,
  entryCrc,
  mapEntryCrcs,
  setDdfChecks,
  setLevelChecks,
  type DdfChecks,
  type DdfClass,
  type DesignMapLumps,
  type LevelChecks,
  type MapEntryCrcs,
} from './design-checks.js';
export { createSave, ENGINE_VARIABLES, newInstance, STRUCT_ALIASES, type CreateSaveOptions } from './create.js';
export { format } from './format.js';
export { edgeViews, thumbnailView } from './views.js';
