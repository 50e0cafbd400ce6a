// Doom's WAD ("Where's All the Data?"), a real format no one here designed, declared with the public
// declarations of @savekit/core alone and registered with the savekit CLI as a plugin:
//
//   savekit --plugin dist/wad.js inspect DOOM1.WAD
//
// Layout (little-endian): a 12-byte header — "IWAD" or "PWAD", i32 numlumps, i32 infotableofs — and a
// directory of numlumps 16-byte entries at infotableofs: i32 filepos, i32 size, char[8] name. Each
// lump is `size` bytes at `filepos`, anywhere in the file: before or after the directory, shared by
// several entries, overlapping other lumps, with bytes no entry names in between. The file is an
// arena; the directory and the lumps are pointer targets, and the arena keeps every byte nobody
// claimed, so decoding keeps everything and an unchanged document encodes to the same bytes.
import {
  arena,
  array,
  bytes,
  fileFormat,
  fixedString,
  i32le,
  magic,
  pointer,
  reordered,
  struct,
  type TypeOf,
} from '@savekit/core';
import { plural } from '@savekit/core/kit';

/**
 * A directory entry. It is stored as `filepos, size, name`, but the lump at `filepos` needs the
 * `size` stored after it: the fields are declared in the order they are read (`size` first) and
 * `reordered` is given the order they are stored in.
 */
export const entry = reordered(
  {
    size: i32le,
    /** The lump: `size` bytes at the file offset stored in `filepos` (0 is an offset like any other). */
    lump: (e: { size: number }) => pointer(i32le, bytes(e.size), { nullOffset: 'none' }),
    /** Up to 8 ASCII characters, NUL-padded; bytes after the NUL are kept. */
    name: fixedString(8, 'ascii', { tail: 'keep' }),
  },
  [['lump', 4], 'size', 'name'], // stored as filepos (the lump's 4-byte offset), size, name
  'entry',
);

/** The header, with the directory it points at. */
export const header = struct(
  {
    identification: magic('IWAD', 'PWAD'),
    numlumps: i32le,
    /** Stored as `infotableofs`: `numlumps` entries at that offset. */
    directory: (h: { numlumps: number }) => pointer(i32le, array(entry, h.numlumps), { nullOffset: 'none' }),
  },
  'header',
);

/** A whole WAD file: the header at 0, the directory and the lumps wherever they are, and the gaps. */
export const wadFile = arena(header);

/** A decoded WAD. */
export type WadFile = TypeOf<typeof wadFile>;

/** A directory entry's value. */
export type WadEntry = TypeOf<typeof entry>;

function summary(doc: WadFile): string[] {
  const entries = doc.root.directory?.target ?? [];
  const kept = doc.unclaimed.reduce((sum, u) => sum + u.bytes.length, 0);
  const names = entries.slice(0, 8).map((e) => (typeof e.name === 'string' ? e.name : e.name.text));
  return [
    `${doc.root.identification}, ${plural(entries.length, 'lump')}${kept > 0 ? `, ${plural(kept, 'byte')} outside any lump` : ''}`,
    ...(entries.length > 0 ? [`first lumps: ${names.join(', ')}${entries.length > 8 ? ', …' : ''}`] : []),
  ];
}

/** The plugin: everything the CLI, the docs playground and the conformance kit need. */
export const format = fileFormat(wadFile, {
  id: 'wad',
  title: 'Doom WAD',
  extensions: ['.wad'],
  magic: ['IWAD', 'PWAD'],
  minLength: 12,
  summary,
});
