/**
 * `@savekit/zippy`: Zippy's savefiles (ZSAV v2; v1 read) — objects of references and data segments,
 * Lua values (`LUA\0`) and C structures (`DATA` + DataType) in one object graph, in either byte
 * order. The Lua layer on fengari is the separate entry `@savekit/zippy/lua`.
 *
 * @packageDocumentation
 */
export * from './tags.js';
export * from './values.js';
export * from './adata.js';
export * from './container.js';
export * from './savefile.js';
export * from './format.js';
