// Writes the bundled sample saves with our own encoders: npm run samples --workspace examples
import { writeFileSync } from 'node:fs';
import { sampleFiles } from './samples.js';

for (const [name, bytes] of Object.entries(sampleFiles())) {
  const out = new URL(`../saves/${name}`, import.meta.url);
  writeFileSync(out, bytes);
  console.log(`wrote ${out.pathname}`);
}
