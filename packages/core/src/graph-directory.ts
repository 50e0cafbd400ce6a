/**
 * A {@link GraphImage} stored as a {@link directory}: one fixed-size entry per object (its kind,
 * recorded size, reference and segment counts, and its body's place), then the bodies — each the
 * object's references, then its data segments, each a length, the bytes and padding. Zippy's object
 * table is one. Read, it is the core's `directory` whose elements go into a
 * {@link GraphImageBuilder} — or, when its checks are declared, the bytes read straight into the
 * image's columns, the directory reading only what it would refuse; written, the image's columns
 * go straight to the output — no entry,
 * body or segment view per object — giving the same bytes the `directory` of document objects
 * gives (a million-object save spent more time making and collecting those than writing them).
 *
 * @module
 */
import * as t from 'io-ts';
import { aligned } from './aligned.js';
import { array } from './array.js';
import { borrowedBytes } from './borrowed.js';
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';
import { directory } from './directory.js';
import type { EncodeError } from './errors.js';
import type { GraphImage } from './graph-image.js';
import { GraphImageBuilder } from './graph-image-builder.js';
import { copyRange } from './growing.js';
import { struct } from './struct.js';
import { resolveDecodeOptions } from './options.js';
import { Reader, ReadState } from './reader.js';
import type { Writer } from './writer.js';

/** Options of {@link graphDirectory}. */
export interface GraphDirectoryOptions<E, K extends keyof E & string> {
  /** How many objects (an earlier field's value). */
  readonly count: number;
  /**
   * An entry as stored: a struct of fixed-size fields, exactly the six that {@link place} and
   * {@link fields} name.
   */
  readonly entry: Codec<E>;
  /** The entry fields holding the body's place, as {@link directory} takes them. */
  readonly place: { readonly offset: K; readonly length: K };
  /** The entry fields holding the object's kind (as stored), recorded size, reference count and segment count. */
  readonly fields: { readonly kind: K; readonly size: K; readonly references: K; readonly segments: K };
  /** A kind's name from its stored value (read). */
  readonly kindName: (stored: number) => string;
  /** A kind's stored value from its name (write); what it throws refuses the first object of that kind. */
  readonly kindValue: (name: string) => number;
  /** One reference as stored (the image's numbering: 0 null, 1…N, −(e + 1) external `e`). */
  readonly reference: Codec<number>;
  /**
   * One data segment as stored: `length` (a fixed-size count), the bytes, then zeros up to a
   * multiple of `align` bytes from the segment's start (`aligned(align, borrowedBytes(length))`).
   */
  readonly segment: { readonly length: Codec<number>; readonly align: number };
  /**
   * When segment 0 of every object starts with its kind's stored value in this fixed-size codec:
   * writing checks it (the message of a refusal is `refused(kindName)`). Reading checks it too when
   * `missing` and `mismatch` are given (else leave it to `check`): `missing` is the message when
   * the object has no segment 0 or one too short to hold the value, `mismatch(stored, found)` when
   * it holds another value than the entry's kind.
   */
  readonly leading?: {
    readonly value: Codec<number>;
    readonly refused: (name: string) => string;
    readonly missing?: string;
    readonly mismatch?: (stored: number, found: number) => string;
  };
  /**
   * What reading checks of an object besides (its entry, its segments): what it throws refuses it.
   * Reading always checks first that the body holds as many segments as the entry says, then
   * `leading` (when it is checked on reading). Without `check`, a table of well-formed objects is
   * read straight into the image's columns, without an entry, body or segment view per object.
   */
  readonly check?: (entry: E, segments: ReadonlyArray<Uint8Array>) => void;
  /**
   * The bytes an encode writes after the table (a trailer, a checksum), when known: a hint with
   * which the writer's buffer is made to end exactly where the encode does, so the encode hands it
   * over without copying it (for a large file, a copy as large as the file). Too small a hint costs
   * the writer a larger buffer for what follows; without one, 256 bytes are left.
   */
  readonly after?: number;
  /** The codec's name (default `graphDirectory`). */
  readonly name?: string;
}

/** Where the fields {@link graphDirectory} reads lie in an entry, and the codecs reading at fixed offsets. */
interface FastFields {
  readonly bodyAt: FixedInt;
  readonly bodyLength: FixedInt;
  readonly kind: FixedInt;
  readonly size: FixedInt;
  readonly references: FixedInt;
  readonly segments: FixedInt;
  readonly readReference: (r: Reader, at: number) => number;
  readonly referenceSize: number;
  readonly readLength: (r: Reader, at: number) => number;
}

/** An integer field of an entry: its offset in the entry and its fixed-offset read. */
interface FixedInt {
  readonly offset: number;
  readonly readFixed: (r: Reader, at: number) => number;
}

/** A fixed-size codec's value at the start of `bytes` (which hold at least its size). */
function decodeFixed(codec: Codec<number>, bytes: Uint8Array): number {
  return codec.readFixed!(new Reader(bytes, new ReadState(resolveDecodeOptions(undefined))), 0);
}

/** Room left after a presized table for what usually follows it (a trailer, a checksum). */
const ROOM_AFTER = 256;
/** A presize past this many bytes is not made (the writer grows as it goes instead). */
const MAX_PRESIZE = 2 ** 31;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The objects of a {@link GraphImage} as a {@link directory} of fixed-size entries followed by
 * bodies of references and data segments (see the module). The value is an image whose `roots` and
 * `externals` are empty when read and ignored when written (the format stores them elsewhere).
 *
 * - **Decode** is the core's `directory` — the same checks, errors, paths and offsets as a
 *   `directory` of `struct({ references, segments })` bodies — into a {@link GraphImageBuilder}.
 *   Without a `check` of the application's (and with `leading`'s `missing` and `mismatch`, when
 *   there is a leading value), a table the directory would accept is read straight into the
 *   columns, with the same work charged: for a million objects, a fifth of the time.
 * - **Encode** writes the image's columns as that directory writes the same objects, byte for byte:
 *   each body after the one before, each entry with its body's place; the image must have `count`
 *   objects.
 *
 * @example
 * ```ts
 * import { decodeOrThrow, encodeOrThrow, struct, u8, u16le } from '@savekit/core';
 * import { GraphImageBuilder, graphDirectory } from '@savekit/core/graph';
 *
 * const table = graphDirectory({
 *   count: 2,
 *   entry: struct({ kind: u8, size: u8, refs: u8, segs: u8, at: u16le, length: u16le }),
 *   place: { offset: 'at', length: 'length' },
 *   fields: { kind: 'kind', size: 'size', references: 'refs', segments: 'segs' },
 *   kindName: (stored) => String.fromCharCode(stored),
 *   kindValue: (name) => name.charCodeAt(0),
 *   reference: u8,
 *   segment: { length: u8, align: 2 },
 * });
 * const builder = new GraphImageBuilder();
 * builder.add(builder.kind('n'), 1, [2], [Uint8Array.of(7)]);
 * builder.add(builder.kind('n'), 0, [0], []);
 * const bytes = encodeOrThrow(table, builder.image([], []));
 * decodeOrThrow(table, bytes).refs; // Int32Array [2, 0]
 * ```
 */
export function graphDirectory<E, K extends keyof E & string>(options: GraphDirectoryOptions<E, K>): Codec<GraphImage> {
  const { count, entry, place, fields, kindName, kindValue, reference, segment, leading, check } = options;
  const name = options.name ?? 'graphDirectory';
  const step = entry.size;
  const writeEntry = entry.writeFixed;
  const def = entry.def;
  const keys = [place.offset, place.length, fields.kind, fields.size, fields.references, fields.segments];
  if (
    step === undefined ||
    writeEntry === undefined ||
    def.type !== 'struct' ||
    def.fields.length !== keys.length ||
    !def.fields.every((field) => keys.includes(field.name as K))
  )
    throw new RangeError(
      `graphDirectory: the entry ${entry.name} must be a fixed-size struct of exactly ${keys.join(', ')}`,
    );
  const lengthSize = segment.length.size;
  const writeLength = segment.length.writeFixed;
  if (lengthSize === undefined || writeLength === undefined)
    throw new RangeError(`graphDirectory: the segment length ${segment.length.name} must have a fixed size`);
  const align = segment.align;
  if (!Number.isInteger(align) || align < 1)
    throw new RangeError(`graphDirectory: align must be a positive integer, got ${align}`);
  const padOf = (n: number) => (align - (n % align)) % align;
  const referenceSize = reference.size;
  const writeReference = referenceSize !== undefined && referenceSize > 0 ? reference.writeFixed : undefined;
  const storedSegment = aligned(align, borrowedBytes(segment.length));

  // The leading value's check on reading, when declared whole.
  const leadingValue = leading?.value;
  const leadingRead =
    leading?.missing !== undefined &&
    leading.mismatch !== undefined &&
    leadingValue?.size !== undefined &&
    leadingValue.readFixed !== undefined
      ? {
          size: leadingValue.size,
          readFixed: leadingValue.readFixed,
          missing: leading.missing,
          mismatch: leading.mismatch,
          read: (segment: Uint8Array): number => decodeFixed(leadingValue, segment),
        }
      : undefined;
  const fast = check === undefined && (leading === undefined || leadingRead !== undefined) ? fastReader() : undefined;

  /**
   * The table read straight into columns, when the entry's fields are fixed-size integers (which
   * any bytes are values of) and the reference, segment length and leading value read at fixed
   * offsets: undefined otherwise.
   */
  function fastReader(): ((r: Reader) => GraphImage | undefined) | undefined {
    const at = new Map<string, { offset: number; readFixed: (r: Reader, at: number) => number }>();
    let offset = 0;
    if (def.type !== 'struct' || def.stored !== undefined) return undefined;
    for (const field of def.fields) {
      const spec = field.spec;
      if (typeof spec === 'function' || spec.size === undefined || spec.readFixed === undefined) return undefined;
      if (spec.def.type !== 'int') return undefined;
      at.set(field.name, { offset, readFixed: spec.readFixed as (r: Reader, at: number) => number });
      offset += spec.size;
    }
    const readReference = reference.readFixed;
    const readLength = segment.length.readFixed;
    if (referenceSize === undefined || readReference === undefined || readLength === undefined) return undefined;
    const [bodyAt, bodyLength, kindField, sizeField, refsField, segsField] = keys.map((key) => at.get(key)!);
    return (r) =>
      readColumns(r, {
        bodyAt: bodyAt!,
        bodyLength: bodyLength!,
        kind: kindField!,
        size: sizeField!,
        references: refsField!,
        segments: segsField!,
        readReference,
        referenceSize,
        readLength,
      });
  }

  /**
   * What the directory reads into the builder, read straight from the bytes: the same image and the
   * same work charged — or undefined, with nothing read or charged, at the first thing the directory
   * would refuse (it then reads the table itself, for its error, path and offset).
   */
  function readColumns(r: Reader, f: FastFields): GraphImage | undefined {
    const tableAt = r.pos;
    const end = r.end;
    const bytes = r.bytes;
    if (count * step! > end - tableAt) return undefined;
    const out = new GraphImageBuilder();
    const kinds = new Map<number, number>();
    // The directory's work: a unit per entry, per element, per body field (2), per reference and
    // per segment.
    let work = count;
    const bodiesAt = tableAt + count * step!;
    let pos = bodiesAt;
    try {
      for (let i = 0; i < count; i++) {
        const entryAt = tableAt + i * step!;
        const length = f.bodyLength.readFixed(r, entryAt + f.bodyLength.offset);
        if (f.bodyAt.readFixed(r, entryAt + f.bodyAt.offset) !== pos - bodiesAt || !(length <= end - pos))
          return undefined;
        const bodyEnd = pos + length;
        const references = f.references.readFixed(r, entryAt + f.references.offset);
        const stated = f.segments.readFixed(r, entryAt + f.segments.offset);
        const stored = f.kind.readFixed(r, entryAt + f.kind.offset);
        if (references * f.referenceSize > length) return undefined;
        let kind = kinds.get(stored);
        if (kind === undefined) {
          kind = out.kind(kindName(stored));
          kinds.set(stored, kind);
        }
        out.begin(kind);
        for (let k = 0; k < references; k++, pos += f.referenceSize) out.reference(f.readReference(r, pos));
        let segments = 0;
        while (pos < bodyEnd) {
          if (bodyEnd - pos < lengthSize!) return undefined;
          const n = f.readLength(r, pos);
          const from = pos + lengthSize!;
          if (!(n <= bodyEnd - from)) return undefined;
          const to = from + n;
          const padEnd = to + padOf(lengthSize! + n);
          if (padEnd > bodyEnd) return undefined;
          for (let p = to; p < padEnd; p++) if (bytes[p] !== 0) return undefined;
          if (segments === 0 && leadingRead !== undefined)
            if (n < leadingRead.size || leadingRead.readFixed(r, from) !== stored) return undefined;
          out.segmentRange(bytes, from, to);
          segments++;
          pos = padEnd;
        }
        if (segments !== stated || (segments === 0 && leadingRead !== undefined)) return undefined;
        out.end(f.size.readFixed(r, entryAt + f.size.offset));
        work += 3 + references + segments;
      }
    } catch {
      // A value the directory's codecs refuse (a reference to no object, say).
      return undefined;
    }
    const budget = r.state.budget;
    if (budget.exceeds(budget.workSpent + work)) return undefined;
    budget.workSpent += work;
    r.pos = pos;
    return out.finish([], []);
  }

  // Reading: the core's directory, each element added to the builder of the read under way.
  let builder = new GraphImageBuilder();
  let kindOfStored = new Map<number, number>();
  // A body's codec depends only on its reference count: one per count met.
  const bodies = new Map<number, Codec<{ references: number[]; segments: Uint8Array[] }>>();
  const table = directory<E, K, { references: number[]; segments: Uint8Array[] }, GraphImageBuilder>({
    name,
    count,
    entry,
    place,
    body(e) {
      const n = e[fields.references] as unknown as number;
      let codec = bodies.get(n);
      if (codec === undefined) {
        codec = struct({ references: array(reference, n), segments: array(storedSegment, 'rest') });
        bodies.set(n, codec);
      }
      return codec;
    },
    join(e, { references, segments }) {
      const stated = e[fields.segments] as unknown as number;
      if (segments.length !== stated)
        throw new Error(`the directory says ${stated} segments, the body holds ${segments.length}`);
      if (leadingRead !== undefined) {
        const first = segments[0];
        if (first === undefined || first.length < leadingRead.size) throw new Error(leadingRead.missing);
        const found = leadingRead.read(first);
        const stored = e[fields.kind] as unknown as number;
        if (found !== stored) throw new Error(leadingRead.mismatch(stored, found));
      }
      check?.(e, segments);
      const stored = e[fields.kind] as unknown as number;
      let kind = kindOfStored.get(stored);
      if (kind === undefined) {
        kind = builder.kind(kindName(stored));
        kindOfStored.set(stored, kind);
      }
      builder.add(kind, e[fields.size] as unknown as number, references, segments);
      return builder;
    },
    split() {
      throw new Error('a graph directory is written from its image');
    },
    json: t.unknown as unknown as t.Type<GraphImageBuilder, unknown, unknown>,
  });

  /** The stored bytes of each kind's value (for the leading check), by kind index. */
  function leadingBytes(w: Writer, values: number[]): Uint8Array[] {
    const codec = leading!.value;
    return values.map((v) => {
      const scratch = w.sub(8);
      codec.write(scratch, v);
      return scratch.buf.slice(0, scratch.length);
    });
  }

  /** Refuses object `i` (0-based) with `message`, at its path. */
  function refuse(w: Writer, i: number, message: string): EncodeError {
    return w.errorAt(i, message);
  }

  /** Every object's kind has a stored value, and segment 0 starts with it (before anything is written). */
  function kindValues(w: Writer, image: GraphImage): number[] {
    const { kinds, kindOf, segStart, dataStart, data } = image;
    const values: Array<number | string> = kinds.map((k) => {
      try {
        return kindValue(k);
      } catch (error) {
        return reason(error);
      }
    });
    const heads =
      leading === undefined
        ? undefined
        : leadingBytes(
            w,
            values.map((v) => (typeof v === 'number' ? v : 0)),
          );
    for (let i = 0; i < count; i++) {
      const k = kindOf[i]!;
      const value = values[k];
      if (value === undefined) throw refuse(w, i, `object ${i + 1} has kind ${k} of ${kinds.length}`);
      if (typeof value === 'string') throw refuse(w, i, value);
      if (heads === undefined) continue;
      const head = heads[k]!;
      const s = segStart[i]!;
      const at = dataStart[s]!;
      let ok = segStart[i + 1]! > s && dataStart[s + 1]! - at >= head.length;
      for (let j = 0; ok && j < head.length; j++) ok = data[at + j] === head[j];
      if (!ok) throw refuse(w, i, leading!.refused(kinds[k]!));
    }
    return values as number[];
  }

  /** The bytes the table takes: the entries and every body. */
  function sizeOf(image: GraphImage): number {
    const refSize = reference.size ?? 4;
    const { dataStart } = image;
    let total = count * step! + image.refs.length * refSize;
    for (let s = 0; s + 1 < dataStart.length; s++) {
      const n = lengthSize! + dataStart[s + 1]! - dataStart[s]!;
      total += n + padOf(n);
    }
    return total;
  }

  /** Entry `i` at `at`; a value its codec refuses is an EncodeError at the entry, by its tracked write. */
  function putEntry(w: Writer, at: number, e: E, i: number, depth: number): void {
    try {
      writeEntry!(w, at, e);
    } catch (error) {
      const path = w.state.path;
      path.length = depth;
      path.push(i);
      try {
        entry.write(w.sub(step), e);
      } finally {
        path.pop();
      }
      path.length = depth;
      throw refuse(w, i, reason(error));
    }
  }

  return defineCodec<GraphImage>({
    name,
    def: customDef('graphDirectory', { params: { count } }),
    json: t.unknown as unknown as t.Type<GraphImage, unknown, unknown>,
    minSize: count * step,
    children: [{ key: 'entry', codec: entry }],
    read(r) {
      if (fast !== undefined && r.state.spans === undefined) {
        const image = fast(r);
        if (image !== undefined) return image;
      }
      builder = new GraphImageBuilder();
      kindOfStored = new Map();
      try {
        table.read(r);
        return builder.finish([], []);
      } finally {
        // Not kept past the read (the image is the caller's now).
        builder = new GraphImageBuilder();
        kindOfStored = new Map();
      }
    },
    write(w, image) {
      const n = image?.kindOf?.length;
      if (n !== count)
        throw w.error('size-mismatch', `expected ${count} ${count === 1 ? 'object' : 'objects'}, got ${n}`);
      const { kindOf, sizes, refStart, refs, segStart, dataStart, data } = image;
      if (sizes.length !== n || refStart.length !== n + 1 || segStart.length !== n + 1 || dataStart.length < 1)
        throw w.error('invalid-value', 'the image has columns of different lengths');
      const values = kindValues(w, image);
      const total = sizeOf(image);
      const after = options.after;
      const room = after !== undefined && Number.isSafeInteger(after) && after >= 0 ? after : ROOM_AFTER;
      if (total <= MAX_PRESIZE) w.presize(total + room);
      // The entries' room first; each entry is written once its body is, with the body's place.
      const tableAt = w.ensure(count * step);
      w.length = tableAt + count * step;
      const bodiesAt = w.length;
      const path = w.state.path;
      const depth = path.length;
      const e = {} as Record<K, number>;
      path.push(0, 'references', 0);
      for (let i = 0; i < count; i++) {
        path[depth] = i;
        const start = w.length;
        const r0 = refStart[i]!;
        const r1 = refStart[i + 1]!;
        if (writeReference !== undefined) {
          // At their offsets, in one stretch of room; a value refused is written again by the
          // reference's own write, for its error and path.
          let at = w.ensure((r1 - r0) * referenceSize!);
          for (let x = r0; x < r1; x++, at += referenceSize!) {
            try {
              writeReference(w, at, refs[x]!);
            } catch {
              path[depth + 2] = x - r0;
              w.length = at;
              reference.write(w, refs[x]!);
            }
          }
          w.length = at;
        } else
          for (let x = r0; x < r1; x++) {
            path[depth + 2] = x - r0;
            reference.write(w, refs[x]!);
          }
        const s0 = segStart[i]!;
        const s1 = segStart[i + 1]!;
        for (let s = s0; s < s1; s++) {
          const from = dataStart[s]!;
          const length = dataStart[s + 1]! - from;
          const pad = padOf(lengthSize + length);
          const at = w.ensure(lengthSize + length + pad);
          path[depth + 1] = 'segments';
          path[depth + 2] = s - s0;
          try {
            writeLength(w, at, length);
          } catch (error) {
            throw w.error('out-of-range', `a segment of ${length} bytes: ${reason(error)}`);
          }
          const buf = w.buf;
          const to = at + lengthSize;
          copyRange(buf, to, data, from, from + length);
          buf.fill(0, to + length, to + length + pad);
          w.length = to + length + pad;
          path[depth + 1] = 'references';
        }
        e[fields.kind] = values[kindOf[i]!]!;
        e[fields.size] = sizes[i]!;
        e[fields.references] = r1 - r0;
        e[fields.segments] = s1 - s0;
        e[place.offset] = start - bodiesAt;
        e[place.length] = w.length - start;
        putEntry(w, tableAt + i * step, e as unknown as E, i, depth);
      }
      path.length = depth;
    },
  });
}
