// One phase of the Lua chain benchmark in a process of its own (cases/lua-chain.mjs):
//   node lua-chain-phase.mjs save <links> <file> [options JSON]   builds the chain in Lua, saves it to <file>
//   node lua-chain-phase.mjs load <links> <file> [options JSON]   loads <file> into a fresh state, checks it in Lua
// The chain is `head = {n = 0}`, each table's `next` the next one, `links` deep. Prints JSON: the CPU
// seconds of the save or load call alone (process.cpuUsage: every thread, so the collector's too) and
// the process's peak resident set size.
import { readFileSync, writeFileSync } from 'node:fs';
import fengari from 'fengari';
import { loadLua, saveLua } from '@savekit/zippy/lua';

const { lua, lauxlib, lualib, to_luastring } = fengari;
const [phase, links, file, optionsJson] = process.argv.slice(2);
const count = Number(links);
const options = optionsJson === undefined ? {} : JSON.parse(optionsJson);

function newState() {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  return L;
}
function run(L, code) {
  if (lauxlib.luaL_dostring(L, to_luastring(code)) !== 0) throw new Error(lua.lua_tojsstring(L, -1));
}
function cpuSeconds(work) {
  const start = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(start);
  if (result._tag === 'Left') throw result.left;
  return [result.right, (used.user + used.system) / 1e6];
}

let seconds;
if (phase === 'save') {
  const L = newState();
  run(L, `head = {n = 0}; local t = head; for i = 1, ${count} do local x = {n = i}; t.next = x; t = x end`);
  lua.lua_getglobal(L, to_luastring('head'));
  const [bytes, s] = cpuSeconds(() => saveLua(L, 1, options));
  writeFileSync(file, bytes);
  seconds = s;
} else if (phase === 'load') {
  const bytes = new Uint8Array(readFileSync(file));
  const L = newState();
  const [, s] = cpuSeconds(() => loadLua(L, bytes, options));
  lua.lua_setglobal(L, to_luastring('head'));
  // The loaded chain is the saved one: every link, in order.
  run(L, `local t, n = head, 0; while t.next do t = t.next; n = n + 1; assert(t.n == n) end; assert(n == ${count})`);
  seconds = s;
} else {
  throw new Error(`lua-chain-phase: unknown phase ${phase}`);
}
process.stdout.write(JSON.stringify({ seconds, peakBytes: process.resourceUsage().maxRSS * 1024 }));
