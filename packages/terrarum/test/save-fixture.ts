// A save directory written by us, as the design doc lays it out.
import * as E from 'fp-ts/lib/Either';
import { encodeSave, parseCsv, PLAYER_REF_ID, type TerrarumSave } from '@savekit/terrarum';

export function ourSave(counter = 0): TerrarumSave {
  return {
    meta: {
      magic: 'TESV',
      name: `Nimbus ${counter}`,
      terrainSeed: 0x1234_5678_9abcn,
      randomiserSeed: -42n,
      crc1: 0,
      crc2: 0,
      crc3: 0,
      crc4: 0,
      hash4321: new Uint8Array(32),
      refid: PLAYER_REF_ID,
      timeT: 86400n * 3n,
      created: 1_542_896_747,
      lastPlayed: 1_542_900_000 + counter,
      playTime: 3600 + counter,
    },
    worldinfo1: Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff),
    worldinfo2: parseCsv('"id";"drop";"name"\n"1";"1";"BLOCK_STONE"\n"2";"2";"BLOCK_DIRT"\n'),
    worldinfo3: parseCsv('"id";"classname"\n"8448";"net.torvald.terrarum.itemproperties.Pickaxe"\n'),
    worldinfo4: parseCsv('"idst";"dsty";"comments"\n"ROCK";"2400";"stone"\n'),
    worldinfo5: '# load order\nbasegame\n',
    actors: {
      '91A7E2': { value: { referenceID: 9545698, actorValue: { name: 'Nimbus' } } },
      '2A93BC5F': { value: { referenceID: 714325087 } },
    },
    // The human-readable tile list mirrors worldinfo2 (the reader checks that they agree).
    lists: { 'Tiles_list.txt': parseCsv('"id";"drop";"name"\n"1";"1";"BLOCK_STONE"\n"2";"2";"BLOCK_DIRT"\n') },
    files: { 'tapestries/1': Uint8Array.of(1, 2, 3) },
  };
}

export function ourSaveTree(counter = 0): Map<string, Uint8Array> {
  const tree = encodeSave(ourSave(counter));
  if (E.isLeft(tree)) throw tree.left;
  return tree.right;
}
