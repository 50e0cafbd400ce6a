/**
 * The three state files as formats of their own (`savekit inspect starinfo.dat`): as 0.7 kept them
 * on disk before 2005 and in its saves, and as {@link stateFilesOf} extracts them from any save. None
 * has a magic; each is sniffed by its structure — the star table's offsets, the GROUP_HEADER's date
 * and star, the reserved zero byte and the first header — which tells the three apart.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, fileFormat, isSaveTree, type Codec, type FileFormat } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import { saveToStateFiles, stateFilesToSave, type DefgrpLayout, type StateFiles } from './convert.js';
import { blockOffsets, definedGroupsFile, type DefinedGroupsFile } from './defgrp-file.js';
import { GROUP_HEADER_SIZE, groupHeaderLead, randomGroups, type RandomGroups } from './groups.js';
import type { UqmSave } from './save.js';
import { NUM_SOLAR_SYSTEMS, STAR_TABLE_SIZE, recordSizeOf, starInfo, starOffsets, type StarInfo } from './star-info.js';
import { starInfoFile } from './starinfo-file.js';

/** A GROUP_HEADER's first fields at `at` (date, star, first two offsets), if they read as one. */
function lead(input: Uint8Array, at: number) {
  const out = decode(groupHeaderLead, input.subarray(at, at + (groupHeaderLead.size as number)));
  return E.isRight(out) ? out.right.value : undefined;
}

/** Whether a date is one a GROUP_HEADER holds: day 1…31, month 1…12 (or all zero in a fresh header, star 0xFFFF). */
function plausibleDate(h: { day: number; month: number; year: number; starIndex: number }): boolean {
  if (h.day === 0 && h.month === 0 && h.year === 0) return h.starIndex === 0xffff;
  return h.day >= 1 && h.day <= 31 && h.month >= 1 && h.month <= 12 && h.year >= 2155 && h.year < 2200;
}

/** How likely bytes are `starinfo.dat`: the table's offsets all 0 or past it and inside the file. */
export function sniffStarInfo(input: Uint8Array): number {
  if (input.length < STAR_TABLE_SIZE) return 0;
  const table = decode(starOffsets, input.subarray(0, STAR_TABLE_SIZE));
  if (E.isLeft(table)) return 0;
  const used = table.right.value.filter((o) => o !== 0);
  if (used.some((o) => o < STAR_TABLE_SIZE || o >= input.length)) return 0;
  // Blocks are whole 12-byte records: every offset is 2008 plus a multiple of 12.
  if (used.some((o) => (o - STAR_TABLE_SIZE) % 12 !== 0)) return 0.3;
  return (input.length - STAR_TABLE_SIZE) % 12 === 0 ? 0.7 : 0.3;
}

/** How likely bytes are `randgrp.dat`: a GROUP_HEADER at 0 whose star, date and offsets make sense. */
export function sniffRandomGroups(input: Uint8Array): number {
  if (input.length < GROUP_HEADER_SIZE || input[0] === undefined) return 0;
  const h = lead(input, 0);
  if (h === undefined || h.pad3 !== undefined) return 0;
  if (h.starIndex >= NUM_SOLAR_SYSTEMS && h.starIndex !== 0xffff) return 0;
  if (!plausibleDate(h)) return 0;
  const [list, first] = h.offsets as [number, number];
  if ([list, first].some((o) => o !== 0 && (o < GROUP_HEADER_SIZE || o >= input.length))) return 0;
  return 0.6;
}

/** How likely bytes are `defgrp.dat`: the reserved zero, then nothing or a header the game appends. */
export function sniffDefinedGroups(input: Uint8Array): number {
  if (input.length === 0 || input[0] !== 0) return 0;
  if (input.length === 1) return 0.3;
  const h = lead(input, 1);
  if (h === undefined || h.numGroups < 1) return 0;
  const [list, first] = h.offsets as [number, number];
  return list === 0 && first === 1 + GROUP_HEADER_SIZE && plausibleDate(h) ? 0.7 : 0;
}

/**
 * The format of a state file: its one file name (`uqm-` and the name is its id), no magic — never a
 * save tree — and sniffed by its structure; its summary's first line names the file.
 */
function stateFileFormat<A>(
  codec: Codec<A>,
  fileName: 'starinfo.dat' | 'randgrp.dat' | 'defgrp.dat',
  sniff: (input: Uint8Array) => number,
  summary: (doc: A) => [string, ...string[]],
): FileFormat<A> {
  return fileFormat(codec, {
    id: `uqm-${fileName.slice(0, -'.dat'.length)}`,
    title: `UQM ${fileName}`,
    extensions: ['.dat'],
    fileNames: [fileName],
    sniff: (input) => (isSaveTree(input) ? 0 : sniff(input)),
    summary: (doc) => {
      const [first, ...rest] = summary(doc);
      return [`UQM ${fileName}${first}`, ...rest];
    },
  });
}

/**
 * `starinfo.dat`: which nodes were taken on which worlds, in vanilla's 12-byte records or MegaMod's
 * 108-byte ones, told apart by the blocks' sizes ({@link starInfoFile}).
 */
export const starInfoFormat: FileFormat<StarInfo> = stateFileFormat(
  starInfoFile,
  'starinfo.dat',
  sniffStarInfo,
  (info) => [
    `${info.systems.length === 0 ? '' : recordSizeOf(info) === 108 ? ' (MegaMod, 108-byte records)' : ' (vanilla, 12-byte records)'}: ${plural(info.systems.length, 'system')} with taken nodes`,
    ...info.systems.map((s) => `star ${s.star}: ${plural(s.worlds.length, 'world')}`),
  ],
);

/** `randgrp.dat`: the random groups of the last system visited, and its group list. */
export const randomGroupsFormat: FileFormat<RandomGroups> = stateFileFormat(
  randomGroups,
  'randgrp.dat',
  sniffRandomGroups,
  ({ root: h }) => [
    `: ${h.starIndex === 0xffff ? 'no star' : `star ${h.starIndex}`}, ${plural(h.numGroups, 'group slot')}, expires ${h.day}.${h.month}.${h.year}`,
  ],
);

/** `defgrp.dat`: the groups the plot placed (probe, Melnorme traders, …), one block each. */
export const definedGroupsFormat: FileFormat<DefinedGroupsFile> = stateFileFormat(
  definedGroupsFile,
  'defgrp.dat',
  sniffDefinedGroups,
  (doc) => {
    const at = blockOffsets(doc);
    return [
      `: ${plural(doc.blocks.length, 'defined group block')}`,
      ...doc.blocks.map((b, i) => `at ${at[i]}: star ${b.starIndex}, ${plural(b.groups.length, 'group')}`),
    ];
  },
);

/** The decoded state files of a save (each as its format's document), and what ties them to it. */
export interface StateDocuments {
  starinfo: StarInfo;
  randgrp: RandomGroups;
  defgrp: DefinedGroupsFile;
  /** The raw files and the game state whose `X_GRPOFFS` point into this `defgrp.dat`. */
  files: StateFiles;
}

function must<A>(what: string, result: E.Either<{ message: string }, { value: A }>): A {
  if (E.isLeft(result)) throw new Error(`${what}: ${result.left.message}`);
  return result.right.value;
}

/**
 * A save's state files, as the game holds them after loading it (uqm.md §5.2), decoded: the files
 * `savekit inspect` reads on their own. `layout` as in {@link saveToStateFiles}.
 */
export function stateFilesOf(save: UqmSave, layout: DefgrpLayout = 'loader'): StateDocuments {
  const files = saveToStateFiles(save, { defgrpLayout: layout });
  return {
    starinfo: must('starinfo.dat', decode(starInfo(save.magic === 'UMS\x01' ? 12 : 108), files.starinfo)),
    randgrp: must('randgrp.dat', decode(randomGroups, files.randgrp)),
    defgrp: must('defgrp.dat', decode(definedGroupsFile, files.defgrp)),
    files,
  };
}

/**
 * A save with state files put back (the other way): `save`'s `Scan`, `Grps` and `BtGp` chunks and its
 * game state's `X_GRPOFFS` rebuilt from the files, as the game's `SaveGame` writes them. `files`
 * holds the bytes of each file (for instance read from disk); the game state and BattleGroupRef come
 * from `save` unless given.
 */
export function saveWithStateFiles(
  save: UqmSave,
  files: Pick<StateFiles, 'starinfo' | 'randgrp' | 'defgrp'> & Partial<StateFiles>,
): UqmSave {
  const own = saveToStateFiles(save, { defgrpLayout: 'writer' });
  return stateFilesToSave(save, {
    starinfo: files.starinfo,
    randgrp: files.randgrp,
    defgrp: files.defgrp,
    gameState: files.gameState ?? own.gameState,
    battleGroupRef: files.battleGroupRef ?? own.battleGroupRef,
  });
}
