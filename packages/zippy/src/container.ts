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
  crc32,
  defineCodec,
  jsonBytes,
  reportChecksumMismatch,
  type Codec,
  type GraphImage,
  type Reader,
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

const MAGIC = 0x5a534156; // "ZSAV"
const HEADER = 32;
const DIRECTORY_ENTRY = 24;
const EXTERNAL = 0x80000000;

function u32(r: Reader, le: boolean, at: number): number {
  return r.view.getUint32(at, le);
}

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

/** Reads a reference value: 0, 1…N, or 0x80000000 + e. */
function reference(r: Reader, value: number, count: number, externals: number, at: number): number {
  if (value === 0) return 0;
  if (value >= EXTERNAL) {
    const e = value - EXTERNAL;
    if (e >= externals) throw r.error(`reference to external #${e}, but there are ${externals}`, at);
    return -(e + 1);
  }
  if (value > count) throw r.error(`reference to object ${value}, but there are ${count}`, at);
  return value;
}

/** The ZSAV v1 container. */
export const zippyFile: Codec<ZippyFile> = defineCodec<ZippyFile>({
  name: 'zippyFile',
  kind: 'zippyFile',
  json: fileJson,
  minSize: HEADER,
  read(r) {
    const base = r.pos;
    r.need(HEADER);
    const path = r.state.path;
    const magicBE = r.view.getUint32(base, false);
    const le = magicBE === 0x5641535a; // "VASZ": every integer byte-swapped
    if (magicBE !== MAGIC && !le)
      throw r.error(`not a ZSAV file: magic 0x${magicBE.toString(16).padStart(8, '0')}`, base);
    const major = r.view.getUint16(base + 4, le);
    const minor = r.view.getUint16(base + 6, le);
    if (major !== 1) throw r.error(`ZSAV major version ${major}; this reader knows 1`, base + 4);
    const flags = u32(r, le, base + 8);
    if ((flags & ~0xf03) !== 0) throw r.error(`unknown header flags 0x${flags.toString(16)}`, base + 8);
    const hasExternals = (flags & 1) !== 0;
    const crc = (flags & 2) !== 0;
    const numberFormat = (flags >>> 8) & 0xf;
    if (numberFormat > 1) throw r.error(`number format ${numberFormat} is neither 0 (f64) nor 1 (f32)`, base + 8);
    const count = u32(r, le, base + 12);
    const rootCount = u32(r, le, base + 16);
    const externalCount = u32(r, le, base + 20);
    const directoryAt = u32(r, le, base + 24);
    const dataAt = u32(r, le, base + 28);
    const end = r.end - (crc ? 8 : 0);
    const size = end - base;
    if (!hasExternals && externalCount !== 0)
      throw r.error(`${externalCount} externals but the externals flag is clear`, base + 20);
    if (count > 0x7fffffff || rootCount * 4 > size || count * DIRECTORY_ENTRY > size)
      throw r.error(`${count} objects and ${rootCount} roots do not fit in ${size} bytes`, base + 12);
    if (crc) {
      if (r.end - base < HEADER + 8) throw r.shortfall(8);
      const at = r.end - 8;
      if (r.view.getUint32(at, le) !== 0x5a454e44) throw r.error('the CRC trailer does not start with ZEND', at);
      const stored = u32(r, le, at + 4);
      const actual = crc32.compute(r.bytes.subarray(base, at));
      if (stored !== actual) {
        const message = `CRC-32 mismatch: stored 0x${stored.toString(16).padStart(8, '0')}, computed 0x${actual.toString(16).padStart(8, '0')}`;
        reportChecksumMismatch(r, message, at + 4, 'crc');
      }
    }
    // Roots. (Every root, external, object, reference and segment costs a unit of the decode's work
    // budget; each count was checked against the bytes present above or is checked as it is read.)
    let at = base + HEADER;
    const roots: number[] = [];
    for (let i = 0; i < rootCount; i++, at += 4) {
      path.push('roots', i);
      r.work(1);
      roots.push(reference(r, u32(r, le, at), count, externalCount, at));
      path.length -= 2;
    }
    // Externals: u16 length + bytes each, then padding to 4.
    const externals: string[] = [];
    const utf8 = new TextDecoder('utf-8', { fatal: false });
    for (let e = 0; e < externalCount; e++) {
      path.push('externals', e);
      r.work(1);
      if (at + 2 > base + size) throw r.error('the externals table runs past the end', at);
      const length = r.view.getUint16(at, le);
      if (at + 2 + length > base + size) throw r.error(`external name of ${length} bytes runs past the end`, at);
      externals.push(utf8.decode(r.bytes.subarray(at + 2, at + 2 + length)));
      at += 2 + length;
      path.length -= 2;
    }
    const padded = base + align4(at - base);
    for (; at < padded; at++) if (r.bytes[at] !== 0) throw r.error('non-zero padding after the externals', at);
    if (directoryAt !== at - base)
      throw r.error(
        `the directory should follow the externals at ${at - base}, the header says ${directoryAt}`,
        base + 24,
      );
    if (dataAt !== directoryAt + count * DIRECTORY_ENTRY)
      throw r.error(
        `the data area should follow the directory at ${directoryAt + count * DIRECTORY_ENTRY}, the header says ${dataAt}`,
        base + 28,
      );
    if (dataAt > size) throw r.error(`the data area starts at ${dataAt}, past the end (${size})`, base + 28);
    // Directory and bodies, in index order, contiguous.
    const objects: ZObject[] = [];
    let expectedBody = 0;
    const dataBase = base + dataAt;
    for (let n = 1; n <= count; n++) {
      const entry = base + directoryAt + (n - 1) * DIRECTORY_ENTRY;
      path.push('objects', n);
      const tag = u32(r, le, entry);
      const recorded = u32(r, le, entry + 4);
      const refCount = u32(r, le, entry + 8);
      const segCount = u32(r, le, entry + 12);
      const bodyAt = u32(r, le, entry + 16);
      const bodyLength = u32(r, le, entry + 20);
      if (bodyAt !== expectedBody)
        throw r.error(
          `object ${n}: body at ${bodyAt}, expected ${expectedBody} (bodies follow each other in index order)`,
          entry + 16,
        );
      if (dataBase + bodyAt + bodyLength > base + size)
        throw r.error(`object ${n}: body of ${bodyLength} bytes runs past the end`, entry + 20);
      if (refCount * 4 + segCount * 4 > bodyLength)
        throw r.error(
          `object ${n}: ${refCount} references and ${segCount} segments do not fit its ${bodyLength}-byte body`,
          entry + 8,
        );
      r.work(1 + refCount + segCount);
      let p = dataBase + bodyAt;
      const bodyEnd = p + bodyLength;
      const references: number[] = [];
      for (let k = 0; k < refCount; k++, p += 4) {
        path.push('references', k);
        references.push(reference(r, u32(r, le, p), count, externalCount, p));
        path.length -= 2;
      }
      const segments: Uint8Array[] = [];
      for (let s = 0; s < segCount; s++) {
        path.push('segments', s);
        if (p + 4 > bodyEnd) throw r.error(`object ${n}: segment ${s} runs past its body`, p);
        const length = u32(r, le, p);
        if (p + 4 + length > bodyEnd)
          throw r.error(`object ${n}: segment ${s} of ${length} bytes runs past its body`, p);
        // A view, not a copy: a separate buffer per segment doubled the memory of large saves.
        segments.push(r.bytes.subarray(p + 4, p + 4 + length));
        p += 4 + length;
        const next = dataBase + align4(p - dataBase);
        if (next > bodyEnd) throw r.error(`object ${n}: segment ${s}'s padding runs past its body`, p);
        for (; p < next; p++) if (r.bytes[p] !== 0) throw r.error(`object ${n}: non-zero segment padding`, p);
        path.length -= 2;
      }
      if (p !== bodyEnd)
        throw r.error(
          `object ${n}: its body is ${bodyLength} bytes, its references and segments take ${p - (dataBase + bodyAt)}`,
          entry + 20,
        );
      const first = segments[0];
      if (first === undefined || first.length < 4)
        throw r.error(`object ${n}: segment 0 must start with the tag`, dataBase + bodyAt);
      const segTag = new DataView(first.buffer, first.byteOffset, first.byteLength).getUint32(0, le);
      if (segTag !== tag)
        throw r.error(
          `object ${n}: the directory says ${JSON.stringify(tagName(tag))}, segment 0 says ${JSON.stringify(tagName(segTag))}`,
          dataBase + bodyAt + refCount * 4 + 4,
        );
      objects.push({ tag: tagName(tag), size: recorded, references, segments });
      // For hex views: the object (by its index in the document) is its body; its directory entry too.
      const spans = r.state.spans;
      if (spans !== undefined) {
        spans.push({ path: ['objects', n - 1], start: dataBase + bodyAt, end: bodyEnd, layer: r.layer });
        spans.push({
          path: ['objects', n - 1, 'directory'],
          start: entry,
          end: entry + DIRECTORY_ENTRY,
          layer: r.layer,
        });
      }
      expectedBody = bodyEnd - dataBase;
      path.length -= 2;
    }
    if (dataBase + expectedBody !== base + size)
      throw r.error(`${base + size - dataBase - expectedBody} bytes after the last body`, dataBase + expectedBody);
    if (r.state.spans !== undefined) {
      r.state.spans.push({ path: ['header'], start: base, end: base + HEADER, layer: r.layer });
      r.state.spans.push({ path: ['roots'], start: base + HEADER, end: base + HEADER + rootCount * 4, layer: r.layer });
    }
    r.pos = r.end;
    return { byteOrder: le ? 'le' : 'be', minor, numberFormat, crc, roots, externals, objects };
  },
  write(w, file) {
    // Everything is checked before a byte is written, so what encodes decodes to the same file:
    // each failure is an EncodeError at the document path (objects by number, 1-based, as decode
    // errors name them).
    const path = w.state.path;
    const fail = (key: string | number, message: string): never => {
      path.push(key);
      throw w.error(message);
    };
    if (typeof file !== 'object' || file === null) throw w.error('expected a ZSAV file');
    if (file.byteOrder !== 'be' && file.byteOrder !== 'le')
      fail('byteOrder', `byte order ${shown(file.byteOrder)} is neither "be" nor "le"`);
    if (!isInteger(file.minor, 0xffff)) fail('minor', `minor version ${shown(file.minor)} is not 0–65535`);
    if (file.numberFormat !== 0 && file.numberFormat !== 1)
      fail('numberFormat', `number format ${shown(file.numberFormat)} is neither 0 nor 1`);
    if (typeof file.crc !== 'boolean') fail('crc', `crc ${shown(file.crc)} is not true or false`);
    if (!Array.isArray(file.roots)) fail('roots', 'expected a list of references');
    if (!Array.isArray(file.externals)) fail('externals', 'expected a list of names');
    if (!Array.isArray(file.objects)) fail('objects', 'expected a list of objects');
    const le = file.byteOrder === 'le';
    const start = w.length;
    const count = file.objects.length;
    if (count > 0x7fffffff) fail('objects', `${count} objects; a file holds at most 2147483647`);
    const names: Uint8Array[] = [];
    const utf8 = new TextEncoder();
    for (let e = 0; e < file.externals.length; e++) {
      const name: unknown = file.externals[e];
      path.push('externals', e);
      if (typeof name !== 'string') throw w.error(`an external name must be text, got ${shown(name)}`);
      const bad = loneSurrogate(name);
      if (bad >= 0) throw w.error(`external name ${JSON.stringify(name)} has a lone surrogate at ${bad} (not UTF-8)`);
      const bytes = utf8.encode(name);
      if (bytes.length > 0xffff) throw w.error(`an external name of ${bytes.length} bytes; at most 65535`);
      names.push(bytes);
      path.length -= 2;
    }
    const externalsSize = align4(names.reduce((n, b) => n + 2 + b.length, 0));
    const directoryAt = HEADER + file.roots.length * 4 + externalsSize;
    const dataAt = directoryAt + count * DIRECTORY_ENTRY;
    const ref = (value: unknown, what: string): number => {
      if (!Number.isInteger(value) || (value as number) > count || (value as number) < -file.externals.length)
        throw w.error(
          `${what}: reference ${shown(value)} is not 0, an object (1–${count}) or an external (−1…−${file.externals.length})`,
        );
      const v = value as number;
      return v < 0 ? EXTERNAL + (-v - 1) : v;
    };
    const put32 = (v: number) => {
      const at = w.ensure(4);
      w.view.setUint32(at, v >>> 0, le);
      w.length = at + 4;
    };
    const put16 = (v: number) => {
      const at = w.ensure(2);
      w.view.setUint16(at, v, le);
      w.length = at + 2;
    };
    const rootValues = file.roots.map((root, i) => {
      path.push('roots', i);
      const v = ref(root, `roots[${i}]`);
      path.length -= 2;
      return v;
    });
    // Two passes straight into the output, no body buffer or entry list in between: the first
    // checks each object and sizes its body (the directory, written first, needs the offsets), the
    // second writes the bodies. The output is sized once, exactly.
    const bodyLengths = new Float64Array(count);
    const tags = new Uint32Array(count);
    let bodiesSize = 0;
    for (let i = 0; i < count; i++) {
      const o = file.objects[i];
      path.push('objects', i + 1);
      if (typeof o !== 'object' || o === null || !Array.isArray(o.references) || !Array.isArray(o.segments))
        throw w.error(`object ${i + 1}: expected { tag, size, references, segments }`);
      const tag = tagOf(o.tag);
      if (tag === undefined)
        fail('tag', `object ${i + 1}: tag ${shown(o.tag)} is not four characters of one byte each`);
      tags[i] = tag as number;
      if (!isInteger(o.size, 0xffffffff))
        fail('size', `object ${i + 1}: recorded size ${shown(o.size)} is not a 32-bit size (0–4294967295)`);
      for (let k = 0; k < o.references.length; k++) {
        path.push('references', k);
        ref(o.references[k], `object ${i + 1}`);
        path.length -= 2;
      }
      let length = 4 * o.references.length;
      for (let k = 0; k < o.segments.length; k++) {
        const segment = o.segments[k];
        if (!(segment instanceof Uint8Array)) throw w.error(`object ${i + 1}: segment ${k} is not bytes`);
        length += 4 + align4(segment.length);
      }
      const first = o.segments[0];
      if (
        first === undefined ||
        first.length < 4 ||
        new DataView(first.buffer, first.byteOffset, first.byteLength).getUint32(0, le) !== tag
      ) {
        throw w.error(`object ${i + 1}: segment 0 must start with its tag ${JSON.stringify(o.tag)}`);
      }
      bodyLengths[i] = length;
      bodiesSize += length;
      path.length -= 2;
    }
    // Offsets and lengths are 32-bit: a file past 4 GiB cannot be written.
    if (dataAt + bodiesSize > 0xffffffff)
      throw w.error(`the file would be ${dataAt + bodiesSize} bytes; ZSAV offsets reach 4 GiB`);
    put32(MAGIC);
    put16(1);
    put16(file.minor);
    put32((file.externals.length > 0 ? 1 : 0) | (file.crc ? 2 : 0) | (file.numberFormat << 8));
    put32(count);
    put32(file.roots.length);
    put32(file.externals.length);
    put32(directoryAt);
    put32(dataAt);
    for (const root of rootValues) put32(root);
    for (const name of names) {
      put16(name.length);
      w.append(name);
    }
    w.fill(align4(w.length - start) - (w.length - start), 0);
    w.presize(count * DIRECTORY_ENTRY + bodiesSize + (file.crc ? 8 : 0));
    let bodyAt = 0;
    for (let i = 0; i < count; i++) {
      const o = file.objects[i]!; // checked by the first pass
      put32(tags[i]!);
      put32(o.size);
      put32(o.references.length);
      put32(o.segments.length);
      put32(bodyAt);
      put32(bodyLengths[i]!);
      bodyAt += bodyLengths[i]!;
    }
    for (let i = 0; i < count; i++) {
      const o = file.objects[i]!;
      path.push('objects', i + 1);
      for (const r of o.references) put32(ref(r, `object ${i + 1}`));
      for (const segment of o.segments) {
        put32(segment.length);
        w.append(segment);
        w.fill(align4(w.length - start) - (w.length - start), 0);
      }
      path.length -= 2;
    }
    if (file.crc) {
      // The CRC covers every byte before the trailer.
      const sum = crc32.compute(w.buf.subarray(start, w.length));
      put32(0x5a454e44);
      put32(sum);
    }
  },
});

function align4(n: number): number {
  return n + ((4 - (n % 4)) % 4);
}

/** Whether `value` is a whole number from 0 to `max`. */
function isInteger(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** A tag's 32-bit value, or undefined when it is not four characters of one byte each. */
function tagOf(tag: unknown): number | undefined {
  if (typeof tag !== 'string' || tag.length !== 4) return undefined;
  for (let i = 0; i < 4; i++) if (tag.charCodeAt(i) > 0xff) return undefined;
  return tagValue(tag);
}

/** The index of the first lone surrogate in `text`, or −1. */
function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
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
