// Design-layout fixtures (the seed's GLOB lumps, STRU of SDEF, ARRY of ADEF, STOR chunks), built as
// documents and written by the package's own writer, in variants A (1.25: XOR + LZO, end markers) and
// C (1.35: zlib or stored). What a reader of the seed's layout must find in them is given beside
// each, in the independent reader's terms (INDEX values as their u32).
import type { Instance, StructDef } from '@savekit/core/schema';
import {
  DESIGN_HEADER_PADDING,
  refTo,
  storedLayers,
  type EdgeSave,
  type EdgeVariant,
  type GlobEntry,
  type TopChunk,
} from '@savekit/edge';
import { le32, type ReaderTables } from './independent';

/** The design variants the fixtures come in, with the version each is written under. */
export const DESIGN_VARIANTS: ReadonlyArray<readonly [EdgeVariant, number]> = [
  ['A', 0x125],
  ['C', 0x13506],
];

const N = (name: string, size: number, count = 1) => ({ name, kind: 'numeric' as const, size, count });
const S = (name: string) => ({ name, kind: 'string' as const, size: 0, count: 1 });
const I = (name: string, ref: string) => ({ name, kind: 'index' as const, size: 4, count: 1, ref });

/**
 * `mobj_t`, known to every release table: floats declared 4 (as EDGE declares them) and 6 (as the
 * seed would), a vec3 declared 12 (stored in 18), and two fields no table knows (`frob` NUMERIC 4, an
 * int by its declaration, and `wobble` NUMERIC 2).
 */
export const MOBJ: StructDef = {
  name: 'mobj_t',
  marker: 'mobj',
  fields: [
    N('x', 4),
    N('y', 6),
    N('mom', 12),
    N('angle', 4),
    S('info'),
    N('frob', 4),
    N('wobble', 2),
    I('target', 'mobjs'),
    N('health', 4),
  ],
};
/** `player_t`, known: `armours` with fewer elements than the table's 4, `powers` with more than its 16. */
export const PLAYER: StructDef = {
  name: 'player_t',
  marker: 'play',
  fields: [N('pnum', 4), N('armours', 4, 2), N('powers', 4, 18), I('mo', 'mobjs')],
};
/** `shootspot_t`, a structure no table knows: floats declared honestly (6), an INDEX. */
export const SPOT: StructDef = {
  name: 'shootspot_t',
  marker: 'shot',
  fields: [N('x', 6), N('y', 6), N('z', 6), I('owner', 'mobjs')],
};

/** The independent reader's own tables: what it knows of `mobj_t` and `player_t`. */
export const SEED_TABLES: ReaderTables = {
  mobj_t: { x: 'float', y: 'float', mom: 'vec3', angle: 'int', info: 'string', target: 'index', health: 'float' },
  player_t: { pnum: 'int', armours: 'float', powers: 'float', mo: 'index' },
};

/** The stored bytes (after the u32 original length) of an unknown top-level chunk, the variant's way. */
function storedOf(variant: EdgeVariant, plain: Uint8Array): Uint8Array {
  let data = plain;
  for (const l of [...storedLayers(variant)].reverse()) data = l.encode(data);
  return Uint8Array.from([...le32(plain.length), ...data]);
}

/** The plain data of the unknown top-level chunk `Xtra` the full fixture has between ARRY and STOR. */
export const XTRA_PLAIN = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);

/** Bytes of the two `phan` instances of `phantom_t`, a structure the file does not define. */
export const PHANTOMS = [Uint8Array.of(1, 2, 3, 4), Uint8Array.of(5, 6, 7, 8, 9, 10, 11, 12)];

/** The GLOB lumps every design fixture starts with (MAP07, skill 3), with its netgame and description. */
export function globEntries(netgame: number, description: string): GlobEntry[] {
  return [
    { id: 'Wher', body: { game: 'HELL_ON_EARTH', level: 'MAP07', flags: 0x40, gravity: 8 } },
    { id: 'When', body: { levelTime: 4321, random: 77, totalKills: 10, totalItems: 4, totalSecrets: 2 } },
    { id: 'Skil', body: { consolePlayer: 0, skill: 3, netgame } },
    { id: 'Desc', body: { description, date: ' 5:20 PM  01/Jan/2001' } },
  ];
}

/** A `Glob` chunk of these lumps. */
export function globChunk(entries: GlobEntry[]): TopChunk {
  return { id: 'Glob', body: { value: entries } };
}

function glob(): TopChunk {
  return globChunk(globEntries(0, 'design fixture'));
}

/** A design-layout save of these top-level chunks. */
export function designSaveOf(variant: EdgeVariant, version: number, chunks: TopChunk[]): EdgeSave {
  return { variant, layout: 'design', version, padding: DESIGN_HEADER_PADDING.slice(), chunks };
}

/** A save with empty STRU and ARRY areas and no STOR: nothing defined, nothing stored. */
export function emptyAreas(variant: EdgeVariant, version: number): EdgeSave {
  return designSaveOf(variant, version, [
    glob(),
    { id: 'Stru', body: { value: [] } },
    { id: 'Arry', body: { value: [] } },
  ]);
}

/** The full fixture's three mobjs but their targets (refs in the document, INDEX numbers as stored). */
const MOBJS = [
  { x: 1.5, y: -2.25, mom: [1, -2, 0.5], angle: 0x40000000, info: 'IMP', frob: 7, wobble: 9, health: 60 },
  { x: 1024, y: Math.fround(0.1), mom: [0, 0, 0], angle: 0, info: 'PLAYER', frob: -1, wobble: 0xffff, health: 100 },
  { x: -8, y: 41, mom: [0, 0, -1], angle: 7, info: null, frob: 0, wobble: 1, health: 0 },
] as const;

/**
 * The full fixture: known and unknown structures and fields, floats declared 4 and 6, extra and
 * missing elements, an array of a structure the file does not define with no elements (`ghosts`) and
 * with two (`phantoms`), an unknown top-level chunk between ARRY and the first STOR, INDEX cycles
 * (mobj 1 ↔ mobj 2, mobj 3 → itself) and NULLs.
 */
export function fullDesign(variant: EdgeVariant, version: number): EdgeSave {
  const [m1, m2, m3] = MOBJS.map((mobj): Instance => ({ ...mobj, target: null })) as [Instance, Instance, Instance];
  m1.target = refTo('mobjs', m2);
  m2.target = refTo('mobjs', m1);
  m3.target = refTo('mobjs', m3);
  const player: Instance = {
    pnum: 0,
    // The file holds 2 of the release table's armours (4 in 1.27, 5 in 1.35): the rest are defaults.
    armours: [5, 6.5, ...new Array(version < 0x13000 ? 2 : 3).fill(0)],
    powers: Array.from({ length: 16 }, (_, i) => i * 0.5),
    $kept: { powers: [16, 17] }, // the file's 2 beyond the table's 16
    mo: refTo('mobjs', m1),
  };
  const spots: Instance[] = [
    { x: 1.5, y: -2.25, z: 0, owner: refTo('mobjs', m3) },
    { x: 1024, y: Math.fround(0.1), z: Math.fround(-Math.PI), owner: null },
  ];
  return designSaveOf(variant, version, [
    glob(),
    {
      id: 'Stru',
      body: { value: [MOBJ, PLAYER, SPOT].map((body) => ({ id: 'Sdef' as const, body })) },
    },
    {
      id: 'Arry',
      body: {
        value: [
          { id: 'Adef', body: { name: 'mobjs', struct: 'mobj_t', count: 3 } },
          { id: 'Adef', body: { name: 'players', struct: 'player_t', count: 1 } },
          { id: 'Adef', body: { name: 'spots', struct: 'shootspot_t', count: 2 } },
          { id: 'Adef', body: { name: 'ghosts', struct: 'ghost_t', count: 0 } },
          { id: 'Adef', body: { name: 'phantoms', struct: 'phantom_t', count: 2 } },
        ],
      },
    },
    { id: 'Xtra', raw: storedOf(variant, XTRA_PLAIN) },
    { id: 'Stor', body: { value: { array: 'mobjs', elements: [m1, m2, m3] } } },
    { id: 'Stor', body: { value: { array: 'players', elements: [player] } } },
    { id: 'Stor', body: { value: { array: 'spots', elements: spots } } },
    { id: 'Stor', body: { value: { array: 'ghosts', elements: [] } } },
    {
      id: 'Stor',
      body: { value: { array: 'phantoms', elements: PHANTOMS.map(($raw) => ({ $marker: 'phan', $raw })) } },
    },
  ]);
}

/** What a reader of the seed's layout finds in the full fixture's STOR chunks (INDEX as u32, 0 = NULL). */
export const FULL_STORES = {
  // The targets as INDEX numbers: mobj 1 ↔ mobj 2, mobj 3 → itself.
  mobjs: [
    { ...MOBJS[0], target: 2 },
    { ...MOBJS[1], target: 1 },
    { ...MOBJS[2], target: 3 },
  ],
  players: [{ pnum: 0, armours: [5, 6.5], powers: [...Array.from({ length: 16 }, (_, i) => i * 0.5), 16, 17], mo: 1 }],
  spots: [
    { x: 1.5, y: -2.25, z: 0, owner: 3 },
    { x: 1024, y: Math.fround(0.1), z: Math.fround(-Math.PI), owner: 0 },
  ],
  ghosts: [],
  phantoms: PHANTOMS.map((raw) => ({ marker: 'phan', raw })),
};
