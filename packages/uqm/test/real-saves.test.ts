// The five real saves: they decode, their values are what the corpus README lists, they re-encode
// byte for byte (through the API and `savekit verify`), and save → state files → save is the identity.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { decode, decodeOrThrow, encodeOrThrow, isRawChunk } from '@savekit/core';
import {
  chunkOf,
  gameStateOf,
  groupHeader,
  randomGroups,
  readDefinedGroups,
  saveToStateFiles,
  scanOf,
  stateBattleGroup,
  stateFilesToSave,
  starInfo,
  uqmSave,
  worldCount,
  type BattleGroups,
  type UqmSave,
} from '@savekit/uqm';
import { realSavesFor } from './corpus';

const { saves, load, describe: maybe } = realSavesFor('UQM real saves');
const sizes = (save: UqmSave, bytes: Uint8Array) => {
  // Chunk sizes as the file has them: re-encode each body through the file and read its size field.
  const out: string[] = [];
  let at = 4;
  while (at < bytes.length) {
    const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 4, true);
    out.push(`${tag}(${size})`);
    at += 8 + (tag === 'Summ' && save.magic !== 'UMS\x01' ? 0 : size);
  }
  return out.join(' ');
};

maybe('the real UQM saves', () => {
  test.each([...saves.keys()])('%s decodes without warnings and re-encodes byte for byte', (name) => {
    const bytes = saves.get(name)!;
    const result = decode(uqmSave, bytes);
    if (E.isLeft(result)) throw result.left;
    expect(result.right.warnings).toEqual([]);
    expect(encodeOrThrow(uqmSave, result.right.value)).toEqual(bytes);
  });

  test('01-Start: the chunks the README lists, the probe at defgrp offset 1, no world records', () => {
    const bytes = saves.get('01-Start.uqmsave.dat')!;
    const save = load('01-Start.uqmsave.dat');
    expect(sizes(save, bytes)).toBe(
      'Summ(165) GlSt(75) GmSt(155) RacQ(720) IGpQ(13) ShpQ(11) Evts(20) Scan(2008) Grps(15) BtGp(12) BtGp(24) Star(8)',
    );
    expect(save.summary.name).toBe('Start');
    expect(chunkOf(save, 'RacQ')!.body.entries).toHaveLength(24);
    expect(chunkOf(save, 'Evts')!.body.entries).toHaveLength(4);
    expect(gameStateOf(save)!.URQUAN_PROBE_GRPOFFS).toBe(1);
    expect(scanOf(save)!.systems).toEqual([]);
    const battle = save.chunks.filter((c) => c.id === 'BtGp').map((c) => (c as { body: BattleGroups }).body);
    expect(battle.map((b) => [b.encounterId, b.current, b.groups.length])).toEqual([
      [0, 0, 0],
      [12, 1, 1],
    ]);
    expect(chunkOf(save, 'Star')!.body).toMatchObject({ x: 1752, y: 1450 }); // Sol
  });

  test("02: star 82 is Sol with 17 worlds; Mercury's mineral mask is 0x00004000", () => {
    const save = load('02-SingleRadioactiveFromMercury.uqmsave.dat');
    const scan = scanOf(save)!;
    expect(scan.systems.map((s) => s.star)).toEqual([82]);
    expect(worldCount(scan, 82)).toBe(17);
    expect(scan.systems[0]!.worlds[0]).toEqual({ mineral: 0x00004000, energy: 0, bio: 0 });
    const bytes = saves.get('02-SingleRadioactiveFromMercury.uqmsave.dat')!;
    expect(sizes(save, bytes)).toContain('Scan(2212)');
  });

  test('uqmsave.12: MELNORME1 = 288, probe = 1; three BtGp; two scanned systems', () => {
    const save = load('uqmsave.12');
    const state = gameStateOf(save)!;
    expect([state.MELNORME1_GRPOFFS, state.URQUAN_PROBE_GRPOFFS]).toEqual([288, 1]);
    // As bytes: probe = 1 is byte 142 = 0x40, MELNORME1 = 288 is byte 111 = 0x48 (uqm.md §4).
    const gm = encodeOrThrow(uqmSave, save);
    const gmAt =
      gm.findIndex((_, i) => gm[i] === 0x47 && gm[i + 1] === 0x6d && gm[i + 2] === 0x53 && gm[i + 3] === 0x74) + 8;
    expect([gm[gmAt + 142], gm[gmAt + 111]]).toEqual([0x40, 0x48]);
    const battle = save.chunks.filter((c) => c.id === 'BtGp').map((c) => (c as { body: BattleGroups }).body);
    expect(battle.map((b) => [b.encounterId, b.current])).toEqual([
      [0, 0],
      [4, 1],
      [12, 0],
    ]);
    expect(battle[2]!.groups).toEqual([{ icon: 0, ships: [] }]); // the dead probe
    expect(scanOf(save)!.systems.map((s) => [s.star, s.worlds.length])).toEqual([
      [82, 17],
      [72, 3],
    ]);
  });

  test('uqmsave.16: saved at an encounter (START_ENCOUNTER): 4 Pkunk ships in NpcQ, one random group of 4', () => {
    const save = load('uqmsave.16');
    expect(chunkOf(save, 'GlSt')!.body.currentActivity).toBe(0x0404);
    expect(chunkOf(save, 'NpcQ')!.body.entries.map((s: { raceId: number }) => s.raceId)).toEqual([4, 4, 4, 4]);
    expect(chunkOf(save, 'Enct')!.body.entries).toHaveLength(1);
    const random = (save.chunks.find((c) => c.id === 'BtGp') as { body: BattleGroups }).body;
    expect(random.groups.map((g) => g.ships.length)).toEqual([4]);
    expect(scanOf(save)!.systems).toHaveLength(4);
  });

  test('uqmsave.17: 28 random groups in Grps and BtGp; START_INTERPLANETARY', () => {
    const save = load('uqmsave.17');
    expect(chunkOf(save, 'GlSt')!.body.currentActivity).toBe(0x0804);
    expect(chunkOf(save, 'Grps')!.body.groups.entries).toHaveLength(28);
    const random = (save.chunks.find((c) => c.id === 'BtGp') as { body: BattleGroups }).body;
    expect(random.groups).toHaveLength(28);
    // BtGp(898) = 12 + 28 × 2 + 83 ships × 10 (the README's "up to 4 ships" is loose: two groups have 5).
    expect(random.groups.reduce((n, g) => n + g.ships.length, 0)).toBe(83);
    expect(sizes(save, saves.get('uqmsave.17')!)).toContain('Grps(393)');
    expect(sizes(save, saves.get('uqmsave.17')!)).toContain('BtGp(898)');
    expect(save.chunks.some((c) => c.id === 'IGpQ')).toBe(false);
  });

  test.each([...saves.keys()])('%s → state files → save gives the identical file', (name) => {
    const save = load(name);
    const files = saveToStateFiles(save);
    expect(encodeOrThrow(uqmSave, stateFilesToSave(save, files))).toEqual(saves.get(name));
    // The state files are what the game holds: Scan is starinfo.dat byte for byte; randgrp.dat reads back.
    expect(decodeOrThrow(starInfo(12), files.starinfo)).toEqual(scanOf(save));
    expect(E.isRight(decode(randomGroups, files.randgrp))).toBe(true);
  });

  test('uqmsave.12 laid out by the loader: defgrp.dat as uqm.md §5.2 gives it, offsets renumbered', () => {
    const save = load('uqmsave.12');
    const files = saveToStateFiles(save, { defgrpLayout: 'loader' });
    expect(files.defgrp.length).toBe(558);
    expect(files.defgrp[0]).toBe(0);
    expect([files.gameState.MELNORME1_GRPOFFS, files.gameState.URQUAN_PROBE_GRPOFFS]).toEqual([1, 288]);
    expect(files.battleGroupRef).toBe(1);
    const mel = decodeOrThrow(groupHeader, files.defgrp.subarray(1, 269));
    expect(mel).toMatchObject({ numGroups: 1, day: 28, month: 3, year: 2155, starIndex: 68 });
    expect(mel.offsets[1]).toBe(269);
    expect([...files.defgrp.subarray(269, 271)]).toEqual([0x0c, 0x01]);
    const melGroup = decodeOrThrow(stateBattleGroup, files.defgrp.subarray(269, 288));
    expect(melGroup.ships).toHaveLength(1);
    const probe = decodeOrThrow(groupHeader, files.defgrp.subarray(288, 556));
    expect(probe).toMatchObject({ numGroups: 1, starIndex: 82 });
    expect(probe.offsets[1]).toBe(556);
    expect([...files.defgrp.subarray(556, 558)]).toEqual([0, 0]);
    // Saving that game writes the same groups, with the loader's offsets in its game state.
    const again = stateFilesToSave(save, files);
    expect(gameStateOf(again)!.MELNORME1_GRPOFFS).toBe(1);
    expect(again.chunks.filter((c) => c.id === 'BtGp')).toEqual(save.chunks.filter((c) => c.id === 'BtGp'));
    const defined = readDefinedGroups(
      files.defgrp,
      new Map([
        [4, 1],
        [12, 288],
      ]),
    );
    expect(E.isRight(defined) && defined.right.map((d) => d.id)).toEqual([4, 12]);
  });

  test('savekit verify reports each save byte-identical', () => {
    const dir = mkdtempSync(join(tmpdir(), 'savekit-uqm-'));
    try {
      for (const [name, bytes] of saves) {
        const path = join(dir, name);
        writeFileSync(path, bytes);
        const run = spawnSync(
          process.execPath,
          [join(__dirname, '..', '..', 'cli', 'dist', 'bin.js'), 'verify', path],
          { encoding: 'utf8' },
        );
        expect({ name, status: run.status, out: run.stdout }).toEqual({
          name,
          status: 0,
          out: expect.stringMatching(/^ok .*\(uqm, [\d,]+ bytes\)\n1 save: 1 ok, 0 invalid, 0 differs/),
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('unknown chunks are kept in place', () => {
    const bytes = saves.get('01-Start.uqmsave.dat')!;
    const extra = Uint8Array.from([...bytes, ...Buffer.from('Xtra'), 3, 0, 0, 0, 1, 2, 3]);
    const save = decodeOrThrow(uqmSave, extra);
    const last = save.chunks[save.chunks.length - 1]!;
    expect(isRawChunk(last) && [last.id, [...last.raw]]).toEqual(['Xtra', [1, 2, 3]]);
    expect(encodeOrThrow(uqmSave, save)).toEqual(extra);
  });
});
