/**
 * The savekit plugin: what the CLI, the docs playground and the conformance kit use.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, encode, isSaveTree, type SaveFormat } from '@savekit/core';
import { summary } from './document.js';
import { edgeSave, type EdgeSave } from './save.js';

const MAGIC = [0x45, 0x64, 0x67, 0x65, 0x53, 0x61, 0x76, 0x65]; // "EdgeSave"

/** The EDGE savegame format. */
export const format: SaveFormat<EdgeSave> = {
  id: 'edge',
  title: 'EDGE savegame',
  extensions: ['.esg', '.sav'],
  input: 'file',
  sniff(input) {
    if (isSaveTree(input) || input.length < 16) return 0;
    for (let i = 0; i < MAGIC.length; i++) if (input[i] !== MAGIC[i]) return 0;
    return 0.95;
  },
  decode: (input, options) =>
    isSaveTree(input)
      ? E.left(new DecodeError([], 0, 'an EDGE save is one file, not a folder'))
      : decode(edgeSave, input, options),
  encode: (doc, options) => encode(edgeSave, doc, options),
  json: edgeSave.json,
  fieldMap(input) {
    const result = decode(edgeSave, input, { trace: true, checksums: 'warn' });
    return E.isRight(result) ? (result.right.spans ?? []) : [];
  },
  summary,
};
