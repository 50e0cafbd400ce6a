/**
 * The savekit plugin: 0.8 and MegaMod saves (by magic) and 0.7 saves (by their summary's date).
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, encode, fourcc, isSaveTree, switchOn, type Codec, type SaveFormat } from '@savekit/core';
import { plural } from '@savekit/core/kit';
import { legacySave, looksLegacy, type LegacySave } from './legacy.js';
import { isSaveMagic, magicOf, uqmSave, type UqmSave } from './save.js';
import { fuel, resourceUnits, roster, scanOf } from './edits.js';

/** A decoded UQM save: 0.8/MegaMod (with its `magic`) or 0.7 (`summary` and `stream`). */
export type UqmDocument = UqmSave | LegacySave;

/** Whether a document is a 0.8 or MegaMod save (not a 0.7 one). */
export function isChunkedSave(doc: UqmDocument): doc is UqmSave {
  return 'magic' in doc;
}

const documentJson = new t.Type<UqmDocument, unknown, unknown>(
  'UqmDocument',
  (u): u is UqmDocument => uqmSave.json.is(u) || legacySave.json.is(u),
  (u, c) =>
    typeof u === 'object' && u !== null && 'magic' in u ? uqmSave.json.validate(u, c) : legacySave.json.validate(u, c),
  (a) => (isChunkedSave(a) ? uqmSave.json.encode(a) : legacySave.json.encode(a)),
);

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

/** The UQM save format. */
export const format: SaveFormat<UqmDocument> = {
  id: 'uqm',
  title: 'The Ur-Quan Masters save',
  extensions: [],
  input: 'file',
  sniff(input) {
    if (isSaveTree(input)) return 0;
    if (
      magicOf(input) !== undefined &&
      input.length >= 12 &&
      input[4] === 0x53 &&
      input[5] === 0x75 &&
      input[6] === 0x6d &&
      input[7] === 0x6d
    )
      return 0.95;
    return looksLegacy(input) ? 0.4 : 0;
  },
  decode(input, options) {
    if (isSaveTree(input)) return E.left(new DecodeError([], 0, 'a UQM save is one file, not a folder'));
    return decode(uqmDocument, input, options);
  },
  encode: (doc, options) => encode(uqmDocument, doc, options),
  json: documentJson,
  fieldMap(input) {
    const result = decode(uqmDocument, input, { trace: true });
    return E.isRight(result) ? (result.right.spans ?? []) : [];
  },
  summary,
};
