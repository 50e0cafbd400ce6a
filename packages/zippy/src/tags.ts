/**
 * The named constants of Zippy's savefile framework, in one table: the object tags (compared as
 * 32-bit integers, as the wiki says), `ADATA_TAG`, the DataType enum, and the value type bytes.
 * Every value the wiki leaves open is ZSAV v1's proposal (zippy.md); change it here and only here.
 *
 * @module
 */

/** The tag of an object holding a Lua table (`luasave.h`'s LUA_TAG): `LUA\0`. */
export const LUA_TAG = 0x4c554100;
/** The tag of an object holding a Lua userdata with an opaque payload: `DATA`. */
export const DATA_TAG = 0x44415441;
/** The tag of a C structure (`adatasave.h`'s ADATA_TAG; the real value is lost): `ADAT`. */
export const ADATA_TAG = 0x41444154;

/** The C structures of `luascript/data.h` (proposed numbers; 0x100 and up are the application's). */
export const DataType = { Vector: 1, Range: 2, List: 3, Class: 4, Instance: 5 } as const;
/** A DataType name. */
export type DataTypeName = keyof typeof DataType;

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

/** A tag as its four characters (`0x4C554100` → `"LUA\u0000"`). */
export function tagName(tag: number): string {
  return String.fromCharCode((tag >>> 24) & 0xff, (tag >>> 16) & 0xff, (tag >>> 8) & 0xff, tag & 0xff);
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

/** The kind names the object graph uses for the three tags. */
export const KIND = { lua: tagName(LUA_TAG), data: tagName(DATA_TAG), adata: tagName(ADATA_TAG) } as const;
