/**
 * Building a {@link GraphImage} one object at a time: what `writeGraph` fills as it saves, and
 * what a format's reader fills as it decodes its objects (Zippy's directory of bodies), so that a
 * million-object file restored through `readGraph` needs no document object per object.
 *
 * @module
 */
import type { GraphImage } from './graph-image.js';
import { ChunkedBytes, Growing } from './growing.js';

const u32 = (n: number) => new Uint32Array(n);

/**
 * A {@link GraphImage} under construction: kinds interned by name, then objects appended in number
 * order — {@link GraphImageBuilder.begin}, its references and segments,
 * {@link GraphImageBuilder.end} (or {@link GraphImageBuilder.add} for all four at once). Columns grow by doubling from a small start, and segment bytes are copied into megabyte
 * chunks joined once, so nothing is sized from a count the input has not backed yet.
 *
 * @example
 * ```ts
 * import { GraphImageBuilder, graphObject } from '@savekit/core/graph';
 *
 * const builder = new GraphImageBuilder();
 * const node = builder.kind('node');
 * builder.add(node, 1, [2], [Uint8Array.of(7)]); // object 1 refers to object 2
 * builder.add(node, 1, [1], [Uint8Array.of(8)]); // and 2 back to 1: a cycle
 * const image = builder.image([1], []);
 * console.log(graphObject(image, 2).references); // [ 1 ]
 * ```
 */
export class GraphImageBuilder {
  private readonly kinds: string[] = [];
  private readonly kindNumbers = new Map<string, number>();
  private readonly kindOf = new Growing(u32(64), u32);
  private readonly sizes = new Growing(u32(64), u32);
  private readonly refStart = new Growing(u32(64), u32);
  private readonly segStart = new Growing(u32(64), u32);
  private readonly refs = new Growing(new Int32Array(64), (n) => new Int32Array(n));
  private readonly dataStart = new Growing(u32(64), u32);
  private readonly data = new ChunkedBytes();
  /** Whether an object is begun and not yet ended. */
  private open = false;
  /** Whether {@link GraphImageBuilder.finish} handed the storage over (nothing more may be added). */
  private finished = false;

  constructor() {
    this.dataStart.push(0);
  }

  /** The index of the kind named `name` in the image's `kinds`, added when first met. */
  kind(name: string): number {
    let k = this.kindNumbers.get(name);
    if (k === undefined) {
      k = this.kinds.length;
      this.kinds.push(name);
      this.kindNumbers.set(name, k);
    }
    return k;
  }

  /** Objects appended so far (the next one is number `objects + 1`). */
  get objects(): number {
    return this.kindOf.length;
  }

  /** Segment bytes appended so far, over every object. */
  get dataLength(): number {
    return this.data.length;
  }

  /**
   * Starts the next object, of kind index `kind` (from {@link GraphImageBuilder.kind}).
   *
   * @throws RangeError when `kind` is not a kind of this builder, or the previous object is not ended.
   */
  begin(kind: number): void {
    if (this.open) throw new RangeError(`object ${this.objects} is not ended`);
    if (this.finished) throw finishedError();
    if (!(kind >= 0 && kind < this.kinds.length && Number.isInteger(kind)))
      throw new RangeError(`kind ${kind} is not one of the ${this.kinds.length} kinds`);
    this.open = true;
    this.kindOf.push(kind);
    this.refStart.push(this.refs.length);
    this.segStart.push(this.dataStart.length - 1);
  }

  /** Appends a reference of the current object: 0 null, 1…N an object, −(e + 1) external `e`. */
  reference(target: number): void {
    this.refs.push(target);
  }

  /** Appends a data segment of the current object (its bytes are copied). */
  segment(bytes: Uint8Array): void {
    this.data.append(bytes);
    this.dataStart.push(this.data.length);
  }

  /** Appends `bytes[from, to)` as a data segment of the current object (copied; no view of it made). */
  segmentRange(bytes: Uint8Array, from: number, to: number): void {
    this.data.appendRange(bytes, from, to);
    this.dataStart.push(this.data.length);
  }

  /** Ends the current object with its recorded allocation size. */
  end(size: number): void {
    if (!this.open) throw new RangeError('no object is begun');
    this.open = false;
    this.sizes.push(size);
  }

  /** One whole object: {@link GraphImageBuilder.begin}, each reference, each segment, {@link GraphImageBuilder.end}. */
  add(kind: number, size: number, references: ArrayLike<number>, segments: ArrayLike<Uint8Array>): void {
    this.begin(kind);
    for (let i = 0; i < references.length; i++) this.refs.push(references[i]!);
    for (let i = 0; i < segments.length; i++) this.segment(segments[i]!);
    this.end(size);
  }

  /**
   * The image of the objects appended, with `roots` and `externals` (new arrays of exactly their
   * length; the builder may go on).
   *
   * @throws RangeError when an object is begun and not ended.
   */
  image(roots: ReadonlyArray<number>, externals: ReadonlyArray<string>): GraphImage {
    if (this.open) throw new RangeError(`object ${this.objects} is not ended`);
    if (this.finished) throw finishedError();
    return {
      roots,
      kinds: [...this.kinds],
      kindOf: this.kindOf.done(),
      sizes: this.sizes.done(),
      refStart: closed(this.refStart, this.refs.length),
      refs: this.refs.done(),
      segStart: closed(this.segStart, this.dataStart.length - 1),
      dataStart: this.dataStart.done(),
      data: this.data.done(),
      externals,
    };
  }

  /**
   * The image of the objects appended, as {@link GraphImageBuilder.image} gives it, but made of the
   * builder's own storage: each column is a view of the builder's typed array (whose spare room, up
   * to as much again, stays allocated with it), and the bytes are copied only when they outgrew one
   * chunk. The builder is then finished: adding to it or asking for another image is a RangeError.
   *
   * For a builder whose image is its last use (a save, a read): a million-object save makes no second
   * copy of its columns, and a large graph's garbage collections are fewer. Allocating tens of
   * megabytes of typed arrays makes V8 collect the whole heap (external memory pressure); in a Lua
   * save that heap is the game's every table.
   *
   * @throws RangeError when an object is begun and not ended, or the builder is finished already.
   */
  finish(roots: ReadonlyArray<number>, externals: ReadonlyArray<string>): GraphImage {
    if (this.open) throw new RangeError(`object ${this.objects} is not ended`);
    if (this.finished) throw finishedError();
    this.finished = true;
    this.refStart.push(this.refs.length);
    this.segStart.push(this.dataStart.length - 1);
    return {
      roots,
      kinds: this.kinds.slice(),
      kindOf: written(this.kindOf),
      sizes: written(this.sizes),
      refStart: written(this.refStart),
      refs: written(this.refs),
      segStart: written(this.segStart),
      dataStart: written(this.dataStart),
      data: this.data.take(),
      externals,
    };
  }
}

const finishedError = () => new RangeError('the builder is finished: its storage is the image finish returned');

/** The written part of a column, as a view (no copy). */
function written<T extends Uint32Array | Int32Array>(column: Growing<T>): T {
  return column.items.subarray(0, column.length) as T;
}

/** The column's entries and one more, `last`, after them (the column itself is left as it was). */
function closed(column: Growing<Uint32Array>, last: number): Uint32Array {
  column.push(last);
  const out = column.done();
  column.length--;
  return out;
}
