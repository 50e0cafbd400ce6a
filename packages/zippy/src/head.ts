/**
 * The head of segment 0 of a C structure or a `LUA\0` object: its tag, then its DataType — for a
 * `LUA\0` object of container v2, its Lua type — each a u32 in the file's byte order. Declared
 * once: {@link objectHead} is read in place to allocate an object, and a C structure's segment
 * (`adataSegment`) starts with the same fields.
 *
 * @module
 * @internal
 */
import { byteOrdered, struct, u32, type Codec, type Endian } from '@savekit/core';

/**
 * The head's fields in `order`: `tag`, then `dataType`, whose codec `dataType` may narrow (to the
 * DataTypes a reader knows, say); by default any u32.
 */
export function objectHeadFields(order: Endian): { tag: Codec<number>; dataType: Codec<number> };
export function objectHeadFields<D extends number>(
  order: Endian,
  dataType: (stored: Codec<number>) => Codec<D>,
): { tag: Codec<number>; dataType: Codec<D> };
export function objectHeadFields(
  order: Endian,
  dataType?: (stored: Codec<number>) => unknown,
): { tag: Codec<number>; dataType: unknown } {
  const stored = u32(order);
  return { tag: stored, dataType: dataType === undefined ? stored : dataType(stored) };
}

/** The head alone, any DataType allowed. */
export const objectHead = byteOrdered((order) => struct(objectHeadFields(order), 'objectHead'));
