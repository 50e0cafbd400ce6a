/**
 * Typed access to a decoded save: the `Glob` variables (engine `Vari` pairs or the draft's lumps,
 * through one set of accessors), the definitions, the arrays' elements, the thumbnail — and edits
 * that keep the rest of the file as it was.
 *
 * @module
 */
import { isRawChunk, type KnownChunk, type Kept, type Raw, type RawChunk } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import type { ArrayDef, Instance, StructDef } from '@savekit/core/schema';
import type { DataBody } from './data.js';
import { isRawLump, type GlobEntry } from './glob.js';
import type { EdgeSave, TopChunk } from './save.js';
import type { Thumbnail } from './thumbnail.js';
import { VARIANT_VERSIONS, variantOf, type EdgeVariant } from './variants.js';

function known<K extends TopChunk['id']>(save: EdgeSave, id: K): Array<KnownChunk<K, Kept<unknown>>> {
  return save.chunks.filter((c) => c.id === id && !isRawChunk(c)) as unknown as Array<KnownChunk<K, Kept<unknown>>>;
}

// The definitions `Stru` or `Arry` chunks hold: the engine's one per chunk, or the draft's decoded
// sub-chunks (raw ones skipped).
function definitions<D>(chunks: ReadonlyArray<{ readonly body: Kept<unknown> }>): D[] {
  const out: D[] = [];
  for (const c of chunks) {
    const body = c.body.value as D | Array<KnownChunk<string, D> | RawChunk>;
    if (Array.isArray(body)) for (const e of body) if (!isRawChunk(e)) out.push(e.body);
    if (!Array.isArray(body)) out.push(body);
  }
  return out;
}

/** The `Glob` lumps (empty when the save has no `Glob`). */
export function globEntries(save: EdgeSave): GlobEntry[] {
  const glob = known(save, 'Glob')[0];
  return glob === undefined ? [] : (glob.body.value as GlobEntry[]);
}

/** The lump with this marker, decoded, if the `Glob` has one. */
export function globLump<
  M extends 'Vari' | 'Wads' | 'View' | 'Wher' | 'When' | 'Skil' | 'Desc' | 'Wdck' | 'Lvck' | 'Dfck',
>(save: EdgeSave, marker: M): Exclude<Extract<GlobEntry, { id: M; body: unknown }>['body'], Raw> | undefined {
  // A lump kept as bytes (it did not read) is not the lump's value.
  const entry = globEntries(save).find((e) => e.id === marker && !isRawChunk(e) && !isRawLump(e.body));
  // biome-ignore lint/suspicious/noExplicitAny: TypeScript cannot relate any narrower cast to the return type, an indexed access on a union filtered by the generic M
  return entry === undefined ? undefined : (entry as { body: any }).body;
}

/** Every `Vari` variable, name → value text, in file order. */
export function variables(save: EdgeSave): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const e of globEntries(save))
    if (e.id === 'Vari' && !isRawChunk(e) && !isRawLump(e.body)) out.set(String(e.body.name), e.body.value);
  return out;
}

/** One `Vari` variable's text. */
export function variable(save: EdgeSave, name: string): string | null | undefined {
  return variables(save).get(name);
}

/**
 * Sets a `Vari` variable (adds it at the end when missing). Only the `Glob` chunk changes; it is
 * recompressed when the save is encoded, every other chunk keeps its stored bytes.
 */
export function setVariable(save: EdgeSave, name: string, value: string | null): void {
  const entries = globEntries(save);
  const existing = entries.find((e) => e.id === 'Vari' && !isRawChunk(e) && !isRawLump(e.body) && e.body.name === name);
  if (existing !== undefined && !isRawChunk(existing)) (existing.body as { value: string | null }).value = value;
  else if (known(save, 'Glob').length > 0) entries.push({ id: 'Vari', body: { name, value } });
  else throw new Error('the save has no Glob chunk');
}

const int = (text: string | null | undefined): number | undefined =>
  text != null && /^\s*-?\d+\s*$/.test(text) ? Number(text) : undefined;

/** A count and a check value (Adler-32 of the raw map lump, or the draft's combined CRC). */
export interface CountCheck {
  readonly count: number;
  readonly crc: number;
}

/** Parses a `"<count> <crc>"` map-check value (both decimal; 1.29 prints the CRC signed). */
export function parseCountCheck(text: string | null | undefined): CountCheck | undefined {
  const m = text == null ? null : /^\s*(-?\d+)\s+(-?\d+)\s*$/.exec(text);
  return m === null ? undefined : { count: Number(m[1]), crc: Number(m[2]) >>> 0 };
}

/** What a load menu shows and what the engine checks, from either layout's `Glob`. */
export interface LevelInfo {
  game?: string | null;
  level?: string | null;
  flags?: number;
  gravity?: number;
  levelTime?: number;
  random?: number;
  totalKills?: number;
  totalItems?: number;
  totalSecrets?: number;
  consolePlayer?: number;
  skill?: number;
  netgame?: number;
  skyImage?: string | null;
  description?: string | null;
  date?: string | null;
  /** Sector, linedef and thing checks of the map the save came from. */
  mapChecks: { sectors?: CountCheck; lines?: CountCheck; things?: CountCheck };
  /** WAD file names, when the save lists them. */
  wads?: Array<string | null>;
}

/**
 * The level information, read through the engine's `Vari` names (GAME, LEVEL, FLAGS, GRAVITY,
 * LEVEL_TIME, P_RANDOM, TOTAL_*, CONSOLE_PLAYER, SKILL, NETGAME, SKY_IMAGE, DESCRIPTION, DESC_DATE,
 * MAPSECTOR/MAPLINE/MAPTHING) or the draft's lumps.
 */
export function levelInfo(save: EdgeSave): LevelInfo {
  const v = variables(save);
  const info: LevelInfo = { mapChecks: {} };
  const set = <K extends keyof LevelInfo>(key: K, value: LevelInfo[K] | undefined) => {
    if (value !== undefined) info[key] = value;
  };
  if (v.size > 0) {
    set('game', v.get('GAME'));
    set('level', v.get('LEVEL'));
    set('flags', int(v.get('FLAGS')));
    set('gravity', int(v.get('GRAVITY')));
    set('levelTime', int(v.get('LEVEL_TIME')));
    set('random', int(v.get('P_RANDOM')));
    set('totalKills', int(v.get('TOTAL_KILLS')));
    set('totalItems', int(v.get('TOTAL_ITEMS')));
    set('totalSecrets', int(v.get('TOTAL_SECRETS')));
    set('consolePlayer', int(v.get('CONSOLE_PLAYER')));
    set('skill', int(v.get('SKILL')));
    set('netgame', int(v.get('NETGAME')));
    set('skyImage', v.get('SKY_IMAGE'));
    set('description', v.get('DESCRIPTION'));
    set('date', v.get('DESC_DATE'));
    // A check the save does not hold (or holds unreadably) is absent, not undefined.
    for (const [key, name] of [
      ['sectors', 'MAPSECTOR'],
      ['lines', 'MAPLINE'],
      ['things', 'MAPTHING'],
    ] as const) {
      const check = parseCountCheck(v.get(name));
      if (check !== undefined) info.mapChecks[key] = check;
    }
  }
  const wher = globLump(save, 'Wher');
  if (wher) Object.assign(info, { game: wher.game, level: wher.level, flags: wher.flags, gravity: wher.gravity });
  const when = globLump(save, 'When');
  if (when)
    Object.assign(info, {
      levelTime: when.levelTime,
      random: when.random,
      totalKills: when.totalKills,
      totalItems: when.totalItems,
      totalSecrets: when.totalSecrets,
    });
  const skil = globLump(save, 'Skil');
  if (skil) Object.assign(info, { consolePlayer: skil.consolePlayer, skill: skil.skill, netgame: skil.netgame });
  const desc = globLump(save, 'Desc');
  if (desc) Object.assign(info, { description: desc.description, date: desc.date });
  const lvck = globLump(save, 'Lvck');
  if (lvck) info.mapChecks = { sectors: lvck.sectors, lines: lvck.linedefs, things: lvck.things };
  const wdck = globLump(save, 'Wdck') ?? globLump(save, 'Wads');
  if (wdck) info.wads = 'wads' in wdck ? wdck.wads : wdck.files;
  return info;
}

/** The thumbnail (`View` lump), if the save has one. */
export function thumbnailOf(save: EdgeSave): Thumbnail | undefined {
  return globLump(save, 'View');
}

/** Every structure definition, from engine `Stru` chunks or the draft's `Sdef`s. */
export function structures(save: EdgeSave): StructDef[] {
  return definitions<StructDef>(known(save, 'Stru'));
}

/** Every array definition, from engine `Arry` chunks or the draft's `Adef`s. */
export function arrays(save: EdgeSave): ArrayDef[] {
  return definitions<ArrayDef>(known(save, 'Arry'));
}

/** The elements of array `name` (from its `Data` or `STOR` chunk), or undefined when it has none. */
export function elementsOf(save: EdgeSave, name: string): Instance[] | undefined {
  for (const c of [...known(save, 'Data'), ...known(save, 'Stor')]) {
    const body = c.body.value as DataBody;
    if (body.array === name) return body.elements;
  }
  return undefined;
}

/**
 * The same save in another variant: the version set to the variant's representative (or the one
 * given) and every stored stream dropped, so each chunk is compressed the new variant's way.
 * Unknown top-level chunks are carried only between C and D (the same bytes); otherwise they are a
 * RangeError, since their stored bytes belong to the old variant.
 */
export function convertVariant(
  save: EdgeSave,
  variant: EdgeVariant,
  version: number = VARIANT_VERSIONS[variant],
): EdgeSave {
  if (variantOf(version) !== variant)
    throw new RangeError(`version 0x${version.toString(16)} is variant ${variantOf(version)}, not ${variant}`);
  const chunks = save.chunks.map((c): TopChunk => {
    if (!isRawChunk(c)) return { ...c, body: { value: (c.body as Kept<unknown>).value } } as TopChunk;
    // An unknown chunk's stored bytes are the old variant's, and what it holds is unknown (it may
    // nest chunks with end markers): it cannot be carried over faithfully.
    if (variant !== save.variant && !(isZlibVariant(variant) && isZlibVariant(save.variant))) {
      throw new RangeError(
        `chunk ${c.id} is not known to this reader, so it cannot be converted from variant ${save.variant} to ${variant}`,
      );
    }
    return c;
  });
  return { ...save, variant, version, chunks };
}

const isZlibVariant = (v: EdgeVariant) => v === 'C' || v === 'D';

/** One-line facts about a save, for tools (the CLI's `inspect` prints them). */
export function summary(save: EdgeSave): string[] {
  const info = levelInfo(save);
  const lines = [
    `EDGE variant ${save.variant} (version 0x${save.version.toString(16)}), ${save.layout} layout, ${plural(save.chunks.length, 'top-level chunk')}`,
  ];
  if (info.level !== undefined)
    lines.push(
      `level ${String(info.level)}${info.skill !== undefined ? `, skill ${info.skill}` : ''}${info.levelTime !== undefined ? `, level time ${info.levelTime} tics` : ''}`,
    );
  if (info.description) lines.push(`description: ${info.description}`);
  const picture = thumbnailOf(save);
  lines.push(picture === undefined ? 'thumbnail: none' : `thumbnail: ${picture.width}×${picture.height} RGB 5:5:5`);
  const defs = arrays(save);
  if (defs.length > 0) lines.push(`arrays: ${defs.map((a) => `${a.name}[${a.count}]`).join(', ')}`);
  return lines;
}
