// MegaMod: MMV4 written from the real saves, read back with the Summ size quirk; the game-state
// revisions by size; 108-byte scan records.
import * as E from 'fp-ts/lib/Either';
import { decode, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  gameState,
  gameStateOf,
  MEGAMOD_STATE_SIZES,
  revisionOfSize,
  scanOf,
  toMegaMod,
  uqmSave,
  VANILLA_ENTRIES,
} from '@savekit/uqm';
import { realSavesFor } from './corpus';

const { saves, load, describe: maybe } = realSavesFor('UQM MegaMod');

test("game-state revisions: 155, 157, 229, 297, 305, 309 bytes; vanilla's entries fill 1238 bits", () => {
  expect(MEGAMOD_STATE_SIZES.map((size) => gameState(revisionOfSize(size)!).size)).toEqual([
    155, 157, 229, 297, 305, 309,
  ]);
  expect(VANILLA_ENTRIES.reduce((n, [, w]) => n + w, 0)).toBe(1238);
  expect(revisionOfSize(156)).toBeUndefined();
});

maybe('MMV4', () => {
  test.each([...saves.keys()])(
    '%s written as MMV4 reads back; its Summ size says 160 + name, as MegaMod writes it',
    (name) => {
      const vanilla = load(name);
      const bytes = encodeOrThrow(uqmSave, toMegaMod(vanilla, { difficulty: 1, seed: 16807, resFactor: 1 }));
      expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('MMV4');
      const nameLength = new TextEncoder().encode(vanilla.summary.name as string).length;
      expect(new DataView(bytes.buffer).getUint32(8, true)).toBe(160 + nameLength);
      const back = decodeOrThrow(uqmSave, bytes);
      expect(back.summary).toMatchObject({
        difficulty: 1,
        seed: 16807,
        resFactor: 1,
        shipName: vanilla.summary.shipName,
        name: vanilla.summary.name,
      });
      expect(back.summary.sis).toEqual(vanilla.summary.sis);
      // Revision 5 keeps every vanilla entry; the new ones start at zero.
      const state = gameStateOf(back)!;
      for (const [entry] of VANILLA_ENTRIES) expect(state[entry]).toBe(gameStateOf(vanilla)![entry]);
      expect(state.SEED_TYPE).toBe(0);
      expect(scanOf(back)!.systems.map((s) => s.worlds.length)).toEqual(
        scanOf(vanilla)!.systems.map((s) => s.worlds.length),
      );
      expect(encodeOrThrow(uqmSave, back)).toEqual(bytes);
    },
  );

  test('MMV3 and MEGA read by their own Summ layouts', () => {
    const vanilla = load('uqmsave.12');
    const mm = toMegaMod(vanilla);
    for (const magic of ['MMV3', 'MEGA'] as const) {
      const summary = { ...mm.summary } as Record<string, unknown>;
      delete summary.shipSeed;
      if (magic === 'MEGA') Object.assign(summary, vanilla.summary);
      const doc = {
        ...mm,
        magic,
        summary: { ...summary, difficulty: 2, extended: 1, nomad: 0, seed: 7, resFactor: 0 },
      } as typeof mm;
      const bytes = encodeOrThrow(uqmSave, doc);
      const back = decodeOrThrow(uqmSave, bytes);
      expect(back.magic).toBe(magic);
      expect(back.summary).toMatchObject({ difficulty: 2, seed: 7, name: vanilla.summary.name });
      expect(encodeOrThrow(uqmSave, back)).toEqual(bytes);
    }
  });

  test('a game state of no known size is kept as bytes, with a warning', () => {
    const bytes = saves.get('01-Start.uqmsave.dat')!;
    const save = decodeOrThrow(uqmSave, bytes);
    const gm = save.chunks.find((c) => c.id === 'GmSt') as { body: unknown };
    gm.body = { raw: new Uint8Array(160).fill(3) };
    const odd = encodeOrThrow(uqmSave, save);
    const result = decode(uqmSave, odd);
    if (E.isLeft(result)) throw result.left;
    expect(result.right.warnings.map((w) => w.code)).toEqual(['game-state-size']);
    expect(encodeOrThrow(uqmSave, result.right.value)).toEqual(odd);
  });
});
