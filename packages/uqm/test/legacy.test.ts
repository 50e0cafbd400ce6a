// 0.7 saves, written by our LZHUF coder from the real 0.8 saves and read back.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  definedGroupsFile,
  format,
  legacySave,
  lzhufDecompress,
  saveToLegacy,
  saveToStateFiles,
  randomGroups,
  starInfo,
  uqmSave,
  type DefinedGroupsFile,
  type LegacySave,
  type RandomGroups,
  type StarInfo,
} from '@savekit/uqm';
import { realSavesFor } from './corpus';

const { saves, describe: maybe } = realSavesFor('UQM 0.7 saves');

maybe('0.7 saves', () => {
  test.each([...saves.keys()])('%s as a 0.7 save: decodes back, values kept, re-encodes byte for byte', (name) => {
    const save = decodeOrThrow(uqmSave, saves.get(name)!);
    const bytes = encodeOrThrow(legacySave, saveToLegacy(save));
    expect(format.sniff(bytes)).toBeGreaterThan(0);
    const decoded = format.decode(bytes);
    if (E.isLeft(decoded)) throw decoded.left;
    const legacy = decoded.right.value as LegacySave;
    expect(legacy.summary.sis).toEqual(save.summary.sis);
    expect(legacy.summary.summary).toEqual(save.summary.summary);
    // The state files are in the stream (defgrp before randgrp), decoded as their own formats decode them.
    const files = saveToStateFiles(save);
    expect(legacy.stream.value.starinfo).toEqual(decodeOrThrow(starInfo(12), files.starinfo));
    expect(legacy.stream.value.defgrp).toEqual(decodeOrThrow(definedGroupsFile, files.defgrp));
    expect(legacy.stream.value.randgrp).toEqual(decodeOrThrow(randomGroups, files.randgrp));
    expect(encodeOrThrow(starInfo(12), legacy.stream.value.starinfo as StarInfo)).toEqual(files.starinfo);
    expect(encodeOrThrow(definedGroupsFile, legacy.stream.value.defgrp as DefinedGroupsFile)).toEqual(files.defgrp);
    expect(encodeOrThrow(randomGroups, legacy.stream.value.randgrp as RandomGroups)).toEqual(files.randgrp);
    // The game state in the 0.7 layout holds the same entries.
    expect(legacy.stream.value.globals.gameState).toEqual(files.gameState);
    // The file's code is kept as it is (decoding does not compress again), and written back.
    expect(legacy.stream.stored).toEqual(bytes.subarray(168));
    expect(encodeOrThrow(legacySave, legacy)).toEqual(bytes);
    // A changed value is compressed afresh: the same bytes as a save written from that value.
    const richer = { ...legacy, summary: { ...legacy.summary } };
    richer.stream = {
      ...legacy.stream,
      value: { ...legacy.stream.value, star: { ...legacy.stream.value.star, x: 1 } },
    };
    const fresh = encodeOrThrow(legacySave, { ...richer, stream: { value: richer.stream.value } });
    expect(encodeOrThrow(legacySave, richer)).toEqual(fresh);
    expect(decodeOrThrow(legacySave, fresh).stream.value.star.x).toBe(1);
  });

  test('the 0.7 layout puts the defined-group offsets where 0.7 kept them (probe at bit 451)', () => {
    const save = decodeOrThrow(uqmSave, saves.get('uqmsave.12')!);
    const bytes = encodeOrThrow(legacySave, saveToLegacy(save));
    const plain = lzhufDecompress(bytes.subarray(164));
    const state = plain.subarray(220, 375);
    // URQUAN_PROBE = 1 at bit 451 = byte 56, bit 3.
    expect((state[56]! >> 3) & 1).toBe(1);
    // MELNORME1 = 288 at bit 148 = byte 18, bit 4: 288 << 4 spans bytes 18–20.
    expect(((state[18]! | (state[19]! << 8) | (state[20]! << 16)) >> 4) & 0xffffffff).toBe(288);
  });
});
