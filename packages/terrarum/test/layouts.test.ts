// The other layouts: TEVd 2023 and TVDA disks (synthetic: no public file), TEMD worlds in both byte
// orders, gzipped or not — each written, read back, and checked against what the spec says.
import * as E from 'fp-ts/lib/Either';
import { bytes, crc32, decode, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import { arbitrary } from '@savekit/testkit';
import fc from 'fast-check';
import {
  diskCrc,
  everyFourthByteCrc,
  format,
  fullCrc,
  temdFile,
  tevdDisk,
  treeToDisk,
  worldOf,
  type TemdWorld,
  type TevdDisk,
} from '@savekit/terrarum';
import { gzipSync } from 'fflate';
import { ourSave } from './save-fixture';

function tvda(): TevdDisk {
  const player = new TextEncoder().encode(
    '{"genver":1,"class":"net.torvald.terrarum.modulebasegame.gameactors.IngamePlayer"}',
  );
  return {
    layout: 'tvda',
    version: 254,
    capacity: 0,
    name: 'A player whose name is longer than thirty-two bytes, in UTF-8: Ünïcödé',
    attributes: Uint8Array.of(0xfe, 0, 0, 1, 0, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    entries: [
      {
        id: '0',
        parent: '0',
        type: 2,
        created: 1_700_000_000,
        modified: 1_700_000_000,
        content: { kind: 'directory', children: ['-1', '-4'] },
      },
      {
        id: '-1',
        parent: '0',
        type: 1,
        created: 1_700_000_000,
        modified: 1_700_000_100,
        content: { kind: 'file', data: player },
      },
      {
        id: '-4',
        parent: '0',
        type: 1,
        created: 1_700_000_000,
        modified: 1_700_000_000,
        content: { kind: 'file', data: new TextEncoder().encode('basegame\n') },
      },
    ],
  };
}

test('TVDA (version 254): a 300-byte header with the long name split, 64-bit ids, full-byte entry CRCs', () => {
  const disk = tvda();
  const bytes = encodeOrThrow(tevdDisk, disk);
  expect([bytes[46], bytes[47]]).toEqual([254, 0xfe]);
  const back = decodeOrThrow(tevdDisk, bytes);
  expect(back).toEqual(disk);
  // Entry 2 (id −1): its CRC covers every byte of u48 length ‖ data.
  const entryAt = 300 + 36 + 4 + 2 * 8; // after the root entry (36 + count + 2 ids)
  const stored = new DataView(bytes.buffer).getUint32(entryAt + 32, false);
  const data = (disk.entries[1]!.content as { data: Uint8Array }).data;
  const framed = Uint8Array.from([0, 0, 0, 0, 0, data.length, ...data]);
  expect(stored).toBe(crc32.compute(framed));
  // The disk CRC keeps the low-byte quirk.
  const crcs = [0, 1, 2].map((k) =>
    new DataView(bytes.buffer).getUint32([300, entryAt, entryAt + 36 + 6 + data.length][k]! + 32, false),
  );
  expect(new DataView(bytes.buffer).getUint32(42, false)).toBe(diskCrc(crcs));
  expect(format.sniff(bytes)).toBeGreaterThan(0.9);
});

test('TEVd 2023 (spec 3, 64-byte header, no footer) round-trips; a changed byte fails its entry CRC', () => {
  const disk2017 = treeToDisk(new Map([['a.txt', new TextEncoder().encode('hello world!')]]), {
    name: 'DOS',
    time: 1_677_888_000,
  });
  const disk: TevdDisk = {
    ...disk2017,
    layout: 'tevd-2023',
    attributes: new Uint8Array(17).fill(0).map((_, i) => (i === 0 ? 1 : i)),
  };
  const bytes = encodeOrThrow(tevdDisk, disk);
  expect(decodeOrThrow(tevdDisk, bytes)).toEqual(disk);
  const bad = bytes.slice();
  // The entry's content is u48 length ‖ "hello world!"; data[2] sits at content offset 8, one of
  // the every-4th bytes the quirky CRC covers (data[0], at offset 6, is not covered).
  bad[bad.length - 10]! ^= 1;
  const result = decode(tevdDisk, bad);
  expect(E.isLeft(result) && [result.left.path.slice(0, 3), result.left.message]).toEqual([
    ['entries', 1, 'content'],
    expect.stringMatching(/^entry CRC mismatch: stored 0x[0-9a-f]{8}, computed/),
  ]);
});

test('the disk writer sizes its output exactly in every layout (one buffer, handed over without a copy)', () => {
  const tree = new Map([
    ['a.txt', new TextEncoder().encode('hello world!')],
    ['dir/b.bin', new Uint8Array(1000).fill(7)],
    ['dir/sub/c', new Uint8Array(0)],
  ]);
  const disk2017 = treeToDisk(tree, { name: 'sizes', time: 1_677_888_000 });
  const disks: TevdDisk[] = [
    disk2017,
    { ...disk2017, layout: 'tevd-2023', attributes: new Uint8Array(17) },
    {
      ...disk2017,
      entries: [
        ...disk2017.entries,
        {
          id: '99',
          parent: '0',
          type: 3,
          name: 'link',
          created: 0,
          modified: 0,
          content: { kind: 'symlink', target: '1' },
        },
        {
          id: '98',
          parent: '0',
          type: 0x11,
          name: 'packed',
          created: 0,
          modified: 0,
          content: { kind: 'compressed', data: Uint8Array.of(1, 2, 3), originalLength: 9 },
        },
      ],
    },
    tvda(),
  ];
  for (const disk of disks) {
    const bytes = encodeOrThrow(tevdDisk, disk);
    // The writer's buffer itself: the precomputed size matched what was written, byte for byte.
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(encodeOrThrow(tevdDisk, decodeOrThrow(tevdDisk, bytes))).toEqual(bytes);
  }
});

function world(width: number, height: number, byteOrder: 'le' | 'be', layers = 4): TemdWorld {
  const n = width * height;
  return {
    byteOrder,
    bytesPerTile: 1,
    layerCount: layers,
    reserved: 0,
    width,
    height,
    spawnX: 3,
    spawnY: 1,
    terrain: Uint16Array.from({ length: n }, (_, i) => (i * 37) & 0xfff),
    wall: Uint16Array.from({ length: n }, (_, i) => (i * 91 + 5) & 0xfff),
    ...(layers === 4 ? { wire: Uint8Array.from({ length: n }, (_, i) => i & 0xff) } : {}),
  };
}

test('TEMD: high bytes, then low nibbles two to a byte (even x high), little- or big-endian, gzipped or not', () => {
  const w = world(4, 2, 'le');
  const raw = encodeOrThrow(temdFile, { gzip: false, world: w });
  expect(raw.length).toBe(24 + 8 * 2 + 8 + 8);
  // Tile 0 = 0 (high 0x00), tile 1 = 37 = 0x025: high 0x02, low nibble 5 in the low half of the first nibble byte.
  expect([raw[24], raw[25]]).toEqual([0x00, 0x02]);
  expect(raw[24 + 16]).toBe(0x05);
  expect(decodeOrThrow(temdFile, raw)).toEqual({ gzip: false, world: w });
  const be = encodeOrThrow(temdFile, { gzip: false, world: world(6, 4, 'be', 3) });
  expect([...be.subarray(8, 12)]).toEqual([0, 0, 0, 6]);
  expect(decodeOrThrow(temdFile, be)).toEqual({ gzip: false, world: world(6, 4, 'be', 3) });
  // The game's gzip bytes are kept while the world is unchanged.
  const theirs = gzipSync(raw, { level: 1, mtime: 0 });
  const decoded = decodeOrThrow(temdFile, theirs);
  expect(decoded.gzip && decoded.world.value).toEqual(w);
  expect(encodeOrThrow(temdFile, decoded)).toEqual(theirs);
  const asDocument = format.decode(theirs);
  if (E.isLeft(asDocument)) throw asDocument.left;
  expect(format.summary!(asDocument.right.value)[0]).toMatch(/TEMD world 4×2 \(little-endian, gzipped\)/);
});

test('TEMD bad input: a size that does not fill the file, too many layers, a gzip bomb', () => {
  const raw = encodeOrThrow(temdFile, { gzip: false, world: world(4, 2, 'le') });
  expect(E.isLeft(decode(temdFile, raw.subarray(0, raw.length - 1)))).toBe(true);
  const layers = raw.slice();
  layers[5] = 9;
  expect(E.isLeft(decode(temdFile, layers))).toBe(true);
  const bomb = gzipSync(new Uint8Array(32 << 20));
  const r = decode(temdFile, bomb, { maxTransformOutput: 1 << 20 });
  expect(E.isLeft(r) && r.left.message).toMatch(/passes the limit|over the limit/);
});

test("a save's worldinfo1 read as TEMD", () => {
  const save = ourSave();
  save.worldinfo1 = encodeOrThrow(temdFile, { gzip: false, world: world(4, 2, 'le') });
  const temd = worldOf(save);
  expect(E.isRight(temd) && !temd.right.gzip && temd.right.world.width).toBe(4);
  expect(E.isLeft(worldOf(ourSave()))).toBe(true); // our fixture's worldinfo1 is not a TEMD
});

test("fieldMap: a disk's header fields and each entry (header and content) have byte spans, under the document's paths", () => {
  const bytes = encodeOrThrow(
    tevdDisk,
    treeToDisk(new Map([['a.txt', new TextEncoder().encode('hello')]]), { name: 'DOS', time: 1 }),
  );
  const spans = format.fieldMap!(bytes);
  const find = (path: string) => spans.find((s) => s.path.join('.') === path);
  expect(find('disk.capacity')).toMatchObject({ start: 4, end: 10 });
  expect(find('disk.entries.1')).toMatchObject({ start: 47 + 281 + 2 + 4, end: 47 + 281 + 2 + 4 + 281 + 6 + 5 });
  expect(find('disk.entries.1.name')).toMatchObject({ start: 47 + 281 + 2 + 4 + 9, end: 47 + 281 + 2 + 4 + 9 + 256 });
  // The content's span starts at the CRC that closes the header: the CRC covers (and is checked with) it.
  expect(find('disk.entries.1.content')).toMatchObject({
    start: 47 + 281 + 2 + 4 + 277,
    end: 47 + 281 + 2 + 4 + 281 + 6 + 5,
  });
});

test('CRCs over two parts equal the CRCs over their concatenation (every-4th-byte and full)', () => {
  fc.assert(
    fc.property(
      arbitrary(bytes('rest'), { maxLength: 10 }),
      arbitrary(bytes('rest'), { maxLength: 50 }),
      (head, data) => {
        const joined = Uint8Array.from([...head, ...data]);
        // The reference: bytes 0, 4, 8, … of the joined content, picked by hand.
        const everyFourth = crc32.compute(joined.filter((_, i) => i % 4 === 0));
        expect(everyFourthByteCrc(joined)).toBe(everyFourth);
        expect(everyFourthByteCrc(data, head)).toBe(everyFourth);
        expect(fullCrc(data, fullCrc(head))).toBe(fullCrc(joined));
        expect(fullCrc(joined)).toBe(crc32.compute(joined));
      },
    ),
    { numRuns: 500 },
  );
  // Content past one 64 KiB block of picked bytes (the CRC is taken block by block).
  const big = Uint8Array.from({ length: 1_000_003 }, (_, i) => (i * 2654435761) >>> 24);
  expect(everyFourthByteCrc(big.subarray(3), big.subarray(0, 3))).toBe(
    crc32.compute(big.filter((_, i) => i % 4 === 0)),
  );
});
