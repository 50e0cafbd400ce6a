// The small part of fengari's API this package uses (fengari ships no types).
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
