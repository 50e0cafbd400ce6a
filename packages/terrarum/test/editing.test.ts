// Issue 22, items 6–9: every part of a Terrarum save readable and editable by name — corrupted saves
// opened with warnings and written back repaired, decoded parts instead of hex, one three-way CRC
// check that names the odd side, and the lists and computers decoded. Each item has an API test and a
// CLI test on a file (the real TerranVirtualDisk test disk where one exists).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { decode, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  checkWorldinfoCrcs,
  decodeSave,
  encodeSave,
  format,
  parseCsv,
  repairSave,
  storedEntryCrcs,
  tevdDisk,
  treeToDisk,
  worldinfoCrc,
  type TemdFile,
  type TemdWorld,
  type TerrarumDocument,
  type TerrarumSave,
} from '@savekit/terrarum';
import { scratchFolder } from '../../cli/test/binary';
import { inProcessCli } from '../../cli/test/in-process';
import { corpusFile, warnIfAbsent } from './corpus';
import { ourSave, ourSaveTree } from './save-fixture';

// version.ts reads package.json through import.meta, which the CommonJS that jest runs lacks.
jest.mock('../../cli/src/version', () => ({ version: '0.0.0-test' }));

const REAL_DISK = corpusFile('TerranVirtualDisk_tevd-test-suite-00.tevd');
const REAL_WORLD = corpusFile('Terrarum_demoworld_2021-09-08.json');
warnIfAbsent('issue 22 (Terrarum editing)', REAL_DISK !== undefined && REAL_WORLD !== undefined);
const withReal = REAL_DISK !== undefined ? test : test.skip;
/** A computer's disk, named by UUID as the doc's tree names them. */
const COMPUTER = '6f1c0e2a-5d1b-4c3e-9a7f-2b8d4e6f0a1c';
const SAMPLE = join(__dirname, '..', '..', '..', 'examples', 'saves', 'terrarum-01.tevd');

/** An 8×4 TEMD world: stone below row 2. */
function world(): TemdWorld {
  return {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 4,
    reserved: 0,
    width: 8,
    height: 4,
    spawnX: 3,
    spawnY: 1,
    terrain: Uint16Array.from({ length: 32 }, (_, i) => (i >= 16 ? 1 : 0)),
    wall: Uint16Array.from({ length: 32 }, (_, i) => (i >= 24 ? 1 : 0)),
    wire: new Uint8Array(32),
  };
}

const TILES = '"id";"drop";"name"\n"1";"1";"BLOCK_STONE"\n"2";"2";"BLOCK_DIRT"\n';

/** A save with every part the package decodes: a TEMD world, actors in three written forms, lists, a computer. */
function fullSave(): TerrarumSave {
  const save = ourSave(22);
  save.worldinfo1 = { gzip: false, world: world() };
  save.actors = {
    '91A7E2': { value: { referenceID: 9545698, actorValue: { name: 'Nimbus' } } },
    '2A93BC5F': { value: { referenceID: 714325087, hp: [1, 2] }, indent: 2 },
    // GSON writes doubles as 1.0: only the text keeps that.
    '3B': { value: { referenceID: 59, speed: 1 }, text: '{"referenceID":59,"speed":1.0}' },
  };
  save.lists = { 'Tiles_list.txt': parseCsv(TILES) };
  save.loadOrder = '# load order\nbasegame\n';
  if (REAL_DISK !== undefined) save.computers = { [COMPUTER]: decodeOrThrow(tevdDisk, REAL_DISK) };
  return save;
}

function treeOf(save: TerrarumSave): Map<string, Uint8Array> {
  const tree = encodeSave(save);
  if (E.isLeft(tree)) throw tree.left;
  return tree.right;
}

function diskOf(tree: ReadonlyMap<string, Uint8Array>): Uint8Array {
  return encodeOrThrow(tevdDisk, treeToDisk(tree, { name: 'save1', time: 1_700_000_000 }));
}

function right<A>(result: E.Either<unknown, A>): A {
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

/** Where an entry named `name` is in TEVd 2017 bytes: its name field (entry start + 9). */
function nameAt(disk: Uint8Array, name: string): number {
  const needle = new TextEncoder().encode(`${name}\0`);
  for (let i = 0; i + needle.length <= disk.length; i++) if (needle.every((b, k) => disk[i + k] === b)) return i;
  throw new Error(`no entry named ${name}`);
}
/** The entry header's CRC (entry start + 277) and the first data byte (entry start + 281 + 6). */
const crcAt = (disk: Uint8Array, name: string) => nameAt(disk, name) - 9 + 277;
const dataAt = (disk: Uint8Array, name: string) => nameAt(disk, name) - 9 + 287;

// ——— The CLI, in process ———

const scratch = scratchFolder('savekit-terrarum-editing-', { binary: false });
const savekit = inProcessCli([format], { noColor: true });

function file(name: string, bytes: Uint8Array): string {
  const path = join(scratch.path, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  return path;
}

function folder(name: string, tree: ReadonlyMap<string, Uint8Array>): string {
  const path = join(scratch.path, name);
  for (const [p, bytes] of tree) file(join(name, p), bytes);
  return path;
}

const read = (path: string) => new Uint8Array(readFileSync(path));

// ——— Item 6: "Save file corrupted. Continue?" ———

describe('item 6: a corrupted save opened with warnings and written back repaired', () => {
  /**
   * The real disk with the low byte of its root entry's stored CRC damaged: the disk CRC (over the
   * entry CRCs' low bytes) no longer matches either.
   */
  const damaged = () => {
    const bad = REAL_DISK!.slice();
    bad[47 + 277 + 3]! ^= 0xff;
    return bad;
  };

  withReal(
    'API: refused by default; with checksums as warnings, the document; repairSave gives back the real file',
    () => {
      const refused = format.decode(damaged());
      expect(E.isLeft(refused) && [refused.left.code, refused.left.path.slice(0, 3)]).toEqual([
        'checksum-mismatch',
        ['disk', 'entries', 0],
      ]);
      const read = right(format.decode(damaged(), { checksums: 'warn' }));
      expect(read.warnings.map((w) => w.code)).toEqual(['checksum-mismatch', 'checksum-mismatch']);
      expect(read.warnings[0]!.path.slice(0, 3)).toEqual(['disk', 'entries', 0]);
      const repaired = right(repairSave(damaged()));
      expect(repaired.warnings).toHaveLength(2);
      // Only the stored CRCs were wrong: recomputed, they are the real file's again.
      expect(repaired.repaired).toEqual(REAL_DISK);
    },
  );

  test('API: a save folder whose worldinfo3 changed is repaired: the meta takes the new CRC', () => {
    const tree = ourSaveTree();
    const changed = tree.get('worldinfo3')!.slice();
    changed[2]! ^= 0x20; // a byte the TEVd CRC covers (byte 8 of size ‖ data)
    tree.set('worldinfo3', changed);
    expect(E.isLeft(decodeSave(tree))).toBe(true);
    const repaired = right(repairSave(tree));
    expect(repaired.warnings.map((w) => [w.code, w.path])).toEqual([['checksum-mismatch', ['save', 'worldinfo3']]]);
    const again = right(format.decode(repaired.repaired));
    expect(again.warnings).toEqual([]);
    expect((repaired.repaired as Map<string, Uint8Array>).get('worldinfo3')).toEqual(changed);
  });

  withReal(
    'CLI on the real disk: inspect, dump, verify and edit refuse it; --ignore-checksums reads, lists, repairs',
    async () => {
      const bad = file('damaged.tevd', damaged());
      for (const command of ['inspect', 'dump', 'verify']) {
        const run = await savekit(command, bad);
        expect([command, run.code]).toEqual([command, 1]);
      }
      const inspect = await savekit('inspect', '--ignore-checksums', bad);
      expect(inspect.code).toBe(0);
      expect(inspect.stdout).toMatch(/\[checksum-mismatch\] warning at disk\.entries\[0\]/);
      // verify lists every mismatch and still fails.
      const verify = await savekit('verify', '--ignore-checksums', bad);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(/^invalid .*: 2 checksum mismatches: /m);
      expect(verify.stdout.match(/^ {2}\[checksum-mismatch\] at /gm)).toHaveLength(2);
      // dump → build: a repaired save, byte for byte the real one.
      const json = join(scratch.path, 'damaged.json');
      const dump = await savekit('dump', '--ignore-checksums', bad, '-o', json);
      expect(dump.code).toBe(0);
      expect(dump.stderr).toMatch(/\[checksum-mismatch\]/);
      const fixed = join(scratch.path, 'fixed.tevd');
      expect((await savekit('build', json, '-o', fixed)).code).toBe(0);
      expect(read(fixed)).toEqual(REAL_DISK);
      // edit, left unchanged in the editor: written back repaired, the damaged file kept as .bak.
      const previous = process.env.VISUAL;
      process.env.VISUAL = 'true';
      try {
        const edit = await savekit('edit', '--ignore-checksums', bad);
        expect(edit.code).toBe(0);
        expect(edit.stderr).toMatch(/checksums recomputed/);
      } finally {
        if (previous === undefined) delete process.env.VISUAL;
        else process.env.VISUAL = previous;
      }
      expect(read(bad)).toEqual(REAL_DISK);
      expect(read(`${bad}.bak`)).toEqual(damaged());
      expect((await savekit('verify', bad)).code).toBe(0);
    },
  );
});

// ——— Item 7: decoded, not hex ———

/** Every string in a dump that looks like hex bytes (8+ hex digits, not all decimal), by its path. */
function hexStrings(value: unknown): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length >= 8 && /^[0-9a-f]+$/.test(v) && !/^\d+$/.test(v)) found.push(path);
    } else if (Array.isArray(v)) {
      // Arrays of numbers (tiles) are not hex; only look inside arrays of other things.
      v.forEach((x, i) => {
        if (typeof x !== 'number') stack.push([x, `${path}[${i}]`]);
      });
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) stack.push([x, path === '' ? k : `${path}.${k}`]);
    }
  }
  return found.sort();
}

/**
 * What may stay hex: bytes with no format the package knows — a digest, flag bytes, unknown files
 * (`files`, a plain disk's file data, the files inside a computer's disk) and gzip bytes kept for
 * byte-exactness.
 */
const MAY_BE_HEX = [
  /^document\.save\.meta\.hash4321$/,
  /^document\.meta\.hash4321$/,
  /(^|\.)attributes$/,
  /^document\.save\.files\./,
  /\.stored$/,
  /^document\.save\.computers\.[^.]+\.entries\[\d+\]\.content\.data$/,
];

withReal(
  'item 7: dump of every bundled and real Terrarum save shows no hex for a part the package decodes',
  async () => {
    const saves: Record<string, string> = {
      'the bundled sample': SAMPLE,
      'the real disk': file('real.tevd', REAL_DISK!),
      'the real JSON world': file('demoworld', REAL_WORLD!),
      'a full save folder': folder('full', treeOf(fullSave())),
      'a full save on a disk': file('full.tevd', diskOf(treeOf(fullSave()))),
    };
    for (const [what, path] of Object.entries(saves)) {
      const dump = await savekit('dump', path);
      expect([what, dump.code, dump.stderr]).toEqual([what, 0, '']);
      const json = JSON.parse(dump.stdout) as { document: TerrarumDocument };
      // A plain disk (no save on it) holds files of no known format: their data is bytes.
      const plainDisk = json.document.kind === 'disk' && json.document.save === undefined;
      const hex = hexStrings(json).filter(
        (path) =>
          !MAY_BE_HEX.some((allowed) => allowed.test(path)) &&
          !(plainDisk && /^document\.disk\.entries\[\d+\]\.content\.data$/.test(path)),
      );
      expect([what, hex]).toEqual([what, []]);
    }
  },
);

describe('item 7: the world as TEMD, actors as JSON values', () => {
  test('API: decoded parts; unchanged they write the same bytes, edited they are re-encoded', () => {
    const tree = treeOf(fullSave());
    const save = right(decodeSave(tree)).value;
    expect(save.worldinfo1).not.toBeInstanceOf(Uint8Array);
    expect((save.worldinfo1 as TemdFile & { gzip: false }).world.width).toBe(8);
    expect(save.actors['91A7E2']).toEqual({ value: { referenceID: 9545698, actorValue: { name: 'Nimbus' } } });
    expect(save.actors['2A93BC5F']!.indent).toBe(2);
    expect(save.actors['3B']!.text).toBe('{"referenceID":59,"speed":1.0}');
    expect(treeOf(save)).toEqual(tree);
    // Edits: a tile, an actor's name, GSON's actor (its text no longer matches: the value is written).
    (save.worldinfo1 as TemdFile & { gzip: false }).world.terrain[0] = 2;
    (save.actors['91A7E2']!.value as { actorValue: { name: string } }).actorValue.name = 'Cirrus';
    (save.actors['3B']!.value as { speed: number }).speed = 2;
    const edited = treeOf(save);
    expect(new TextDecoder().decode(edited.get('91A7E2'))).toBe(
      '{"referenceID":9545698,"actorValue":{"name":"Cirrus"}}',
    );
    expect(new TextDecoder().decode(edited.get('3B'))).toBe('{"referenceID":59,"speed":2}');
    expect(new TextDecoder().decode(edited.get('2A93BC5F'))).toBe(
      JSON.stringify({ referenceID: 714325087, hp: [1, 2] }, null, 2),
    );
    const again = right(decodeSave(edited));
    expect(again.warnings).toEqual([]);
    expect((again.value.worldinfo1 as TemdFile & { gzip: false }).world.terrain[0]).toBe(2);
    // worldinfo1 bytes that are not a TEMD world stay bytes.
    expect(right(decodeSave(ourSaveTree())).value.worldinfo1).toBeInstanceOf(Uint8Array);
  });

  test('CLI on the bundled sample: dump shows tiles and the actor; an edit to the JSON builds and reads back', async () => {
    const dump = await savekit('dump', SAMPLE);
    expect(dump.code).toBe(0);
    const json = JSON.parse(dump.stdout);
    const save = json.document.save;
    expect(save.worldinfo1.world.terrain.slice(0, 3)).toEqual([0, 0, 0]);
    expect(save.actors['91A7E2'].value.actorValue.name).toBe('Nimbus');
    save.actors['91A7E2'].value.actorValue.name = 'Cirrus';
    save.worldinfo1.world.terrain[0] = 1;
    const edited = file('sample-edited.json', new TextEncoder().encode(JSON.stringify(json)));
    const built = join(scratch.path, 'sample-edited.tevd');
    expect((await savekit('build', edited, '-o', built)).code).toBe(0);
    const doc = right(format.decode(read(built))).value;
    if (doc.kind !== 'disk' || doc.save === undefined) throw new Error('a disk holding a save');
    expect((doc.save.actors['91A7E2']!.value as { actorValue: { name: string } }).actorValue.name).toBe('Cirrus');
    expect((doc.save.worldinfo1 as TemdFile & { gzip: false }).world.terrain[0]).toBe(1);
    // Unchanged, the sample verifies byte for byte (the decoded parts keep their bytes).
    expect((await savekit('verify', SAMPLE)).code).toBe(0);
  });
});

// ——— Item 8: one consistent three-way check ———

describe('item 8: the meta CRC, the entry header CRC and the content agree under the default rule', () => {
  withReal('API on the real disk: every entry header CRC is the default rule of its file', () => {
    const disk = decodeOrThrow(tevdDisk, REAL_DISK!);
    const stored = storedEntryCrcs(disk)!;
    expect(stored).toHaveLength(disk.entries.length);
    const files = disk.entries.flatMap((e, k) => (e.content.kind === 'file' ? [[e.content.data, stored[k]]] : []));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const [data, crc] of files) expect(worldinfoCrc(data as Uint8Array)).toBe(crc);
    // The old default (a plain CRC-32) matches none of the non-empty files' headers.
    for (const [data, crc] of files)
      if ((data as Uint8Array).length > 0) expect(worldinfoCrc(data as Uint8Array, 'plain')).not.toBe(crc);
  });

  test('API: each side wrong in turn is named, with its path; all three agree on a fresh disk', () => {
    const tree = ourSaveTree();
    const fresh = diskOf(tree);
    expect(right(format.decode(fresh)).warnings).toEqual([]);
    const k = decodeOrThrow(tevdDisk, fresh).entries.findIndex((e) => e.name === 'worldinfo3');
    const cases: Array<[string, Uint8Array, unknown[]]> = [];
    // The meta is stale: worldinfo3 changed on a disk whose entry CRC was computed afresh.
    const stale = new Map(tree);
    const w3 = stale.get('worldinfo3')!.slice();
    w3[2]! ^= 0x20;
    stale.set('worldinfo3', w3);
    cases.push(['meta', diskOf(stale), ['save', 'meta', 'crc3']]);
    // The entry header's CRC alone is wrong.
    const header = fresh.slice();
    header[crcAt(header, 'worldinfo3')]! ^= 0x01;
    cases.push(['entry', header, ['disk', 'entries', k]]);
    // The content changed after both CRCs were written.
    const content = fresh.slice();
    content[dataAt(content, 'worldinfo3') + 2]! ^= 0x20;
    cases.push(['content', content, ['save', 'worldinfo3']]);
    for (const [odd, bytes, path] of cases) {
      const refused = format.decode(bytes);
      expect([odd, E.isLeft(refused) && refused.left.code, E.isLeft(refused) && refused.left.path]).toEqual([
        odd,
        'checksum-mismatch',
        path,
      ]);
      const warned = right(format.decode(bytes, { checksums: 'warn' })).warnings.filter(
        (w) => w.code === 'checksum-mismatch',
      );
      expect([odd, warned.map((w) => w.path)]).toEqual([odd, [path]]);
      expect(warned[0]!.message).toMatch(
        odd === 'meta'
          ? /the meta's crc3 disagrees/
          : odd === 'entry'
            ? /entry header CRC disagrees/
            : /content disagrees/,
      );
    }
    // checkWorldinfoCrcs on its own: the entry side given, all three differing is `all`.
    const meta = right(decodeSave(tree)).value.meta;
    const entryCrcs = new Map([['worldinfo2', { crc: 1, path: ['disk', 'entries', 9] }]]);
    expect(checkWorldinfoCrcs({ ...meta, crc2: 2 }, tree, { entryCrcs })).toEqual([
      expect.objectContaining({ odd: 'all', file: 'worldinfo2', path: ['worldinfo2'] }),
    ]);
  });

  test('CLI: verify --ignore-checksums names the entry header that disagrees', async () => {
    const fresh = diskOf(ourSaveTree());
    const bad = fresh.slice();
    bad[crcAt(bad, 'worldinfo2')]! ^= 0x01;
    const path = file('entry-crc.tevd', bad);
    const verify = await savekit('verify', '--ignore-checksums', path);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      /\[checksum-mismatch\] at disk\.entries\[\d+\] .*worldinfo2's entry header CRC disagrees/,
    );
    expect((await savekit('verify', file('fresh.tevd', fresh))).code).toBe(0);
  });
});

// ——— Item 9: lists, computers, tapestries ———

describe('item 9: the lists as CSV (checked against the props), computers as disks, tapestries as bytes', () => {
  test('API: decoded, checked, and written back the same', () => {
    const save = fullSave();
    save.lists = { ...save.lists, 'Items_list.txt': parseCsv('"id";"classname"\n"8448";"Axe"\n') };
    const tree = treeOf(save);
    const decoded = right(decodeSave(tree));
    expect(decoded.value.lists?.['Tiles_list.txt']?.rows[1]).toEqual(['1', '1', 'BLOCK_STONE']);
    expect(decoded.value.loadOrder).toBe('# load order\nbasegame\n');
    expect(Object.keys(decoded.value.files)).toEqual(['tapestries/1']);
    // The item list says Axe where worldinfo3 says the Pickaxe class.
    expect(decoded.warnings.map((w) => [w.code, w.path])).toEqual([
      ['list-mismatch', ['lists', 'Items_list.txt', 'rows', 1]],
    ]);
    expect(treeOf(decoded.value)).toEqual(tree);
    if (REAL_DISK !== undefined) {
      const computer = decoded.value.computers?.[COMPUTER];
      expect(computer?.entries.map((e) => e.name)).toContain('hello.txt');
      expect(tree.get(`computers/${COMPUTER}`)).toEqual(REAL_DISK);
    }
    // A list that is not CSV stays bytes, with a warning; a load order that differs from worldinfo5 is named.
    const odd = new Map(tree);
    odd.set('Items_list.txt', new TextEncoder().encode('"unclosed\n'));
    odd.set('load_order.txt', new TextEncoder().encode('dwarventech\n'));
    const warned = right(decodeSave(odd));
    expect(warned.value.files['Items_list.txt']).toBeDefined();
    expect(warned.warnings.map((w) => w.code).sort()).toEqual(['list-mismatch', 'list-unparsed']);
    expect(treeOf(warned.value)).toEqual(odd);
    // Given twice (decoded and as bytes) is refused.
    const twice = { ...warned.value, files: { ...warned.value.files, 'load_order.txt': Uint8Array.of(1) } };
    const refused = encodeSave(twice);
    expect(E.isLeft(refused) && refused.left.path).toEqual(['files', 'load_order.txt']);
  });

  withReal('CLI: inspect names the list that differs; dump shows the computer disk by its entries', async () => {
    const save = fullSave();
    save.lists = { 'Tiles_list.txt': parseCsv(TILES.replace('BLOCK_DIRT', 'BLOCK_SAND')) };
    const path = file('lists.tevd', diskOf(treeOf(save)));
    const inspect = await savekit('inspect', path);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/\[list-mismatch\] warning at save\.lists\.Tiles_list\.txt\.rows\[2\]/);
    const dump = JSON.parse((await savekit('dump', path)).stdout);
    const computer = dump.document.save.computers[COMPUTER];
    expect(computer.entries.map((e: { name?: string }) => e.name)).toContain('instruction.txt');
    expect(existsSync(path)).toBe(true);
    expect((await savekit('verify', path)).code).toBe(0);
    // Decoded and checked the same way from the disk's bytes.
    expect(E.isRight(decode(tevdDisk, read(path)))).toBe(true);
  });
});
