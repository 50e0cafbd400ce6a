/**
 * The star map as a player sees it: a system's planets and their moons, by name where the game fixes
 * them, over `starinfo.dat`'s flat world records (uqm.md §3: each planet's record, then one per moon).
 *
 * What is known and what is not: the game regenerates every system from its star's seed and a
 * generator per system (`planets/generate/gen*.c`); no table of planet and moon counts exists in this
 * repository, and the file stores none. So:
 *
 * - **Sol (star 82)** is fixed by `gensol.c`: nine planets, eight moons (Earth's starbase and Luna,
 *   Jupiter's four, Titan, Triton) — 17 worlds, as the real saves' Sol block holds. It is named here,
 *   and a pickup there needs no world count.
 * - **Any other system with a block**: the file fixes its total world count (the block's size) but
 *   not how the worlds split into planets and moons; its worlds are listed flat, by index.
 * - **Any other system without a block**: nothing in the save says how many worlds it has; adding its
 *   block needs the count from the caller ({@link UnknownSystemError} otherwise).
 *
 * @module
 */
import { NUM_SOLAR_SYSTEMS, type RecordSize, type ScanKind, type StarInfo, type WorldRecord } from './star-info.js';

/** Sol's index in the star table. */
export const SOL = 82;

/** A system whose planets and moons the game fixes. */
export interface SystemLayout {
  /** Index in the star table. */
  star: number;
  name: string;
  /** Its planets in orbit order, each with its moons in order. */
  planets: ReadonlyArray<{ name: string; moons: ReadonlyArray<string> }>;
}

/** The systems whose layout is known (`gensol.c`: Sol). */
export const KNOWN_SYSTEMS: ReadonlyArray<SystemLayout> = [
  {
    star: SOL,
    name: 'Sol',
    planets: [
      { name: 'Mercury', moons: [] },
      { name: 'Venus', moons: [] },
      { name: 'Earth', moons: ['Starbase', 'Luna'] },
      { name: 'Mars', moons: [] },
      { name: 'Jupiter', moons: ['Io', 'Europa', 'Ganymede', 'Callisto'] },
      { name: 'Saturn', moons: ['Titan'] },
      { name: 'Uranus', moons: [] },
      { name: 'Neptune', moons: ['Triton'] },
      { name: 'Pluto', moons: [] },
    ],
  },
];

/** The layout of a star's system, when the game fixes it. */
export function layoutOf(star: number | string): SystemLayout | undefined {
  return KNOWN_SYSTEMS.find((s) => s.star === star || s.name === star);
}

/** A star with no known layout was asked for by planet, or its block for a count it cannot know. */
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
  /** Planet (0…) and moon (0 for the planet itself, 1… for its moons), when the layout is known. */
  planet?: number;
  moon?: number;
  /** Its name, when the layout is known. */
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
  name?: string;
  /** Whether the save holds its block (something was taken there). */
  scanned: boolean;
  /** Its worlds (planets and moons): the block's, or the known layout's. */
  worldCount: number;
  /** Planets and moons by name, when the layout is known. */
  planets?: PlanetView[];
  /** Every world in block order. */
  worlds: WorldView[];
}

const blank = (recordSize: RecordSize): WorldRecord =>
  recordSize === 108
    ? { mineral: 0, energy: 0, bio: 0, partial: new Uint8Array(96) }
    : { mineral: 0, energy: 0, bio: 0 };

function layoutCount(layout: SystemLayout): number {
  return layout.planets.reduce((n, p) => n + 1 + p.moons.length, 0);
}

/**
 * A star's system: its worlds with their records, and its planets and moons by name when the layout is
 * known. Undefined for a star with neither a block nor a known layout (nothing to show).
 */
export function systemView(info: StarInfo, star: number, recordSize: RecordSize = 12): SystemView | undefined {
  const block = info.systems.find((s) => s.star === star);
  const layout = layoutOf(star);
  if (block === undefined && layout === undefined) return undefined;
  // A block whose size disagrees with the layout is not the layout's (a modded game): shown flat.
  const named = layout !== undefined && (block === undefined || block.worlds.length === layoutCount(layout));
  const records = block?.worlds ?? Array.from({ length: layout ? layoutCount(layout) : 0 }, () => blank(recordSize));
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

/** Every system an editor can show: each with a block (in block order), then known ones without. */
export function starMap(info: StarInfo, recordSize: RecordSize = 12): SystemView[] {
  const stars = [
    ...info.systems.map((s) => s.star),
    ...KNOWN_SYSTEMS.map((s) => s.star).filter((star) => !info.systems.some((s) => s.star === star)),
  ];
  return stars.map((star) => systemView(info, star, recordSize) as SystemView);
}

/** A world named the way a player names it: a star (index or known name) and a planet, or a world index. */
export type WorldRef =
  | { star: number | string; planet: number | string; moon?: number | string }
  | { star: number | string; world: number };

function starIndex(star: number | string): number {
  if (typeof star === 'number') {
    if (!Number.isInteger(star) || star < 0 || star >= NUM_SOLAR_SYSTEMS)
      throw new RangeError(`star ${star} is not 0 to ${NUM_SOLAR_SYSTEMS - 1}`);
    return star;
  }
  const layout = layoutOf(star);
  if (layout === undefined) throw new UnknownSystemError(star, `no star called ${star} is known (known: Sol)`);
  return layout.star;
}

/**
 * A world's star and index in its block. A planet (and moon) by name or number needs the system's
 * layout; `{ world }` is the block's own numbering and works for every star.
 */
export function worldIndex(ref: WorldRef): { star: number; world: number } {
  const star = starIndex(ref.star);
  if ('world' in ref) {
    if (!Number.isInteger(ref.world) || ref.world < 0) throw new RangeError(`world ${ref.world} is not an index`);
    return { star, world: ref.world };
  }
  const layout = layoutOf(star);
  if (layout === undefined)
    throw new UnknownSystemError(
      star,
      `star ${star}: its planets and moons are not known (only the block's total is); name the world by { world }`,
    );
  const planet = typeof ref.planet === 'number' ? ref.planet : layout.planets.findIndex((p) => p.name === ref.planet);
  const p = layout.planets[planet];
  if (p === undefined) throw new RangeError(`${layout.name} has no planet ${String(ref.planet)}`);
  const moon = ref.moon === undefined ? 0 : typeof ref.moon === 'number' ? ref.moon : p.moons.indexOf(ref.moon) + 1;
  if (!Number.isInteger(moon) || moon < 0 || moon > p.moons.length)
    throw new RangeError(`${p.name} has no moon ${String(ref.moon)}`);
  let world = moon;
  for (let i = 0; i < planet; i++) world += 1 + (layout.planets[i] as SystemLayout['planets'][number]).moons.length;
  return { star, world };
}

/** The world count of a star's block: the block's, else the known layout's, else undefined. */
export function knownWorldCount(info: StarInfo, star: number): number | undefined {
  const block = info.systems.find((s) => s.star === star);
  if (block !== undefined) return block.worlds.length;
  const layout = layoutOf(star);
  return layout === undefined ? undefined : layoutCount(layout);
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
 * record for every world — counted from the known layout (Sol), or `worldCount` for any other star
 * (an {@link UnknownSystemError} without it). `takeNode(info, { star: 'Sol', planet: 'Mercury', kind:
 * 'mineral', node: 14 })`.
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
    const count = knownWorldCount(info, star) ?? options.worldCount;
    if (count === undefined)
      throw new UnknownSystemError(
        star,
        `star ${star} has no block yet and its world count is not known: give options.worldCount`,
      );
    if (!Number.isInteger(count) || count < 1 || count > 255)
      throw new RangeError(`world count ${count} is not 1 to 255`);
    system = { star, worlds: Array.from({ length: count }, () => blank(options.recordSize ?? 12)) };
    info.systems.push(system);
  }
  const record = system.worlds[world];
  if (record === undefined)
    throw new RangeError(`star ${star} has ${system.worlds.length} worlds; there is no world ${world}`);
  record[ref.kind] = (record[ref.kind] | (1 << node)) >>> 0;
}
