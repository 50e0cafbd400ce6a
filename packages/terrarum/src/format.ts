/**
 * The savekit plugin: a save folder, a TEVd / TVDA disk (a save inside is checked too), a lone
 * `world` meta file, or a JSON-era world.
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  borrowedBytes,
  decode,
  DecodeError,
  encode,
  EncodeError,
  FieldError,
  fileFormat,
  isSaveTree,
  map,
  struct,
  switchOn,
  type Codec,
  type Decoded,
  type DecodeOptions,
  type Path,
  type SaveFormat,
  type SaveInput,
  type Warning,
} from '@savekit/core';
import {
  bytesEqual,
  DecodeBudget,
  denseList,
  describeValue,
  jsonArray,
  jsonBytes,
  jsonRecord,
  plural,
} from '@savekit/core/kit';
import { jsonWorld, type JsonWorld } from './world-json.js';
import { worldMeta, type WorldMeta } from './meta.js';
import { decodeSave, encodeSave, type StoredEntryCrc, type TerrarumSave } from './save.js';
import {
  checkEntryNames,
  entryPaths,
  storedEntryCrcs,
  tevdDisk,
  updateDiskFromTree,
  type TevdDisk,
  type TevdEntry,
} from './tevd.js';
import { temdFile, type TemdFile } from './temd.js';
import { terrarumViews } from './views.js';

/** A decoded Terrarum input. */
export type TerrarumDocument =
  | { kind: 'save'; save: TerrarumSave }
  /**
   * A TEVd/TVDA disk. When it holds a save (a `world` file at its root), `save` is that save decoded
   * exactly as from a folder — the same document — and encoding writes the save's files back into
   * the disk (unchanged files keep their entries; see `updateDiskFromTree`).
   */
  | { kind: 'disk'; disk: TevdDisk; save?: TerrarumSave }
  | { kind: 'meta'; meta: WorldMeta }
  | { kind: 'world'; world: JsonWorld }
  | { kind: 'temd'; temd: TemdFile };

const csvJson = t.intersection([t.type({ rows: jsonArray(jsonArray(t.string)) }), t.partial({ text: t.string })]);
/** An actor as JSON: its value as it is (any JSON), with the form that writes it back. */
const actorJson = t.intersection([t.type({ value: t.unknown }), t.partial({ indent: t.number, text: t.string })]);
const saveJson = t.intersection([
  t.type({
    meta: worldMeta.json,
    // The TEMD world, or the bytes of a worldinfo1 that is not one.
    worldinfo1: t.union([temdFile.json, jsonBytes()]),
    worldinfo2: csvJson,
    worldinfo3: csvJson,
    worldinfo4: csvJson,
    worldinfo5: t.string,
    // Names are data: `t.record` would turn a `__proto__` key into the prototype and drop it.
    actors: jsonRecord(actorJson),
    files: jsonRecord(jsonBytes()),
  }),
  t.partial({ lists: jsonRecord(csvJson), loadOrder: t.string, computers: jsonRecord(tevdDisk.json) }),
]);
const documentJson = t.union([
  t.type({ kind: t.literal('save'), save: saveJson }),
  t.intersection([t.type({ kind: t.literal('disk'), disk: tevdDisk.json }), t.partial({ save: saveJson })]),
  t.type({ kind: t.literal('meta'), meta: worldMeta.json }),
  t.type({ kind: t.literal('world'), world: jsonWorld.json }),
  t.type({ kind: t.literal('temd'), temd: temdFile.json }),
]) as unknown as t.Type<TerrarumDocument, unknown, unknown>;

const startsWith = (b: Uint8Array, s: string) =>
  b.length >= s.length && [...s].every((c, i) => b[i] === c.charCodeAt(0));

/** Whether a disk's root directory (id 0) holds a file named `world`: a save lives on it. */
function holdsSave(disk: TevdDisk): boolean {
  return (
    disk.layout !== 'tvda' &&
    disk.entries.some((e) => e.parent === '0' && e.id !== '0' && e.name === 'world' && e.content.kind === 'file')
  );
}

/** The disk of a disk document, with its save's files written back into it when it has one (EncodeErrors at `save`). */
function diskWithSave(doc: { disk: TevdDisk; save?: TerrarumSave }): TevdDisk {
  if (doc.save === undefined) return doc.disk;
  const tree = encodeSave(doc.save);
  if (E.isLeft(tree)) throw tree.left.within(['save']);
  // The entries are walked below to fill the save's files in: one not of its shape is refused at it
  // first (a wrong id is not a move of the files under it).
  const shape = entriesShapeProblem(doc.disk);
  if (shape !== undefined) throw shape;
  try {
    const paths = new Map(entryPaths(doc.disk, 'file'));
    refuseMovedSaveFiles(doc.disk, paths);
    refuseDiskOnlyEdits(doc.disk, paths, tree.right);
    // File entries marked `inSave` are the save's (as decoding leaves them): filled from it, they
    // keep their times; any other file entry whose data differs from the save's is updated (and its
    // time set).
    const filled = doc.disk.entries.map((e) => {
      const path = paths.get(e);
      const data = path === undefined ? undefined : tree.right.get(path);
      if (e.content.kind !== 'file' || e.content.inSave === undefined) return e;
      // A file the save no longer has gets no bytes (and is removed from the disk below).
      return { ...e, content: { kind: 'file' as const, data: data ?? new Uint8Array(0) } };
    });
    return updateDiskFromTree({ ...doc.disk, entries: filled }, tree.right);
  } catch (error) {
    if (error instanceof EncodeError) throw error;
    throw new EncodeError(['save'], 0, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Refuses a disk entry of the save's (`inSave` naming its path in the save) that was renamed or moved
 * on the disk: the save names its files, so writing it would drop the entry and add the save's file
 * back under its old path, silently undoing the edit. An EncodeError at the entry's name (a TVDA
 * disk's: id), or at the entry when a directory above it moved.
 */
function refuseMovedSaveFiles(disk: TevdDisk, paths: ReadonlyMap<TevdEntry, string>): void {
  disk.entries.forEach((e, k) => {
    const inSave = e.content.kind === 'file' ? e.content.inSave : undefined;
    if (typeof inSave !== 'string') return;
    const path = paths.get(e);
    if (path === inSave) return;
    const renamed =
      disk.layout === 'tvda' ? 'id' : e.name !== inSave.slice(inSave.lastIndexOf('/') + 1) ? 'name' : undefined;
    throw new EncodeError(
      ['disk', 'entries', k, ...(renamed === undefined ? [] : [renamed])],
      0,
      `entry ${e.id} is the save's file ${JSON.stringify(inSave)} (marked inSave), now ${path === undefined ? "outside the disk's tree" : `at ${JSON.stringify(path)}`}: the save names its files, so the move would be undone; a file of \`save.files\` is renamed there`,
    );
  });
}

/**
 * The first part of a disk holding a save that the save's checks could not read, as a FieldError at it:
 * the disk or its entries not of their kind, a hole among the entries, or an entry whose id, parent,
 * name or content is not of its shape. Stops at the first (a sparse list is refused, not walked).
 */
function entriesShapeProblem(disk: unknown): FieldError | undefined {
  const wrong = (at: Path, what: string, value: unknown) =>
    new FieldError(at, `expected ${what}, got ${describeValue(value)}`, 'wrong-type');
  if (typeof disk !== 'object' || disk === null) return wrong(['disk'], 'a disk', disk);
  let entries: unknown[];
  try {
    entries = denseList((disk as { entries?: unknown }).entries, ['disk', 'entries'], 'entry', 'entries');
  } catch (error) {
    if (error instanceof FieldError) return error;
    throw error;
  }
  for (const [k, e] of entries.entries()) {
    const at = ['disk', 'entries', k];
    if (typeof e !== 'object' || e === null) return wrong(at, 'an entry', e);
    const { id, parent, name, content } = e as Partial<Record<'id' | 'parent' | 'name' | 'content', unknown>>;
    if (typeof id !== 'string') return wrong([...at, 'id'], 'an id (text)', id);
    if (typeof parent !== 'string') return wrong([...at, 'parent'], "its parent's id (text)", parent);
    if (name !== undefined && typeof name !== 'string') return wrong([...at, 'name'], 'a name (text)', name);
    if (typeof content !== 'object' || content === null) return wrong([...at, 'content'], 'its content', content);
  }
  return undefined;
}

/**
 * Refuses what an edit of the disk's side alone would have lost, since on a disk holding a save the
 * save decides its files: bytes given to an entry of the save's (decoded empty: writing fills it from
 * the save), a file entry of its own holding other bytes than the save's file at its path (the save's
 * would replace them), and a file entry the save does not have (writing keeps the disk to the save's
 * files: it would be removed). EncodeErrors at the entry.
 */
function refuseDiskOnlyEdits(
  disk: TevdDisk,
  paths: ReadonlyMap<TevdEntry, string>,
  tree: ReadonlyMap<string, Uint8Array>,
): void {
  disk.entries.forEach((e, k) => {
    if (e?.content?.kind !== 'file') return;
    const path = paths.get(e);
    if (path === undefined) return;
    const { data, inSave } = e.content;
    if (inSave !== undefined) {
      if (data instanceof Uint8Array && data.length > 0)
        throw new EncodeError(
          ['disk', 'entries', k, 'content', 'data'],
          0,
          `entry ${e.id} is the save's file ${JSON.stringify(path)} (marked inSave): its bytes are the save's, so bytes given here would be overwritten; edit the file in the save`,
        );
      return;
    }
    const saved = tree.get(path);
    if (saved === undefined)
      throw new EncodeError(
        ['disk', 'entries', k],
        0,
        `entry ${e.id} is a file the save does not have (${JSON.stringify(path)}): a disk holding a save holds the save's files, so it would be dropped; add it to the save (\`save.files\`), or remove the entry`,
      );
    if (!(data instanceof Uint8Array) || !bytesEqual(data, saved))
      throw new EncodeError(
        ['disk', 'entries', k, 'content', 'data'],
        0,
        `entry ${e.id} holds other bytes than the save's file ${JSON.stringify(path)}: the save's would overwrite them; edit the file in the save`,
      );
  });
}

/** A Terrarum document of one file (a disk, a save's metadata, a TEMD world or a JSON world): every kind but a save folder. */
export type FileDocument = Exclude<TerrarumDocument, { kind: 'save' }>;

/** The kinds of a single file, chosen by its first bytes. */
function kindOf(head: Uint8Array): FileDocument['kind'] {
  // A file cut inside its magic (1–3 bytes) is the kind it began as: its error is then a short read
  // there, not JSON that does not parse.
  const magic = (s: string) =>
    startsWith(head, s) ||
    (head.length > 0 && head.length < 4 && startsWith(new TextEncoder().encode(s), String.fromCharCode(...head)));
  if (magic('TEVd')) return 'disk';
  if (magic('TESV')) return 'meta';
  if (magic('TEMD') || (head[0] === 0x1f && (head.length === 1 || head[1] === 0x8b))) return 'temd';
  return 'world';
}

/**
 * A Terrarum file as one document: a switch on its first bytes — a TEVd/TVDA disk (`TEVd`), a world
 * meta file (`TESV`), a TEMD world (`TEMD`, or gzipped), else a JSON-era world — each under its
 * document field (`disk`, `meta`, `temd`, `world`), so paths are the document's. A disk document's
 * save, when it has one, is written back into the disk on encode; decoding attaches it in
 * {@link format} (it is read with the decode's options, as a folder's).
 */
export const terrarumFile: Codec<FileDocument> = switchOn(
  borrowedBytes('rest'),
  {
    disk: map(struct({ disk: tevdDisk }), {
      name: 'diskDocument',
      decode: ({ disk }): FileDocument => ({ kind: 'disk', disk }),
      encode: (doc) => ({ disk: diskWithSave(doc as { disk: TevdDisk; save?: TerrarumSave }) }),
    }),
    meta: map(struct({ meta: worldMeta }), {
      name: 'metaDocument',
      decode: ({ meta }): FileDocument => ({ kind: 'meta', meta }),
      encode: (doc) => ({ meta: (doc as { meta: WorldMeta }).meta }),
    }),
    temd: map(struct({ temd: temdFile }), {
      name: 'temdDocument',
      decode: ({ temd }): FileDocument => ({ kind: 'temd', temd }),
      encode: (doc) => ({ temd: (doc as { temd: TemdFile }).temd }),
    }),
    world: map(struct({ world: jsonWorld }), {
      name: 'worldDocument',
      decode: ({ world }): FileDocument => ({ kind: 'world', world }),
      encode: (doc) => ({ world: (doc as { world: JsonWorld }).world }),
    }),
  },
  {
    name: 'terrarumFile',
    select: kindOf,
    caseOf: (doc: FileDocument) => doc.kind,
    json: documentJson as unknown as t.Type<FileDocument, unknown, unknown>,
  },
);

function summary(doc: TerrarumDocument): string[] {
  switch (doc.kind) {
    case 'save':
      return [
        `Terrarum save "${doc.save.meta.name}" (design-doc layout), ${plural(Object.keys(doc.save.actors).length, 'actor')}, ${plural(Object.keys(doc.save.files).length, 'other file')}`,
      ];
    case 'disk': {
      const files = doc.disk.entries.filter((e) => e.content.kind === 'file').length;
      const lines = [
        `${doc.disk.layout === 'tvda' ? 'TVDA' : `TEVd spec ${doc.disk.version} (${doc.disk.layout === 'tevd-2017' ? '2017 layout' : '2023 layout'})`} "${doc.disk.name}", ${plural(doc.disk.entries.length, 'entry', 'entries')} (${plural(files, 'file')})`,
      ];
      // A save on the disk: name it, and its world's size when worldinfo1 is a TEMD dump.
      if (doc.save !== undefined) {
        lines.push(
          `holds the save "${doc.save.meta.name}" (design-doc layout), ${plural(Object.keys(doc.save.actors).length, 'actor')}`,
        );
        return lines;
      }
      const world = doc.disk.entries.find((e) => e.name === 'world' && e.parent === doc.disk.entries[0]?.id);
      if (world?.content.kind === 'file') {
        const meta = decode(worldMeta, world.content.data);
        if (E.isRight(meta)) lines.push(`holds the save "${meta.right.value.name}" (design-doc layout)`);
      }
      return lines;
    }
    case 'meta':
      return [`Terrarum save meta "${doc.meta.name}"`];
    case 'temd': {
      const w = doc.temd.gzip ? doc.temd.world.value : doc.temd.world;
      return [
        `TEMD world ${w.width}×${w.height} (${w.byteOrder === 'le' ? 'little-endian' : 'big-endian, 2016'}${doc.temd.gzip ? ', gzipped' : ''}), spawn ${w.spawnX},${w.spawnY}`,
      ];
    }
    default:
      return [`Terrarum JSON world (${plural(doc.world.text.length, 'character')})`];
  }
}

/** A save's DecodeError at its path in the document (under `save`); a budget error is kept as it is (its class says which budget). */
function underSave(error: DecodeError): DecodeError {
  return error.constructor === DecodeError ? error.within(['save']) : error;
}

/** The document of `input`; every nested decode shares `budget` (through `options`). Throws DecodeErrors. */
function decodeInput(
  input: SaveInput,
  options: DecodeOptions,
  budget: DecodeBudget,
): E.Either<DecodeError, Decoded<TerrarumDocument>> {
  if (isSaveTree(input)) {
    // Paths of the document: the save is under `save`.
    const save = decodeSave(input, options);
    return E.isLeft(save)
      ? E.left(underSave(save.left))
      : E.right({
          value: { kind: 'save', save: save.right.value },
          warnings: save.right.warnings.map((w) => ({ ...w, path: ['save', ...w.path] })),
        });
  }
  // Read with checksums as warnings, so a save on a disk can be checked three ways (the meta, the
  // entry header, the content) before the caller's policy decides; see `refuse` below.
  const file = decode(terrarumFile, input, { ...options, checksums: 'warn' });
  if (E.isLeft(file)) return file;
  const refuse = (warnings: ReadonlyArray<Warning>): DecodeError | undefined => {
    if (options.checksums === 'warn') return undefined;
    const first = warnings.find((w) => w.code === 'checksum-mismatch');
    return first && new DecodeError(first.path, first.offset, first.message, 'checksum-mismatch');
  };
  if (file.right.value.kind !== 'disk') {
    const refused = refuse(file.right.warnings);
    return refused === undefined ? file : E.left(refused);
  }
  const disk = file.right.value.disk;
  // A save on a disk is checked like a save in a folder. Paths are built only then (and charged
  // to the budget): a disk without a save is not asked for its tree.
  if (!holdsSave(disk)) {
    const refused = refuse(file.right.warnings);
    if (refused !== undefined) return E.left(refused);
    try {
      checkEntryNames(disk);
    } catch (error) {
      if (error instanceof DecodeError) return E.left(error.within(['disk']));
      throw error;
    }
    return E.right({ value: { kind: 'disk', disk }, warnings: [...file.right.warnings] });
  }
  // The save's files by path (as diskToTree gives them), walked once: the same paths mark the disk's
  // entries below.
  checkEntryNames(disk);
  const files = entryPaths(disk, 'file', budget);
  const tree = new Map(files.map(([e, path]) => [path, (e.content as { readonly data: Uint8Array }).data]));
  // The stored CRCs of worldinfo1…4's entries: the save's check reports which side disagrees, in
  // place of the disk's own warning about those entries.
  const entryCrcs = new Map<string, StoredEntryCrc>();
  const stored = storedEntryCrcs(disk);
  const rootId = disk.entries[0]?.id;
  const checkedHere = new Set<number>();
  disk.entries.forEach((e, k) => {
    if (stored === undefined || e.parent !== rootId || e.content.kind !== 'file' || e.name === undefined) return;
    if (!/^worldinfo[1-4]$/.test(e.name)) return;
    entryCrcs.set(e.name, { crc: stored[k]!, path: ['disk', 'entries', k] });
    checkedHere.add(k);
  });
  const diskWarnings = file.right.warnings.filter(
    (w) =>
      !(
        w.code === 'checksum-mismatch' &&
        w.path[0] === 'disk' &&
        w.path[1] === 'entries' &&
        checkedHere.has(Number(w.path[2]))
      ),
  );
  const refused = refuse(diskWarnings);
  if (refused !== undefined) return E.left(refused);
  const save = decodeSave(tree, { ...options, entryCrcs });
  if (E.isLeft(save)) return E.left(save.left.path[0] === 'disk' ? save.left : underSave(save.left));
  const warnings: Warning[] = [
    ...diskWarnings,
    ...save.right.warnings.map((w) => (w.path[0] === 'disk' ? w : { ...w, path: ['save', ...w.path] })),
  ];
  // The save holds every file's bytes (decoded where it can): the disk's file entries carry none, so
  // nothing is shown twice, nor as hex next to its decoded form. Encoding fills them from the save.
  // Each is marked with its path in the save, so a rename on the disk is caught on encode.
  const savePaths = new Map(files);
  const entries = disk.entries.map((e) => {
    const inSave = savePaths.get(e);
    return e.content.kind === 'file' && inSave !== undefined
      ? { ...e, content: { kind: 'file' as const, data: new Uint8Array(0), inSave } }
      : e;
  });
  return E.right({ value: { kind: 'disk', disk: { ...disk, entries }, save: save.right.value }, warnings });
}

/** The Terrarum format: {@link terrarumFile} for one file, {@link decodeSave}/{@link encodeSave} for a folder. */
export const format: SaveFormat<TerrarumDocument> = fileFormat<TerrarumDocument>(
  terrarumFile as Codec<TerrarumDocument>,
  {
    id: 'terrarum',
    title: 'Terrarum save',
    extensions: ['.tevd'],
    input: 'both',
    magic: [{ bytes: 'TEVd', confidence: 0.95 }, 'TESV', 'TEMD', { bytes: '\x1f\x8b', confidence: 0.2 }], // 1F 8B: perhaps a gzipped TEMD
    sniff(input) {
      if (isSaveTree(input)) return input.has('world') && input.has('worldinfo1') ? 0.9 : input.has('world') ? 0.6 : 0;
      if (input[0] === 0x7b && input.length < 1 << 30) {
        const head = new TextDecoder().decode(input.subarray(0, Math.min(input.length, 4096)));
        if (/"(layerTerrain|genver|worldIndex)"/.test(head)) return 0.6;
      }
      return 0;
    },
    json: documentJson,
    summary,
    views: terrarumViews,
    decode(input, options): E.Either<DecodeError, Decoded<TerrarumDocument>> {
      // One budget for the whole decode: the disk, the save on it, its world and every layer share it.
      let bytes = 0;
      if (isSaveTree(input)) for (const file of input.values()) bytes += file.length;
      else bytes = input.length;
      const budget = DecodeBudget.of(options, bytes);
      try {
        return decodeInput(input, { ...options, budget }, budget);
      } catch (error) {
        if (error instanceof DecodeError) return E.left(error);
        return E.left(new DecodeError([], 0, error instanceof Error ? error.message : String(error)));
      }
    },
    encode(doc, options) {
      try {
        if (doc?.kind !== 'save') return encode(terrarumFile, doc, options);
        const tree = encodeSave(doc.save);
        return E.isLeft(tree) ? E.left(tree.left.within(['save'])) : tree;
      } catch (error) {
        // Every refusal is an EncodeError with its path; this only keeps a missed one typed.
        if (error instanceof EncodeError) return E.left(error);
        return E.left(new EncodeError([], 0, error instanceof Error ? error.message : String(error)));
      }
    },
  },
);

/** A save read past its checksum mismatches and written back with every checksum recomputed. */
export interface RepairedSave {
  /** The document as decoded (the stored checksums in it are the ones read). */
  readonly document: TerrarumDocument;
  /** What was wrong: the checksum mismatches (code `checksum-mismatch`, path of the side that disagrees) and any other warning. */
  readonly warnings: ReadonlyArray<Warning>;
  /** The save written back: the meta's CRCs and hash, the entry CRCs and the disk CRC computed afresh. */
  readonly repaired: SaveInput;
}

/**
 * The doc's "Save file corrupted. Continue?" answered yes: decodes with checksum mismatches as
 * warnings (`{ checksums: 'warn' }`, the same document otherwise) and encodes the document again, so
 * every checksum is recomputed — the way a player recovers a save. Anything but a checksum that does
 * not decode is still an error. (Any format does the same with `decode(…, { checksums: 'warn' })`
 * and `encode`; this is that path for Terrarum, in one call.)
 */
export function repairSave(
  input: SaveInput,
  options: DecodeOptions = {},
): E.Either<DecodeError | EncodeError, RepairedSave> {
  const decoded = format.decode(input, { ...options, checksums: 'warn' });
  if (E.isLeft(decoded)) return decoded;
  const repaired = format.encode(decoded.right.value);
  if (E.isLeft(repaired)) return repaired;
  return E.right({ document: decoded.right.value, warnings: decoded.right.warnings, repaired: repaired.right });
}
