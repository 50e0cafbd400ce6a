/**
 * Named arrays and INDEX references, EDGE's model of shared objects: objects live in named arrays
 * (`mobjs`, `players`, …) and a reference is 1 + the element's position in its array, 0 for null.
 *
 * - In the document a reference is an {@link IndexRef}, `{ $ref, index }`, that also points at the
 *   element itself ({@link IndexRef.target}, not enumerable), so removing or reordering elements
 *   renumbers every reference on write.
 * - **Reading**: {@link arrayIndex} reads the stored number and records the reference as pending;
 *   once the whole value is read, {@link withArrayIndexes} finds its arrays ({@link ArrayTable}) and
 *   resolves every pending reference (a reference may point forward).
 * - **Writing**: {@link withArrayIndexes} numbers every array's elements first
 *   ({@link ArrayNumbering}), and {@link arrayIndex} writes the element's current position.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { customDef } from './def.js';
import { withHooks } from './hooks.js';
import { DecodeError, EncodeError, type PathSegment } from './errors.js';
import { u32le } from './integers.js';
import { ROLLBACK, type Reader, type Rollbackable } from './reader.js';
import type { Writer } from './writer.js';

/** An INDEX value that is not null: element `index − 1` of array `$ref`. */
export interface IndexRef<O extends object = object> {
  /** The array's name (`mobjs`, `players`, `lines`, …). */
  readonly $ref: string;
  /** 1 + the element's position when the file was read (or the document built). */
  readonly index: number;
  /**
   * The element itself, once resolved (not part of the JSON form). On write, the INDEX is the
   * element's current position in its array, so edits to the array renumber every reference.
   */
  readonly target?: O;
}

/**
 * The references this module makes: plain objects (prototype `Object.prototype`, as `{}`'s) made by
 * a constructor of their own, with `target` in place from the start (not enumerable, undefined until
 * resolved). Then all three live inside the object, where a literal `{ $ref, index }` given its
 * target later grows a separate property store: 48 bytes a reference instead of about 80, and a save
 * has one per INDEX field of every instance.
 */
/** The descriptor of a reference's `target` before it is resolved (one object, read by each `defineProperty`). */
const UNRESOLVED: PropertyDescriptor = Object.freeze({
  value: undefined,
  enumerable: false,
  writable: true,
  configurable: true,
});

const Ref = function (this: { $ref: string; index: number }, $ref: string, index: number) {
  this.$ref = $ref;
  this.index = index;
  Object.defineProperty(this, 'target', UNRESOLVED);
} as unknown as new (
  $ref: string,
  index: number,
) => IndexRef;
Ref.prototype = Object.prototype;

/** A reference not yet pointed at its element (see {@link attachTarget}). */
function newRef($ref: string, index: number): IndexRef {
  return new Ref($ref, index);
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** A reference to `target`, element of `array` (its index is recomputed on write). */
export function refTo<O extends object>(array: string, target: O, index = 0): IndexRef<O> {
  const ref = newRef(array, index) as IndexRef<O>;
  (ref as { target?: O }).target = target;
  return ref;
}

/** Points an existing reference at its element (not enumerable, so JSON and equality ignore it). */
export function attachTarget<O extends object>(ref: IndexRef<O>, target: O): void {
  // A reference made here has the property already: a plain store keeps it inside the object.
  if (Object.hasOwn(ref, 'target') && !isEnumerable.call(ref, 'target'))
    try {
      (ref as { target?: O }).target = target;
      return;
    } catch {
      // not writable: defined anew below
    }
  Object.defineProperty(ref, 'target', { value: target, enumerable: false, writable: true, configurable: true });
}

/**
 * Numbering for writing: each named array's elements by position (1-based). An element that is in
 * an array twice is numbered by its first position.
 */
export class ArrayNumbering<O extends object> {
  private readonly arrays = new Map<string, NumberedArray<O>>();
  /** The array looked up last, by name: a save's references mostly go into one array in a row. */
  private lastName: string | undefined;
  private last: NumberedArray<O> | undefined;

  /** Numbers the elements of each array by position (1-based). */
  constructor(arrays: Readonly<Record<string, ReadonlyArray<O>>> = {}) {
    for (const [name, elements] of Object.entries(arrays)) this.set(name, elements);
  }

  /** Numbers (or renumbers) array `name`. */
  set(name: string, elements: ReadonlyArray<O>): void {
    // Set from the last element to the first, so an element in the array twice ends at its first
    // position: one map operation per element (a save numbers 100,000s of them per encode).
    const positions = new Map<O, number>();
    for (let i = elements.length - 1; i >= 0; i--) {
      // A hole is refused where it is met: a sparse array of length 2^32 − 1 is not walked to its start.
      if (!(i in elements))
        throw new EncodeError([], 0, `array ${name}: element ${i} is missing (the array has a hole)`, 'wrong-type');
      positions.set(elements[i]!, i + 1);
    }
    const distinct = positions.size === elements.length ? elements.slice() : undefined;
    this.arrays.set(name, { positions, count: elements.length, distinct });
    this.lastName = undefined;
    this.last = undefined;
  }

  /** The numbering of array `name`, if it has one (the last one asked for is kept at hand). */
  private numbered(name: string): NumberedArray<O> | undefined {
    if (name === this.lastName) return this.last;
    const found = this.arrays.get(name);
    this.lastName = name;
    this.last = found;
    return found;
  }

  /** Whether array `name` is numbered. */
  has(name: string): boolean {
    return this.numbered(name) !== undefined;
  }

  /** How many elements array `name` has, if it is numbered. */
  count(name: string): number | undefined {
    return this.numbered(name)?.count;
  }

  /**
   * 1 + the position of `target` in array `name`; undefined when the array is not numbered or lacks it.
   * `hint`, a position `target` may still be at (the index a reference was read with), is looked at first.
   */
  positionOf(name: string, target: O, hint?: number): number | undefined {
    const numbered = this.numbered(name);
    if (numbered === undefined) return undefined;
    // A reference mostly still names its element's position: checked there first, which costs one
    // read of the array where a map lookup costs several cache misses (a save has 100,000s of them).
    const elements = numbered.distinct;
    if (
      hint !== undefined &&
      elements !== undefined &&
      hint >= 1 &&
      hint <= elements.length &&
      elements[hint - 1] === target
    )
      return hint;
    return numbered.positions.get(target);
  }

  /** The INDEX value of `target` in array `name`: 0 for null, else 1 + its position. */
  indexOf(name: string, target: O | null, path: ReadonlyArray<PathSegment> = []): number {
    if (target === null || target === undefined) return 0;
    const map = this.numbered(name)?.positions;
    if (map === undefined)
      throw new EncodeError(path, 0, `there is no array named ${JSON.stringify(name)}`, 'bad-pointer');
    const index = map.get(target);
    if (index === undefined)
      throw new EncodeError(path, 0, `the object referred to is not an element of ${name}`, 'bad-pointer');
    return index;
  }
}

/** One array's numbering (see {@link ArrayNumbering}). */
interface NumberedArray<O> {
  /** Each element's 1-based position, the first where it is in the array twice. */
  readonly positions: Map<O, number>;
  readonly count: number;
  /** The elements as numbered, when none is in the array twice (then position = index + 1). */
  readonly distinct: ReadonlyArray<O> | undefined;
}

/**
 * The named arrays for reading: each array's elements, by name — allocated with defaults before any
 * field is decoded ({@link ArrayTable.allocate}), or recorded as they are read ({@link ArrayTable.set}) —
 * and the resolution of INDEX values to elements.
 */
export class ArrayTable<O> {
  private readonly arrays = new Map<string, O[]>();

  /** Allocates array `name` with `count` elements made by `makeDefault` (refusing absurd counts). */
  allocate(name: string, count: number, makeDefault: (index: number) => O, maxCount = 1 << 24): O[] {
    if (!Number.isSafeInteger(count) || count < 0 || count > maxCount) {
      throw new DecodeError(
        [name],
        0,
        `array ${name} cannot have ${count} elements (limit ${maxCount})`,
        'count-too-large',
      );
    }
    if (this.arrays.has(name)) throw new DecodeError([name], 0, `array ${name} is defined twice`);
    const elements = Array.from({ length: count }, (_, i) => makeDefault(i));
    this.arrays.set(name, elements);
    return elements;
  }

  /** Records the elements of array `name` as read (a later record of the same name replaces it). */
  set(name: string, elements: O[]): void {
    this.arrays.set(name, elements);
  }

  /** The elements of array `name`, if allocated or recorded. */
  get(name: string): O[] | undefined {
    return this.arrays.get(name);
  }

  /** The element an INDEX value names: null for 0; a DecodeError for an unknown array or a bad index. */
  resolve(name: string, index: number, path: ReadonlyArray<PathSegment> = [], offset = 0): O | null {
    if (index === 0) return null;
    const elements = this.arrays.get(name);
    if (elements === undefined)
      throw new DecodeError(path, offset, `INDEX into unknown array ${JSON.stringify(name)}`, 'bad-pointer');
    if (!Number.isInteger(index) || index < 1 || index > elements.length) {
      throw new DecodeError(path, offset, `INDEX ${index} is outside ${name} (1 to ${elements.length})`, 'bad-pointer');
    }
    return elements[index - 1] as O;
  }
}

/** A reference read before its array was known, resolved once the whole value is read. */
export interface PendingRef {
  /** The reference (its target is attached when resolved). */
  readonly ref: IndexRef;
  /** Where it was read: its document path and offset (for the error if it points past its array). */
  readonly path: ReadonlyArray<PathSegment>;
  readonly offset: number;
}

/**
 * The references read and not yet resolved, in reading order. Each one's path is needed only for the
 * error should it point past its array, yet a save has one per INDEX field of every instance: so
 * each path is kept as the segments it does not share with the path before it (an element's
 * `[…, 'elements', 5, 'target']` after `[…, 'elements', 4, 'target']` adds two), in flat lists,
 * instead of a copy of the whole path each (some 150 bytes a reference, most of it held until the
 * end of the decode).
 */
export class PendingRefs {
  /**
   * Whether each reference's path and offset are kept. A decode's first, lean reading keeps only the
   * references (see `ReadState.errorDetail`): a save holds 100,000s of them, and their paths are
   * needed only for an error, which a second reading then gives.
   */
  readonly recordsPaths: boolean;
  private readonly refs: IndexRef[] = [];
  private readonly offsets: number[] = [];
  /** How many leading segments each path shares with the one before it. */
  private readonly shared: number[] = [];
  /** Where each path's own segments start in {@link segments}. */
  private readonly starts: number[] = [];
  private readonly segments: PathSegment[] = [];
  /** The path of the last reference, or undefined when not known (after a rollback). */
  private last: PathSegment[] | undefined = [];

  /** An empty list; `recordsPaths: false` keeps the references alone (no {@link PendingRefs.at}, {@link PendingRefs.pathAt} or {@link PendingRefs.offsetAt}). */
  constructor(recordsPaths = true) {
    this.recordsPaths = recordsPaths;
  }

  /** How many references are pending. */
  get length(): number {
    return this.refs.length;
  }

  /** Records `ref`, read at `path` (copied as needed) and `offset`. */
  push(ref: IndexRef, path: ReadonlyArray<PathSegment>, offset: number): void {
    if (!this.recordsPaths) {
      this.refs.push(ref);
      return;
    }
    const last = this.last;
    let shared = 0;
    if (last !== undefined) {
      const most = Math.min(last.length, path.length);
      while (shared < most && last[shared] === path[shared]) shared++;
    }
    this.refs.push(ref);
    this.offsets.push(offset);
    this.shared.push(shared);
    this.starts.push(this.segments.length);
    for (let i = shared; i < path.length; i++) this.segments.push(path[i]!);
    const next = last ?? [];
    next.length = shared;
    for (let i = shared; i < path.length; i++) next.push(path[i]!);
    this.last = next;
  }

  /** The reference at `index` (below {@link length}), with its path and offset. */
  at(index: number): PendingRef {
    return { ref: this.refs[index]!, path: this.pathAt(index), offset: this.offsets[index]! };
  }

  /** The reference at `index` alone (no path made). */
  refAt(index: number): IndexRef {
    return this.refs[index]!;
  }

  /** The offset of the reference at `index`. */
  offsetAt(index: number): number {
    this.mustRecord();
    return this.offsets[index]!;
  }

  /** The path of the reference at `index`, put together from the segments it shares with those before it. */
  pathAt(index: number): PathSegment[] {
    this.mustRecord();
    const shared = this.shared[index]!;
    const end = index + 1 < this.starts.length ? this.starts[index + 1]! : this.segments.length;
    const out: PathSegment[] = new Array(shared + end - this.starts[index]!);
    for (let p = shared; p < out.length; p++) out[p] = this.segments[this.starts[index]! + p - shared]!;
    // Positions below `need` are the previous path's: each earlier one gives those from its own start.
    let need = shared;
    for (let j = index - 1; need > 0; j--) {
      const from = this.shared[j]!;
      for (let p = from; p < need; p++) out[p] = this.segments[this.starts[j]! + p - from]!;
      if (from < need) need = from;
    }
    return out;
  }

  /** Paths and offsets are asked for: they must have been kept. */
  private mustRecord(): void {
    if (!this.recordsPaths) throw new Error('PendingRefs: paths and offsets are not recorded in this list');
  }

  /** Forgets every reference from `length` on. */
  truncate(length: number): void {
    if (length >= this.refs.length) return;
    this.refs.length = length;
    if (!this.recordsPaths) return;
    this.offsets.length = length;
    this.shared.length = length;
    this.segments.length = length < this.starts.length ? this.starts[length]! : this.segments.length;
    this.starts.length = length;
    // The next path is kept whole rather than worked out from the one now last.
    this.last = length === 0 ? [] : undefined;
  }
}

/** What the INDEX references of one decode or encode share (see {@link arrayIndexes}). */
export interface ArrayIndexes {
  /** On read: the references read so far, to resolve at the end. */
  readonly pending: PendingRefs;
  /** On write: every array's elements, numbered before anything is written. */
  readonly numbering: ArrayNumbering<object>;
}

const KEY = Symbol('savekit.arrayIndexes');

/**
 * The named arrays and INDEX references of one decode or encode, kept in its shared context
 * (`reader.state.context` / `writer.state.context`), created on first use.
 */
export function arrayIndexes(context: Map<unknown, unknown>, recordsPaths = true): ArrayIndexes {
  let found = context.get(KEY) as ArrayIndexes | undefined;
  if (found === undefined) {
    const pending = new PendingRefs(recordsPaths);
    // A rolled-back reading forgets the references it read.
    const rollback: Rollbackable = {
      [ROLLBACK]() {
        const mark = pending.length;
        return () => pending.truncate(mark);
      },
    };
    found = Object.assign(rollback, { pending, numbering: new ArrayNumbering() });
    context.set(KEY, found);
  }
  return found;
}

const refJson = t.union([t.null, t.type({ $ref: t.string, index: t.Int })], 'IndexRef') as unknown as t.Type<
  IndexRef | null,
  unknown,
  unknown
>;

/**
 * An INDEX field: a number (`stored`, u32le unless given) naming an element of array `array` (the
 * field's declared array; `undefined` keeps whatever the document says). Reads 0 as `null`; other
 * values become {@link IndexRef}s that {@link withArrayIndexes} resolves once every array is read.
 * On write a reference with a target gets the target's current position; one without keeps its
 * `index`, which must be inside the array when the value carries that array.
 *
 * @example
 * ```ts
 * import { array, arrayIndex, decodeOrThrow, struct, u8, withArrayIndexes } from '@savekit/core';
 * const thing = struct({ hp: u8, target: arrayIndex('things') });
 * const things = withArrayIndexes(array(thing, u8), (list) => [['things', list]]);
 * const [first] = decodeOrThrow(things, Uint8Array.of(2, 5, 2, 0, 0, 0, 7, 0, 0, 0, 0));
 * first.target?.target; // the second thing, { hp: 7, target: null }
 * ```
 */
export function arrayIndex(array: string | undefined, stored: Codec<number> = u32le): Codec<IndexRef | null> {
  const storedAt = stored.writeFixed;
  // A stored number of fixed size is read in place when its bytes are there (a save reads one per
  // INDEX field of every instance, most of them NULL); anything else, or a `readFixed` that throws,
  // goes through `stored.read`, which gives the error.
  // (Integers only: another codec's `read` may spend work its `readFixed` does not.)
  const size = stored.size;
  const readAt = size !== undefined && stored.def.type === 'int' ? stored.readFixed : undefined;
  const refName = array ?? '';
  return defineCodec<IndexRef | null>({
    name: `index(${array ?? '?'})`,
    def: customDef('arrayIndex', { params: { array, stored: stored.name } }),
    json: refJson,
    size: stored.size,
    minSize: stored.minSize,
    read(r) {
      const at = r.pos;
      let index: number;
      if (readAt !== undefined && r.end - at >= size!) {
        try {
          index = readAt(r, at);
          r.pos = at + size!;
        } catch {
          index = stored.read(r); // from `at`: a `readFixed` moves nothing
        }
      } else index = stored.read(r);
      if (index === 0) return null;
      const ref = newRef(refName, index);
      const state = r.state;
      arrayIndexes(state.context, state.errorDetail).pending.push(
        ref,
        // Only a reading that keeps paths needs the document's (the lean first reading keeps none).
        state.errorDetail && state.renamingDepths.length > 0 ? state.lastingPath() : state.path,
        at,
      );
      return ref;
    },
    write(w, value) {
      stored.write(w, indexToWrite(w, array, value));
    },
    // In place (a struct's run of fixed fields goes on past it): the same number, or the same throw,
    // which the run's caller redoes on the tracked path for its error.
    writeFixed: storedAt === undefined ? undefined : (w, at, value) => storedAt(w, at, indexToWrite(w, array, value)),
  });
}

/**
 * The number an INDEX field of `array` stores for `value`: 0 for null, else the target's current
 * position (or the reference's own `index` when it has no target or its array is not numbered).
 */
function indexToWrite(w: Writer, array: string | undefined, value: IndexRef | null): number {
  if (value === null || value === undefined) return 0;
  if (typeof value !== 'object' || typeof value.index !== 'number' || typeof value.$ref !== 'string')
    throw w.error('wrong-type', 'expected null or { $ref, index }');
  // The reader names the field's declared array: a reference into another would not come back.
  if (array !== undefined && value.$ref !== array)
    throw w.error('bad-pointer', `refers to ${JSON.stringify(value.$ref)}; this field's INDEX is into ${array}`);
  let index = value.index;
  const { numbering } = arrayIndexes(w.state.context);
  const target = value.target;
  if (target !== undefined && numbering.has(value.$ref)) {
    const position = numbering.positionOf(value.$ref, target, index);
    if (position === undefined) throw w.error('bad-pointer', `refers to an element that is no longer in ${value.$ref}`);
    index = position;
  }
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
    throw w.error('out-of-range', `INDEX ${index} does not fit 32 bits`);
  // An array the value carries must hold the element (the reader refuses an INDEX past its end;
  // 0 would read back as null).
  if (index === 0) throw w.error('out-of-range', 'INDEX 0 is NULL: write null instead');
  const count = numbering.count(value.$ref);
  if (count !== undefined && index > count)
    throw w.error('bad-pointer', `INDEX ${index} is past the end of ${value.$ref} (${count} elements)`);
  return index;
}

/**
 * Resolves the references read so far against `table`: each pending reference into an array the
 * table holds gets its element as target; one past the array's end is a DecodeError at the
 * reference's path and offset; one into an array the table lacks keeps its number. Costs a unit of
 * work per reference.
 */
export function resolveArrayIndexes(r: Reader, table: ArrayTable<object>): void {
  const state = r.state;
  const { pending } = arrayIndexes(state.context, state.errorDetail);
  r.work(pending.length);
  // A save's references mostly go into one array in a row: the array last looked up is kept at hand.
  let lastName: string | undefined;
  let lastElements: object[] | undefined;
  for (let i = 0; i < pending.length; i++) {
    const ref = pending.refAt(i);
    if (ref.$ref !== lastName) {
      lastName = ref.$ref;
      lastElements = table.get(lastName);
    }
    const elements = lastElements;
    if (elements === undefined) continue; // an array the value does not carry: the number is kept
    if (ref.index > elements.length) {
      const message = `INDEX ${ref.index} is past the end of ${ref.$ref} (${elements.length} elements)`;
      if (pending.recordsPaths) throw new DecodeError(pending.pathAt(i), pending.offsetAt(i), message, 'bad-pointer');
      // A lean reading kept no path: the value's own, and a second reading gives the reference's.
      state.detailMissed = true;
      throw new DecodeError(state.path.slice(), r.pos, message, 'bad-pointer');
    }
    attachTarget(ref, elements[ref.index - 1]!); // 1 ≤ index ≤ length: 0 reads as null
  }
  pending.truncate(0);
}

/** Numbers the arrays a value carries, for the INDEX fields written after (see {@link arrayIndex}). */
export function numberArrays(w: Writer, arrays: Iterable<readonly [string, ReadonlyArray<object>]>): void {
  const { numbering } = arrayIndexes(w.state.context);
  for (const [name, elements] of arrays) numbering.set(name, elements);
}

/**
 * A value that carries named arrays and INDEX references into them ({@link arrayIndex} fields).
 * `arraysOf` names the arrays in a value (a later array of the same name replaces an earlier one).
 * On read, once the whole value is read, every reference is resolved against them; on write they are
 * numbered first, so every reference follows its element.
 */
export function withArrayIndexes<A>(
  codec: Codec<A>,
  arraysOf: (value: A) => Iterable<readonly [string, ReadonlyArray<object>]>,
): Codec<A> {
  return withHooks(codec, {
    afterRead(value, { reader }) {
      const table = new ArrayTable<object>();
      for (const [name, elements] of arraysOf(value)) table.set(name, elements as object[]);
      resolveArrayIndexes(reader, table);
    },
    beforeWrite(value, { writer }) {
      numberArrays(writer, arraysOf(value));
    },
  });
}
