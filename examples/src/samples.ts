// The bundled sample saves of every format, built by our own encoders (the docs playground and the
// CLI demo use them; `npm run samples` writes them to saves/, and a test checks the files match).
import { encodeOrThrow } from '@savekit/core';
import type { Instance } from '@savekit/core/schema';
import { createSave, edgeSave, newInstance, refTo, thumbnailFromRgba, type EdgeSave } from '@savekit/edge';
import { createUqmSave, uqmSave } from '@savekit/uqm';
import {
  encodeSave,
  parseCsv,
  PLAYER_REF_ID,
  tevdDisk,
  treeToDisk,
  type TemdWorld,
  type TerrarumSave,
} from '@savekit/terrarum';
import { skirmishSave, type SkirmishSave } from './skirmish.js';
import { demo } from './zippy-demo.js';

/** The Skirmish sample: every chunk kind, and one chunk this reader does not know. */
export const skirmishSample: SkirmishSave = {
  magic: 'SKRM',
  version: 3,
  options: { fogOfWar: 1, difficulty: 2, turnLimit: 300 },
  chunks: [
    { id: 'Name', body: 'Bridge at Ütersen ░▒▓' },
    { id: 'Turn', body: 42 },
    {
      id: 'Unit',
      body: [
        { id: 1, kind: 'tank', x: 10.5, y: -3.25, health: 100 },
        { id: 2, kind: 'scout', x: 0, y: 7.75, health: 35 },
      ],
    },
    // Kept as raw bytes and written back untouched by readers that do not know it.
    { id: 'Mods', raw: Uint8Array.from([0x6d, 0x6f, 0x64, 0x31]) },
  ],
  end: 'ENDE',
};

/** An EDGE 1.29 save (variant A): three monsters hunting the player, a thumbnail in its Glob. */
export function edgeSample(): EdgeSave {
  const player = {
    ...newInstance('mobj_t'),
    x: 0,
    y: 0,
    z: 0,
    health: 100,
    info: 'OUR HERO',
    state: 'OUR HERO:IDLE:1',
  };
  const monsters = (['IMP', 'DEMON', 'CACODEMON'] as const).map(
    (info, i): Instance => ({
      ...newInstance('mobj_t'),
      x: 128 * (i + 1),
      y: -64 * i,
      z: 0,
      angle: 0x40000000 * i,
      health: 60 + 90 * i,
      info,
      state: `*:SEE:${i + 1}`,
    }),
  );
  for (const m of monsters) m.target = refTo('mobjs', player);
  const save = createSave({
    variables: {
      GAME: 'DOOM2',
      LEVEL: 'MAP01',
      SKILL: '3',
      LEVEL_TIME: '2100',
      DESCRIPTION: 'Entryway, three monsters',
      DESC_DATE: ' 9:05 PM  29/Nov/2026',
    },
    arrays: { mobjs: [player, ...monsters] },
  });
  // A 160×100 thumbnail: a gradient, so it shows in the playground.
  const rgba = new Uint8Array(160 * 100 * 4);
  for (let y = 0; y < 100; y++) for (let x = 0; x < 160; x++) rgba.set([x * 1.6, y * 2.5, 128, 255], (y * 160 + x) * 4);
  (save.chunks[0] as { body: { value: unknown[] } }).body.value.push({
    id: 'View',
    body: thumbnailFromRgba(160, 100, rgba),
  });
  return save;
}

/** A Terrarum save as the design doc lays it out: a 32×16 TEMD world, the prop CSVs, the player's JSON. */
export function terrarumSample(): TerrarumSave {
  const width = 32;
  const height = 16;
  const n = width * height;
  // Air above row 6, dirt to row 9, stone below; a wall behind everything underground.
  const tile = (i: number) => (Math.floor(i / width) < 6 ? 0 : Math.floor(i / width) < 9 ? 2 : 1);
  const world: TemdWorld = {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 4,
    reserved: 0,
    width,
    height,
    spawnX: 16,
    spawnY: 5,
    terrain: Uint16Array.from({ length: n }, (_, i) => tile(i)),
    wall: Uint16Array.from({ length: n }, (_, i) => (Math.floor(i / width) < 7 ? 0 : 1)),
    wire: new Uint8Array(n),
  };
  return {
    meta: {
      magic: 'TESV',
      name: 'Sample: Nimbus',
      terrainSeed: 0x1234_5678_9abcn,
      randomiserSeed: 7n,
      crc1: 0,
      crc2: 0,
      crc3: 0,
      crc4: 0,
      hash4321: new Uint8Array(32),
      refid: PLAYER_REF_ID,
      timeT: 86_400n * 3n,
      created: 1_764_460_800,
      lastPlayed: 1_764_464_400,
      playTime: 3600,
    },
    worldinfo1: { gzip: false, world },
    worldinfo2: parseCsv('"id";"drop";"name"\n"0";"0";"AIR"\n"1";"1";"BLOCK_STONE"\n"2";"2";"BLOCK_DIRT"\n'),
    worldinfo3: parseCsv('"id";"classname"\n"8448";"net.torvald.terrarum.itemproperties.Pickaxe"\n'),
    worldinfo4: parseCsv('"idst";"dsty";"comments"\n"ROCK";"2400";"stone"\n"DIRT";"1400";"dirt"\n'),
    worldinfo5: 'basegame\n',
    actors: { '91A7E2': { value: { referenceID: 9545698, actorValue: { name: 'Nimbus', _playerName: 'Nimbus' } } } },
    // The human-readable lists mirror the prop CSVs; the load order mirrors worldinfo5.
    lists: {
      'Tiles_list.txt': parseCsv('"id";"drop";"name"\n"0";"0";"AIR"\n"1";"1";"BLOCK_STONE"\n"2";"2";"BLOCK_DIRT"\n'),
      'Materials_list.txt': parseCsv('"idst";"dsty";"comments"\n"ROCK";"2400";"stone"\n"DIRT";"1400";"dirt"\n'),
    },
    loadOrder: 'basegame\n',
    // A tapestry: a format savekit does not know, kept as bytes.
    files: { 'tapestries/1071': Uint8Array.of(0x54, 0x45, 0x41, 0x46, 0, 2, 0, 2, 0x11, 0x22, 0x33, 0x44) },
  };
}

/** The Terrarum sample as the game would carry it: the save's files on a TEVd disk. */
export function terrarumSampleDisk(): Uint8Array {
  const tree = encodeSave(terrarumSample());
  if (tree._tag === 'Left') throw tree.left;
  return encodeOrThrow(tevdDisk, treeToDisk(tree.right, { name: 'save1', time: 1_764_464_400 }));
}

/** Every sample: file name → bytes. */
export function sampleFiles(): Record<string, Uint8Array> {
  return {
    'skirmish-01.sks': encodeOrThrow(skirmishSave, skirmishSample),
    'edge-01.esg': encodeOrThrow(edgeSave, edgeSample()),
    'zippy-01.zsav': demo().bytes,
    'terrarum-01.tevd': terrarumSampleDisk(),
    'uqm-01.sav': encodeOrThrow(
      uqmSave,
      createUqmSave({
        name: 'Sample: Sol, Mercury mined',
        resUnits: 1250,
        fuel: 4704,
        crew: 39,
        scan: {
          systems: [
            {
              star: 82,
              worlds: Array.from({ length: 17 }, (_, i) => ({ mineral: i === 0 ? 0x4000 : 0, energy: 0, bio: 0 })),
            },
          ],
        },
        state: { URQUAN_PROBE_GRPOFFS: 0 },
      }),
    ),
  };
}
