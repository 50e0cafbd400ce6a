// Reading a save and printing some of its fields: npm run example:read --workspace examples
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { decode, formatWarning, isRawChunk } from '@savekit/core';
import { skirmishSave } from './skirmish.js';

const file = process.argv[2] ?? new URL('../saves/skirmish-01.sks', import.meta.url).pathname;
const result = decode(skirmishSave, new Uint8Array(readFileSync(file)));
if (E.isLeft(result)) {
  console.error(`${file}: ${result.left.toString()}`); // e.g. at chunks[2].Unit[0].x (offset 57): …
  process.exit(1);
}
const save = result.right.value;
console.log(
  `version ${save.version}, difficulty ${save.options.difficulty}, fog of war ${save.options.fogOfWar ? 'on' : 'off'}`,
);
for (const entry of save.chunks) {
  if (isRawChunk(entry)) console.log(`${entry.id}: ${entry.raw.length} bytes this reader does not know (kept)`);
  else if (entry.id === 'Name') console.log(`map name: ${entry.body}`);
  else if (entry.id === 'Turn') console.log(`turn ${entry.body}`);
  else
    for (const unit of entry.body)
      console.log(`unit ${unit.id}: ${unit.kind} at (${unit.x}, ${unit.y}), health ${unit.health}`);
}
for (const warning of result.right.warnings) console.log(formatWarning(warning));
