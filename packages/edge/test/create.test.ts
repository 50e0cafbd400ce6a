// createSave for every release table: a fresh save of each builds, encodes, decodes to the same
// elements (of every array the release saves) and re-encodes byte for byte — 1.35 and 3DGE included,
// whose sliding doors (`slider_move_t`, sharing `pmov` with `plane_move_t`) have their own definition.
import * as E from 'fp-ts/lib/Either';
import { decode, encodeOrThrow } from '@savekit/core';
import type { Instance } from '@savekit/core/schema';
import {
  arrays,
  createSave,
  edgeSave,
  elementsOf,
  ENGINE_TABLES,
  newInstance,
  structures,
  tableFor,
  type EngineTable,
} from '@savekit/edge';
import { readFile } from './independent';

/** A version written by each release of the tables (3DGE shares 1.35's table). */
const RELEASES: ReadonlyArray<readonly [string, number]> = [
  ['1.27', 0x12700],
  ['1.29 (variant A)', 0x12900],
  ['1.29.01 (variant B)', 0x12901],
  ['1.35', 0x13506],
  ['3DGE 2.1.0', 0x21007],
  ['EDGE-classic', 0xec],
];

test('every release table is covered by a version above', () => {
  const covered = new Set<EngineTable>(RELEASES.map(([, version]) => tableFor(version)));
  expect(ENGINE_TABLES.filter((table) => !covered.has(table)).map((t) => t.release)).toEqual([]);
});

describe.each(RELEASES)('createSave for %s', (_name, version) => {
  const table = tableFor(version);

  test('every array of the release has its structure defined', () => {
    const save = createSave({ version });
    const defined = new Set(structures(save).map((s) => s.name));
    for (const [array, struct] of table.arrays)
      expect({ array, defined: defined.has(struct) }).toEqual({ array, defined: true });
    expect(arrays(save).map((a) => a.name)).toEqual(table.arrays.map(([a]) => a));
  });

  test('one element in every array: builds, encodes, decodes to the same elements, re-encodes identically', () => {
    const elements = Object.fromEntries(
      table.arrays.map(([array, struct]): [string, Instance[]] => [array, [newInstance(struct, version)]]),
    );
    const [firstArray] = table.arrays[0]!;
    // A value that is not a default, so the check sees the element's own data.
    const first = elements[firstArray]![0]!;
    const numeric = Object.keys(first).find((k) => typeof first[k] === 'number')!;
    first[numeric] = 7;
    const save = createSave({ version, variables: { LEVEL: 'MAP01' }, arrays: elements });
    const bytes = encodeOrThrow(edgeSave, save);
    expect(readFile(bytes).checksumOk).toBe(true);
    const result = decode(edgeSave, bytes);
    if (E.isLeft(result)) throw result.left;
    expect(result.right.warnings).toEqual([]);
    for (const [array] of table.arrays) expect(elementsOf(result.right.value, array)).toEqual(elements[array]);
    expect(elementsOf(result.right.value, firstArray)![0]![numeric]).toBe(7);
    expect(Buffer.from(encodeOrThrow(edgeSave, result.right.value)).equals(bytes)).toBe(true);
  });
});

test('1.35 saves sliding doors and plane movers under the same marker, each read as its own structure', () => {
  const slider = { ...newInstance('slider_move_t', 0x13506), opening: 0.5, final_open: true, info: 'DOOR' };
  const mover = { ...newInstance('plane_move_t', 0x13506), speed: 2, is_elevator: true };
  const save = createSave({ version: 0x13506, arrays: { active_sliders: [slider], plane_movers: [mover] } });
  const back = decode(edgeSave, encodeOrThrow(edgeSave, save));
  if (E.isLeft(back)) throw back.left;
  expect(elementsOf(back.right.value, 'active_sliders')).toEqual([slider]);
  expect(elementsOf(back.right.value, 'plane_movers')).toEqual([mover]);
});
