/**
 * Every star system's planets and moons, as the game generates them: how many planets a star has,
 * in which order (`starinfo` numbers worlds planet by planet, each planet followed by its moons), how
 * many moons each has, and the names the game shows ("Planet III", "Planet III-A"; Sol's by name).
 *
 * The game keeps no table of this: it regenerates a system each time the ship enters it. What it does,
 * as read from the UQM source (github.com/davidben/uqm at 26c96cd443bc427abc9b270a712974541071e752:
 * `src/libs/math/random.c` and `random2.c`, `src/uqm/planets/solarsys.c` (`LoadSolarSys`,
 * `GetNamedPlanetaryBody`), `src/uqm/planets/orbits.c` (`FillOrbits`), `src/uqm/planets/generate/
 * gendefault.c`, the special generators `gen*.c` beside it, `src/uqm/gendef.c` (which star uses
 * which) and `src/uqm/plandata.c` / `planets/plandata.h` (the star table, world types)), restated
 * here in our own words and code:
 *
 * - **Random numbers**: a Park–Miller "minimal standard" generator (multiplier 16807, modulus
 *   2^31 − 1, Schrage's method) computed in unsigned 32-bit arithmetic: when the step goes negative it
 *   wraps and the game then subtracts the modulus (so it does not match the textbook variant there),
 *   and 0 becomes 1. A seed of 0 becomes 1; one above the modulus loses the modulus.
 * - **Seed**: the star's position, `y << 16 | x` in universe units. One number is drawn first (the
 *   sun's own seed), then the system's planet generator runs.
 * - **Planets** (`FillOrbits`): a count from the low 16 bits mod 10, redrawn while 0 (1 to 9). Each
 *   planet draws a type (bits 8–15 mod 59) until the star colour allows it and bits 0–7 are under
 *   255; then an orbit radius (low 16 bits mod (124·64 − minimum) + minimum, the minimum by star
 *   size and rocky / gas giant), redrawn while within one fifth-unit band of an earlier planet; then
 *   one draw for its angle. The planets are then ordered by radius: this is the order of `starinfo`.
 * - **Moons** (`GeneratePlanets` in `gendefault.c`): one draw per planet in that order; its low byte
 *   gives a large rocky world (types 29–49) 1 moon under 63 and 2 under 12, a gas giant (50–58) 1
 *   under 229, 2 under 191, 3 under 127 and 4 under 63; small rocky worlds have none.
 * - **Special systems** (`gendef.c` picks a generator by the star's story role): Sol is wholly fixed
 *   (nine planets, moons 0 0 2 0 4 1 0 1 0); the Shofixti star has six planets and no moons; the
 *   Spathi star one planet with one moon; the starting colony (Vela) the generic planets with no
 *   moons (its state is zeroed and its generator does not draw moons); the Druuge star and the VUX
 *   beast's star put a moonless planet before the generic ones; the Maidens' star runs the generic
 *   generator twice (the second result stands); and several generators fix one planet's moon count
 *   after the generic run (see `SPECIAL`). A generator that only changes a planet's type or orbit
 *   keeps the generic counts.
 *
 * Checked against the real saves in the test corpus: every `starinfo` block's world count there
 * (Sol, Gamma Centauri, Alpha Centauri, Delta Centauri) equals the count computed here. The special
 * generators other than Sol's are implemented from the source alone (no real block of theirs to
 * compare with). A modded game (MegaMod) may generate differently: `systemView` shows a block whose
 * size disagrees with the layout flat.
 *
 * @module
 */
import { type ChartStar, STAR_CHART, type StarColour, type StarSize } from './views-data.js';

/** A system's planets in `starinfo` order, each with its moons in order, by the names the game shows. */
export interface SystemLayout {
  /** Index in the star table. */
  star: number;
  /** The star's name (`Sol`, `Beta Centauri`). */
  name: string;
  /** Its planets in orbit order (the block's), each with its moons in order. */
  planets: ReadonlyArray<{ name: string; moons: ReadonlyArray<string> }>;
  /** Which of the game's generators made it: `default`, or the special system's (`sol`, `spathi`…). */
  generator: string;
}

/** Sol's index in the star table. */
export const SOL = 82;

// The game's own names (its `PLANET_NUMBER_BASE` strings): Sol's worlds, then "Planet I"…"Planet XVI".
const SOL_PLANETS: ReadonlyArray<{ name: string; moons: ReadonlyArray<string> }> = [
  { name: 'Mercury', moons: [] },
  { name: 'Venus', moons: [] },
  { name: 'Earth', moons: ['Starbase', 'Luna'] },
  { name: 'Mars', moons: [] },
  { name: 'Jupiter', moons: ['Io', 'Europa', 'Ganymede', 'Callisto'] },
  { name: 'Saturn', moons: ['Titan'] },
  { name: 'Uranus', moons: [] },
  { name: 'Neptune', moons: ['Triton'] },
  { name: 'Pluto', moons: [] },
];

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI'];

/** The name the game shows for a generic system's planet (0-based): "Planet I"… */
export function planetName(planet: number): string {
  return `Planet ${ROMAN[planet] ?? String(planet + 1)}`;
}

/** The name the game shows for an unnamed moon (0-based): its planet's name and "-A", "-B"… */
export function moonName(planetName: string, moon: number): string {
  return `${planetName}-${String.fromCharCode(65 + moon)}`;
}

/** The game's random number generator (Park–Miller, as the game computes it in 32-bit words). */
export class GameRandom {
  private seed: number;

  constructor(seed: number) {
    this.seed = 1;
    this.reseed(seed);
  }

  /** Sets the seed as the game does: 0 becomes 1, above the modulus loses it. */
  reseed(seed: number): void {
    let s = seed >>> 0;
    if (s === 0) s = 1;
    else if (s > MODULUS) s = (s - MODULUS) >>> 0;
    this.seed = s;
  }

  /** The next number (1…2^31). */
  next(): number {
    const s = this.seed;
    const up = Math.imul(16807, s % 127773) >>> 0;
    const down = Math.imul(2836, Math.floor(s / 127773)) >>> 0;
    let n = (up - down) >>> 0; // wraps when negative, as the game's unsigned words do
    if (n > MODULUS) n = (n - MODULUS) >>> 0;
    else if (n === 0) n = 1;
    this.seed = n;
    return n;
  }
}

const MODULUS = 2147483647;

// Which of the 59 world types each star colour allows (1) — a fact table of `orbits.c`, by type index.
const ALLOWED: Record<StarColour, string> = {
  blue: '11111111111111111110000000011111001111101111000000111111111',
  green: '00111111111111111111111000011111000111111111110000111111111',
  orange: '00000101001111111111111111110000000000001111111011111111111',
  red: '00000110000000001111111111110000000000000111111111111111111',
  white: '11111111111110000000000000011111001111110000001100111111111',
  yellow: '00001111111111111111111111111000000111101111111011111111111',
};
const WORLD_TYPES = 59;
const FIRST_LARGE_ROCKY = 29;
const FIRST_GAS_GIANT = 50;
// Nearest orbit (in the game's radius units / 64) for rocky worlds and gas giants, by star size.
const MIN_ORBIT: Record<StarSize, readonly [number, number]> = {
  dwarf: [4, 12],
  giant: [8, 13],
  supergiant: [16, 33],
};
const MAX_ORBIT = 124 * 64;

interface Planet {
  type: number;
  radius: number;
  moons: number;
}

/** `FillOrbits` for a star's planets: the count (drawn when not given), types and radii, by radius. */
function fillOrbits(rng: GameRandom, star: ChartStar, count?: number): Planet[] {
  let n = count ?? 0;
  while (n === 0) n = (rng.next() & 0xffff) % 10;
  const allowed = ALLOWED[star.colour];
  const planets: Planet[] = [];
  for (let k = 0; k < n; k++) {
    let type: number;
    let draw: number;
    do {
      draw = rng.next();
      type = ((draw >>> 8) & 0xff) % WORLD_TYPES;
    } while (allowed[type] !== '1' || (draw & 0xff) === 0xff);
    const min = (type < FIRST_GAS_GIANT ? MIN_ORBIT[star.size][0] : MIN_ORBIT[star.size][1]) * 64;
    let radius: number;
    let band: number;
    do {
      radius = ((rng.next() & 0xffff) % (MAX_ORBIT - min)) + min;
      band = Math.floor((radius >> 6) / 5);
    } while (planets.some((p) => Math.abs(Math.floor((p.radius >> 6) / 5) - band) <= 1));
    rng.next(); // its angle
    planets.push({ type, radius, moons: 0 });
  }
  // Radii never tie (the band test above), so a plain sort gives the game's order.
  return planets.sort((a, b) => a.radius - b.radius);
}

/** The generic generator's moon counts, one draw per planet in orbit order. */
function drawMoons(rng: GameRandom, planets: Planet[]): void {
  for (const p of planets) {
    const b = rng.next() & 0xff;
    if (p.type >= FIRST_GAS_GIANT) p.moons = b < 63 ? 4 : b < 127 ? 3 : b < 191 ? 2 : b < 229 ? 1 : 0;
    else if (p.type >= FIRST_LARGE_ROCKY) p.moons = b < 12 ? 2 : b < 63 ? 1 : 0;
    else p.moons = 0;
  }
}

function generic(rng: GameRandom, star: ChartStar): Planet[] {
  const planets = fillOrbits(rng, star);
  drawMoons(rng, planets);
  return planets;
}

const moonless = (): Planet => ({ type: 0, radius: 0, moons: 0 });
/** A special generator's fixed moon count for one planet, applied after the generic run. */
const fixMoons =
  (planet: number, moons: number) =>
  (ps: Planet[]): void => {
    const p = ps[planet];
    if (p !== undefined) p.moons = moons;
  };

/**
 * The generators that set one planet's moon count after the generic run: `generator stars… planet/moons`
 * (planet 0 is I), a row each.
 */
const MOONS_SET = `
vux 98 0/1; chmmr 133 1/1; burvixese 304 0/1; orz 150 0/0; pkunk 42 0/1; sa-matra 313 4/1; slylandro 497 3/1;
supox 467 0/2; syreen 228 0/1; thraddash 421 0/0; mycon-trap 45 0/1; utwig 442 0/1; yehat 21 0/1;
zoq-fot-pik 293 0/1; rainbow 62 187 274 364 381 400 418 440 445 462 0/0`;

/**
 * The generators whose counts are the generic run's: they change a planet's type or orbit only
 * (Androsynth, Ilwrath, talking pet, Aqua Helix, Taalo shield, bomb) or use the run as is (Melnorme,
 * ship vault, Ur-Quan wreck, Zoq-Fot-Pik scout). `generator stars…`, a row each.
 */
const GENERIC_AS_IS = `
androsynth 151; ilwrath 220; talking-pet 316; aqua-helix 441; taalo-protector 154; bomb 474;
melnorme 63 68 116 153 198 353 392 427 493; ship-vault 234; urquan-wreck 409; zoq-fot-pik-scout 125`;

/** A table's rows: the generator, its stars, and what follows them (`planet/moons`), if anything. */
function generatorRows(table: string): Array<[generator: string, stars: number[], moons: string | undefined]> {
  return table
    .split(';')
    .map((row) => row.trim().split(/\s+/))
    .map(([generator, ...rest]) => {
      const moons = rest.at(-1)?.includes('/') ? rest.pop() : undefined;
      return [generator as string, rest.map(Number), moons];
    });
}

/**
 * The special systems (star index → its generator's name and what it does to the planets' counts),
 * from `gendef.c` and `planets/generate/gen*.c`. Sol, Shofixti, Spathi and the colony replace the
 * generic run; the rest adjust it.
 */
const SPECIAL: ReadonlyMap<number, { generator: string; run: (rng: GameRandom, star: ChartStar) => Planet[] }> =
  (() => {
    const after =
      (adjust: (ps: Planet[]) => void) =>
      (rng: GameRandom, star: ChartStar): Planet[] => {
        const ps = generic(rng, star);
        adjust(ps);
        return ps;
      };
    const insertMoonless = (ps: Planet[]): void => void ps.unshift(moonless());
    const table: Array<[number[], { generator: string; run: (rng: GameRandom, star: ChartStar) => Planet[] }]> = [
      // Shofixti: six planets of types it sets itself, none with moons (their orbits do not change the count).
      [[16], { generator: 'shofixti', run: () => Array.from({ length: 6 }, moonless) }],
      [[222], { generator: 'spathi', run: (rng, star) => fillOrbits(rng, star, 1).map((p) => ({ ...p, moons: 1 })) }],
      [[114], { generator: 'colony', run: (rng, star) => fillOrbits(rng, star) }],
      [[174], { generator: 'druuge', run: after(insertMoonless) }],
      [[496], { generator: 'vux-beast', run: after(insertMoonless) }],
      // The Maidens' star runs the generic generator twice without reseeding; the second run stands.
      [
        [118],
        {
          generator: 'maidens',
          run: (rng, star) => {
            generic(rng, star);
            return generic(rng, star);
          },
        },
      ],
      // Mycon home, the Sun Device and the egg cases: planet I is shattered, with at most two moons.
      [
        [129, 136, 157, 124, 166],
        {
          generator: 'mycon',
          run: after((ps) => {
            if (ps[0] !== undefined && ps[0].moons > 2) ps[0].moons = 2;
          }),
        },
      ],
    ];
    for (const [generator, stars, moons] of generatorRows(MOONS_SET)) {
      const [planet, count] = moons!.split('/').map(Number) as [number, number];
      table.push([stars, { generator, run: after(fixMoons(planet, count)) }]);
    }
    for (const [generator, stars] of generatorRows(GENERIC_AS_IS)) table.push([stars, { generator, run: generic }]);
    return new Map(table.flatMap(([stars, gen]) => stars.map((s) => [s, gen] as const)));
  })();

function generate(star: ChartStar): SystemLayout {
  if (star.index === SOL) return { star: SOL, name: star.name, planets: SOL_PLANETS, generator: 'sol' };
  const rng = new GameRandom(((star.y << 16) | star.x) >>> 0);
  rng.next(); // the sun's own seed
  const special = SPECIAL.get(star.index);
  const planets = special === undefined ? generic(rng, star) : special.run(rng, star);
  return {
    star: star.index,
    name: star.name,
    generator: special?.generator ?? 'default',
    planets: planets.map((p, i) => {
      const name = planetName(i);
      const moons = Array.from({ length: p.moons }, (_, m) =>
        star.index === 313 && i === 4 && m === 0 ? 'Sa-Matra' : moonName(name, m),
      );
      return { name, moons };
    }),
  };
}

const cache = new Map<number, SystemLayout>();
const byName = new Map(STAR_CHART.map((s) => [s.name.toLowerCase(), s.index]));

/** A star's index from its index or its name as the game shows it (any case); undefined if none. */
export function starIndexOf(star: number | string): number | undefined {
  if (typeof star === 'number')
    return Number.isInteger(star) && star >= 0 && star < STAR_CHART.length ? star : undefined;
  return byName.get(star.trim().toLowerCase());
}

/** The layout the game generates for a star (by index or name); undefined for no such star. */
export function systemLayout(star: number | string): SystemLayout | undefined {
  const index = starIndexOf(star);
  if (index === undefined) return undefined;
  let layout = cache.get(index);
  if (layout === undefined) {
    layout = Object.freeze(generate(STAR_CHART[index] as ChartStar));
    cache.set(index, layout);
  }
  return layout;
}

/** The number of worlds (planets and moons) a layout has: its `starinfo` block's record count. */
export function layoutWorldCount(layout: SystemLayout): number {
  return layout.planets.reduce((n, p) => n + 1 + p.moons.length, 0);
}
