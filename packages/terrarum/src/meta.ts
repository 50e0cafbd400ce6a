/**
 * The design doc's save meta, file `world` (terrarum.md §3, §3.1): big-endian — `TESV`, the save
 * name (UTF-8, NUL-terminated), terrain and randomiser seeds, crc1…crc4 of worldinfo1…4,
 * `hash4321` = SHA-256 of crc4‖crc3‖crc2‖crc1, the player's refid, the in-game time_t, creation and
 * last-play times (48-bit Unix seconds) and the total play time. The game never wrote it; this
 * follows the doc with the spec's concrete rules.
 *
 * @module
 */
import {
  array,
  bytes,
  cstring,
  encodeOrThrow,
  i32be,
  i64be,
  magic,
  struct,
  u32be,
  u48be,
  type TypeOf,
} from '@savekit/core';
import { sha256 } from '@savekit/core';

/** The `world` file's fields. */
export const worldMeta = struct({
  magic: magic('TESV'),
  name: cstring('utf8'),
  terrainSeed: i64be,
  randomiserSeed: i64be,
  crc1: u32be,
  crc2: u32be,
  crc3: u32be,
  crc4: u32be,
  hash4321: bytes(32),
  refid: i32be,
  timeT: i64be,
  created: u48be,
  lastPlayed: u48be,
  playTime: u32be,
});

/** A decoded `world` meta file. */
export type WorldMeta = TypeOf<typeof worldMeta>;

/** The player's reference id in every save (`PLAYER_REF_ID`). */
export const PLAYER_REF_ID = 0x0091a7e2;

/** What `hash4321` hashes: four CRCs as big-endian u32s. */
const hashedCrcs = array(u32be, 4);

/** `hash4321`: SHA-256 of crc4, crc3, crc2, crc1, each as 4 big-endian bytes. */
export function hash4321(crcs: readonly [number, number, number, number]): Uint8Array {
  return sha256.compute(encodeOrThrow(hashedCrcs, [crcs[3] >>> 0, crcs[2] >>> 0, crcs[1] >>> 0, crcs[0] >>> 0]));
}
