// Documents no format expects, given to each format's encode (found by a helper's hunt over the
// bundled samples): values whose description throws, and sparse arrays of length 2^32 − 1 whose
// pre-passes (sizes, numbering, layout checks) walked every index — a hang. Each is now an
// EncodeError at once, at the place the document holds the bad value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import { type Codec, encode, EncodeError, formatPath, fromJson, JsonError, toJson } from '@savekit/core';
import * as edge from '@savekit/edge';
import * as terrarum from '@savekit/terrarum';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';

const samples = join(__dirname, '..', 'examples', 'saves');
// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain data here
type Doc = any;
function sample(format: { decode(b: Uint8Array): E.Either<unknown, { value: unknown }> }, file: string): Doc {
  const result = format.decode(new Uint8Array(readFileSync(join(samples, file))));
  if (E.isLeft(result)) throw result.left;
  return result.right.value;
}
const sparse = (): unknown[] => {
  const list: unknown[] = [];
  list.length = 2 ** 32 - 1;
  return list;
};

/** The refusal, as `code at path: message` (the encode must not throw). */
function refused(result: E.Either<EncodeError, unknown>): string {
  if (E.isRight(result)) throw new Error('expected the encode to be refused');
  expect(result.left).toBeInstanceOf(EncodeError);
  return `${result.left.code} at ${formatPath(result.left.path)}: ${result.left.message}`;
}

describe('values whose description throws', () => {
  test('zippy: a bigint byte order', () => {
    const doc = sample(zippy.format, 'zippy-01.zsav');
    expect(refused(zippy.format.encode({ ...doc, byteOrder: 5n }))).toBe(
      'out-of-range at byteOrder: expected "le" or "be", got 5n',
    );
  });
  test('uqm: a null-prototype object in an integer and in a bit field', () => {
    const doc = sample(uqm.format, 'uqm-01.sav');
    doc.summary.sis.logX = Object.create(null);
    expect(refused(uqm.format.encode(doc))).toMatch(/^wrong-type at summary\.sis\.logX: expected an integer/);
    const again = sample(uqm.format, 'uqm-01.sav');
    again.chunks[1].body.SHOFIXTI_VISITS = Object.create(null);
    expect(refused(uqm.format.encode(again))).toMatch(/^out-of-range at chunks\[1\]\.body\.SHOFIXTI_VISITS: \{\} does/);
  });
  test('edge: a chunk id that is a bigint or a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const id of [5n, cyclic]) {
      const doc = sample(edge.format, 'edge-01.esg');
      doc.chunks[3].id = id;
      expect(refused(edge.format.encode(doc))).toMatch(/ at chunks\[3\]: /);
    }
  });
});

describe('sparse arrays of length 2^32 − 1', () => {
  test('zippy: externals, segments, a Vector, the roots', () => {
    const doc = sample(zippy.format, 'zippy-01.zsav');
    expect(refused(zippy.format.encode({ ...doc, externals: sparse() }))).toMatch(/external 0 is missing/);
    const segments = sample(zippy.format, 'zippy-01.zsav');
    segments.objects[2].segments.length = 2 ** 32 - 1;
    expect(refused(zippy.format.encode(segments))).toMatch(/^wrong-type at objects\[2\]\.segments\[/);
    expect(refused(zippy.writeSavefile([new zippy.Vector(sparse() as number[])], zippy.adataSaver))).toMatch(
      /Vector element 0 is missing/,
    );
    expect(refused(zippy.writeSavefile(sparse() as never, zippy.adataSaver))).toBe(
      'wrong-type at roots[0]: root 0 is missing: the list of roots has a hole',
    );
  });
  test('edge: an array of instances, a Glob, a new save', () => {
    const doc = sample(edge.format, 'edge-01.esg');
    doc.chunks[42].body.value.elements.length = 2 ** 32 - 1;
    expect(refused(edge.format.encode(doc))).toMatch(/the array has a hole/);
    const glob = sample(edge.format, 'edge-01.esg');
    glob.chunks[0].body.value.length = 2 ** 32 - 1;
    expect(refused(edge.format.encode(glob))).toMatch(/^wrong-type at chunks\[0\]\.body\.value /);
    const fresh = edge.createSave({ arrays: { mobjs: sparse() as never } });
    expect(refused(encode(edge.edgeSave, fresh))).toMatch(/array mobjs: element 4294967294 is missing/);
  });
  test('terrarum: a directory of the disk', () => {
    const doc = sample(terrarum.format, 'terrarum-01.tevd');
    doc.disk.entries[5].content.children.length = 2 ** 32 - 1;
    expect(refused(terrarum.format.encode(doc))).toMatch(/^invalid-value at disk\.entries\[5\]\.content: /);
  });
});

// JSON text has no holes, but a script can hand `fromJson` or a format's `json.decode` any object:
// io-ts's arrays checked each of 2^32 − 1 missing elements and kept an error for each until the heap
// ran out (the process aborted), and `toJson` walked them all. Core's `jsonArray`, which every
// format's JSON form uses for its arrays, stops at the first hole.
describe('sparse arrays in the JSON form', () => {
  type AnyFormat = Pick<Codec<Doc>, 'json'> & { decode(b: Uint8Array): E.Either<unknown, { value: unknown }> };
  const formats: Array<[string, AnyFormat, string]> = [
    ['edge', edge.format, 'edge-01.esg'],
    ['terrarum', terrarum.format, 'terrarum-01.tevd'],
    ['uqm', uqm.format, 'uqm-01.sav'],
    ['zippy', zippy.format, 'zippy-01.zsav'],
  ];

  /** The path and the array of the first non-empty array in `json`, breadth first. */
  function firstArray(json: unknown): [Array<string | number>, unknown[]] {
    const queue: Array<[Array<string | number>, unknown]> = [[[], json]];
    for (let i = 0; i < queue.length; i++) {
      const [path, value] = queue[i]!;
      if (Array.isArray(value)) {
        if (value.length > 0) return [path, value];
        continue;
      }
      if (typeof value === 'object' && value !== null)
        for (const [key, child] of Object.entries(value)) queue.push([[...path, key], child]);
    }
    throw new Error('no array in the JSON form');
  }

  test.each(formats)('%s: fromJson and json.decode refuse a hole at its index', (_, format, file) => {
    const json = toJson(format, sample(format, file));
    const [path, list] = firstArray(json);
    const length = list.length;
    list.length = 2 ** 32 - 1;
    const viaFromJson = fromJson(format, json);
    if (E.isRight(viaFromJson)) throw new Error('a sparse array was read');
    expect(viaFromJson.left).toBeInstanceOf(JsonError);
    expect(viaFromJson.left.problems).toContainEqual({
      path: [...path, length],
      message: `the array has no element at [${length}] (a hole: JSON has none)`,
      code: 'wrong-type',
    });
    expect(E.isLeft(format.json.decode(json))).toBe(true);
  });

  test.each(formats)('%s: toJson of a document with a hole names the hole', (_, format, file) => {
    const doc = sample(format, file);
    const [path] = firstArray(toJson(format, doc));
    // The same array in the document (the JSON form keeps the document's keys down to it).
    let list: unknown = doc;
    for (const key of path) list = (list as Record<string | number, unknown>)[key];
    if (!Array.isArray(list)) return; // a JSON array that is something else in the document (bytes)
    const length = list.length;
    list.length = 2 ** 32 - 1;
    expect(() => toJson(format, doc)).toThrow(`the array has no element at [${length}]`);
  });
});

// A part the format's own checks walk before the codec reaches it (a count written ahead of its list,
// a layout check, the save merged into its disk) was refused at the wrong place: at the count, at the
// root with a TypeError's text, or as an empty list that a later field was then blamed for. Each is
// now a `wrong-type` EncodeError at the part itself.
describe('parts not of their shape are refused where the document holds them', () => {
  test('zippy: objects that are not a list, a root that is not an object', () => {
    const doc = sample(zippy.format, 'zippy-01.zsav');
    expect(refused(zippy.format.encode({ ...doc, objects: 7 }))).toBe(
      'wrong-type at objects: expected a list of objects, got 7',
    );
    expect(refused(zippy.format.encode({ ...doc, roots: null }))).toBe(
      'wrong-type at roots: expected a list of roots, got null',
    );
    expect(refused(zippy.writeSavefile([null, 5 as never], zippy.adataSaver))).toBe(
      'wrong-type at roots[1]: a reference must be an object or null, got number',
    );
  });
  test('edge: a hole or a number among the chunks, a definition without its fields', () => {
    const holey = sample(edge.format, 'edge-01.esg');
    delete holey.chunks[3];
    expect(refused(edge.format.encode(holey))).toBe('wrong-type at chunks[3]: chunk 3 is missing: the list has a hole');
    const number = sample(edge.format, 'edge-01.esg');
    number.chunks[2] = 5;
    expect(refused(edge.format.encode(number))).toBe('wrong-type at chunks[2]: expected a chunk, got 5');
    const definition = sample(edge.format, 'edge-01.esg');
    const stru = definition.chunks.find((c: Doc) => c.id === 'Stru');
    stru.body.value.fields = null;
    const error = edge.format.encode(definition);
    expect(refused(error)).toMatch(
      /^wrong-type at chunks\[\d+\]\.body\.value .*\.fields: expected a list of fields, got null$/,
    );
    if (E.isLeft(error)) expect(error.left.path.at(-1)).toBe('fields');
  });
  test('terrarum: a CSV with a hole, rows that are not a list, a disk entry that is not one, a hole among its children', () => {
    const rows = sample(terrarum.format, 'terrarum-01.tevd');
    delete rows.save.worldinfo2.rows[1];
    expect(refused(terrarum.format.encode(rows))).toBe(
      'wrong-type at save.worldinfo2.rows[1]: row 1 is missing: the list has a hole',
    );
    const cell = sample(terrarum.format, 'terrarum-01.tevd');
    delete cell.save.worldinfo3.rows[1][1];
    expect(refused(terrarum.format.encode(cell))).toBe(
      'wrong-type at save.worldinfo3.rows[1][1]: field 1 is missing: the list has a hole',
    );
    const notRows = sample(terrarum.format, 'terrarum-01.tevd');
    notRows.save.lists['Tiles_list.txt'].rows = 5;
    expect(refused(terrarum.format.encode(notRows))).toBe(
      'wrong-type at save.lists.Tiles_list.txt.rows: expected a list of rows, got 5',
    );
    const entries = sample(terrarum.format, 'terrarum-01.tevd');
    delete entries.disk.entries[2];
    expect(refused(terrarum.format.encode(entries))).toBe(
      'wrong-type at disk.entries[2]: entry 2 is missing: the list has a hole',
    );
    const child = sample(terrarum.format, 'terrarum-01.tevd');
    delete child.disk.entries[0].content.children[1];
    expect(refused(terrarum.format.encode(child))).toBe(
      'wrong-type at disk.entries[0].content.children[1]: child 1 is missing: the list has a hole',
    );
    const entry = sample(terrarum.format, 'terrarum-01.tevd');
    entry.disk.entries[4].content = 7;
    expect(refused(terrarum.format.encode(entry))).toBe(
      'wrong-type at disk.entries[4].content: expected its content, got 7',
    );
    const save = sample(terrarum.format, 'terrarum-01.tevd');
    save.save.actors = [];
    expect(refused(terrarum.format.encode(save))).toBe(
      'wrong-type at save.actors: expected a record of actors by name, got an array of 0',
    );
  });
});

// toJson trusted the document: a part of another shape was written into the JSON form unseen (a list
// that was not one became `[]`, a number stood where a name belongs) or blamed on the root with the
// format's whole type name (thousands of characters). Each is now a JsonError at the part.
describe('toJson names the part not of its shape, never writes it', () => {
  /** toJson's refusal, as `path: message`; `code`: the problem's (a part not of its shape by default). */
  function jsonRefused(format: Pick<Codec<Doc>, 'json'>, doc: Doc, code = 'wrong-type'): string {
    try {
      toJson(format, doc);
    } catch (error) {
      expect(error).toBeInstanceOf(JsonError);
      const [problem] = (error as JsonError).problems;
      expect(problem!.message.length).toBeLessThan(200);
      expect(problem!.code).toBe(code);
      return `${formatPath(problem!.path)}: ${problem!.message}`;
    }
    throw new Error('expected toJson to refuse the document');
  }

  test('zippy: segments that are not a list', () => {
    const doc = sample(zippy.format, 'zippy-01.zsav');
    doc.objects[0].segments = 5;
    expect(jsonRefused(zippy.format, doc)).toBe('objects[0].segments: not Array<HexBytes>: got 5');
  });

  test('terrarum: rows that are not a list, a hole in them, a number for a name, entries that are not a list', () => {
    const rows = sample(terrarum.format, 'terrarum-01.tevd');
    rows.save.worldinfo2.rows = 5;
    expect(jsonRefused(terrarum.format, rows)).toBe('save.worldinfo2.rows: not Array<Array<string>>: got 5');
    const hole = sample(terrarum.format, 'terrarum-01.tevd');
    delete hole.save.worldinfo3.rows[0];
    expect(jsonRefused(terrarum.format, hole)).toBe(
      'save.worldinfo3.rows[0]: not Array<string>: the array has no element at [0] (a hole: JSON has none)',
    );
    const name = sample(terrarum.format, 'terrarum-01.tevd');
    name.save.meta.name = 5;
    expect(jsonRefused(terrarum.format, name)).toMatch(/^save\.meta\.name: not .*: got 5$/);
    const entries = sample(terrarum.format, 'terrarum-01.tevd');
    entries.disk.entries = 5;
    expect(jsonRefused(terrarum.format, entries)).toMatch(/^disk\.entries: not Array<.*…: got 5$/);
  });

  test('edge: a chunk that is not one, a body that is not one, a version that is not a number', () => {
    const chunk = sample(edge.format, 'edge-01.esg');
    chunk.chunks[2] = 5;
    expect(jsonRefused(edge.format, chunk)).toMatch(/^chunks\[2\]: not \(chunk\(Glob\) \| .*\): got 5$/);
    const body = sample(edge.format, 'edge-01.esg');
    body.chunks[3].body = 5;
    expect(jsonRefused(edge.format, body)).toMatch(/^chunks\[3\]\.body: not .*: got 5$/);
    const fields = sample(edge.format, 'edge-01.esg');
    const stru = fields.chunks.findIndex((c: Doc) => c.id === 'Stru');
    fields.chunks[stru].body.value.fields = 5; // under the chunk body's switch: the case its caseOf picks
    expect(jsonRefused(edge.format, fields)).toBe(`chunks[${stru}].body.value.fields: not Array<FieldDef>: got 5`);
    const version = sample(edge.format, 'edge-01.esg');
    version.version = 1.5;
    expect(jsonRefused(edge.format, version)).toBe('version: not Int: got 1.5');
  });

  test('edge: an array count the file cannot hold, a thumbnail size no codec is chosen for, what JSON cannot hold', () => {
    const count = sample(edge.format, 'edge-01.esg');
    const arry = count.chunks.findIndex((c: Doc) => c.id === 'Arry');
    count.chunks[arry].body.value.count = 2 ** 53; // JSON held it, but reading it back asks for 32 bits
    expect(jsonRefused(edge.format, count)).toBe(`chunks[${arry}].body.value.count: not count: got 9007199254740992`);
    const thumbnail = sample(edge.format, 'edge-01.esg');
    const view = thumbnail.chunks[0].body.value.findIndex((c: Doc) => c.id === 'View');
    thumbnail.chunks[0].body.value[view].body.width = -1; // the pixels' codec refuses the size: was an Error
    expect(jsonRefused(edge.format, thumbnail)).toMatch(
      new RegExp(`^chunks\\[0\\]\\.body\\.value\\[${view}\\]\\.body: not orRaw\\(thumbnail\\): got \\{"width":-1,`),
    );
    for (const [bad, shown] of [
      [10n, '10n, a bigint, which JSON cannot write'],
      [Number.NaN, 'NaN, which JSON writes as null'],
    ] as const) {
      const field = sample(edge.format, 'edge-01.esg');
      const data = field.chunks.findIndex((c: Doc) => c.id === 'Data' && c.body.value.elements.length > 0);
      field.chunks[data].body.value.elements[0].x = bad;
      expect(jsonRefused(edge.format, field, 'invalid-value')).toBe(
        `chunks[${data}].body.value.elements[0].x: not JSON data: ${shown}`,
      );
    }
  });

  test('zippy, terrarum: NaN through a plain number, a bigint in an actor', () => {
    const zippyDoc = sample(zippy.format, 'zippy-01.zsav');
    zippyDoc.minor = Number.NaN;
    expect(jsonRefused(zippy.format, zippyDoc, 'invalid-value')).toBe(
      'minor: not JSON data: NaN, which JSON writes as null',
    );
    const actor = sample(terrarum.format, 'terrarum-01.tevd');
    const id = Object.keys(actor.save.actors)[0]!;
    actor.save.actors[id].value = { x: 10n };
    expect(jsonRefused(terrarum.format, actor, 'invalid-value')).toBe(
      `save.actors.${id}.value.x: not JSON data: 10n, a bigint, which JSON cannot write`,
    );
  });

  test('uqm: a magic that is none, a summary and chunks that are not theirs', () => {
    const magic = sample(uqm.format, 'uqm-01.sav');
    magic.magic = 'MMV9';
    expect(jsonRefused(uqm.format, magic)).toBe('magic: not magic: got "MMV9"');
    const summary = sample(uqm.format, 'uqm-01.sav');
    summary.summary = 5;
    expect(jsonRefused(uqm.format, summary)).toMatch(/^summary: not summary\(.*\): got 5$/);
    const missing = sample(uqm.format, 'uqm-01.sav');
    delete missing.magic; // it has chunks: a 0.8 save without its magic (not a 0.7 save without its stream)
    expect(jsonRefused(uqm.format, missing)).toBe('magic: not magic: got undefined');
    const chunks = sample(uqm.format, 'uqm-01.sav');
    chunks.chunks = {};
    expect(jsonRefused(uqm.format, chunks)).toMatch(/^chunks: not Array<.*: got \{\}$/);
  });
});
