/**
 * Writing an object graph with shared and cyclic references, the model of Zippy's savefile
 * framework: objects are interned by identity (1-based numbers in visit order, 0 = null); a per-kind
 * saver emits each object's *data segments* and *references*; references become numbers. The walk
 * is a work list, never recursion, so a million-node chain saves without a stack overflow.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { EncodeError } from './errors.js';
import type { GraphImage } from './graph-image.js';

/** A growable typed array. */
class Growing<T extends Uint32Array | Int32Array> {
  length = 0;
  constructor(
    public items: T,
    private readonly make: (n: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.items.length) this.grow(this.length + 1);
    this.items[this.length++] = value;
  }
  grow(needed: number): void {
    let capacity = Math.max(16, this.items.length * 2);
    while (capacity < needed) capacity *= 2;
    const next = this.make(capacity);
    next.set(this.items.subarray(0, this.length));
    this.items = next;
  }
  done(extra = 0): T {
    return this.items.slice(0, this.length + extra) as T;
  }
}

/** Bytes of one chunk of {@link ChunkedBytes}. */
const CHUNK = 1 << 20;

/**
 * Appended bytes kept in chunks of a megabyte and joined once at the end: a large graph's data is
 * never copied while it grows, and no buffer twice its size is ever made (a doubling buffer made
 * and dropped ever larger ones, which cost a million-object save its garbage collections).
 */
class ChunkedBytes {
  /** Bytes appended so far. */
  length = 0;
  private readonly full: Uint8Array[] = [];
  private chunk = new Uint8Array(256);
  private used = 0;

  append(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.used + n > this.chunk.length) this.next(n);
    const chunk = this.chunk;
    const at = this.used;
    // Small segments are the common case: a loop beats a builtin call for them.
    if (n <= 16) for (let i = 0; i < n; i++) chunk[at + i] = bytes[i]!;
    else chunk.set(bytes, at);
    this.used = at + n;
    this.length += n;
  }

  /** Closes the current chunk and starts one with room for `n` more bytes. */
  private next(n: number): void {
    // The first chunks grow from small (most graphs are small), the later are a megabyte each.
    if (this.full.length === 0 && this.length + n <= CHUNK) {
      let capacity = this.chunk.length * 2;
      while (capacity < this.used + n) capacity *= 2;
      const grown = new Uint8Array(Math.min(capacity, CHUNK));
      grown.set(this.chunk.subarray(0, this.used));
      this.chunk = grown;
      return;
    }
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = new Uint8Array(Math.max(CHUNK, n));
    this.used = 0;
  }

  /** Every byte appended, in one array of exactly their length. */
  done(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.full) {
      out.set(part, at);
      at += part.length;
    }
    out.set(this.chunk.subarray(0, this.used), at);
    return out;
  }
}

/** What a saver writes an object's contents to. */
export interface ObjectSink<O> {
  /** Appends a reference to another object (or null); the object is interned if it is new. */
  writeReference(target: O | null): void;
  /** Appends a data segment. The bytes are copied, so a saver may reuse one scratch buffer. */
  writeData(bytes: Uint8Array): void;
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
    private readonly refs: Growing<Int32Array>,
    private readonly data: ChunkedBytes,
    private readonly dataStart: Growing<Uint32Array>,
  ) {}
  writeReference(target: O | null): void {
    this.refs.push(this.intern(target));
  }
  writeData(bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('writeData needs a Uint8Array');
    this.data.append(bytes);
    this.dataStart.push(this.data.length);
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
  const kinds: string[] = [];
  const kindNumbers = new Map<string, number>();
  let current = 0;
  const intern = (target: O | null): number => {
    if (target === null || target === undefined) return 0;
    if (typeof target !== 'object' && typeof target !== 'function') {
      throw new EncodeError(
        ['objects', current],
        0,
        `a reference must be an object or null, got ${typeof target}`,
        'wrong-type',
      );
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
    if (queue.length >= 0x7fffffff)
      throw new EncodeError(['objects', current], 0, 'too many objects', 'count-too-large');
    queue.push(target);
    numbers.set(target, queue.length);
    return queue.length;
  };
  const kindOf = new Growing(new Uint32Array(64), (n) => new Uint32Array(n));
  const sizes = new Growing(new Uint32Array(64), (n) => new Uint32Array(n));
  const refStart = new Growing(new Uint32Array(64), (n) => new Uint32Array(n));
  const segStart = new Growing(new Uint32Array(64), (n) => new Uint32Array(n));
  const refs = new Growing(new Int32Array(64), (n) => new Int32Array(n));
  const data = new ChunkedBytes();
  const dataStart = new Growing(new Uint32Array(64), (n) => new Uint32Array(n));
  dataStart.push(0);
  const sink = new Sink<O>(intern, refs, data, dataStart);
  try {
    const rootNumbers = roots.map(intern);
    for (let i = 0; i < queue.length; i++) {
      current = i + 1;
      const object = queue[i]!;
      const kind = saver.kindOf(object);
      let k = kindNumbers.get(kind);
      if (k === undefined) {
        k = kinds.length;
        kinds.push(kind);
        kindNumbers.set(kind, k);
      }
      kindOf.push(k);
      refStart.push(refs.length);
      segStart.push(dataStart.length - 1);
      const dataBefore = data.length;
      saver.save(object, sink);
      const size = saver.sizeOf ? saver.sizeOf(object, data.length - dataBefore) : data.length - dataBefore;
      if (!Number.isInteger(size) || size < 0 || size > 0xffffffff)
        throw new EncodeError(['objects', current], 0, `recorded size ${size} is not a 32-bit size`, 'out-of-range');
      sizes.push(size);
    }
    refStart.push(refs.length);
    segStart.push(dataStart.length - 1);
    return E.right({
      roots: rootNumbers,
      kinds,
      kindOf: kindOf.done(),
      sizes: sizes.done(),
      refStart: refStart.done(),
      refs: refs.done(),
      segStart: segStart.done(),
      dataStart: dataStart.done(),
      data: data.done(),
      externals,
    });
  } catch (error) {
    if (error instanceof EncodeError) return E.left(error);
    return E.left(
      new EncodeError(
        ['objects', current],
        0,
        `saving object ${current}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}
