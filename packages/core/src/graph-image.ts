/**
 * The image of an object graph: what {@link writeGraph} produces and {@link readGraph} consumes —
 * plain numbers and byte segments, in columns, that a format lays out with ordinary codecs (Zippy's
 * directory and bodies, or {@link graphImage} for formats with no layout of their own).
 *
 * @module
 */
import { DecodeError } from './errors.js';
import type { FixedField } from './fixed-field.js';

/**
 * A whole graph as numbers and bytes — what a format writes to disk and reads back. It is columnar
 * (a few typed arrays, whatever the object count), so a million-object graph costs a handful of
 * allocations. Object `n` (1-based) has kind `kinds[kindOf[n-1]]`, recorded size `sizes[n-1]`,
 * references `refs[refStart[n-1] … refStart[n])` and segments `segStart[n-1] … segStart[n])`, segment
 * `s` being `data[dataStart[s] … dataStart[s+1])`.
 *
 * References: 0 null, 1…N objects, negative −(e + 1) the external `externals[e]`.
 */
export interface GraphImage {
  /** References to the roots. */
  readonly roots: ReadonlyArray<number>;
  /** Distinct kinds (tags such as `LUA\0`, or type names). */
  readonly kinds: ReadonlyArray<string>;
  /** Per object: index into `kinds`. */
  readonly kindOf: Uint32Array;
  /** Per object: the size the reader allocates before restoring. */
  readonly sizes: Uint32Array;
  /** Per object, plus one: where its references start in `refs`. */
  readonly refStart: Uint32Array;
  /** Every reference, object by object. */
  readonly refs: Int32Array;
  /** Per object, plus one: where its segments start in `dataStart`. */
  readonly segStart: Uint32Array;
  /** Per segment, plus one: where it starts in `data`. */
  readonly dataStart: Uint32Array;
  /** Every segment's bytes, object by object. */
  readonly data: Uint8Array;
  /** Names of external objects (supplied by the application at load, never stored). */
  readonly externals: ReadonlyArray<string>;
}

/** The number of objects in an image. */
export function graphSize(image: GraphImage): number {
  return image.kindOf.length;
}

/**
 * One object of an image as plain values (for inspection and tests; allocates).
 *
 * @throws RangeError when `n` is not an object number of the image (1 to {@link graphSize}).
 * @throws A {@link DecodeError} when the object's kind index is outside `kinds` (an image decoded
 * from a file is only checked for that by {@link readGraph}).
 */
export function graphObject(
  image: GraphImage,
  n: number,
): { kind: string; size: number; references: number[]; segments: Uint8Array[] } {
  if (!Number.isInteger(n) || n < 1 || n > graphSize(image))
    throw new RangeError(`object ${n} is not in the graph (1 to ${graphSize(image)})`);
  const i = n - 1;
  const kind = image.kinds[image.kindOf[i]!];
  if (kind === undefined)
    throw new DecodeError(
      ['objects', n],
      0,
      `malformed graph image: object ${n} has kind ${image.kindOf[i]} of ${image.kinds.length}`,
    );
  // The other columns have an entry per object (plus one for the offsets), as GraphImage says.
  const segments: Uint8Array[] = [];
  for (let s = image.segStart[i]!; s < image.segStart[i + 1]!; s++)
    segments.push(image.data.subarray(image.dataStart[s], image.dataStart[s + 1]));
  return {
    kind,
    size: image.sizes[i]!,
    references: Array.from(image.refs.subarray(image.refStart[i], image.refStart[i + 1])),
    segments,
  };
}

/**
 * A declared field of object `n`'s segment `segment` (default 0), read where it lies in
 * `image.data` (see {@link FixedField}): for what a restorer needs of a segment before restoring
 * it, such as the type to allocate. `undefined` when `n` is not an object of the image, it has no
 * such segment, or the segment is too short to hold the field.
 *
 * @example
 * ```ts
 * const dataType = fixedField(struct({ tag: u32be, dataType: u32be }), 'dataType');
 * const type = segmentField(image, 1, dataType); // object 1's DataType, or undefined
 * ```
 */
export function segmentField<A>(image: GraphImage, n: number, field: FixedField<A>, segment = 0): A | undefined {
  const { segStart, dataStart } = image;
  if (!(Number.isInteger(n) && n >= 1 && n < segStart.length && Number.isInteger(segment) && segment >= 0))
    return undefined;
  const s = segStart[n - 1]! + segment;
  if (s >= segStart[n]!) return undefined;
  return field.read(image.data, dataStart[s]!, dataStart[s + 1]!);
}
