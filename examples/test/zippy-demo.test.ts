// The Zippy demo: a Lua world and C structures saved, loaded into a fresh VM and checked by Lua there.
import { demo } from '../src/zippy-demo';

test('the Zippy demo round-trips through a fresh Lua VM (its Lua checks pass)', () => {
  const { bytes, objects } = demo();
  expect(objects).toBe(11);
  expect(demo().bytes).toEqual(bytes); // deterministic: the same game gives the same file
});
