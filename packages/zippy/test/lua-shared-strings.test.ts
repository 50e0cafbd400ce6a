// The Lua load shares short strings through the core's BytesTable (each pushed once, pushed again
// from the keeper): whatever the table keeps or refuses — strings past its length bound, past its
// count bound, bytes with the same hash — every string loads as saved, in either byte order.
import * as E from 'fp-ts/lib/Either';
import { loadLua, saveLua } from '@savekit/zippy/lua';
import { newState, pushGlobal, run, setGlobal } from './lua-helpers';

/** Saves global `T` of a state that ran `source`, loads it into a fresh state as `T`. */
function reload(source: string, byteOrder: 'be' | 'le'): object {
  const L = newState();
  run(L, source);
  pushGlobal(L, 'T');
  const saved = saveLua(L, 1, { byteOrder });
  if (E.isLeft(saved)) throw saved.left;
  const L2 = newState();
  const loaded = loadLua(L2, saved.right);
  if (E.isLeft(loaded)) throw loaded.left;
  setGlobal(L2, 'T');
  return L2;
}

test.each(['be', 'le'] as const)('%s: repeated, colliding, long and binary strings load as saved', (byteOrder) => {
  // "k3pvu" and "ke3ea" have the same 32-bit hash: only the byte compare tells them apart.
  const L = reload(
    `
    local names = {"k3pvu", "ke3ea", "", "a\\0b", string.rep("x", 64), string.rep("x", 65), "\\255\\254"}
    T = {}
    for i = 1, 3000 do
      local a, b = names[i % #names + 1], names[(i + 3) % #names + 1]
      T[i] = {v = a, w = b, [a] = i, [b] = -i}
    end`,
    byteOrder,
  );
  run(
    L,
    `
    local names = {"k3pvu", "ke3ea", "", "a\\0b", string.rep("x", 64), string.rep("x", 65), "\\255\\254"}
    for i = 1, 3000 do
      local t, a, b = T[i], names[i % #names + 1], names[(i + 3) % #names + 1]
      assert(t.v == a and t.w == b and t[a] == i and t[b] == -i, "table " .. i)
    end`,
  );
});

test('strings past the count bound (65,536 kept) load as saved, and repeats of kept ones still share', () => {
  const L = reload(
    `
    T = {}
    for i = 1, 70000 do T[i] = "s" .. i end
    for i = 70001, 71000 do T[i] = "s" .. (i - 70000) end
    for i = 71001, 72000 do T[i] = "s" .. (i - 2000) end`,
    'be',
  );
  run(
    L,
    `
    for i = 1, 70000 do assert(T[i] == "s" .. i, "string " .. i) end
    for i = 70001, 71000 do assert(T[i] == "s" .. (i - 70000), "repeat " .. i) end
    for i = 71001, 72000 do assert(T[i] == "s" .. (i - 2000), "unkept repeat " .. i) end`,
  );
});
