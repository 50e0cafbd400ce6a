/**
 * "Studio demo", a tiny invented format whose plugin offers one view of each kind, so the studio's
 * pictures are tested without waiting for the real formats' views: an 8×8 raster (its palette indexes),
 * a star map (vector; clicking a star offers to toggle it visited) and a ship roster (table). Its
 * ships sit behind an XOR layer, so the studio shows a decompressed byte pane for them. Bundled with
 * the core into one ES module (`plugins/studio-demo.js`), the way a plugin is loaded from a URL.
 *
 * Layout: "STDO", u16 version, option bits, 64 pixel bytes, u8 star count and stars (x, y, visited),
 * a u16-sized XOR'd block of ships (u8 count, each a 10-byte ASCII name and a u16 crew), Adler-32.
 */
import {
  adler32,
  array,
  bits,
  bytes,
  checksum,
  fileFormat,
  fixedString,
  magic,
  type SaveView,
  sized,
  struct,
  transform,
  type TypeOf,
  u16le,
  u32le,
  u8,
  xor,
} from '@savekit/core';

const star = struct({ x: u8, y: u8, visited: u8 });
const ship = struct({ name: fixedString(10, 'ascii'), crew: u16le });

/** The whole file. */
export const demoSave = checksum(
  struct({
    magic: magic('STDO'),
    version: u16le,
    options: bits({ sound: 1, hard: 1, spare: 6 }, { order: 'lsb' }),
    pixels: bytes(64),
    stars: array(star, u8),
    fleet: sized(u16le, transform(struct({ ships: array(ship, u8) }), xor('STUDIO'))),
  }),
  { algorithm: adler32, stored: u32le, covers: 'window' },
);

/** A decoded demo save. */
export type DemoSave = TypeOf<typeof demoSave>;

/** Sixteen palette colours (what a pixel byte's low four bits pick). */
const PALETTE = [
  [0, 0, 0],
  [128, 0, 0],
  [0, 128, 0],
  [128, 128, 0],
  [0, 0, 128],
  [128, 0, 128],
  [0, 128, 128],
  [192, 192, 192],
  [128, 128, 128],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [0, 0, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];

const picture: SaveView<DemoSave> = {
  id: 'picture',
  title: 'Picture',
  available: (doc) => doc.pixels.length === 64,
  render(doc) {
    const rgba = new Uint8ClampedArray(64 * 4);
    doc.pixels.forEach((p, i) => {
      const [r, g, b] = PALETTE[p & 15]!;
      rgba.set([r!, g!, b!, 255], i * 4);
    });
    return {
      kind: 'raster',
      width: 8,
      height: 8,
      rgba,
      zoom: 16,
      regions: [{ x: 0, y: 0, width: 8, height: 8, label: 'pixels', path: 'pixels' }],
    };
  },
};

const starMap: SaveView<DemoSave> = {
  id: 'stars',
  title: 'Star map',
  available: (doc) => doc.stars.length > 0,
  render(doc) {
    return {
      kind: 'vector',
      width: 256,
      height: 256,
      background: '#001',
      marks: [
        { shape: 'rect', x: 0.5, y: 0.5, width: 255, height: 255, stroke: '#334' },
        ...doc.stars.map((s, i) => ({
          shape: 'circle' as const,
          x: s.x,
          y: s.y,
          r: 6,
          fill: s.visited ? '#ffd400' : '#557',
          label: `star ${i}${s.visited ? ' (visited)' : ''}`,
          path: `stars[${i}]`,
          edits: [
            {
              label: s.visited ? `Mark star ${i} unvisited` : `Mark star ${i} visited`,
              apply: (d: DemoSave) => ({
                ...d,
                stars: d.stars.map((t, j) => (j === i ? { ...t, visited: t.visited ? 0 : 1 } : t)),
              }),
            },
          ],
        })),
      ],
    };
  },
};

const roster: SaveView<DemoSave> = {
  id: 'roster',
  title: 'Roster',
  available: () => true,
  render(doc) {
    return {
      kind: 'table',
      columns: ['ship', 'crew'],
      rows: doc.fleet.ships.map((s, i) => ({ cells: [s.name, String(s.crew)], path: `fleet.ships[${i}]` })),
    };
  },
};

/** The plugin. */
export const format = fileFormat(demoSave, {
  id: 'studio-demo',
  title: 'Studio demo (a test plugin with views)',
  extensions: ['.sdemo'],
  magic: 'STDO',
  views: [picture, starMap, roster],
  summary: (doc) => [`${doc.stars.length} stars, ${doc.fleet.ships.length} ships`],
});

/** A sample document (the test and the sample file are made from it). */
export function sampleDemo(): DemoSave {
  const pixels = new Uint8Array(64);
  for (let i = 0; i < 64; i++) pixels[i] = ((i >> 3) + (i & 7)) & 15;
  return {
    magic: 'STDO',
    version: 1,
    options: { sound: 1, hard: 0, spare: 0 },
    pixels,
    stars: [
      { x: 40, y: 60, visited: 1 },
      { x: 128, y: 128, visited: 0 },
      { x: 200, y: 90, visited: 0 },
      { x: 90, y: 210, visited: 1 },
    ],
    fleet: {
      ships: [
        { name: 'Vindicator', crew: 42 },
        { name: 'Tobermoon', crew: 7 },
      ],
    },
  } as DemoSave;
}
