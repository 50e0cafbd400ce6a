// Edits through the document: the result decodes to the new values, its checksum is right (checked
// independently), only the chunks that changed differ from the original, and INDEX references follow
// their elements when arrays change.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, encode, encodeOrThrow } from '@savekit/core';
import type { Instance } from '@savekit/core/schema';
import {
  arrays,
  createSave,
  edgeSave,
  elementsOf,
  newInstance,
  refTo,
  setVariable,
  variable,
  type EdgeSave,
  type IndexRef,
} from '@savekit/edge';
import { goldensFor } from './corpus';
import { readFile } from './independent';

const { files, maybe } = goldensFor('EDGE edits');

/** The top-level chunks' bytes (marker to end) of a file, read independently. */
function chunkBytes(file: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  readFile(file).chunks.forEach((c, i) => {
    out.set(`${i}:${c.marker}`, Buffer.from(file.subarray(c.start, c.end)).toString('hex'));
  });
  return out;
}

function changedChunks(before: Uint8Array, after: Uint8Array): string[] {
  const a = chunkBytes(before);
  const b = chunkBytes(after);
  expect([...b.keys()]).toEqual([...a.keys()]);
  return [...a.keys()].filter((k) => a.get(k) !== b.get(k));
}

maybe('edits of the golden saves', () => {
  test.each(['edgeA_xor_lzo_v12900_engine_layout.sav', 'edgeD_classic_miniz_vEC_engine_layout.sav'])(
    '%s: a Vari and a float in a struct',
    (name) => {
      const golden = files.find((f) => f.name === name)!;
      const save = decodeOrThrow(edgeSave, golden.bytes);
      setVariable(save, 'LEVEL_TIME', '5678');
      const queued = elementsOf(save, 'itemquehead')!;
      (queued[0]!.spawnpoint as Instance).x = 123.5;
      const bytes = encodeOrThrow(edgeSave, save);

      expect(readFile(bytes).checksumOk).toBe(true);
      const back = decodeOrThrow(edgeSave, bytes);
      expect(variable(back, 'LEVEL_TIME')).toBe('5678');
      expect((elementsOf(back, 'itemquehead')![0]!.spawnpoint as Instance).x).toBe(123.5);
      // The Glob and the itemquehead Data chunk were recompressed; every other chunk kept its bytes.
      expect(changedChunks(golden.bytes, bytes)).toEqual(['0:Glob', '7:Data']);
      // And the edited file re-encodes to itself.
      expect(encodeOrThrow(edgeSave, back)).toEqual(bytes);
    },
  );

  test('changing one value only: exactly that chunk differs', () => {
    const golden = files.find((f) => f.name === 'edgeA_xor_lzo_v12900_engine_layout.sav')!;
    const save = decodeOrThrow(edgeSave, golden.bytes);
    (elementsOf(save, 'buttonlist')![0] as Instance).btimer = 99;
    expect(changedChunks(golden.bytes, encodeOrThrow(edgeSave, save))).toEqual(['6:Data']);
  });
});

describe('references follow their elements', () => {
  function threeMobjs(): { save: EdgeSave; mobjs: Instance[] } {
    const mobjs: Instance[] = ['A', 'B', 'C'].map((info) => ({ ...newInstance('mobj_t'), info }));
    const [a, b, c] = mobjs as [Instance, Instance, Instance];
    a.target = refTo('mobjs', c);
    b.tracer = refTo('mobjs', c);
    c.target = refTo('mobjs', a);
    c.source = refTo('mobjs', c);
    return { save: createSave({ variables: { LEVEL: 'E1M1' }, arrays: { mobjs } }), mobjs };
  }

  test('decoded references point at the elements, and re-encode unchanged', () => {
    const { save } = threeMobjs();
    const bytes = encodeOrThrow(edgeSave, save);
    const back = decodeOrThrow(edgeSave, bytes);
    const [a, b, c] = elementsOf(back, 'mobjs')! as [Instance, Instance, Instance];
    expect(a.target).toEqual({ $ref: 'mobjs', index: 3 });
    expect((a.target as IndexRef).target).toBe(c);
    expect((b.tracer as IndexRef).target).toBe(c);
    expect((c.source as IndexRef).target).toBe(c);
    expect(encodeOrThrow(edgeSave, back)).toEqual(bytes);
  });

  test("a reference's index follows its element (the README: assigning it changes nothing; a new reference retargets)", () => {
    const bytes = encodeOrThrow(edgeSave, threeMobjs().save);
    const back = decodeOrThrow(edgeSave, bytes);
    const [a, b] = elementsOf(back, 'mobjs')! as [Instance, Instance, Instance];
    (a.target as { index: number }).index = 2; // past the types: the reference still points at C
    expect(encodeOrThrow(edgeSave, back)).toEqual(bytes);
    a.target = refTo('mobjs', b);
    const again = decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, back));
    expect(elementsOf(again, 'mobjs')![0]!.target).toEqual({ $ref: 'mobjs', index: 2 });
  });

  test('removing an element renumbers every reference and the array count', () => {
    const back = decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, threeMobjs().save));
    const mobjs = elementsOf(back, 'mobjs')!;
    mobjs.splice(1, 1); // remove B; A and C keep pointing at each other
    const again = decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, back));
    const [a, c] = elementsOf(again, 'mobjs')! as [Instance, Instance];
    expect([a.info, c.info]).toEqual(['A', 'C']);
    expect(a.target).toEqual({ $ref: 'mobjs', index: 2 });
    expect(c.target).toEqual({ $ref: 'mobjs', index: 1 });
    expect(c.source).toEqual({ $ref: 'mobjs', index: 2 });
    expect(arrays(again).find((x) => x.name === 'mobjs')!.count).toBe(2);
  });

  test('a reference to a removed element is an EncodeError naming the field', () => {
    const back = decodeOrThrow(edgeSave, encodeOrThrow(edgeSave, threeMobjs().save));
    const mobjs = elementsOf(back, 'mobjs')!;
    mobjs.splice(2, 1); // remove C, which A and B refer to
    const result = encode(edgeSave, back);
    expect(E.isLeft(result) && result.left.toString()).toMatch(
      /chunks\[\d+\]\.body\.value <lzo1x, xor> \.elements\[0\]\.target .*no longer in mobjs/,
    );
  });

  test('an array field given more or fewer elements than its structure holds is an EncodeError at it, never truncated', () => {
    const bytes = encodeOrThrow(
      edgeSave,
      createSave({ variables: { LEVEL: 'MAP01' }, arrays: { players: [newInstance('player_t')] } }),
    );
    const edits: Array<[string, (player: Instance) => void]> = [
      ['armours', (p) => (p.armours as number[]).push(77)],
      ['ammo', (p) => (p.ammo as unknown[]).push({ num: 50, max: 400 })],
      ['ammo', (p) => (p.ammo as unknown[]).pop()],
    ];
    for (const [field, edit] of edits) {
      const save = decodeOrThrow(edgeSave, bytes);
      edit(elementsOf(save, 'players')![0]!);
      const result = encode(edgeSave, save);
      if (E.isRight(result)) throw new Error(`the edit to ${field} was written`);
      expect(result.left.code).toBe('size-mismatch');
      expect(result.left.path.slice(-3)).toEqual(['elements', 0, field]);
      expect(result.left.message).toMatch(
        new RegExp(`^field ${field} has \\d+ elements; (player_t\\.${field} holds|the definition says) \\d+$`),
      );
    }
  });

  test('references from JSON (no element attached) keep their number', () => {
    const { save } = threeMobjs();
    const bytes = encodeOrThrow(edgeSave, save);
    const json = edgeSave.json.encode(decodeOrThrow(edgeSave, bytes));
    const fromJson = edgeSave.json.decode(JSON.parse(JSON.stringify(json)));
    if (E.isLeft(fromJson)) throw new Error('JSON did not validate');
    expect(encodeOrThrow(edgeSave, fromJson.right)).toEqual(bytes);
  });
});
