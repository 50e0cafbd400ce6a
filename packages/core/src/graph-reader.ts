/**
 * Reading an object graph back from its image, in three phases: allocate every object from its
 * recorded kind and size; resolve every reference to an allocated object; call each object's
 * restore callback in file order, with `getObjectData` / `resetObjectData` / `readReference` /
 * `restoreFirst`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { DecodeError, type ErrorCode } from './errors.js';
import type { GraphImage } from './graph-image.js';

/** What `restoreFirst` found. */
export type RestoreStatus = 'restored' | 'in-progress' | 'null' | 'external';

/**
 * What a restore callback sees of its object. Segments handed out by `getObjectData` are views into
 * the input: **valid only during this restore** — copy what you keep.
 */
export interface RestoreContext<O> {
  /** The object's number (1-based). */
  readonly number: number;
  /** Its kind. */
  readonly kind: string;
  /** Its recorded size. */
  readonly size: number;
  /** How many references and segments it has. */
  readonly referenceCount: number;
  readonly segmentCount: number;
  /** The next data segment, or `undefined` after the last. */
  getObjectData(): Uint8Array | undefined;
  /** Starts the segments over from the first. */
  resetObjectData(): void;
  /**
   * The next reference, resolved to its allocated object (null for 0). Fails past the last, and —
   * when `kind` is given — when the referenced object is of another kind.
   */
  readReference(kind?: string): O | null;
  /**
   * Restores `target` now, before continuing, and says how it went. If `target` is already being
   * restored (a cycle), returns `'in-progress'` at once and the caller gets the allocated but
   * partly restored object. The rule that makes this safe, as in Zippy's framework: **a restore
   * callback stores all it can in its object before it calls `restoreFirst`**, so whoever meets it
   * in a cycle finds it usable.
   *
   * Called from a plain callback this recurses; for long chains of dependencies write the callback
   * as a generator and `yield target` instead — the reader then runs it from a work list.
   */
  restoreFirst(target: O | null): RestoreStatus;
  /** `readReference()` followed by `restoreFirst()` on it. */
  readReferenceRestoringFirst(): O | null;
  /** A DecodeError naming this object: `throw ctx.fail('bad payload')`. */
  fail(message: string): DecodeError;
}

/**
 * A restore callback: a plain function, or a generator that yields an object to restore it first
 * (and receives the {@link RestoreStatus}). Generators make arbitrarily deep `restoreFirst` chains
 * iterative.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: most callbacks return nothing; `void` accepts them as written (`undefined` would not)
export type RestoreCallback<O> = (object: O, context: RestoreContext<O>) => void | RestoreGenerator<O>;

/**
 * What a generator restore callback is: it yields objects to restore first and receives their
 * {@link RestoreStatus}. Annotate generator callbacks with it (`*restore(o, ctx): RestoreGenerator<T>`),
 * since TypeScript does not infer a generator's types from context.
 */
export type RestoreGenerator<O> = Generator<O | null, void, RestoreStatus>;

/** How to read a graph image back into objects. */
export interface GraphRestorer<O> {
  /** Phase 1: an empty object for a kind and recorded size. Throw (or return undefined) to refuse. */
  allocate(kind: string, size: number, number: number): O | undefined;
  /** Phase 3: fill an object from its data and references. */
  restore: RestoreCallback<O>;
  /** The application's object for an external name (undefined: unknown, an error). */
  external?(name: string): O | undefined;
  /**
   * Nesting limit for `restoreFirst` from plain callbacks (default 10,000). The engine's call stack
   * may end them sooner (about 1,700 deep under Jest's defaults); either way the read fails with a
   * `too-deep` DecodeError telling you to write the callback as a generator, which has no limit.
   */
  readonly maxRestoreDepth?: number;
}

/** The objects of a restored graph. */
export interface RestoredGraph<O> {
  /** The roots, resolved. */
  readonly roots: ReadonlyArray<O | null>;
  /** Every object, `objects[0]` being object 1. */
  readonly objects: ReadonlyArray<O>;
}

class Context<O extends object> implements RestoreContext<O> {
  readonly kind: string;
  readonly size: number;
  readonly referenceCount: number;
  readonly segmentCount: number;
  private nextRef: number;
  private readonly refFirst: number;
  private readonly refEnd: number;
  private nextSegment: number;
  private readonly firstSegment: number;
  private readonly segmentEnd: number;

  constructor(
    private readonly run: GraphRun<O>,
    readonly number: number,
  ) {
    const image = run.image;
    const i = number - 1;
    // `number` is an object of the run, whose columns checkShape has checked.
    this.kind = image.kinds[image.kindOf[i]!]!;
    this.size = image.sizes[i]!;
    this.refFirst = this.nextRef = image.refStart[i]!;
    this.refEnd = image.refStart[i + 1]!;
    this.firstSegment = this.nextSegment = image.segStart[i]!;
    this.segmentEnd = image.segStart[i + 1]!;
    this.referenceCount = this.refEnd - this.nextRef;
    this.segmentCount = this.segmentEnd - this.firstSegment;
  }

  getObjectData(): Uint8Array | undefined {
    if (this.nextSegment >= this.segmentEnd) return undefined;
    const s = this.nextSegment++;
    const { data, dataStart } = this.run.image;
    return data.subarray(dataStart[s], dataStart[s + 1]);
  }

  resetObjectData(): void {
    this.nextSegment = this.firstSegment;
  }

  readReference(kind?: string): O | null {
    if (this.nextRef >= this.refEnd)
      throw this.fail(`read past the last of its ${this.referenceCount} references`, 'short-read');
    const k = this.nextRef++;
    if (kind !== undefined) {
      // k < refEnd, and every reference was resolved (so is in range) before any restore ran.
      const ref = this.run.image.refs[k]!;
      const found = ref > 0 ? this.run.image.kinds[this.run.image.kindOf[ref - 1]!] : ref < 0 ? 'external' : undefined;
      // Numbered within this object (1 = its first reference), not over the whole image.
      if (found !== undefined && found !== kind)
        throw this.fail(
          `object ${this.number}'s reference ${k - this.refFirst + 1} of ${this.referenceCount} is to ${ref > 0 ? `object ${ref}` : `external ${-ref}`} of kind ${JSON.stringify(found)}, expected ${JSON.stringify(kind)}`,
        );
    }
    return this.run.resolved[k] as O | null;
  }

  restoreFirst(target: O | null): RestoreStatus {
    return this.run.restoreNow(this.number, target);
  }

  readReferenceRestoringFirst(): O | null {
    const target = this.readReference();
    this.restoreFirst(target);
    return target;
  }

  fail(message: string, code?: ErrorCode): DecodeError {
    return new DecodeError(['objects', this.number], 0, message, code);
  }
}

const NEW = 0;
const RESTORING = 1;
const DONE = 2;

interface Frame<O> {
  readonly number: number;
  iterator?: Generator<O | null, void, RestoreStatus>;
  status: RestoreStatus;
}

function isGenerator<O>(value: unknown): value is Generator<O | null, void, RestoreStatus> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Generator).next === 'function' &&
    typeof (value as Generator).throw === 'function'
  );
}

/** One read of an image: the three phases and the restore bookkeeping. */
class GraphRun<O extends object> {
  readonly objects: O[];
  readonly resolved: Array<O | null>;
  readonly externals: O[] = [];
  private readonly externalSet: Set<O>;
  /** Object → number, built on the first `restoreFirst` (most graphs never need it). */
  private numberOf: Map<O, number> | undefined;
  private readonly state: Uint8Array;
  private readonly maxDepth: number;
  private plainDepth = 0;
  /** The object being allocated or restored, for error messages (set before anything can throw). */
  readonly active: { number: number; phase: 'allocating' | 'restoring' };

  constructor(
    readonly image: GraphImage,
    private readonly restorer: GraphRestorer<O>,
    active: { number: number; phase: 'allocating' | 'restoring' },
  ) {
    this.active = active;
    const count = image.kindOf.length;
    this.checkShape(count);
    this.objects = new Array<O>(count);
    // Phase 1: allocate.
    active.phase = 'allocating';
    for (let i = 0; i < count; i++) {
      this.active.number = i + 1;
      const kind = image.kinds[image.kindOf[i]!]!; // checked by checkShape
      const object = restorer.allocate(kind, image.sizes[i]!, i + 1);
      if (object === undefined || object === null)
        throw this.fail(i + 1, `no object can be allocated for kind ${JSON.stringify(kind)}`);
      this.objects[i] = object;
    }
    this.active.number = 0;
    this.active.phase = 'restoring';
    for (const name of image.externals) {
      const object = restorer.external?.(name);
      if (object === undefined)
        throw this.fail(0, `external ${JSON.stringify(name)} is not known to this application`, 'bad-pointer');
      this.externals.push(object);
    }
    this.externalSet = new Set(this.externals);
    // Phase 2: resolve every reference before anything is restored.
    this.resolved = new Array<O | null>(image.refs.length);
    let object = 0;
    for (let k = 0; k < image.refs.length; k++) {
      while (image.refStart[object + 1]! <= k) object++;
      this.resolved[k] = this.resolve(image.refs[k]!, object + 1);
    }
    this.state = new Uint8Array(count + 1);
    this.maxDepth = restorer.maxRestoreDepth ?? 10_000;
  }

  fail(n: number, message: string, code?: ErrorCode): DecodeError {
    return new DecodeError(n === 0 ? [] : ['objects', n], 0, message, code);
  }

  /** The columns must agree with each other before anything indexes into them. */
  private checkShape(count: number): void {
    const { image } = this;
    const bad = (what: string) => this.fail(0, `malformed graph image: ${what}`);
    if (image.sizes.length !== count || image.refStart.length !== count + 1 || image.segStart.length !== count + 1)
      throw bad('column lengths differ');
    if (image.refStart[0] !== 0 || image.refStart[count] !== image.refs.length)
      throw bad('reference offsets do not cover the references');
    // The lengths agree from here on, so the reads below are in range.
    if (image.segStart[0] !== 0 || image.segStart[count]! + 1 !== image.dataStart.length)
      throw bad('segment offsets do not cover the segments');
    if (image.dataStart[0] !== 0 || image.dataStart[image.dataStart.length - 1] !== image.data.length)
      throw bad('data offsets do not cover the data');
    for (let i = 0; i < count; i++) {
      if (image.refStart[i]! > image.refStart[i + 1]! || image.segStart[i]! > image.segStart[i + 1]!)
        throw bad(`offsets of object ${i + 1} go backwards`);
      if (image.kindOf[i]! >= image.kinds.length)
        throw bad(`object ${i + 1} has kind ${image.kindOf[i]} of ${image.kinds.length}`);
    }
    for (let s = 0; s + 1 < image.dataStart.length; s++)
      if (image.dataStart[s]! > image.dataStart[s + 1]!) throw bad(`segment ${s} goes backwards`);
  }

  resolve(ref: number, n: number): O | null {
    const count = this.objects.length;
    if (ref === 0) return null;
    if (ref > 0 && ref <= count) return this.objects[ref - 1]!;
    if (ref < 0 && -ref <= this.externals.length) return this.externals[-ref - 1]!;
    throw this.fail(
      n,
      `reference ${ref} names no object (there are ${count}${this.externals.length > 0 ? ` and ${this.externals.length} externals` : ''})`,
    );
  }

  private statusOf(target: O | null, asker: number): { status: RestoreStatus; number?: number } {
    if (target === null || target === undefined) return { status: 'null' };
    if (this.externalSet.has(target)) return { status: 'external' };
    if (this.numberOf === undefined) {
      this.numberOf = new Map();
      for (let i = 0; i < this.objects.length; i++) {
        const object = this.objects[i]!;
        if (!this.numberOf.has(object)) this.numberOf.set(object, i + 1);
      }
    }
    const n = this.numberOf.get(target);
    if (n === undefined) throw this.fail(asker, 'restoreFirst was given an object that is not part of this graph');
    if (this.state[n] === DONE) return { status: 'restored' };
    if (this.state[n] === RESTORING) return { status: 'in-progress' };
    return { status: 'restored', number: n };
  }

  /** `restoreFirst` from a plain callback: runs the referent now (nested, with a depth limit). */
  restoreNow(asker: number, target: O | null): RestoreStatus {
    const found = this.statusOf(target, asker);
    if (found.number === undefined) return found.status;
    if (++this.plainDepth > this.maxDepth)
      throw this.fail(
        asker,
        `restoreFirst nested deeper than ${this.maxDepth}; write the restore callback as a generator`,
        'too-deep',
      );
    this.run(found.number);
    this.active.number = asker;
    this.plainDepth--;
    return 'restored';
  }

  /** Restores object `start` and whatever its generator asks for first, from an explicit stack. */
  run(start: number): void {
    this.runFrom([{ number: start, status: 'restored' }]);
  }

  /** Runs the frames of `stack` (the last on top) until it is empty. */
  private runFrom(stack: Frame<O>[]): void {
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      this.active.number = frame.number;
      if (frame.iterator === undefined) {
        if (this.state[frame.number] !== NEW) {
          stack.pop();
          continue;
        }
        this.state[frame.number] = RESTORING;
        const result = this.restorer.restore(this.objects[frame.number - 1]!, new Context(this, frame.number));
        if (!isGenerator<O>(result)) {
          this.state[frame.number] = DONE;
          stack.pop();
          continue;
        }
        frame.iterator = result;
      }
      const step = frame.iterator.next(frame.status);
      if (step.done) {
        this.state[frame.number] = DONE;
        stack.pop();
        continue;
      }
      const found = this.statusOf(step.value, frame.number);
      frame.status = found.status;
      if (found.number !== undefined) stack.push({ number: found.number, status: 'restored' });
    }
  }

  restoreAll(): void {
    // A plain callback is called here without a work list of its own (no stack and frame per
    // object); one that returns a generator continues on one, as `run` would have started it.
    const { objects, restorer, state } = this;
    for (let n = 1; n <= objects.length; n++) {
      if (state[n] !== NEW) continue;
      this.active.number = n;
      state[n] = RESTORING;
      const result = restorer.restore(objects[n - 1]!, new Context(this, n));
      if (!isGenerator<O>(result)) {
        state[n] = DONE;
        continue;
      }
      this.runFrom([{ number: n, iterator: result, status: 'restored' }]);
    }
  }
}

/**
 * Reads an image back: allocate every object, resolve every reference, then restore each in number
 * order. Bad graphs — malformed columns, a reference to a number that does not exist, an unknown
 * external, an allocation refused, a restore callback that throws, a read past the last reference —
 * give a {@link DecodeError} whose path is `objects[n]` (the object number n, 1-based).
 */
export function readGraph<O extends object>(
  image: GraphImage,
  restorer: GraphRestorer<O>,
): E.Either<DecodeError, RestoredGraph<O>> {
  // Outlives a constructor that throws, so an allocation failure keeps its object's path.
  const activity: { number: number; phase: 'allocating' | 'restoring' } = { number: 0, phase: 'allocating' };
  try {
    const run = new GraphRun(image, restorer, activity);
    const roots = image.roots.map((ref) => run.resolve(ref, 0));
    run.restoreAll();
    return E.right({ roots, objects: run.objects });
  } catch (error) {
    if (error instanceof DecodeError) return E.left(error);
    const active = activity.number;
    const path = active === 0 ? [] : ['objects', active];
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return E.left(
        new DecodeError(
          path,
          0,
          'restore callbacks nested too deep for the call stack; write them as generators',
          'too-deep',
        ),
      );
    }
    return E.left(
      new DecodeError(
        path,
        0,
        `${active === 0 ? 'reading the graph' : `${activity.phase} object ${active}`}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}
