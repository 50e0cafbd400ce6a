/**
 * Doom's map lumps as declarations: the records of `VERTEXES`, `SIDEDEFS`, `LINEDEFS`, `SECTORS` and
 * `THINGS`, and the WAD header and directory they are read out of. The map checks (`map-checks`) and
 * the design layout's per-entry checks (`design-checks`) both read maps through them.
 *
 * @module
 */
import {
  array,
  type Codec,
  decodeOrThrow,
  fixedString,
  i16le,
  i32le,
  magic,
  struct,
  type TypeOf,
  u16le,
} from '@savekit/core';

/** A map's lumps as raw bytes (what the checks are computed over). */
export interface MapLumps {
  readonly THINGS: Uint8Array;
  readonly LINEDEFS: Uint8Array;
  readonly SECTORS: Uint8Array;
  /** Present in Hexen-format maps, whose things and linedefs are larger. */
  readonly BEHAVIOR?: Uint8Array;
  /** The vertices (the design layout's linedef and sector checks need them). */
  readonly VERTEXES?: Uint8Array;
  /** The sidedefs (the design layout's linedef and sector checks need them). */
  readonly SIDEDEFS?: Uint8Array;
}

/** A texture or flat name in a map record: 8 bytes, NUL-padded (bytes after the NUL kept). */
const lumpName = fixedString(8, 'cp437', { tail: 'keep' });

/** A Doom-format `VERTEXES` record: a map point. */
export const vertexRecord = struct({ x: i16le, y: i16le });
/** A Doom-format `SIDEDEFS` record: texture offsets and names, and the sector it faces. */
export const sidedefRecord = struct({
  xOffset: i16le,
  yOffset: i16le,
  upper: lumpName,
  lower: lumpName,
  middle: lumpName,
  sector: i16le,
});
/** A Doom-format `LINEDEFS` record; a side of `0xFFFF` is none. */
export const linedefRecord = struct({
  v1: u16le,
  v2: u16le,
  flags: u16le,
  special: i16le,
  tag: i16le,
  right: u16le,
  left: u16le,
});
/** A Doom-format `SECTORS` record. */
export const sectorRecord = struct({
  floor: i16le,
  ceiling: i16le,
  floorFlat: lumpName,
  ceilingFlat: lumpName,
  light: i16le,
  special: i16le,
  tag: i16le,
});
/** A Doom-format `THINGS` record. */
export const thingRecord = struct({ x: i16le, y: i16le, angle: i16le, type: i16le, options: i16le });

/** The size of one record of a fixed-size declaration. */
export function recordSize<A>(record: Codec<A>): number {
  return record.size as number;
}

/** Where field `name` starts in a record of a fixed-size struct declaration (for error offsets). */
export function fieldOffset<A>(record: Codec<A>, name: keyof A & string): number {
  if (record.def.type !== 'struct') throw new TypeError(`${record.name} is not a struct`);
  let at = 0;
  for (const field of record.def.fields) {
    if (field.name === name) return at;
    at += (field.spec as Codec<unknown>).size as number;
  }
  throw new RangeError(`${record.name} has no field ${name}`);
}

/**
 * The whole records of a lump, read with their declaration; a partial record at the lump's end is
 * ignored, as Doom does.
 */
export function lumpRecords<A>(lump: Uint8Array, record: Codec<A>): A[] {
  const count = Math.floor(lump.length / recordSize(record));
  return decodeOrThrow(array(record, count), lump.subarray(0, count * recordSize(record)));
}

/** A WAD's header: `IWAD` or `PWAD`, the lump count and where the directory starts. */
const wadHeader = struct({ magic: magic('IWAD', 'PWAD'), numlumps: i32le, infotableofs: i32le });
/** A directory entry: where a lump is, its size and its NUL-padded name (bytes after the NUL kept). */
const wadEntry = struct({ filepos: i32le, size: i32le, name: fixedString(8, 'cp437', { tail: 'keep' }) });

/** Reads a map's lumps out of a WAD (IWAD or PWAD): the lumps after the map's marker lump. */
export function mapLumpsFromWad(wad: Uint8Array, map: string): MapLumps {
  // Core declarations of the WAD header and directory: bad input is a DecodeError naming the field.
  let header: TypeOf<typeof wadHeader>;
  try {
    header = decodeOrThrow(wadHeader, wad, { trailing: 'keep' });
  } catch (error) {
    throw new Error(`not a WAD: ${String(error)}`, { cause: error });
  }
  const { numlumps, infotableofs } = header;
  if (infotableofs < 0 || infotableofs > wad.length) throw new Error('WAD directory is outside the file');
  const entries = decodeOrThrow(array(wadEntry, numlumps), wad.subarray(infotableofs), { trailing: 'keep' }).map(
    (e) => ({ name: (typeof e.name === 'string' ? e.name : e.name.text).toUpperCase(), at: e.filepos, size: e.size }),
  );
  // The last marker of that name wins, as in Doom (a PWAD replaces the IWAD's map).
  let start = -1;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.name === map.toUpperCase()) start = i;
  if (start < 0) throw new Error(`the WAD has no map ${map}`);
  const found: Record<string, Uint8Array> = {};
  const MAP_LUMPS = new Set([
    'THINGS',
    'LINEDEFS',
    'SIDEDEFS',
    'VERTEXES',
    'SEGS',
    'SSECTORS',
    'NODES',
    'SECTORS',
    'REJECT',
    'BLOCKMAP',
    'BEHAVIOR',
    'SCRIPTS',
  ]);
  for (let i = start + 1; i < entries.length && MAP_LUMPS.has(entries[i]!.name); i++) {
    const { name, at, size } = entries[i]!;
    if (at < 0 || size < 0 || at + size > wad.length) throw new Error(`lump ${name} is outside the file`);
    found[name] = wad.subarray(at, at + size);
  }
  const needed = (name: string): Uint8Array => {
    const lump = found[name];
    if (lump === undefined) throw new Error(`map ${map} has no ${name} lump`);
    return lump;
  };
  return {
    THINGS: needed('THINGS'),
    LINEDEFS: needed('LINEDEFS'),
    SECTORS: needed('SECTORS'),
    ...(found.BEHAVIOR !== undefined ? { BEHAVIOR: found.BEHAVIOR } : {}),
    ...(found.VERTEXES !== undefined ? { VERTEXES: found.VERTEXES } : {}),
    ...(found.SIDEDEFS !== undefined ? { SIDEDEFS: found.SIDEDEFS } : {}),
  };
}
