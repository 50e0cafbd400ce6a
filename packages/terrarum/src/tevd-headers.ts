/**
 * The fixed parts of a TerranVirtualDisk (terrarum.md §4.1, §4.2) as core declarations: the disk
 * header every layout starts with, TVDA's header extension, and the entry header of each layout. The
 * disk codec (`tevdDisk`) reads and writes them through these, and the docs' layout tables are
 * generated from them.
 *
 * @module
 */
import { bytes, fixedString, i32be, i64be, magic, struct, u32be, u48be, u8, type TypeOf } from '@savekit/core';

/** The 47 bytes every TEVd/TVDA disk starts with. TVDA keeps only the first 32 name bytes here. */
export const tevdHeader = struct({
  magic: magic('TEVd'),
  capacity: u48be,
  /** TEVd: the name, NUL-padded. TVDA: its first 32 bytes. */
  name: bytes(32),
  diskCrc: u32be,
  /** 2 or 3 (TEVd spec), 254 (TVDA). */
  version: u8,
});

/** TVDA's header after the common 47 bytes: marker `FE` and 16 extra-info bytes, then name bytes 32…268. */
export const tvdaHeaderExtension = struct({
  /** The marker 0xFE and the 16 extra-info bytes. */
  extraInfo: bytes(17),
  nameTail: bytes(236),
});

/** A TEVd (2017 and 2023) entry header: 281 bytes. */
export const tevdEntryHeader = struct({
  id: i32be,
  parent: i32be,
  /** 1 file, 2 directory, 3 symlink, 0x11 compressed file (spec 3). */
  type: u8,
  name: fixedString(256, 'utf8'),
  created: u48be,
  modified: u48be,
  /** CRC-32 of every 4th byte of the content (the quirk). */
  crc: u32be,
});

/** A TVDA entry header: 36 bytes, 64-bit ids, no name. */
export const tvdaEntryHeader = struct({
  id: i64be,
  parent: i64be,
  /** The low two bits: 1 file, 2 directory, 3 symlink. */
  type: u8,
  reserved: bytes(3),
  created: u48be,
  modified: u48be,
  /** CRC-32 of every content byte. */
  crc: u32be,
});

/** A decoded TEVd entry header. */
export type TevdEntryHeader = TypeOf<typeof tevdEntryHeader>;
/** A decoded TVDA entry header. */
export type TvdaEntryHeader = TypeOf<typeof tvdaEntryHeader>;
