/**
 * Structure and array definitions: the body of an engine `Stru` chunk (the draft's `SDEF`) and of an
 * `Arry` chunk (the draft's `ADEF`), as the core's `StructDef` and `ArrayDef`.
 *
 * @module
 */
import * as t from 'io-ts';
import { array, u16le, u8, type Codec } from '@savekit/core';
import { customDef, arrayIndexes, defineCodec, readChild, writeChild, type Writer } from '@savekit/core/kit';
import type { ArrayDef, FieldDef, FieldKind, StructDef } from '@savekit/core/schema';
import { edgeContext } from './context.js';
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

function text(r: Parameters<Codec<unknown>['read']>[0], key: string, what: string): string {
  const at = r.pos;
  const value = readChild(r, key, edgeString);
  if (value === null) throw r.error(`${what} is NULL`, at);
  if (value === '') throw r.error(`${what} is empty`, at);
  return value;
}

/**
 * Why `value` cannot be written as a name (`what`): it must be a non-empty string (the encoding of
 * the text itself is checked as it is written). Undefined when it can.
 */
function nameProblem(value: unknown, what: string): string | undefined {
  if (typeof value !== 'string') return `${what} must be a string`;
  if (value === '') return `${what} is empty`;
  return undefined;
}

/** Writes `value` as the name `key`, refusing what the reader would refuse (NULL, empty). */
function writeName(w: Writer, key: string, value: unknown, what: string): void {
  const problem = nameProblem(value, what);
  if (problem !== undefined) throw w.errorAt(key, problem);
  writeChild(w, key, edgeString, value as string);
}

/** A structure marker names its instances' chunks: exactly four letters or digits. */
const MARKER = /^[0-9A-Za-z]{4}$/;

/** Checks an integer `value` is in `[min, max]`; the message otherwise. */
function rangeProblem(value: unknown, min: number, max: number, what: string): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${what} must be an integer`;
  if (value < min || value > max) return `${what} ${value} is not in ${min} … ${max}`;
  return undefined;
}

function fail(w: Writer, key: string, problem: string | undefined): void {
  if (problem !== undefined) throw w.errorAt(key, problem);
}

/**
 * One field of a definition: kind byte, declared size byte, u16 element count, name, and — for INDEX
 * and STRUCT — the array or structure it refers to.
 */
export const fieldDef: Codec<FieldDef> = defineCodec<FieldDef>({
  name: 'fieldDef',
  def: customDef('edgeFieldDef'),
  json: fieldDefJson,
  minSize: 5,
  read(r) {
    const at = r.pos;
    const code = readChild(r, 'kind', u8);
    const kind = KIND_BY_CODE[code];
    if (kind === undefined)
      throw r.error(`field kind ${code} is not 1 (numeric), 2 (index), 3 (string) or 4 (struct)`, at);
    const size = readChild(r, 'size', u8);
    const count = readChild(r, 'count', u16le);
    const name = text(r, 'name', 'the field name');
    if (kind === 'index' || kind === 'struct')
      return { name, kind, size, count, ref: text(r, 'ref', `the ${kind === 'index' ? 'array' : 'structure'} name`) };
    return { name, kind, size, count };
  },
  write(w, def) {
    if (typeof def !== 'object' || def === null) throw w.error('expected { name, kind, size, count }');
    const code = Object.hasOwn(FIELD_KIND_CODES, def.kind) ? FIELD_KIND_CODES[def.kind] : undefined;
    if (code === undefined) fail(w, 'kind', `unknown field kind ${String(def.kind)}`);
    fail(w, 'size', rangeProblem(def.size, 0, 0xff, 'the declared size'));
    fail(w, 'count', rangeProblem(def.count, 0, 0xffff, 'the element count'));
    writeChild(w, 'kind', u8, code!);
    writeChild(w, 'size', u8, def.size);
    writeChild(w, 'count', u16le, def.count);
    writeName(w, 'name', def.name, 'the field name');
    if (def.kind === 'index' || def.kind === 'struct')
      writeName(w, 'ref', def.ref, `the ${def.kind === 'index' ? 'array' : 'structure'} name`);
  },
});

/** {@link fieldDef}, refusing a field name used by an earlier field of the same list (one list per call). */
function distinctFields(): Codec<FieldDef> {
  const names = new Set<string>();
  return defineCodec<FieldDef>({
    name: fieldDef.name,
    def: customDef('edgeFieldDef'),
    json: fieldDef.json,
    minSize: fieldDef.minSize,
    children: [{ key: 'field', codec: fieldDef }],
    read(r) {
      const at = r.pos;
      const field = fieldDef.read(r);
      if (names.has(field.name)) throw r.error(`field ${field.name} is declared twice`, at);
      names.add(field.name);
      return field;
    },
    write(w, field) {
      fieldDef.write(w, field);
      if (names.has(field.name)) fail(w, 'name', `field ${field.name} is declared twice`);
      names.add(field.name);
    },
  });
}

const structDefJson = t.type(
  { name: t.string, marker: t.string, fields: t.array(fieldDefJson) },
  'StructDef',
) as unknown as t.Type<StructDef, unknown, unknown>;

/** Work units one declared field costs (see {@link structDef}); some 10 µs of decoding with its instance. */
export const UNITS_PER_DECLARED_FIELD = 64;

/**
 * A structure definition: int field count, name, marker, then the fields. Reading one records it for
 * the `Data` chunks that follow.
 */
export const structDef: Codec<StructDef> = defineCodec<StructDef>({
  name: 'structDef',
  def: customDef('edgeStructDef'),
  json: structDefJson,
  minSize: 6,
  read(r) {
    const at = r.pos;
    const count = readChild(r, 'fieldCount', edgeInt);
    // Every field takes at least 5 bytes: refuse a count the data cannot hold before reading.
    if (count < 0) throw r.error(`field count ${count} is negative`, at);
    r.claim(count, 5, `structure definition: ${count} fields`);
    // A declared field costs far more than its bytes: it is read, reconciled into a plan with its own
    // codec and default, and set on every instance. Charged up front, so a definition of a hundred
    // thousand fields (a real save's largest has about a hundred) stops before any of that is built.
    r.work(count * UNITS_PER_DECLARED_FIELD);
    const nameAt = r.pos;
    const name = text(r, 'name', 'the structure name');
    const context = edgeContext(r.state.context);
    if (context.structNames.has(name)) throw r.error(`structure ${name} is defined twice`, nameAt);
    const markerAt = r.pos;
    const marker = text(r, 'marker', 'the structure marker');
    if (!MARKER.test(marker))
      throw r.error(`the structure marker ${JSON.stringify(marker)} is not four letters or digits`, markerAt);
    const fields = readChild(r, 'fields', array(distinctFields(), count));
    const def = { name, marker, fields };
    context.structs.push(def);
    context.structPlaces.push({ path: r.state.path.slice(), offset: at });
    context.structNames.add(name);
    return def;
  },
  write(w, def) {
    if (typeof def !== 'object' || def === null || !Array.isArray(def.fields))
      throw w.error('expected { name, marker, fields }');
    const place = { path: w.state.path.slice(), offset: w.length };
    const context = edgeContext(w.state.context);
    fail(w, 'name', nameProblem(def.name, 'the structure name'));
    if (context.structNames.has(def.name)) fail(w, 'name', `structure ${def.name} is defined twice`);
    fail(
      w,
      'marker',
      typeof def.marker === 'string' && MARKER.test(def.marker)
        ? undefined
        : `the structure marker ${JSON.stringify(def.marker)} is not four letters or digits`,
    );
    writeChild(w, 'fieldCount', edgeInt, def.fields.length);
    writeName(w, 'name', def.name, 'the structure name');
    writeName(w, 'marker', def.marker, 'the structure marker');
    writeChild(w, 'fields', array(distinctFields(), def.fields.length), def.fields);
    context.structs.push(def);
    context.structPlaces.push(place);
    context.structNames.add(def.name);
  },
});

const arrayDefJson = t.type({ name: t.string, struct: t.string, count: t.Int }, 'ArrayDef') as unknown as t.Type<
  ArrayDef,
  unknown,
  unknown
>;

/**
 * An array definition: int element count, array name, structure name. On write, an array that has a
 * `Data` chunk in the document gets that chunk's element count, so the two cannot disagree.
 */
export const arrayDef: Codec<ArrayDef> = defineCodec<ArrayDef>({
  name: 'arrayDef',
  def: customDef('edgeArrayDef'),
  json: arrayDefJson,
  minSize: 6,
  read(r) {
    const at = r.pos;
    const count = readChild(r, 'count', edgeInt);
    if (count < 0) throw r.error(`array element count ${count} is negative`, at);
    const name = text(r, 'name', 'the array name');
    const struct = text(r, 'struct', 'the array type');
    const def = { name, struct, count };
    const context = edgeContext(r.state.context);
    if (context.arrays.has(name)) throw r.error(`array ${name} is defined twice`, at);
    context.arrays.set(name, def);
    return def;
  },
  write(w, def) {
    if (typeof def !== 'object' || def === null) throw w.error('expected { name, struct, count }');
    const context = edgeContext(w.state.context);
    fail(w, 'name', nameProblem(def.name, 'the array name'));
    if (context.arrays.has(def.name)) fail(w, 'name', `array ${def.name} is defined twice`);
    const count = arrayIndexes(w.state.context).numbering.count(def.name) ?? def.count;
    fail(w, 'count', rangeProblem(count, 0, 0x7fffffff, 'the element count'));
    writeChild(w, 'count', edgeInt, count);
    writeName(w, 'name', def.name, 'the array name');
    writeName(w, 'struct', def.struct, 'the array type');
    context.arrays.set(def.name, { ...def, count });
  },
});
