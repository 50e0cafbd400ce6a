/**
 * The design doc's save (terrarum.md §3, §7, §8): a directory — or a TEVd disk — of `world` (the
 * meta), `worldinfo1` (world data, TEMD), `worldinfo2`…`4` (tile, item and material prop CSVs),
 * `worldinfo5` (module load order), actor and faction JSON files named by hex refid, the
 * human-readable lists, `computers/<UUID>` virtual disks and `tapestries/<n>`. Every part with a known
 * format is decoded — the world as TEMD, actors as JSON values, the lists as CSV, computers as disks —
 * and written back byte for byte while unchanged; the rest (tapestries, anything unknown) is kept as
 * bytes. The meta's crc1…4 are checked against worldinfo1…4 (and, on a disk, against the CRCs the
 * entry headers store: see {@link checkWorldinfoCrcs}) and its `hash4321` against the CRCs; a
 * difference is "Save file corrupted." naming the part that disagrees — an error, or warnings with
 * `{ checksums: 'warn' }` (the "Continue?" of the doc), the document still returned.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  checkTreePath,
  crc32,
  decode,
  DecodeError,
  encode,
  EncodeError,
  encodeOrThrow,
  FieldError,
  u48be,
  type DecodeOptions,
  type Decoded,
  type Path,
  type Warning,
} from '@savekit/core';
import {
  bytesEqual,
  checksumMismatch,
  DecodeBudget,
  denseList,
  describeValue,
  nameRecord,
  TextCodingError,
  utf8,
} from '@savekit/core/kit';
import { everyFourthByteCrc } from './crc.js';
import { csvText, parseCsv, type CsvFile } from './csv.js';
import { sameRows } from './rows.js';
import { parseJsonSafely } from './json.js';
import { hash4321, worldMeta, type WorldMeta } from './meta.js';
import { temdFile, temdSize, type TemdFile, type TemdWorld } from './temd.js';
import { tevdDisk, type TevdDisk } from './tevd.js';

/**
 * How crc1…4 are computed: TerranVirtualDisk's entry CRC (default: every 4th byte of size ‖ data,
 * what a disk's entry header stores, so the meta, the entry header and the content agree on a real
 * disk), or a plain CRC-32 of the file (every changed byte is caught; the entry header then never
 * matches the meta).
 */
export type CrcRule = 'plain' | 'tevd';

/** The rule crc1…4 follow unless told otherwise: the one real disks' entry headers use. */
export const DEFAULT_CRC_RULE: CrcRule = 'tevd';

/**
 * An actor (or faction, dynamic item) file: its JSON value, and how to write it back byte for byte.
 * Without `text`, the file is `JSON.stringify(value, null, indent)`; `text` is the file as it was,
 * kept only when no such form reproduces it (GSON's `1.0`, its own spacing), and written back while it
 * still parses to `value` — once `value` changes, the file is `value` stringified.
 */
export interface ActorFile {
  value: unknown;
  /** The indentation of the file's pretty-printed form (GSON's development builds: 2). */
  indent?: number;
  /**
   * The file's text, when neither form reproduces it; written back while it still gives `value`. The
   * value is what is written: a text edited alone is refused at it (the edit would be lost).
   */
  text?: string;
}

/** The human-readable lists and the prop CSV each mirrors (tiles ↔ worldinfo2, items ↔ 3, materials ↔ 4). */
export const LIST_FILES = {
  'Tiles_list.txt': 'worldinfo2',
  'Items_list.txt': 'worldinfo3',
  'Materials_list.txt': 'worldinfo4',
} as const;

/** The name of a human-readable list. */
export type ListName = keyof typeof LIST_FILES;

/** The module load order as the human-readable file (`worldinfo5` is the prop form). */
export const LOAD_ORDER_FILE = 'load_order.txt';

/** A save. */
export interface TerrarumSave {
  meta: WorldMeta;
  /**
   * World data: the TEMD world when the file is one (gzipped or not; written back byte for byte while
   * unchanged), else the bytes as they are.
   */
  worldinfo1: TemdFile | Uint8Array;
  /** Tile, item and material props. */
  worldinfo2: CsvFile;
  worldinfo3: CsvFile;
  worldinfo4: CsvFile;
  /** Module load order, one module per line. */
  worldinfo5: string;
  /**
   * Actor and faction JSON by hex refid (file name), as JSON values. Decoding makes it a
   * null-prototype record (see `nameRecord`), as it does `files`.
   */
  actors: Record<string, ActorFile>;
  /**
   * The human-readable lists (`Tiles_list.txt`, `Items_list.txt`, `Materials_list.txt`) that parse as
   * CSV, by file name; checked against the prop CSV each mirrors (a warning where they differ).
   */
  lists?: Partial<Record<ListName, CsvFile>>;
  /** `load_order.txt` as text, when the save has it and it is UTF-8. */
  loadOrder?: string;
  /**
   * The virtual disks under `computers/`, by file name, when they decode (and re-encode byte for
   * byte) as TEVd disks; any other computer file stays in `files`.
   */
  computers?: Record<string, TevdDisk>;
  /**
   * Every other file (tapestries/, anything unknown, a list or computer that does not decode), kept
   * as bytes, by path. A null-prototype record: a file named `__proto__` or `constructor` is an
   * ordinary entry.
   */
  files: Record<string, Uint8Array>;
}

/** The crc of a worldinfo file by the rule. */
export function worldinfoCrc(data: Uint8Array, rule: CrcRule = DEFAULT_CRC_RULE): number {
  if (rule === 'plain') return crc32.compute(data);
  // The disk's entry CRC: its 48-bit size field (the entry header's `u48be`), then every 4th byte.
  return everyFourthByteCrc(data, encodeOrThrow(u48be, data.length));
}

const HEX_NAME = /^[0-9A-Fa-f]{1,16}$/;
const COMPUTER = /^computers\/([^/]+)$/;
const text = (b: Uint8Array) => utf8.decode(b);
const hex8 = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

/** The CRC an entry header stored for one of the save's files, and where that entry is in the document. */
export interface StoredEntryCrc {
  readonly crc: number;
  readonly path: Path;
}

/** Options of {@link decodeSave}. */
export interface SaveDecodeOptions extends DecodeOptions {
  /** How crc1…4 are computed (default {@link DEFAULT_CRC_RULE}; `undefined` means the default too). */
  readonly crcRule?: CrcRule | undefined;
  /**
   * For a save on a disk: the CRC each file's entry header stored, by the file's path in the save —
   * the third side of the check (see {@link checkWorldinfoCrcs}).
   */
  readonly entryCrcs?: ReadonlyMap<string, StoredEntryCrc> | undefined;
}

/** One disagreement of the three-way check: which side is the odd one, where it is, and why. */
export interface CrcDisagreement {
  /** `meta` (the meta's crcN), `entry` (the disk entry header's CRC), `content` (the file), or `all` (no two agree). */
  readonly odd: 'meta' | 'entry' | 'content' | 'all';
  /** The worldinfo file, `worldinfo1`…`worldinfo4`. */
  readonly file: string;
  /** The document path of the odd side (for `all`, the file). */
  readonly path: Path;
  readonly message: string;
}

/**
 * The doc's three-way check of worldinfo1…4: the CRC in the meta, the CRC in the disk entry header
 * (when the save is on a disk) and the CRC of the content. Returns, for each file where they do not
 * all agree, the odd one out: the meta's `crcN` (the meta is stale), the entry header (its CRC alone
 * is wrong), the content (both stored CRCs agree, the bytes changed), or `all`. In a folder there is
 * no entry header: a difference is the content's against the meta's.
 */
export function checkWorldinfoCrcs(
  meta: WorldMeta,
  files: ReadonlyMap<string, Uint8Array>,
  options: {
    readonly crcRule?: CrcRule | undefined;
    readonly entryCrcs?: ReadonlyMap<string, StoredEntryCrc> | undefined;
  } = {},
): CrcDisagreement[] {
  const rule = options.crcRule ?? DEFAULT_CRC_RULE;
  const out: CrcDisagreement[] = [];
  const stored = [meta.crc1, meta.crc2, meta.crc3, meta.crc4];
  stored.forEach((metaCrc, i) => {
    const file = `worldinfo${i + 1}`;
    const data = files.get(file) ?? new Uint8Array(0);
    const content = worldinfoCrc(data, rule);
    const entry = options.entryCrcs?.get(file);
    const metaOk = metaCrc === content;
    if (entry === undefined) {
      if (!metaOk)
        out.push({
          odd: 'content',
          file,
          path: [file],
          message: `Save file corrupted: ${file} (CRC ${hex8(content)}) does not match the meta's crc${i + 1} (${hex8(metaCrc)})`,
        });
      return;
    }
    // The entry header holds TerranVirtualDisk's CRC whatever the meta's rule.
    const entryOk = entry.crc === (rule === 'tevd' ? content : worldinfoCrc(data, 'tevd'));
    if (metaOk && entryOk) return;
    const sides = `meta crc${i + 1} ${hex8(metaCrc)}, entry header ${hex8(entry.crc)}, content ${hex8(content)}`;
    if (!metaOk && entryOk)
      out.push({
        odd: 'meta',
        file,
        path: ['meta', `crc${i + 1}`],
        message: `Save file corrupted: the meta's crc${i + 1} disagrees with ${file}'s entry header and content (${sides})`,
      });
    else if (metaOk && !entryOk)
      out.push({
        odd: 'entry',
        file,
        path: entry.path,
        message: `Save file corrupted: ${file}'s entry header CRC disagrees with the meta and the content (${sides})`,
      });
    else if (rule === 'tevd' && metaCrc === entry.crc)
      out.push({
        odd: 'content',
        file,
        path: [file],
        message: `Save file corrupted: ${file}'s content disagrees with the CRC the meta and its entry header agree on (${sides})`,
      });
    else
      out.push({
        odd: 'all',
        file,
        path: [file],
        message: `Save file corrupted: the meta, the entry header and the content of ${file} all disagree (${sides})`,
      });
  });
  return out;
}

/**
 * A save directory (as a tree of files) to its document, with the integrity checks. Each file, CSV
 * row and field is a unit of the decode's work budget (`options.budget`, else a fresh one).
 */
export function decodeSave(
  tree: ReadonlyMap<string, Uint8Array>,
  options: SaveDecodeOptions = {},
): E.Either<DecodeError, Decoded<TerrarumSave>> {
  try {
    return decodeSaveTree(tree, options);
  } catch (error) {
    if (error instanceof DecodeError) return E.left(error);
    throw error;
  }
}

/**
 * The text each CSV file and kept actor text had when its save was decoded, beside the document (its
 * JSON form and equality are unchanged). A document's `text` is a copy of the file kept for fidelity,
 * written back only while the parsed value still comes from it: writing can then tell a text edited on
 * its own (an edit that would be lost silently, since the value is what is written) from a stale text
 * under an edited value (written afresh, as documented).
 */
const DECODED_TEXTS = new WeakMap<object, string>();

/** A CSV file's text parsed, charged to the budget (a unit per row and per field); a CsvError is thrown. */
function parseCharged(csv: string, budget: DecodeBudget, path: Path): CsvFile {
  const parsed = parseCsv(csv);
  let cells = parsed.rows.length;
  for (const row of parsed.rows) cells += row.length;
  budget.spendWork(cells, path, 0);
  DECODED_TEXTS.set(parsed, csv);
  return parsed;
}

/** An actor file's JSON value, with the form that writes it back byte for byte. */
function actorFile(json: string, maxDepth: number | undefined): ActorFile {
  const value = parseJsonSafely(json, { maxDepth });
  if (JSON.stringify(value) === json) return { value };
  if (JSON.stringify(value, null, 2) === json) return { value, indent: 2 };
  const kept = { value, text: json };
  DECODED_TEXTS.set(kept, json);
  return kept;
}

/**
 * Whether `file`'s text was changed since it was decoded while its value was not (`unchanged` says
 * whether the value is still the one the decoded text gives): the edit would be lost, so writing
 * refuses it. False for a document not decoded here (nothing to compare with).
 */
function textEditedAlone(file: { text?: unknown }, unchanged: (decoded: string) => boolean): boolean {
  const decoded = DECODED_TEXTS.get(file);
  return decoded !== undefined && file.text !== decoded && unchanged(decoded);
}

/**
 * The TEMD world of worldinfo1's bytes when they are one, else undefined. Not re-encoded to check:
 * every TEMD the reader accepts writes back the same (all header fields and planes are kept, the
 * byte order is the one the reader picks, and gzip bytes are kept), a law the round-trip suites
 * check — and re-encoding a large world here held it twice more at once.
 */
function temdOf(bytes: Uint8Array, options: DecodeOptions): TemdFile | undefined {
  if (bytes.length === 0) return undefined;
  const world = decode(temdFile, bytes, options);
  return E.isLeft(world) ? undefined : world.right.value;
}

/** A computer's virtual disk when the bytes are one that writes back the same, else undefined. */
function diskOf(bytes: Uint8Array, options: DecodeOptions): TevdDisk | undefined {
  const disk = decode(tevdDisk, bytes, options);
  if (E.isLeft(disk)) return undefined;
  const again = encode(tevdDisk, disk.right.value);
  return E.isRight(again) && bytesEqual(again.right, bytes) ? disk.right.value : undefined;
}

/** The first row where two CSVs differ (undefined when their rows are the same). */
function firstDifferentRow(a: CsvFile, b: CsvFile): number | undefined {
  const n = Math.max(a.rows.length, b.rows.length);
  for (let i = 0; i < n; i++) {
    const x = a.rows[i];
    const y = b.rows[i];
    if (x === undefined || y === undefined || x.length !== y.length || x.some((cell, k) => cell !== y[k])) return i;
  }
  return undefined;
}

/** The module names of a load order text: its lines, trimmed, without blank and `#` comment lines. */
function modules(order: string): string[] {
  return order
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function decodeSaveTree(
  tree: ReadonlyMap<string, Uint8Array>,
  options: SaveDecodeOptions,
): E.Either<DecodeError, Decoded<TerrarumSave>> {
  // One budget for the save: the meta, the CSVs and the actors charge it (a disk's decode passes its own).
  if (options.budget === undefined) {
    let bytes = 0;
    for (const file of tree.values()) bytes += file.length;
    options = { ...options, budget: DecodeBudget.of(options, bytes) };
  }
  const budget = options.budget as DecodeBudget;
  // A unit of work per file.
  budget.spendWork(tree.size, [], 0);
  for (const path of tree.keys()) {
    const problem = checkTreePath(path);
    if (problem !== undefined) return E.left(new DecodeError([path], 0, `refused entry name: ${problem}`));
  }
  const file = (name: string) => tree.get(name);
  const metaBytes = file('world');
  // The `world` file is the document's `meta`: what is wrong with it is said there.
  if (metaBytes === undefined) return E.left(new DecodeError(['meta'], 0, 'a save has a `world` meta file'));
  const meta = decode(worldMeta, metaBytes, options);
  if (E.isLeft(meta)) return E.left(meta.left.within(['meta']));
  const warnings: Warning[] = [...meta.right.warnings];
  const save: TerrarumSave = {
    meta: meta.right.value,
    worldinfo1: new Uint8Array(0),
    worldinfo2: { rows: [] },
    worldinfo3: { rows: [] },
    worldinfo4: { rows: [] },
    worldinfo5: '',
    actors: nameRecord(),
    files: nameRecord(),
  };
  // Integrity, as the doc asks: the stored CRCs against the files (and the entry headers), the hash against the CRCs.
  const m = save.meta;
  const found: { path: Path; message: string }[] = checkWorldinfoCrcs(m, tree, options).map(({ path, message }) => ({
    path,
    message,
  }));
  const hash = hash4321([m.crc1, m.crc2, m.crc3, m.crc4]);
  if (!bytesEqual(hash, m.hash4321))
    found.push({ path: ['meta', 'hash4321'], message: 'Save file corrupted: hash4321 does not match crc1…crc4' });
  for (const { path, message } of found) {
    // The core's checksum policy decides: an error at the first, or a warning for each.
    const each = checksumMismatch(options.checksums, path, 0, message);
    if (each instanceof DecodeError) return E.left(each);
    warnings.push(each);
  }
  const world = file('worldinfo1') ?? new Uint8Array(0);
  save.worldinfo1 = temdOf(world, options) ?? world;
  for (const n of [2, 3, 4] as const) {
    const name = `worldinfo${n}` as const;
    let csv: string;
    try {
      csv = text(file(name) ?? new Uint8Array(0));
    } catch {
      return E.left(new DecodeError([name], 0, `${name} is not UTF-8 text`));
    }
    try {
      save[name] = parseCharged(csv, budget, [name]);
    } catch (error) {
      if (error instanceof DecodeError) throw error;
      // Kept as text (so nothing is lost); only a corrupted save gets this far.
      save[name] = { rows: [], text: csv };
      warnings.push({
        code: 'csv-unparsed',
        path: [name],
        offset: 0,
        message: `${name} does not parse as CSV (${error instanceof Error ? error.message : String(error)}); kept as text`,
      });
    }
  }
  try {
    save.worldinfo5 = text(file('worldinfo5') ?? new Uint8Array(0));
  } catch {
    return E.left(new DecodeError(['worldinfo5'], 0, 'worldinfo5 is not UTF-8 text'));
  }
  const lists: Partial<Record<ListName, CsvFile>> = nameRecord();
  const computers: Record<string, TevdDisk> = nameRecord();
  for (const [path, bytes] of tree) {
    if (RESERVED.has(path)) continue;
    if (HEX_NAME.test(path)) {
      try {
        save.actors[path] = actorFile(text(bytes), options.maxDepth);
      } catch (error) {
        return E.left(
          new DecodeError(
            ['actors', path],
            0,
            `actor ${path}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }
      continue;
    }
    if (Object.hasOwn(LIST_FILES, path)) {
      const list = path as ListName;
      try {
        lists[list] = parseCharged(text(bytes), budget, ['lists', list]);
        continue;
      } catch (error) {
        if (error instanceof DecodeError) throw error;
        warnings.push({
          code: 'list-unparsed',
          path: ['files', path],
          offset: 0,
          message: `${path} is not CSV text (${error instanceof Error ? error.message : String(error)}); kept as bytes`,
        });
      }
    } else if (path === LOAD_ORDER_FILE) {
      try {
        save.loadOrder = text(bytes);
        continue;
      } catch {
        /* not UTF-8: kept as bytes */
      }
    } else {
      const computer = COMPUTER.exec(path)?.[1];
      const disk = computer === undefined ? undefined : diskOf(bytes, options);
      if (computer !== undefined && disk !== undefined) {
        computers[computer] = disk;
        continue;
      }
    }
    save.files[path] = bytes;
  }
  // The lists are the props in human-readable form: where both exist, they should say the same.
  for (const [name, prop] of Object.entries(LIST_FILES) as [ListName, (typeof LIST_FILES)[ListName]][]) {
    const list = lists[name];
    if (list === undefined || !tree.has(prop)) continue;
    const row = firstDifferentRow(list, save[prop]);
    if (row !== undefined)
      warnings.push({
        code: 'list-mismatch',
        path: ['lists', name, 'rows', row],
        offset: 0,
        message: `${name} differs from ${prop} at row ${row}`,
      });
  }
  if (save.loadOrder !== undefined && tree.has('worldinfo5')) {
    const a = modules(save.loadOrder);
    const b = modules(save.worldinfo5);
    if (a.length !== b.length || a.some((name, i) => name !== b[i]))
      warnings.push({
        code: 'list-mismatch',
        path: ['loadOrder'],
        offset: 0,
        message: `${LOAD_ORDER_FILE} lists the modules ${a.join(', ') || '(none)'}; worldinfo5 ${b.join(', ') || '(none)'}`,
      });
  }
  if (Object.keys(lists).length > 0) save.lists = lists;
  if (Object.keys(computers).length > 0) save.computers = computers;
  return E.right({ value: save, warnings });
}

/**
 * The save's world (`worldinfo1`) as a TEMD world, gzipped or not: the decoded document when the save
 * has one, else its bytes read as TEMD (an error when they are not one).
 */
export function worldOf(save: TerrarumSave): E.Either<DecodeError, TemdFile> {
  if (!(save.worldinfo1 instanceof Uint8Array)) return E.right(save.worldinfo1);
  const world = decode(temdFile, save.worldinfo1);
  return E.isLeft(world) ? E.left(world.left.within(['worldinfo1'])) : E.right(world.right.value);
}

/** An actor's JSON value (`undefined` for a refid the save does not have). */
export function actorOf(save: TerrarumSave, refid: string): unknown {
  return Object.hasOwn(save.actors, refid) ? save.actors[refid]?.value : undefined;
}

/** The files of a save the reader gives their own meaning: not for `files`. */
const RESERVED = new Set(['world', 'worldinfo1', 'worldinfo2', 'worldinfo3', 'worldinfo4', 'worldinfo5']);

/** The bytes of worldinfo1: the TEMD world encoded (its kept bytes while unchanged), or the bytes as they are. */
function worldBytes(world: TemdFile | Uint8Array): E.Either<EncodeError, Uint8Array> {
  if (world instanceof Uint8Array) return E.right(world);
  // A raw world's size is known: written into a buffer of that size, it is neither regrown nor trimmed.
  const raw = world?.gzip === false && typeof world.world === 'object' && world.world !== null;
  const bytes = encode(temdFile, world, { initialCapacity: raw ? sizeHint(world.world) : undefined });
  return E.isLeft(bytes) ? E.left(bytes.left.within(['worldinfo1'])) : bytes;
}

/**
 * The size a raw world will take, only when its tile arrays already hold `width × height` tiles: the
 * buffer is then no larger than what the document holds, so a header claiming a huge world with
 * few tiles makes no large buffer before the world's check refuses it (the writer grows instead).
 */
function sizeHint(world: TemdWorld): number | undefined {
  const tiles = world.width * world.height;
  const holds = (plane: unknown): boolean =>
    ArrayBuffer.isView(plane) && (plane as unknown as ArrayLike<number>).length === tiles;
  if (!Number.isSafeInteger(tiles) || !holds(world.terrain) || !holds(world.wall)) return undefined;
  if (world.wire !== undefined && !holds(world.wire)) return undefined;
  return temdSize(world);
}

/** An actor file's text: as it was while it still parses to `value`, else `value` stringified (EncodeErrors at `path`). */
function actorText(actor: ActorFile, path: Path): E.Either<EncodeError, string> {
  if (typeof actor !== 'object' || actor === null || !('value' in actor))
    return E.left(new EncodeError(path, 0, "expected { value } (the actor's JSON value)"));
  let fresh: string | undefined;
  try {
    fresh = JSON.stringify(actor.value, null, actor.indent);
  } catch (error) {
    return E.left(
      new EncodeError([...path, 'value'], 0, `no JSON form: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  if (fresh === undefined) return E.left(new EncodeError([...path, 'value'], 0, 'no JSON form'));
  if (textEditedAlone(actor, (decoded) => JSON.stringify(parseJsonSafely(decoded)) === JSON.stringify(actor.value)))
    return E.left(
      new EncodeError(
        [...path, 'text'],
        0,
        "the text was edited but the value was not: the value is what is written (the text is kept only while it gives the value), so this edit would be lost; edit the value, or set it to the text's JSON value",
      ),
    );
  if (typeof actor.text === 'string') {
    try {
      if (JSON.stringify(parseJsonSafely(actor.text)) === JSON.stringify(actor.value)) return E.right(actor.text);
    } catch {
      /* the kept text no longer parses: the value is written */
    }
  }
  return E.right(fresh);
}

/** Text as UTF-8, or an EncodeError at `path` for text UTF-8 cannot hold (a lone surrogate). */
function encodedText(text: unknown, path: Path): E.Either<EncodeError, Uint8Array> {
  if (typeof text !== 'string') return E.left(new EncodeError(path, 0, 'expected text'));
  try {
    return E.right(utf8.encode(text));
  } catch (error) {
    if (!(error instanceof TextCodingError)) throw error;
    return E.left(new EncodeError(path, 0, `a lone surrogate at character ${error.index}: UTF-8 cannot hold it`));
  }
}

/** A CSV's text, or an EncodeError at `key` when the text or its rows would not read back the same. */
function csvBytes(file: CsvFile, key: string): E.Either<EncodeError, Uint8Array> {
  if (typeof file !== 'object' || file === null)
    return E.left(
      new EncodeError([key], 0, `expected a CSV file { rows, text? }, got ${describeValue(file)}`, 'wrong-type'),
    );
  // Every row a list without holes, checked before any is walked (a sparse list is refused at its first hole).
  try {
    for (const [i, row] of denseList(file.rows, ['rows'], 'row').entries()) denseList(row, ['rows', i], 'field');
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return E.left(new EncodeError([key, ...error.at], 0, error.message, error.code));
  }
  if (textEditedAlone(file, (decoded) => sameRows(parseCsv(decoded).rows, file.rows)))
    return E.left(
      new EncodeError(
        [key, 'text'],
        0,
        'the text was edited but the rows were not: the rows are what is written (the text is kept only while they parse from it), so this edit would be lost; edit the rows, or set them to parseCsv(text).rows',
      ),
    );
  if (file.text !== undefined) {
    const text = encodedText(file.text, [key, 'text']);
    if (E.isLeft(text)) return text;
  }
  for (let i = 0; i < file.rows.length; i++) {
    const row = file.rows[i]!;
    if (row.length === 0)
      return E.left(new EncodeError([key, 'rows', i], 0, 'a row with no fields has no CSV form (it would be lost)'));
    for (let j = 0; j < row.length; j++) {
      const cell = encodedText(row[j], [key, 'rows', i, j]);
      if (E.isLeft(cell)) return cell;
    }
  }
  return encodedText(csvText(file), [key]);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first part of `save` its writer could not walk, as an EncodeError at it: the save not an object,
 * or its records of actors and files (and of lists and computers, when given) not records.
 */
function saveShapeProblem(save: unknown): EncodeError | undefined {
  if (!isRecord(save))
    return new EncodeError([], 0, `expected a save document, got ${describeValue(save)}`, 'wrong-type');
  for (const key of ['actors', 'files', 'lists', 'computers'] as const) {
    const value = save[key];
    if (value === undefined && (key === 'lists' || key === 'computers')) continue;
    if (!isRecord(value))
      return new EncodeError(
        [key],
        0,
        `expected a record of ${key} by name, got ${describeValue(value)}`,
        'wrong-type',
      );
  }
  return undefined;
}

/**
 * A save document to its files, the meta's CRCs and hash recomputed. What would not read back the
 * same is refused, with its path in the document: text UTF-8 cannot hold (a lone surrogate), a CSV
 * row with no fields, an actor not named by hex refid or not JSON, a file path that is not a plain
 * relative path, is one of the save's own files (`world`, `worldinfo1`…`5`), would be read as an
 * actor (a hex name), or is also a folder of another file.
 */
export function encodeSave(
  save: TerrarumSave,
  options: { readonly crcRule?: CrcRule | undefined } = {},
): E.Either<EncodeError, Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const rule = options.crcRule ?? DEFAULT_CRC_RULE;
  const shape = saveShapeProblem(save);
  if (shape !== undefined) return E.left(shape);
  const world = worldBytes(save.worldinfo1);
  if (E.isLeft(world)) return world;
  const info: Uint8Array[] = [world.right];
  for (const n of [2, 3, 4] as const) {
    const bytes = csvBytes(save[`worldinfo${n}`], `worldinfo${n}`);
    if (E.isLeft(bytes)) return bytes;
    info.push(bytes.right);
  }
  const crcs = info.map((d) => worldinfoCrc(d, rule)) as [number, number, number, number];
  const meta = encode(worldMeta, {
    ...save.meta,
    crc1: crcs[0],
    crc2: crcs[1],
    crc3: crcs[2],
    crc4: crcs[3],
    hash4321: hash4321(crcs),
  });
  if (E.isLeft(meta)) return E.left(meta.left.within(['meta']));
  out.set('world', meta.right);
  info.forEach((d, i) => {
    out.set(`worldinfo${i + 1}`, d);
  });
  const order = encodedText(save.worldinfo5, ['worldinfo5']);
  if (E.isLeft(order)) return order;
  out.set('worldinfo5', order.right);
  for (const [name, actor] of Object.entries(save.actors)) {
    if (!HEX_NAME.test(name)) return E.left(new EncodeError(['actors', name], 0, 'actor files are named by hex refid'));
    const json = actorText(actor, ['actors', name]);
    if (E.isLeft(json)) return json;
    const bytes = encodedText(json.right, ['actors', name]);
    if (E.isLeft(bytes)) return bytes;
    try {
      parseJsonSafely(json.right);
    } catch (error) {
      return E.left(
        new EncodeError(['actors', name], 0, `not JSON: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    out.set(name, bytes.right);
  }
  // The parts decoded from files of their own: each written back under its file name.
  const own = new Set<string>();
  for (const [name, list] of Object.entries(save.lists ?? {})) {
    if (!Object.hasOwn(LIST_FILES, name))
      return E.left(new EncodeError(['lists', name], 0, `the lists are ${Object.keys(LIST_FILES).join(', ')}`));
    if (list === undefined) continue;
    const bytes = csvBytes(list, 'lists');
    if (E.isLeft(bytes))
      return E.left(
        new EncodeError(['lists', name, ...bytes.left.path.slice(1)], 0, bytes.left.message, bytes.left.code),
      );
    out.set(name, bytes.right);
    own.add(name);
  }
  if (save.loadOrder !== undefined) {
    const bytes = encodedText(save.loadOrder, ['loadOrder']);
    if (E.isLeft(bytes)) return bytes;
    out.set(LOAD_ORDER_FILE, bytes.right);
    own.add(LOAD_ORDER_FILE);
  }
  for (const [name, disk] of Object.entries(save.computers ?? {})) {
    const path = `computers/${name}`;
    if (!COMPUTER.test(path) || checkTreePath(path) !== undefined)
      return E.left(new EncodeError(['computers', name], 0, 'a computer is named by one plain file name'));
    const bytes = encode(tevdDisk, disk);
    if (E.isLeft(bytes)) return E.left(bytes.left.within(['computers', name]));
    out.set(path, bytes.right);
    own.add(path);
  }
  const paths: string[] = [...own];
  for (const [path, bytes] of Object.entries(save.files)) {
    const problem = checkTreePath(path);
    if (problem !== undefined) return E.left(new EncodeError(['files', path], 0, `refused path: ${problem}`));
    if (RESERVED.has(path))
      return E.left(new EncodeError(['files', path], 0, `${path} is the save's own file, not one of its other files`));
    if (HEX_NAME.test(path))
      return E.left(new EncodeError(['files', path], 0, `a file named by hex refid is an actor: put it in actors`));
    if (!(bytes instanceof Uint8Array)) return E.left(new EncodeError(['files', path], 0, 'expected bytes'));
    if (own.has(path))
      return E.left(new EncodeError(['files', path], 0, `${path} is given twice: in files and as a decoded part`));
    paths.push(path);
    out.set(path, bytes);
  }
  // A path that is also the folder of another (`a` and `a/b`): sorted, the paths under `p/` follow
  // the first one at or after `p/` (binary search), so this is O(n log n) comparisons.
  paths.sort();
  for (const path of paths) {
    const folder = `${path}/`;
    let lo = 0;
    let hi = paths.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (paths[mid]! < folder) lo = mid + 1;
      else hi = mid;
    }
    const under = paths[lo];
    if (under?.startsWith(folder))
      return E.left(new EncodeError(['files', path], 0, `${path} is a file and the folder of ${under}`));
  }
  return E.right(out);
}
