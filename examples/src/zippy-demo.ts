// A small game state in Zippy's savefile: a Lua world of actors that refer to each other, and C-side
// structures — a patrol path (a List of Vectors), an Instance of a Class whose members table points
// back into the world — saved, loaded into a fresh Lua VM, and checked by Lua code there.
//
//   npm run example:zippy --workspace examples
import * as E from 'fp-ts/lib/Either.js';
import fengari from 'fengari';
import { Instance, List, Vector, ZClass, format } from '@savekit/zippy';
import { loadLua, luaRef, saveGame, type LuaRef } from '@savekit/zippy/lua';

const { lua, lauxlib, lualib, to_luastring } = fengari;

function newState(): object {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  return L;
}

function run(L: object, code: string): void {
  if (lauxlib.luaL_dostring(L, to_luastring(code)) !== 0) throw new Error(lua.lua_tojsstring(L, -1));
}

/** Builds the game in `L` and returns the roots: the world table, the patrol path and the boss. */
export function buildGame(L: object): [LuaRef, List, Instance] {
  run(
    L,
    `
    world = { name = "Dungeon 1", actors = {} }
    local hero = { name = "Hero", hp = 30 }
    local imp = { name = "Imp", hp = 12 }
    hero.target, imp.target = imp, hero          -- a cycle
    world.actors[1], world.actors[2] = hero, imp
    world.player = hero                          -- shared: stored once
    bossMembers = { speed = 2, world = world }   -- the class's members point back into the world`,
  );
  lua.lua_getglobal(L, to_luastring('bossMembers'));
  const members = luaRef(L, -1);
  lua.lua_pop(L, 1);
  const bossClass = new ZClass('Boss', null, { ref: members });
  const boss = new Instance(bossClass, null, Uint8Array.of(1, 2, 3, 4));
  // The world refers to the boss (a C structure, seen from Lua as light userdata).
  lua.lua_getglobal(L, to_luastring('world'));
  lua.lua_pushlightuserdata(L, boss);
  lua.lua_setfield(L, -2, to_luastring('boss'));
  const world = luaRef(L, -1);
  lua.lua_pop(L, 1);
  const patrol = List.of([{ ref: new Vector([0, 0]) }, { ref: new Vector([64, 0]) }, { ref: new Vector([64, 64]) }]);
  return [world, patrol, boss];
}

/** Saves the game of `L` and loads it into a fresh state, checking it there with Lua. */
export function demo(): { bytes: Uint8Array; objects: number } {
  const L = newState();
  const saved = saveGame(L, buildGame(L));
  if (E.isLeft(saved)) throw saved.left;
  const fresh = newState();
  const loaded = loadLua(fresh, saved.right);
  if (E.isLeft(loaded)) throw loaded.left;
  const [world, patrol, boss] = loaded.right.roots as [LuaRef, List, Instance];
  world.push();
  lua.lua_setglobal(fresh, to_luastring('world'));
  const members = (boss.cls.members as { ref: LuaRef }).ref;
  members.push();
  lua.lua_setglobal(fresh, to_luastring('bossMembers'));
  lua.lua_pushlightuserdata(fresh, boss);
  lua.lua_setglobal(fresh, to_luastring('boss'));
  run(
    fresh,
    `
    assert(world.name == "Dungeon 1")
    local hero, imp = world.actors[1], world.actors[2]
    assert(hero.target == imp and imp.target == hero, "the cycle is back")
    assert(world.player == hero, "the shared actor is one table")
    assert(world.boss == boss, "the C structure is the same object")
    assert(bossMembers.world == world, "C → Lua → C: the class's members point into the world")`,
  );
  if (patrol.values().length !== 3 || boss.cls.name !== 'Boss') throw new Error('the C structures did not come back');
  return { bytes: saved.right, objects: loaded.right.file.objects.length };
}

// Run directly: save, load, check, and print the object table the CLI's inspect shows.
if (process.argv[1]?.endsWith('zippy-demo.js')) {
  const { bytes, objects } = demo();
  const decoded = format.decode(bytes);
  if (E.isRight(decoded)) for (const line of format.summary?.(decoded.right.value) ?? []) console.log(line);
  console.log(`saved ${bytes.length} bytes (${objects} objects), loaded into a fresh Lua VM, checked by Lua: ok`);
}
