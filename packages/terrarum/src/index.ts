/**
 * `@savekit/terrarum`: Terrarum saves — TerranVirtualDisk containers (TEVd 2017 and 2023, TVDA),
 * JSON-era worlds with their Ascii85 + gzip layers, and the design doc's save (meta with CRCs and
 * `hash4321`, CSVs, actor JSON) as a folder or a disk.
 *
 * @packageDocumentation
 */
export * from './crc.js';
export * from './tevd.js';
export * from './tevd-headers.js';
export * from './ascii85.js';
export * from './json.js';
export * from './world-json.js';
export * from './meta.js';
export * from './csv.js';
export * from './save.js';
export * from './format.js';
export * from './temd.js';
export * from './views.js';
