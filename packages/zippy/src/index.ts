/**
 * `@savekit/zippy`: Zippy's savefiles (ZSAV v1) — objects of references and data segments, Lua
 * values (`LUA\0`, `DATA`) and C structures (`ADAT`) in one object graph. The Lua layer on fengari is
 * the separate entry `@savekit/zippy/lua`.
 *
 * @packageDocumentation
 */
export * from './tags.js';
export * from './values.js';
export * from './adata.js';
export * from './container.js';
export * from './savefile.js';
export * from './format.js';
