// Terrarum: the real TEVd disk and JSON world, the design doc's save as a folder and as a disk, its
// integrity checks, and bad input.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { decode, DecodeError, encode, EncodeError, encodeOrThrow } from '@savekit/core';
import {
  actorOf,
  ascii85Decode,
  ascii85Encode,
  decodeSave,
  diskCrc,
  diskToTree,
  encodeSave,
  entryCrc,
  everyFourthByteCrc,
  format,
  hash4321,
  jsonWorld,
  layerOf,
  setLayerTiles,
  tevdDisk,
  treeToDisk,
  updateDiskFromTree,
  worldFields,
  worldMeta,
  type TerrarumSave,
  type TevdDisk,
} from '@savekit/terrarum';
import { backupPath, loadSaveFile, saveFile, type LoadedSave } from '@savekit/terrarum/node';
import { defaultIterations, fuzzSuite, roundTripSuite } from '@savekit/testkit';
import { corpusFile, warnIfAbsent } from './corpus';
import { ourSave, ourSaveTree } from './save-fixture';

const fixture = corpusFile('TerranVirtualDisk_tevd-test-suite-00.tevd');
const demo = corpusFile('Terrarum_demoworld_2021-09-08.json');
warnIfAbsent('Terrarum real files', fixture !== undefined);
const withCorpus = fixture !== undefined && demo !== undefined ? describe : describe.skip;
const cli = join(__dirname, '..', '..', 'cli', 'dist', 'bin.js');

withCorpus('the real files', () => {
  test('the TerranVirtualDisk test suite disk: every entry CRC and the disk CRC verify; it re-encodes byte for byte', () => {
    const result = decode(tevdDisk, fixture!);
    if (E.isLeft(result)) throw result.left;
    const disk = result.right.value;
    expect([disk.layout, disk.version, disk.capacity, disk.name]).toEqual(['tevd-2017', 3, 368640, '']);
    expect(disk.entries.map((e) => e.name)).toEqual([
      '(root)',
      'append-after-me',
      'hello.txt',
      'deleteme',
      'instruction.txt',
      '01_preamble',
    ]);
    // The stored CRCs are the every-4th-byte ones (the root's is 0x0E1E6659; a full CRC-32 would be 0x8D406CCA).
    expect(entryCrc(disk.entries[0]!, 'tevd-2017')).toBe(0x0e1e6659);
    expect(new DataView(fixture!.buffer).getUint32(42, false)).toBe(0xb1293f27);
    expect(diskCrc(disk.entries.map((e) => entryCrc(e, 'tevd-2017')))).toBe(0xb1293f27);
    expect(encodeOrThrow(tevdDisk, disk)).toEqual(fixture);
    expect([...diskToTree(disk).keys()].sort()).toEqual([
      '01_preamble/append-after-me',
      '01_preamble/deleteme',
      'hello.txt',
      'instruction.txt',
    ]);
  });

  test('the demo world: both layers decode and match their SHA-256; the file re-encodes to the same text', () => {
    const result = decode(jsonWorld, demo!);
    if (E.isLeft(result)) throw result.left;
    const world = result.right.value;
    const terrain = layerOf(world, 'layerTerrain');
    const wall = layerOf(world, 'layerWall');
    expect([terrain.width, terrain.height, terrain.tiles.length, wall.tiles.length]).toEqual([
      2400,
      1280,
      2400 * 1280,
      2400 * 1280,
    ]);
    expect(worldFields(world).tileNumberToNameMap).toMatchObject({ '64': 'basegame:0' });
    expect(encodeOrThrow(jsonWorld, world)).toEqual(demo);
    // Changing a tile re-encodes that layer only; it decodes back and its hash is right.
    const tiles = terrain.tiles.slice();
    tiles[0] = 65;
    setLayerTiles(world, 'layerTerrain', tiles);
    expect(layerOf(world, 'layerTerrain').tiles[0]).toBe(65);
    expect(layerOf(world, 'layerWall').tiles).toEqual(wall.tiles);
  }, 60_000);

  test(`the round-trip suite and ${defaultIterations()} mutations of the fixture disk (only DecodeErrors)`, () => {
    expect(roundTripSuite(format, { samples: [fixture!] }).failures).toEqual([]);
    expect(fuzzSuite(format, { seeds: [fixture!] }).failures).toEqual([]);
  });
});

test("Ascii85 with Terrarum's alphabet round-trips any bytes, partial groups included", () => {
  for (let n = 0; n < 40; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 0xff);
    expect(ascii85Decode(ascii85Encode(bytes))).toEqual(bytes);
  }
  expect(ascii85Encode(Uint8Array.of(0, 0, 0, 0))).toBe('00000');
  expect(() => ascii85Decode('abc"e')).toThrow(/not in Terrarum's Ascii85 alphabet/);
});

describe("the design doc's save", () => {
  test('written by us: it decodes, verifies, and writes back the same files', () => {
    const tree = ourSaveTree();
    const result = decodeSave(tree);
    if (E.isLeft(result)) throw result.left;
    expect(result.right.warnings).toEqual([]);
    const save = result.right.value;
    expect(save.meta.name).toBe('Nimbus 0');
    expect(save.meta.hash4321).toEqual(hash4321([save.meta.crc1, save.meta.crc2, save.meta.crc3, save.meta.crc4]));
    expect(save.worldinfo2.rows).toEqual([
      ['id', 'drop', 'name'],
      ['1', '1', 'BLOCK_STONE'],
      ['2', '2', 'BLOCK_DIRT'],
    ]);
    expect(actorOf(save, '91A7E2')).toEqual({ referenceID: 9545698, actorValue: { name: 'Nimbus' } });
    const again = encodeSave(save);
    expect(E.isRight(again) && again.right).toEqual(tree);
  });

  test('one byte of worldinfo2 changed: "Save file corrupted", naming the entry; with continue, the document and a warning', () => {
    const tree = ourSaveTree();
    const changed = tree.get('worldinfo2')!.slice();
    // Byte 2 of the data is byte 8 of size ‖ data: one the TerranVirtualDisk CRC covers (every 4th).
    changed[2]! ^= 0x20;
    tree.set('worldinfo2', changed);
    const refused = decodeSave(tree);
    expect(E.isLeft(refused) && [refused.left.path, refused.left.message]).toEqual([
      ['worldinfo2'],
      expect.stringMatching(/^Save file corrupted: worldinfo2 \(CRC 0x[0-9a-f]{8}\) does not match the meta's crc2/),
    ]);
    const continued = decodeSave(tree, { checksums: 'warn' });
    if (E.isLeft(continued)) throw continued.left;
    // The changed byte ("id" became "iD") also makes the tile list differ from worldinfo2: its own warning.
    expect(continued.right.warnings.map((w) => [w.code, w.path])).toEqual([
      ['checksum-mismatch', ['worldinfo2']],
      ['list-mismatch', ['lists', 'Tiles_list.txt', 'rows', 0]],
    ]);
    const back = encodeSave(continued.right.value);
    expect(E.isRight(back) && back.right.get('worldinfo2')).toEqual(changed);
    expect(continued.right.value.meta.name).toBe('Nimbus 0');
  });

  test('as a TEVd disk too: the same checks; savekit verify works on the folder and on the disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'savekit-terrarum-'));
    try {
      const tree = ourSaveTree();
      const folder = join(dir, 'save1');
      for (const [path, bytes] of tree) {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), bytes);
      }
      const disk = encodeOrThrow(tevdDisk, treeToDisk(tree, { name: 'save1', time: 1_542_896_747 }));
      writeFileSync(join(dir, 'save1.tevd'), disk);
      for (const target of [folder, join(dir, 'save1.tevd')]) {
        const run = spawnSync(process.execPath, [cli, 'verify', target], { encoding: 'utf8' });
        expect({ target, status: run.status, out: run.stdout }).toEqual({
          target,
          status: 0,
          out: expect.stringMatching(/^ok .*\(terrarum, \d[\d,]* bytes\)/),
        }); // the CLI groups thousands with commas
      }
      // A disk whose save has a changed worldinfo2 is reported corrupted too.
      const broken = new Map(tree);
      const w2 = broken.get('worldinfo2')!.slice();
      w2[2]! ^= 1;
      broken.set('worldinfo2', w2);
      const badDisk = encodeOrThrow(tevdDisk, treeToDisk(broken));
      const result = format.decode(badDisk);
      expect(E.isLeft(result) && result.left.message).toMatch(/Save file corrupted.*worldinfo2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bad input', () => {
  const disk = (): TevdDisk => treeToDisk(ourSaveTree(), { name: 'save1' });
  const bytes = () => encodeOrThrow(tevdDisk, disk());

  test('truncated at every offset: a DecodeError', () => {
    const file = bytes();
    for (let cut = 0; cut < file.length; cut += 3) {
      const r = format.decode(file.subarray(0, cut));
      expect(E.isLeft(r) && r.left instanceof DecodeError).toBe(true);
    }
  });

  test('cut inside its magic (1–3 bytes): a short read at the magic of the kind it began as, not JSON that does not parse', () => {
    const cases: Array<[string, number[], ReadonlyArray<unknown>]> = [
      ['TEV', [0x54, 0x45, 0x56], ['disk', { annotation: 'magic' }]],
      ['TES', [0x54, 0x45, 0x53], ['meta', 'magic']],
      ['gzip', [0x1f], ['temd']],
    ];
    for (const [, head, path] of cases) {
      const r = format.decode(Uint8Array.from(head));
      if (E.isRight(r)) throw new Error('expected a refusal');
      expect([r.left.code, r.left.path, r.left.offset]).toEqual(['short-read', path, 0]);
    }
    // A JSON world stays a JSON world however short.
    const json = format.decode(Uint8Array.from([0x7b]));
    expect(E.isLeft(json) && json.left.path).toEqual(['world', 'text']);
  });

  test('an entry length past the end', () => {
    const file = bytes();
    // The first file entry's length (after the root directory entry) set to 2^40.
    const d = disk();
    const root = encodeOrThrow(tevdDisk, { ...d, entries: [d.entries[0]!] }).length - 14;
    const firstFileAt = [...d.entries].findIndex((e) => e.content.kind === 'file');
    void firstFileAt;
    const bad = file.slice();
    // Entries after the root: find the first type byte 1 at an entry boundary by re-walking.
    let at = 47;
    for (const e of d.entries) {
      const size =
        281 +
        (e.content.kind === 'file'
          ? 6 + e.content.data.length
          : 2 + 4 * (e.content.kind === 'directory' ? e.content.children.length : 0));
      if (e.content.kind === 'file') {
        bad.set([0x01, 0, 0, 0, 0, 0], at + 281);
        break;
      }
      at += size;
    }
    void root;
    const r = decode(tevdDisk, bad);
    expect(E.isLeft(r) && r.left.message).toMatch(/is more than the \d+ bytes left/);
  });

  test('entry names with ../ or absolute paths are refused: nothing outside the save', () => {
    for (const name of ['../evil', '/etc/passwd']) {
      const d = disk();
      const file = d.entries.find((e) => e.content.kind === 'file')!;
      const tree = new Map(ourSaveTree());
      tree.set(name.replace(/^\//, '').replace('../', 'x/'), new Uint8Array(1));
      // Our encoder refuses such a name: the hostile disk is ours with the name's bytes changed after
      // (entry CRCs cover the content, not the name).
      const marked: TevdDisk = {
        ...d,
        entries: d.entries.map((e) =>
          e === file ? { ...e, ...(name.split('/').pop() === 'evil' ? { name: 'Q\u00a7' } : {}) } : e,
        ),
      };
      expect(E.isLeft(encode(tevdDisk, { ...marked, entries: marked.entries.map((e) => (e === file ? e : e)) }))).toBe(
        false,
      );
      const bytes = encodeOrThrow(tevdDisk, marked);
      const at = bytes.findIndex((b, i) => b === 0x51 && bytes[i + 1] === 0xc2 && bytes[i + 2] === 0xa7);
      if (at >= 0) bytes.set([0x2e, 0x2e, 0], at);
      const r = format.decode(bytes);
      if (name === '../evil') expect(E.isLeft(r) && r.left.message).toMatch(/refused entry name/);
      const saveTree = new Map(ourSaveTree());
      saveTree.set(name, new Uint8Array(1));
      const s = decodeSave(saveTree);
      expect(E.isLeft(s) && s.left.message).toMatch(/refused entry name/);
    }
  });

  test("a gzip bomb in a world layer stops at the layer's size", () => {
    const { gzipSync } = require('fflate') as typeof import('fflate');
    const bomb = gzipSync(new Uint8Array(64 << 20), { level: 9 });
    const text = JSON.stringify({ layerTerrain: { h: '00', b: ascii85Encode(bomb), x: '16', y: '16' } });
    const r = decode(jsonWorld, new TextEncoder().encode(text));
    expect(E.isLeft(r) && r.left.message).toMatch(/passes the limit of 512 bytes/);
  });

  test('6-byte times beyond 2^48 cannot be written', () => {
    const save = ourSave();
    save.meta.created = 2 ** 48;
    expect(E.isLeft(encode(worldMeta, save.meta))).toBe(true);
    const d = disk();
    d.entries[0]!.created = 2 ** 48;
    const r = encode(tevdDisk, d);
    expect(E.isLeft(r) && r.left.message).toMatch(/does not fit 48 bits/);
  });

  test('__proto__ in actor JSON is a clear typed error', () => {
    const tree = ourSaveTree();
    tree.set('DEADBEEF', new TextEncoder().encode('{"__proto__":{"polluted":true}}'));
    const r = decodeSave(tree);
    expect(E.isLeft(r) && r.left.message).toMatch(/actor DEADBEEF: the key "__proto__" is refused/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('every-4th-byte CRC: the quirk, exactly', () => {
    expect(everyFourthByteCrc(Uint8Array.of(1, 2, 3, 4, 5))).toBe(
      require('@savekit/core').crc32.compute(Uint8Array.of(1, 5)),
    );
  });
});

describe('@savekit/terrarum/node: the backup rule', () => {
  const diskOf = (counter: number) => encodeOrThrow(tevdDisk, treeToDisk(ourSaveTree(counter), { name: 'save1' }));
  const nameOf = (loaded: LoadedSave) =>
    loaded.document.kind === 'disk' ? loaded.document.disk.entries.find((e) => e.name === 'world') : undefined;

  test('saving keeps the previous save as the backup; a corrupt or missing main save falls back to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'savekit-backup-'));
    try {
      const path = join(dir, 'save1.tevd');
      expect(backupPath(path)).toBe(join(dir, 'save1.backup.tevd'));
      saveFile(path, diskOf(1));
      saveFile(path, diskOf(2));
      const fresh = loadSaveFile(path);
      expect(E.isRight(fresh) && fresh.right.from).toBe('main');
      expect(readFileSync(backupPath(path))).toEqual(Buffer.from(diskOf(1)));
      // One byte of the main save flipped: its CRC fails, so the backup is used, saying why.
      const bad = diskOf(2);
      bad[bad.length - 20]! ^= 0xff;
      writeFileSync(path, bad);
      const fallback = loadSaveFile(path);
      if (E.isLeft(fallback)) throw fallback.left;
      expect(fallback.right.from).toBe('backup');
      expect(fallback.right.mainProblem).toMatch(/worldinfo5 is not UTF-8/); // the last file on the disk
      expect(nameOf(fallback.right)).toBeDefined();
      // Missing main save: the backup.
      rmSync(path);
      const missing = loadSaveFile(path);
      expect(E.isRight(missing) && missing.right.from).toBe('backup');
      // Neither: the main save's problem.
      rmSync(backupPath(path));
      const neither = loadSaveFile(path);
      expect(E.isLeft(neither) && neither.left.message).toMatch(/does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The disk of a disk document's bytes, decoded without its save. */
function decodedDisk(bytes: Uint8Array): TevdDisk {
  const disk = decode(tevdDisk, bytes);
  if (E.isLeft(disk)) throw disk.left;
  return disk.right.value;
}

/** A disk's document, decoded, with the save it holds (the tests edit it). */
function diskWithSave(bytes: Uint8Array): { kind: 'disk'; disk: TevdDisk; save: TerrarumSave } {
  const decoded = format.decode(bytes);
  if (E.isLeft(decoded)) throw decoded.left;
  const doc = decoded.right.value;
  if (doc.kind !== 'disk' || doc.save === undefined) throw new Error('expected a disk holding a save');
  return { ...doc, save: doc.save };
}

describe('a save on a disk is the same document as the save in a folder', () => {
  const diskBytes = () => encodeOrThrow(tevdDisk, treeToDisk(ourSaveTree(5), { name: 'save1', time: 1_600_000_000 }));

  test('decoding a disk gives the save decoded as from a folder; unchanged, it writes the same bytes', () => {
    const bytes = diskBytes();
    const decoded = format.decode(bytes);
    if (E.isLeft(decoded)) throw decoded.left;
    const doc = decoded.right.value;
    if (doc.kind !== 'disk' || doc.save === undefined) throw new Error('expected a disk holding a save');
    const fromFolder = decodeSave(ourSaveTree(5));
    if (E.isLeft(fromFolder)) throw fromFolder.left;
    expect(doc.save).toEqual(fromFolder.right.value);
    expect(format.encode(doc)).toEqual(E.right(bytes));
    // Through lossless JSON too.
    const json = format.json.encode(doc);
    const back = format.json.decode(JSON.parse(JSON.stringify(json)));
    if (E.isLeft(back)) throw new Error('JSON did not decode');
    expect(format.encode(back.right)).toEqual(E.right(bytes));
  });

  test('an edit to the save is written into the disk: checksums recomputed, other entries untouched, files added and removed', () => {
    const bytes = diskBytes();
    const doc = diskWithSave(bytes);
    const before = doc.disk;
    doc.save.meta.name = 'Renamed';
    doc.save.worldinfo2 = {
      rows: [
        ['id', 'drop', 'name'],
        ['1', '1', 'BLOCK_STONE'],
        ['3', '3', 'BLOCK_SAND'],
      ],
    };
    delete doc.save.files['tapestries/1'];
    doc.save.files['computers/0f1e2d3c'] = Uint8Array.of(9, 9, 9);
    const written = format.encode(doc);
    if (E.isLeft(written)) throw written.left;
    // Decodes strictly: every CRC, the hash and the disk CRC are right.
    const again = format.decode(written.right);
    if (E.isLeft(again)) throw again.left;
    const after = again.right.value;
    if (after.kind !== 'disk' || after.save === undefined) throw new Error('expected a disk holding a save');
    expect(after.save.meta.name).toBe('Renamed');
    expect(after.save.worldinfo2.rows[2]).toEqual(['3', '3', 'BLOCK_SAND']);
    // The save holds the files' bytes; the disk's entries name them.
    expect(Object.hasOwn(after.save.files, 'tapestries/1')).toBe(false);
    expect(after.save.files['computers/0f1e2d3c']).toEqual(Uint8Array.of(9, 9, 9));
    const tree = diskToTree(after.disk);
    expect([tree.has('tapestries/1'), tree.has('computers/0f1e2d3c')]).toEqual([false, true]);
    // Files the edit did not touch keep their entries exactly (ids, times).
    const untouched = (d: TevdDisk) => d.entries.find((e) => e.name === 'worldinfo3');
    expect(untouched(after.disk)).toEqual(untouched(before));
    expect(after.disk.entries.find((e) => e.name === 'worldinfo2')!.id).toBe(
      before.entries.find((e) => e.name === 'worldinfo2')!.id,
    );
  });

  test("a save file renamed or moved on the disk is refused at the entry, not silently put back; the save's own renames are written", () => {
    const bytes = diskBytes();
    const k = diskWithSave(bytes).disk.entries.findIndex((e) => e.name === 'worldinfo2');
    // Decoding marks each file with its path in the save.
    expect(diskWithSave(bytes).disk.entries[k]!.content).toEqual({
      kind: 'file',
      data: new Uint8Array(0),
      inSave: 'worldinfo2',
    });
    const renamed = diskWithSave(bytes);
    renamed.disk.entries[k] = { ...renamed.disk.entries[k]!, name: 'worldinfo9' };
    const refused = format.encode(renamed);
    if (E.isRight(refused)) throw new Error('expected the rename to be refused');
    expect(refused.left).toBeInstanceOf(EncodeError);
    expect(refused.left.path).toEqual(['disk', 'entries', k, 'name']);
    expect(refused.left.message).toMatch(/the save's file "worldinfo2" \(marked inSave\), now at "worldinfo9"/);
    // Moved into a directory: refused at the entry.
    const moved = diskWithSave(bytes);
    const dir = moved.disk.entries.find((e) => e.content.kind === 'directory' && e.id !== '0')!;
    moved.disk.entries[k] = { ...moved.disk.entries[k]!, parent: dir.id };
    const movedRefused = format.encode(moved);
    expect(E.isLeft(movedRefused) && movedRefused.left.path).toEqual(['disk', 'entries', k]);
    // Through the JSON form too (the marker is kept there).
    const json = JSON.parse(JSON.stringify(format.json.encode(renamed)));
    const back = format.json.decode(json);
    if (E.isLeft(back)) throw new Error('JSON did not decode');
    expect(E.isLeft(format.encode(back.right))).toBe(true);
    // Renaming a file of the save in the save moves its entry; the disk follows.
    const inSave = diskWithSave(bytes);
    inSave.save.files['tapestries/9'] = inSave.save.files['tapestries/1']!;
    delete inSave.save.files['tapestries/1'];
    const written = format.encode(inSave);
    if (E.isLeft(written)) throw written.left;
    const tree = diskToTree(decodedDisk(written.right as Uint8Array));
    expect([tree.has('tapestries/1'), tree.has('tapestries/9')]).toEqual([false, true]);
    // A document of savekit 0.1 (inSave: true, no path) still writes as it did.
    const legacy = diskWithSave(bytes);
    legacy.disk.entries = legacy.disk.entries.map((e) =>
      e.content.kind === 'file' ? { ...e, content: { ...e.content, inSave: true as const } } : e,
    );
    expect(format.encode(legacy)).toEqual(E.right(bytes));
  });

  test("a disk-side edit the save would undo is refused at the entry: bytes for a save's file, a file the save lacks", () => {
    const bytes = diskBytes();
    const refusal = (edit: (doc: ReturnType<typeof diskWithSave>) => void) => {
      const doc = diskWithSave(bytes);
      edit(doc);
      const result = format.encode(doc);
      if (E.isRight(result)) throw new Error('expected a refusal');
      return result.left;
    };
    const at = (doc: ReturnType<typeof diskWithSave>, name: string) =>
      doc.disk.entries.findIndex((e) => e.name === name);
    const k = at(diskWithSave(bytes), 'worldinfo2');
    const mod = new TextEncoder().encode('other bytes');
    // Bytes put in an entry of the save's (marked inSave, or made a file of its own).
    const inSave = refusal((doc) => {
      doc.disk.entries[k] = { ...doc.disk.entries[k]!, content: { kind: 'file', data: mod, inSave: 'worldinfo2' } };
    });
    expect([inSave.path, inSave.message]).toEqual([
      ['disk', 'entries', k, 'content', 'data'],
      expect.stringMatching(/the save's file "worldinfo2" \(marked inSave\): its bytes are the save's/),
    ]);
    const own = refusal((doc) => {
      doc.disk.entries[k] = { ...doc.disk.entries[k]!, content: { kind: 'file', data: mod } };
    });
    expect([own.path, own.message]).toEqual([
      ['disk', 'entries', k, 'content', 'data'],
      expect.stringMatching(/holds other bytes than the save's file "worldinfo2"/),
    ]);
    // A file added on the disk alone.
    const added = refusal((doc) => {
      const root = doc.disk.entries.find((e) => e.id === '0')!;
      doc.disk.entries.push({
        ...doc.disk.entries[k]!,
        id: '999',
        name: 'notes.txt',
        content: { kind: 'file', data: mod },
      });
      if (root.content.kind === 'directory')
        root.content = { kind: 'directory', children: [...root.content.children, '999'] };
    });
    expect([added.path, added.message]).toEqual([
      ['disk', 'entries', diskWithSave(bytes).disk.entries.length],
      expect.stringMatching(/a file the save does not have \("notes.txt"\).*add it to the save/),
    ]);
    // Its own bytes equal to the save's: nothing lost, written as before.
    const same = diskWithSave(bytes);
    const tree = diskToTree(decodedDisk(bytes));
    same.disk.entries[k] = { ...same.disk.entries[k]!, content: { kind: 'file', data: tree.get('worldinfo2')! } };
    expect(format.encode(same)).toEqual(E.right(bytes));
  });

  test('a save file that cannot be written is an EncodeError, not a crash', () => {
    const doc = diskWithSave(diskBytes());
    doc.save.meta.created = 2 ** 48;
    const written = format.encode(doc);
    expect(E.isLeft(written) && written.left).toBeInstanceOf(EncodeError);
  });
});

test('a file added to a save on a disk under a path that would leave the save is refused on write', () => {
  const bytes = encodeOrThrow(tevdDisk, treeToDisk(ourSaveTree(1), { name: 'save1' }));
  const doc = diskWithSave(bytes);
  for (const name of ['../evil', '/etc/passwd', 'a//b']) {
    doc.save.files = { [name]: Uint8Array.of(1) };
    const written = format.encode(doc);
    expect(E.isLeft(written) && written.left.message).toMatch(/refused (entry name|path)/);
  }
  // updateDiskFromTree refuses such paths itself too.
  expect(() =>
    updateDiskFromTree(treeToDisk(new Map([['a', Uint8Array.of(1)]])), new Map([['../x', Uint8Array.of(1)]])),
  ).toThrow(/refused entry name/);
});

test('updateDiskFromTree: directories whose parents loop do not hang it; new files go under existing or new directories', () => {
  const disk = treeToDisk(new Map([['d/e/a', Uint8Array.of(1)]]), { time: 5 });
  // d (1) and e (2) made parents of each other: a hostile disk's directory chain that never reaches the root.
  const looped: TevdDisk = { ...disk, entries: disk.entries.map((e) => (e.id === '1' ? { ...e, parent: '2' } : e)) };
  // The tree kept as it is, and one file added at `path`.
  const adding = (base: TevdDisk, path: string, data: Uint8Array) =>
    updateDiskFromTree(
      base,
      new Map([
        ['d/e/a', Uint8Array.of(1)],
        [path, data],
      ]),
      { time: 9 },
    );
  const updated = adding(looped, 'x/y/b', Uint8Array.of(2));
  const names = updated.entries.map((e) => [e.id, e.parent, e.name]);
  expect(names.slice(-3)).toEqual([
    ['4', '0', 'x'],
    ['5', '4', 'y'],
    ['6', '5', 'b'],
  ]);
  expect(diskToTree(updated).get('x/y/b')).toEqual(Uint8Array.of(2));
  // An added file under a directory the disk already has joins it.
  const joined = adding(disk, 'd/c', Uint8Array.of(3));
  expect(joined.entries.find((e) => e.name === 'c')!.parent).toBe('1');
  expect(joined.entries.filter((e) => e.content.kind === 'directory')).toHaveLength(3);
});

test('a 100,000-deep path makes its directories without a stack overflow', () => {
  const path = `${Array.from({ length: 100_000 }, (_, i) => `d${i}`).join('/')}/f`;
  const disk = treeToDisk(new Map([[path, Uint8Array.of(7)]]));
  expect(disk.entries).toHaveLength(100_002);
  const updated = updateDiskFromTree(
    treeToDisk(new Map([['a', Uint8Array.of(1)]])),
    new Map([
      ['a', Uint8Array.of(1)],
      [path, Uint8Array.of(7)],
    ]),
  );
  expect(updated.entries).toHaveLength(100_003); // root, a, 100,000 directories, f
});
