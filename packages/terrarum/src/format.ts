/**
 * The savekit plugin: a save folder, a TEVd / TVDA disk (a save inside is checked too), a lone
 * `world` meta file, or a JSON-era world.
 *
 * @module
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  decode,
  DecodeError,
  encode,
  EncodeError,
  isSaveTree,
  type Decoded,
  type DecodeOptions,
  type EncodeOptions,
  type SaveFormat,
  type SaveInput,
  type Warning,
} from '@savekit/core';
import { DecodeBudget, jsonBytes, jsonRecord, plural } from '@savekit/core/kit';
import { jsonWorld, type JsonWorld } from './world-json.js';
import { worldMeta, type WorldMeta } from './meta.js';
import { decodeSave, encodeSave, type TerrarumSave } from './save.js';
import { checkEntryNames, diskToTree, tevdDisk, updateDiskFromTree, type TevdDisk } from './tevd.js';
import { temdFile, type TemdFile } from './temd.js';

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

const csvJson = t.intersection([t.type({ rows: t.array(t.array(t.string)) }), t.partial({ text: t.string })]);
const saveJson = t.type({
  meta: worldMeta.json,
  worldinfo1: jsonBytes(),
  worldinfo2: csvJson,
  worldinfo3: csvJson,
  worldinfo4: csvJson,
  worldinfo5: t.string,
  // Names are data: `t.record` would turn a `__proto__` key into the prototype and drop it.
  actors: jsonRecord(t.string),
  files: jsonRecord(jsonBytes()),
});
const documentJson = t.union([
  t.type({ kind: t.literal('save'), save: saveJson }),
  t.intersection([t.type({ kind: t.literal('disk'), disk: tevdDisk.json }), t.partial({ save: saveJson })]),
  t.type({ kind: t.literal('meta'), meta: worldMeta.json }),
  t.type({ kind: t.literal('world'), world: jsonWorld.json }),
  t.type({ kind: t.literal('temd'), temd: temdFile.json }),
]) as unknown as t.Type<TerrarumDocument, unknown, unknown>;

/** Whether a disk's root directory (id 0) holds a file named `world`: a save lives on it. */
function holdsSave(disk: TevdDisk): boolean {
  return (
    disk.layout !== 'tvda' &&
    disk.entries.some((e) => e.parent === '0' && e.id !== '0' && e.name === 'world' && e.content.kind === 'file')
  );
}

const startsWith = (b: Uint8Array, s: string) =>
  b.length >= s.length && [...s].every((c, i) => b[i] === c.charCodeAt(0));

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

/** The document of `input`; every nested decode shares `budget` (through `options`). Throws DecodeErrors. */
function decodeInput(
  input: SaveInput,
  options: DecodeOptions,
  budget: DecodeBudget,
): E.Either<DecodeError, Decoded<TerrarumDocument>> {
  if (isSaveTree(input)) {
    const save = decodeSave(input, options);
    return E.isLeft(save)
      ? save
      : E.right({ value: { kind: 'save', save: save.right.value }, warnings: save.right.warnings });
  }
  if (startsWith(input, 'TEVd')) {
    const disk = decode(tevdDisk, input, options);
    if (E.isLeft(disk)) return disk;
    const warnings: Warning[] = [...disk.right.warnings];
    // A save on a disk is checked like a save in a folder. Paths are built only then (and charged
    // to the budget): a disk without a save is not asked for its tree.
    if (!holdsSave(disk.right.value)) {
      checkEntryNames(disk.right.value);
      return E.right({ value: { kind: 'disk', disk: disk.right.value }, warnings });
    }
    const tree = diskToTree(disk.right.value, budget);
    const save = decodeSave(tree, options);
    if (E.isLeft(save)) return save;
    warnings.push(...save.right.warnings);
    return E.right({ value: { kind: 'disk', disk: disk.right.value, save: save.right.value }, warnings });
  }
  if (startsWith(input, 'TESV')) {
    const meta = decode(worldMeta, input, options);
    return E.isLeft(meta)
      ? meta
      : E.right({ value: { kind: 'meta', meta: meta.right.value }, warnings: meta.right.warnings });
  }
  if (startsWith(input, 'TEMD') || (input[0] === 0x1f && input[1] === 0x8b)) {
    const temd = decode(temdFile, input, options);
    return E.isLeft(temd)
      ? temd
      : E.right({ value: { kind: 'temd', temd: temd.right.value }, warnings: temd.right.warnings });
  }
  const world = decode(jsonWorld, input, options);
  return E.isLeft(world)
    ? world
    : E.right({ value: { kind: 'world', world: world.right.value }, warnings: world.right.warnings });
}

/** The save of a document. Refusals are EncodeErrors with the document path. */
function encodeDocument(doc: TerrarumDocument, options: EncodeOptions | undefined): E.Either<EncodeError, SaveInput> {
  switch (doc.kind) {
    case 'save':
      return prefixed('save', encodeSave(doc.save));
    case 'disk': {
      if (doc.save === undefined) return prefixed('disk', encode(tevdDisk, doc.disk, options));
      const tree = encodeSave(doc.save);
      if (E.isLeft(tree)) return prefixed('save', tree);
      let disk: TevdDisk;
      try {
        disk = updateDiskFromTree(doc.disk, tree.right);
      } catch (error) {
        return E.left(new EncodeError(['save'], 0, error instanceof Error ? error.message : String(error)));
      }
      return prefixed('disk', encode(tevdDisk, disk, options));
    }
    case 'meta':
      return prefixed('meta', encode(worldMeta, doc.meta, options));
    case 'temd':
      return prefixed('temd', encode(temdFile, doc.temd, options));
    default:
      return prefixed('world', encode(jsonWorld, doc.world, options));
  }
}

/** An encode's result with its error's path under the document's field `key` (as the JSON form has it). */
function prefixed<A>(key: string, result: E.Either<EncodeError, A>): E.Either<EncodeError, A> {
  if (E.isRight(result)) return result;
  return E.left(result.left.within([key]));
}

/** The Terrarum format. */
export const format: SaveFormat<TerrarumDocument> = {
  id: 'terrarum',
  title: 'Terrarum save',
  extensions: ['.tevd'],
  input: 'both',
  sniff(input) {
    if (isSaveTree(input)) return input.has('world') && input.has('worldinfo1') ? 0.9 : input.has('world') ? 0.6 : 0;
    if (startsWith(input, 'TEVd')) return 0.95;
    if (startsWith(input, 'TESV')) return 0.9;
    if (startsWith(input, 'TEMD')) return 0.9;
    if (input[0] === 0x1f && input[1] === 0x8b) return 0.2; // perhaps a gzipped TEMD
    if (input[0] === 0x7b && input.length < 1 << 30) {
      const head = new TextDecoder().decode(input.subarray(0, Math.min(input.length, 4096)));
      if (/"(layerTerrain|genver|worldIndex)"/.test(head)) return 0.6;
    }
    return 0;
  },
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
      return encodeDocument(doc, options);
    } catch (error) {
      // Every refusal is an EncodeError with its path; this only keeps a missed one typed.
      if (error instanceof EncodeError) return E.left(error);
      return E.left(new EncodeError([], 0, error instanceof Error ? error.message : String(error)));
    }
  },
  json: documentJson,
  fieldMap(input) {
    // A disk's header and entries; the other kinds are text or a single struct.
    const codec = startsWith(input, 'TEVd') ? tevdDisk : startsWith(input, 'TESV') ? worldMeta : undefined;
    if (codec === undefined) return [];
    const result = decode(codec as typeof tevdDisk, input, { trace: true, checksums: 'warn' });
    return E.isRight(result)
      ? (result.right.spans ?? []).map((span) => ({
          ...span,
          path: [startsWith(input, 'TEVd') ? 'disk' : 'meta', ...span.path],
        }))
      : [];
  },
  summary,
};
