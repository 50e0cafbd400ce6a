/**
 * The named constants of Zippy's savefile framework, in one table: the object tags (compared as
 * 32-bit integers, as the wiki says, so a file of either byte order reads), `ADATA_TAG`, the DataType
 * enum, the Lua type codes and the value type bytes. Every value the wiki leaves open is ZSAV's
 * proposal (zippy.md); change it here and only here.
 *
 * @module
 */

/** The tag of an object holding a Lua value — a table, a userdata, or (as a root or a reference) any other value: `LUA\0`. */
export const LUA_TAG = 0x4c554100;
/**
 * The tag of a C structure (`adatasave.h`'s ADATA_TAG): `DATA`. The wiki: objects start with
 * `LUA\0` or `DATA`, and "all structures begin with the ADATA_TAG mentioned above".
 */
export const ADATA_TAG = 0x44415441;
/** `DATA`, the same value as {@link ADATA_TAG} (container v1 tagged userdata with it). */
export const DATA_TAG = ADATA_TAG;
/** The tag container v1 gave C structures: `ADAT` (read, never written). */
export const V1_ADATA_TAG = 0x41444154;

/** The container's major versions: 1 (C structures `ADAT`, userdata `DATA`) and 2 (the seed's tags). */
export const ContainerVersion = { v1: 1, v2: 2 } as const;
/** The major version written: 2. */
export const CURRENT_MAJOR = ContainerVersion.v2;

/** The C structures of `luascript/data.h` (proposed numbers; 0x100 and up are the application's). */
export const DataType = { Vector: 1, Range: 2, List: 3, Class: 4, Instance: 5 } as const;
/** A DataType name. */
export type DataTypeName = keyof typeof DataType;
/** The first DataType an application may use for its own structures. */
export const FIRST_APPLICATION_DATATYPE = 0x100;

/**
 * The Lua type of a `LUA\0` object (container v2: the u32 after the tag), numbered as Lua 5's `lua.h`
 * numbers its types. Tables and userdata are objects in their own right; the others appear as objects
 * only as roots or as a C structure's reference (`saveLuaValue`), holding one value.
 */
export const LuaType = { nil: 0, boolean: 1, number: 3, string: 4, table: 5, userdata: 7 } as const;

/** The type byte of a value inside a data segment (zippy.md §3.1; 0x06 is savekit's, for Lua 5.3 integers). */
export const ValueType = {
  nil: 0x00,
  false: 0x01,
  true: 0x02,
  number: 0x03,
  string: 0x04,
  reference: 0x05,
  integer: 0x06,
} as const;

/** The tag {@link tagName} named last, and its name. */
let lastTag = Number.NaN;
let lastName = '';

/** A tag as its four characters (`0x4C554100` → `"LUA\u0000"`). */
export function tagName(tag: number): string {
  // The tag named last is named again without a new string (a file's objects share a few tags).
  if (tag === lastTag) return lastName;
  const name = String.fromCharCode((tag >>> 24) & 0xff, (tag >>> 16) & 0xff, (tag >>> 8) & 0xff, tag & 0xff);
  lastTag = tag;
  lastName = name;
  return name;
}

/** Four characters as a tag (`"DATA"` → `0x44415441`). */
export function tagValue(name: string): number {
  if (name.length !== 4) throw new RangeError(`a tag is four characters, got ${JSON.stringify(name)}`);
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const c = name.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`tag ${JSON.stringify(name)} is not four bytes`);
    v = (v << 8) | c;
  }
  return v >>> 0;
}

/**
 * The kind names the object graph uses for the tags: `lua` (`LUA\0`), `data` = `adata` (`DATA`, a C
 * structure in v2), and `adat` (v1's C structures).
 */
export const KIND = {
  lua: tagName(LUA_TAG),
  data: tagName(ADATA_TAG),
  adata: tagName(ADATA_TAG),
  adat: tagName(V1_ADATA_TAG),
} as const;
