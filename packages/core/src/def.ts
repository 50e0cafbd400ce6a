/**
 * Typed codec definitions: what a codec is, with its parameters, as a discriminated union on `type`
 * (as zod's `def.type`, protobuf-es's descriptors). Every codec carries one in `codec.def`; tools
 * (testkit's arbitraries, the docs' layout tables, JSON and compiled codecs) `switch (codec.def.type)`
 * over it, and with {@link unreachableDef} in the `default` branch the compiler names any variant a
 * tool forgot.
 *
 * One variant per codec family of this package, plus {@link DefCustom} for codecs a package writes
 * itself with `defineCodec`: the only variant a tool may treat as opaque, and one that can still
 * carry what tools need (a `model` codec of the same values, documented `samples`).
 *
 * Codecs in a definition are the very codecs the combinator was given, so a tool can walk on.
 *
 * @module
 */
import type * as t from 'io-ts';
import type { BitOrder } from './bits.js';
import type { ChecksumAlgorithm } from './checksum.js';
import type { ChunkFraming } from './chunk.js';
import type { AnyCodec, Codec } from './codec.js';
import type { ContextKey, ProvideSite } from './context.js';
import type { EncodingName } from './encodings.js';
import type { Endian, IntBits } from './integers.js';
import type { Bijection } from './map.js';
import type { RebuildMismatch } from './rebuild.js';
import type { StructPlan } from './schema.js';
import type { CountSpec } from './size.js';
import type { FieldSpec } from './struct.js';
import type { ByteLayer } from './transform.js';

/** An integer of up to 48 bits (`int`, `u8` … `i48be`): a `number` in `min`…`max`. */
export interface DefInt {
  readonly type: 'int';
  /** Width in bits. */
  readonly bits: IntBits;
  readonly signed: boolean;
  /** Byte order (also given for 8 bits, where it changes nothing). */
  readonly endian: Endian;
  /** Smallest value (`0` when unsigned). */
  readonly min: number;
  /** Largest value. */
  readonly max: number;
}

/** A 64-bit integer (`int64`, `u64le` …): a `bigint` in `min`…`max`. */
export interface DefInt64 {
  readonly type: 'int';
  readonly bits: 64;
  readonly signed: boolean;
  readonly endian: Endian;
  readonly min: bigint;
  readonly max: bigint;
}

/** An IEEE 754 float (`float`, `f32le` …). */
export interface DefFloat {
  readonly type: 'float';
  readonly bits: 32 | 64;
  readonly endian: Endian;
  /** `'keep'`: NaNs with a payload are read as `{ nan }` objects; `'refuse'`: they are DecodeErrors. */
  readonly nan: 'refuse' | 'keep';
}

/** A field of a {@link DefBits}, placed. */
export interface DefBitField {
  readonly name: string;
  /** First bit, counted in the group's bit order. */
  readonly at: number;
  /** Width in bits (1 to 52). */
  readonly width: number;
}

/** A group of bit fields (`bits`). Every bit belongs to exactly one field. */
export interface DefBits {
  readonly type: 'bits';
  readonly order: BitOrder;
  /** Size of the group in bytes. */
  readonly bytes: number;
  /** The fields in declaration order. */
  readonly fields: ReadonlyArray<DefBitField>;
}

/** Fixed bytes given as latin-1 text, one of several alternatives (`magic`). */
export interface DefMagic {
  readonly type: 'magic';
  /** The accepted byte strings (one byte per character), all of the same length. */
  readonly alternatives: readonly [string, ...string[]];
}

/** A value of `codec` restricted to `values` (`literal`). */
export interface DefLiteral {
  readonly type: 'literal';
  readonly codec: Codec<string> | Codec<number> | Codec<boolean>;
  readonly values: readonly [string | number | boolean, ...Array<string | number | boolean>];
}

/** A four-character code (`fourcc`). */
export interface DefFourcc {
  readonly type: 'fourcc';
  /** Only letters and digits are accepted. */
  readonly alnum: boolean;
}

/** How a string's end is found. */
export type DefStringTermination =
  /** A NUL byte ends the text (`cstring`); the text holds no NUL. */
  | { readonly type: 'nul' }
  /** A length prefix counts the encoded bytes (`pstring`). */
  | { readonly type: 'prefix'; readonly length: Codec<number> }
  /**
   * A field of `size` bytes (`fixedString`): the text ends at the first `pad` byte (trailing pad bytes
   * when `pad` is not 0); `tail: 'keep'` keeps non-pad bytes after the end as `{ text, tail }`.
   */
  | { readonly type: 'fixed'; readonly size: number; readonly pad: number; readonly tail: 'refuse' | 'keep' };

/** Text (`cstring`, `pstring`, `fixedString`). */
export interface DefString {
  readonly type: 'string';
  readonly encoding: EncodingName;
  readonly termination: DefStringTermination;
}

/** How many elements (or bytes): fixed, read from a prefix, or up to the end of the window. */
export type DefCount =
  | { readonly type: 'fixed'; readonly count: number }
  | { readonly type: 'prefix'; readonly codec: Codec<number> }
  | { readonly type: 'rest' };

/** A byte string (`bytes`). */
export interface DefBytes {
  readonly type: 'bytes';
  readonly count: DefCount;
}

/** A field of a {@link DefStruct}. */
export interface DefStructField {
  readonly name: string;
  /** The field's codec, or a function of the fields before it (a dependent field). */
  readonly spec: FieldSpec;
}

/** Named fields in order (`struct`). */
export interface DefStruct {
  readonly type: 'struct';
  /** Field names in the order the bytes hold them, when that differs from `fields` (`reordered`). */
  readonly stored?: ReadonlyArray<string>;
  readonly fields: ReadonlyArray<DefStructField>;
}

/** A sequence of one codec (`array`). */
export interface DefArray {
  readonly type: 'array';
  readonly element: AnyCodec;
  readonly count: DefCount;
}

/** A value present while its window has bytes left (`optional`). */
export interface DefOptional {
  readonly type: 'optional';
  readonly codec: AnyCodec;
}

/** No bytes, the value `undefined` (`nothing`, and `maybe(false, …)`). */
export interface DefNothing {
  readonly type: 'nothing';
}

/** Bytes that are normally `fill`, kept when they are not (`padding`: a fixed count; `align`: up to a boundary). */
export type DefPadding =
  | { readonly type: 'padding'; readonly to: 'count'; readonly count: number; readonly fill: number }
  | { readonly type: 'padding'; readonly to: 'boundary'; readonly boundary: number; readonly fill: number };

/** A variant of a {@link DefTaggedUnion}. */
export interface DefUnionVariant {
  /** The tag value (a number when the tag codec reads numbers). */
  readonly tag: string | number;
  readonly codec: AnyCodec;
}

/** A tag, then the codec it picks (`taggedUnion`). */
export interface DefTaggedUnion {
  readonly type: 'taggedUnion';
  readonly tag: Codec<string> | Codec<number>;
  readonly variants: ReadonlyArray<DefUnionVariant>;
  /** The codec of values under tags no variant claims, when they are kept. */
  readonly otherwise: AnyCodec | undefined;
}

/** A case of a {@link DefSwitch}. */
export interface DefSwitchCase {
  /** The case's key: what `select` names (`switchOn`), or the selector value as text (`lookahead`). */
  readonly key: string;
  readonly codec: AnyCodec;
}

/**
 * A choice by bytes not yet consumed (`switchOn`, `lookahead`): `selector` is read without consuming
 * it and picks a case, which reads from the same place (the selector's bytes included).
 */
export interface DefSwitch {
  readonly type: 'switch';
  /** Peeked, not consumed. */
  readonly selector: AnyCodec;
  readonly cases: ReadonlyArray<DefSwitchCase>;
  /** The codec of data under a selector no case claims, when it is kept (`lookahead` only). */
  readonly otherwise: AnyCodec | undefined;
  /**
   * Whether the document shows the choice: `'shown'` (`lookahead`) — the value is `{ tag, value }`
   * with the peeked selector as the tag (a number when the selector reads numbers; for a case, its key);
   * `'hidden'` (`switchOn`) — the value is the case's own value.
   */
  readonly tag: 'shown' | 'hidden';
}

/** A stored value seen through a bijection (`map`). */
export interface DefMap {
  readonly type: 'map';
  readonly stored: AnyCodec;
  // biome-ignore lint/suspicious/noExplicitAny: the two sides are the stored codec's type and the presented type
  readonly bijection: Bijection<any, any>;
}

/** A codec inside a window of a fixed size or a length prefix (`sized`). */
export interface DefSized {
  readonly type: 'sized';
  readonly size: Exclude<DefCount, { readonly type: 'rest' }>;
  readonly body: AnyCodec;
}

/** One chunk with a known marker (`chunk`). */
export interface DefChunk {
  readonly type: 'chunk';
  readonly framing: ChunkFraming;
  readonly marker: string;
  readonly body: AnyCodec;
}

/** A chunk of a {@link DefChunkList} that is decoded. */
export interface DefKnownChunk {
  readonly marker: string;
  readonly codec: AnyCodec;
}

/** Chunks to the end of the window, known ones decoded, others kept raw (`chunkList`). */
export interface DefChunkList {
  readonly type: 'chunkList';
  readonly framing: ChunkFraming;
  readonly known: ReadonlyArray<DefKnownChunk>;
  /** Markers that end the list. */
  readonly until: ReadonlyArray<string>;
}

/**
 * A codec under byte layers (`transform`, `transformKeeping`). `keep` is `'never'` for `transform`;
 * for `transformKeeping` it says when the file's bytes are kept (the value is then `{ value, stored? }`).
 */
export interface DefTransform {
  readonly type: 'transform';
  readonly codec: AnyCodec;
  /** The layers, the first nearest the file. */
  readonly layers: readonly [ByteLayer, ...ByteLayer[]];
  /** The decoded length written in front of the layered bytes, when there is one. */
  readonly decodedLength: Codec<number> | undefined;
  readonly keep: 'never' | 'when-different' | 'always';
}

/** A value with a digest of its bytes (`checksum`). */
export interface DefChecksum {
  readonly type: 'checksum';
  readonly body: AnyCodec;
  // biome-ignore lint/suspicious/noExplicitAny: the digest type is the stored codec's
  readonly algorithm: ChecksumAlgorithm<any>;
  readonly stored: AnyCodec;
  readonly position: 'before' | 'after';
  readonly covers: 'value' | 'window';
}

/** An offset to a target in the enclosing arena (`pointer`). */
export interface DefPointer {
  readonly type: 'pointer';
  readonly offset: Codec<number>;
  readonly target: AnyCodec;
  /** The stored offset that means `null`; `undefined` when every offset points somewhere. */
  readonly nullOffset: number | undefined;
  readonly base: 'arena' | 'pointer';
  /** Offsets no target may take (the null offset among them). */
  readonly reserved: ReadonlyArray<number>;
  readonly align: number;
}

/**
 * A table of offsets, then the blocks they place, each running to the next-higher offset
 * (`windowsAt`). The value is `{ [blocks]: [{ [index], ...block }], lead? }`.
 */
export interface DefWindowsAt {
  readonly type: 'windowsAt';
  /** How many offsets the table holds. */
  readonly count: number;
  /** The codec of one offset (fixed size), counted from the table's first byte. */
  readonly offset: Codec<number>;
  /** The codec of one block, read from its whole window. */
  readonly block: AnyCodec;
  /** The stored offset of an index without a block. */
  readonly nullOffset: number;
  /** The key of a block's table index in its value. */
  readonly index: string;
  /** The key of the list of blocks in the value. */
  readonly blocks: string;
  /** The size of the records every block is made of, when declared. */
  readonly unit: number | undefined;
}

/**
 * Bytes up to the first place where a lead reads (and `where` accepts it), or the end (`bytesUntil`).
 * The value is the bytes; the lead is only looked at.
 */
export interface DefBytesUntil {
  readonly type: 'bytesUntil';
  /** The codec tried at each place. */
  readonly lead: AnyCodec;
  /** Whether a lead read at an offset (from the window's start) ends the bytes; `undefined`: any. */
  // biome-ignore lint/suspicious/noExplicitAny: the value is the lead codec's
  readonly where: ((value: any, at: number) => boolean) | undefined;
  /** How many bytes must be left at a place for a lead to start there. */
  readonly need: number;
}

/** The region pointers point into (`arena`). */
export interface DefArena {
  readonly type: 'arena';
  readonly root: AnyCodec;
}

/**
 * A struct field computed on write from the whole value being written (`rebuild`): a count, a
 * length, an offset, a flag. Tools that generate values fill it last, with `compute(parent)`, and
 * draw the other fields as if it held any small value of `codec`.
 */
export interface DefRebuild {
  readonly type: 'rebuild';
  /** The codec of the stored value. */
  readonly codec: AnyCodec;
  /** The value from the whole parent value being written. */
  // biome-ignore lint/suspicious/noExplicitAny: the parent is the struct's value, the result the codec's
  readonly compute: (parent: any) => unknown;
  /** What decoding does when the stored value differs from the computed one. */
  readonly mismatch: RebuildMismatch;
}

/** A codec defined later, for recursion (`lazy`). */
export interface DefLazy {
  readonly type: 'lazy';
  /** Resolves the codec (once; later calls return the same codec). */
  readonly resolve: () => AnyCodec;
}

/**
 * A directory of fixed-size entries, then the bodies they place, shown as one list (`directory`).
 * Element `i` is `join(entry i, body i)`; `split` is its inverse.
 */
export interface DefDirectory {
  readonly type: 'directory';
  /** How many entries. */
  readonly count: number;
  /** An entry as stored, its body's place included. */
  readonly entry: AnyCodec;
  /** The entry fields holding the body's offset (from the first body) and length. */
  readonly place: { readonly offset: string; readonly length: string };
  /** The body's codec for an entry. */
  // biome-ignore lint/suspicious/noExplicitAny: the entry type is the entry codec's
  readonly body: (entry: any) => AnyCodec;
  /** The element from an entry and its body. */
  // biome-ignore lint/suspicious/noExplicitAny: the entry, body and element types are the codecs'
  readonly join: (entry: any, body: any) => unknown;
  /** The entry (without its place) and the body of an element. */
  // biome-ignore lint/suspicious/noExplicitAny: the element type is the list's
  readonly split: (element: any) => { readonly entry: unknown; readonly body: unknown };
  /** The JSON type of one element. */
  readonly json: t.Type<unknown, unknown, unknown>;
  /** A codec whose values are exactly the elements, for tools (see `DirectoryOptions.model`). */
  readonly model?: () => AnyCodec;
}

/** The binary layout of an object graph image (`graphImage`). */
export interface DefGraphImage {
  readonly type: 'graphImage';
}

/** Instances of a structure defined inside the file (`instanceCodec` of self-describing schemas). */
export interface DefInstance {
  readonly type: 'instance';
  /** The structure's name. */
  readonly struct: string;
  /** The file's definition matched to the reader's schema. */
  readonly plan: StructPlan;
  /** The codec of one element of each of `plan.fields`, in order (resolved on first call). */
  readonly elements: () => ReadonlyArray<AnyCodec>;
}

/** A codec whose values update a context value other parts of the file read (`provide`). */
export interface DefProvide {
  readonly type: 'provide';
  readonly codec: AnyCodec;
  readonly key: ContextKey<unknown>;
  /** The next context value from the previous one and a value of `codec` (never changes `previous`). */
  readonly update: (previous: unknown, value: unknown, site: ProvideSite) => unknown;
}

/** A codec chosen from a context value provided earlier in the file (`fromContext`). */
export interface DefFromContext {
  readonly type: 'fromContext';
  readonly key: ContextKey<unknown>;
  /** The codec for a context value. */
  readonly choose: (value: unknown) => AnyCodec;
}

/** A codec tried first, and another read where it fails, with a warning (`fallback`, `orRaw`). */
export interface DefFallback {
  readonly type: 'fallback';
  readonly primary: AnyCodec;
  /** Read where the primary fails; a value of its shape is written with it. */
  readonly secondary: AnyCodec;
  /** The code of the warning recorded when the secondary is read. */
  readonly warning: string;
}

/**
 * A codec a package defines itself with `defineCodec`: the only variant a tool may treat as opaque.
 *
 * A tool that needs values or a layout uses what the definition offers, in this order:
 * - `model`: a codec made of this package's combinators whose values are exactly the values the
 *   custom codec reads and writes (its bytes may differ). Testkit derives arbitraries from it; it is
 *   a declaration, so it stays true when the custom codec changes less often than samples do.
 * - `samples`: documented example values (each one must encode), for tools that cannot use a model.
 */
export interface DefCustom {
  readonly type: 'custom';
  /** A name for the codec's family (`varint`, `uqmQueue`). */
  readonly name: string;
  /** Parameters for readers of the definition (shown by tools; not interpreted). */
  readonly params: Readonly<Record<string, unknown>>;
  /** A codec of exactly the same values, built from core combinators. */
  readonly model?: AnyCodec;
  /** Example values the codec can encode. */
  readonly samples?: ReadonlyArray<unknown>;
}

/** The definition of a codec: one variant per codec family, {@link DefCustom} for the rest. */
export type CodecDef =
  | DefInt
  | DefInt64
  | DefFloat
  | DefBits
  | DefMagic
  | DefLiteral
  | DefFourcc
  | DefString
  | DefBytes
  | DefStruct
  | DefArray
  | DefOptional
  | DefNothing
  | DefPadding
  | DefTaggedUnion
  | DefSwitch
  | DefMap
  | DefSized
  | DefChunk
  | DefChunkList
  | DefTransform
  | DefChecksum
  | DefPointer
  | DefArena
  | DefWindowsAt
  | DefBytesUntil
  | DefDirectory
  | DefRebuild
  | DefLazy
  | DefGraphImage
  | DefInstance
  | DefProvide
  | DefFromContext
  | DefFallback
  | DefCustom;

/** The variant names: `CodecDef['type']`. */
export type CodecDefType = CodecDef['type'];

/** The variant of {@link CodecDef} named `T`. */
export type DefOf<T extends CodecDefType> = Extract<CodecDef, { readonly type: T }>;

/** Options of {@link customDef}. */
export interface CustomDefOptions<A> {
  /** Parameters shown by tools. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** A codec of core combinators with exactly the same values (see {@link DefCustom}). */
  readonly model?: Codec<A>;
  /** Example values the codec can encode. */
  readonly samples?: ReadonlyArray<A>;
}

/**
 * The definition of a custom codec, typed by its value so a `model` or `samples` of another type is
 * a compile error.
 *
 * @example
 * ```ts
 * const varint = defineCodec<number>({
 *   name: 'varint',
 *   def: customDef('varint', { model: u32le, samples: [0, 127, 128, 300] }),
 *   …
 * });
 * ```
 */
export function customDef<A>(name: string, options: CustomDefOptions<A> = {}): DefCustom {
  return {
    type: 'custom',
    name,
    params: options.params ?? {},
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.samples !== undefined ? { samples: options.samples } : {}),
  };
}

/** The {@link DefCount} of a count as the combinators take it (`3`, `u16le`, `'rest'`). */
export function countDef(spec: CountSpec): DefCount {
  if (typeof spec === 'number') return { type: 'fixed', count: spec };
  if (spec === 'rest') return { type: 'rest' };
  return { type: 'prefix', codec: spec };
}

/**
 * For the `default` branch of a `switch` over `def.type`: it only compiles when every variant has a
 * case, so adding a variant shows every tool that must learn it.
 *
 * @example
 * ```ts
 * switch (def.type) {
 *   case 'int': …
 *   // … every other variant
 *   default:
 *     return unreachableDef(def);
 * }
 * ```
 */
export function unreachableDef(def: never): never {
  throw new TypeError(`unknown codec definition ${JSON.stringify((def as { type?: unknown }).type)}`);
}
