/**
 * Structure and array definitions: the body of an engine `Stru` chunk (the draft's `SDEF`) and of an
 * `Arry` chunk (the draft's `ADEF`), as the core's `StructDef` and `ArrayDef` — declarations that
 * provide what they define to the `Data` chunks after them ({@link EDGE_DEFINITIONS}).
 *
 * @module
 */
import * as t from 'io-ts';
import {
  array,
  contextKey,
  cstring,
  FieldError,
  fourcc,
  fromContext,
  literal,
  map,
  nothing,
  provide,
  rebuild,
  reordered,
  struct,
  u16le,
  u8,
  withHooks,
  withModel,
  type Codec,
  type ContextKey,
} from '@savekit/core';
import { describeValue, jsonArray } from '@savekit/core/kit';
import type { ArrayDef, FieldDef, FieldKind, StructDef } from '@savekit/core/schema';
import { EDGE_DEFINITIONS, type EdgeDefinitions } from './context.js';
import { oftenOneOf, oftenOneOfModel } from './models.js';
import { edgeInt, edgeString } from './primitives.js';

/** The kind byte of a field definition: 1 NUMERIC, 2 INDEX, 3 STRING, 4 STRUCT. */
export const FIELD_KIND_CODES: Readonly<Record<FieldKind, number>> = { numeric: 1, index: 2, string: 3, struct: 4 };
const KIND_BY_CODE: ReadonlyArray<FieldKind | undefined> = [undefined, 'numeric', 'index', 'string', 'struct'];

const fieldDefJson = t.intersection(
  [
    t.type({
      name: t.string,
      kind: t.keyof({ numeric: null, index: null, string: null, struct: null }),
      size: t.Int,
      count: t.Int,
    }),
    t.partial({ ref: t.string }),
  ],
  'FieldDef',
) as unknown as t.Type<FieldDef, unknown, unknown>;

/**
 * For tools (testkit's arbitraries): a model of a name that may refer to a definition made before
 * it — an array's structure, a `Data` chunk's array. Its values are any name (`what`), but
 * half the time it is one of the names `namesOf` finds in the definitions the document has provided
 * so far, so generated data is data of a defined array and generated arrays are of defined structures.
 */
export function definedNameModel(what: string, namesOf: (defs: EdgeDefinitions) => string[]): () => Codec<string> {
  const base = name(what);
  const codec = fromContext(
    EDGE_DEFINITIONS,
    (defs) => {
      const names = [...new Set(namesOf(defs))];
      if (names.length === 0) return base;
      return oftenOneOfModel(base, names as [string, ...string[]], 'a name no definition has');
    },
    { json: base.json, name: base.name, minSize: base.minSize },
  );
  return () => codec;
}

/** A name (`what`): an EDGE string that is neither NULL nor empty (`model`: see {@link definedNameModel}). */
function name(what: string, model?: () => Codec<string>): Codec<string> {
  return map(edgeString, {
    name: 'name',
    ...(model !== undefined ? { model } : {}),
    decode: (text) => {
      if (text === null) throw new Error(`${what} is NULL`);
      if (text === '') throw new Error(`${what} is empty`);
      return text;
    },
    encode: (text) => {
      if (typeof text !== 'string') throw new Error(`${what} must be a string`);
      if (text === '') throw new Error(`${what} is empty`);
      return text;
    },
    is: (u): u is string => typeof u === 'string' && u !== '',
  });
}

/** A structure marker names its instances' chunks: exactly four letters or digits (the engine's check). */
const MARKER = /^[0-9A-Za-z]{4}$/;
/** The seed's rule: a structure marker "must have length 4 and be lowercase" (ordinary chunks are capitalised). */
const LOWERCASE_MARKER = /^[0-9a-z]{4}$/;

/**
 * Where the definitions being written come from: `'file'` while a top-level chunk that still carries
 * the bytes it was read from is written (a definition read from a file is written back as it was),
 * `'new'` for one built afresh; unset while decoding.
 */
export const DEFINITION_ORIGIN: ContextKey<'file' | 'new' | undefined> = contextKey<'file' | 'new' | undefined>(
  'EDGE definition origin',
  () => undefined,
);

const notAlnum = (marker: unknown) => `the structure marker ${JSON.stringify(marker)} is not four letters or digits`;
const notLowercase = (marker: unknown) =>
  `the structure marker ${JSON.stringify(marker)} is not lowercase: structure markers are four lowercase letters or digits, ordinary chunks are capitalised`;

/** A marker as a file may hold it: four letters or digits; one that is not lowercase is read with a warning. */
const markerAsRead = withHooks(
  map(name('the structure marker'), {
    name: 'marker',
    model: () => fourcc({ alnum: true }), // its values, for tools
    decode: (marker) => {
      if (!MARKER.test(marker)) throw new Error(notAlnum(marker));
      return marker;
    },
    encode: (marker) => {
      if (typeof marker !== 'string' || !MARKER.test(marker)) throw new Error(notAlnum(marker));
      return marker;
    },
  }),
  {
    afterRead: (marker, { reader }) => {
      // The marker's string took its tag, length and four bytes.
      if (!LOWERCASE_MARKER.test(marker)) reader.warn('marker-case', notLowercase(marker), reader.pos - 7);
    },
  },
);

/** A marker of a definition written afresh: the seed's rule holds. */
const markerAsNew = withHooks(markerAsRead, {
  beforeWrite: (marker, { writer }) => {
    if (typeof marker === 'string' && MARKER.test(marker) && !LOWERCASE_MARKER.test(marker))
      throw writer.error('invalid-value', notLowercase(marker));
  },
});

/** A marker a new definition may have (the values {@link markerAsNew} writes), as a model for tools. */
const newMarkerModel = map(fourcc({ alnum: true }), {
  name: 'marker',
  decode: (marker) => {
    if (!LOWERCASE_MARKER.test(marker)) throw new Error(notLowercase(marker));
    return marker;
  },
  encode: (marker) => marker,
});

/**
 * A structure's marker: as a file has it when the definition is written back as it was read, by the
 * seed's rule for a new one. Tools generate new definitions, so its model is a new one's marker.
 */
const markerName = withModel(
  fromContext(DEFINITION_ORIGIN, (origin) => (origin === 'new' ? markerAsNew : markerAsRead), {
    json: markerAsRead.json,
    name: 'marker',
    minSize: markerAsRead.minSize,
  }),
  { name: 'marker', model: () => newMarkerModel },
);

/** The kind byte, as the kind's name. */
const fieldKind = map(u8, {
  name: 'fieldKind',
  model: () => literal(cstring('ascii'), 'numeric', 'index', 'string', 'struct'), // its values, for tools
  decode: (code): FieldKind => {
    const kind = KIND_BY_CODE[code];
    if (kind === undefined)
      throw new Error(`field kind ${code} is not 1 (numeric), 2 (index), 3 (string) or 4 (struct)`);
    return kind;
  },
  encode: (kind) => {
    if (!Object.hasOwn(FIELD_KIND_CODES, kind)) throw new Error(`unknown field kind ${String(kind)}`);
    return FIELD_KIND_CODES[kind];
  },
});

const fieldRef = { index: name('the array name'), struct: name('the structure name') } as const;

/**
 * One field of a definition: kind byte, declared size byte, u16 element count, name, and — for INDEX
 * and STRUCT — the array or structure it refers to.
 */
export const fieldDef: Codec<FieldDef> = map(
  reordered(
    {
      name: name('the field name'),
      kind: fieldKind,
      size: u8,
      count: u16le,
      ref: (p: { kind: FieldKind }) => (p.kind === 'index' || p.kind === 'struct' ? fieldRef[p.kind] : nothing),
    },
    ['kind', 'size', 'count', 'name', 'ref'],
    'fieldDef',
  ),
  {
    name: 'fieldDef',
    // A field without a reference has no `ref` at all.
    decode: ({ ref, ...field }): FieldDef => (ref === undefined ? field : { ...field, ref }),
    encode: (field) => ({
      ...field,
      ref: (field.kind === 'index' || field.kind === 'struct' ? field.ref : undefined) as never,
    }),
    json: fieldDefJson,
  },
);

/** Work units one declared field costs (see {@link structDef}); some 10 µs of decoding with its instance. */
export const UNITS_PER_DECLARED_FIELD = 64;

/** The fields of a definition: `count` of them, each name once. */
function fields(count: number): Codec<ReadonlyArray<FieldDef>> {
  if (count < 0) throw new Error(`field count ${count} is negative`);
  const list = map(array(fieldDef, count), {
    name: 'fields',
    decode: (list) => distinct(list),
    encode: (list) => distinct(list),
  });
  // A declared field costs far more than its bytes: it is read, reconciled into a plan with its own
  // codec and default, and set on every instance. Charged up front, so a definition of a hundred
  // thousand fields (a real save's largest has about a hundred) stops before any of that is built.
  return withHooks(list as unknown as Codec<ReadonlyArray<FieldDef>>, {
    beforeRead: ({ reader }) => {
      // Every field takes at least 5 bytes: a count the data cannot hold is refused before reading.
      reader.claim(count, 5, `structure definition: ${count} fields`);
      reader.work(count * UNITS_PER_DECLARED_FIELD);
    },
  });
}

/** `list`, refused when a field name is used twice. */
function distinct<L extends ReadonlyArray<FieldDef>>(list: L): L {
  const names = new Set<string>();
  for (const field of list) {
    if (names.has(field.name)) throw new Error(`field ${field.name} is declared twice`);
    names.add(field.name);
  }
  return list;
}

const structDefJson = t.type(
  { name: t.string, marker: t.string, fields: jsonArray(fieldDefJson) },
  'StructDef',
) as unknown as t.Type<StructDef, unknown, unknown>;

/**
 * A structure definition: int field count, name, marker, then the fields. It provides the definition
 * to the `Data` chunks that follow; a structure may be defined once.
 */
export const structDef: Codec<StructDef> = provide(
  map(
    struct(
      {
        fieldCount: rebuild(edgeInt, (p: StructDef) => {
          // The count is written before the fields: a definition without a list of them is refused there.
          if (!Array.isArray(p.fields))
            throw new FieldError(['fields'], `expected a list of fields, got ${describeValue(p.fields)}`, 'wrong-type');
          return p.fields.length;
        }),
        name: name('the structure name'),
        marker: markerName,
        fields: (p: { fieldCount: number }): Codec<ReadonlyArray<FieldDef>> => fields(p.fieldCount),
      },
      'structDef',
    ),
    {
      name: 'structDef',
      decode: ({ name, marker, fields }): StructDef => ({ name, marker, fields }),
      encode: (def) => ({ fieldCount: undefined as unknown as number, ...def }),
      json: structDefJson,
    },
  ),
  EDGE_DEFINITIONS,
  (defs, def, place) => {
    if (defs.structs.has(def.name)) throw new Error(`structure ${def.name} is defined twice`);
    return { ...defs, structs: defs.structs.with(def.name, { def, place }) };
  },
);

// The count's JSON type is the int's (32 bits), which reading it back asks for: `t.Int` let 2^53 through.
const arrayDefJson = t.type({ name: t.string, struct: t.string, count: edgeInt.json }, 'ArrayDef') as unknown as t.Type<
  ArrayDef,
  unknown,
  unknown
>;

/**
 * The element count of each array that has a `Data` chunk in the document being written (set by the
 * save's chunk list before it writes): an `Arry` chunk is written with it, so the two cannot disagree.
 */
export const ELEMENT_COUNTS: ContextKey<ReadonlyMap<string, number>> = contextKey<ReadonlyMap<string, number>>(
  'EDGE element counts',
  () => new Map(),
);

/** An array's element count: an int, not negative. */
const anyElementCount = map(edgeInt, {
  name: 'count',
  // What encode takes, so `toJson` names a count it would refuse where the document holds it.
  is: (count): count is number => Number.isInteger(count) && (count as number) >= 0 && (count as number) <= 0x7fffffff,
  decode: (count) => {
    if (count < 0) throw new Error(`array element count ${count} is negative`);
    return count;
  },
  encode: (count) => {
    if (!Number.isInteger(count) || count < 0) throw new Error(`the element count ${count} is not in 0 … 2147483647`);
    return count;
  },
});

/**
 * An array's element count, with a model for tools: any count, but half the time a small one, so a
 * generated `Data` chunk of the array can hold that many elements (on write, a `Data` chunk's own
 * length is the count; see {@link ELEMENT_COUNTS}).
 */
const elementCount = oftenOneOf(anyElementCount, 'count', [0, 1, 2, 3], 'a larger count');

/** The count of array `array` as written: its `Data` chunk's element count when it has one. */
const countOf = (array: string) =>
  fromContext(
    ELEMENT_COUNTS,
    (counts) => {
      const count = counts.get(array);
      return count === undefined
        ? elementCount
        : map(elementCount, { name: 'count', decode: (n) => n, encode: () => count });
    },
    { json: elementCount.json, name: 'count', minSize: 4 },
  );

/**
 * An array definition: int element count, array name, structure name. On write, an array that has a
 * `Data` chunk in the document gets that chunk's element count, so the two cannot disagree.
 */
export const arrayDef: Codec<ArrayDef> = provide(
  reordered(
    {
      name: name('the array name'),
      struct: name(
        'the array type',
        definedNameModel('the array type', (defs) => defs.structs.names()),
      ),
      count: (p: { name: string }) => countOf(p.name),
    },
    [['count', 4], 'name', 'struct'],
    'arrayDef',
  ),
  EDGE_DEFINITIONS,
  (defs, def, _place) => {
    if (defs.arrays.has(def.name)) throw new Error(`array ${def.name} is defined twice`);
    return { ...defs, arrays: defs.arrays.with(def.name, def) };
  },
);

/** The JSON forms of the definitions (for the chunk bodies that hold them). */
export const definitionJson = { structDef: structDefJson, arrayDef: arrayDefJson } as const;
