// The golden files written by EDGE's own chunk code: every one decodes; every value of its JSON
// description (ints, floats bit for bit, strings, NULL strings, markers, nested chunks, INDEX values)
// is in the decoded document and encodes to the bytes the engine wrote; every file re-encodes to
// itself, through the API and through the CLI (verify, dump → build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either';
import {
  decodeOrThrow,
  encodeOrThrow,
  fourcc,
  isRawChunk,
  u16le,
  u32le,
  u8,
  type AnyCodec,
  type Kept,
} from '@savekit/core';
import type { ArrayDef, Instance, StructDef } from '@savekit/core/schema';
import {
  edgeAngle,
  edgeFloat,
  edgeSave,
  edgeString,
  endMarkerOf,
  format,
  storedLayers,
  structures,
  type DataBody,
  type EdgeSave,
  type IndexRef,
  type TopChunk,
} from '@savekit/edge';
import { fromHex, goldensFor, toHex, type Golden, type GoldenChunk, type GoldenItem } from './corpus';

const { files, maybe } = goldensFor('EDGE golden files');
const repo = join(__dirname, '..', '..', '..');
const cli = join(repo, 'packages', 'cli', 'dist', 'bin.js');

function decoded(golden: Golden): EdgeSave {
  const result = format.decode(golden.bytes);
  if (E.isLeft(result)) throw new Error(result.left.toString());
  expect(result.right.warnings).toEqual([]);
  return result.right.value;
}

const f32bits = (x: number) => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x, true);
  return `0x${v.getUint32(0, true).toString(16).padStart(8, '0')}`;
};

/** The codec a golden item type is written with, and the document's value in that codec's terms. */
function leafCodec(item: GoldenItem): AnyCodec {
  switch (item.type) {
    case 'byte':
      return u8;
    case 'short':
      return u16le;
    case 'int':
      return u32le;
    case 'angle':
      return edgeAngle;
    case 'float':
      return edgeFloat;
    case 'string':
      return edgeString;
    case 'marker':
      return fourcc({ alnum: true });
    default:
      throw new Error(`no leaf codec for ${item.type}`);
  }
}

/** Checks one leaf: the document's value equals the golden value, and encodes to the golden bytes. */
function checkLeaf(item: GoldenItem, value: unknown, where: string): void {
  let stored: unknown;
  switch (item.type) {
    case 'int': {
      // INDEX fields are references (0 = null); booleans and ints are numbers.
      const n =
        value === null
          ? 0
          : typeof value === 'object'
            ? (value as IndexRef).index
            : typeof value === 'boolean'
              ? Number(value)
              : (value as number);
      stored = n >>> 0;
      expect({ where, value: stored }).toEqual({ where, value: item.value });
      break;
    }
    case 'float':
      // The engine writes −0 as +0 (edge.md §3): the description gives the value it was asked to write.
      expect({ where, bits: f32bits(value as number) }).toEqual({
        where,
        bits: item.float32_bits === '0x80000000' ? '0x00000000' : item.float32_bits,
      });
      stored = value;
      break;
    default:
      expect({ where, value }).toEqual({ where, value: item.value });
      stored = value;
  }
  expect({ where, hex: toHex(encodeOrThrow(leafCodec(item), stored)) }).toEqual({ where, hex: item.hex });
}

/** The values of an instance in file order, one per stored element (arrays expanded). */
function instanceValues(instance: Instance, def: StructDef): unknown[] {
  const out: unknown[] = [];
  for (const f of def.fields) {
    const v = f.name in instance ? instance[f.name] : (instance.$kept as Record<string, unknown> | undefined)?.[f.name];
    if (f.count === 1) out.push(v);
    else out.push(...(v as unknown[]));
  }
  return out;
}

function checkInstance(
  items: GoldenItem[],
  instance: Instance,
  defs: StructDef[],
  marker: string,
  where: string,
  variant: string,
): void {
  const def = defs.find((d) => d.marker === marker);
  if (def === undefined) throw new Error(`no structure with marker ${marker}`);
  const values = instanceValues(instance, def);
  expect({ where, count: values.length }).toEqual({ where, count: items.length });
  items.forEach((item, i) => {
    if (item.type === 'chunk') {
      if (variant === 'A') expect(item.end_marker).toBe(endMarkerOf(item.marker!));
      checkInstance(item.content!, values[i] as Instance, defs, item.marker!, `${where}.${item.marker}`, variant);
    } else checkLeaf(item, values[i], `${where}[${i}]`);
  });
}

/** The golden items of a definition chunk, as the document's definition flattened in file order. */
function definitionLeaves(chunk: TopChunk): unknown[] {
  const value = (chunk as { body: Kept<unknown> }).body.value;
  if (chunk.id === 'Arry') {
    const def = value as ArrayDef;
    return [def.count, def.name, def.struct];
  }
  const def = value as StructDef;
  const out: unknown[] = [def.fields.length, def.name, def.marker];
  const codes = { numeric: 1, index: 2, string: 3, struct: 4 } as const;
  for (const f of def.fields) {
    out.push(codes[f.kind as keyof typeof codes], f.size, f.count, f.name);
    if (f.ref !== undefined) out.push(f.ref);
  }
  return out;
}

/** The plain (decompressed, un-XORed) payload of a golden chunk, through the package's own layers. */
function plainOf(golden: GoldenChunk, variant: 'A' | 'B' | 'C' | 'D'): Uint8Array {
  let data = fromHex(golden.stored_bytes_hex);
  for (const layer of storedLayers(variant))
    data = layer.decode(data, { maxOutput: golden.orig_length, expected: golden.orig_length });
  return data;
}

maybe('EDGE golden files', () => {
  test.each(files.map((f) => [f.name, f] as const))(
    '%s: header, chunks, values and trailer match its description',
    (_name, golden) => {
      const save = decoded(golden);
      const json = golden.json;
      expect(`0x${save.version.toString(16).toUpperCase()}`).toBe(json.version_field.toUpperCase().replace('0X', '0x'));
      expect(toHex(golden.bytes.subarray(0, 16))).toBe(json.header_hex);
      expect(save.padding).toEqual(Uint8Array.of(0x1a, 0x0d, 0x0a, 0x00));
      expect(`0x${decodeOrThrow(u32le, golden.bytes.subarray(-4)).toString(16).toUpperCase().padStart(8, '0')}`).toBe(
        json.crc.toUpperCase().replace('0X', '0x'),
      );
      expect(save.chunks.map((c) => c.id)).toEqual(json.top_level_chunks.map((c) => c.marker));
      const defs = structures(save);
      json.top_level_chunks.forEach((g, i) => {
        const chunk = save.chunks[i]!;
        const where = `${golden.name} ${g.marker}#${i}`;
        expect(toHex(plainOf(g, save.variant))).toBe(g.plain_payload_hex);
        if (save.variant === 'A') expect(g.end_marker).toBe(endMarkerOf(g.marker));
        if (isRawChunk(chunk)) {
          // A test chunk the document does not model (Prim): its kept bytes are exactly what the file
          // holds, and every item decodes with the package's codecs at the description's offsets.
          expect(toHex(chunk.raw.subarray(4))).toBe(g.stored_bytes_hex);
          const plain = plainOf(g, save.variant);
          for (const item of g.content) {
            const codec = leafCodec(item);
            const bytes = plain.subarray(item.offset, item.offset + item.hex!.length / 2);
            expect(toHex(bytes)).toBe(item.hex);
            checkLeaf(item, decodeOrThrow(codec, bytes), `${where} @${item.offset}`);
          }
          return;
        }
        const value = (chunk.body as Kept<unknown>).value;
        if (chunk.id === 'Glob') {
          // The golden Globs hold `Vari` lumps only.
          const lumps = value as Array<{ id: string; body: { name: unknown; value: unknown } }>;
          expect(lumps.map((e) => e.id)).toEqual(g.content.map((item) => item.marker));
          g.content.forEach((item, k) => {
            const [name, text] = item.content! as [GoldenItem, GoldenItem];
            checkLeaf(name, lumps[k]!.body.name, `${where} Vari#${k}.name`);
            checkLeaf(text, lumps[k]!.body.value, `${where} Vari#${k}.value`);
          });
        } else if (chunk.id === 'Stru' || chunk.id === 'Arry') {
          const leaves = definitionLeaves(chunk);
          expect(leaves.length).toBe(g.content.length);
          g.content.forEach((item, k) => {
            checkLeaf(item, leaves[k], `${where}[${k}]`);
          });
        } else if (chunk.id === 'Data') {
          const data = value as DataBody;
          const [array, ...instances] = g.content;
          checkLeaf(array!, data.array, `${where}.array`);
          expect(data.elements.length).toBe(instances.length);
          instances.forEach((item, k) => {
            checkInstance(
              item.content!,
              data.elements[k]!,
              defs,
              item.marker!,
              `${where}.${data.array}[${k}]`,
              save.variant,
            );
          });
        } else {
          throw new Error(`unexpected chunk ${chunk.id}`);
        }
      });
    },
  );

  test.each(files.map((f) => [f.name, f] as const))('%s: re-encodes to the identical file', (_name, golden) => {
    const save = decoded(golden);
    expect(toHex(encodeOrThrow(edgeSave, save))).toBe(toHex(golden.bytes));
  });

  test('INDEX values resolve to their elements; references into arrays the save does not carry keep their number', () => {
    const golden = files.find((f) => f.name.includes('A_xor_lzo_v12900_engine_layout'))!;
    const save = decoded(golden);
    const buttons = (
      save.chunks.find((c) => !isRawChunk(c) && c.id === 'Data') as { body: Kept<{ elements: Instance[] }> }
    ).body.value.elements;
    expect(buttons[0]!.line).toEqual({ $ref: 'lines', index: 5 });
    expect((buttons[0]!.line as IndexRef).target).toBeUndefined(); // `lines` is level data, not in this save
    expect(buttons[1]!.line).toBeNull();
  });

  test('savekit verify reports each file byte-identical; dump → build gives the identical file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'savekit-edge-'));
    try {
      for (const golden of files) {
        const path = join(dir, golden.name);
        writeFileSync(path, golden.bytes);
        const verify = spawnSync(process.execPath, [cli, 'verify', path], { encoding: 'utf8' });
        expect({ file: golden.name, status: verify.status, out: verify.stdout }).toEqual({
          file: golden.name,
          status: 0,
          out: expect.stringMatching(/^ok .*\n1 save: 1 ok, 0 invalid, 0 differ/),
        });
        const dump = spawnSync(process.execPath, [cli, 'dump', path, '-o', `${path}.json`], { encoding: 'utf8' });
        expect({ file: golden.name, status: dump.status, err: dump.stderr }).toEqual({
          file: golden.name,
          status: 0,
          err: '',
        });
        const build = spawnSync(process.execPath, [cli, 'build', `${path}.json`, '-o', `${path}.rebuilt`], {
          encoding: 'utf8',
        });
        expect({ file: golden.name, status: build.status, err: build.stderr }).toEqual({
          file: golden.name,
          status: 0,
          err: expect.stringMatching(/^wrote .*\(edge\)\n$/),
        });
        expect(toHex(new Uint8Array(readFileSync(`${path}.rebuilt`)))).toBe(toHex(golden.bytes));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
