/**
 * The design doc's save (terrarum.md §3, §7, §8): a directory — or a TEVd disk — of `world` (the
 * meta), `worldinfo1` (world data, TEMD), `worldinfo2`…`4` (tile, item and material prop CSVs),
 * `worldinfo5` (module load order), actor and faction JSON files named by hex refid, the
 * human-readable lists, `computers/<UUID>` virtual disks and `tapestries/<n>`. The meta's crc1…4 are
 * checked against worldinfo1…4 and its `hash4321` against the CRCs; a difference is
 * "Save file corrupted." naming the entries — an error, or warnings with `{ checksums: 'warn' }` (the
 * "Continue?" of the doc), the document still returned.
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
  type DecodeOptions,
  type Decoded,
  type Path,
  type Warning,
} from '@savekit/core';
import { bytesEqual, checksumMismatch, DecodeBudget, nameRecord, TextCodingError, utf8 } from '@savekit/core/kit';
import { everyFourthByteCrc } from './crc.js';
import { csvText, parseCsv, type CsvFile } from './csv.js';
import { parseJsonSafely } from './json.js';
import { hash4321, worldMeta, type WorldMeta } from './meta.js';
import { temdFile, type TemdFile } from './temd.js';

/**
 * How crc1…4 are computed: a plain CRC-32 of the file (default: every changed byte is caught), or
 * TerranVirtualDisk's entry CRC (every 4th byte of size ‖ data, what the disk stores — it misses
 * three changes in four).
 */
export type CrcRule = 'plain' | 'tevd';

/** A save. */
export interface TerrarumSave {
  meta: WorldMeta;
  /** World data (TEMD), kept as bytes. */
  worldinfo1: Uint8Array;
  /** Tile, item and material props. */
  worldinfo2: CsvFile;
  worldinfo3: CsvFile;
  worldinfo4: CsvFile;
  /** Module load order, one module per line. */
  worldinfo5: string;
  /**
   * Actor and faction JSON by hex refid (file name), as the file's text (checked to parse safely).
   * Decoding makes it a null-prototype record (see `nameRecord`), as it does `files`.
   */
  actors: Record<string, string>;
  /**
   * Every other file (lists, computers/, tapestries/, anything unknown), kept as bytes, by path. A
   * null-prototype record: a file named `__proto__` or `constructor` is an ordinary entry.
   */
  files: Record<string, Uint8Array>;
}

/** The crc of a worldinfo file by the rule. */
export function worldinfoCrc(data: Uint8Array, rule: CrcRule = 'plain'): number {
  if (rule === 'plain') return crc32.compute(data);
  const framed = new Uint8Array(6 + data.length);
  const n = data.length;
  framed.set([
    Math.floor(n / 2 ** 40) & 0xff,
    Math.floor(n / 2 ** 32) & 0xff,
    (n >>> 24) & 0xff,
    (n >>> 16) & 0xff,
    (n >>> 8) & 0xff,
    n & 0xff,
  ]);
  framed.set(data, 6);
  return everyFourthByteCrc(framed);
}

const HEX_NAME = /^[0-9A-Fa-f]{1,16}$/;
const text = (b: Uint8Array) => utf8.decode(b);

/** Options of {@link decodeSave}. */
export interface SaveDecodeOptions extends DecodeOptions {
  /** How crc1…4 are computed (default `'plain'`; `undefined` means the default too). */
  readonly crcRule?: CrcRule | undefined;
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
  if (metaBytes === undefined) return E.left(new DecodeError(['world'], 0, 'a save has a `world` meta file'));
  const meta = decode(worldMeta, metaBytes, options);
  if (E.isLeft(meta)) return E.left(meta.left.within(['world']));
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
  // Integrity, as the doc asks: the stored CRCs against the files, the hash against the CRCs.
  const rule = options.crcRule ?? 'plain';
  const differ: string[] = [];
  const m = save.meta;
  [m.crc1, m.crc2, m.crc3, m.crc4].forEach((stored, i) => {
    const data = file(`worldinfo${i + 1}`) ?? new Uint8Array(0);
    if (worldinfoCrc(data, rule) !== stored) differ.push(`worldinfo${i + 1}`);
  });
  const hash = hash4321([m.crc1, m.crc2, m.crc3, m.crc4]);
  if (!bytesEqual(hash, m.hash4321)) differ.push('world (hash4321)');
  if (differ.length > 0) {
    const message = `Save file corrupted. These entries do not match the checksums in world: ${differ.join(', ')}`;
    // The core's checksum policy decides: an error naming the first entry, or a warning for each.
    const refused = checksumMismatch(options.checksums, [differ[0]!.split(' ')[0]!], 0, message);
    if (refused instanceof DecodeError) return E.left(refused);
    for (const entry of differ) {
      const each = checksumMismatch(
        options.checksums,
        [entry.split(' ')[0]!],
        0,
        `Save file corrupted: ${entry} does not match its checksum`,
      );
      if (!(each instanceof DecodeError)) warnings.push(each);
    }
  }
  save.worldinfo1 = file('worldinfo1') ?? new Uint8Array(0);
  for (const n of [2, 3, 4] as const) {
    const name = `worldinfo${n}` as const;
    let csv: string;
    try {
      csv = text(file(name) ?? new Uint8Array(0));
    } catch {
      return E.left(new DecodeError([name], 0, `${name} is not UTF-8 text`));
    }
    try {
      const parsed = parseCsv(csv);
      // A unit of work per row and per field.
      let cells = parsed.rows.length;
      for (const row of parsed.rows) cells += row.length;
      budget.spendWork(cells, [name], 0);
      save[name] = parsed;
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
  for (const [path, bytes] of tree) {
    if (['world', 'worldinfo1', 'worldinfo2', 'worldinfo3', 'worldinfo4', 'worldinfo5'].includes(path)) continue;
    if (HEX_NAME.test(path)) {
      try {
        const json = text(bytes);
        parseJsonSafely(json, { maxDepth: options.maxDepth });
        save.actors[path] = json;
      } catch (error) {
        return E.left(
          new DecodeError([path], 0, `actor ${path}: ${error instanceof Error ? error.message : String(error)}`),
        );
      }
    } else save.files[path] = bytes;
  }
  return E.right({ value: save, warnings });
}

/** The save's world (`worldinfo1`) as a TEMD world, gzipped or not. */
export function worldOf(save: TerrarumSave): E.Either<DecodeError, TemdFile> {
  const world = decode(temdFile, save.worldinfo1);
  return E.isLeft(world) ? E.left(world.left.within(['worldinfo1'])) : E.right(world.right.value);
}

/** An actor's JSON, parsed safely. */
export function actorOf(save: TerrarumSave, refid: string): unknown {
  const text = Object.hasOwn(save.actors, refid) ? save.actors[refid] : undefined;
  return text === undefined ? undefined : parseJsonSafely(text);
}

/** The files of a save the reader gives their own meaning: not for `files`. */
const RESERVED = new Set(['world', 'worldinfo1', 'worldinfo2', 'worldinfo3', 'worldinfo4', 'worldinfo5']);

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
  const rule = options.crcRule ?? 'plain';
  if (!(save.worldinfo1 instanceof Uint8Array)) return E.left(new EncodeError(['worldinfo1'], 0, 'expected bytes'));
  const info: Uint8Array[] = [save.worldinfo1];
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
  for (const [name, value] of Object.entries(save.actors)) {
    if (!HEX_NAME.test(name)) return E.left(new EncodeError(['actors', name], 0, 'actor files are named by hex refid'));
    const bytes = encodedText(value, ['actors', name]);
    if (E.isLeft(bytes)) return bytes;
    try {
      parseJsonSafely(value);
    } catch (error) {
      return E.left(
        new EncodeError(['actors', name], 0, `not JSON: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    out.set(name, bytes.right);
  }
  const paths: string[] = [];
  for (const [path, bytes] of Object.entries(save.files)) {
    const problem = checkTreePath(path);
    if (problem !== undefined) return E.left(new EncodeError(['files', path], 0, `refused path: ${problem}`));
    if (RESERVED.has(path))
      return E.left(new EncodeError(['files', path], 0, `${path} is the save's own file, not one of its other files`));
    if (HEX_NAME.test(path))
      return E.left(new EncodeError(['files', path], 0, `a file named by hex refid is an actor: put it in actors`));
    if (!(bytes instanceof Uint8Array)) return E.left(new EncodeError(['files', path], 0, 'expected bytes'));
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
