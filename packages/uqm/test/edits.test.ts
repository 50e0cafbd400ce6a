// Typed edits through the document: each changes its value and nothing else of the file.
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import {
  crew,
  fuel,
  harvest,
  isHarvested,
  resourceUnits,
  roster,
  setCrew,
  setFuel,
  setResourceUnits,
  setRoster,
  uqmSave,
  worldCount,
  scanOf,
  layoutWorldCount,
  systemLayout,
} from '@savekit/uqm';
import { realSavesFor } from './corpus';

const { saves, describe: maybe } = realSavesFor('UQM edits');

/** The chunks (tag + bytes) of a file, read directly. */
function chunkBytes(bytes: Uint8Array): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let at = 4; at < bytes.length; ) {
    const size = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 4, true);
    out.push([
      String.fromCharCode(...bytes.subarray(at, at + 4)),
      Buffer.from(bytes.subarray(at, at + 8 + size)).toString('hex'),
    ]);
    at += 8 + size;
  }
  return out;
}
function changed(a: Uint8Array, b: Uint8Array): string[] {
  const x = chunkBytes(a);
  const y = chunkBytes(b);
  expect(y.map(([t]) => t)).toEqual(x.map(([t]) => t));
  return x.filter(([, hex], i) => hex !== y[i]![1]).map(([t]) => t);
}

maybe('typed edits', () => {
  const original = saves.get('uqmsave.12')!;

  test('resource units, fuel and crew: only the Summ chunk changes', () => {
    const save = decodeOrThrow(uqmSave, original);
    expect([resourceUnits(save), fuel(save), crew(save)]).toEqual([350, 4704, 39]);
    setResourceUnits(save, 9999);
    setFuel(save, 10000);
    setCrew(save, 50);
    const bytes = encodeOrThrow(uqmSave, save);
    expect(changed(original, bytes)).toEqual(['Summ']);
    const back = decodeOrThrow(uqmSave, bytes);
    expect([resourceUnits(back), fuel(back), crew(back)]).toEqual([9999, 10000, 50]);
    expect(() => setCrew(save, 70000)).toThrow(RangeError);
  });

  test("the ship roster: ShpQ and the load menu's ship list follow", () => {
    const save = decodeOrThrow(uqmSave, original);
    const ships = roster(save);
    expect(ships.map((s) => s.raceName)).toEqual(
      ships.map((s) => ['ARILOU', 'CHMMR', 'HUMAN', 'ORZ', 'PKUNK', 'SHOFIXTI', 'SPATHI'][s.raceId] ?? s.raceName),
    );
    const extra = { ...ships[0]!, raceId: 2, race: 2, crewLevel: 18, maxCrew: 18 };
    setRoster(save, [...ships, extra]);
    const bytes = encodeOrThrow(uqmSave, save);
    expect(changed(original, bytes).sort()).toEqual(['ShpQ', 'Summ']);
    const back = decodeOrThrow(uqmSave, bytes);
    expect(roster(back)).toHaveLength(ships.length + 1);
    expect(back.summary.summary.numShips).toBe(ships.length + 1);
    expect(back.summary.summary.shipList[ships.length]).toBe(2);
  });

  test('harvesting a mineral node: only Scan changes; a new system gets its block at the end', () => {
    const save = decodeOrThrow(uqmSave, original);
    expect(isHarvested(save, 82, 0, 'mineral', 14)).toBe(true); // Mercury's radioactive
    harvest(save, 82, 3, 'mineral', 5);
    harvest(save, 100, 1, 'bio', 31, 6);
    const bytes = encodeOrThrow(uqmSave, save);
    expect(changed(original, bytes)).toEqual(['Scan']);
    const back = decodeOrThrow(uqmSave, bytes);
    expect(isHarvested(back, 82, 3, 'mineral', 5)).toBe(true);
    expect(isHarvested(back, 100, 1, 'bio', 31)).toBe(true);
    expect(worldCount(scanOf(back)!, 100)).toBe(6);
    expect(scanOf(back)!.systems.map((s) => s.star)).toEqual([82, 72, 100]);
    // No count given: the block gets as many worlds as the game generates for the star.
    harvest(save, 200, 0, 'energy', 1);
    expect(worldCount(scanOf(save)!, 200)).toBe(layoutWorldCount(systemLayout(200)!));
    expect(() => harvest(save, 502, 0, 'energy', 1)).toThrow(RangeError);
  });
});
