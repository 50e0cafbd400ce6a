// Decodes a save with @savekit/core and prints its document as a tree, then proves the round trip.
// Usage: node print-tree.mjs saves/skirmish-01.sks
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { decode, encode, formatWarning, toJson } from '@savekit/core';
import { skirmishSave } from './skirmish-format.mjs';

const file = process.argv[2] ?? new URL('./saves/skirmish-01.sks', import.meta.url).pathname;
const bytes = new Uint8Array(readFileSync(file));
const result = decode(skirmishSave, bytes);
if (E.isLeft(result)) {
  console.error(`${file}: ${result.left.toString()}`);
  process.exit(1);
}

function printTree(value, indent = '', label = 'document') {
  if (Array.isArray(value)) {
    console.log(`${indent}${label} [${value.length}]`);
    value.forEach((item, i) => printTree(item, `${indent}  `, `[${i}]`));
  } else if (value !== null && typeof value === 'object') {
    console.log(`${indent}${label}`);
    for (const [key, child] of Object.entries(value)) printTree(child, `${indent}  `, key);
  } else {
    console.log(`${indent}${label}: ${JSON.stringify(value)}`);
  }
}

console.log(`${file}: ${bytes.length} bytes`);
printTree(toJson(skirmishSave, result.right.value));
for (const warning of result.right.warnings) console.log(formatWarning(warning));
const again = encode(skirmishSave, result.right.value);
const same = E.isRight(again) && again.right.length === bytes.length && again.right.every((b, i) => b === bytes[i]);
console.log(same ? 're-encoded: byte-identical' : 're-encoded: DIFFERENT');
process.exit(same ? 0 : 1);
