// "Skirmish", a small invented savegame format declared with @savekit/core in one page:
// a header, a list of IFF-like chunks (unknown ones are kept), and an Adler-32 trailer over every
// byte before it — the same building blocks the real formats use.
import {
  adler32, array, bits, checksum, chunkList, cstring, f32le, fixedString, fourcc, magic, struct, u16le, u32le, u8,
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
    chunks: chunkList(
      framing,
      {
        Name: cstring('cp437'),
        Turn: u32le,
        Unit: array(unit, u16le),
      },
      { until: ['ENDE'] },
    ),
    end: magic('ENDE'),
  }),
  { algorithm: adler32, stored: u32le, covers: 'window' },
);
