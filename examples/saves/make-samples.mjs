// Writes the bundled sample saves with our own encoder. Run: npm run samples --workspace examples
import { writeFileSync } from 'node:fs';
import { encodeOrThrow } from '@savekit/core';
import { skirmishSave } from '../skirmish-format.mjs';

const sample = {
  magic: 'SKRM',
  version: 3,
  options: { fogOfWar: 1, difficulty: 2, turnLimit: 300 },
  chunks: [
    { id: 'Name', body: 'Bridge at Ütersen ░▒▓' },
    { id: 'Turn', body: 42 },
    {
      id: 'Unit',
      body: [
        { id: 1, kind: 'tank', x: 10.5, y: -3.25, health: 100 },
        { id: 2, kind: 'scout', x: 0, y: 7.75, health: 35 },
      ],
    },
    // A chunk this reader does not know: kept as raw bytes and written back untouched.
    { id: 'Mods', raw: Uint8Array.from([0x6d, 0x6f, 0x64, 0x31]) },
  ],
  end: 'ENDE',
};

const out = new URL('./skirmish-01.sks', import.meta.url);
writeFileSync(out, encodeOrThrow(skirmishSave, sample));
console.log(`wrote ${out.pathname}`);
