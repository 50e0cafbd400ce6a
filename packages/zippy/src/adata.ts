/**
 * `adatasave.h`: Zippy's C structures — Vector, Range, List (a linked list, stored from its head),
 * Class, Instance — each a `DATA` object whose segment 0 is ADATA_TAG (`DATA`), the DataType, then
 * the payload (zippy.md §4; container v1 tagged them `ADAT`, still read). Fields that hold values
 * (List items, a Class's members, an Instance's fields) may refer to Lua values and to each other.
 *
 * {@link writeAData} and {@link restoreAData} are this package's own segment codec, on
 * {@link SegmentWriter} / {@link SegmentReader} (whose values are the `segmentValue` declaration):
 * a restore fills an object allocated before its references resolve, resolves each reference at
 * its own offset, charges the budget for a claimed count before reading it, and hands back what
 * must be restored first (a superclass, an Instance's class) — graph work a value codec cannot say.
 *
 * @module
 */
import { ADATA_TAG, DataType, V1_ADATA_TAG } from './tags.js';
import { SegmentError, type SegmentFormat, type SegmentReader, SegmentWriter, type ZValue } from './values.js';

/** A vector of numbers. */
export class Vector {
  constructor(public values: number[]) {}
}

/** A numeric range, each end open or closed. */
export class Range {
  constructor(
    public lo: number,
    public hi: number,
    public loExclusive = false,
    public hiExclusive = false,
  ) {}
}

/** A node of a {@link List}. */
export interface ListNode {
  value: ZValue;
  next: ListNode | null;
}

/** A singly linked list, saved from its head pointer (`Node**`) as a count and its values in order. */
export class List {
  constructor(public head: ListNode | null = null) {}

  /** A list of these values. */
  static of(values: ReadonlyArray<ZValue>): List {
    let head: ListNode | null = null;
    for (let i = values.length - 1; i >= 0; i--) head = { value: values[i]!, next: head };
    return new List(head);
  }

  /** The values, head first (iteratively: any length). */
  values(): ZValue[] {
    const out: ZValue[] = [];
    for (let n = this.head; n !== null; n = n.next) out.push(n.value);
    return out;
  }
}

/**
 * A script class (the seed's Class structure): name, superclass, member table. Named so it collides
 * with nothing (`@savekit/core/schema` has an `Instance`); `ZClass` is its former name.
 */
export class ScriptClass {
  constructor(
    public name: string,
    public superclass: ScriptClass | null = null,
    /** A reference to its members (a Lua table), or null. */
    public members: ZValue = null,
    /** Bind by name on load: an application class of this name is used instead of a new one. */
    public bindByName = false,
  ) {}
}

/**
 * An instance of a {@link ScriptClass} (the seed's Instance structure): its fields (a Lua table) and
 * opaque native state. `Instance` is its former name, which `@savekit/core/schema`'s `Instance` (a
 * decoded struct) also has.
 */
export class ScriptInstance {
  constructor(
    public cls: ScriptClass,
    public fields: ZValue = null,
    public native: Uint8Array = new Uint8Array(0),
  ) {}
}

/**
 * The former name of {@link ScriptClass}.
 *
 * @deprecated Use `ScriptClass`.
 */
export const ZClass = ScriptClass;
/** @deprecated Use `ScriptClass`. */
export type ZClass = ScriptClass;

/**
 * The former name of {@link ScriptInstance}.
 *
 * @deprecated Use `ScriptInstance` (`Instance` is also `@savekit/core/schema`'s decoded struct).
 */
export const Instance = ScriptInstance;
/** @deprecated Use `ScriptInstance`. */
export type Instance = ScriptInstance;

/** Any of the C structures. */
export type AData = Vector | Range | List | ScriptClass | ScriptInstance;

/** Whether a value is one of the C structures. */
export function isAData(value: unknown): value is AData {
  return (
    value instanceof Vector ||
    value instanceof Range ||
    value instanceof List ||
    value instanceof ZClass ||
    value instanceof Instance
  );
}

/** The DataType of a structure. */
export function dataTypeOf(value: AData): number {
  if (value instanceof Vector) return DataType.Vector;
  if (value instanceof Range) return DataType.Range;
  if (value instanceof List) return DataType.List;
  if (value instanceof ZClass) return DataType.Class;
  return DataType.Instance;
}

/**
 * Segment 0 of a structure: ADATA_TAG, DataType, payload. `ref` maps a referenced value to the
 * graph object that stands for it (a Lua value's, another structure). Returns the segment, the
 * references in slot order and the payload's length (the recorded size). Written in `format`'s byte
 * order and number format (default big-endian doubles).
 */
export function writeAData(
  value: AData,
  ref: (v: ZValue) => ZValue = (v) => v,
  format: SegmentFormat = {},
): { segment: Uint8Array; references: Array<object | null>; size: number } {
  const w = new SegmentWriter(format);
  w.u32(ADATA_TAG);
  w.u32(dataTypeOf(value));
  const start = w.length;
  if (value instanceof Vector) {
    w.u32(value.values.length);
    for (const v of value.values) w.f64(v);
  } else if (value instanceof Range) {
    w.f64(value.lo);
    w.f64(value.hi);
    w.u32((value.loExclusive ? 1 : 0) | (value.hiExclusive ? 2 : 0));
  } else if (value instanceof List) {
    const values = value.values();
    w.u32(values.length);
    for (const v of values) w.value(ref(v));
  } else if (value instanceof ZClass) {
    const name = new TextEncoder().encode(value.name);
    w.u32(name.length);
    w.bytes(name);
    w.value(value.superclass === null ? null : { ref: value.superclass });
    w.value(ref(value.members));
    w.u32(value.bindByName ? 1 : 0);
  } else {
    w.value({ ref: value.cls });
    w.value(ref(value.fields));
    w.u32(value.native.length);
    w.bytes(value.native);
  }
  return { segment: w.done(), references: w.references, size: w.length - start };
}

/** An empty structure of a DataType, to be filled by {@link restoreAData}. */
export function allocateAData(dataType: number): AData {
  switch (dataType) {
    case DataType.Vector:
      return new Vector([]);
    case DataType.Range:
      return new Range(0, 0);
    case DataType.List:
      return new List();
    case DataType.Class:
      return new ZClass('');
    case DataType.Instance:
      return new Instance(new ZClass(''));
    default:
      throw new SegmentError(`unknown DataType ${dataType}`, 4);
  }
}

/** Hooks a restore needs: what a value's reference becomes, and charging work. */
export interface ADataRestoreHooks {
  /** A decoded value as the structure keeps it (a Lua value's handle, say). */
  readonly value: (v: ZValue) => ZValue;
  /** Charges `units` of the decode's work budget (each List item, Vector element); throws past it. */
  readonly work?: (units: number) => void;
}

/**
 * What a structure needs restored before it is complete (`restore_first`): restore `target` first,
 * then call `settle` with the status the restore reported. Everything else is already stored in the
 * structure, as the seed advises, so whoever meets it in a cycle finds it usable.
 */
export interface ADataDependency {
  /** The object to restore first (a superclass, an Instance's class). */
  readonly target: object;
  /** Finishes the structure once `target` was restored: a superclass cycle is a SegmentError here. */
  settle(status: 'restored' | 'in-progress' | 'null' | 'external'): void;
}

/** Nothing to check once the target is restored (an Instance's class: any status will do). */
const settled = (): void => {};

/**
 * A class's wait for its superclass, made outside `restoreAData` so that what waits — a million of
 * them, in a million-deep chain — holds only these three values, not the segment's reader.
 */
function superclassFirst(target: object, name: string, superAt: number): ADataDependency {
  return {
    target,
    settle(status) {
      if (status === 'in-progress') throw new SegmentError(`class ${name}'s superclass chain is a cycle`, superAt);
    },
  };
}

/**
 * Fills a structure from its segment 0 (read with references already resolved by `reader`, in the
 * file's byte order; the tag is ADATA_TAG (`DATA`), or v1's `ADAT`) and returns what it needs restored
 * first, if anything. The caller restores that — from a generator
 * restore callback, `settle(yield target)` — so a chain of any depth (a superclass chain) is
 * restored from the core's work list, not by recursion, and holds only this small record per link.
 */
export function restoreAData(
  value: AData,
  reader: SegmentReader,
  hooks: ADataRestoreHooks,
): ADataDependency | undefined {
  let dependency: ADataDependency | undefined;
  const tag = reader.u32();
  if (tag !== ADATA_TAG && tag !== V1_ADATA_TAG)
    throw new SegmentError(`segment 0 starts with 0x${tag.toString(16)}, not ADATA_TAG`, 0, 'unknown-tag');
  const type = reader.u32();
  if (type !== dataTypeOf(value)) throw new SegmentError(`DataType ${type} changed between allocation and restore`, 4);
  if (value instanceof Vector) {
    const n = reader.count(reader.numberSize);
    hooks.work?.(n);
    value.values = Array.from({ length: n }, () => reader.f64());
  } else if (value instanceof Range) {
    value.lo = reader.f64();
    value.hi = reader.f64();
    const flags = reader.u32();
    value.loExclusive = (flags & 1) !== 0;
    value.hiExclusive = (flags & 2) !== 0;
  } else if (value instanceof List) {
    const n = reader.count(1);
    hooks.work?.(n);
    const values: ZValue[] = [];
    for (let i = 0; i < n; i++) values.push(hooks.value(reader.value()));
    value.head = List.of(values).head;
  } else if (value instanceof ZClass) {
    const length = reader.count(1);
    value.name = new TextDecoder().decode(reader.take(length));
    const superAt = reader.pos;
    const superclass = reader.value();
    if (superclass !== null) {
      if (typeof superclass !== 'object' || !('ref' in superclass) || !(superclass.ref instanceof ZClass))
        throw new SegmentError('a superclass must be a Class', superAt);
      // The superclass is needed whole (its members decide this class's); a cycle is an error.
      value.superclass = superclass.ref;
      dependency = superclassFirst(superclass.ref, value.name, superAt);
    } else value.superclass = null;
    value.members = hooks.value(reader.value());
    value.bindByName = (reader.u32() & 1) !== 0;
  } else {
    const clsAt = reader.pos;
    const cls = reader.value();
    if (cls === null || typeof cls !== 'object' || !('ref' in cls) || !(cls.ref instanceof ZClass))
      throw new SegmentError('an Instance needs a Class', clsAt);
    // read_reference_restoring_first: the class must be whole before the instance is. A class that
    // holds its own instances is fine — restoring it needs only pointers.
    dependency = { target: cls.ref, settle: settled };
    value.cls = cls.ref;
    value.fields = hooks.value(reader.value());
    const n = reader.count(1);
    value.native = reader.take(n).slice();
  }
  if (!reader.atEnd)
    throw new SegmentError(`${reader.bytes.length - reader.pos} bytes left after the payload`, reader.pos);
  return dependency;
}
