// Editing one field and writing the save back: npm run example:edit --workspace examples -- IN OUT
// Every other byte stays as it was; the checksum is computed afresh.
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { decode, encode, isRawChunk } from '@savekit/core';
import { writeFileAtomic } from '@savekit/core/node';
import { skirmishSave } from './skirmish.js';

const input = process.argv[2] ?? new URL('../saves/skirmish-01.sks', import.meta.url).pathname;
const output = process.argv[3] ?? 'skirmish-healed.sks';
const decoded = decode(skirmishSave, new Uint8Array(readFileSync(input)));
if (E.isLeft(decoded)) throw decoded.left;
const save = decoded.right.value;

// Heal every unit to full health.
for (const entry of save.chunks) {
  if (!isRawChunk(entry) && entry.id === 'Unit') for (const unit of entry.body) unit.health = 100;
}
const bytes = encode(skirmishSave, save);
if (E.isLeft(bytes)) throw bytes.left; // e.g. a health of 300 would be "at chunks[2].Unit[0].health …: out of range"
writeFileAtomic(output, bytes.right); // temp file, fsync, rename: never half a save
console.log(`wrote ${output}`);
