/**
 * Structure and array definitions: the body of an engine `Stru` chunk (the draft's `SDEF`) and of an
 * `Arry` chunk (the draft's `ADEF`), as the core's `StructDef` and `ArrayDef`.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  defineCodec,
  readChild,
  u16le,
  u8,
  writeChild,
  type ArrayDef,
  type Codec,
  type FieldDef,
  type FieldKind,
  type StructDef,
} from '@savekit/core';
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
  return value;
}

/**
 * One field of a definition: kind byte, declared size byte, u16 element count, name, and — for INDEX
 * and STRUCT — the array or structure it refers to.
 */
export const fieldDef: Codec<FieldDef> = defineCodec<FieldDef>({
  name: 'fieldDef',
  kind: 'edgeFieldDef',
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
    const code = FIELD_KIND_CODES[def.kind];
    if (code === undefined) throw w.error(`unknown field kind ${String(def.kind)}`);
    writeChild(w, 'kind', u8, code);
    writeChild(w, 'size', u8, def.size);
    writeChild(w, 'count', u16le, def.count);
    writeChild(w, 'name', edgeString, def.name);
    if (def.kind === 'index' || def.kind === 'struct') {
      if (typeof def.ref !== 'string') throw w.error(`a ${def.kind} field needs the name it refers to`);
      writeChild(w, 'ref', edgeString, def.ref);
    }
  },
});

const structDefJson = t.type(
  { name: t.string, marker: t.string, fields: t.array(fieldDefJson) },
  'StructDef',
) as unknown as t.Type<StructDef, unknown, unknown>;

/**
 * A structure definition: int field count, name, marker, then the fields. Reading one records it for
 * the `Data` chunks that follow.
 */
export const structDef: Codec<StructDef> = defineCodec<StructDef>({
  name: 'structDef',
  kind: 'edgeStructDef',
  json: structDefJson,
  minSize: 6,
  read(r) {
    const at = r.pos;
    const count = readChild(r, 'fieldCount', edgeInt);
    // Every field takes at least 5 bytes: refuse a count the data cannot hold before reading.
    if (count < 0 || count * 5 > r.remaining)
      throw r.error(`field count ${count} does not fit in the ${r.remaining} bytes left`, at);
    const name = text(r, 'name', 'the structure name');
    const marker = text(r, 'marker', 'the structure marker');
    const fields: FieldDef[] = [];
    const path = r.state.path;
    path.push('fields');
    for (let i = 0; i < count; i++) {
      path.push(i);
      fields.push(fieldDef.read(r));
      path.pop();
    }
    path.pop();
    const def = { name, marker, fields };
    edgeContext(r.state.context).structs.push(def);
    return def;
  },
  write(w, def) {
    if (typeof def !== 'object' || def === null || !Array.isArray(def.fields))
      throw w.error('expected { name, marker, fields }');
    writeChild(w, 'fieldCount', edgeInt, def.fields.length);
    writeChild(w, 'name', edgeString, def.name);
    writeChild(w, 'marker', edgeString, def.marker);
    const path = w.state.path;
    path.push('fields');
    def.fields.forEach((field, i) => {
      path.push(i);
      fieldDef.write(w, field);
      path.pop();
    });
    path.pop();
    edgeContext(w.state.context).structs.push(def);
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
  kind: 'edgeArrayDef',
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
    const count = context.counts.get(def.name) ?? def.count;
    writeChild(w, 'count', edgeInt, count);
    writeChild(w, 'name', edgeString, def.name);
    writeChild(w, 'struct', edgeString, def.struct);
    context.arrays.set(def.name, { ...def, count });
  },
});
