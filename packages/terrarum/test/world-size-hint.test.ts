// A raw world is written into a buffer of its size only when its tile arrays hold width × height
// tiles: a world whose header claims billions of tiles it does not have is refused by the world's
// check without a buffer of that size made first (review: 20,000 × 26,000 asked for ~2 GB).
import * as core from '@savekit/core';
import * as E from 'fp-ts/lib/Either';

// encode, watched: the options each call asks for.
jest.mock('@savekit/core', () => {
  const actual = jest.requireActual('@savekit/core');
  return { ...actual, encode: jest.fn(actual.encode) };
});
import { encodeSave, temdSize, type TemdWorld } from '../src';
import { ourSave } from './save-fixture';

function world(width: number, height: number, tiles: number): TemdWorld {
  return {
    byteOrder: 'le',
    bytesPerTile: 1,
    layerCount: 4,
    reserved: 0,
    width,
    height,
    spawnX: 0,
    spawnY: 0,
    terrain: new Uint16Array(tiles),
    wall: new Uint16Array(tiles),
    wire: new Uint8Array(tiles),
  } as TemdWorld;
}

/** The initial capacities asked of `encode` while encoding `save`, and the result. */
function capacities(save: ReturnType<typeof ourSave>) {
  const watched = core.encode as jest.MockedFunction<typeof core.encode>;
  watched.mockClear();
  const result = encodeSave(save);
  const asked = watched.mock.calls.map((call) => call[2]?.initialCapacity).filter((c) => c !== undefined);
  return { result, asked };
}

test('a world with all its tiles is written into a buffer of its exact size', () => {
  const save = ourSave(3);
  save.worldinfo1 = { gzip: false, world: world(8, 4, 32) };
  const { result, asked } = capacities(save);
  expect(E.isRight(result)).toBe(true);
  expect(asked).toContain(temdSize({ width: 8, height: 4, layerCount: 4 }));
});

test('a world claiming more tiles than it holds is refused with no buffer sized from its header', () => {
  const save = ourSave(3);
  save.worldinfo1 = { gzip: false, world: world(20_000, 26_000, 2) };
  const { result, asked } = capacities(save);
  expect(E.isLeft(result)).toBe(true);
  expect(Math.max(0, ...asked)).toBeLessThan(1 << 20);
});
