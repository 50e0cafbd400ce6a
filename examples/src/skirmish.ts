// "Skirmish", a small invented savegame format, declared with @savekit/core in one page and
// registered with the savekit CLI as a plugin:
//
//   savekit --plugin ./examples/dist/skirmish.js inspect examples/saves/skirmish-01.sks
//
// Layout (all little-endian): "SKRM", u16 version, 2 bytes of option bits, a list of chunks
// (four-letter marker, u32 length, body padded to 4 bytes; unknown chunks kept), "ENDE", and an
// Adler-32 of every byte before it.
import {
  adler32,
  array,
  bits,
  checksum,
  chunkList,
  cstring,
  fileFormat,
  f32le,
  fixedString,
  fourcc,
  magic,
  struct,
  u16le,
  u32le,
  u8,
  type TypeOf,
} from '@savekit/core';

/** Chunks: a four-letter marker, a u32 length, the body padded to 4 bytes. */
export const framing = { marker: fourcc({ alnum: true }), length: u32le, align: 4 };

/** One unit on the map. */
export const unit = struct({
  id: u16le,
  kind: fixedString(8, 'ascii'),
  x: f32le,
  y: f32le,
  health: u8,
});

/** The whole file. */
export const skirmishSave = checksum(
  struct({
    magic: magic('SKRM'),
    version: u16le,
    options: bits({ fogOfWar: 1, difficulty: 3, turnLimit: 12 }, { order: 'lsb' }),
    chunks: chunkList(framing, { Name: cstring('cp437'), Turn: u32le, Unit: array(unit, u16le) }, { until: ['ENDE'] }),
    end: magic('ENDE'),
  }),
  { algorithm: adler32, stored: u32le, covers: 'window' },
);

/** A decoded Skirmish save. */
export type SkirmishSave = TypeOf<typeof skirmishSave>;

/**
 * The plugin: everything the CLI, the docs playground and the conformance kit need — sniffing by the
 * "SKRM" signature, decode and encode through the codec, the JSON type, and where each field's bytes
 * are for hex views (the docs playground highlights them).
 */
export const format = fileFormat(skirmishSave, {
  id: 'skirmish',
  title: 'Skirmish (the example format)',
  extensions: ['.sks'],
  magic: 'SKRM',
});
