/**
 * The savekit plugin: 0.8 and MegaMod saves (by magic) and 0.7 saves (by their summary's date).
 *
 * @module
 */
import * as t from 'io-ts';
import { fileFormat, fourcc, isSaveTree, switchOn, type Codec, type FileFormat } from '@savekit/core';
import { plural, type MisfitPart, type NamesMisfitPart } from '@savekit/core/kit';
import { legacySave, looksLegacy, type LegacySave } from './legacy.js';
import { isSaveMagic, uqmSave, type UqmSave } from './save.js';
import { fuel, resourceUnits, roster, scanOf } from './edits.js';
import { uqmViews } from './views.js';
import { definedGroupsFormat, randomGroupsFormat, starInfoFormat } from './state-formats.js';

/** A decoded UQM save: 0.8/MegaMod (with its `magic`) or 0.7 (`summary` and `stream`). */
export type UqmDocument = UqmSave | LegacySave;

/** Whether a document is a 0.8 or MegaMod save (not a 0.7 one). */
export function isChunkedSave(doc: UqmDocument): doc is UqmSave {
  return 'magic' in doc;
}

/** Whether a value is meant as a 0.8 or MegaMod save (it has a magic), not a 0.7 one. */
const meantChunked = (u: unknown): boolean => typeof u === 'object' && u !== null && 'magic' in u;

/** A document's JSON type: a 0.8/MegaMod save's or a 0.7 save's, as its `magic` says (`toJson` looks into the one meant). */
class DocumentJson extends t.Type<UqmDocument, unknown, unknown> implements NamesMisfitPart {
  constructor() {
    super(
      'UqmDocument',
      (u): u is UqmDocument => uqmSave.json.is(u) || legacySave.json.is(u),
      (u, c) => (meantChunked(u) ? uqmSave.json.validate(u, c) : legacySave.json.validate(u, c)),
      (a) => (isChunkedSave(a) ? uqmSave.json.encode(a) : legacySave.json.encode(a)),
    );
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    // A value with chunks but no magic was meant as a 0.8 save whose magic is missing.
    const chunked = meantChunked(value) || (typeof value === 'object' && value !== null && 'chunks' in value);
    const meant = chunked ? uqmSave.json : legacySave.json;
    return meant.is(value) ? undefined : { type: meant, value };
  }
}

const documentJson = new DocumentJson();

/**
 * Either kind of UQM save, told apart by the 0.8 / MegaMod magic (`switchOn` its first four bytes):
 * a file without one is a 0.7 save. Writing checks the choice back, so a 0.7 save whose first bytes
 * would spell a magic is refused rather than written as a file that reads as another kind.
 */
export const uqmDocument: Codec<UqmDocument> = switchOn(
  fourcc(),
  { chunked: uqmSave, legacy: legacySave },
  {
    name: 'uqmDocument',
    json: documentJson,
    select: (found) => (isSaveMagic(found) ? 'chunked' : 'legacy'),
    caseOf: (doc) => (typeof doc === 'object' && doc !== null && isChunkedSave(doc) ? 'chunked' : 'legacy'),
  },
) as Codec<UqmDocument>;

function summary(doc: UqmDocument): string[] {
  if (!isChunkedSave(doc)) {
    const s = doc.summary;
    return [`UQM 0.7 save (LZHUF), ${s.summary.day}.${s.summary.month}.${s.summary.year}, ${s.sis.resUnits} RU`];
  }
  const s = doc.summary;
  const kind = doc.magic === 'UMS\x01' ? 'UQM 0.8 save' : `MegaMod save (${doc.magic})`;
  const name = typeof s.name === 'string' ? s.name : '(name not UTF-8)';
  const lines = [
    `${kind} "${name}", ${s.summary.day}.${s.summary.month}.${s.summary.year}`,
    `${resourceUnits(doc)} RU, fuel ${fuel(doc) / 100}, crew ${s.sis.crewEnlisted}, ${plural(roster(doc).length, 'escort')}`,
  ];
  const scan = scanOf(doc);
  if (scan !== undefined)
    lines.push(
      `scanned systems: ${scan.systems.map((x) => `star ${x.star} (${plural(x.worlds.length, 'world')})`).join(', ') || 'none'}`,
    );
  return lines;
}

/** The UQM save format: `fileFormat` over {@link uqmDocument}. */
export const format: FileFormat<UqmDocument> = fileFormat(uqmDocument, {
  id: 'uqm',
  title: 'The Ur-Quan Masters save',
  // A 0.8 or MegaMod save: its magic, then its first chunk, `Summ`.
  magic: ['UMS\x01Summ', 'MMV4Summ', 'MMV3Summ', 'MEGASumm'],
  minLength: 12,
  confidence: 0.95,
  // A 0.7 save has no magic: its summary's date and the LZHUF stream's length make a weaker guess.
  sniff: (input) => (!isSaveTree(input) && looksLegacy(input) ? 0.4 : 0),
  json: documentJson,
  summary,
  views: uqmViews,
});

/**
 * Every format this package registers (the plugin contract's `formats`): saves, and the three state
 * files on their own.
 */
export const formats: ReadonlyArray<FileFormat<unknown>> = [
  format,
  starInfoFormat,
  randomGroupsFormat,
  definedGroupsFormat,
] as ReadonlyArray<FileFormat<unknown>>;
