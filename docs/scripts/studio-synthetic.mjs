// The studio's large save: a Terrarum world of `side × side` tiles on a TEVd disk, made the way the
// benchmark's synthetic Terrarum save is (bench/cases/saves.mjs): uncompressed TEMD layers, so the
// file is ~5 bytes a tile (3,200 × 3,200 tiles ≈ 51 MB).
import { encode } from '@savekit/core';
import { encodeSave, PLAYER_REF_ID, parseCsv, temdFile, tevdDisk, treeToDisk } from '@savekit/terrarum';
import { prng } from '@savekit/testkit';

function must(result) {
  if (result._tag === 'Left') throw result.left;
  return result.right;
}

/** The bytes of a synthetic Terrarum save of `side × side` tiles. */
export function syntheticTerrarum(side) {
  const n = side * side;
  const random = prng(13);
  const world = {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 4,
    reserved: 0,
    width: side,
    height: side,
    spawnX: side >> 1,
    spawnY: 10,
    terrain: Uint16Array.from({ length: n }, (_, i) =>
      i % 11 === 0 ? Math.floor(random() * 4096) : (i / side) & 0xfff,
    ),
    wall: Uint16Array.from({ length: n }, (_, i) => (i / side) & 0xff),
    wire: new Uint8Array(n),
  };
  const save = {
    meta: {
      magic: 'TESV',
      name: 'big world',
      terrainSeed: 1n,
      randomiserSeed: 2n,
      crc1: 0,
      crc2: 0,
      crc3: 0,
      crc4: 0,
      hash4321: new Uint8Array(32),
      refid: PLAYER_REF_ID,
      timeT: 0n,
      created: 1,
      lastPlayed: 2,
      playTime: 3,
    },
    worldinfo1: must(encode(temdFile, { gzip: false, world })),
    worldinfo2: parseCsv('"id";"name"\n"1";"BLOCK_STONE"\n'),
    worldinfo3: { rows: [] },
    worldinfo4: { rows: [] },
    worldinfo5: 'basegame\n',
    actors: { '91A7E2': '{"referenceID":9545698}' },
    files: {},
  };
  return must(encode(tevdDisk, treeToDisk(must(encodeSave(save)), { name: 'save1' })));
}
