/**
 * The ZSAV v1 container (zippy.md §2, as the package README gives it byte by byte): a 32-byte
 * header, the roots, the externals table, an object directory of (tag, recorded size, counts, body
 * offset and length), the bodies — references, then length-prefixed data segments padded to 4 — and
 * an optional `ZEND` + CRC-32 trailer. Big-endian, so the tags' bytes spell `LUA\0` and `DATA`; a
 * wholly byte-swapped file (magic `VASZ`) is read too and written back as it was.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  aligned,
  array,
  borrowedBytes,
  checksum,
  crc32,
  defineCodec,
  jsonBytes,
  literal,
  magic,
  map,
  nothing,
  optional,
  pstring,
  readChild,
  struct,
  u8,
  u16be,
  u16le,
  u32be,
  u32le,
  writeChild,
  type Codec,
  type GraphImage,
} from '@savekit/core';
import { tagName, tagValue } from './tags.js';

/** One object of a file. */
export interface ZObject {
  /** The tag's four characters (`LUA\u0000`, `DATA`, `ADAT`, or an application's). */
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
  /** Format minor version (the major is 1). */
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
const DIRECTORY_ENTRY = 24;
/** Stored references at and above this are externals (`0x80000000 + e`). */
const EXTERNAL = 0x80000000;
/** The magic as the first four bytes of a file in each byte order. */
const MAGIC = { be: 'ZSAV', le: 'VASZ' } as const;
/** The trailer's marker (`0x5A454E44`) as its four bytes in each byte order. */
const END = { be: 'ZEND', le: 'DNEZ' } as const;

type ByteOrder = ZippyFile['byteOrder'];

const objectJson = t.type({
  tag: t.string,
  size: t.number,
  references: t.array(t.number),
  segments: t.array(jsonBytes()),
});
const fileJson = t.type(
  {
    byteOrder: t.keyof({ be: null, le: null }),
    minor: t.number,
    numberFormat: t.number,
    crc: t.boolean,
    roots: t.array(t.number),
    externals: t.array(t.string),
    objects: t.array(objectJson),
  },
  'ZippyFile',
) as unknown as t.Type<ZippyFile, unknown, unknown>;

/**
 * A tag: a u32 in the file's byte order, its four characters in the document. Fixed-size reads and
 * writes go straight through the integer's (so a directory of entries is read at precomputed offsets).
 */
function tagCodec(u32: Codec<number>): Codec<string> {
  const stored = (tag: string): number => {
    const value = tagOf(tag);
    if (value === undefined) throw new Error(`tag ${shown(tag)} is not four characters of one byte each`);
    return value;
  };
  const viaMap = map(u32, { name: 'tag', decode: tagName, encode: stored });
  const readFixed = u32.readFixed;
  const writeFixed = u32.writeFixed;
  if (readFixed === undefined || writeFixed === undefined) throw new Error('tagCodec: u32 has no fixed access');
  return defineCodec<string>({
    ...viaMap,
    readFixed: (r, at) => tagName(readFixed(r, at)),
    writeFixed: (w, at, tag) => writeFixed(w, at, stored(tag)),
  });
}

/**
 * A reference: stored as 0, 1…N or `0x80000000 + e`; in the document 0 (null), 1…N (an object) or
 * −(e + 1) (external `e`). Checked against the file's object and external counts both ways.
 */
function referenceCodec(u32: Codec<number>, objects: number, externals: number): Codec<number> {
  return map(u32, {
    name: 'reference',
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

/** What one byte order's declarations are built from. */
interface OrderCodecs {
  readonly u16: Codec<number>;
  readonly u32: Codec<number>;
  /** The major version this reader knows: 1. */
  readonly major: Codec<1>;
  /** A directory entry: the tag, the recorded size, the counts and the place of the body. */
  readonly entry: Codec<DirectoryEntry>;
  /** A data segment: a u32 length, the bytes (a view into the input), zeros to a multiple of 4. */
  readonly segment: Codec<Uint8Array>;
  /** The `ZEND` + CRC-32 trailer: the CRC of every byte of the file before it. */
  readonly trailer: Codec<undefined>;
}

interface DirectoryEntry {
  tag: string;
  size: number;
  referenceCount: number;
  segmentCount: number;
  bodyAt: number;
  bodyLength: number;
}

function orderCodecs(order: ByteOrder): OrderCodecs {
  const u16 = order === 'be' ? u16be : u16le;
  const u32 = order === 'be' ? u32be : u32le;
  const endMarker = map(struct({ marker: magic(END[order]), crc: u32 }), {
    name: 'ZEND',
    decode: (stored) => stored.crc,
    encode: (crc: number) => ({ marker: END[order], crc }),
  });
  return {
    u16,
    u32,
    major: literal(u16, 1),
    entry: struct({
      tag: tagCodec(u32),
      size: u32,
      referenceCount: u32,
      segmentCount: u32,
      bodyAt: u32,
      bodyLength: u32,
    }),
    segment: aligned(4, borrowedBytes(u32)),
    trailer: checksum(nothing, { algorithm: crc32, stored: endMarker, covers: 'window' }),
  };
}

const ORDERS: Readonly<Record<ByteOrder, OrderCodecs>> = { be: orderCodecs('be'), le: orderCodecs('le') };

/** The codecs of one byte order, for a dependent field (`p.byteOrder` was read or is being written). */
const inOrder = (p: { byteOrder: ByteOrder }): OrderCodecs => ORDERS[p.byteOrder];

/** The value of `segment`'s first four bytes as a u32 in `order` (the tag an object's data starts with). */
function leadingTag(segment: Uint8Array, order: ByteOrder): string {
  const [a = 0, b = 0, c = 0, d = 0] = order === 'be' ? segment : [segment[3], segment[2], segment[1], segment[0]];
  return String.fromCharCode(a, b, c, d);
}

/** Bytes an object's body takes: its references, then each segment's length, bytes and padding. */
function bodyLength(o: ZObject): number {
  let length = 4 * o.references.length;
  for (const segment of o.segments) length += 4 + align4(segment instanceof Uint8Array ? segment.length : 0);
  return length;
}

/**
 * The object table: `count` directory entries, then the bodies in the same order, each where the
 * one before ends. The document has one `objects[i]` for entry `i` and body `i` together, and entry
 * `i` says how many references body `i` starts with — two regions zipped into one list, which no
 * core combinator expresses; each part is a core codec (`entry`, `reference`, `segment`) and this
 * codec only walks them in step, with paths and budget charged by `readChild`/`writeChild`.
 */
function objectTable(order: ByteOrder, count: number, externals: number): Codec<ZObject[]> {
  const { entry, segment, u32 } = ORDERS[order];
  const entries = array(entry, count);
  const reference = referenceCodec(u32, count, externals);
  // A body's codec depends only on its reference count: one codec per count met (at most about
  // √(file size / 2) distinct counts fit in a file, so the cache stays small).
  const bodies = new Map<number, Codec<{ references: number[]; segments: Uint8Array[] }>>();
  const bodyCodec = (references: number) => {
    let codec = bodies.get(references);
    if (codec === undefined) {
      codec = struct({ references: array(reference, references), segments: array(segment, 'rest') });
      bodies.set(references, codec);
    }
    return codec;
  };
  return defineCodec<ZObject[]>({
    name: `objectTable(${order})`,
    kind: 'zippyObjectTable',
    json: t.array(objectJson) as unknown as t.Type<ZObject[], unknown, unknown>,
    minSize: count * DIRECTORY_ENTRY,
    meta: { order, count, externals },
    children: [
      { key: '[]', codec: entry },
      { key: 'body', codec: bodyCodec(0) },
    ],
    read(r) {
      const directoryAt = r.pos;
      const directory = entries.read(r);
      const objects: ZObject[] = [];
      let expected = 0;
      for (let i = 0; i < count; i++) {
        const e = directory[i]!;
        const entryAt = directoryAt + i * DIRECTORY_ENTRY;
        if (e.bodyAt !== expected)
          throw r.errorAt(
            i,
            `body at ${e.bodyAt}, expected ${expected} (bodies follow each other in index order)`,
            entryAt + 16,
          );
        if (e.bodyLength > r.remaining)
          throw r.errorAt(i, `body of ${e.bodyLength} bytes runs past the end (${r.remaining} left)`, entryAt + 20);
        const bodyAt = r.pos;
        const body = readChild(r.window(e.bodyLength), i, bodyCodec(e.referenceCount));
        if (body.segments.length !== e.segmentCount)
          throw r.errorAt(
            i,
            `the directory says ${e.segmentCount} segments, the body holds ${body.segments.length}`,
            entryAt + 12,
          );
        const first = body.segments[0];
        if (first === undefined || first.length < 4)
          throw r.errorAt(i, 'segment 0 must start with the tag', bodyAt + 4 * e.referenceCount);
        const found = leadingTag(first, order);
        if (found !== e.tag)
          throw r.errorAt(
            i,
            `the directory says ${JSON.stringify(e.tag)}, segment 0 says ${JSON.stringify(found)}`,
            bodyAt + 4 * e.referenceCount + 4,
          );
        objects.push({ tag: e.tag, size: e.size, references: body.references, segments: body.segments });
        expected += e.bodyLength;
      }
      return objects;
    },
    write(w, objects) {
      if (!Array.isArray(objects)) throw w.error('expected a list of objects');
      // Everything is checked before the bodies are written; the directory, written first, needs
      // their lengths.
      const directory: DirectoryEntry[] = [];
      let bodyAt = 0;
      for (let i = 0; i < objects.length; i++) {
        const o: unknown = objects[i];
        if (
          typeof o !== 'object' ||
          o === null ||
          !Array.isArray((o as ZObject).references) ||
          !Array.isArray((o as ZObject).segments)
        )
          throw w.errorAt(i, 'expected { tag, size, references, segments }');
        const { tag, size, references, segments } = o as ZObject;
        const first = segments[0];
        if (
          tagOf(tag) !== undefined &&
          (!(first instanceof Uint8Array) || first.length < 4 || leadingTag(first, order) !== tag)
        )
          throw w.errorAt(i, `segment 0 must start with its tag ${JSON.stringify(tag)}`);
        const length = bodyLength(o as ZObject);
        directory.push({
          tag,
          size,
          referenceCount: references.length,
          segmentCount: segments.length,
          bodyAt,
          bodyLength: length,
        });
        bodyAt += length;
      }
      // Offsets and lengths are 32-bit: the bodies of a file past 4 GiB cannot be placed.
      if (bodyAt > 0xffffffff) throw w.error(`the bodies would take ${bodyAt} bytes; ZSAV offsets reach 4 GiB`);
      w.presize(objects.length * DIRECTORY_ENTRY + bodyAt + 8);
      array(entry, objects.length).write(w, directory);
      for (let i = 0; i < objects.length; i++) {
        const o = objects[i]!;
        writeChild(w, i, bodyCodec(o.references.length), o);
      }
    },
  });
}

/** Whether the trailer is there (`crc` in the document): it is the last thing in the file, if anything. */
function trailerPresence(trailer: Codec<undefined>): Codec<boolean> {
  const present = map(trailer, { name: 'trailer', decode: (): true => true, encode: () => undefined });
  return map(optional(present), {
    name: 'crc',
    decode: (found) => found === true,
    encode(crc: boolean) {
      if (typeof crc !== 'boolean') throw new Error(`crc ${shown(crc)} is not true or false`);
      return crc ? true : undefined;
    },
  });
}

const byteOrder = map(magic(MAGIC.be, MAGIC.le), {
  name: 'byteOrder',
  decode: (found): ByteOrder => (found === MAGIC.be ? 'be' : 'le'),
  encode(order: ByteOrder) {
    if (order !== 'be' && order !== 'le') throw new Error(`byte order ${shown(order)} is neither "be" nor "le"`);
    return MAGIC[order];
  },
});

/** Header bytes 8–11 hold the flag bits (externals 1, CRC 2) and the number format (bits 8–11): a u32, so in a byte-swapped file the flag byte comes first. */
const FLAG_FIELDS = {
  be: { headFlags: literal(u16be, 0), tailFlags: u8 },
  le: { headFlags: u8, tailFlags: literal(u16le, 0) },
} as const;

const crcPresence = { be: trailerPresence(ORDERS.be.trailer), le: trailerPresence(ORDERS.le.trailer) };

/** The file as stored: the header's counts and offsets beside the document's fields. */
interface StoredFile extends ZippyFile {
  major: 1;
  headFlags: number;
  tailFlags: number;
  count: number;
  rootCount: number;
  externalCount: number;
  directoryAt: number;
  dataAt: number;
}

const utf8Length = (text: unknown): number => (typeof text === 'string' ? new TextEncoder().encode(text).length : 0);

/** Where the directory starts: after the header, the roots and the externals (padded to 4). */
function directoryOffset(roots: number, externals: ReadonlyArray<unknown>): number {
  return HEADER + 4 * roots + align4(externals.reduce<number>((n, name) => n + 2 + utf8Length(name), 0));
}

/** The flag bits the rest of the file implies. */
const flagBits = (file: { externals: ReadonlyArray<unknown>; crc: unknown }): number =>
  (file.externals.length > 0 ? 1 : 0) | (file.crc ? 2 : 0);

const stored = struct(
  {
    byteOrder,
    major: (p: StoredFile) => inOrder(p).major,
    minor: (p: StoredFile) => inOrder(p).u16,
    headFlags: (p: StoredFile) => FLAG_FIELDS[p.byteOrder].headFlags,
    numberFormat: literal(u8, 0, 1),
    tailFlags: (p: StoredFile) => FLAG_FIELDS[p.byteOrder].tailFlags,
    count: (p: StoredFile) => inOrder(p).u32,
    rootCount: (p: StoredFile) => inOrder(p).u32,
    externalCount: (p: StoredFile) => inOrder(p).u32,
    directoryAt: (p: StoredFile) => inOrder(p).u32,
    dataAt: (p: StoredFile) => inOrder(p).u32,
    roots: (p: StoredFile) => array(referenceCodec(inOrder(p).u32, p.count, p.externalCount), p.rootCount),
    externals: (p: StoredFile) => aligned(4, array(pstring(inOrder(p).u16, 'utf8'), p.externalCount)),
    objects: (p: StoredFile) => objectTable(p.byteOrder, p.count, p.externalCount),
    crc: (p: StoredFile) => crcPresence[p.byteOrder],
  },
  'zippyFile',
);

const asDocument = map(stored as unknown as Codec<StoredFile>, {
  name: 'zippyFile',
  decode(s): ZippyFile {
    const flags = s.byteOrder === 'be' ? s.tailFlags : s.headFlags;
    if ((flags & ~3) !== 0) throw new Error(`unknown header flags 0x${flags.toString(16)}`);
    if (flags !== flagBits(s))
      throw new Error(
        `the header's flags (0x${flags.toString(16)}) do not match the file (${s.externals.length} externals, ${s.crc ? 'a' : 'no'} CRC trailer)`,
      );
    const directoryAt = directoryOffset(s.rootCount, s.externals);
    if (s.directoryAt !== directoryAt)
      throw new Error(`the directory should follow the externals at ${directoryAt}, the header says ${s.directoryAt}`);
    const dataAt = directoryAt + s.count * DIRECTORY_ENTRY;
    if (s.dataAt !== dataAt)
      throw new Error(`the data area should follow the directory at ${dataAt}, the header says ${s.dataAt}`);
    const { byteOrder, minor, numberFormat, crc, roots, externals, objects } = s;
    return { byteOrder, minor, numberFormat, crc, roots, externals, objects };
  },
  encode(file): StoredFile {
    if (typeof file !== 'object' || file === null) throw new Error('expected a ZSAV file');
    const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : []);
    const roots = list(file.roots).length;
    const externals = list(file.externals);
    const count = list(file.objects).length;
    const flags = flagBits({ externals, crc: file.crc });
    const directoryAt = directoryOffset(roots, externals);
    return {
      ...file,
      major: 1,
      headFlags: file.byteOrder === 'le' ? flags : 0,
      tailFlags: file.byteOrder === 'le' ? 0 : flags,
      count,
      rootCount: roots,
      externalCount: externals.length,
      directoryAt,
      dataAt: directoryAt + count * DIRECTORY_ENTRY,
    };
  },
});

/**
 * The ZSAV v1 container, declared: the byte order the magic fixes (`ZSAV` big-endian, `VASZ` every
 * integer byte-swapped), a header whose counts and offsets must agree with what follows, the roots
 * and externals as arrays, the object table, and the `ZEND` + CRC-32 trailer when the file has one.
 * Decoded segments are views into the input (see {@link ZObject.segments}). Every error names the
 * path of the value in the document (objects from 0, as `toJson` lists them) and the file offset.
 */
export const zippyFile: Codec<ZippyFile> = defineCodec<ZippyFile>({
  ...asDocument,
  json: fileJson,
  minSize: HEADER,
});

function align4(n: number): number {
  return n + ((4 - (n % 4)) % 4);
}

/** A tag's 32-bit value, or undefined when it is not four characters of one byte each. */
function tagOf(tag: unknown): number | undefined {
  if (typeof tag !== 'string' || tag.length !== 4) return undefined;
  for (let i = 0; i < 4; i++) if (tag.charCodeAt(i) > 0xff) return undefined;
  return tagValue(tag);
}

/** A value for a message, bounded and without calling anything of its own. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
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
  const refTotal = file.objects.reduce((s, o) => s + o.references.length, 0);
  const segTotal = file.objects.reduce((s, o) => s + o.segments.length, 0);
  const dataTotal = file.objects.reduce((s, o) => s + o.segments.reduce((a, b) => a + b.length, 0), 0);
  const refs = new Int32Array(refTotal);
  const dataStart = new Uint32Array(segTotal + 1);
  const data = new Uint8Array(dataTotal);
  let r = 0;
  let s = 0;
  let d = 0;
  file.objects.forEach((o, i) => {
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
    for (const ref of o.references) refs[r++] = ref;
    for (const seg of o.segments) {
      dataStart[s++] = d;
      data.set(seg, d);
      d += seg.length;
    }
  });
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

/** A core graph image as a file's objects. */
export function fromGraphImage(
  image: GraphImage,
  options: { readonly crc?: boolean; readonly numberFormat?: number; readonly byteOrder?: 'be' | 'le' } = {},
): ZippyFile {
  const objects: ZObject[] = [];
  for (let i = 0; i < image.kindOf.length; i++) {
    const segments: Uint8Array[] = [];
    // In range by the image's invariants: every per-object array has an entry per object (plus one).
    for (let x = image.segStart[i]!; x < image.segStart[i + 1]!; x++)
      segments.push(image.data.slice(image.dataStart[x], image.dataStart[x + 1]));
    objects.push({
      tag: image.kinds[image.kindOf[i]!]!,
      size: image.sizes[i]!,
      references: Array.from(image.refs.subarray(image.refStart[i], image.refStart[i + 1])),
      segments,
    });
  }
  return {
    byteOrder: options.byteOrder ?? 'be',
    minor: 0,
    numberFormat: options.numberFormat ?? 0,
    crc: options.crc ?? true,
    roots: [...image.roots],
    externals: [...image.externals],
    objects,
  };
}
