// Paths are document paths (issue 18, item 4): every span, warning and error path of a UQM save names
// a value of the document as toJson shows it — `summary.sis.logX`, not `summary.Summ.sis.logX`;
// `chunks[6].body.systems[0]` by block, not by star number.
import * as E from 'fp-ts/lib/Either';
import { decode, documentPath, encode, encodeOrThrow, formatPath, toJson, type Path } from '@savekit/core';
import {
  chunkOf,
  createUqmSave,
  format,
  readDefinedGroups,
  stateBattleGroup,
  harvest,
  legacySave,
  saveToLegacy,
  toMegaMod,
  uqmDocument,
  uqmSave,
  type UqmDocument,
  type UqmSave,
} from '@savekit/uqm';
import { realSaves, warnIfAbsent } from './corpus';
import { groupHeaderBytes } from './state-files';

warnIfAbsent('UQM document paths');

/**
 * Layout fields, not values of the document: the chunk framing (`marker`, `length`), a transform's
 * stored length (`decodedLength`), and paddings (`pad38`: undefined in the document while zero).
 */
const isLayout = (segment: string | number) =>
  typeof segment === 'string' && (/^(marker|length|decodedLength)$/.test(segment) || /^pad\d+$/.test(segment));

const isObject = (v: unknown): v is Record<string | number, unknown> => typeof v === 'object' && v !== null;

/** Whether `path` names a value of `json` (or a layout field of one). */
function resolves(json: unknown, path: Path): boolean {
  const doc = documentPath(path);
  let at: unknown = json;
  for (const [i, segment] of doc.entries()) {
    if (!isObject(at) || !(segment in at)) return i === doc.length - 1 && isLayout(segment);
    at = at[segment];
  }
  return true;
}

/** Every path names a value of the document's JSON (the ones that do not are listed when it fails). */
function expectResolved(doc: UqmDocument, paths: ReadonlyArray<Path>): void {
  const json = toJson(format, doc);
  expect([...new Set(paths.filter((p) => !resolves(json, p)).map((p) => formatPath(p)))]).toEqual([]);
}

function spansOf(bytes: Uint8Array) {
  const result = format.decode(bytes, { trace: true });
  if (E.isLeft(result)) throw result.left;
  return { doc: result.right.value, spans: result.right.spans ?? [], warnings: result.right.warnings };
}

function documents(): Array<[string, Uint8Array]> {
  const created = createUqmSave();
  harvest(created, 82, 1, 'mineral', 3, 4);
  const out: Array<[string, Uint8Array]> = [['a new save, harvested', encodeOk(created)]];
  for (const [name, bytes] of realSaves()) {
    const save = spansOf(bytes).doc as UqmSave;
    out.push([name, bytes], [`${name} as MMV4`, encodeOk(toMegaMod(save))]);
    out.push([`${name} as 0.7`, encodeOk(saveToLegacy(save))]);
  }
  return out;
}

function encodeOk(doc: UqmDocument): Uint8Array {
  const result = encode(uqmDocument, doc);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

describe('UQM paths are document paths', () => {
  test.each(documents())('%s: every traced span names a value of toJson(document)', (_, bytes) => {
    const { doc, spans } = spansOf(bytes);
    expect(spans.length).toBeGreaterThan(100);
    // A span of no bytes may be an optional value the document leaves out (`rest: undefined`): its
    // parent must resolve.
    const paths = spans.map((s) => (s.start === s.end ? s.path.slice(0, -1) : s.path));
    expectResolved(doc, paths);
    // The summary's fields are the summary's: summary.sis.logX, as the document has it.
    if ('magic' in doc) expect(spans.map((s) => s.path.join('.'))).toContain('summary.sis.logX');
  });

  test('scan systems are numbered by block, as the document lists them, not by star', () => {
    const save = createUqmSave();
    harvest(save, 300, 0, 'bio', 1, 2);
    harvest(save, 5, 1, 'energy', 2, 3);
    const { doc, spans } = spansOf(encodeOk(save));
    const scan = (doc as UqmSave).chunks.findIndex((c) => c.id === 'Scan');
    const systems = spans.filter((s) => s.path[0] === 'chunks' && s.path[1] === scan && s.path[3] === 'systems');
    expect([...new Set(systems.map((s) => s.path[4]).filter((i) => i !== undefined))]).toEqual([0, 1]);
    expectResolved(
      doc,
      systems.map((s) => s.path),
    );
  });

  test('a warning names the chunk it is about', () => {
    const save = createUqmSave();
    const gmst = save.chunks.findIndex((c) => c.id === 'GmSt');
    save.chunks[gmst] = { id: 'GmSt', body: { raw: new Uint8Array(7) } } as never;
    const { doc, warnings } = spansOf(encodeOk(save));
    expect(warnings.map((w) => w.code)).toEqual(['game-state-size']);
    expectResolved(
      doc,
      warnings.map((w) => w.path),
    );
  });

  test("decode errors in UQM's own codecs name the document value they are about", () => {
    const save = createUqmSave();
    harvest(save, 82, 0, 'mineral', 1, 2);
    const bytes = encodeOk(save);
    const json = toJson(format, spansOf(bytes).doc);
    // Star 82's table entry pointed into the table; and a Summ field past its chunk.
    const scanAt = findChunk(bytes, 'Scan');
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(scanAt + 8 + 82 * 4, 100, true);
    const tableError = decode(uqmSave, bad);
    const cut = bytes.slice(0, 4 + 8 + 40);
    const summaryError = decode(uqmSave, cut);
    for (const result of [tableError, summaryError]) {
      if (E.isRight(result)) throw new Error('decoded');
      expect(resolves(json, result.left.path)).toBe(true);
    }
    expect(E.isLeft(tableError) && tableError.left.offset).toBe(scanAt + 8 + 82 * 4);
    expect(E.isLeft(summaryError) && summaryError.left.path).toEqual(['summary']);
  });

  test("defgrp.dat errors name the value's place in the result: [encounter].header, [encounter].groups[i]", () => {
    const header = (offsets: number[]) => groupHeaderBytes(offsets.length, offsets);
    const group = encodeOrThrow(stateBattleGroup, { raceType: 1, ships: [] });
    const file = new Uint8Array(1 + 268 + 2 * group.length);
    file.set(header([269, 271]), 1);
    file.set(group, 269);
    file.set(group, 271);
    const good = readDefinedGroups(file, new Map([[3, 1]]));
    if (E.isLeft(good)) throw good.left;
    expect(resolves(good.right, [0, 'groups', 1])).toBe(true);
    const broken = file.slice(0, 271); // the second group cut off
    const cut = readDefinedGroups(broken, new Map([[3, 1]]));
    expect(E.isLeft(cut) && cut.left.path).toEqual([0, 'groups', 1]);
    const many = file.slice();
    many[1] = 65; // NumGroups
    const tooMany = readDefinedGroups(many, new Map([[3, 1]]));
    expect(E.isLeft(tooMany) && [tooMany.left.path, tooMany.left.offset, tooMany.left.message]).toEqual([
      [0, 'header', 'numGroups'],
      1,
      'numGroups: NumGroups 65 is more than the 64 slots a GROUP_HEADER has',
    ]);
    expect(resolves(good.right, [0, 'header', 'numGroups'])).toBe(true);
  });

  test('encode errors name the refused value in the document given', () => {
    const refusals: Array<(s: UqmSave) => void> = [
      (s) => {
        s.summary.sis.logX = 2 ** 40;
      },
      (s) => {
        s.summary.shipName = 7 as never;
      },
      (s) => {
        const scan = chunkOf(s, 'Scan')!.body as { systems: unknown[] };
        scan.systems = [{ star: 3, worlds: [{ mineral: -1, energy: 0, bio: 0 }] }];
      },
      (s) => {
        const star = chunkOf(s, 'Star')!.body as { rest?: Uint8Array };
        star.rest = new Uint8Array(0);
      },
    ];
    for (const refuse of refusals) {
      const save = createUqmSave();
      refuse(save);
      const result = encode(uqmSave, save);
      if (E.isRight(result)) throw new Error('encoded');
      expect(resolves(save, result.left.path)).toBe(true);
    }
    const legacy = saveToLegacy(createUqmSave());
    legacy.summary.sis.resUnits = -1;
    const result = encode(legacySave, legacy);
    expect(E.isLeft(result) && result.left.path).toEqual(['summary', 'sis', 'resUnits']);
  });
});

/** The offset of the first chunk with `tag` in a 0.8 save (after its magic). */
function findChunk(bytes: Uint8Array, tag: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 4; at + 8 <= bytes.length; at += 8 + view.getUint32(at + 4, true)) {
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === tag) return at;
  }
  throw new Error(`no ${tag} chunk`);
}
