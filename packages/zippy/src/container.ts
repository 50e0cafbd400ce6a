/**
 * The ZSAV container (zippy.md §2, as the package README gives it byte by byte; major version 2
 * written, 1 read — they differ in the tags the Lua and adatasave layers give objects): a 32-byte
 * header, the roots, the externals table, an object directory of (tag, recorded size, counts, body
 * offset and length), the bodies — references, then length-prefixed data segments padded to 4 — and
 * an optional `ZEND` + CRC-32 trailer. Big-endian, so the tags' bytes spell `LUA\0` and `DATA`; a
 * wholly byte-swapped file (magic `VASZ`, every integer of the container and of the segments in
 * little-endian order) is read too and written back as it was.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  aligned,
  array,
  borrowedBytes,
  byteOrdered,
  bytes,
  byteOrderMark,
  checksum,
  crc32,
  directory,
  encodeOrThrow,
  fixedMap,
  literal,
  magic,
  map,
  nothing,
  optional,
  pstring,
  rebuild,
  struct,
  u8,
  i32le,
  u16,
  u16be,
  u16le,
  u32,
  u32be,
  u32le,
  type Codec,
  type RebuildSpec,
} from '@savekit/core';
import { concatBytes, denseList, jsonArray, jsonBytes } from '@savekit/core/kit';
import { graphDirectory, type GraphImage } from '@savekit/core/graph';
import { CURRENT_MAJOR, tagName, tagValue } from './tags.js';

/** One object of a file. */
export interface ZObject {
  /** The tag's four characters (`LUA\u0000`, `DATA`, v1's `ADAT`, or an application's). */
  tag: string;
  /** The size the reader allocates before restoring. */
  size: number;
  /** References: 0 null, 1…N objects, −(e + 1) external `e`. */
  references: number[];
  /**
   * Data segments (segment 0 starts with the tag). Decoded segments are views into the decoded
   * bytes, not copies (as @bufbuild/protobuf reads `bytes` fields): editing one in place edits the
   * input too, so copy the input first if you need it unchanged. Replacing a segment never does.
   */
  segments: Uint8Array[];
}

/** A decoded ZSAV file. */
export interface ZippyFile {
  /** `be` as specified; `le` for a wholly byte-swapped file (magic `VASZ`). */
  byteOrder: 'be' | 'le';
  /**
   * Format major version: 2, the seed's tags (`LUA\u0000` for every Lua value, `DATA` + DataType for
   * C structures), as written; 1, the first layout (`ADAT` C structures, `DATA` userdata), still read.
   */
  major: 1 | 2;
  /** Format minor version. */
  minor: number;
  /** Number format of Lua numbers: 0 = f64, 1 = f32 (header flag bits 8–11). */
  numberFormat: number;
  /** Whether the file ends with the `ZEND` + CRC-32 trailer. */
  crc: boolean;
  /** References to the roots. */
  roots: number[];
  /** Names of the objects the application supplies at load. */
  externals: string[];
  /** Object 1 is `objects[0]`. */
  objects: ZObject[];
}

const HEADER = 32;
/** Bytes of a directory entry (`directoryEntry`'s six u32s). */
const DIRECTORY_ENTRY = 24;
/** Stored references at and above this are externals (`0x80000000 + e`). */
const EXTERNAL = 0x80000000;

type ByteOrder = ZippyFile['byteOrder'];

const objectJson = t.type({
  tag: t.string,
  size: t.number,
  references: jsonArray(t.number),
  segments: jsonArray(jsonBytes()),
});
const fileJson = t.type(
  {
    byteOrder: t.keyof({ be: null, le: null }),
    major: t.union([t.literal(1), t.literal(2)]),
    minor: t.number,
    numberFormat: t.number,
    crc: t.boolean,
    roots: jsonArray(t.number),
    externals: jsonArray(t.string),
    objects: jsonArray(objectJson),
  },
  'ZippyFile',
) as unknown as t.Type<ZippyFile, unknown, unknown>;

/**
 * A tag: a u32 in the file's byte order, its four characters in the document. The directory stores
 * the integer (its entries stay six u32s, read at fixed offsets) and names it when it joins an
 * entry to its body; this codec is the same bijection, for the object model tools draw from.
 */
const tag = byteOrdered((order) =>
  map(u32(order), {
    name: 'tag',
    decode: tagName,
    encode(name: string) {
      const value = tagOf(name);
      if (value === undefined) throw new Error(`tag ${shown(name)} is not four characters of one byte each`);
      return value;
    },
  }),
);

/**
 * A reference: stored as 0, 1…N or `0x80000000 + e`; in the document 0 (null), 1…N (an object) or
 * −(e + 1) (external `e`). Checked against the file's object and external counts both ways.
 */
function reference(order: ByteOrder, objects: number, externals: number): Codec<number> {
  return fixedMap(u32(order), {
    name: 'reference',
    // Its values for tools: −externals … objects (stored values outside those two ranges are refused).
    model: () => {
      const values = Array.from({ length: externals + objects }, (_, i) => i - externals + (i >= externals ? 1 : 0));
      return literal(i32le, 0, ...values);
    },
    decode(stored) {
      if (stored < EXTERNAL) {
        if (stored > objects) throw new Error(`object ${stored} does not exist (there are ${objects})`);
        return stored;
      }
      const e = stored - EXTERNAL;
      if (e >= externals) throw new Error(`external #${e} does not exist (there are ${externals})`);
      return -(e + 1);
    },
    encode(value) {
      if (!Number.isInteger(value) || value > objects || value < -externals)
        throw new Error(`${shown(value)} is not 0, an object (1–${objects}) or an external (−1…−${externals})`);
      return value < 0 ? EXTERNAL + (-value - 1) : value;
    },
  });
}

/** A directory entry as stored: the tag, the recorded size, the counts and the place of the body. */
interface DirectoryEntry {
  tag: number;
  size: number;
  referenceCount: number;
  segmentCount: number;
  bodyAt: number;
  bodyLength: number;
}

const directoryEntry = byteOrdered((order) =>
  struct({
    tag: u32(order),
    size: u32(order),
    referenceCount: u32(order),
    segmentCount: u32(order),
    bodyAt: u32(order),
    bodyLength: u32(order),
  }),
);

/** A data segment: a u32 length, the bytes (a view into the input), zeros to a multiple of 4. */
const segment = byteOrdered((order) => aligned(4, borrowedBytes(u32(order))));

/** The `ZEND` + CRC-32 trailer: the CRC of every byte of the file before it. */
const trailer = byteOrdered((order) => {
  const end: string = order === 'be' ? 'ZEND' : 'DNEZ'; // 0x5A454E44 in the file's order
  const stored = map(struct({ marker: magic(end) as Codec<string>, crc: u32(order) }), {
    name: 'ZEND',
    framing: ['marker', 'crc'],
    decode: (found) => found.crc,
    encode: (crc: number) => ({ marker: end, crc }),
  });
  return checksum(nothing, { algorithm: crc32, stored, covers: 'window' });
});

/**
 * `crc` in the document: whether the trailer is there. It is the last thing in the file, so it is
 * there when bytes are left after the last body.
 */
const crcTrailer = byteOrdered((order) => {
  const present = map(trailer(order), { name: 'trailer', decode: (): true => true, encode: () => undefined });
  return map(optional(present), {
    name: 'crc',
    decode: (found) => found === true,
    encode(crc: boolean) {
      if (typeof crc !== 'boolean') throw new Error(`crc ${shown(crc)} is not true or false`);
      return crc ? true : undefined;
    },
  });
});

/** The value of `segment`'s first four bytes as a tag in `order` (what an object's data starts with). */
function leadingTag(data: Uint8Array, order: ByteOrder): string {
  return tagName(leadingTagValue(data, order));
}

/** {@link leadingTag} as the tag's number (compared with the directory's without making a string). */
function leadingTagValue(data: Uint8Array, order: ByteOrder): number {
  const a = data[0] ?? 0;
  const b = data[1] ?? 0;
  const c = data[2] ?? 0;
  const d = data[3] ?? 0;
  return (order === 'be' ? (a << 24) | (b << 16) | (c << 8) | d : (d << 24) | (c << 16) | (b << 8) | a) >>> 0;
}

/** An object's body as stored: its references, then its data segments. */
interface ObjectBody {
  references: number[];
  segments: Uint8Array[];
}

/** The directory entry and the body of an object being written (checked first: split is user input). */
function splitObject(o: ZObject, order: ByteOrder) {
  if (typeof o !== 'object' || o === null || !Array.isArray(o.references) || !Array.isArray(o.segments))
    throw new Error('expected { tag, size, references, segments }');
  const { tag: name, size, references, segments } = o;
  const stored = tagOf(name);
  if (stored === undefined) throw new Error(`tag ${shown(name)} is not four characters of one byte each`);
  const first = segments[0];
  if (!(first instanceof Uint8Array) || first.length < 4 || leadingTag(first, order) !== name)
    throw new Error(`segment 0 must start with its tag ${JSON.stringify(name)}`);
  return {
    // The place is filled in by the directory; given here, every entry has one shape.
    entry: {
      tag: stored,
      size,
      referenceCount: references.length,
      segmentCount: segments.length,
      bodyAt: 0,
      bodyLength: 0,
    },
    body: o, // the body codec writes its references and segments
  };
}

/**
 * The codec of a body for its entry. A body's codec depends only on its reference count: one codec
 * per count met (at most about √(file size / 2) distinct counts fit in a file, so this stays small).
 */
function bodyCodecs(order: ByteOrder, references: Codec<number>): (e: DirectoryEntry) => Codec<ObjectBody> {
  const bodies = new Map<number, Codec<ObjectBody>>();
  return (e) => {
    let codec = bodies.get(e.referenceCount);
    if (codec === undefined) {
      codec = struct({ references: array(references, e.referenceCount), segments: array(segment(order), 'rest') });
      bodies.set(e.referenceCount, codec);
    }
    return codec;
  };
}

/** What joining an entry to its body checks: the segment count, and that segment 0 starts with the tag. */
function checkBody(e: DirectoryEntry, segments: ReadonlyArray<Uint8Array>, order: ByteOrder): void {
  if (segments.length !== e.segmentCount)
    throw new Error(`the directory says ${e.segmentCount} segments, the body holds ${segments.length}`);
  const first = segments[0];
  if (first === undefined || first.length < 4) throw new Error('segment 0 must start with the tag');
  if (leadingTagValue(first, order) !== e.tag)
    throw new Error(
      `the directory says ${JSON.stringify(tagName(e.tag))}, segment 0 says ${JSON.stringify(leadingTag(first, order))}`,
    );
}

/**
 * The object table: `count` directory entries, then the bodies they place, one after the other —
 * the core's `directory`, so the document has one `objects[i]` for entry `i` and body `i` together.
 * Entry `i` says how many references body `i` starts with; the directory's segment count and tag
 * must agree with the body (segment 0 starts with the tag).
 */
function objectTable(order: ByteOrder, count: number, externals: number): Codec<ZObject[]> {
  const references = reference(order, count, externals);
  const body = bodyCodecs(order, references);
  return directory({
    name: `objectTable(${order})`,
    count,
    entry: directoryEntry(order),
    place: { offset: 'bodyAt', length: 'bodyLength' },
    body,
    join(e, { references, segments }): ZObject {
      checkBody(e, segments, order);
      return { tag: tagName(e.tag), size: e.size, references, segments };
    },
    split: (o: ZObject) => splitObject(o, order),
    bodySize,
    json: objectJson as unknown as t.Type<ZObject, unknown, unknown>,
    model: () => objectModel(order, references),
  });
}

/**
 * The bytes a body takes (its references, then each segment's length, bytes and padding to 4): the
 * directory's hint for making room for every body at once.
 */
function bodySize({ references, segments }: ObjectBody): number {
  let size = 4 * references.length;
  for (let i = 0; i < segments.length; i++) {
    if (!(i in segments)) throw new Error(`segment ${i} is missing: the list has a hole`);
    const seg = segments[i];
    size += 4 + align4(seg instanceof Uint8Array ? seg.length : 0);
  }
  return size;
}

/**
 * The objects `join` accepts, for tools: a tag, a size, references, and segments of which the first
 * starts with the tag's bytes (the entry and the body agree).
 */
function objectModel(order: ByteOrder, references: Codec<number>): Codec<ZObject> {
  return map(
    struct({
      tag: tag(order),
      size: u32(order),
      references: array(references, u8),
      first: bytes(u8),
      more: array(bytes(u8), u8),
    }),
    {
      name: 'object',
      decode: ({ tag: name, size, references: refs, first, more }): ZObject => ({
        tag: name,
        size,
        references: refs,
        // Segment 0 starts with the tag as the directory stores it (its bytes in the file's order).
        segments: [concatBytes([encodeOrThrow(tag(order), name), first]), ...more],
      }),
      encode: (o) => ({
        tag: o.tag,
        size: o.size,
        references: o.references,
        first: o.segments[0]!.subarray(4),
        more: o.segments.slice(1),
      }),
    },
  );
}

/** The file as stored: the document's fields, and the header's version, flags, counts and offsets. */
interface StoredFile extends ZippyFile {
  headFlags: number;
  tailFlags: number;
  count: number;
  rootCount: number;
  externalCount: number;
  directoryAt: number;
  dataAt: number;
}

/**
 * A header field rebuilt on write and checked on read (a mismatch is a DecodeError), stored with the
 * codec of the file's byte order.
 */
function header<A>(
  codecs: Readonly<Record<ByteOrder, Codec<A>>>,
  compute: (file: StoredFile) => A,
): RebuildSpec<A, StoredFile> {
  const be = rebuild(codecs.be, compute, { mismatch: 'error' });
  const le = rebuild(codecs.le, compute, { mismatch: 'error' });
  return Object.assign((file: StoredFile) => (file.byteOrder === 'le' ? le : be)(file), { rebuild: be.rebuild });
}

const utf8Length = (text: unknown): number => (typeof text === 'string' ? new TextEncoder().encode(text).length : 0);
/**
 * The length of the file's list `key` (its count in the header, computed before the list is written):
 * anything but a list, or a hole in it, is refused at the list itself, not at the count, nor as an
 * empty list that a later field would then be blamed for.
 */
const listLength = (value: unknown, key: 'roots' | 'externals' | 'objects'): number =>
  denseList(value, [key], key.slice(0, -1), key).length;

/** The flag bits (externals 1, CRC 2) the rest of the file implies. */
const flagBits = (file: StoredFile): number =>
  (listLength(file.externals, 'externals') > 0 ? 1 : 0) | (file.crc === true ? 2 : 0);

const U32 = { be: u32be, le: u32le } as const;

/**
 * The file in the order it is stored. The byte-order mark comes first and every later field follows
 * it. Header bytes 8–11 are a u32 of flag bits (bits 0–1) and the number format (bits 8–11): the flag
 * byte is the last of them big-endian, the first byte-swapped, with the number format beside it.
 */
/** The stored file's fields, the object table's codec given (the document's, or the image's). */
function storedFields<Objects>(
  objects: (p: StoredFile) => Codec<Objects>,
  objectCount: (objects: unknown) => number = (objects) => listLength(objects, 'objects'),
) {
  return {
    byteOrder: byteOrderMark({ be: 'ZSAV', le: 'VASZ' }),
    major: (p: StoredFile) => major(p.byteOrder),
    minor: (p: StoredFile) => u16(p.byteOrder),
    headFlags: header({ be: literal(u16be, 0) as Codec<number>, le: u8 }, (p) =>
      p.byteOrder === 'le' ? flagBits(p) : 0,
    ),
    numberFormat: literal(u8, 0, 1),
    tailFlags: header({ be: u8, le: literal(u16le, 0) as Codec<number> }, (p) =>
      p.byteOrder === 'le' ? 0 : flagBits(p),
    ),
    count: header(U32, (p) => objectCount(p.objects)),
    rootCount: header(U32, (p) => listLength(p.roots, 'roots')),
    externalCount: header(U32, (p) => listLength(p.externals, 'externals')),
    directoryAt: header(U32, (p) => {
      const names: ReadonlyArray<string> = Array.isArray(p.externals) ? p.externals : [];
      // Without holes: `externalCount`, computed before this, refused the first (listLength).
      let bytes = 0;
      for (let i = 0; i < names.length; i++) bytes += 2 + utf8Length(names[i]!);
      return HEADER + 4 * p.rootCount + align4(bytes);
    }),
    dataAt: header(U32, (p) => p.directoryAt + p.count * DIRECTORY_ENTRY),
    roots: (p: StoredFile) => array(reference(p.byteOrder, p.count, p.externalCount), p.rootCount),
    externals: (p: StoredFile) => aligned(4, array(pstring(u16(p.byteOrder), 'utf8'), p.externalCount)),
    objects,
    crc: (p: StoredFile) => crcTrailer(p.byteOrder),
  };
}

const storedFile = struct(
  storedFields((p) => objectTable(p.byteOrder, p.count, p.externalCount)),
  'zippyFile',
) as unknown as Codec<StoredFile>;

const major = byteOrdered((order) => literal(u16(order), 1, 2) as Codec<1 | 2>);

/**
 * The ZSAV container, declared: the byte-order mark (`ZSAV` big-endian, `VASZ` every integer
 * byte-swapped) that every later field follows, a header whose flags, counts and offsets are rebuilt
 * on write and must agree with what follows on read, the roots and externals as arrays, the object
 * table (the core's `directory`), and the `ZEND` + CRC-32 trailer when the file has one. Decoded
 * segments are views into the input (see {@link ZObject.segments}). Every error names the path of
 * the value in the document (objects from 0, as `toJson` lists them) and the file offset.
 */
/** The header's flags, counts and offsets: the document has no place for them (rebuilt on write). */
const ZIPPY_FRAMING = ['headFlags', 'tailFlags', 'count', 'rootCount', 'externalCount', 'directoryAt', 'dataAt'];

export const zippyFile: Codec<ZippyFile> = map(storedFile, {
  name: 'zippyFile',
  // The header's flags, counts and offsets have no place in the document: an error there names them so.
  framing: ZIPPY_FRAMING,
  json: fileJson,
  decode: ({ byteOrder, major, minor, numberFormat, crc, roots, externals, objects }): ZippyFile => ({
    byteOrder,
    major,
    minor,
    numberFormat,
    crc,
    roots,
    externals,
    objects,
  }),
  // The header's other fields are rebuilt.
  encode: (file) => ({ ...file }) as StoredFile,
});

function align4(n: number): number {
  return n + ((4 - (n % 4)) % 4);
}

/** A tag's 32-bit value, or undefined when it is not four characters of one byte each. */
function tagOf(name: unknown): number | undefined {
  if (typeof name !== 'string' || name.length !== 4) return undefined;
  for (let i = 0; i < 4; i++) if (name.charCodeAt(i) > 0xff) return undefined;
  return tagValue(name);
}

/** A value for a message, bounded and without calling anything of its own. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/** How many references, segments and segment bytes the objects hold (holes skipped, as `forEach` skips them). */
function columnTotals(objects: ReadonlyArray<ZObject>): [number, number, number] {
  const totals: [number, number, number] = [0, 0, 0];
  objects.forEach((o) => {
    totals[0] += o.references.length;
    totals[1] += o.segments.length;
    for (const seg of o.segments) totals[2] += seg.length;
  });
  return totals;
}

/** A file's objects as a core graph image (for `readGraph`). */
export function toGraphImage(file: ZippyFile): GraphImage {
  const kinds: string[] = [];
  const kindIndex = new Map<string, number>();
  const n = file.objects.length;
  const kindOf = new Uint32Array(n);
  const sizes = new Uint32Array(n);
  const refStart = new Uint32Array(n + 1);
  const segStart = new Uint32Array(n + 1);
  // Totals first (so each column is allocated once at its size), then the columns.
  const objects = file.objects;
  const [refTotal, segTotal, dataTotal] = columnTotals(objects);
  const refs = new Int32Array(refTotal);
  const dataStart = new Uint32Array(segTotal + 1);
  const data = new Uint8Array(dataTotal);
  let r = 0;
  let s = 0;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const o = objects[i]!;
    if (o === undefined && !(i in objects)) continue; // a hole, skipped as forEach and reduce skip it
    let k = kindIndex.get(o.tag);
    if (k === undefined) {
      k = kinds.length;
      kinds.push(o.tag);
      kindIndex.set(o.tag, k);
    }
    kindOf[i] = k;
    sizes[i] = o.size;
    refStart[i] = r;
    segStart[i] = s;
    const references = o.references;
    for (let x = 0; x < references.length; x++) refs[r++] = references[x]!;
    const segments = o.segments;
    for (let x = 0; x < segments.length; x++) {
      const seg = segments[x]!;
      dataStart[s++] = d;
      // Segments are mostly a few bytes: a loop beats a builtin call for them.
      if (seg.length <= 16) for (let j = 0; j < seg.length; j++) data[d + j] = seg[j]!;
      else data.set(seg, d);
      d += seg.length;
    }
  }
  refStart[n] = r;
  segStart[n] = s;
  dataStart[s] = d;
  return {
    roots: file.roots,
    kinds,
    kindOf,
    sizes,
    refStart,
    refs,
    segStart,
    dataStart,
    data,
    externals: file.externals,
  };
}

/**
 * A core graph image as a file's objects (major version 2 unless `options.major` says 1). The
 * segments are views into the image's data, as decoded segments are views into the input: writing
 * into a segment writes into the image (copy one with `slice()` to change it on its own).
 */
export function fromGraphImage(
  image: GraphImage,
  options: {
    readonly crc?: boolean;
    readonly numberFormat?: number;
    readonly byteOrder?: 'be' | 'le';
    readonly major?: 1 | 2;
  } = {},
): ZippyFile {
  const { kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data } = image;
  const n = kindOf.length;
  const objects: ZObject[] = [];
  // In range by the image's invariants: every per-object array has an entry per object (plus one).
  // Segments are views into the image's data (no buffer of their own per segment: a million small
  // copies cost a save more than writing them did), as decoded segments are views into the input.
  for (let i = 0; i < n; i++) {
    const s0 = segStart[i]!;
    const s1 = segStart[i + 1]!;
    const segments: Uint8Array[] = new Array(s1 - s0);
    for (let x = s0; x < s1; x++) segments[x - s0] = data.subarray(dataStart[x], dataStart[x + 1]);
    const r0 = refStart[i]!;
    const r1 = refStart[i + 1]!;
    const references: number[] = new Array(r1 - r0);
    for (let x = r0; x < r1; x++) references[x - r0] = refs[x]!;
    objects.push({ tag: kinds[kindOf[i]!]!, size: sizes[i]!, references, segments });
  }
  return {
    byteOrder: options.byteOrder ?? 'be',
    major: options.major ?? CURRENT_MAJOR,
    minor: 0,
    numberFormat: options.numberFormat ?? 0,
    crc: options.crc ?? true,
    roots: [...image.roots],
    externals: [...image.externals],
    objects,
  };
}

/**
 * A decoded ZSAV file whose objects are a core graph image (what `readGraph` restores) instead of
 * one document object per object: the header's fields as in {@link ZippyFile}, then `image`.
 */
export interface ZippyImageFile extends Omit<ZippyFile, 'objects' | 'roots' | 'externals'> {
  /** The objects, roots and externals, in columns. */
  readonly image: GraphImage;
}

/**
 * The object table as {@link objectTable} declares it — the same entries, bodies, checks and
 * errors — as the core's graph directory: decoded, its objects go into the columns of an image
 * instead of a document object each; encoded, the image's columns are written as they are.
 */
function objectImageTable(order: ByteOrder, count: number, externals: number, crc: boolean): Codec<GraphImage> {
  return graphDirectory<DirectoryEntry, keyof DirectoryEntry>({
    name: `objectTable(${order})`,
    count,
    entry: directoryEntry(order),
    place: { offset: 'bodyAt', length: 'bodyLength' },
    fields: { kind: 'tag', size: 'size', references: 'referenceCount', segments: 'segmentCount' },
    kindName: tagName,
    kindValue(name) {
      const value = tagOf(name);
      if (value === undefined) throw new Error(`tag ${shown(name)} is not four characters of one byte each`);
      return value;
    },
    reference: reference(order, count, externals),
    segment: { length: u32(order), align: 4 },
    // Checked on reading as checkBody checks the document's objects, with its messages.
    leading: {
      value: u32(order),
      refused: (name) => `segment 0 must start with its tag ${JSON.stringify(name)}`,
      missing: 'segment 0 must start with the tag',
      mismatch: (stored, found) =>
        `the directory says ${JSON.stringify(tagName(stored))}, segment 0 says ${JSON.stringify(tagName(found))}`,
    },
    // The trailer follows: `ZEND` and the CRC.
    after: crc ? 8 : 0,
  });
}

/** {@link StoredFile} with the image table's objects. */
type StoredImageFile = Omit<StoredFile, 'objects'> & { objects: GraphImage };

const storedImageFile = struct(
  storedFields(
    (p) => objectImageTable(p.byteOrder, p.count, p.externalCount, p.crc === true),
    (objects) => (objects as GraphImage | undefined)?.kindOf?.length ?? 0,
  ),
  'zippyFile',
) as unknown as Codec<StoredImageFile>;

/**
 * The ZSAV container decoded into a core graph image ({@link ZippyImageFile}): the same declaration
 * as {@link zippyFile} — every check, error, path and offset the same — but its objects go straight
 * into the image's columns, so a load that restores them through `readGraph` makes no document
 * object per object (for a million objects, hundreds of megabytes the collector would carry through
 * the load). Encoding writes the image's objects as {@link fromGraphImage} would give them.
 */
export const zippyImageFile: Codec<ZippyImageFile> = map(storedImageFile, {
  name: 'zippyFile',
  framing: ZIPPY_FRAMING,
  json: t.unknown as unknown as t.Type<ZippyImageFile, unknown, unknown>,
  decode: ({ byteOrder, major, minor, numberFormat, crc, roots, externals, objects }): ZippyImageFile => ({
    byteOrder,
    major,
    minor,
    numberFormat,
    crc,
    image: { ...objects, roots, externals },
  }),
  encode(file) {
    const { image, ...rest } = file;
    return { ...rest, roots: [...image.roots], externals: [...image.externals], objects: image } as StoredImageFile;
  },
});
