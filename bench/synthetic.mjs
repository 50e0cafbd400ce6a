// Synthetic saves shared outside the benchmark: the studio's browser test opens the same ~50 MB
// Terrarum world the `saves` case measures (kept out of cases/, whose every file is a benchmark case).
import { encode } from '@savekit/core';
import { encodeSave, PLAYER_REF_ID, parseCsv, temdFile, tevdDisk, treeToDisk } from '@savekit/terrarum';
import { prng } from './data.mjs';
import { must } from './either.mjs';

/**
 * The bytes of a synthetic Terrarum save: a world of `side × side` tiles (uncompressed TEMD layers,
 * ~5 bytes a tile, so 3,200 × 3,200 tiles ≈ 51 MB) in a save on a TEVd disk.
 */
export function terrarumSynthetic(side) {
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
    // An actor file is its JSON value (written back compact, as the game writes it).
    actors: { '91A7E2': { value: { referenceID: 9545698 } } },
    files: {},
  };
  return must(encode(tevdDisk, treeToDisk(must(encodeSave(save)), { name: 'save1' })));
}
