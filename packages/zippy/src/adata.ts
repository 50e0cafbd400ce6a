/**
 * `adatasave.h`: Zippy's C structures — Vector, Range, List (a linked list, stored from its head),
 * Class, Instance — each a `DATA` object whose segment 0 is ADATA_TAG (`DATA`), the DataType, then
 * the payload (zippy.md §4; container v1 tagged them `ADAT`, still read). Fields that hold values
 * (List items, a Class's members, an Instance's fields) may refer to Lua values and to each other.
 *
 * A structure's segment 0 is a declaration, {@link adataSegment} (references as slots);
 * {@link writeAData} numbers the references as it meets them, and {@link restoreAData} is the graph
 * layer over it: it fills an object allocated before its references resolve and hands back what
 * must be restored first (a superclass, an Instance's class).
 *
 * @module
 */
import {
  array,
  bytes,
  float,
  literal,
  pstring,
  struct,
  u32be,
  u32le,
  type AnyCodec,
  type Codec,
  type NaNBits,
} from '@savekit/core';
import { objectHeadFields } from './head.js';
import { ADATA_TAG, DataType, V1_ADATA_TAG } from './tags.js';
import {
  LuaInteger,
  SegmentError,
  segmentValue,
  type SegmentFormat,
  type SegmentReader,
  SegmentWriter,
  type StoredValue,
  type ZValue,
} from './values.js';

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

  /**
   * The values, head first (iteratively: any length). Nodes that loop back (a `next` pointing at an
   * earlier node) are a RangeError, found without extra memory: a second walker two nodes a step meets
   * the first inside the loop.
   */
  values(): ZValue[] {
    const out: ZValue[] = [];
    let fast: ListNode | null = this.head;
    for (let n = this.head; n !== null; n = n.next) {
      out.push(n.value);
      fast = fast?.next?.next ?? null;
      if (fast !== null && fast === n.next)
        throw new RangeError(`the list's nodes loop back after ${out.length} values`);
    }
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

/** A number as a segment stores it: a NaN with a payload is kept as its bits. */
export type StoredNumber = number | NaNBits;

/** The payloads of the structures as stored, by DataType; values as stored (references as slots). */
export interface StoredPayloads {
  /** A Vector: a u32 count, then the numbers. */
  1: { values: StoredNumber[] };
  /** A Range: the ends, then flags (bit 0 the low end open, bit 1 the high end). */
  2: { lo: StoredNumber; hi: StoredNumber; flags: number };
  /** A List: a u32 count, then the values, head first. */
  3: { items: StoredValue[] };
  /** A Class: its name (a u32 length and UTF-8), superclass, members, and flags (bit 0 bind by name). */
  4: { name: string; superclass: StoredValue; members: StoredValue; bindByName: number };
  /** An Instance: its class, fields, and native state (a u32 length and the bytes). */
  5: { cls: StoredValue; fields: StoredValue; native: Uint8Array };
}

/** Segment 0 of a structure as stored: ADATA_TAG (v1: `ADAT`), the DataType, the payload it names. */
export type StoredAData = {
  [T in keyof StoredPayloads]: { tag: number; dataType: T; payload: StoredPayloads[T] };
}[keyof StoredPayloads];

/** The declaration of a structure's segment 0 in one segment format. */
function adataSegmentOf(format: SegmentFormat): Codec<StoredAData> {
  const le = format.byteOrder === 'le';
  const u32 = le ? u32le : u32be;
  const number = float((format.numberFormat ?? 0) === 0 ? 64 : 32, le ? 'le' : 'be', { nan: 'keep' });
  const value = segmentValue(format);
  const payloads: Readonly<Record<number, AnyCodec>> = {
    [DataType.Vector]: struct({ values: array(number, u32) }),
    [DataType.Range]: struct({ lo: number, hi: number, flags: u32 }),
    [DataType.List]: struct({ items: array(value, u32) }),
    [DataType.Class]: struct({ name: pstring(u32, 'utf8'), superclass: value, members: value, bindByName: u32 }),
    [DataType.Instance]: struct({ cls: value, fields: value, native: bytes(u32) }),
  };
  return struct(
    {
      // The object head every segment 0 starts with, with the DataTypes of these structures.
      ...objectHeadFields(le ? 'le' : 'be', (stored) =>
        literal(stored, DataType.Vector, DataType.Range, DataType.List, DataType.Class, DataType.Instance),
      ),
      payload: ({ dataType }: { dataType: number }) => payloads[dataType]!, // one for each DataType above
    },
    `adataSegment(${le ? 'le' : 'be'}${(format.numberFormat ?? 0) === 0 ? 64 : 32})`,
  ) as unknown as Codec<StoredAData>;
}

const ADATA_SEGMENTS = new Map<string, Codec<StoredAData>>();

/**
 * The declared segment 0 of a C structure in a segment format (byte order, number format): the
 * tag, the DataType and the payload it names ({@link StoredPayloads}); {@link writeAData} and
 * {@link restoreAData} write and read structures with it.
 */
export function adataSegment(format: SegmentFormat = {}): Codec<StoredAData> {
  const key = `${format.byteOrder === 'le' ? 'le' : 'be'}${format.numberFormat ?? 0}`;
  let codec = ADATA_SEGMENTS.get(key);
  if (codec === undefined) {
    segmentValue(format); // checks the number format
    codec = adataSegmentOf(format);
    ADATA_SEGMENTS.set(key, codec);
  }
  return codec;
}

/** A structure as stored, its references numbered by `w` (first mention first) as they are met. */
function storedAData(
  value: AData,
  ref: (v: ZValue) => ZValue,
  w: SegmentWriter,
  acyclic: WeakSet<ScriptClass>,
): StoredAData {
  const tag = ADATA_TAG;
  if (value instanceof Vector)
    return { tag, dataType: DataType.Vector, payload: { values: vectorNumbers(value.values, w) } };
  if (value instanceof Range) {
    const flags = (value.loExclusive ? 1 : 0) | (value.hiExclusive ? 2 : 0);
    return { tag, dataType: DataType.Range, payload: { lo: w.number(value.lo), hi: w.number(value.hi), flags } };
  }
  if (value instanceof List)
    return { tag, dataType: DataType.List, payload: { items: value.values().map((v) => w.stored(ref(v))) } };
  if (value instanceof ZClass) {
    checkSuperclasses(value, acyclic);
    const superclass = w.stored(value.superclass === null ? null : { ref: value.superclass });
    const members = w.stored(ref(value.members));
    const bindByName = value.bindByName ? 1 : 0;
    return { tag, dataType: DataType.Class, payload: { name: value.name, superclass, members, bindByName } };
  }
  // What the reader refuses is not written (the file could never be loaded).
  if (!(value.cls instanceof ZClass)) throw new Error('an Instance needs a Class');
  const cls = w.stored({ ref: value.cls });
  const fields = w.stored(ref(value.fields));
  return { tag, dataType: DataType.Instance, payload: { cls, fields, native: value.native } };
}

/**
 * Refuses a class the reader would refuse: a superclass that is not a Class, or a superclass chain
 * that comes back to a class on it. `acyclic` holds the classes already found to lead to the root
 * (one set per save): each class's chain is walked only up to one of them, so a chain of a million
 * classes costs a million steps in all, not a million per class. The walk finds a loop with a second
 * walker two classes a step (no memory per class), then marks what it walked.
 */
function checkSuperclasses(cls: ScriptClass, acyclic: WeakSet<ScriptClass>): void {
  const step = (x: ScriptClass | null): ScriptClass | null => (x === null || acyclic.has(x) ? null : x.superclass);
  let fast: ScriptClass | null = cls;
  for (let c: ScriptClass | null = cls; c !== null && !acyclic.has(c); c = c.superclass) {
    const next: unknown = c.superclass;
    if (next !== null && !(next instanceof ZClass)) throw new Error('a superclass must be a Class');
    fast = step(step(fast));
    if (fast !== null && fast === next) throw new Error(`class ${cls.name}'s superclass chain is a cycle`);
  }
  for (let c: ScriptClass | null = cls; c !== null && !acyclic.has(c); c = c.superclass) acyclic.add(c);
}

/**
 * Segment 0 of a structure: ADATA_TAG, DataType, payload ({@link adataSegment}). `ref` maps a
 * referenced value to the graph object that stands for it (a Lua value's, another structure).
 * Returns the segment, the references in slot order and the payload's length (the recorded size).
 * Written in `format`'s byte order and number format (default big-endian doubles).
 */
export function writeAData(
  value: AData,
  ref: (v: ZValue) => ZValue = (v) => v,
  format: SegmentFormat = {},
  /** Classes already found to lead to the root, shared by the calls of one save (see `adataSaver`). */
  acyclic: WeakSet<ScriptClass> = new WeakSet(),
): { segment: Uint8Array; references: Array<object | null>; size: number } {
  const w = new SegmentWriter(format);
  w.write(adataSegment(format), storedAData(value, ref, w, acyclic));
  return { segment: w.done(), references: w.references, size: w.length - 8 };
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
 * Fills a structure from its segment 0, read by `reader` with {@link adataSegment} in the reader's
 * format (the tag ADATA_TAG (`DATA`), or v1's `ADAT`; references resolved by the reader), and returns
 * what it needs restored first, if anything. The caller restores that — from a generator restore
 * callback, `settle(yield target)` — so a chain of any depth (a superclass chain) is restored from
 * the core's work list, not by recursion, and holds only this small record per link.
 */
export function restoreAData(
  value: AData,
  reader: SegmentReader,
  hooks: ADataRestoreHooks,
): ADataDependency | undefined {
  // The tag first, so a segment that is not a structure's is refused at 0, before any payload is read.
  const tag = reader.u32();
  if (tag !== ADATA_TAG && tag !== V1_ADATA_TAG)
    throw new SegmentError(`segment 0 starts with 0x${tag.toString(16)}, not ADATA_TAG`, 0, 'unknown-tag');
  reader.pos = 0;
  const stored = reader.read(adataSegment(reader.format));
  if (stored.dataType !== dataTypeOf(value))
    throw new SegmentError(`DataType ${stored.dataType} changed between allocation and restore`, 4);
  if (!reader.atEnd) throw new SegmentError(`${reader.length - reader.pos} bytes left after the payload`, reader.pos);
  // Where the payload's values are, for the errors that name them (resolving a slot, a wrong kind):
  // each value's offset is the one before it plus that one's stored size.
  const PAYLOAD = 8;
  const sizeOf = (v: StoredValue): number => storedSize(v, reader.numberSize);
  const resolved = (v: StoredValue, at: number) => hooks.value(reader.resolved(v, at));
  if (stored.dataType === DataType.Vector && value instanceof Vector) {
    hooks.work?.(stored.payload.values.length);
    value.values = stored.payload.values.map(plainNumber);
  } else if (stored.dataType === DataType.Range && value instanceof Range) {
    const { lo, hi, flags } = stored.payload;
    value.lo = plainNumber(lo);
    value.hi = plainNumber(hi);
    value.loExclusive = (flags & 1) !== 0;
    value.hiExclusive = (flags & 2) !== 0;
  } else if (stored.dataType === DataType.List && value instanceof List) {
    const { items } = stored.payload;
    hooks.work?.(items.length);
    let at = PAYLOAD + 4; // after the count
    value.head = List.of(
      items.map((item) => {
        const restored = resolved(item, at);
        at += sizeOf(item);
        return restored;
      }),
    ).head;
  } else if (stored.dataType === DataType.Class && value instanceof ZClass) {
    const { name, superclass, members, bindByName } = stored.payload;
    const superAt = PAYLOAD + 4 + new TextEncoder().encode(name).length;
    value.name = name;
    value.members = resolved(members, superAt + sizeOf(superclass));
    value.bindByName = (bindByName & 1) !== 0;
    const parent = reader.resolved(superclass, superAt);
    if (parent === null) {
      value.superclass = null;
      return undefined;
    }
    if (typeof parent !== 'object' || !('ref' in parent) || !(parent.ref instanceof ZClass))
      throw new SegmentError('a superclass must be a Class', superAt);
    // The superclass is needed whole (its members decide this class's); a cycle is an error.
    value.superclass = parent.ref;
    return superclassFirst(parent.ref, name, superAt);
  } else if (stored.dataType === DataType.Instance && value instanceof Instance) {
    const { cls, fields, native } = stored.payload;
    const found = reader.resolved(cls, PAYLOAD);
    if (found === null || typeof found !== 'object' || !('ref' in found) || !(found.ref instanceof ZClass))
      throw new SegmentError('an Instance needs a Class', PAYLOAD);
    value.cls = found.ref;
    value.fields = resolved(fields, PAYLOAD + sizeOf(cls));
    value.native = native.slice();
    // read_reference_restoring_first: the class must be whole before the instance is. A class that
    // holds its own instances is fine — restoring it needs only pointers.
    return { target: found.ref, settle: settled };
  }
  return undefined;
}

/** The bytes a stored value takes in a segment: its type byte and its payload. */
function storedSize(v: StoredValue, numberSize: number): number {
  if (v === null || typeof v === 'boolean') return 1;
  if (v instanceof Uint8Array) return 5 + v.length;
  if (v instanceof LuaInteger) return 9;
  if (typeof v === 'object' && 'slot' in v) return 5;
  return 1 + numberSize; // a number, or a NaN kept as its bits
}

/** A stored number as a structure keeps it: every NaN the one NaN. */
function plainNumber(v: StoredNumber): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/** A Vector's numbers, written; refused at the first hole (a sparse list is not walked to its length). */
function vectorNumbers(values: ReadonlyArray<number>, w: SegmentWriter): number[] {
  if (!Array.isArray(values)) throw new Error('a Vector holds an array of numbers');
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!(i in values)) throw new Error(`Vector element ${i} is missing: the array has a hole`);
    out.push(w.number(values[i]!));
  }
  return out;
}
