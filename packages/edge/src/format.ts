/**
 * The savekit plugin: what the CLI, the docs playground and the conformance kit use.
 *
 * @module
 */
import { fileFormat, type FileFormat } from '@savekit/core';
import { summary } from './document.js';
import { edgeSave, type EdgeSave } from './save.js';
import { edgeViews } from './views.js';

/** The EDGE savegame format: files that start with `EdgeSave` (and hold at least a header). */
export const format: FileFormat<EdgeSave> = fileFormat(edgeSave, {
  id: 'edge',
  title: 'EDGE savegame',
  extensions: ['.esg', '.sav'],
  magic: 'EdgeSave',
  minLength: 16,
  confidence: 0.95,
  summary,
  views: edgeViews,
});
