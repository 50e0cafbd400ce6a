/**
 * `@savekit/core/schema`: self-describing schemas, reconciled with the reader's own by field name.
 *
 * Structure and array definitions stored inside a file (EDGE's `Stru` and `Arry`, the draft's
 * SDEF/ADEF) are matched to the reader's own schema **by field name**:
 *
 * - a field the reader does not know is decoded by its declared kind and size and **kept**, so
 *   re-encoding loses nothing;
 * - a field the file lacks takes the reader's default;
 * - more elements than the reader expects are kept; fewer leave the rest at their defaults;
 * - a structure the reader does not know is decoded from the file's definition alone;
 * - a field whose kind changed is an error ("once a name is used its type is fixed for all time").
 *
 * Each tolerated difference is a warning with its path. Instances are read and written in the
 * **file's** field order, so an unmodified document re-encodes byte for byte; a new document is
 * written with definitions made from the reader's schema, so a file always describes itself.
 *
 * @packageDocumentation
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { DecodeError, type PathSegment, type Warning } from './errors.js';
import { templateCopier } from './copy-sites.js';
import { nameRecord } from './json.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** What a field holds. */
export type FieldKind = 'numeric' | 'index' | 'string' | 'struct';

/** A field as a file defines it. */
export interface FieldDef {
  /** The field's name: its identity across versions. */
  readonly name: string;
  /** What it holds. */
  readonly kind: FieldKind;
  /** Declared byte size of one element (formats may declare sizes that are not the real ones). */
  readonly size: number;
  /** Number of consecutive elements. */
  readonly count: number;
  /** For `index`: the array referred to; for `struct`: the structure nested. */
  readonly ref?: string;
}

/** A structure as a file defines it. */
export interface StructDef {
  /** The structure's name (`mobj_t`). */
  readonly name: string;
  /** The marker of its instances (`mobj`). */
  readonly marker: string;
  /** Its fields, in the order their values are stored. */
  readonly fields: ReadonlyArray<FieldDef>;
}

/** An array as a file defines it. */
export interface ArrayDef {
  /** The array's name (`mobjs`). */
  readonly name: string;
  /** The structure of its elements. */
  readonly struct: string;
  /** The number of elements. */
  readonly count: number;
}

/** A field of the reader's own schema: the definition plus how it is really encoded. */
export interface KnownField {
  readonly name: string;
  readonly kind: FieldKind;
  /** The declared size written into definitions. */
  readonly size: number;
  /** Elements the reader expects. */
  readonly count: number;
  /** Array (index) or structure (struct) name. */
  readonly ref?: string;
  /**
   * How one element is really encoded (numeric, string, index). Use it when the declared size lies:
   * EDGE declares floats as 4 bytes and writes 6. Default: the encoding's codec for the kind.
   */
  readonly codec?: Codec<any>;
  /** The value of one element when the file does not provide it. */
  readonly default: () => unknown;
}

/** A structure of the reader's own schema. */
export interface KnownStruct {
  readonly name: string;
  readonly marker: string;
  readonly fields: ReadonlyArray<KnownField>;
}

/** How a format encodes the kinds, for fields it only knows from a file's definitions. */
export interface SchemaEncoding {
  /** A numeric field known only by its declared size (default: kept as raw bytes of that size). */
  numeric(size: number): Codec<any>;
  /** Strings. */
  readonly string: Codec<any>;
  /** INDEX values: one codec, or a codec per referred array (the field's `ref`). */
  readonly index: Codec<any> | ((ref: string | undefined) => Codec<any>);
  /** A nested instance, framed the format's way (EDGE: a chunk with the structure's marker). */
  nest(def: StructDef, body: Codec<Instance>): Codec<Instance>;
  /**
   * A struct field naming a structure the file does not define. EDGE 1.29's `player_t.psprites`
   * names `psprite_t` while the structure is registered as `pspdef_t`: the engine finds it by the
   * instance chunk's marker, and a format can do the same here. Without it, such a field is a
   * DecodeError.
   */
  unresolved?(field: FieldDef): Codec<Instance>;
  /**
   * Checks an instance before any of its fields is written (a format's rules for what would not
   * decode back the same: a property no field has, say); throw to refuse it, before anything of the
   * instance is written. Given the instance's own keys (`Object.keys`) and how many of them lead in
   * the order a decoded instance has them — the reader's fields of the plan, in the plan's order —
   * so the check need not list or compare them again.
   */
  checkKeys?(w: Writer, plan: StructPlan, value: Instance, keys: ReadonlyArray<string>, lead: number): void;
}

/**
 * A decoded instance: one property per field of the file's definition (an array when the field has
 * several elements). Fields the reader does not know, and elements beyond the ones it expects, are in
 * `$kept` (by field name) and written back from there.
 */
export interface Instance {
  [field: string]: unknown;
  $kept?: Record<string, unknown>;
}

/** How one field of a file's definition is read. */
export interface FieldPlan {
  /** The file's definition. */
  readonly def: FieldDef;
  /** The reader's field of that name, when it has one of the same kind. */
  readonly known?: KnownField;
  /** How one element is encoded. */
  readonly element: 'struct' | Codec<any>;
  /** How many elements go into the value (the rest into `$kept`). */
  readonly keep: number;
}

/** How instances of one structure are read: the file's definition matched to the reader's schema. */
export interface StructPlan {
  readonly def: StructDef;
  readonly known?: KnownStruct;
  readonly fields: ReadonlyArray<FieldPlan>;
  /** Fields the reader knows that the file lacks: set to their defaults on read. */
  readonly missing: ReadonlyArray<KnownField>;
}

/** The outcome of reconciling a file's definitions with the reader's schema. */
export interface Reconciled {
  /** A plan per structure name, for every structure the file defines. */
  readonly plans: ReadonlyMap<string, StructPlan>;
  /** What was tolerated, each with a path like `Stru.mobj_t.newfield`. */
  readonly warnings: ReadonlyArray<Warning>;
}

/** Most elements of a field whose array is made at its final length before they are read. */
const PRESIZED_MOST = 64;

/**
 * Consecutive fields of one element each, every one of a fixed size read in place (`readFixed`):
 * read at their offsets after one bounds check, without a path or a call per layer of codec. A
 * failure is redone field by field, so errors are the ones the fields give.
 */
interface FixedRun {
  /** The index of the field after the run's last. */
  readonly end: number;
  readonly size: number;
  readonly names: ReadonlyArray<string>;
  readonly offsets: ReadonlyArray<number>;
  readonly readers: ReadonlyArray<(r: Reader, at: number) => unknown>;
}

/**
 * Consecutive fields of one element each, every one of a fixed size written in place (`writeFixed`):
 * written at their offsets after one room check. A field only written in place (an INDEX, whose
 * reading records a reference) extends a run here where it ends a run of {@link FixedRun}.
 */
interface WriteRun {
  /** The index of the field after the run's last. */
  readonly end: number;
  readonly size: number;
  readonly names: ReadonlyArray<string>;
  /** Each field's place among the values of an instance whose keys are in the plan's order. */
  readonly slots: ReadonlyArray<number>;
  readonly offsets: ReadonlyArray<number>;
  readonly writers: ReadonlyArray<(w: Writer, at: number, value: unknown) => void>;
}

/**
 * The longest runs of consecutive fields of one element each whose codec has a fixed size and the
 * in-place access `access`, as `[first, end)` index pairs.
 */
function inPlaceSpans(
  fields: ReadonlyArray<FieldPlan>,
  codecs: ReadonlyArray<Codec<any>>,
  access: 'readFixed' | 'writeFixed',
): Array<readonly [number, number]> {
  const fits = (i: number): boolean => {
    const f = fields[i]!;
    const c = codecs[i]!;
    return (
      f.def.count === 1 &&
      f.known !== undefined &&
      f.known.count === 1 &&
      c.size !== undefined &&
      c[access] !== undefined
    );
  };
  const spans: Array<readonly [number, number]> = [];
  for (let i = 0; i < fields.length; ) {
    if (!fits(i)) {
      i++;
      continue;
    }
    const first = i;
    while (i < fields.length && fits(i)) i++;
    spans.push([first, i]);
  }
  return spans;
}

/** The read runs of `fields` (read by `codecs`), by the index of their first field. */
function fixedRuns(fields: ReadonlyArray<FieldPlan>, codecs: ReadonlyArray<Codec<any>>): Array<FixedRun | undefined> {
  const runs: Array<FixedRun | undefined> = new Array(fields.length).fill(undefined);
  for (const [first, end] of inPlaceSpans(fields, codecs, 'readFixed')) {
    const names: string[] = [];
    const offsets: number[] = [];
    const readers: Array<(r: Reader, at: number) => unknown> = [];
    let size = 0;
    for (let i = first; i < end; i++) {
      const c = codecs[i]!;
      names.push(fields[i]!.def.name);
      offsets.push(size);
      readers.push(c.readFixed!);
      size += c.size!;
    }
    runs[first] = { end, size, names, offsets, readers };
  }
  return runs;
}

/** The write runs of `fields` (written by `codecs`), by the index of their first field. */
function writeRuns(
  fields: ReadonlyArray<FieldPlan>,
  codecs: ReadonlyArray<Codec<any>>,
  slots: ReadonlyArray<number>,
): Array<WriteRun | undefined> {
  const runs: Array<WriteRun | undefined> = new Array(fields.length).fill(undefined);
  for (const [first, end] of inPlaceSpans(fields, codecs, 'writeFixed')) {
    const names: string[] = [];
    const runSlots: number[] = [];
    const offsets: number[] = [];
    const writers: Array<(w: Writer, at: number, value: unknown) => void> = [];
    let size = 0;
    for (let i = first; i < end; i++) {
      const c = codecs[i]!;
      names.push(fields[i]!.def.name);
      runSlots.push(slots[i]!);
      offsets.push(size);
      writers.push(c.writeFixed!);
      size += c.size!;
    }
    runs[first] = { end, size, names, slots: runSlots, offsets, writers };
  }
  return runs;
}

/** The `$kept` of an instance that keeps nothing (never written to). */
const NOTHING_KEPT: Readonly<Record<string, unknown>> = Object.freeze({});

const warn = (warnings: Warning[], code: string, path: PathSegment[], message: string) =>
  warnings.push({ code, path, offset: 0, message });

/**
 * Matches a file's structure definitions to the reader's schema by field name. Throws a
 * {@link DecodeError} when a field's kind changed; every other difference becomes a warning.
 */
export function reconcile(
  defs: ReadonlyArray<StructDef>,
  schema: ReadonlyArray<KnownStruct>,
  encoding: SchemaEncoding,
): Reconciled {
  const knownStructs = new Map(schema.map((s) => [s.name, s]));
  const warnings: Warning[] = [];
  const plans = new Map<string, StructPlan>();
  for (const def of defs) {
    const path: PathSegment[] = ['Stru', def.name];
    if (plans.has(def.name)) throw new DecodeError(path, 0, `structure ${def.name} is defined twice`);
    const known = knownStructs.get(def.name);
    if (known === undefined)
      warn(
        warnings,
        'unknown-struct',
        path,
        `structure ${def.name} is not known to this reader; its instances are kept as the file defines them`,
      );
    const knownFields = new Map((known?.fields ?? []).map((f) => [f.name, f]));
    const seen = new Set<string>();
    const fields = def.fields.map((field): FieldPlan => {
      const fieldPath = [...path, field.name];
      if (seen.has(field.name))
        throw new DecodeError(fieldPath, 0, `field ${field.name} of ${def.name} is defined twice`);
      seen.add(field.name);
      const mine = knownFields.get(field.name);
      if (mine !== undefined && mine.kind !== field.kind) {
        throw new DecodeError(
          fieldPath,
          0,
          `field ${field.name} of ${def.name} changed kind from ${mine.kind} to ${field.kind}; once a name is used its type is fixed for all time`,
        );
      }
      if (mine !== undefined && mine.ref !== undefined && field.ref !== undefined && mine.ref !== field.ref) {
        warn(
          warnings,
          'ref-changed',
          fieldPath,
          `field ${field.name} of ${def.name} now refers to ${field.ref}, not ${mine.ref}`,
        );
      }
      const sizeAgrees = mine === undefined || field.kind !== 'numeric' || mine.size === field.size;
      if (!sizeAgrees) {
        warn(
          warnings,
          'size-changed',
          fieldPath,
          `numeric field ${field.name} of ${def.name} is declared ${field.size} bytes, not ${mine!.size}; it is kept by its declared size`,
        );
      }
      const usable = mine !== undefined && sizeAgrees ? mine : undefined;
      if (mine === undefined && known !== undefined)
        warn(
          warnings,
          'unknown-field',
          fieldPath,
          `field ${field.name} of ${def.name} is not known to this reader; it is kept`,
        );
      if (usable !== undefined && field.count > usable.count) {
        warn(
          warnings,
          'extra-elements',
          fieldPath,
          `field ${field.name} of ${def.name} has ${field.count} elements, ${usable.count} expected; the rest are kept`,
        );
      }
      if (usable !== undefined && field.count < usable.count) {
        warn(
          warnings,
          'missing-elements',
          fieldPath,
          `field ${field.name} of ${def.name} has ${field.count} elements, ${usable.count} expected; the rest take defaults`,
        );
      }
      const element: 'struct' | Codec<any> =
        field.kind === 'struct'
          ? 'struct'
          : (usable?.codec ??
            (field.kind === 'numeric'
              ? encoding.numeric(field.size)
              : field.kind === 'string'
                ? encoding.string
                : indexCodec(encoding, field.ref)));
      return {
        def: field,
        ...(usable !== undefined ? { known: usable } : {}),
        element,
        keep: usable === undefined ? 0 : Math.min(field.count, usable.count),
      };
    });
    const missing = (known?.fields ?? []).filter((f) => !seen.has(f.name));
    for (const f of missing)
      warn(
        warnings,
        'missing-field',
        [...path, f.name],
        `field ${f.name} of ${def.name} is not in the file; it takes its default`,
      );
    plans.set(def.name, { def, ...(known !== undefined ? { known } : {}), fields, missing });
  }
  return { plans, warnings };
}

/**
 * Whether `value`'s enumerable keys are all its own: a plain object (or one of no prototype) while
 * `Object.prototype` has no enumerable key (`for…in` meets inherited keys; `Object.keys` does not).
 */
function ownKeysOnly(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return true;
  if (proto !== Object.prototype) return false;
  for (const _ in proto) return false;
  return true;
}

/** Reads `run` into `out` at its offsets; false (nothing read, nothing spent) when it does not read so. */
function readRun(r: Reader, run: FixedRun, out: Instance): boolean {
  const at = r.pos;
  if (r.end - at < run.size) return false;
  const budget = r.state.budget;
  const spent = budget.workSpent;
  const { names, offsets, readers } = run;
  try {
    for (let k = 0; k < names.length; k++) out[names[k]!] = readers[k]!(r, at + offsets[k]!);
  } catch {
    r.pos = at;
    budget.workSpent = spent;
    return false;
  }
  r.pos = at + run.size;
  return true;
}

/**
 * Writes `run`'s fields of `value` at their offsets; false (nothing written) when they do not write
 * so. `values`, when given, are the instance's values in the plan's order (see {@link WriteRun.slots}).
 */
function writeRun(w: Writer, run: WriteRun, value: Instance, values: ReadonlyArray<unknown> | undefined): boolean {
  const { names, slots, offsets, writers } = run;
  const start = w.ensure(run.size);
  try {
    if (values !== undefined)
      for (let k = 0; k < names.length; k++) writers[k]!(w, start + offsets[k]!, values[slots[k]!]);
    else for (let k = 0; k < names.length; k++) writers[k]!(w, start + offsets[k]!, value[names[k]!]);
  } catch {
    w.length = start;
    return false;
  }
  w.length = start + run.size;
  return true;
}

function indexCodec(encoding: SchemaEncoding, ref: string | undefined): Codec<any> {
  return typeof encoding.index === 'function' ? encoding.index(ref) : encoding.index;
}

/** Definitions for the reader's own schema: what a new file describes itself with. */
export function definitionsOf(schema: ReadonlyArray<KnownStruct>): StructDef[] {
  return schema.map((s) => ({
    name: s.name,
    marker: s.marker,
    fields: s.fields.map((f) => ({
      name: f.name,
      kind: f.kind,
      size: f.size,
      count: f.count,
      ...(f.ref !== undefined ? { ref: f.ref } : {}),
    })),
  }));
}

/** A new instance of a known structure with every field at its default. */
export function defaultInstance(struct: KnownStruct, schema: ReadonlyArray<KnownStruct>): Instance {
  const structs = new Map(schema.map((s) => [s.name, s]));
  const make = (s: KnownStruct, depth: number): Instance => {
    if (depth > 64) throw new RangeError(`structure ${s.name} nests itself`);
    const out: Instance = {};
    for (const f of s.fields) {
      const one = () =>
        f.kind === 'struct' && f.ref !== undefined && structs.has(f.ref)
          ? make(structs.get(f.ref)!, depth + 1)
          : f.default();
      out[f.name] = f.count === 1 ? one() : Array.from({ length: f.count }, one);
    }
    return out;
  };
  return make(struct, 0);
}

/**
 * The codec of instances of a planned structure (nested structures through `encoding.nest`),
 * reading and writing fields in the file's order. Missing fields are filled with defaults on read
 * and not written (the file does not have them).
 */
export function instanceCodec(name: string, reconciled: Reconciled, encoding: SchemaEncoding): Codec<Instance> {
  const cache = new Map<string, Codec<Instance>>();
  const build = (structName: string): Codec<Instance> => {
    const cached = cache.get(structName);
    if (cached !== undefined) return cached;
    const plan = reconciled.plans.get(structName);
    if (plan === undefined) throw new RangeError(`no definition of structure ${structName}`);
    // Nested codecs are looked up lazily so structures may nest in any order (not themselves).
    const elementOf = (f: FieldPlan): Codec<any> => {
      if (f.element !== 'struct') return f.element;
      const ref = f.def.ref;
      if (ref === undefined || !reconciled.plans.has(ref)) {
        if (encoding.unresolved !== undefined) return encoding.unresolved(f.def);
        throw new DecodeError(
          ['Stru', structName, f.def.name],
          0,
          `field ${f.def.name} nests undefined structure ${String(ref)}`,
        );
      }
      return encoding.nest(reconciled.plans.get(ref)!.def, build(ref));
    };
    let elements: Codec<any>[] | undefined;
    const codecs = () => (elements ??= plan.fields.map(elementOf));
    let runs: Array<FixedRun | undefined> | undefined;
    const runsOf = (list: ReadonlyArray<Codec<any>>) => (runs ??= fixedRuns(plan.fields, list));
    // The write side's codecs and runs, kept once made (made on the first value written).
    let written: { list: Codec<any>[]; runs: Array<WriteRun | undefined> } | undefined;
    // The reader's fields in the plan's order, as a decoded instance has its first keys, and each
    // field's place among them (-1: a field only the file has). An instance whose keys start so has
    // its values listed at once (by `for…in`, see `write`): reading dozens of properties by a name that
    // changes from field to field is a slow, generic lookup each.
    const order: string[] = [];
    const slots: number[] = plan.fields.map((f) => (f.known !== undefined ? order.push(f.def.name) - 1 : -1));
    const checkKeys = encoding.checkKeys;
    // The fields the file lacks, and what the blank instance holds for each: the default of a field of
    // one element when that is a number, a string, a boolean or null that JSON keeps as it is (every
    // instance still gets its default, set only when it is something else), null otherwise.
    const missingNames = plan.missing.map((f) => f.name);
    // The keys of a blank instance, in order: the reader's fields, then those the file lacks.
    const blankKeys: ReadonlyArray<string> = [...order, ...missingNames];
    // The values of the instance being written, in key order (see `write`), and whether a write holds them.
    const scratch: unknown[] = [];
    let scratchBusy = false;
    let missingBlanks: unknown[] = [];
    const blankOf = (f: KnownField): unknown => {
      if (f.count !== 1) return null;
      const value = f.default();
      const plain =
        (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) ||
        typeof value === 'string' ||
        typeof value === 'boolean';
      return plain ? value : null;
    };
    // The fields of one element the reader expects as one: read and set without a list.
    const single = plan.fields.map((f) => f.def.count === 1 && f.known !== undefined && f.known.count === 1);
    // Every instance starts as a copy of one object holding all its keys in order: filling in
    // existing keys keeps V8's fast properties, where adding dozens of keys one by one to `{}` through
    // keyed stores turns large structures into slow dictionaries (a 50-field EDGE mobj took 4 KB and
    // most of decoding went to the garbage collector). JSON.parse builds the template in fast mode.
    let template: Instance | undefined;
    let copy: ((template: Instance) => Instance) | undefined;
    const blank = (): Instance => {
      if (template === undefined || copy === undefined) {
        missingBlanks = plan.missing.map(blankOf);
        const keys: Record<string, unknown> = {};
        for (const f of plan.fields)
          if (f.known !== undefined)
            Object.defineProperty(keys, f.def.name, {
              value: null,
              enumerable: true,
              writable: true,
              configurable: true,
            });
        for (let k = 0; k < missingNames.length; k++)
          Object.defineProperty(keys, missingNames[k]!, {
            value: missingBlanks[k],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        template = JSON.parse(JSON.stringify(keys)) as Instance;
        // Each structure's instances are copied at a site of their own (see templateCopier).
        copy = templateCopier(Object.keys(template));
      }
      return copy(template);
    };
    // Reads a field of other than one element; returns what goes into `$kept` for it (if anything).
    const readField = (r: Reader, f: FieldPlan, codec: Codec<any>, out: Instance): unknown => {
      // A short field is made at its final length: an array grown by `push` keeps room for 16 or
      // more elements. A long one grows as it is read (nothing is set aside for elements never read).
      const count = f.def.count;
      const values: unknown[] = count <= PRESIZED_MOST ? new Array(count) : [];
      const path = r.state.path;
      path.push(f.def.name);
      for (let i = 0; i < count; i++) {
        if (count > 1) path.push(i);
        values[i] = codec.read(r);
        if (count > 1) path.pop();
      }
      path.pop();
      if (f.known === undefined) return f.def.count === 1 ? values[0] : values;
      const expected = f.known.count;
      // As many elements as the reader expects, all kept: the values are the field's array as read.
      if (expected !== 1 && f.keep === expected && values.length === expected) {
        out[f.def.name] = values;
        return undefined;
      }
      const own = values.slice(0, f.keep);
      for (let i = own.length; i < expected; i++) own.push(f.known.default());
      out[f.def.name] = expected === 1 ? own[0] : own;
      return values.length > expected ? values.slice(expected) : undefined;
    };
    const codec = defineCodec<Instance>({
      name: `instance(${structName})`,
      def: { type: 'instance', struct: structName, plan, elements: codecs },
      json: t.UnknownRecord as unknown as t.Type<Instance, unknown, unknown>,
      minSize: 0,
      read(r) {
        r.descend();
        const out: Instance = blank();
        let kept: Record<string, unknown> | undefined;
        const list = codecs();
        // Tracing records every field's span: then each is read on its own.
        const fixed = r.state.spans === undefined ? runsOf(list) : undefined;
        const fields = plan.fields;
        const path = r.state.path;
        // `list` is `fields` mapped, so both have `fields.length` entries.
        for (let i = 0; i < fields.length; i++) {
          const run = fixed?.[i];
          if (run !== undefined && readRun(r, run, out)) {
            i = run.end - 1;
            continue;
          }
          const f = fields[i]!;
          if (single[i]) {
            // The common case, without the temporary arrays of the general one. The blank instance
            // holds null already: a null (a NULL string, an INDEX to nothing) is not stored again.
            const name = f.def.name;
            path.push(name);
            const value = list[i]!.read(r);
            if (value !== null) out[name] = value;
            path.pop();
          } else {
            const extra = readField(r, f, list[i]!, out);
            if (extra !== undefined || f.known === undefined) {
              // Kept fields are named by the file: `__proto__` or `constructor` must stay ordinary names.
              kept ??= nameRecord();
              kept[f.def.name] = extra;
            }
          }
        }
        for (let k = 0; k < missingNames.length; k++) {
          const f = plan.missing[k]!;
          const value = f.count === 1 ? f.default() : Array.from({ length: f.count }, () => f.default());
          // The blank instance holds the default already when it is a plain value (the common case).
          if (value !== missingBlanks[k]) out[missingNames[k]!] = value;
        }
        if (kept !== undefined && Object.keys(kept).length > 0) out.$kept = kept;
        r.ascend();
        return out;
      },
      write(w: Writer, value) {
        if (typeof value !== 'object' || value === null)
          throw w.error('wrong-type', `expected an instance of ${structName}`);
        // The value's keys against a blank instance's (`blankKeys`: the reader's fields in `order`,
        // then those the file lacks), and its values, by `for…in`: it walks the object's own key cache
        // where `Object.keys` and `Object.values` make a list per instance (a save writes 100,000s).
        // A value with exactly those keys, all its own, has `blankKeys` as its key list and its values
        // in this codec's scratch list; any other gets lists of its own. An instance of this structure
        // written inside this one (a structure holding its own kind) gets a list of its own too.
        const into = scratchBusy ? [] : scratch;
        let matched = 0;
        let count = 0;
        for (const key in value) {
          if (matched === count && matched < blankKeys.length && key === blankKeys[matched]) matched++;
          into[count] = value[key];
          count++;
        }
        let lead = Math.min(matched, order.length);
        let keys: ReadonlyArray<string> = blankKeys;
        let values: unknown[] | undefined;
        if (count === matched && matched === blankKeys.length && ownKeysOnly(value))
          values = order.length > 0 ? into : undefined;
        else {
          keys = Object.keys(value);
          const most = Math.min(order.length, keys.length);
          lead = 0;
          while (lead < most && keys[lead] === order[lead]) lead++;
          values = order.length > 0 && lead === order.length ? Object.values(value) : undefined;
        }
        // The format's check first, before anything of the instance is written or entered.
        if (checkKeys !== undefined) checkKeys(w, plan, value, keys, lead);
        const holdsScratch = values === scratch;
        if (holdsScratch) scratchBusy = true;
        try {
          writeFields(w, value, values);
        } finally {
          if (holdsScratch) {
            // Emptied, so a codec kept for later does not hold on to this instance's values (and,
            // through its references, to the document).
            scratch.fill(undefined, 0, count);
            scratchBusy = false;
          }
        }
      },
    });
    // Writes the instance's fields, `values` its values in key order when its keys lead in the plan's.
    const writeFields = (w: Writer, value: Instance, values: unknown[] | undefined): void => {
      w.descend();
      if (written === undefined) {
        let made: Codec<any>[];
        try {
          made = codecs();
        } catch (error) {
          throw error instanceof DecodeError ? w.error(error.code, error.message) : error;
        }
        written = { list: made, runs: writeRuns(plan.fields, made, slots) };
      }
      const { list, runs: fixed } = written;
      const kept = value.$kept ?? NOTHING_KEPT;
      const path = w.state.path;
      const fields = plan.fields;
      for (let i = 0; i < fields.length; i++) {
        const run = fixed[i];
        if (run !== undefined && writeRun(w, run, value, values)) {
          i = run.end - 1;
          continue;
        }
        const f = fields[i]!;
        const element = list[i]!;
        path.push(f.def.name);
        if (f.def.count === 1 && f.known !== undefined && f.known.count === 1) {
          element.write(w, values !== undefined ? values[slots[i]!] : value[f.def.name]);
          path.pop();
          continue;
        }
        const held = values !== undefined && f.known !== undefined ? values[slots[i]!] : value[f.def.name];
        const own = f.known === undefined ? [] : f.known.count === 1 ? [held] : (held as unknown[]);
        if (!Array.isArray(own)) throw w.error('wrong-type', `expected ${f.known!.count} elements`);
        // The document holds at most the reader's count of elements: more would not be written (nor
        // read back). Fewer is checked below against what the file keeps (the rest read back as defaults).
        if (f.known !== undefined && own.length > f.known.count)
          throw w.error(
            'size-mismatch',
            `field ${f.def.name} has ${own.length} elements; ${structName}.${f.def.name} holds ${f.known.count}`,
          );
        if (
          f.known !== undefined &&
          f.keep === f.def.count &&
          own.length >= f.keep &&
          !Object.hasOwn(kept, f.def.name)
        ) {
          // The file holds the first `keep` of the value's elements and nothing kept: written from
          // the value itself, without the copies of the general case.
          for (let k = 0; k < f.keep; k++) {
            if (f.def.count > 1) path.push(k);
            element.write(w, own[k]);
            if (f.def.count > 1) path.pop();
          }
          path.pop();
          continue;
        }
        const mine = Object.hasOwn(kept, f.def.name) ? kept[f.def.name] : undefined;
        const extra = f.known === undefined ? mine : (mine ?? []);
        const rest =
          f.known === undefined ? (f.def.count === 1 ? [extra] : (extra as unknown[])) : (extra as unknown[]);
        const all = [...own.slice(0, f.keep), ...(Array.isArray(rest) ? rest : [])];
        if (all.length !== f.def.count)
          throw w.error(
            'size-mismatch',
            `field ${f.def.name} has ${all.length} elements; the definition says ${f.def.count}`,
          );
        for (let k = 0; k < all.length; k++) {
          if (f.def.count > 1) path.push(k);
          element.write(w, all[k]);
          if (f.def.count > 1) path.pop();
        }
        path.pop();
      }
      w.ascend();
    };
    cache.set(structName, codec);
    return codec;
  };
  return build(name);
}
