// @savekit/zippy/lua as a browser bundle has it: on fengari-web (the package's `browser` field maps
// `fengari` to it), with the application's states made by fengari-web too. scripts/check-packages.mjs
// bundles this file for the browser from the packed packages and runs it: a table with a cycle, a
// nested table and a float is saved from one state and restored into a fresh one.
import fengari from 'fengari-web';
import { loadLua, saveLua } from '@savekit/zippy/lua';

const { lua, lauxlib, lualib, to_luastring } = fengari;
function state() {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  return L;
}
function run(L, code) {
  if (lauxlib.luaL_dostring(L, to_luastring(code)) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1));
}

const L = state();
run(L, 't = { 1, "two", x = { y = 3.5 } }; t.self = t; return t');
const bytes = saveLua(L, 1);
if (bytes._tag !== 'Right') throw bytes.left;
const fresh = state();
const loaded = loadLua(fresh, bytes.right);
if (loaded._tag !== 'Right') throw loaded.left;
lua.lua_setglobal(fresh, to_luastring('t'));
run(fresh, 'return t[1] .. "," .. t[2] .. "," .. t.x.y .. "," .. tostring(t.self == t)');
const got = lua.lua_tojsstring(fresh, -1);
if (got !== '1,two,3.5,true') throw new Error(`restored ${got}`);
