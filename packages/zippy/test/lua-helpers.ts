// A fengari state for tests, and running Lua code in it.
import fengari from 'fengari';

export const { lua, lauxlib, lualib, to_luastring } = fengari;

/** A fresh Lua state with the standard libraries. */
export function newState(): object {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  return L;
}

/** Runs Lua code; a Lua error (an `assert` that fails) becomes a thrown Error with its message. */
export function run(L: object, code: string): void {
  if (lauxlib.luaL_dostring(L, to_luastring(code)) !== 0) {
    const message = lua.lua_tojsstring(L, -1);
    lua.lua_pop(L, 1);
    throw new Error(`Lua: ${message}`);
  }
}

/** Pushes a global onto the stack. */
export function pushGlobal(L: object, name: string): void {
  lua.lua_getglobal(L, to_luastring(name));
}

/** Pops the top of the stack into a global. */
export function setGlobal(L: object, name: string): void {
  lua.lua_setglobal(L, to_luastring(name));
}

/** What pushes itself onto its Lua stack (a `LuaRef`). */
export interface Pushable {
  push(): void;
}

/** The Lua value a structure holds as `{ ref }` (a List item, a Class's members, an Instance's fields). */
export function heldValue(value: unknown): Pushable {
  return (value as { ref: Pushable }).ref;
}

/** Each value pushed, then popped into the global of its name (in the order given). */
export function setGlobals(L: object, values: Readonly<Record<string, Pushable>>): void {
  for (const [name, value] of Object.entries(values)) {
    value.push();
    setGlobal(L, name);
  }
}

/** Bytes of every Uint8Array allocated while `run` runs. */
export function allocatedBy(run: () => void): number {
  let total = 0;
  const original = globalThis.Uint8Array;
  globalThis.Uint8Array = new Proxy(original, {
    construct(target, args) {
      const made = Reflect.construct(target, args) as Uint8Array;
      total += made.byteLength;
      return made;
    },
  });
  try {
    run();
  } finally {
    globalThis.Uint8Array = original;
  }
  return total;
}
