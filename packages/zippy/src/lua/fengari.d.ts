// The small part of fengari's API this package uses (fengari ships no types).
// biome-ignore-all lint/suspicious/noExplicitAny: the Lua C API mirrors (lua_*, luaL_*) stay untyped; lua/index.ts wraps them
declare module 'fengari' {
  const fengari: {
    lua: any;
    lauxlib: any;
    lualib: any;
    to_luastring(s: string): Uint8Array;
    to_jsstring(b: Uint8Array): string;
  };
  export default fengari;
}
