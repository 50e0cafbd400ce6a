// The README's worked example, made by the code: a small save of every kind (a Lua table with a
// userdata and a C structure), shared by the container and budget tests.
import * as E from 'fp-ts/lib/Either';
import { Vector } from '@savekit/zippy';
import { saveLua } from '@savekit/zippy/lua';
import { lua, newState, pushGlobal, run, to_luastring } from './lua-helpers';

/** The README's worked example (in either byte order): T = {1.0, "a"}; T.self = T; T.u = userdata DE AD BE EF; T.v = Vector(1.5, -2.0). */
export function workedExample(byteOrder: 'be' | 'le' = 'be'): Uint8Array {
  const L = newState();
  run(L, 'T = {1.0, "a"}; T.self = T');
  pushGlobal(L, 'T');
  const data = lua.lua_newuserdata(L, 4) as { payload?: Uint8Array };
  data.payload = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);
  lua.lua_setfield(L, -2, to_luastring('u'));
  lua.lua_pushlightuserdata(L, new Vector([1.5, -2.0]));
  lua.lua_setfield(L, -2, to_luastring('v'));
  const saved = saveLua(L, 1, { byteOrder });
  if (E.isLeft(saved)) throw saved.left;
  return saved.right;
}
