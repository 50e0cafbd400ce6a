/**
 * Writing an object graph with shared and cyclic references, the model of Zippy's savefile
 * framework: objects are interned by identity (1-based numbers in visit order, 0 = null); a per-kind
 * saver emits each object's *data segments* and *references*; references become numbers. The walk
 * is a work list, never recursion, so a million-node chain saves without a stack overflow.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { EncodeError, type Path } from './errors.js';
import type { GraphImage } from './graph-image.js';
import { GraphImageBuilder } from './graph-image-builder.js';

/** What a saver writes an object's contents to. */
export interface ObjectSink<O> {
  /** Appends a reference to another object (or null); the object is interned if it is new. */
  writeReference(target: O | null): void;
  /**
   * Appends a data segment: `bytes`, or their first `length` when given (a scratch buffer's written
   * part, with no view of it made per object). The bytes are copied, so a saver may reuse one
   * scratch buffer.
   */
  writeData(bytes: Uint8Array, length?: number): void;
  /** The number `target` has (interning it if new): for savers that store numbers inside data. */
  numberOf(target: O | null): number;
}

/**
 * Where {@link writeGraph} keeps the number it gives each object (its own Map by default). A saver
 * that already indexes every object it meets — a Map from object to slot, say — can keep the
 * numbers beside that index and spare the write a second map of every object.
 */
export interface ObjectNumbers<O> {
  /** The number `object` was given, or undefined while it has none. */
  get(object: O): number | undefined;
  /** Gives `object` its number (once per object; negative for an external). */
  set(object: O, number: number): void;
}

/** How to save the objects of a graph. */
export interface GraphSaver<O> {
  /** The kind of an object. */
  kindOf(object: O): string;
  /** Writes an object's references and data segments. */
  save(object: O, sink: ObjectSink<O>): void;
  /** The recorded allocation size (default: the total length of the object's data segments). */
  sizeOf?(object: O, dataLength: number): number;
  /** A name when `object` is external: written as a named reference, never saved. */
  externalName?(object: O): string | undefined;
  /** A fresh store for this write's object numbers (default: a Map of the writer's own). */
  numbers?(): ObjectNumbers<O>;
}

class Sink<O extends object> implements ObjectSink<O> {
  constructor(
    private readonly intern: (target: O | null) => number,
    private readonly image: GraphImageBuilder,
  ) {}
  writeReference(target: O | null): void {
    this.image.reference(this.intern(target));
  }
  writeData(bytes: Uint8Array, length?: number): void {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('writeData needs a Uint8Array');
    if (length === undefined) this.image.segment(bytes);
    else if (Number.isInteger(length) && length >= 0 && length <= bytes.length)
      this.image.segmentRange(bytes, 0, length);
    else throw new RangeError(`writeData: length ${length} is not within the ${bytes.length} bytes given`);
  }
  numberOf(target: O | null): number {
    return this.intern(target);
  }
}

/**
 * Saves a graph reachable from `roots` into an image. Objects are numbered when first met — the
 * roots first, then the references of each object in number order — and saved in number order, from
 * a work list (no recursion at any depth). Anything a saver throws becomes an {@link EncodeError}
 * naming the object number.
 *
 * @example
 * ```ts
 * interface Node { value: number; next: Node | null }
 * const a: Node = { value: 1, next: null };
 * a.next = a; // a cycle
 * const image = writeGraph([a], {
 *   kindOf: () => 'node',
 *   save: (node, sink) => { sink.writeData(Uint8Array.of(node.value)); sink.writeReference(node.next); },
 * });
 * // one object: kind 'node', size 1, references [1], one segment [01]
 * ```
 */
export function writeGraph<O extends object>(
  roots: ReadonlyArray<O | null>,
  saver: GraphSaver<O>,
): E.Either<EncodeError, GraphImage> {
  const numbers: ObjectNumbers<O> = saver.numbers?.() ?? new Map<O, number>();
  const queue: O[] = [];
  const externals: string[] = [];
  const externalNumbers = new Map<string, number>();
  // The object being saved (from 1), or 0 while the roots are numbered: then `root` is the one at hand.
  let current = 0;
  let root = 0;
  const where = (): Path => (current === 0 ? ['roots', root] : ['objects', current]);
  const intern = (target: O | null): number => {
    if (target === null || target === undefined) return 0;
    if (typeof target !== 'object' && typeof target !== 'function') {
      throw new EncodeError(where(), 0, `a reference must be an object or null, got ${typeof target}`, 'wrong-type');
    }
    const known = numbers.get(target);
    if (known !== undefined) return known;
    const name = saver.externalName?.(target);
    if (name !== undefined) {
      let e = externalNumbers.get(name);
      if (e === undefined) {
        e = externals.length;
        externals.push(name);
        externalNumbers.set(name, e);
      }
      numbers.set(target, -(e + 1));
      return -(e + 1);
    }
    if (queue.length >= 0x7fffffff) throw new EncodeError(where(), 0, 'too many objects', 'count-too-large');
    queue.push(target);
    numbers.set(target, queue.length);
    return queue.length;
  };
  const image = new GraphImageBuilder();
  const sink = new Sink<O>(intern, image);
  try {
    // A loop, not `map`: a sparse list of roots (length 2^32 − 1, no elements) is refused at its
    // first hole instead of walked to its length.
    const rootNumbers: number[] = [];
    for (let i = 0; i < roots.length; i++) {
      if (!(i in roots))
        throw new EncodeError(['roots', i], 0, `root ${i} is missing: the list of roots has a hole`, 'wrong-type');
      root = i;
      rootNumbers.push(intern(roots[i]!));
    }
    for (let i = 0; i < queue.length; i++) {
      current = i + 1;
      const object = queue[i]!;
      image.begin(image.kind(saver.kindOf(object)));
      const dataBefore = image.dataLength;
      saver.save(object, sink);
      const written = image.dataLength - dataBefore;
      const size = saver.sizeOf ? saver.sizeOf(object, written) : written;
      if (!Number.isInteger(size) || size < 0 || size > 0xffffffff)
        throw new EncodeError(['objects', current], 0, `recorded size ${size} is not a 32-bit size`, 'out-of-range');
      image.end(size);
    }
    return E.right(image.finish(rootNumbers, externals));
  } catch (error) {
    if (error instanceof EncodeError) return E.left(error);
    const reason = error instanceof Error ? error.message : String(error);
    return E.left(
      new EncodeError(where(), 0, current === 0 ? `root ${root}: ${reason}` : `saving object ${current}: ${reason}`),
    );
  }
}
