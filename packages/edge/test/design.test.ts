// The design doc's layout (the seed): a Glob of WHER/WHEN/SKIL/DESC/VIEW/WDCK/LVCK/DFCK lumps, a
// top-level STRU of SDEF chunks, an ARRY of ADEF chunks, several STOR chunks. Written by the package,
// read back by it, and read by an independent reader written from the seed's lump tables.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { decode, decodeOrThrow, encodeOrThrow, formatWarning } from '@savekit/core';
import type { Instance, StructDef } from '@savekit/core/schema';
import {
  arrays,
  combineCrcs,
  edgeSave,
  elementsOf,
  levelInfo,
  refTo,
  structures,
  summary,
  thumbnailFromRgba,
  thumbnailOf,
  thumbnailToRgba,
  type EdgeSave,
} from '@savekit/edge';
import { designSaveOf, globChunk, globEntries } from './design-fixtures';
import { Cursor, readFile, readSdef } from './independent';

const shootspot: StructDef = {
  name: 'shootspot_t',
  marker: 'shot',
  // The design doc declares NUMERIC sizes honestly: a float is 6 bytes.
  fields: ['x', 'y', 'z'].map((name) => ({ name, kind: 'numeric' as const, size: 6, count: 1 })),
};
const ammo: StructDef = {
  name: 'playerammo_t',
  marker: 'pamo',
  fields: [
    { name: 'num', kind: 'numeric', size: 4, count: 1 },
    { name: 'max', kind: 'numeric', size: 4, count: 1 },
  ],
};
const thing: StructDef = {
  name: 'thing_t',
  marker: 'thng',
  fields: [
    { name: 'name', kind: 'string', size: 0, count: 1 },
    { name: 'spot', kind: 'struct', size: 0, count: 1, ref: 'shootspot_t' },
    { name: 'target', kind: 'index', size: 4, count: 1, ref: 'things' },
    { name: 'ammo', kind: 'struct', size: 0, count: 2, ref: 'playerammo_t' },
    { name: 'health', kind: 'numeric', size: 4, count: 1 },
  ],
};

const rgba = new Uint8Array(160 * 100 * 4).map((_, i) => (i % 4 === 3 ? 255 : ((i * 37) >> 2) & 0xf8));
const view = thumbnailFromRgba(160, 100, rgba);
const sectorCrcs = [0x12345678, 0x9abcdef0];

// The design save's things, their targets unset (fresh each time: the save sets them to references).
function designThings(): Instance[] {
  return [
    {
      name: 'IMP',
      spot: { x: 64, y: 32, z: 0 },
      target: null,
      ammo: [
        { num: 5, max: 50 },
        { num: 0, max: 200 },
      ],
      health: 60,
    },
    {
      name: 'PLAYER',
      spot: { x: -8, y: 8, z: 41 },
      target: null,
      ammo: [
        { num: 1, max: 2 },
        { num: 3, max: 4 },
      ],
      health: 100,
    },
    {
      name: null,
      spot: { x: 0, y: 0, z: 0 },
      target: null,
      ammo: [
        { num: 0, max: 0 },
        { num: 0, max: 0 },
      ],
      health: -1,
    },
  ];
}

function designSave(): EdgeSave {
  const spots: Instance[] = [
    { x: 1.5, y: -2.25, z: 0 },
    { x: 1024, y: Math.fround(0.1), z: Math.fround(-Math.PI) },
  ];
  const things = designThings();
  things[0]!.target = refTo('things', things[1]!);
  things[1]!.target = refTo('things', things[0]!);
  return designSaveOf('A', 0x125, [
    globChunk([
      ...globEntries(1, 'Dead simple'),
      { id: 'View', body: view },
      { id: 'Wdck', body: { wads: ['DOOM2.WAD', 'MYMOD.WAD'] } },
      {
        id: 'Lvck',
        body: {
          sectors: { count: 2, crc: combineCrcs(sectorCrcs) },
          linedefs: { count: 3, crc: combineCrcs([1, 2, 3]) },
          things: { count: 3, crc: 7 },
          scripts: { count: 0, crc: 0 },
        },
      },
      {
        id: 'Dfck',
        body: {
          attacks: { count: 1, crc: 11 },
          games: { count: 2, crc: 22 },
          levels: { count: 3, crc: 33 },
          lines: { count: 4, crc: 44 },
          sectors: { count: 5, crc: 55 },
          things: { count: 6, crc: 66 },
          weapons: { count: 7, crc: 77 },
        },
      },
    ]),
    {
      id: 'Stru',
      body: {
        value: [
          { id: 'Sdef', body: shootspot },
          { id: 'Sdef', body: ammo },
          { id: 'Sdef', body: thing },
        ],
      },
    },
    {
      id: 'Arry',
      body: {
        value: [
          { id: 'Adef', body: { name: 'spots', struct: 'shootspot_t', count: 2 } },
          { id: 'Adef', body: { name: 'things', struct: 'thing_t', count: 3 } },
        ],
      },
    },
    { id: 'Stor', body: { value: { array: 'spots', elements: spots } } },
    { id: 'Stor', body: { value: { array: 'things', elements: things } } },
  ]);
}

/** The independent reader's view of an instance, from the seed's SDEF rules. */
function readInstance(c: Cursor, def: StructDef, defs: StructDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of def.fields) {
    const values: unknown[] = [];
    for (let i = 0; i < f.count; i++) {
      if (f.kind === 'string') values.push(c.string());
      else if (f.kind === 'index') values.push(c.u32());
      else if (f.kind === 'numeric') values.push(f.size === 6 ? c.float() : c.int());
      else {
        const nested = c.chunk('A');
        const sub = defs.find((d) => d.marker === nested.marker)!;
        values.push(readInstance(nested.data, sub, defs));
      }
    }
    out[f.name] = f.count === 1 ? values[0] : values;
  }
  return out;
}

describe("the design doc's layout", () => {
  const save = designSave();
  const bytes = encodeOrThrow(edgeSave, save);

  test('the rotate-XOR combination of per-entry CRCs gives the values edge.md §4 computed', () => {
    expect(combineCrcs([0x12345678, 0x9abcdef0])).toBe(0xdfdb5fd3);
    expect(combineCrcs([1, 2, 3])).toBe(0x01002003);
    expect(combineCrcs([])).toBe(0);
  });

  test('an independent reader (seed lump tables, native LZO, fflate Adler-32) reads what we write', () => {
    const file = readFile(bytes);
    expect(file.checksumOk).toBe(true);
    expect(file.version).toBe(0x125);
    expect([...file.padding]).toEqual([0x0d, 0x0a, 0x1a, 0x00]);
    expect(file.chunks.map((c) => c.marker)).toEqual(['Glob', 'Stru', 'Arry', 'Stor', 'Stor']);
    for (const c of file.chunks) expect(c.origLength % 4).toBe(0);

    const glob = new Cursor(file.chunks[0]!.plain);
    const lumps: Record<string, Cursor> = {};
    while (glob.left > 0) {
      const { marker, data } = glob.chunk('A');
      lumps[marker] = data;
    }
    expect(Object.keys(lumps)).toEqual(['Wher', 'When', 'Skil', 'Desc', 'View', 'Wdck', 'Lvck', 'Dfck']);
    const w = lumps.Wher!;
    expect([w.string(), w.string(), w.u32(), w.u32()]).toEqual(['HELL_ON_EARTH', 'MAP07', 0x40, 8]);
    const t = lumps.When!;
    expect([t.int(), t.u32(), t.int(), t.int(), t.int()]).toEqual([4321, 77, 10, 4, 2]);
    const k = lumps.Skil!;
    expect([k.int(), k.int(), k.int()]).toEqual([0, 3, 1]);
    const d = lumps.Desc!;
    expect([d.string(), d.string()]).toEqual(['Dead simple', ' 5:20 PM  01/Jan/2001']);
    const v = lumps.View!;
    expect([v.int(), v.int()]).toEqual([160, 100]);
    expect(v.bytes.subarray(v.at, v.at + 160 * 100 * 2)).toEqual(view.pixels);
    const wd = lumps.Wdck!;
    const wadCount = wd.u32();
    expect(Array.from({ length: wadCount }, () => wd.string())).toEqual(['DOOM2.WAD', 'MYMOD.WAD']);
    const lv = lumps.Lvck!;
    expect(Array.from({ length: 8 }, () => lv.u32())).toEqual([2, 0xdfdb5fd3, 3, 0x01002003, 3, 7, 0, 0]);
    const df = lumps.Dfck!;
    expect(Array.from({ length: 14 }, () => df.u32())).toEqual([1, 11, 2, 22, 3, 33, 4, 44, 5, 55, 6, 66, 7, 77]);

    // STRU of SDEF chunks.
    const stru = new Cursor(file.chunks[1]!.plain);
    const defs: StructDef[] = [];
    while (stru.left > 0) {
      const { marker, data } = stru.chunk('A');
      expect(marker).toBe('Sdef');
      defs.push(readSdef(data));
    }
    expect(defs).toEqual([shootspot, ammo, thing]);

    // ARRY of ADEF chunks.
    const arry = new Cursor(file.chunks[2]!.plain);
    const arrayDefs: Array<{ name: string; struct: string; count: number }> = [];
    while (arry.left > 0) {
      const { marker, data } = arry.chunk('A');
      expect(marker).toBe('Adef');
      const count = data.int();
      arrayDefs.push({ count, name: data.string()!, struct: data.string()! });
    }
    expect(arrayDefs).toEqual([
      { name: 'spots', struct: 'shootspot_t', count: 2 },
      { name: 'things', struct: 'thing_t', count: 3 },
    ]);

    // STOR chunks: array name, then the instances.
    const stored: Record<string, unknown[]> = {};
    for (const chunk of file.chunks.slice(3)) {
      const c = new Cursor(chunk.plain);
      const name = c.string()!;
      const def = arrayDefs.find((a) => a.name === name)!;
      stored[name] = Array.from({ length: def.count }, () => {
        const { marker, data } = c.chunk('A');
        const structDef = defs.find((s) => s.marker === marker)!;
        expect(structDef.name).toBe(def.struct);
        return readInstance(data, structDef, defs);
      });
    }
    expect(stored.spots).toEqual([
      { x: 1.5, y: -2.25, z: 0 },
      { x: 1024, y: Math.fround(0.1), z: Math.fround(-Math.PI) },
    ]);
    // The references are written as 1-based indices (IMP → PLAYER, PLAYER → IMP), none as 0.
    expect(stored.things).toEqual(designThings().map((t, i) => ({ ...t, target: [2, 1, 0][i] })));
  });

  test('the package reads it back: the same document, the same concepts as the engine layout, the same bytes again', () => {
    const back = decodeOrThrow(edgeSave, bytes);
    expect(back.layout).toBe('design');
    expect(back.variant).toBe('A');
    expect(structures(back)).toEqual([shootspot, ammo, thing]);
    expect(arrays(back).map((a) => `${a.name}:${a.struct}[${a.count}]`)).toEqual([
      'spots:shootspot_t[2]',
      'things:thing_t[3]',
    ]);
    const things = elementsOf(back, 'things')!;
    expect(things[0]!.target).toEqual({ $ref: 'things', index: 2 });
    expect((things[0]!.target as { target?: Instance }).target).toBe(things[1]);
    expect(elementsOf(back, 'spots')).toEqual(elementsOf(save, 'spots'));
    expect(levelInfo(back)).toEqual({
      game: 'HELL_ON_EARTH',
      level: 'MAP07',
      flags: 0x40,
      gravity: 8,
      levelTime: 4321,
      random: 77,
      totalKills: 10,
      totalItems: 4,
      totalSecrets: 2,
      consolePlayer: 0,
      skill: 3,
      netgame: 1,
      description: 'Dead simple',
      date: ' 5:20 PM  01/Jan/2001',
      mapChecks: {
        sectors: { count: 2, crc: 0xdfdb5fd3 },
        lines: { count: 3, crc: 0x01002003 },
        things: { count: 3, crc: 7 },
      },
      wads: ['DOOM2.WAD', 'MYMOD.WAD'],
    });
    expect(summary(back)).toContain('thumbnail: 160×100 RGB 5:5:5');
    expect(thumbnailToRgba(thumbnailOf(back)!)).toEqual(thumbnailToRgba(view));
    expect(encodeOrThrow(edgeSave, back)).toEqual(bytes);
  });

  test("the CLI's inspect names the variant, the layout and the thumbnail's size", () => {
    const dir = mkdtempSync(join(tmpdir(), 'savekit-edge-'));
    try {
      const path = join(dir, 'design.esg');
      writeFileSync(path, bytes);
      const run = spawnSync(
        process.execPath,
        [join(__dirname, '..', '..', 'cli', 'dist', 'bin.js'), 'inspect', '--depth', '1', path],
        { encoding: 'utf8' },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('EDGE variant A (version 0x125), design layout, 5 top-level chunks');
      expect(run.stdout).toContain('thumbnail: 160×100 RGB 5:5:5');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('structures this reader does not know decode to plain properties, with a warning for each', () => {
    const result = decode(edgeSave, bytes);
    if (E.isLeft(result)) throw result.left;
    const warnings: string[] = result.right.warnings.map(formatWarning);
    expect(warnings).toEqual([
      // At the definition's own document path (the Stru chunk, its Sdef chunks 0 and 2) and offset.
      expect.stringMatching(
        /^warning at chunks\[1\]\.body\.value <lzo1x, xor> \[0\]\.body \(offset 8\): structure shootspot_t is not known/,
      ),
      expect.stringMatching(
        /^warning at chunks\[1\]\.body\.value <lzo1x, xor> \[2\]\.body \(offset 132\): structure thing_t is not known/,
      ),
    ]);
  });
});
