// Issue 22 (UQM, items 1–5): what a save-editor user meets — the state files as formats of their own,
// 0.7 state files decoded, the star map by name, typed setters, group expiry — each through the API
// and through the CLI on a file; and no part of any save the package can decode dumped as hex.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { decode, decodeOrThrow, encodeOrThrow, FormatRegistry } from '@savekit/core';
import {
  blockOffsets,
  createUqmSave,
  chunkOf,
  DefinedGroupOffsetError,
  definedGroupsFile,
  definedGroupsFormat,
  definedGroupsIn,
  EMPTY_SLOTS,
  formats,
  gameStateOf,
  groupExpiry,
  harvestNode,
  isBefore,
  isNodeHarvested,
  legacySave,
  modules,
  nameText,
  randomGroups,
  randomGroupsFormat,
  roster,
  saveToLegacy,
  saveToStateFiles,
  saveWithStateFiles,
  scanOf,
  setCommanderName,
  setDate,
  setDevices,
  setDriveSlots,
  setEscorts,
  setJetSlots,
  setLanders,
  setLocation,
  setModules,
  setSaveName,
  setShipName,
  starInfo,
  starInfoFormat,
  starMap,
  stateFilesOf,
  systemView,
  take,
  takeNode,
  toMegaMod,
  UnknownSystemError,
  UqmEditError,
  uqmSave,
  worldIndex,
  writeDefinedGroups,
  type LegacySave,
  type StarInfo,
  type UqmSave,
} from '@savekit/uqm';
import { randomBytes } from '@savekit/testkit';
import { cli, scratchFiles } from './cli-run';
import { realSavesFor, throughBytes } from './corpus';

const { saves, describe: maybe } = realSavesFor('UQM editors (issue 22)');
const load = (name: string): UqmSave => decodeOrThrow(uqmSave, saves.get(name)!);
const scratch = scratchFiles('savekit-uqm-editors-');
const file = scratch.file;

maybe('1. the state files as formats of their own', () => {
  const registry = new FormatRegistry(formats);

  test.each([...saves.keys()])(
    '%s: each extracted state file is sniffed as itself and reads back byte for byte',
    (name) => {
      const save = load(name);
      for (const layout of ['loader', 'writer'] as const) {
        const files = saveToStateFiles(save, { defgrpLayout: layout });
        const want = { starinfo: starInfoFormat, randgrp: randomGroupsFormat, defgrp: definedGroupsFormat };
        for (const key of ['starinfo', 'randgrp', 'defgrp'] as const) {
          expect(registry.detect(files[key])).toBe(want[key]);
          const decoded = want[key].decode(files[key]);
          if (E.isLeft(decoded)) throw decoded.left;
          const back = (want[key].encode as (d: unknown) => E.Either<Error, Uint8Array>)(decoded.right.value);
          expect(E.isRight(back) && back.right).toEqual(files[key]);
        }
      }
    },
  );

  test('uqmsave.12: the documents, and back into a save (API, both ways)', () => {
    const save = load('uqmsave.12');
    const docs = stateFilesOf(save);
    expect(docs.starinfo.systems.map((s) => [s.star, s.worlds.length])).toEqual([
      [82, 17],
      [72, 3],
    ]);
    // The loader's layout (uqm.md §5.2): MELNORME1 at 1, the probe at 288, its dead group of no ships.
    expect(blockOffsets(docs.defgrp)).toEqual([1, 288]);
    expect(docs.defgrp.blocks[1]!.groups).toEqual([{ raceType: 0, ships: [] }]);
    expect(definedGroupsIn(docs.defgrp, docs.files.gameState)).toEqual([
      { id: 4, name: 'MELNORME1', block: 0 },
      { id: 12, name: 'URQUAN_PROBE', block: 1 },
    ]);
    // A node taken in the standalone starinfo.dat goes back into the save.
    takeNode(docs.starinfo, { star: 'Sol', planet: 'Pluto', kind: 'energy', node: 3 });
    const files = { ...docs.files, starinfo: encodeOrThrow(starInfo(12), docs.starinfo) };
    const edited = saveWithStateFiles(save, files);
    expect(isNodeHarvested(edited, { star: 82, planet: 'Pluto', kind: 'energy', node: 3 })).toBe(true);
    // Unchanged files give the identical save.
    expect(encodeOrThrow(uqmSave, saveWithStateFiles(save, saveToStateFiles(save)))).toEqual(saves.get('uqmsave.12'));
  });

  test('savekit inspect / dump / build on starinfo.dat, randgrp.dat and defgrp.dat (CLI)', () => {
    const files = saveToStateFiles(load('uqmsave.12'));
    const ids = { starinfo: 'uqm-starinfo', randgrp: 'uqm-randgrp', defgrp: 'uqm-defgrp' };
    for (const key of ['starinfo', 'randgrp', 'defgrp'] as const) {
      const path = file(`${key}.dat`, files[key]);
      const inspect = cli('inspect', path);
      expect({ status: inspect.status, err: inspect.err }).toEqual({ status: 0, err: '' });
      expect(inspect.out).toContain(`(${ids[key]})`);
      const dump = cli('dump', path, '-o', `${path}.json`);
      expect(dump.status).toBe(0);
      expect(JSON.parse(readFileSync(`${path}.json`, 'utf8')).format).toBe(ids[key]);
      const build = cli('build', `${path}.json`, '-o', `${path}.back`);
      expect(build.status).toBe(0);
      expect(new Uint8Array(readFileSync(`${path}.back`))).toEqual(files[key]);
    }
    expect(cli('inspect', join(scratch.dir, 'starinfo.dat')).out).toMatch(
      /2 systems with taken nodes\nstar 82: 17 worlds/,
    );
  });

  test('a defgrp.dat whose header points elsewhere is a DecodeError at that offset, not a crash', () => {
    const bytes = saveToStateFiles(load('01-Start.uqmsave.dat')).defgrp.slice();
    bytes[1 + 12] = 0x20; // GroupOffset[1] of the first header: no longer its offset + 268
    const out = decode(definedGroupsFile, bytes);
    expect(E.isLeft(out) && out.left.offset).toBe(1);
    expect(E.isLeft(decode(definedGroupsFile, Uint8Array.of(1)))).toBe(true);
  });

  test('writeDefinedGroups refuses an offset that would size defgrp.dat past 64 KiB (typed error)', () => {
    const header = { numGroups: 1, day: 1, month: 1, pad3: undefined, starIndex: 82, year: 2155, offsets: [] };
    const group = { id: 12, header: { ...header, offsets: new Array(65).fill(0) }, groups: [] };
    expect(() => writeDefinedGroups([{ ...group, at: 0xffff_fff0 }])).toThrow(DefinedGroupOffsetError);
    expect(() => writeDefinedGroups([{ ...group, at: 0x1_0000 }])).toThrow(/is not 1 to 65268/);
    expect(writeDefinedGroups([{ ...group, at: 1000 }]).bytes.length).toBe(1268);
    // A save whose GmSt holds such a stale offset still converts: the loader's layout is used.
    const save = load('01-Start.uqmsave.dat');
    gameStateOf(save)!.URQUAN_PROBE_GRPOFFS = 0x7fff_0000;
    expect(saveToStateFiles(save).defgrp.length).toBe(288);
  });
});

maybe("state files hold a ship's crew in a byte (README: refused rather than truncated)", () => {
  test('a battle group ship with more crew than a byte holds is refused, naming the field', () => {
    let tried = 0;
    for (const name of saves.keys()) {
      const save = load(name);
      type Groups = { groups: Array<{ ships: Array<{ crewLevel: number }> }> };
      const chunks = save.chunks as unknown as Array<{ id: string; body?: Groups }>;
      const chunk = chunks.find((c) => c.id === 'BtGp' && (c.body?.groups.length ?? 0) > 0);
      if (chunk?.body === undefined) continue;
      const ship = chunk.body.groups.flatMap((g) => g.ships).at(0);
      if (ship === undefined) continue;
      expect(() => saveToStateFiles(save)).not.toThrow();
      ship.crewLevel = 256;
      expect(() => saveToStateFiles(save)).toThrow(/crew level 256 does not fit the state file's byte/);
      ship.crewLevel = 255;
      expect(() => saveToStateFiles(save)).not.toThrow();
      tried++;
    }
    expect(tried).toBeGreaterThan(0);
  });
});

maybe('2. the state files of a 0.7 save are documents, written back byte for byte', () => {
  test.each([...saves.keys()])('%s as 0.7: decoded as the standalone formats decode them', (name) => {
    const save = load(name);
    const bytes = encodeOrThrow(legacySave, saveToLegacy(save));
    const legacy = decodeOrThrow(legacySave, bytes);
    const docs = stateFilesOf(save, 'writer');
    expect(legacy.stream.value.starinfo).toEqual(docs.starinfo);
    expect(legacy.stream.value.defgrp).toEqual(docs.defgrp);
    expect(legacy.stream.value.randgrp).toEqual(docs.randgrp);
    expect(encodeOrThrow(legacySave, legacy)).toEqual(bytes);
    // Changed through the document, the stream is compressed afresh and reads back changed.
    takeNode(legacy.stream.value.starinfo as StarInfo, { star: 'Sol', planet: 'Mars', kind: 'bio', node: 0 });
    const changed = decodeOrThrow(
      legacySave,
      encodeOrThrow(legacySave, { ...legacy, stream: { value: legacy.stream.value } }),
    );
    expect((changed.stream.value.starinfo as StarInfo).systems.find((s) => s.star === 82)!.worlds[5]!.bio & 1).toBe(1);
  });

  test('a state file that does not decode is kept as bytes, with a warning, and written back', () => {
    const legacy = saveToLegacy(createUqmSave());
    legacy.stream.value.defgrp = { $raw: Uint8Array.of(7, 7, 7) };
    const bytes = encodeOrThrow(legacySave, legacy);
    const out = decode(legacySave, bytes);
    if (E.isLeft(out)) throw out.left;
    expect(out.right.value.stream.value.defgrp).toEqual({ $raw: Uint8Array.of(7, 7, 7) });
    expect(out.right.warnings.map((w) => w.code)).toEqual(['state-file-kept-raw']);
    expect(encodeOrThrow(legacySave, out.right.value)).toEqual(bytes);
  });

  test('savekit dump of a 0.7 save shows the state files as documents (CLI)', () => {
    const path = file('starcon2.00', encodeOrThrow(legacySave, saveToLegacy(load('uqmsave.17'))));
    const dump = cli('dump', path);
    expect(dump.status).toBe(0);
    const stream = JSON.parse(dump.out).document.stream.value;
    expect(stream.starinfo.systems.map((s: { star: number }) => s.star)).toEqual(
      scanOf(load('uqmsave.17'))!.systems.map((s) => s.star),
    );
    expect(stream.randgrp.root.numGroups).toBe(28);
    expect(stream.defgrp.blocks).toHaveLength(2);
  });
});

maybe('3. the star map by name', () => {
  test('02: Mercury is world 0 of Sol, and its mineral node 14 is the one taken (API)', () => {
    const save = load('02-SingleRadioactiveFromMercury.uqmsave.dat');
    const sol = systemView(scanOf(save)!, 82)!;
    expect(sol.name).toBe('Sol');
    expect(sol.planets!.map((p) => [p.name, p.moons.map((m) => m.name)])).toEqual([
      ['Mercury', []],
      ['Venus', []],
      ['Earth', ['Starbase', 'Luna']],
      ['Mars', []],
      ['Jupiter', ['Io', 'Europa', 'Ganymede', 'Callisto']],
      ['Saturn', ['Titan']],
      ['Uranus', []],
      ['Neptune', ['Triton']],
      ['Pluto', []],
    ]);
    expect(sol.planets![0]!.world.record.mineral).toBe(0x4000);
    expect(isNodeHarvested(save, { star: 'Sol', planet: 'Mercury', kind: 'mineral', node: 14 })).toBe(true);
    expect(worldIndex({ star: 'Sol', planet: 'Jupiter', moon: 'Europa' })).toEqual({ star: 82, world: 8 });
    expect(worldIndex({ star: 82, planet: 2, moon: 2 })).toEqual({ star: 82, world: 4 });
  });

  test('01-Start: the first pickup in Sol adds its 17-world block with no count given; as the game did in 02', () => {
    const start = load('01-Start.uqmsave.dat');
    harvestNode(start, { star: 'Sol', planet: 'Mercury', kind: 'mineral', node: 14 });
    const after = load('02-SingleRadioactiveFromMercury.uqmsave.dat');
    expect(scanOf(start)).toEqual(scanOf(after));
    expect(encodeOrThrow(uqmSave, start).length - saves.get('01-Start.uqmsave.dat')!.length).toBe(17 * 12);
    // take() too: Sol's count is known.
    const info: StarInfo = { systems: [] };
    take(info, 82, 8, 'bio', 1);
    expect(info.systems[0]!.worlds).toHaveLength(17);
  });

  test('another star: named from its generated layout; a first pickup adds a block of the generated size', () => {
    const info = scanOf(load('uqmsave.12'))!;
    const star72 = systemView(info, 72)!;
    expect(star72).toMatchObject({ star: 72, name: 'Gamma Centauri', scanned: true, worldCount: 3 });
    expect(star72.planets!.map((p) => [p.name, p.moons.map((m) => m.name)])).toEqual([
      ['Planet I', ['Planet I-A']],
      ['Planet II', []],
    ]);
    expect(starMap(info).map((s) => s.star)).toEqual([82, 72]);
    expect(starMap(info, 12, { all: true })).toHaveLength(502);
    expect(worldIndex({ star: 'Gamma Centauri', planet: 'Planet II' })).toEqual({ star: 72, world: 2 });
    expect(() => worldIndex({ star: 'Omega Nowhere', planet: 0 })).toThrow(UnknownSystemError);
    expect(() => worldIndex({ star: 72, planet: 2 })).toThrow(RangeError);
    // Procyon (the Chmmr, 133): five planets, Planet II with its one fixed moon — eight worlds, no count given.
    takeNode(info, { star: 'Procyon', planet: 'Planet II', moon: 'A', kind: 'mineral', node: 1 });
    const procyon = systemView(info, 133)!;
    expect(procyon.worldCount).toBe(8);
    expect(procyon.planets![1]!.moons[0]!).toMatchObject({ name: 'Planet II-A', world: 2 });
    expect(procyon.planets![1]!.moons[0]!.record.mineral).toBe(2);
    // A modded game's count still wins when given, and such a block is then shown flat.
    takeNode(info, { star: 'Vela', world: 0, kind: 'bio', node: 0 }, { worldCount: 1 });
    const vela = systemView(info, 114)!;
    expect(vela).toMatchObject({ name: 'Vela', worldCount: 1 });
    expect(vela.planets).toBeUndefined();
    takeNode(info, { star: 72, world: 2, kind: 'energy', node: 31 });
    expect(info.systems.find((s) => s.star === 72)!.worlds[2]!.energy).toBe(0x8000_0000);
  });

  test('savekit dump shows the named edit in the Scan chunk (CLI)', () => {
    const save = load('01-Start.uqmsave.dat');
    harvestNode(save, { star: 'Sol', planet: 'Earth', moon: 'Luna', kind: 'energy', node: 2 });
    const dump = cli('dump', file('luna.uqmsave', encodeOrThrow(uqmSave, save)));
    const scan = JSON.parse(dump.out).document.chunks.find((c: { id: string }) => c.id === 'Scan').body;
    expect(scan.systems[0].star).toBe(82);
    expect(scan.systems[0].worlds[4].energy).toBe(4);
  });
});

maybe('4. setters', () => {
  test('each sets its field and refuses what the game would not hold (API)', () => {
    const save = load('uqmsave.12');
    setLanders(save, 10);
    expect(save.summary.sis.numLanders).toBe(10);
    expect(() => setLanders(save, 11)).toThrow(UqmEditError);
    // 15 UTF-8 bytes fit; 16 would leave no NUL, which the game never writes and would read past.
    setShipName(save, 'Fifteen chars!!');
    expect(nameText(save.summary.shipName)).toBe('Fifteen chars!!');
    expect(() => setShipName(save, 'Sixteen chars!!!')).toThrow(/16 UTF-8 bytes; the game keeps at most 15/);
    expect(() => setCommanderName(save, 'Zelnick\0')).toThrow(UqmEditError);
    expect(() => setCommanderName(save, 'ÄÄÄÄÄÄÄÄ')).toThrow(/16 UTF-8 bytes/);
    setCommanderName(save, 'Zelnick');
    setSaveName(save, 'edited');
    expect(save.summary.name).toBe('edited');
    setModules(save, ['CREW_POD', null, 'STORAGE_BAY', 'BLASTER_WEAPON']);
    expect(modules(save).slice(0, 5)).toEqual(['CREW_POD', null, 'STORAGE_BAY', 'BLASTER_WEAPON', null]);
    expect(save.summary.sis.moduleSlots[1]).toBe(EMPTY_SLOTS.module);
    expect(() => setModules(save, ['FUSION_THRUSTER'])).toThrow(/does not go in a module slot/);
    expect(() => setModules(save, ['WARP_DRIVE'])).toThrow(UqmEditError);
    setDriveSlots(save, new Array(11).fill(true));
    setJetSlots(save, [true, false, true, false, true, false, true, false]);
    expect(save.summary.sis.jetSlots).toEqual([2, 21, 2, 21, 2, 21, 2, 21]);
    setDevices(save, [1, 2, 3]);
    expect(save.summary.summary.numDevices).toBe(3);
    expect(() => setDevices(save, new Array(17).fill(0))).toThrow(UqmEditError);
    setEscorts(save, [
      { race: 'SPATHI', captain: 21, crew: 30 },
      { race: 'ORZ', captain: 3, crew: 10, maxCrew: 16 },
    ]);
    expect(roster(save).map((s) => [s.raceName, s.index, s.captainsNameIndex, s.crewLevel, s.maxCrew])).toEqual([
      ['SPATHI', 0, 21, 30, 30],
      ['ORZ', 1, 3, 10, 16],
    ]);
    expect(save.summary.summary.shipList.slice(0, 3)).toEqual([6, 3, 0]);
    expect(() => setEscorts(save, [{ race: 'ORZ', captain: 0, crew: 20, maxCrew: 16 }])).toThrow(/crew/);
    expect(() => setEscorts(save, [{ race: 'KZER_ZA', captain: 0, crew: 1 }])).toThrow(UqmEditError);
    setDate(save, { day: 29, month: 2, year: 2156 });
    expect(chunkOf(save, 'GlSt')!.body).toMatchObject({ day: 29, month: 2, year: 2156 });
    expect(save.summary.summary).toMatchObject({ day: 29, month: 2, year: 2156 });
    expect(() => setDate(save, { day: 29, month: 2, year: 2155 })).toThrow(/1 to 28/);
    expect(() => setDate(save, { day: 1, month: 1, year: 2190 })).toThrow(UqmEditError);
    setLocation(save, -100, 5000);
    expect([save.summary.sis.logX, save.summary.sis.logY]).toEqual([-100, 5000]);
    // Everything set reads back.
    const back = throughBytes(save);
    expect(back.summary).toEqual(save.summary);
    expect(roster(back)).toEqual(roster(save));
  });

  test('a 16-byte name with no NUL (written by another tool) reads back as it is, with a warning', () => {
    const save = load('01-Start.uqmsave.dat');
    save.summary.shipName = 'Sixteen chars!!!'; // the document allows it; setShipName refuses it
    const bytes = encodeOrThrow(uqmSave, save);
    const out = decode(uqmSave, bytes);
    if (E.isLeft(out)) throw out.left;
    expect(out.right.warnings.map((w) => w.code)).toEqual(['name-without-nul']);
    expect(encodeOrThrow(uqmSave, out.right.value)).toEqual(bytes);
    const inspect = cli('inspect', file('sixteen.uqmsave', bytes));
    expect(inspect.out).toMatch(/\[name-without-nul\] warning at summary.shipName \(offset 86\)/);
  });

  test('savekit inspect and verify on a save edited by the setters (CLI)', () => {
    const save = load('uqmsave.16');
    setShipName(save, 'Tobermoon');
    setEscorts(save, [{ race: 'PKUNK', captain: 5, crew: 8 }]);
    const path = file('edited.uqmsave', encodeOrThrow(uqmSave, save));
    const inspect = cli('inspect', '--json', path);
    expect(inspect.status).toBe(0);
    const doc = JSON.parse(inspect.out).document;
    expect(doc.summary.shipName).toBe('Tobermoon');
    expect(doc.chunks.find((c: { id: string }) => c.id === 'ShpQ').body.entries).toEqual([
      { race: 4, captainsNameIndex: 5, raceId: 4, index: 0, crewLevel: 8, maxCrew: 8, energyLevel: 0, maxEnergy: 0 },
    ]);
    expect(cli('verify', path).status).toBe(0);
  });
});

maybe('5. group expiry', () => {
  test('which groups the game regenerates, by the save clock and the system entered (API)', () => {
    const save = load('uqmsave.17');
    const gl = chunkOf(save, 'GlSt')!.body;
    const [random, ...defined] = groupExpiry(save);
    expect(random).toMatchObject({ encounterId: 0, name: 'RANDOM', groups: 28, expired: false, regenerated: false });
    expect(defined.length).toBeGreaterThan(0); // the checks below run over real defined groups
    expect(defined.every((d) => !d.regenerated)).toBe(true);
    // Entering another system throws them away; so does a clock past their date (the day itself still counts).
    expect(groupExpiry(save, { currentStar: (random!.star + 1) % 502 })[0]!.regenerated).toBe(true);
    expect(groupExpiry(save, { currentStar: random!.star })[0]!.regenerated).toBe(false);
    setDate(save, random!.expires);
    expect(groupExpiry(save)[0]!.expired).toBe(false);
    const next = { ...random!.expires, day: random!.expires.day + 1 };
    setDate(save, next);
    expect(groupExpiry(save)[0]).toMatchObject({ expired: true, regenerated: true });
    expect(isBefore(random!.expires, { day: gl.day, month: gl.month, year: gl.year })).toBe(true);
    // Defined groups keep their dates but are never regenerated.
    expect(
      groupExpiry(save)
        .slice(1)
        .every((d) => d.expired && !d.regenerated),
    ).toBe(true);
    // A 0.7 save: its randgrp.dat header.
    const legacy = decodeOrThrow(legacySave, encodeOrThrow(legacySave, saveToLegacy(load('uqmsave.17')))) as LegacySave;
    expect(groupExpiry(legacy)).toEqual([{ ...random, groups: 28 }]);
  });

  test('savekit inspect of randgrp.dat shows the expiry the function reads (CLI)', () => {
    const save = load('uqmsave.17');
    const path = file('randgrp17.dat', saveToStateFiles(save).randgrp);
    const [random] = groupExpiry(save);
    const { day, month, year } = random!.expires;
    expect(cli('inspect', path).out).toContain(`star ${random!.star}, 28 group slots, expires ${day}.${month}.${year}`);
  });
});

maybe('dump shows no hex where the package has structure', () => {
  // Byte strings that are bytes by nature: the LZHUF code kept as a cache, stray bytes between or
  // after the structures (lead, stale, unclaimed, rest), paddings the game leaves, dummy pointers the
  // 0.7 format wrote from memory, and MegaMod's per-node scavenge counts (a byte each).
  const allowed =
    /^(stored|lead|stale|rest|bytes|partial|displayArray|clockDummies|eventQueueDummy|queueDummies|dummies|pad\d+)$/;
  const hex = /^(?:[0-9a-f]{2})+$/;

  function hexPaths(json: unknown): string[] {
    const found: string[] = [];
    const stack: Array<[unknown, string, string]> = [[json, '', '']];
    while (stack.length > 0) {
      const [value, path, key] = stack.pop()!;
      if (typeof value === 'string') {
        if (hex.test(value) && !allowed.test(key)) found.push(path);
      } else if (Array.isArray(value))
        value.forEach((v, i) => {
          stack.push([v, `${path}[${i}]`, key]);
        });
      else if (typeof value === 'object' && value !== null)
        for (const [k, v] of Object.entries(value)) stack.push([v, `${path}.${k}`, k]);
    }
    return found;
  }

  test('every real and bundled save, its 0.7 and MMV4 forms, and its state files (CLI dump)', () => {
    const bundled = new Uint8Array(readFileSync(join(__dirname, '..', '..', '..', 'examples', 'saves', 'uqm-01.sav')));
    const files: Array<[string, Uint8Array]> = [
      ['new.uqmsave', encodeOrThrow(uqmSave, createUqmSave())],
      ['uqm-01.sav', bundled],
    ];
    for (const [name, bytes] of saves) {
      const save = decodeOrThrow(uqmSave, bytes);
      const state = saveToStateFiles(save);
      files.push(
        [name, bytes],
        [`${name}.07`, encodeOrThrow(legacySave, saveToLegacy(save))],
        [`${name}.mmv4`, encodeOrThrow(uqmSave, toMegaMod(save))],
        [`${name}.starinfo.dat`, state.starinfo],
        [`${name}.randgrp.dat`, state.randgrp],
        [`${name}.defgrp.dat`, state.defgrp],
      );
    }
    const problems: string[] = [];
    for (const [name, bytes] of files) {
      const dump = cli('dump', file(name, bytes));
      if (dump.status !== 0) problems.push(`${name}: ${dump.err}`);
      else for (const path of hexPaths(JSON.parse(dump.out).document)) problems.push(`${name}: ${path}`);
    }
    expect(problems).toEqual([]);
    expect(files.length).toBe(2 + 6 * saves.size);
  });
});

maybe('the state-file formats on damaged files', () => {
  test('any byte changed in an extracted file: a DecodeError or a document that writes the same bytes', () => {
    const formatsByKey = { starinfo: starInfoFormat, randgrp: randomGroupsFormat, defgrp: definedGroupsFormat };
    let decoded = 0;
    let refused = 0;
    for (const name of saves.keys()) {
      const files = saveToStateFiles(load(name));
      for (const key of ['starinfo', 'randgrp', 'defgrp'] as const) {
        const noise = randomBytes(64, key.length * 1000 + name.length);
        for (let i = 0; i < 32; i++) {
          const bytes = files[key].slice();
          const at = (noise[2 * i]! * 257 + noise[2 * i + 1]!) % bytes.length;
          bytes[at] = (bytes[at]! + 1 + (noise[i]! % 255)) & 0xff;
          const out = formatsByKey[key].decode(bytes);
          if (E.isLeft(out)) {
            refused++;
            expect(out.left.offset).toBeGreaterThanOrEqual(0);
            continue;
          }
          decoded++;
          const back = (formatsByKey[key].encode as (d: unknown) => E.Either<Error, Uint8Array>)(out.right.value);
          expect(E.isRight(back) && back.right).toEqual(bytes);
        }
      }
    }
    expect(decoded).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

test('the state-file formats need no corpus: a new game extracts and reads back', () => {
  const docs = stateFilesOf(createUqmSave());
  expect(encodeOrThrow(randomGroups, docs.randgrp)).toEqual(docs.files.randgrp);
  expect(encodeOrThrow(definedGroupsFile, docs.defgrp)).toEqual(docs.files.defgrp);
  expect(decodeOrThrow(starInfo(12), docs.files.starinfo)).toEqual(docs.starinfo);
});
