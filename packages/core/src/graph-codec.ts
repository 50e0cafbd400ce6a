/**
 * A binary layout for {@link GraphImage}s, for formats that have none of their own (and for the
 * graph benchmark): counts, the kind and external name tables, then each column as little-endian
 * 32-bit integers, then the data bytes. Formats with a layout of their own (Zippy's directory and
 * bodies) convert images with their own codecs.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { textEncoding } from './encodings.js';
import type { GraphImage } from './graph-image.js';
import { jsonArray, jsonBytes, numberList } from './json.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

const utf8 = textEncoding('utf8');
const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function writeNames(w: Writer, names: ReadonlyArray<string>): void {
  for (const name of names) {
    const bytes = utf8.encode(name);
    if (bytes.length > 0xffff) throw w.error('out-of-range', `name of ${bytes.length} bytes is too long`);
    w.u8(bytes.length & 0xff);
    w.u8(bytes.length >> 8);
    w.append(bytes);
  }
}

function readNames(r: Reader, count: number, what: string): string[] {
  if (count * 2 > r.remaining)
    throw r.error('count-too-large', `${count} ${what} do not fit in the ${r.remaining} bytes left`);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = r.u8() | (r.u8() << 8);
    const at = r.pos;
    try {
      out.push(utf8.decode(r.borrow(length)));
    } catch (error) {
      if (error instanceof Error && 'index' in error) throw r.error('invalid-text', error.message, at);
      throw error;
    }
  }
  return out;
}

function writeColumn(w: Writer, column: Uint32Array | Int32Array): void {
  const at = w.ensure(column.length * 4);
  if (littleEndianHost) w.buf.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), at);
  else for (let i = 0; i < column.length; i++) w.view.setUint32(at + i * 4, column[i]! >>> 0, true);
  w.length = at + column.length * 4;
}

function readColumn<T extends Uint32Array | Int32Array>(
  r: Reader,
  count: number,
  make: (n: number) => T,
  what: string,
): T {
  if (count > r.remaining / 4)
    throw r.error('count-too-large', `${count} ${what} do not fit in the ${r.remaining} bytes left`);
  const out = make(count);
  const bytes = r.borrow(count * 4);
  if (littleEndianHost) new Uint8Array(out.buffer).set(bytes);
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  }
  return out;
}

/** Differences of an offsets column (each object's count), so they can be stored and checked. */
function counts(starts: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.max(0, starts.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = starts[i + 1]! - starts[i]!;
  return out;
}

function prefix(r: Reader, lengths: Uint32Array, what: string): Uint32Array {
  const out = new Uint32Array(lengths.length + 1);
  let total = 0;
  for (let i = 0; i < lengths.length; i++) {
    total += lengths[i]!;
    if (total > 0xffffffff) throw r.error('count-too-large', `${what} add up to more than 4 GiB`);
    out[i + 1] = total;
  }
  return out;
}

/**
 * Whether `u` is an array of integers from `min` to `max` with no missing element: stops at the first
 * that is not (`every` skips holes, and walks all of a script's 2^32 − 1 missing ones).
 */
function integersIn(u: unknown, min: number, max: number): u is number[] {
  if (!Array.isArray(u)) return false;
  for (let i = 0; i < u.length; i++) {
    const n = u[i];
    if (!(i in u) || !Number.isInteger(n) || n < min || n > max) return false;
  }
  return true;
}

const u32Array = new t.Type<Uint32Array, number[], unknown>(
  'Uint32Array',
  (u): u is Uint32Array => u instanceof Uint32Array,
  (u, c) =>
    integersIn(u, 0, 0xffffffff)
      ? t.success(Uint32Array.from(u))
      : t.failure(u, c, 'expected an array of 32-bit unsigned integers'),
  numberList,
);
const i32Array = new t.Type<Int32Array, number[], unknown>(
  'Int32Array',
  (u): u is Int32Array => u instanceof Int32Array,
  (u, c) =>
    integersIn(u, -0x80000000, 0x7fffffff)
      ? t.success(Int32Array.from(u))
      : t.failure(u, c, 'expected an array of 32-bit integers'),
  numberList,
);

/**
 * The default binary layout of a {@link GraphImage} (all integers little-endian):
 *
 * | field | encoding |
 * |---|---|
 * | object count N, root count R, kind count K, external count X, reference count F, segment count S, data length D | 7 × u32 |
 * | kinds, externals | K + X × (u16 length, UTF-8 bytes) |
 * | roots | R × i32 |
 * | per object: kind index, size, reference count, segment count | 4 columns of N × u32 |
 * | references | F × i32 |
 * | segment lengths | S × u32 |
 * | data | D bytes |
 *
 * Every count is checked against what is left before anything is allocated; the graph's own
 * consistency (references in range and so on) is checked by `readGraph`.
 */
export const graphImage: Codec<GraphImage> = defineCodec<GraphImage>({
  name: 'graphImage',
  def: { type: 'graphImage' },
  json: t.type({
    roots: jsonArray(t.number),
    kinds: jsonArray(t.string),
    kindOf: u32Array,
    sizes: u32Array,
    refStart: u32Array,
    refs: i32Array,
    segStart: u32Array,
    dataStart: u32Array,
    data: jsonBytes(),
    externals: jsonArray(t.string),
  }) as unknown as t.Type<GraphImage, unknown, unknown>,
  minSize: 28,
  read(r) {
    r.need(28);
    const header = readColumn(r, 7, (n) => new Uint32Array(n), 'header fields');
    const objects = header[0]!;
    const rootCount = header[1]!;
    const kindCount = header[2]!;
    const externalCount = header[3]!;
    const refCount = header[4]!;
    const segmentCount = header[5]!;
    const dataLength = header[6]!;
    const kinds = readNames(r, kindCount, 'kind names');
    const externals = readNames(r, externalCount, 'external names');
    const roots = Array.from(readColumn(r, rootCount, (n) => new Int32Array(n), 'roots'));
    const kindOf = readColumn(r, objects, (n) => new Uint32Array(n), 'kind indexes');
    const sizes = readColumn(r, objects, (n) => new Uint32Array(n), 'sizes');
    const refCounts = readColumn(r, objects, (n) => new Uint32Array(n), 'reference counts');
    const segCounts = readColumn(r, objects, (n) => new Uint32Array(n), 'segment counts');
    const refs = readColumn(r, refCount, (n) => new Int32Array(n), 'references');
    const segLengths = readColumn(r, segmentCount, (n) => new Uint32Array(n), 'segment lengths');
    if (dataLength > r.remaining)
      throw r.error('short-read', `data of ${dataLength} bytes is more than the ${r.remaining} bytes left`);
    const data = r.take(dataLength);
    const refStart = prefix(r, refCounts, 'reference counts');
    const segStart = prefix(r, segCounts, 'segment counts');
    const dataStart = prefix(r, segLengths, 'segment lengths');
    if (refStart[objects] !== refCount)
      throw r.error('size-mismatch', `objects claim ${refStart[objects]} references, the file has ${refCount}`);
    if (segStart[objects] !== segmentCount)
      throw r.error('size-mismatch', `objects claim ${segStart[objects]} segments, the file has ${segmentCount}`);
    if (dataStart[segmentCount] !== dataLength)
      throw r.error('size-mismatch', `segments claim ${dataStart[segmentCount]} bytes, the data has ${dataLength}`);
    return { roots, kinds, kindOf, sizes, refStart, refs, segStart, dataStart, data, externals };
  },
  write(w, image) {
    const objects = image.kindOf.length;
    const segments = image.dataStart.length - 1;
    // Room for everything at once: one allocation instead of repeated doubling.
    let names = 0;
    for (const name of image.kinds) names += 2 + name.length * 3;
    for (const name of image.externals) names += 2 + name.length * 3;
    w.ensure(28 + names + 4 * (image.roots.length + 4 * objects + image.refs.length + segments) + image.data.length);
    writeColumn(
      w,
      Uint32Array.of(
        objects,
        image.roots.length,
        image.kinds.length,
        image.externals.length,
        image.refs.length,
        segments,
        image.data.length,
      ),
    );
    writeNames(w, image.kinds);
    writeNames(w, image.externals);
    writeColumn(w, Int32Array.from(image.roots));
    writeColumn(w, image.kindOf);
    writeColumn(w, image.sizes);
    writeColumn(w, counts(image.refStart));
    writeColumn(w, counts(image.segStart));
    writeColumn(w, image.refs);
    writeColumn(w, counts(image.dataStart));
    w.append(image.data);
  },
});
