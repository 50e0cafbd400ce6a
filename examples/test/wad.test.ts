// The WAD example plugin: real-shaped WADs built here byte by byte (an empty one, lumps shared by two
// entries, overlapping lumps, bytes no entry names, the directory before and after the lumps, empty
// marker lumps at 0 and at the very end), each decoded and encoded back byte for byte, and the
// conformance kit's round-trip, fuzz and encode suites on them.
import * as E from 'fp-ts/lib/Either';
import { decode, encode, pathAnnotation } from '@savekit/core';
import { defaultIterations, encodeSuite, fuzzSuite, hostileInputs, roundTripSuite } from '@savekit/testkit';
import { format, wadFile, type WadFile } from '../src/wad';

interface Lump {
  readonly name: string;
  readonly filepos: number;
  readonly size: number;
}

/** A WAD image: the header, the directory at `dirAt`, and `regions` (lump data, gap bytes) placed as given. */
function wad(
  identification: 'IWAD' | 'PWAD',
  dirAt: number,
  entries: ReadonlyArray<Lump>,
  regions: ReadonlyArray<{ at: number; bytes: number[] }>,
): Uint8Array {
  let length = Math.max(12, dirAt + 16 * entries.length);
  for (const r of regions) length = Math.max(length, r.at + r.bytes.length);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = identification.charCodeAt(i);
  view.setInt32(4, entries.length, true);
  view.setInt32(8, dirAt, true);
  entries.forEach((e, i) => {
    const at = dirAt + 16 * i;
    view.setInt32(at, e.filepos, true);
    view.setInt32(at + 4, e.size, true);
    for (let k = 0; k < e.name.length; k++) out[at + 8 + k] = e.name.charCodeAt(k);
  });
  for (const r of regions) out.set(r.bytes, r.at);
  return out;
}

const ramp = (from: number, count: number) => Array.from({ length: count }, (_, i) => (from + i) & 0xff);

const samples = {
  empty: wad('PWAD', 12, [], []),
  // Directory first, lumps after it; an empty marker lump at 0 and one at the very end of the file.
  directoryFirst: wad(
    'IWAD',
    12,
    [
      { name: 'S_START', filepos: 0, size: 0 },
      { name: 'PLAYPAL', filepos: 76, size: 6 },
      { name: 'COLORMAP', filepos: 82, size: 4 },
      { name: 'S_END', filepos: 86, size: 0 },
    ],
    [{ at: 76, bytes: ramp(1, 10) }],
  ),
  // Lumps first, the directory at the end.
  directoryLast: wad(
    'PWAD',
    24,
    [
      { name: 'MAP01', filepos: 12, size: 0 },
      { name: 'THINGS', filepos: 12, size: 12 },
    ],
    [{ at: 12, bytes: ramp(0x40, 12) }],
  ),
  // Two entries naming the same lump (a shared texture), and one lump inside another.
  sharedAndOverlapping: wad(
    'PWAD',
    40,
    [
      { name: 'FLOOR1', filepos: 12, size: 8 },
      { name: 'FLOOR2', filepos: 12, size: 8 },
      { name: 'INNER', filepos: 16, size: 8 },
      { name: 'TAIL', filepos: 20, size: 20 },
    ],
    [{ at: 12, bytes: ramp(0x80, 28) }],
  ),
  // Bytes no entry names: between the header and the first lump, between lumps, after the directory;
  // a full 8-character name and a name with bytes after its NUL.
  gaps: wad(
    'PWAD',
    40,
    [
      { name: 'E1M1', filepos: 16, size: 4 },
      { name: 'DEMOLUMP', filepos: 28, size: 8 },
      { name: 'X\0junk', filepos: 36, size: 4 },
    ],
    [
      { at: 12, bytes: [0xde, 0xad, 0xbe, 0xef] },
      { at: 16, bytes: [1, 2, 3, 4] },
      { at: 20, bytes: ramp(0xa0, 8) },
      { at: 28, bytes: ramp(0x10, 12) },
      { at: 88, bytes: [0x55, 0x66, 0x77] },
    ],
  ),
};
const all = Object.values(samples);

function decoded(bytes: Uint8Array): WadFile {
  const result = format.decode(bytes);
  if (E.isLeft(result)) throw new Error(result.left.toString());
  return result.right.value;
}

function encoded(doc: WadFile): Uint8Array {
  const result = format.encode(doc);
  if (E.isLeft(result)) throw new Error(result.left.toString());
  return result.right as Uint8Array;
}

describe('the WAD example format', () => {
  test.each(Object.entries(samples))('%s decodes and encodes back byte for byte', (_name, bytes) => {
    const doc = decoded(bytes);
    expect(encoded(doc)).toEqual(bytes);
    // And through JSON, as `savekit dump` then `build` would.
    const back = format.json.decode(JSON.parse(JSON.stringify(format.json.encode(doc))));
    expect(E.isRight(back) && encoded(back.right)).toEqual(bytes);
  });

  test('an empty WAD: no lumps, the empty directory at the very end of the file', () => {
    const doc = decoded(samples.empty);
    expect(doc.root).toEqual({ identification: 'PWAD', numlumps: 0, directory: { at: 12, target: [] } });
    expect(doc.unclaimed).toEqual([]);
  });

  test('shared lumps keep one offset; overlapping lumps their own; gap bytes are kept where they were', () => {
    const shared = decoded(samples.sharedAndOverlapping).root.directory.target;
    expect(shared.map((e) => [e.name, e.lump.at, e.size])).toEqual([
      ['FLOOR1', 12, 8],
      ['FLOOR2', 12, 8],
      ['INNER', 16, 8],
      ['TAIL', 20, 20],
    ]);
    expect(shared[2]!.lump.target).toEqual(Uint8Array.from(ramp(0x84, 8)));
    const gaps = decoded(samples.gaps);
    expect(gaps.unclaimed.map((u) => [u.at, u.bytes.length])).toEqual([
      [12, 4],
      [20, 8],
      [88, 3],
    ]);
    expect(gaps.root.directory.target[2]!.name).toEqual({
      text: 'X',
      tail: Uint8Array.of(0, 0x6a, 0x75, 0x6e, 0x6b, 0, 0),
    });
  });

  test('a grown lump moves to the end; the others and the directory stay, and the result decodes', () => {
    const doc = decoded(samples.directoryFirst);
    const playpal = doc.root.directory.target[1]!;
    playpal.size = 300;
    playpal.lump.target = Uint8Array.from(ramp(7, 300));
    const bytes = encoded(doc);
    const again = decoded(bytes).root.directory.target;
    expect(again[1]!.lump.at).toBe(samples.directoryFirst.length); // appended
    expect(again[2]!.lump.at).toBe(82); // COLORMAP stayed
    expect(again[1]!.lump.target).toEqual(playpal.lump.target);
  });

  test('a directory entry that is wrong is a DecodeError with its path and file offset', () => {
    const negativeCount = samples.empty.slice();
    new DataView(negativeCount.buffer).setInt32(4, -1, true);
    const count = decode(wadFile, negativeCount);
    expect(E.isLeft(count) && [count.left.name, count.left.path, count.left.message]).toEqual([
      'DecodeError',
      ['root', 'directory'],
      'cannot choose the codec of this field: array: a count must be a non-negative integer, got -1',
    ]);
    const negativeSize = samples.directoryFirst.slice();
    new DataView(negativeSize.buffer).setInt32(12 + 16 + 4, -5, true);
    const size = decode(wadFile, negativeSize);
    expect(E.isLeft(size) && [size.left.path, size.left.offset]).toEqual([
      ['root', 'directory', 'target', pathAnnotation('@12'), 1, 'lump'],
      28,
    ]);
    const pastTheEnd = samples.directoryFirst.slice();
    new DataView(pastTheEnd.buffer).setInt32(12 + 16 * 3, 87, true); // S_END one past the end
    const outside = decode(wadFile, pastTheEnd);
    expect(E.isLeft(outside) && outside.left.message).toBe('pointer to 87 is outside the arena (86 bytes)');
  });

  test('an edited size that disagrees with its lump is an EncodeError at the lump, at its file offset', () => {
    const doc = decoded(samples.directoryFirst);
    doc.root.directory.target[2]!.size = 3; // COLORMAP's 4 bytes at file offset 82
    const result = encode(wadFile, doc);
    expect(E.isLeft(result) && [result.left.path, result.left.offset]).toEqual([
      ['root', 'directory', 'target', pathAnnotation('@12'), 2, 'lump', 'target', pathAnnotation('@82')],
      82,
    ]);
  });

  test('sniff: IWAD and PWAD of at least 12 bytes, nothing else', () => {
    for (const bytes of all) expect(format.sniff(bytes)).toBeGreaterThan(0.5);
    expect(format.sniff(new TextEncoder().encode('PWAD'))).toBe(0);
    expect(format.sniff(new TextEncoder().encode('XWAD\0\0\0\0\x0c\0\0\0'))).toBe(0);
    expect(format.sniff(new Map())).toBe(0);
    expect(format.summary?.(decoded(samples.directoryFirst))).toEqual([
      'IWAD, 4 lumps',
      'first lumps: S_START, PLAYPAL, COLORMAP, S_END',
    ]);
  });

  test('the conformance kit: round-trip suite on the samples and 1,000 documents derived from the codec', () => {
    const report = roundTripSuite(format, { samples: all, codec: format.codec, arbitraryOptions: { maxLength: 4 } });
    expect(report.failures).toEqual([]);
  });

  test(`the conformance kit: fuzz suite (${defaultIterations()} mutations), hostile sizes spliced in`, () => {
    const report = fuzzSuite(format, { seeds: all });
    expect(report.failures).toEqual([]);
    // Every 4-byte size claim of the kit as numlumps, infotableofs, a filepos and a size: a
    // DecodeError, or (a claim that happens to be a valid offset) a WAD that encodes back the same.
    let refused = 0;
    for (const claim of hostileInputs.sizeClaims.filter((c) => c.bytes.length === 4)) {
      for (const at of [4, 8, 12, 16]) {
        const bytes = samples.directoryFirst.slice();
        bytes.set(claim.bytes, at);
        const result = format.decode(bytes);
        if (E.isLeft(result)) {
          expect(result.left.name).toBe('DecodeError');
          refused++;
        } else expect(encoded(result.right.value)).toEqual(bytes);
      }
    }
    expect(refused).toBeGreaterThan(30);
  });

  test('the conformance kit: encode suite (edited documents encode to what they decode to, or are refused)', () => {
    // A target's `at` says where it was found, and the layout moves targets that no longer fit there
    // (or lost their `at`): an edited document decodes to one that encodes to the same bytes again.
    const report = encodeSuite(format, { samples: all, check: 'fixed-point' });
    expect(report.failures).toEqual([]);
    expect(report.encoded).toBeGreaterThan(0);
  });
});
