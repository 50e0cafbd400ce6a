/**
 * `@savekit/uqm`: The Ur-Quan Masters savegames — 0.8 and MegaMod save files, 0.7 LZHUF-compressed
 * saves, and the three state files (`starinfo.dat`, `randgrp.dat`, `defgrp.dat`) they carry.
 *
 * @packageDocumentation
 */
export * from './game-state.js';
export * from './records.js';
export * from './star-info.js';
export * from './starinfo-file.js';
export * from './save.js';
export * from './groups.js';
export * from './defgrp-file.js';
export * from './state-formats.js';
export * from './convert.js';
export * from './lzhuf.js';
export * from './legacy.js';
export * from './edits.js';
export * from './format.js';
export * from './megamod.js';
export * from './create.js';
export * from './views.js';
export * from './views-data.js';
export * from './sis-edits.js';
export * from './star-map.js';
export * from './star-systems.js';
export * from './group-expiry.js';
