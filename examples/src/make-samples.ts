// Writes the bundled sample saves with our own encoder: npm run samples --workspace examples
import { writeFileSync } from 'node:fs';
import { encodeOrThrow } from '@savekit/core';
import { skirmishSave, type SkirmishSave } from './skirmish.js';

/** The first sample: every chunk kind, and one chunk this reader does not know. */
export const sample: SkirmishSave = {
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
    // Kept as raw bytes and written back untouched by readers that do not know it.
    { id: 'Mods', raw: Uint8Array.from([0x6d, 0x6f, 0x64, 0x31]) },
  ],
  end: 'ENDE',
};

const out = new URL('../saves/skirmish-01.sks', import.meta.url);
writeFileSync(out, encodeOrThrow(skirmishSave, sample));
console.log(`wrote ${out.pathname}`);
