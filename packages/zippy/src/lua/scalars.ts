/**
 * Lua values that are not objects of their own in Lua — nil, booleans, numbers, strings — as objects
 * of the savefile, for where the wiki's `save_lua_value()` saves one: a root, or a C structure's
 * reference. Each mention is an object of its own (they are values: nothing can tell two apart).
 *
 * @module
 */
import { LuaType } from '../tags.js';
import { LuaInteger, SegmentError, type ZValue } from '../values.js';

/** A nil, boolean, number or string saved as an object (a `LUA\0` object of that Lua type). */
export class ScalarValue {
  constructor(readonly value: ZValue) {}
}

/** The {@link LuaType} of a value that is not a reference (a reference is a SegmentError). */
export function scalarLuaType(value: ZValue): number {
  if (value === null) return LuaType.nil;
  if (typeof value === 'boolean') return LuaType.boolean;
  if (typeof value === 'number' || value instanceof LuaInteger) return LuaType.number;
  if (value instanceof Uint8Array) return LuaType.string;
  throw new SegmentError('a Lua value object holds a reference', 8);
}
