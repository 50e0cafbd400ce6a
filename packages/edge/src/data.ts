/**
 * The `Data` chunk (the draft's `STOR`): an array's name, then one structure-instance chunk per
 * element, decoded through the core's self-describing schemas with the file's own definitions.
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  align,
  array as arrayOf,
  bytes,
  chunk,
  contextKey,
  DecodeError,
  encode,
  fallback,
  fourcc,
  fromContext,
  fromHex,
  toHex,
  lazy,
  magic,
  map,
  nestingLimit,
  nothing,
  sized,
  struct,
  u32le,
  switchOnDemand,
  withHooks,
  withModel,
  type ChunkFraming,
  type AnyCodec,
  type Codec,
  type KnownChunk,
  type Warning,
} from '@savekit/core';
import type { DecodeBudget, Reader, Writer } from '@savekit/core/kit';
import { jsonArray } from '@savekit/core/kit';
import {
  instanceCodec,
  reconcile,
  type FieldDef,
  type Instance,
  type KnownField,
  type KnownStruct,
  type Reconciled,
  type SchemaEncoding,
  type StructDef,
  type StructPlan,
} from '@savekit/core/schema';
import { EDGE_DEFINITIONS, MAX_CHUNK_DEPTH, type DefinitionPlace, type Named, type PlacedStruct } from './context.js';
import { definedNameModel, ELEMENT_COUNTS, fieldDef, structDef } from './definitions.js';
import { edgeString } from './primitives.js';
import { indexRef } from './references.js';
import { knownField, knownStructs, numericBySize, type EngineTable } from './tables.js';
import { endMarkerOf, nestedFraming, type EdgeVariant } from './variants.js';

/** The body of a `Data` / `STOR` chunk. */
export interface DataBody {
  /** The array's name (`mobjs`). */
  array: string;
  /**
   * The elements, one instance per element: a property per field in the file's definition order,
   * `$kept` for what this reader does not know, `$pad` for non-zero chunk padding, `$marker` when the
   * chunk's marker is not the structure's, and `{ $raw }` for an instance whose fields could not be
   * told apart (a float field no release table knows).
   */
  elements: Instance[];
  /** Non-zero padding after the last element, if any. */
  pad?: Uint8Array;
}

const pad4 = align(4);

/**
 * Everything instance codecs of one save need: the reconciled plans and the codecs built from them.
 * Definitions are reconciled once each, as they arrive (a save may interleave `Stru` and `Data`
 * chunks), and every lookup is by name in a map, so the work is linear in the definitions' size.
 */
class Schema {
  private codecs = new Map<string, Codec<Instance>>();
  /** Instance chunk codecs by the structure they expect (or the field that names none). */
  private chunks = new Map<string, Codec<Instance>>();
  /** Structures by name and by marker, the first defined of each (as the engine's lookups). */
  private byName = new Map<string, StructDef>();
  private byMarker = new Map<string, string>();
  /** Where each structure (the first of its name) is in the document. */
  private placeByName = new Map<string, DefinitionPlace>();
  /** How many of `context.structs` are in `byName` and `byMarker`. */
  private indexed = 0;
  /** The structure definitions this schema has seen (a view of the save's definitions). */
  private structs: Named<PlacedStruct> | undefined;
  /** The plans so far: extended in place as definitions arrive. */
  private readonly plans = new Map<string, StructPlan>();
  private readonly warnings: Warning[] = [];
  private readonly view: Reconciled = { plans: this.plans, warnings: this.warnings };
  /** How many of `context.structs` are reconciled into `plans`. */
  private seen = 0;
  /** How many of `warnings` {@link newWarnings} handed out. */
  private reported = 0;
  private readonly guessed = new Set<string>();
  private ambiguity = new Map<string, boolean>();
  /** Work units one instance of each structure costs to read (see {@link instanceCost}). */
  private readonly costs = new Map<string, number>();
  /** The decode's budget (undefined while encoding): reconciling and ambiguity checks are charged to it. */
  budget: DecodeBudget | undefined;
  readonly encoding: SchemaEncoding;

  /** Reconciliation warnings reported already (by code, path and message). */
  readonly warned = new Set<string>();

  constructor(
    readonly variant: EdgeVariant,
    readonly table: EngineTable,
  ) {
    this.encoding = {
      numeric: numericBySize,
      string: edgeString,
      index: (ref) => indexRef(ref),
      nest: (def) => this.instanceChunk(def),
      unresolved: (field) => this.instanceChunk(undefined, field),
      // Writing an instance first checks it would decode back the same (see checkInstanceKeys).
      checkKeys: (w, plan, value, keys, lead) => checkInstanceKeys(w, keyPlanOf(plan), value, keys, lead),
    };
  }

  /**
   * The plans: the file's definitions against the release table. Fields the table lacks are added
   * from any other release that knows them, then from the file's own declaration (a structure the
   * reader does not know still decodes to plain properties). A NUMERIC field no release knows is
   * read by its declared size; sizes 4, 8 and 12 are a guess (the engine declares floats as 4), and
   * such a structure is "ambiguous". Only definitions read since the last call are reconciled.
   */
  /**
   * Whether this schema can take the definitions `structs` (they extend what it has seen); if so it
   * takes them, to reconcile when next asked.
   */
  follow(structs: Named<PlacedStruct>): boolean {
    const seen = this.structs;
    if (seen !== undefined && (structs.id !== seen.id || structs.length < seen.length)) return false;
    this.structs = structs;
    return true;
  }

  reconciled(): Reconciled {
    const structs = this.structs;
    if (structs === undefined || this.seen === structs.length) return this.view;
    const tableStructs = tableStructsOf(this.table);
    const notes: Warning[] = [];
    const found: Warning[] = [];
    const added = new Map<string, StructPlan>();
    const guessed: string[] = [];
    for (let i = this.seen; i < structs.length; i++) {
      // What is said of a definition names it where it is in the document.
      const { def, place } = structs.at(i);
      // Reconciling is linear in the definition: a unit per field, charged to the decode's budget.
      this.budget?.spendWork(def.fields.length + 1, place.path, place.offset);
      if (this.plans.has(def.name) || added.has(def.name))
        throw new DecodeError(place.path, place.offset, `structure ${def.name} is defined twice`);
      const base = tableStructs.get(def.name);
      if (base === undefined)
        notes.push({
          code: 'unknown-struct',
          path: place.path,
          offset: place.offset,
          message: `structure ${def.name} is not known to this reader; its fields are read as the file declares them`,
        });
      // The reader's own table decides how a field it knows is stored, whatever size the file declares
      // (the engine declares a float NUMERIC 4 and writes 6 bytes; a vec2 8 and 12, a vec3 12 and 18):
      // the declaration only serves fields the reader does not know (the seed's "Structure Tables").
      const declaredOf = new Map(def.fields.map((f) => [f.name, f]));
      const asDeclared = (k: KnownField): KnownField => {
        const f = declaredOf.get(k.name);
        return f !== undefined && f.kind === 'numeric' && k.kind === 'numeric' && f.size !== k.size
          ? { ...k, size: f.size }
          : k;
      };
      const fields: KnownField[] = (base?.fields ?? []).map(asDeclared);
      const names = new Set(fields.map((k) => k.name));
      for (const [at, f] of def.fields.entries()) {
        if (names.has(f.name)) continue;
        names.add(f.name);
        const other = knownField(def.name, f.name, f.kind);
        if (other !== undefined) {
          fields.push(asDeclared(other));
          continue;
        }
        if (base !== undefined)
          notes.push({
            code: 'unknown-field',
            path: [...place.path, 'fields', at],
            offset: place.offset + fieldStarts(def)[at]!,
            message: `field ${f.name} of ${def.name} is not known to this reader; it is read as the file declares it`,
          });
        if (f.kind === 'numeric' && !UNAMBIGUOUS_SIZES.has(f.size)) guessed.push(def.name);
        fields.push(declared(f));
      }
      let one: Reconciled;
      try {
        one = reconcile([def], [{ name: def.name, marker: def.marker, fields }], this.encoding);
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        const at = placed({ code: error.code, path: error.path, offset: 0, message: '' }, def, place);
        throw new DecodeError(at.path, at.offset, error.message, error.code);
      }
      for (const [name, plan] of one.plans) added.set(name, plan);
      for (const w of one.warnings) found.push(placed(w, def, place));
    }
    // Nothing changes unless every new definition reconciled (a failure is thrown again next time).
    for (const [name, plan] of added) this.plans.set(name, plan);
    for (const name of guessed) this.guessed.add(name);
    for (const w of notes) this.warnings.push(w);
    for (const w of found) this.warnings.push(w);
    this.seen = structs.length;
    // Codecs resolve nested structures when first used: a new definition may resolve one differently.
    this.codecs = new Map();
    this.chunks = new Map();
    this.ambiguity = new Map();
    return this.view;
  }

  /** Reconciliation warnings not handed out by an earlier call. */
  newWarnings(): ReadonlyArray<Warning> {
    const warnings = this.reconciled().warnings;
    const fresh = warnings.slice(this.reported);
    this.reported = warnings.length;
    return fresh;
  }

  private index(): void {
    const structs = this.structs;
    if (structs === undefined) return;
    for (; this.indexed < structs.length; this.indexed++) {
      const { def, place } = structs.at(this.indexed);
      if (!this.byName.has(def.name)) {
        this.byName.set(def.name, def);
        this.placeByName.set(def.name, place);
      }
      if (!this.byMarker.has(def.marker)) this.byMarker.set(def.marker, def.name);
    }
  }

  /** The definition of structure `name` (the first, if defined twice), without reconciling. */
  structNamed(name: string): StructDef | undefined {
    this.index();
    return this.byName.get(name);
  }

  /** The structure whose instances carry `marker` (the first defined, as the engine's lookup). */
  structOfMarker(marker: string): string | undefined {
    this.reconciled();
    this.index();
    return this.byMarker.get(marker);
  }

  /** Every marker an instance chunk may have, `expected`'s first (for messages and tools). */
  markers(expected?: StructDef): string[] {
    this.reconciled();
    this.index();
    const markers = [...this.byMarker.keys()];
    return expected === undefined || this.byMarker.has(expected.marker) ? markers : [expected.marker, ...markers];
  }

  /**
   * The codec of an instance chunk expected to be of structure `expected` (undefined: of a field
   * naming no defined structure), built once per set of definitions.
   */
  instanceChunk(expected: StructDef | undefined, field?: FieldDef): Codec<Instance> {
    this.reconciled();
    const key = expected !== undefined ? `=${expected.name}` : `?${field?.name ?? ''}\u0000${String(field?.ref)}`;
    let codec = this.chunks.get(key);
    if (codec === undefined) {
      codec = instanceChunk(this, expected, field);
      this.chunks.set(key, codec);
    }
    return codec;
  }

  /** The instance codec of structure `name` (not framed). */
  instance(name: string): Codec<Instance> {
    const plans = this.reconciled();
    const found = this.codecs.get(name);
    if (found !== undefined) return found;
    const codec = instanceCodec(name, plans, this.encoding);
    this.codecs.set(name, codec);
    return codec;
  }

  /**
   * The work units one instance of structure `name` costs to read, without the instances it nests
   * (each of those is charged as it is read): one, plus {@link UNITS_PER_FIELD} per field element (a
   * field of count 0 still counts as one: its property is set), plus one per field the file lacks.
   * A structure wider than {@link WIDE_STRUCT} fields costs {@link UNITS_PER_WIDE_FIELD} per element
   * instead: each of its instances is a copy of an object that wide, which the engine keeps as a
   * slow dictionary. The core's instance reader does not charge per field, so this is what bounds a
   * structure of many fields that take no bytes, read once per element.
   */
  instanceCost(name: string): number {
    let cost = this.costs.get(name);
    if (cost === undefined) {
      const plan = this.reconciled().plans.get(name);
      if (plan === undefined) return 1; // not defined (yet): the read fails without reading fields
      let elements = plan.missing.length;
      for (const f of plan.fields) elements += Math.max(1, f.def.count);
      const wide = plan.fields.length + plan.missing.length > WIDE_STRUCT;
      cost = 1 + elements * (wide ? UNITS_PER_WIDE_FIELD : UNITS_PER_FIELD);
      this.costs.set(name, cost);
    }
    return cost;
  }

  /** Whether {@link instanceCost} of `name` is settled: then it is the same for every instance. */
  costSettled(name: string): boolean {
    return this.costs.has(name);
  }

  /**
   * Whether the structure (or one it nests) has a NUMERIC field whose real size is a guess. Each
   * answer is kept until the next definition arrives, for every structure the search settled (all it
   * saw when none is ambiguous; the chain to the ambiguous one otherwise), so asking for every
   * structure of a nesting chain looks at each definition once, not once per level above it.
   */
  ambiguous(name: string): boolean {
    this.reconciled();
    let answer = this.ambiguity.get(name);
    if (answer === undefined) {
      const seen = new Set<string>();
      answer = this.findAmbiguity(name, seen);
      // A search that found nothing saw everything reachable from each structure it saw.
      if (!answer) for (const other of seen) this.ambiguity.set(other, false);
    }
    return answer;
  }

  private findAmbiguity(name: string, seen: Set<string>): boolean {
    const known = this.ambiguity.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) return false;
    seen.add(name);
    const plan = this.reconciled().plans.get(name);
    let found: boolean;
    if (plan === undefined || this.guessed.has(name)) found = true;
    else {
      // Found again after each new definition: charged, a unit per field looked at.
      this.index();
      const place = this.placeByName.get(name);
      this.budget?.spendWork(plan.fields.length, place?.path ?? [], place?.offset ?? 0);
      found = plan.fields.some(
        (f) => f.def.kind === 'struct' && f.def.ref !== undefined && this.findAmbiguity(f.def.ref, seen),
      );
    }
    // Reaching an ambiguous structure is certain; not reaching one is only once the search is whole.
    if (found) this.ambiguity.set(name, true);
    return found;
  }
}

/** Work units per field element of an instance read (a field sets a property, and reads its bytes). */
const UNITS_PER_FIELD = 2;
/** Fields beyond which a structure's instances are wide objects (the engine's largest has about 100). */
const WIDE_STRUCT = 1000;
/** Work units per field element of an instance of a structure wider than {@link WIDE_STRUCT}. */
const UNITS_PER_WIDE_FIELD = 16;

/** A release table's structures by name. */
function tableStructsOf(table: EngineTable): ReadonlyMap<string, KnownStruct> {
  let found = TABLE_STRUCTS.get(table);
  if (found === undefined) {
    found = new Map(knownStructs(table).map((st) => [st.name, st]));
    TABLE_STRUCTS.set(table, found);
  }
  return found;
}

const TABLE_STRUCTS = new WeakMap<EngineTable, ReadonlyMap<string, KnownStruct>>();

/** Declared NUMERIC sizes that say how the field is encoded: 1 byte, 2 short, 6 float (the design doc's honest size). */
const UNAMBIGUOUS_SIZES = new Set([1, 2, 6]);

/** A field known only from the file's declaration. */
function declared(f: FieldDef): KnownField {
  const base = {
    name: f.name,
    kind: f.kind,
    size: f.size,
    count: f.count,
    ...(f.ref !== undefined ? { ref: f.ref } : {}),
  };
  switch (f.kind) {
    case 'numeric':
      return {
        ...base,
        codec: numericBySize(f.size),
        default: () => (f.size === 6 ? 0 : f.size <= 4 ? 0 : new Uint8Array(f.size)),
      };
    case 'string':
      return { ...base, codec: edgeString, default: () => null };
    case 'index':
      return { ...base, codec: indexRef(f.ref), default: () => null };
    default:
      return { ...base, default: () => null };
  }
}

/** Schemas by the definitions' log (one per decode or encode), per variant and release table. */
const SCHEMAS = new WeakMap<object, Schema[]>();

/**
 * The schema for the definitions `structs`: one per decode or encode, extended as definitions arrive
 * (a save may interleave `Stru` and `Data` chunks); a new one when the definitions do not extend what
 * it saw (a reading rolled back, a document replayed by a tool).
 */
function schemaFor(structs: Named<PlacedStruct>, variant: EdgeVariant, table: EngineTable): Schema {
  let list = SCHEMAS.get(structs.id);
  if (list === undefined) {
    list = [];
    SCHEMAS.set(structs.id, list);
  }
  const at = list.findIndex((s) => s.variant === variant && s.table === table);
  const cached = at >= 0 ? list[at] : undefined;
  if (cached?.follow(structs)) return cached;
  const schema = new Schema(variant, table);
  schema.follow(structs);
  if (at >= 0) list[at] = schema;
  else list.push(schema);
  return schema;
}

/** The count of instance chunks open in a decode or encode (the top-level chunk not counted): see {@link nestedChunk}. */
const OPEN_INSTANCES = contextKey<undefined>('edge.openInstances', () => undefined);

const DEEPER = `chunks nested deeper than ${MAX_CHUNK_DEPTH} (the engine's MAX_CHUNK_DEPTH)`;

/**
 * `codec`, an instance chunk of `structName`, as one more open chunk: refused past the engine's limit
 * (\`too-deep\`: no fallback forgives it). Reading one charges its cost ({@link Schema.instanceCost})
 * to the decode's work budget first.
 */
function nestedChunk(schema: Schema, structName: string, codec: Codec<Instance>): Codec<Instance> {
  // The cost, once the schema has settled it (it never changes then): no lookup per instance.
  let settled: number | undefined;
  const cost = (): number => {
    if (settled !== undefined) return settled;
    const units = schema.instanceCost(structName);
    if (schema.costSettled(structName)) settled = units;
    return units;
  };
  // The top-level chunk is open too: an instance at depth 1 is the second chunk on the stack.
  return nestingLimit(codec, { key: OPEN_INSTANCES, most: MAX_CHUNK_DEPTH - 1, message: DEEPER, cost });
}

/** A plain object (not an array, not bytes). */
const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u) && !ArrayBuffer.isView(u);

/** Bytes in JSON: `{ "$hex": "0a0b…" }` (an instance's `$raw`, `$pad`, a field of an odd declared size). */
const isHexObject = (u: unknown): u is { $hex: string } =>
  isPlainObject(u) && typeof u.$hex === 'string' && Object.keys(u).length === 1;

/**
 * A copy of `root` with every object leaf `replace` recognises replaced (a work list, no recursion: a
 * document's depth is the file's). Objects keep their key order; other values are kept as they are.
 * `replace` is asked about objects only (bytes, `{ $hex }`): a number or a string is copied as it is,
 * with no place on the work list, whose entries are three parallel stacks (no tuple per value: a
 * save's instances have millions of fields).
 */
function replaceLeaves(root: unknown, replace: (value: object) => { value: unknown } | undefined): unknown {
  const out: { root?: unknown } = {};
  const values: object[] = [];
  const parents: Array<Record<string | number, unknown>> = [];
  const keys: Array<string | number> = [];
  /** Puts `value` at `parent[key]`: at once when it is not an object, else once it is taken from the work list. */
  const place = (value: unknown, parent: Record<string | number, unknown>, key: string | number): void => {
    if (typeof value !== 'object' || value === null) parent[key] = value;
    else {
      values.push(value);
      parents.push(parent);
      keys.push(key);
    }
  };
  place(root, out, 'root');
  while (values.length > 0) {
    const value = values.pop()!;
    const parent = parents.pop()!;
    const key = keys.pop()!;
    const replaced = replace(value);
    if (replaced !== undefined) parent[key] = replaced.value;
    else if (Array.isArray(value)) {
      const copy: unknown[] = new Array(value.length);
      parent[key] = copy;
      for (let i = value.length - 1; i >= 0; i--) place(value[i], copy as unknown as Record<number, unknown>, i);
    } else if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      parent[key] = copy;
      const names = Object.keys(value);
      for (const k of names) copy[k] = undefined; // the order of the keys, filled in below
      for (let i = names.length - 1; i >= 0; i--) place(value[names[i]!], copy, names[i]!);
    } else parent[key] = value;
  }
  return out.root;
}

/** An instance's JSON form: as it is, with bytes as `{ $hex }` (so `$raw` and `$pad` survive a dump and a build). */
const instanceJson = new t.Type<Instance, unknown, unknown>(
  'Instance',
  (u): u is Instance => isPlainObject(u),
  (u, c) =>
    isPlainObject(u)
      ? t.success(
          replaceLeaves(u, (v) => {
            if (!isHexObject(v)) return undefined;
            const bytes = fromHex(v.$hex);
            return bytes === undefined ? undefined : { value: bytes };
          }) as Instance,
        )
      : t.failure(u, c, 'expected an instance (an object of field values)'),
  (a) => replaceLeaves(a, (v) => (v instanceof Uint8Array ? { value: { $hex: toHex(v) } } : undefined)),
);

/**
 * A structure-instance chunk: marker, length, the field values, padding (and `MARKER` in variant A)
 * — a switch on the chunk's marker over the structures the file defined (built as markers are met).
 * The value is the instance, with `$pad` for non-zero padding and `$marker` when the marker is not
 * `expected`'s (the instance is then of the structure the file's marker names). With `expected`
 * undefined (a field naming no defined structure) every instance carries its `$marker`.
 */
function instanceChunk(schema: Schema, expected: StructDef | undefined, field?: FieldDef): Codec<Instance> {
  const framing = nestedFraming(schema.variant);
  const expectedMarker = expected?.marker;
  const structOf = (marker: string): string | undefined =>
    marker === expectedMarker && expected !== undefined ? expected.name : schema.structOfMarker(marker);
  const missing = (marker: string) =>
    `no structure has the marker ${JSON.stringify(marker)}${field !== undefined ? ` (field ${field.name} names ${String(field.ref)})` : ''}`;
  const caseOf = (marker: string): Codec<Instance> | undefined => {
    const structName = structOf(marker);
    if (structName === undefined) return undefined;
    const framed = instanceCase(schema, framing, marker, structName, schema.instance(structName));
    const instance = map(framed, {
      name: `instance(${structName})`,
      // The instance is its chunk's body: what is said inside names the instance's own fields.
      hoisted: 'body',
      framing: ['id', 'pad'],
      json: instanceJson,
      decode: ({ body, pad }) => {
        if (pad !== undefined) body.$pad = pad;
        if (marker !== expectedMarker) body.$marker = marker;
        return body;
      },
      encode: (instance) => {
        const pad = instance.$pad instanceof Uint8Array ? instance.$pad : undefined;
        return pad === undefined ? { id: marker, body: instance } : { id: marker, body: instance, pad };
      },
    });
    return nestedChunk(schema, structName, instance);
  };
  return switchOnDemand<string, string, Instance>(
    fourcc(),
    { keys: () => schema.markers(expected), build: caseOf },
    {
      name: `instanceChunk(${expectedMarker ?? '?'})`,
      select: (marker) => (structOf(marker) !== undefined ? marker : undefined),
      unknown: missing,
      caseOf: (instance) => {
        if (typeof instance !== 'object' || instance === null) throw new Error('expected an instance');
        const marker = typeof instance.$marker === 'string' ? instance.$marker : expectedMarker;
        if (marker === undefined)
          throw new Error(`field ${field?.name ?? '?'} names no defined structure; its instances need $marker`);
        if (structOf(marker) === undefined) throw new Error(missing(marker));
        return marker;
      },
      json: instanceJson,
      minSize: 8,
    },
  );
}

/** An instance kept as the bytes of its chunk's body (`{ $raw }`, one of the forms an instance has). */
const rawInstance = struct({ $raw: bytes('rest') }, 'rawInstance') as unknown as Codec<Instance>;

/** Whether an instance is one kept as bytes (`$raw` holds bytes). */
const isRawInstance = (value: Instance): boolean => value.$raw instanceof Uint8Array;

/**
 * The chunk of one instance of `structName` under `marker`. Writing one first checks it would decode
 * back the same ({@link checkInstanceKeys}). An instance of a structure with fields no release knows
 * (so their real size is a guess) is tried by the guess and, when the guess fails or leaves a
 * field's worth of bytes over, rolled back and kept as `{ $raw }` with a warning at the element
 * (`fallback`: the references the guess read are forgotten with it).
 */
function instanceCase(
  schema: Schema,
  framing: ChunkFraming,
  marker: string,
  structName: string,
  inner: Codec<Instance>,
): Codec<KnownChunk<string, Instance>> {
  // Writing an instance checks it first: the schema's `checkKeys` (see Schema.encoding).
  if (!schema.ambiguous(structName)) return chunk(framing, marker, inner);
  // The guess fits when it reads and leaves less than a field's worth of bytes (the padding).
  const guess = withHooks(inner, {
    afterRead: (_value, { reader }) => {
      const left = reader.end - reader.pos;
      if (left >= 4) throw reader.error(`${left} bytes are left after the fields of ${structName}`);
    },
  });
  return fallback(chunk(framing, marker, guess), chunk(framing, marker, rawInstance), {
    warning: {
      code: 'instance-kept-raw',
      message: `the fields of ${structName} do not fit its data (a float field no release table knows?); the instance is kept as bytes`,
    },
    isSecondary: (value): value is KnownChunk<string, Instance> => isRawInstance(value.body),
  });
}

/** The properties an instance has besides its fields. */
const INSTANCE_EXTRAS = new Set(['$kept', '$pad', '$marker', '$raw']);

/** The JSON text of a value, for comparing defaults (bytes as their numbers). */
const jsonText = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v));

/**
 * Refuses an instance that would not decode back the same: a property the structure has no field
 * for (it would be lost), a field without its property (it would come back as a default), or a
 * value for a field the file lacks other than its default (the reader fills in the default).
 */
function checkInstanceKeys(
  w: Writer,
  keyPlan: KeyPlan,
  value: Instance,
  keys: ReadonlyArray<string>,
  lead: number,
): void {
  const { plan, own, fileOnly, fileOnlyNames, missing, checked, partial, order, tail } = keyPlan;
  // An instance as the reader makes it has the fields' properties first, in the plan's order (the
  // first `lead` of its own keys are those, as the core's instance writer found), then those of the
  // fields the file lacks: then each field's key is known to be there, and only the lacking fields'
  // values need looking at.
  const count = keys.length;
  const inOrder = order !== undefined && lead === order.length;
  let k = order !== undefined ? lead : 0;
  // The lacking fields in the reader's order, each holding its default when that is a number, a
  // string, a boolean or null: compared as they are (the common instance ends here).
  if (inOrder)
    for (let j = 0; j < tail.length && k < count; j++, k++) {
      const { name, value: blank } = tail[j]!;
      if (keys[k] !== name || value[name] !== blank) break;
    }
  for (; k < count; k++) {
    const key = keys[k]!;
    if (own.has(key) || INSTANCE_EXTRAS.has(key)) continue;
    const default_ = missing.get(key);
    if (default_ === undefined) failAt(w, key, `${plan.def.name} has no field ${key}`);
    else {
      if (!default_.holds(value[key]))
        failAt(
          w,
          key,
          `${key} is not in this file's ${plan.def.name}: it can only hold its default, ${default_.text()}`,
        );
    }
  }
  // With every field's key in order each one is there, and only the fields the file keeps part of
  // need their elements looked at.
  const fields = inOrder ? partial : checked;
  for (let i = 0; i < fields.length; i++) {
    const { name, known, keep, blank } = fields[i]!;
    if (!inOrder && !Object.hasOwn(value, name)) failAt(w, name, `the field ${name} of ${plan.def.name} has no value`);
    // The file keeps `keep` of the reader's elements; the others read back as defaults.
    if (keep >= known.count) continue;
    const values: unknown[] = known.count === 1 ? [value[name]] : Array.isArray(value[name]) ? value[name] : [];
    for (let e = keep; e < values.length; e++)
      if (!blank.holds(values[e]))
        failAt(
          w,
          name,
          `${plan.def.name}.${name} holds ${keep} of ${known.count} elements in this file: the rest can only be ${blank.text()}`,
        );
  }
  const kept = value.$kept;
  // Nothing kept and no field only the file has: nothing more to look at (the common instance).
  if (kept === undefined && fileOnlyNames.length === 0) return;
  if (kept !== undefined && (typeof kept !== 'object' || kept === null || Array.isArray(kept)))
    failAt(w, '$kept', 'expected an object of kept fields');
  const keptRecord = (kept ?? NO_KEPT) as Record<string, unknown>;
  for (const key of Object.keys(keptRecord))
    if (!own.has(key) && !fileOnly.has(key)) failAt(w, '$kept', `${plan.def.name} has no field ${key}`);
  for (const name of fileOnlyNames)
    if (!Object.hasOwn(keptRecord, name)) failAt(w, '$kept', `the field ${name} of ${plan.def.name} has no value`);
}

/** An instance's `$kept` when it has none (not changed: only read). */
const NO_KEPT: Readonly<Record<string, unknown>> = Object.freeze({});

/** The error for `key` of the value being written. */
function failAt(w: Writer, key: string, message: string): never {
  throw w.errorAt(key, message);
}

/** What {@link checkInstanceKeys} needs of a plan, worked out once per plan rather than per instance written. */
interface KeyPlan {
  readonly plan: StructPlan;
  /** Fields the reader knows (their values are the instance's properties). */
  readonly own: ReadonlySet<string>;
  /** Fields only the file has (their values are under `$kept`). */
  readonly fileOnly: ReadonlySet<string>;
  /** {@link fileOnly} as a list, in the plan's order. */
  readonly fileOnlyNames: ReadonlyArray<string>;
  /** Fields the file lacks, with the JSON text of the default they can only hold (worked out when first needed). */
  readonly missing: ReadonlyMap<string, Default>;
  /** The reader's fields, with the JSON text of one blank element (worked out when first needed). */
  readonly checked: ReadonlyArray<CheckedField>;
  /** The fields of {@link checked} whose file keeps fewer elements than the reader has. */
  readonly partial: ReadonlyArray<CheckedField>;
  /** The reader's fields' names in the plan's order, as a decoded instance has them (undefined if any repeats). */
  readonly order: ReadonlyArray<string> | undefined;
  /**
   * The fields the file lacks, in the order a decoded instance has them after {@link order}, up to the
   * first whose default is not a number, string, boolean or null: each with that default.
   */
  readonly tail: ReadonlyArray<{ readonly name: string; readonly value: unknown }>;
}

/** A field the reader knows, as {@link checkInstanceKeys} looks at it. */
interface CheckedField {
  readonly name: string;
  readonly known: KnownField;
  /** How many of its elements the file holds. */
  readonly keep: number;
  readonly blank: Default;
}

/** A default value, compared by its JSON text. */
interface Default {
  readonly text: () => string;
  /** Whether `value` has the default's JSON text. */
  readonly holds: (value: unknown) => boolean;
}

const KEY_PLANS = new WeakMap<StructPlan, KeyPlan>();

/** The default `make` gives, made when first needed, then kept. */
function defaultOf(make: () => unknown): Default {
  let made: { value: unknown; text: string } | undefined;
  const get = () => {
    if (made === undefined) {
      const value = make();
      made = { value, text: jsonText(value) };
    }
    return made;
  };
  return {
    text: () => get().text,
    holds: (value) => {
      const d = get();
      // The same number, string, boolean or null has the same text: compared without writing it out.
      return (value === d.value && (typeof value !== 'object' || value === null)) || jsonText(value) === d.text;
    },
  };
}

function keyPlanOf(plan: StructPlan): KeyPlan {
  let found = KEY_PLANS.get(plan);
  if (found !== undefined) return found;
  const own = new Set<string>();
  const fileOnly = new Set<string>();
  for (const f of plan.fields) (f.known !== undefined ? own : fileOnly).add(f.def.name);
  const missing = new Map<string, Default>();
  for (const f of plan.missing)
    missing.set(
      f.name,
      defaultOf(() => (f.count === 1 ? f.default() : Array.from({ length: f.count }, f.default))),
    );
  const checked: CheckedField[] = [];
  for (const f of plan.fields) {
    const known = f.known;
    if (known === undefined) continue;
    checked.push({ name: f.def.name, known, keep: f.keep, blank: defaultOf(() => known.default()) });
  }
  const names = checked.map((c) => c.name);
  const order = new Set(names).size === names.length && names.length === own.size ? names : undefined;
  const partial = checked.filter((c) => c.keep < c.known.count);
  const tail: Array<{ name: string; value: unknown }> = [];
  for (const f of plan.missing) {
    if (f.count !== 1) break;
    const value = f.default();
    if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean' && value !== null) break;
    // NaN is not equal to itself, nor −0 written out the same as 0: left to the general check.
    if (Number.isNaN(value) || Object.is(value, -0)) break;
    tail.push({ name: f.name, value });
  }
  found = { plan, own, fileOnly, fileOnlyNames: [...fileOnly], missing, checked, partial, order, tail };
  KEY_PLANS.set(plan, found);
  return found;
}

/**
 * What the core's reconciliation says of a definition (at `Stru.<structure>.<field>`), said where the
 * definition is in the document: the field's entry in its `fields`, else — a field the file lacks —
 * the list itself, at the definition's offset.
 */
function placed(warning: Warning, def: StructDef, place: DefinitionPlace): Warning {
  const field = warning.path[2];
  const at = typeof field === 'string' ? def.fields.findIndex((f) => f.name === field) : -1;
  if (field === undefined) return { ...warning, path: [...place.path], offset: place.offset };
  // A field's entry, else the list (which starts where its first entry would).
  const path = at >= 0 ? [...place.path, 'fields', at] : [...place.path, 'fields'];
  return { ...warning, path, offset: place.offset + fieldStarts(def)[Math.max(at, 0)]! };
}

const FIELD_STARTS = new WeakMap<StructDef, number[]>();

/**
 * Where each field of a definition starts, from the definition's start (and, last, where the list
 * ends): its header, then each field as the definition codecs write it (what was read, since the
 * definition is written back as it was). Only asked for what is said of a definition.
 */
function fieldStarts(def: StructDef): number[] {
  let starts = FIELD_STARTS.get(def);
  if (starts !== undefined) return starts;
  const header = encode(structDef, { ...def, fields: [] });
  let at = E.isRight(header) ? header.right.length : 0;
  starts = [];
  for (const f of def.fields) {
    starts.push(at);
    const written = encode(fieldDef, f);
    at += E.isRight(written) ? written.right.length : 0;
  }
  starts.push(at);
  FIELD_STARTS.set(def, starts);
  return starts;
}

function reportReconcileWarnings(r: Reader, schema: Schema): void {
  const context = schema;
  for (const warning of schema.newWarnings()) {
    // By message too: the fields a definition lacks are each said of its `fields`.
    const key = `${warning.code}:${warning.path.join('.')}:${warning.message}`;
    if (context.warned.has(key)) continue;
    context.warned.add(key);
    // Said of a definition, where it is in the document (not where the Data chunk that needed it is).
    r.report(warning);
  }
}

/**
 * The array name of a `Data` chunk: an EDGE string, neither NULL nor empty — the engine writes the
 * name of one of its arrays (`mobjs`, `players`, …), and no array is named "" (a name the writer
 * refuses is refused on read too, so what decodes encodes).
 */
const anyArrayName = map(edgeString, {
  name: 'array',
  decode: (name) => {
    if (name === null) throw new Error('the array name is NULL');
    if (name === '') throw new Error('the array name is empty');
    return name;
  },
  encode: (name) => {
    if (typeof name !== 'string' || name === '') throw new Error('the array name must be a non-empty string');
    return name;
  },
  is: (u): u is string => typeof u === 'string' && u !== '',
});

/**
 * {@link anyArrayName} with a model for tools: a name that encodes (not empty), as often as not one of
 * an array the definitions before it define.
 */
const arrayName = withModel(anyArrayName, {
  name: 'array',
  model: definedNameModel('the array name', (defs) => defs.arrays.names()),
});

const elementsJson = jsonArray(instanceJson) as unknown as t.Type<Instance[], unknown, unknown>;

/**
 * The elements of array `array`, as the definitions before them say: its `Arry` chunk gives the
 * count (on write, the document's own count, which the `Arry` chunk was written with) and its `Stru`
 * chunk the structure of each element's instance chunk.
 */
function elementsOf(array: string, variant: EdgeVariant, table: EngineTable): Codec<Instance[]> {
  return fromContext(
    ELEMENT_COUNTS,
    (counts) =>
      fromContext(
        EDGE_DEFINITIONS,
        (defs) => {
          const def = defs.arrays.get(array);
          if (def === undefined) return undefinedArrayElements(array, counts.get(array) ?? 0, variant);
          const count = counts.get(array) ?? def.count;
          const schema = schemaFor(defs.structs, variant, table);
          const structDef = schema.structNamed(def.struct);
          if (structDef === undefined) return undefinedStructElements(array, def.struct, count, variant);
          // Built once the decode's budget is known (reconciling the definitions is charged to it).
          const element = lazy(() => schema.instanceChunk(structDef));
          return withHooks(arrayOf(element, count), {
            beforeRead: ({ reader }) => {
              // Every element is a chunk of at least 8 bytes: a count the data cannot hold is refused before reading.
              reader.claim(count, 8, `array ${array}: ${count} elements`);
              schema.budget = reader.state.budget;
              reportReconcileWarnings(reader, schema);
            },
            beforeWrite: () => {
              schema.budget = undefined;
            },
          });
        },
        { json: elementsJson, name: 'elements' },
      ),
    { json: elementsJson, name: 'elements' },
  );
}

/**
 * An instance chunk of a structure the file does not define, kept as it is: `{ $marker, $raw }` (its
 * body's bytes, padding included). Any marker is accepted, as the file's own: the chunk is declared by
 * its parts (marker, u32 length and body, variant A's end marker), one codec for every marker.
 */
function keptInstanceChunk(variant: EdgeVariant): Codec<Instance> {
  let codec = KEPT_INSTANCE.get(variant);
  if (codec !== undefined) return codec;
  const parts = struct(
    {
      marker: fourcc({ alnum: true }),
      body: sized(u32le, bytes('rest')),
      end: (p: { marker: string }): AnyCodec => (variant === 'A' ? magic(endMarkerOf(p.marker)) : nothing),
    },
    'keptInstance',
  ) as unknown as Codec<{ marker: string; body: Uint8Array; end: string | undefined }>;
  const notAligned = (length: number) => `an instance chunk's length ${length} is not a multiple of 4`;
  codec = map(parts, {
    name: 'keptInstance',
    json: instanceJson,
    decode: ({ marker, body }): Instance => {
      if (body.length % 4 !== 0) throw new Error(notAligned(body.length));
      return { $marker: marker, $raw: body };
    },
    encode: (instance) => {
      const { $marker: marker, $raw: body } = instance;
      if (typeof marker !== 'string' || !(body instanceof Uint8Array))
        throw new Error('an instance of a structure the file does not define is kept as { $marker, $raw }');
      if (body.length % 4 !== 0) throw new Error(notAligned(body.length));
      return { marker, body, end: variant === 'A' ? endMarkerOf(marker) : undefined };
    },
  });
  KEPT_INSTANCE.set(variant, codec);
  return codec;
}

const KEPT_INSTANCE = new Map<EdgeVariant, Codec<Instance>>();

/**
 * The elements of an array whose structure the file does not define. With none, nothing is missing
 * (the seed: an unknown structure is "no problem"); with some, their fields cannot be told apart, so
 * each instance is kept as its chunk's bytes, with a warning at the elements.
 */
function undefinedStructElements(array: string, struct: string, count: number, variant: EdgeVariant) {
  return withHooks(arrayOf(keptInstanceChunk(variant), count), {
    beforeRead: ({ reader }) => {
      if (count === 0) return;
      reader.claim(count, 8, `array ${array}: ${count} elements`);
      reader.warn(
        'undefined-struct-kept-raw',
        `array ${array} is of structure ${struct}, which the file does not define: its ${count} elements are kept as bytes`,
      );
    },
  });
}

/**
 * The elements of an array with no `Arry` definition before its data: as the seed treats a missing
 * array, one of zero elements (read with a warning); elements to write for it are refused, since no
 * definition says how many there are or of what.
 */
function undefinedArrayElements(array: string, count: number, variant: EdgeVariant) {
  if (count > 0) throw new Error(`array ${array} has no Arry definition before its data`);
  return withHooks(arrayOf(keptInstanceChunk(variant), 0), {
    beforeRead: ({ reader }) =>
      reader.warn(
        'undefined-array',
        `array ${array} has no Arry definition before its data: it is read as an array of no elements`,
      ),
  });
}

/** The `Data` body codec for a variant and a release table. */
export function dataBody(variant: EdgeVariant, table: EngineTable): Codec<DataBody> {
  return struct(
    {
      array: arrayName,
      elements: (p: { array: string }) => elementsOf(p.array, variant, table),
      pad: pad4,
    },
    'dataBody',
  ) as unknown as Codec<DataBody>;
}
