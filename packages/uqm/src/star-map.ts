/**
 * The star map as a player sees it: a system's planets and their moons, by the names the game shows,
 * over `starinfo.dat`'s flat world records (uqm.md §3: each planet's record, then one per moon).
 *
 * Every star's layout comes from `star-systems.ts`, which regenerates it the way the game does (its
 * seeded generator, and the hand-made systems: Sol's Mercury…Pluto, the story systems' fixed moons).
 * So any world can be named — `{ star: 'Beta Centauri', planet: 'Planet II', moon: 'Planet II-A' }`,
 * or by numbers — and a system's first pickup adds its block with the right world count, no count from
 * the caller. A block whose size disagrees with the generated layout (a modded game) is shown flat.
 *
 * @module
 */
import {
  NUM_SOLAR_SYSTEMS,
  recordSizeOf,
  type RecordSize,
  type ScanKind,
  type StarInfo,
  type WorldRecord,
} from './star-info.js';
import { layoutWorldCount, SOL, type SystemLayout, starIndexOf, systemLayout } from './star-systems.js';

/** The systems whose worlds the game names one by one (`gensol.c`: Sol); every other is "Planet I"… */
export const KNOWN_SYSTEMS: ReadonlyArray<SystemLayout> = [systemLayout(SOL) as SystemLayout];

/** The layout of a star's system (by index or name), as the game generates it; undefined for no such star. */
export function layoutOf(star: number | string): SystemLayout | undefined {
  return systemLayout(star);
}

/** A star that is not in the star table was named (no such index or name). */
export class UnknownSystemError extends RangeError {
  constructor(
    readonly star: number | string,
    message: string,
  ) {
    super(message);
    this.name = 'UnknownSystemError';
  }
}

/** One world of a system: where it is in the block, what it is, and its record. */
export interface WorldView {
  /** Its index in the system's block (what `isTaken`/`take` take as `world`). */
  world: number;
  /** Planet (0…) and moon (0 for the planet itself, 1… for its moons), when the layout applies. */
  planet?: number;
  moon?: number;
  /** The name the game shows ("Planet II", "Planet II-A", "Luna"), when the layout applies. */
  name?: string;
  /** Its record: the taken nodes (all zero when the system has no block yet). */
  record: WorldRecord;
}

/** A planet with its moons. */
export interface PlanetView {
  name: string;
  /** The planet's own world. */
  world: WorldView;
  moons: WorldView[];
}

/** A system as the map shows it. */
export interface SystemView {
  star: number;
  /** The star's name (`Sol`, `Beta Centauri`). */
  name?: string;
  /** Whether the save holds its block (something was taken there). */
  scanned: boolean;
  /** Its worlds (planets and moons): the block's, or the generated layout's. */
  worldCount: number;
  /** Planets and moons by name — absent when a block's size disagrees with the layout (a modded game). */
  planets?: PlanetView[];
  /** Every world in block order. */
  worlds: WorldView[];
}

const blank = (recordSize: RecordSize): WorldRecord =>
  recordSize === 108
    ? { mineral: 0, energy: 0, bio: 0, partial: new Uint8Array(96) }
    : { mineral: 0, energy: 0, bio: 0 };

/**
 * A star's system: its worlds with their records, and its planets and moons by name. Undefined for a
 * star index outside the table that has no block either.
 */
export function systemView(
  info: StarInfo,
  star: number,
  recordSize: RecordSize = recordSizeOf(info),
): SystemView | undefined {
  const block = info.systems.find((s) => s.star === star);
  const layout = layoutOf(star);
  if (block === undefined && layout === undefined) return undefined;
  // A block whose size disagrees with the layout is not the layout's (a modded game): shown flat.
  const named = layout !== undefined && (block === undefined || block.worlds.length === layoutWorldCount(layout));
  const records =
    block?.worlds ?? Array.from({ length: layout ? layoutWorldCount(layout) : 0 }, () => blank(recordSize));
  const worlds: WorldView[] = records.map((record, world) => ({ world, record }));
  const shown: SystemView = { star, scanned: block !== undefined, worldCount: worlds.length, worlds };
  if (layout !== undefined) shown.name = layout.name;
  if (named && layout !== undefined) {
    let world = 0;
    shown.planets = layout.planets.map((p, planet) => {
      const own = Object.assign(worlds[world++] as WorldView, { planet, moon: 0, name: p.name });
      const moons = p.moons.map((name, m) =>
        Object.assign(worlds[world++] as WorldView, { planet, moon: m + 1, name }),
      );
      return { name: p.name, world: own, moons };
    });
  }
  return shown;
}

/**
 * The systems an editor shows: each with a block (in block order), then Sol if it has none — or, with
 * `all`, every star of the table after the blocks.
 */
export function starMap(
  info: StarInfo,
  recordSize: RecordSize = recordSizeOf(info),
  options: { all?: boolean } = {},
): SystemView[] {
  const rest = options.all ? Array.from({ length: NUM_SOLAR_SYSTEMS }, (_, i) => i) : KNOWN_SYSTEMS.map((s) => s.star);
  const stars = [
    ...info.systems.map((s) => s.star),
    ...rest.filter((star) => !info.systems.some((s) => s.star === star)),
  ];
  return stars.map((star) => systemView(info, star, recordSize) as SystemView);
}

/**
 * A world named the way a player names it: a star (index or name) and a planet (0-based index, or its
 * name: "Planet III", "Mercury") with an optional moon (1-based, 0 being the planet; or its name:
 * "Planet III-A", "Luna", or just its letter "A"), or a world index in the block.
 */
export type WorldRef =
  | { star: number | string; planet: number | string; moon?: number | string }
  | { star: number | string; world: number };

function starIndex(star: number | string): number {
  const index = starIndexOf(star);
  if (index !== undefined) return index;
  if (typeof star === 'number') throw new RangeError(`star ${star} is not 0 to ${NUM_SOLAR_SYSTEMS - 1}`);
  throw new UnknownSystemError(star, `no star is called ${star}`);
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.trim().toLowerCase();

/** A world's star and index in its block, from a planet (and moon) or the block's own `{ world }`. */
export function worldIndex(ref: WorldRef): { star: number; world: number } {
  const star = starIndex(ref.star);
  if ('world' in ref) {
    if (!Number.isInteger(ref.world) || ref.world < 0) throw new RangeError(`world ${ref.world} is not an index`);
    return { star, world: ref.world };
  }
  const layout = layoutOf(star) as SystemLayout;
  const planet =
    typeof ref.planet === 'number' ? ref.planet : layout.planets.findIndex((p) => same(p.name, ref.planet as string));
  const p = layout.planets[planet];
  if (p === undefined) throw new RangeError(`${layout.name} has no planet ${String(ref.planet)}`);
  const byName = (name: string): number => {
    const m = p.moons.findIndex((moon) => same(moon, name) || same(moon, `${p.name}-${name}`));
    return m < 0 ? -1 : m + 1;
  };
  const moon = ref.moon === undefined ? 0 : typeof ref.moon === 'number' ? ref.moon : byName(ref.moon);
  if (!Number.isInteger(moon) || moon < 0 || moon > p.moons.length)
    throw new RangeError(`${layout.name} ${p.name} has no moon ${String(ref.moon)}`);
  let world = moon;
  for (let i = 0; i < planet; i++) world += 1 + (layout.planets[i] as SystemLayout['planets'][number]).moons.length;
  return { star, world };
}

/** The world count of a star's block: the block's if it has one, else the generated layout's. */
export function knownWorldCount(info: StarInfo, star: number): number | undefined {
  const block = info.systems.find((s) => s.star === star);
  if (block !== undefined) return block.worlds.length;
  const layout = layoutOf(star);
  return layout === undefined ? undefined : layoutWorldCount(layout);
}

/** A node on a named world. */
export type NodeRef = WorldRef & { kind: ScanKind; node: number };

function checkedNode(node: number): number {
  if (!Number.isInteger(node) || node < 0 || node > 31) throw new RangeError(`node ${node} is not 0 to 31`);
  return node;
}

/** Whether a node is taken ("is Mercury's mineral node 14 taken?"). */
export function isNodeTaken(info: StarInfo, ref: NodeRef): boolean {
  const { star, world } = worldIndex(ref);
  const record = info.systems.find((s) => s.star === star)?.worlds[world];
  return record !== undefined && ((record[ref.kind] >>> checkedNode(ref.node)) & 1) === 1;
}

/**
 * Marks a node taken, as `PutPlanetInfo` does: a system's first pickup appends its block with a zeroed
 * record for every world, as many as the generated layout has (`options.worldCount` overrides it, for
 * a modded game that generates differently), each of `options.recordSize` bytes — by default the size
 * of `info`'s records already there. `takeNode(info, { star: 'Beta Centauri', planet: 1,
 * moon: 1, kind: 'mineral', node: 14 })`.
 */
export function takeNode(
  info: StarInfo,
  ref: NodeRef,
  options: { worldCount?: number; recordSize?: RecordSize } = {},
): void {
  const { star, world } = worldIndex(ref);
  const node = checkedNode(ref.node);
  let system = info.systems.find((s) => s.star === star);
  if (system === undefined) {
    const count = options.worldCount ?? (knownWorldCount(info, star) as number);
    if (!Number.isInteger(count) || count < 1 || count > 255)
      throw new RangeError(`world count ${count} is not 1 to 255`);
    system = { star, worlds: Array.from({ length: count }, () => blank(options.recordSize ?? recordSizeOf(info))) };
    info.systems.push(system);
  }
  const record = system.worlds[world];
  if (record === undefined)
    throw new RangeError(`star ${star} has ${system.worlds.length} worlds; there is no world ${world}`);
  record[ref.kind] = (record[ref.kind] | (1 << node)) >>> 0;
}
