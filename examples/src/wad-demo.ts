// Builds a small PWAD from a document — two lumps, one named twice — writes it to demo.wad, and
// reads it back with the WAD plugin (examples/src/wad.ts):
//
//   node dist/wad-demo.js && savekit --plugin dist/wad.js inspect demo.wad
import { writeFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { format, type WadFile } from './wad.js';

const text = (s: string) => new TextEncoder().encode(s);
const things = { target: text('player start at 0,0') };
const doc: WadFile = {
  root: {
    identification: 'PWAD',
    numlumps: 3,
    directory: {
      target: [
        { size: 0, lump: { target: new Uint8Array(0) }, name: 'MAP01' }, // a marker: no data
        { size: 19, lump: things, name: 'THINGS' },
        { size: 19, lump: things, name: 'THINGS2' }, // the same lump object: written once, shared
      ],
    },
  },
  unclaimed: [],
};

const bytes = format.encode(doc);
if (E.isLeft(bytes)) throw bytes.left;
writeFileSync('demo.wad', bytes.right as Uint8Array);
const back = format.decode(bytes.right);
if (E.isLeft(back)) throw back.left;
for (const entry of back.right.value.root.directory.target)
  console.log(`${String(entry.name).padEnd(8)} at ${entry.lump.at} (${entry.size} bytes)`);
console.log(format.summary?.(back.right.value).join('\n'));
