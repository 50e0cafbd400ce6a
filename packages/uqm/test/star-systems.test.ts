// Issue 22 item 3: every star's planets and moons as the game generates them (star-systems.ts), checked
// against the real saves' starinfo blocks — the one record of the game's own counts we hold.
import {
  createUqmSave,
  GameRandom,
  harvestNode,
  isNodeHarvested,
  layoutWorldCount,
  NUM_SOLAR_SYSTEMS,
  SOL,
  STAR_CHART,
  scanOf,
  systemLayout,
  systemView,
  worldIndex,
} from '@savekit/uqm';
import { realSavesFor, throughBytes } from './corpus';

describe('the game random number generator', () => {
  test('the minimal standard steps: 16807, 16807², …', () => {
    const rng = new GameRandom(1);
    expect([rng.next(), rng.next()]).toEqual([16807, 282475249]);
  });

  test('a step that goes negative wraps as the game computes it (two above the textbook value)', () => {
    // 127773 = Q: 16807·0 − 2836·1 < 0; the textbook adds 2^31−1 (2147480811), the game's words give +2.
    expect(new GameRandom(127773).next()).toBe(2147480813);
  });

  test('seeds: 0 becomes 1, and one above the modulus loses it', () => {
    expect(new GameRandom(0).next()).toBe(16807);
    expect(new GameRandom(2147483648).next()).toBe(16807);
  });
});

describe('layouts of the 502 stars', () => {
  test('Sol is fixed by its own generator: nine planets, 17 worlds, by name', () => {
    const sol = systemLayout('Sol')!;
    expect(sol).toMatchObject({ star: SOL, generator: 'sol' });
    expect(sol.planets.map((p) => p.name)).toEqual([
      'Mercury',
      'Venus',
      'Earth',
      'Mars',
      'Jupiter',
      'Saturn',
      'Uranus',
      'Neptune',
      'Pluto',
    ]);
    expect(layoutWorldCount(sol)).toBe(17);
  });

  test('every star has one to ten planets, at most four moons each, names as the game shows them', () => {
    for (let star = 0; star < NUM_SOLAR_SYSTEMS; star++) {
      const layout = systemLayout(star)!;
      expect(layout.name).toBe(STAR_CHART[star]!.name);
      expect(layout.planets.length).toBeGreaterThanOrEqual(1);
      expect(layout.planets.length).toBeLessThanOrEqual(10);
      if (star === SOL) continue;
      layout.planets.forEach((p, i) => {
        expect(p.name).toBe(`Planet ${['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'][i]}`);
        expect(p.moons.length).toBeLessThanOrEqual(4);
        for (const [j, m] of p.moons.entries()) expect(m === 'Sa-Matra' || m === `${p.name}-${'ABCD'[j]}`).toBe(true);
      });
    }
  });

  test('the story systems: the counts their generators fix', () => {
    // Shofixti (Delta Gorno): six moonless planets.
    expect(systemLayout('Delta Gorno')).toMatchObject({ generator: 'shofixti' });
    expect(layoutWorldCount(systemLayout(16)!)).toBe(6);
    // Spathi (Epsilon Gruis): one planet and its one moon.
    expect(systemLayout('Epsilon Gruis')!.planets).toEqual([{ name: 'Planet I', moons: ['Planet I-A'] }]);
    // Sa-Matra is the fifth planet's moon at Delta Crateris.
    expect(systemLayout('Delta Crateris')!.planets[4]!.moons[0]).toBe('Sa-Matra');
    // Zoq-Fot-Pik (Alpha Tucanae) and Syreen (Betelgeuse): the first planet gets exactly one moon.
    expect(systemLayout('Alpha Tucanae')!.planets[0]!.moons).toHaveLength(1);
    expect(systemLayout('Betelgeuse')!.planets[0]!.moons).toHaveLength(1);
    // Druuge (Eta Persei): a moonless planet put before the generated ones.
    expect(systemLayout('Eta Persei')!.planets[0]!.moons).toEqual([]);
  });

  test('star names are looked up in any case; unknown names and indices give undefined', () => {
    expect(systemLayout('alpha centauri')!.star).toBe(68);
    expect(systemLayout('Nowhere')).toBeUndefined();
    expect(systemLayout(502)).toBeUndefined();
    expect(systemLayout(-1)).toBeUndefined();
  });
});

// The saves' blocks, where the corpus is present.
const { saves, load, describe: maybe } = realSavesFor('UQM star systems (issue 22)');

maybe('the real saves agree', () => {
  test('every starinfo block in the five saves has the generated world count', () => {
    let blocks = 0;
    const stars = new Set<number>();
    for (const name of saves.keys()) {
      for (const system of scanOf(load(name))!.systems) {
        expect([system.star, system.worlds.length]).toEqual([
          system.star,
          layoutWorldCount(systemLayout(system.star)!),
        ]);
        blocks++;
        stars.add(system.star);
      }
    }
    // Sol in four saves, Gamma Centauri in three, Alpha and Delta Centauri in two each.
    expect(blocks).toBe(11);
    expect([...stars].sort((a, b) => a - b)).toEqual([68, 72, 76, 82]);
  });

  test('uqmsave.16: the named worlds of Alpha Centauri (Melnorme) line up with its 13-world block', () => {
    const info = scanOf(load('uqmsave.16'))!;
    const view = systemView(info, 68)!;
    expect(view.planets!.map((p) => p.moons.length)).toEqual([0, 2, 0, 0, 0, 0, 2, 0, 0]);
    expect(view.worlds).toHaveLength(13);
  });
});

test('a named edit on a star with no block: the block gets the generated count, and survives encoding', () => {
  const save = createUqmSave();
  const ref = { star: 'Alpha Tauri', planet: 'Planet III', moon: 'Planet III-B', kind: 'mineral', node: 9 } as const;
  harvestNode(save, ref);
  const back = throughBytes(save);
  expect(isNodeHarvested(back, ref)).toBe(true);
  const block = scanOf(back)!.systems.find((s) => s.star === 220)!;
  expect(block.worlds).toHaveLength(layoutWorldCount(systemLayout('Alpha Tauri')!));
  expect(worldIndex(ref)).toEqual({ star: 220, world: 4 });
  expect(block.worlds[4]!.mineral).toBe(1 << 9);
});
