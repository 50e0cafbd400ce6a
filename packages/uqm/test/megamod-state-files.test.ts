// Issue 22 item 1 for MegaMod: a MegaMod save's state files extracted on their own. starinfo.dat's
// 108-byte records are told from vanilla's 12 by the blocks' sizes (and the generated systems when
// both fit), read as MegaMod records, and go back into the MegaMod save byte for byte; randgrp.dat
// and defgrp.dat have the vanilla layout in MegaMod too. API and CLI.
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either';
import { DecodeError, decode, decodeOrThrow, encodeOrThrow, FormatRegistry } from '@savekit/core';
import {
  chooseRecordSize,
  createUqmSave,
  definedGroupsFile,
  definedGroupsFormat,
  formats,
  harvestNode,
  isNodeHarvested,
  randomGroups,
  randomGroupsFormat,
  recordSizeOf,
  saveToStateFiles,
  saveWithStateFiles,
  scanOf,
  STAR_TABLE_SIZE,
  starInfo,
  starInfoFile,
  starInfoFormat,
  starOffsets,
  stateFilesOf,
  takeNode,
  toMegaMod,
  uqmSave,
  type StarInfo,
  type UqmSave,
  type WorldRecord,
} from '@savekit/uqm';
import { cli, scratchFiles } from './cli-run';
import { realSavesFor, throughBytes } from './corpus';

const { saves, describe: maybe } = realSavesFor('UQM MegaMod state files');
const scratch = scratchFiles('savekit-uqm-mmstate-');
const file = scratch.file;

/** A save written as MegaMod writes it and read back, the way the package's tests make MegaMod saves. */
function megaMod(save: UqmSave): { save: UqmSave; bytes: Uint8Array } {
  const bytes = encodeOrThrow(uqmSave, toMegaMod(save, { difficulty: 1, seed: 16807 }));
  return { save: decodeOrThrow(uqmSave, bytes), bytes };
}

/** A new game in MegaMod with nodes taken on Mercury (Sol: 17 worlds) and Gamma Centauri (star 72: 3). */
function scannedMegaMod(): { save: UqmSave; bytes: Uint8Array } {
  const save = toMegaMod(createUqmSave());
  harvestNode(save, { star: 'Sol', planet: 'Mercury', kind: 'mineral', node: 14 });
  harvestNode(save, { star: 72, planet: 0, kind: 'energy', node: 2 });
  return megaMod(save);
}

const world = (mineral: number, megaModRecord: boolean): WorldRecord =>
  megaModRecord ? { mineral, energy: 0, bio: 0, partial: new Uint8Array(96).fill(3) } : { mineral, energy: 0, bio: 0 };

const choiceOf = (bytes: Uint8Array) =>
  chooseRecordSize(decodeOrThrow(starOffsets, bytes.subarray(0, STAR_TABLE_SIZE)), bytes.length);

describe('a MegaMod starinfo.dat on its own', () => {
  test('is read as 108-byte records (decided by structure) and goes back into the save byte for byte', () => {
    const { save, bytes } = scannedMegaMod();
    const docs = stateFilesOf(save, 'writer');
    expect(docs.files.starinfo.length).toBe(STAR_TABLE_SIZE + (17 + 3) * 108);
    // Sol's 1836-byte block is 153 records at 12 bytes: more than any system has.
    expect(choiceOf(docs.files.starinfo)).toMatchObject({ recordSize: 108, basis: 'structure', offset: 2008 });
    const out = starInfoFormat.decode(docs.files.starinfo);
    if (E.isLeft(out)) throw out.left;
    expect(out.right.warnings).toEqual([]);
    expect(out.right.value).toEqual(docs.starinfo);
    expect(out.right.value.systems.map((s) => [s.star, s.worlds.length])).toEqual([
      [82, 17],
      [72, 3],
    ]);
    expect(out.right.value.systems[0]!.worlds[0]!.partial).toHaveLength(96);
    expect(recordSizeOf(out.right.value)).toBe(108);
    // Written back from the document: the same bytes, and the same MegaMod save.
    const written = encodeOrThrow(starInfoFile, out.right.value);
    expect(written).toEqual(docs.files.starinfo);
    expect(encodeOrThrow(uqmSave, saveWithStateFiles(save, { ...docs.files, starinfo: written }))).toEqual(bytes);
  });

  test('an edit through the standalone document: a new block of MegaMod records, into the save', () => {
    const { save } = scannedMegaMod();
    const docs = stateFilesOf(save, 'writer');
    const doc = decodeOrThrow(starInfoFile, docs.files.starinfo);
    // Beta Centauri has no block: the new one takes the document's record size.
    takeNode(doc, { star: 'Beta Centauri', planet: 0, kind: 'bio', node: 5 });
    expect(doc.systems.at(-1)!.worlds.every((w) => w.partial?.length === 96)).toBe(true);
    const edited = saveWithStateFiles(save, { ...docs.files, starinfo: encodeOrThrow(starInfoFile, doc) });
    const back = throughBytes(edited);
    expect(back.magic).toBe('MMV4');
    expect(isNodeHarvested(back, { star: 'Beta Centauri', planet: 0, kind: 'bio', node: 5 })).toBe(true);
    expect(isNodeHarvested(back, { star: 'Sol', planet: 'Mercury', kind: 'mineral', node: 14 })).toBe(true);
    expect(scanOf(back)!.systems.at(-1)!.worlds[0]!.partial).toHaveLength(96);
  });

  test('when both sizes fit, the generated systems decide: MegaMod Gamma Centauri, vanilla 9-world star 24', () => {
    // Gamma Centauri (3 worlds) alone: 324 bytes are 27 vanilla records or 3 MegaMod ones.
    const mm = encodeOrThrow(starInfo(108), { systems: [{ star: 72, worlds: [0, 1, 2].map((m) => world(m, true)) }] });
    expect(choiceOf(mm)).toMatchObject({ recordSize: 108, basis: 'generated-systems' });
    const read = decode(starInfoFile, mm);
    if (E.isLeft(read)) throw read.left;
    expect(read.right.warnings).toEqual([]);
    expect(read.right.value.systems[0]!.worlds).toHaveLength(3);
    expect(encodeOrThrow(starInfoFile, read.right.value)).toEqual(mm);
    // A vanilla block of 9 worlds is 108 bytes: one MegaMod record, but star 24 has 9 worlds.
    const vanilla = encodeOrThrow(starInfo(12), {
      systems: [{ star: 24, worlds: Array.from({ length: 9 }, (_, m) => world(m, false)) }],
    });
    expect(choiceOf(vanilla)).toMatchObject({ recordSize: 12, basis: 'generated-systems' });
    expect(decodeOrThrow(starInfoFile, vanilla).systems[0]!.worlds).toHaveLength(9);
  });

  test('when nothing decides, it is read as vanilla with a warning at the block; starInfo(108) reads it as MegaMod', () => {
    // Two MegaMod records for Gamma Centauri (3 generated worlds): 18 vanilla records or 2 MegaMod ones.
    const info: StarInfo = { systems: [{ star: 72, worlds: [world(1, true), world(2, true)] }] };
    const bytes = encodeOrThrow(starInfo(108), info);
    const out = decode(starInfoFile, bytes);
    if (E.isLeft(out)) throw out.left;
    expect(out.right.warnings).toEqual([
      expect.objectContaining({ code: 'starinfo-record-size', offset: 2008, path: [] }),
    ]);
    expect(out.right.warnings[0]!.message).toMatch(/read as vanilla/);
    expect(out.right.value.systems[0]!.worlds).toHaveLength(18);
    expect(encodeOrThrow(starInfoFile, out.right.value)).toEqual(bytes);
    expect(decodeOrThrow(starInfo(108), bytes)).toEqual(info);
    // Inside a MegaMod save the save's magic settles it.
    const { save } = megaMod(createUqmSave());
    const files = stateFilesOf(save, 'writer').files;
    expect(scanOf(saveWithStateFiles(save, { ...files, starinfo: bytes }))).toEqual(info);
  });

  test('a file without blocks is the same either way: no warning, and it fits either save', () => {
    const { save } = megaMod(createUqmSave());
    const docs = stateFilesOf(save, 'writer');
    expect(docs.files.starinfo.length).toBe(STAR_TABLE_SIZE);
    const out = decode(starInfoFile, docs.files.starinfo);
    expect(E.isRight(out) && out.right.warnings).toEqual([]);
    expect(choiceOf(docs.files.starinfo).basis).toBe('no-blocks');
  });

  test('inconsistent files and a file of the other game are typed DecodeErrors with path, offset and code', () => {
    const { save } = scannedMegaMod();
    const files = stateFilesOf(save, 'writer').files;
    // MegaMod records into a vanilla save: refused, at Sol's block, not read as nine times the worlds.
    const vanillaSave = createUqmSave();
    const own = saveToStateFiles(vanillaSave);
    const wrongGame = (() => {
      try {
        saveWithStateFiles(vanillaSave, { ...own, starinfo: files.starinfo });
      } catch (e) {
        return e;
      }
    })();
    expect(wrongGame).toBeInstanceOf(DecodeError);
    expect(wrongGame).toMatchObject({ path: ['starinfo'], offset: 2008, code: 'size-mismatch' });
    // Vanilla records into the MegaMod save: Sol's 204 bytes are not whole 108-byte records.
    const vanilla = encodeOrThrow(starInfo(12), {
      systems: [{ star: 82, worlds: Array.from({ length: 17 }, () => world(0, false)) }],
    });
    expect(() => saveWithStateFiles(save, { ...files, starinfo: vanilla })).toThrow(DecodeError);
    // A standalone file whose last block is cut short: the read names the block, where it starts.
    const cut = files.starinfo.subarray(0, files.starinfo.length - 5);
    const out = starInfoFormat.decode(cut);
    expect(E.isLeft(out) && { path: out.left.path, offset: out.left.offset, code: out.left.code }).toEqual({
      path: ['systems', 1],
      offset: 2008 + 17 * 108,
      code: 'invalid-value',
    });
  });

  test('randgrp.dat and defgrp.dat keep the vanilla layout in MegaMod: sniffed, read and written back alike', () => {
    const registry = new FormatRegistry(formats);
    const vanilla = createUqmSave();
    const { save } = megaMod(vanilla);
    for (const layout of ['loader', 'writer'] as const) {
      const mm = saveToStateFiles(save, { defgrpLayout: layout });
      const plain = saveToStateFiles(vanilla, { defgrpLayout: layout });
      expect(mm.randgrp).toEqual(plain.randgrp);
      expect(mm.defgrp).toEqual(plain.defgrp);
      expect(registry.detect(mm.randgrp)).toBe(randomGroupsFormat);
      expect(registry.detect(mm.defgrp)).toBe(definedGroupsFormat);
      expect(encodeOrThrow(randomGroups, decodeOrThrow(randomGroups, mm.randgrp))).toEqual(mm.randgrp);
      expect(encodeOrThrow(definedGroupsFile, decodeOrThrow(definedGroupsFile, mm.defgrp))).toEqual(mm.defgrp);
    }
  });
});

test('savekit inspect / dump / build on a MegaMod starinfo.dat, and the files back into the save (CLI)', () => {
  const { save, bytes } = scannedMegaMod();
  const files = saveToStateFiles(save);
  const path = file('starinfo.dat', files.starinfo);
  const inspect = cli('inspect', path);
  expect({ status: inspect.status, err: inspect.err }).toEqual({ status: 0, err: '' });
  expect(inspect.out).toContain('(uqm-starinfo)');
  expect(inspect.out).toMatch(
    /MegaMod, 108-byte records\): 2 systems with taken nodes\nstar 82: 17 worlds\nstar 72: 3 worlds/,
  );
  expect(inspect.out).not.toContain('starinfo-record-size');
  const dump = cli('dump', path, '-o', `${path}.json`);
  expect(dump.status).toBe(0);
  const json = JSON.parse(readFileSync(`${path}.json`, 'utf8'));
  expect(json.format).toBe('uqm-starinfo');
  expect(json.document.systems[0].worlds).toHaveLength(17);
  expect(json.document.systems[0].worlds[0].partial).toHaveLength(192);
  const build = cli('build', `${path}.json`, '-o', `${path}.back`);
  expect(build.status).toBe(0);
  const rebuilt = new Uint8Array(readFileSync(`${path}.back`));
  expect(rebuilt).toEqual(files.starinfo);
  expect(encodeOrThrow(uqmSave, saveWithStateFiles(save, { ...files, starinfo: rebuilt }))).toEqual(bytes);
  // randgrp.dat and defgrp.dat of the MegaMod save, through the CLI too.
  for (const [key, id] of [
    ['randgrp', 'uqm-randgrp'],
    ['defgrp', 'uqm-defgrp'],
  ] as const) {
    const p = file(`${key}.dat`, files[key]);
    expect(cli('inspect', p).out).toContain(`(${id})`);
    expect(cli('dump', p, '-o', `${p}.json`).status).toBe(0);
    expect(cli('build', `${p}.json`, '-o', `${p}.back`).status).toBe(0);
    expect(new Uint8Array(readFileSync(`${p}.back`))).toEqual(files[key]);
  }
});

test('savekit inspect on an ambiguous starinfo.dat prints the record-size warning (CLI)', () => {
  const info: StarInfo = { systems: [{ star: 72, worlds: [world(1, true), world(2, true)] }] };
  const path = file('ambiguous-starinfo.dat', encodeOrThrow(starInfo(108), info));
  const inspect = cli('inspect', path);
  expect(inspect.status).toBe(0);
  expect(inspect.out).toContain('[starinfo-record-size]');
  expect(inspect.out).toContain('star 72: 18 worlds');
});

maybe('the real saves as MegaMod', () => {
  test.each([...saves.keys()])('%s: starinfo.dat extracted, read as MegaMod, back into the same save', (name) => {
    const { save, bytes } = megaMod(decodeOrThrow(uqmSave, saves.get(name)!));
    const registry = new FormatRegistry(formats);
    const docs = stateFilesOf(save, 'writer');
    const back: Record<string, Uint8Array> = {};
    for (const key of ['starinfo', 'randgrp', 'defgrp'] as const) {
      const format = registry.detect(docs.files[key])!;
      const out = format.decode(docs.files[key]);
      if (E.isLeft(out)) throw out.left;
      expect(out.right.warnings).toEqual([]);
      if (key === 'starinfo') expect(out.right.value).toEqual(docs.starinfo);
      const written = (format.encode as (d: unknown) => E.Either<Error, Uint8Array>)(out.right.value);
      if (E.isLeft(written)) throw written.left;
      back[key] = written.right;
    }
    expect(docs.starinfo.systems.every((s) => s.worlds.every((w) => w.partial?.length === 96))).toBe(true);
    const rebuilt = saveWithStateFiles(save, { ...docs.files, ...back } as typeof docs.files);
    expect(encodeOrThrow(uqmSave, rebuilt)).toEqual(bytes);
  });
});
