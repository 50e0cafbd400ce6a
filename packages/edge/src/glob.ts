/**
 * The `Glob` chunk: what a load menu needs. The engine writes `Vari` name/value string pairs (and
 * could write `Wads` and `View`); the design doc's draft has typed lumps `Wher`, `When`, `Skil`,
 * `Desc`, `View`, `Wdck`, `Lvck`, `Dfck`. One chunk list reads both; unknown lumps are kept.
 *
 * @module
 */
import {
  array,
  chunkList,
  EncodeError,
  i32le,
  orRaw,
  struct,
  u32le,
  withHooks,
  type ChunkEntry,
  type Codec,
  type Raw,
} from '@savekit/core';
import { edgeString } from './primitives.js';
import { thumbnail } from './thumbnail.js';
import { ordinaryFraming, type EdgeVariant } from './variants.js';

/** `Vari`: a variable's name and its value, always text. */
export const vari = struct({ name: edgeString, value: edgeString });
/** `Wads`: the WAD file names (defined by the engine, never written). */
export const wads = struct({ files: array(edgeString, u32le) });

/** Design `Wher`: game name, level name, level flags, gravity. */
export const wher = struct({ game: edgeString, level: edgeString, flags: u32le, gravity: i32le });
/** The level's totals of `When`: kills, items and secrets. */
const totals = { totalKills: i32le, totalItems: i32le, totalSecrets: i32le };
/** Design `When`: level time in tics, the P_Random snapshot, then the level's totals. */
export const when = struct({ levelTime: i32le, random: u32le, ...totals });
/** Design `Skil`: console player, skill, netgame mode (0 single player, 1 coop, 2+ deathmatch). */
export const skil = struct({ consolePlayer: i32le, skill: i32le, netgame: i32le });
/** Design `Desc`: the user's description and the date/time text. */
export const desc = struct({ description: edgeString, date: edgeString });
/** Design `Wdck`: the WAD file names (path stripped), in load order. */
export const wdck = struct({ wads: array(edgeString, u32le) });
/** A count and a combined CRC. */
export const countCrc = struct({ count: u32le, crc: u32le });

/** The same codec under each of `names`, in order: the fields of a lump of like checks. */
function checksOf<const K extends string>(names: readonly K[]): Record<K, typeof countCrc> {
  return Object.fromEntries(names.map((name) => [name, countCrc])) as Record<K, typeof countCrc>;
}

/** The design layout's level check classes, in the order of `Lvck`. */
const LEVEL_CLASSES = ['sectors', 'linedefs', 'things', 'scripts'] as const;
/** The DDF classes of the design layout's `Dfck`, in its order. */
export const DDF_CLASSES = ['attacks', 'games', 'levels', 'lines', 'sectors', 'things', 'weapons'] as const;

/** Design `Lvck`: sector, linedef, thing and RTS script checks. */
export const lvck = struct(checksOf(LEVEL_CLASSES));
/** Design `Dfck`: the DDF checks. */
export const dfck = struct(checksOf(DDF_CLASSES));

/**
 * A lump read as `codec`, or — when its body is shaped otherwise (too short, a field that does not
 * read, more than padding left over) — kept as `{ $raw }` with a warning, so one odd lump does not
 * sink the file (the engine layout keeps unknown chunks the same way).
 */
export function lumpOrRaw<A>(marker: string, codec: Codec<A>): Codec<A | Raw> {
  const whole = withHooks(codec, {
    afterRead: (_value, { reader }) => {
      const left = reader.end - reader.pos;
      if (left >= 4) throw reader.error('trailing-bytes', `${left} bytes are left after the ${marker} lump's fields`);
    },
  });
  const kept = orRaw(whole, {
    warning: {
      code: 'lump-kept-raw',
      message: (error) =>
        `the ${marker} lump is not shaped as this reader expects (${error.message}); it is kept as bytes`,
    },
  });
  // Kept bytes were read with the lump's padding (its length counts it): bytes that are not whole
  // 4-byte units would gain padding and read back longer.
  return withHooks(kept, {
    beforeWrite: (value, { path, start }) => {
      if (!isRawLump(value) || value.$raw.length % 4 === 0) return;
      throw new EncodeError(
        [...path, '$raw'],
        start,
        `a kept ${marker} lump's bytes are its whole body, padding included: ${value.$raw.length} bytes is not a multiple of 4`,
        'size-mismatch',
      );
    },
  });
}

/** Every lump a `Glob` may hold, by marker; each one that does not read is kept as `{ $raw }` with a warning. */
export const globLumps = {
  Vari: lumpOrRaw('Vari', vari),
  Wads: lumpOrRaw('Wads', wads),
  View: lumpOrRaw('View', thumbnail),
  Wher: lumpOrRaw('Wher', wher),
  When: lumpOrRaw('When', when),
  Skil: lumpOrRaw('Skil', skil),
  Desc: lumpOrRaw('Desc', desc),
  Wdck: lumpOrRaw('Wdck', wdck),
  Lvck: lumpOrRaw('Lvck', lvck),
  Dfck: lumpOrRaw('Dfck', dfck),
} as const;

/** Whether a lump's body is one kept as bytes (see {@link lumpOrRaw}). */
export const isRawLump = (body: unknown): body is Raw =>
  typeof body === 'object' && body !== null && (body as Raw).$raw instanceof Uint8Array;

/** The lumps the design doc's `Glob` has and the engine's does not. */
export const DESIGN_LUMPS: ReadonlyArray<string> = ['Wher', 'When', 'Skil', 'Desc', 'Wdck', 'Lvck', 'Dfck'];

const cache = new Map<EdgeVariant, Codec<GlobEntry[]>>();

/** The `Glob` body of a variant: its lumps as nested chunks. */
export function globBody(variant: EdgeVariant): Codec<GlobEntry[]> {
  let codec = cache.get(variant);
  if (codec === undefined) {
    codec = chunkList(ordinaryFraming(variant), globLumps);
    cache.set(variant, codec);
  }
  return codec;
}

/** An entry of a `Glob`: a known lump decoded, or an unknown one kept raw. */
export type GlobEntry = ChunkEntry<typeof globLumps>;
