/**
 * TerranVirtualDisk containers (terrarum.md §4), big-endian, magic `TEVd`: the 2017 spec-2/3 layout
 * (47-byte header, entries with 256-byte names, a `FE FE FE FE` footer), the 2023 spec-3 layout
 * (64-byte header, no footer) and Terrarum's TVDA (version 254: 300-byte header, 36-byte entries
 * with 64-bit ids and no names). Every entry CRC and the disk CRC are verified on read (an error, or
 * a warning with `{ checksums: 'warn' }`) and computed on write.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  array,
  bytes,
  checksum,
  crc32,
  type ChecksumAlgorithm,
  DecodeError,
  EncodeError,
  encodeOrThrow,
  fixedString,
  i32be,
  i64be,
  magic,
  map,
  patch,
  struct,
  u16be,
  u32be,
  u48be,
  u8,
  type Codec,
} from '@savekit/core';
import {
  customDef,
  bytesEqual,
  type DecodeBudget,
  defineCodec,
  jsonBytes,
  reportChecksumMismatch,
  readChild,
  utf8,
  writeChild,
  type Reader,
  type Writer,
} from '@savekit/core/kit';
import { diskCrc, everyFourthByteCrc } from './crc.js';
import { tevdEntryHeader, tvdaEntryHeader } from './tevd-headers.js';

/** Which layout a disk has. */
export type TevdLayout = 'tevd-2017' | 'tevd-2023' | 'tvda';

/** What an entry holds. */
export type TevdContent =
  | { readonly kind: 'file'; readonly data: Uint8Array }
  | { readonly kind: 'directory'; readonly children: ReadonlyArray<string> }
  | { readonly kind: 'symlink'; readonly target: string }
  /** A spec-3 compressed file (0x11): zlib data with its original length, kept as stored. */
  | { readonly kind: 'compressed'; readonly originalLength: number; readonly data: Uint8Array };

/** One entry. Ids are decimal strings (TVDA's are 64-bit). */
export interface TevdEntry {
  id: string;
  parent: string;
  /** The type byte as stored (1 file, 2 directory, 3 symlink, 0x11 compressed; TVDA: bit 7 = discarded). */
  type: number;
  /** File name (TEVd; TVDA entries have none). */
  name?: string;
  /** Creation and modification times, Unix seconds (48-bit). */
  created: number;
  modified: number;
  content: TevdContent;
}

/** A decoded disk. */
export interface TevdDisk {
  layout: TevdLayout;
  /** The spec version byte (2, 3, or 254 for TVDA). */
  version: number;
  /** Capacity in bytes (48-bit). */
  capacity: number;
  /** The disk name (TEVd: 32 bytes; TVDA: 268). */
  name: string;
  /** TEVd 2017: the 8 footer flag bytes; 2023: the attribute byte + 16 user bytes; TVDA: marker + 16 extra-info bytes. */
  attributes: Uint8Array;
  /** The entries, in file order. */
  entries: TevdEntry[];
}

const contentJson = t.union([
  t.type({ kind: t.literal('file'), data: jsonBytes() }),
  t.type({ kind: t.literal('directory'), children: t.array(t.string) }),
  t.type({ kind: t.literal('symlink'), target: t.string }),
  t.type({ kind: t.literal('compressed'), originalLength: t.number, data: jsonBytes() }),
]);
const entryJson = t.intersection([
  t.type({
    id: t.string,
    parent: t.string,
    type: t.number,
    created: t.number,
    modified: t.number,
    content: contentJson,
  }),
  t.partial({ name: t.string }),
]);
const diskJson = t.type({
  layout: t.keyof({ 'tevd-2017': null, 'tevd-2023': null, tvda: null }),
  version: t.number,
  capacity: t.number,
  name: t.string,
  attributes: jsonBytes(),
  entries: t.array(entryJson),
}) as unknown as t.Type<TevdDisk, unknown, unknown>;

const TEVD_ENTRY_HEADER = tevdEntryHeader.minSize;
const TVDA_ENTRY_HEADER = tvdaEntryHeader.minSize;

/** The 2017 footer: `FE FE FE FE`, 8 flag bytes, the `FF 19` end mark. */
const FOOTER_SIZE = 14;

// ——— Entry ids: decimal strings over the stored integers (TEVd int32, TVDA int64). ———

const tevdId: Codec<string> = map(i32be, {
  name: 'tevdId',
  decode: (n) => String(n),
  encode: (id) => Number(id),
  is: (u): u is string => typeof u === 'string',
});
const tvdaId: Codec<string> = map(i64be, {
  name: 'tvdaId',
  decode: (n) => n.toString(),
  encode: (id) => BigInt(id),
  is: (u): u is string => typeof u === 'string',
});

// ——— What one disk's entries tell the disk: the ids seen (each once) and the CRCs (for the disk CRC). ———

/** The decode's (encode's) collections of the disk being read (written), in its context. */
interface DiskNotes {
  readonly ids: Set<string>;
  readonly crcs: number[];
}
const NOTES = Symbol('tevd disk notes');

function notesOf(context: Map<unknown, unknown>): DiskNotes | undefined {
  return context.get(NOTES) as DiskNotes | undefined;
}

/** An entry's id, refused when another entry of the disk already has it. */
function uniqueId(id: Codec<string>): Codec<string> {
  return defineCodec<string>({
    name: id.name,
    def: customDef('tevdUniqueId'),
    json: id.json,
    size: id.size,
    children: [{ key: 'id', codec: id }],
    read(r) {
      const at = r.pos;
      const value = id.read(r);
      const notes = notesOf(r.state.context);
      if (notes !== undefined) {
        if (notes.ids.has(value)) throw r.error(`entry id ${value} is used twice`, at);
        notes.ids.add(value);
      }
      return value;
    },
    write: (w, value) => id.write(w, value),
  });
}

/** The u32be entry CRC, noted for the disk CRC: as stored when read, as computed when written. */
const entryCrcField: Codec<number> = defineCodec<number>({
  name: 'entryCrc',
  def: customDef('tevdEntryCrc'),
  json: u32be.json,
  size: 4,
  children: [{ key: 'crc', codec: u32be }],
  read(r) {
    const crc = u32be.read(r);
    notesOf(r.state.context)?.crcs.push(crc);
    return crc;
  },
  write(w, crc) {
    u32be.write(w, crc);
    notesOf(w.state.context)?.crcs.push(crc);
  },
});

/** The entry CRC of TEVd: CRC-32 over every 4th byte of the content (the library's quirk). */
const everyFourthByte: ChecksumAlgorithm<number> = {
  ...crc32,
  name: 'entry CRC',
  compute: (b) => everyFourthByteCrc(b),
};
/** TVDA's entry CRC: CRC-32 over every byte of the content. */
const everyByte: ChecksumAlgorithm<number> = { ...crc32, name: 'entry CRC' };

// ——— Entry contents, one declaration per type. ———

/** The contents an entry type can have, over the layout's id codec and directory count. */
function contents(id: Codec<string>, count: Codec<number>) {
  const file = map(bytes(u48be), {
    name: 'file',
    decode: (data): TevdContent => ({ kind: 'file', data }),
    encode: (c) => (c as { data: Uint8Array }).data,
  });
  const directory = map(array(id, count), {
    name: 'directory',
    decode: (children): TevdContent => ({ kind: 'directory', children }),
    encode: (c) => [...(c as { readonly children: ReadonlyArray<string> }).children],
  });
  const symlink = map(id, {
    name: 'symlink',
    decode: (target): TevdContent => ({ kind: 'symlink', target }),
    encode: (c) => (c as { target: string }).target,
  });
  const compressed = map(
    struct({ length: u48be, originalLength: u48be, data: (p: { length: number }) => bytes(p.length) }),
    {
      name: 'compressed',
      decode: ({ originalLength, data }): TevdContent => ({ kind: 'compressed', originalLength, data }),
      encode: (c) => {
        const { originalLength, data } = c as { originalLength: number; data: Uint8Array };
        return { length: data.length, originalLength, data };
      },
    },
  );
  return { file, directory, symlink, compressed };
}

/** A content codec that refuses its entry's type (no content is declared for it). */
function unknownType(type: number): Codec<TevdContent> {
  return defineCodec<TevdContent>({
    name: 'unknownType',
    def: customDef('tevdUnknownType'),
    json: t.never as unknown as t.Type<TevdContent, unknown, unknown>,
    read(r) {
      throw r.error(`unknown entry type 0x${type.toString(16)}`);
    },
    write(w) {
      throw w.error(`unknown entry type 0x${type.toString(16)}`);
    },
  });
}

/**
 * The content of each entry type — a tagged union on the type byte of the entry header, whose CRC
 * (the header's last field) comes right before it and covers it.
 */
function contentByType(
  variants: Readonly<Record<number, Codec<TevdContent>>>,
  algorithm: ChecksumAlgorithm<number>,
  tagOf: (type: number) => number,
): (parent: { type: number }) => Codec<TevdContent> {
  const checked = new Map<number, Codec<TevdContent>>();
  for (const [tag, codec] of Object.entries(variants))
    checked.set(Number(tag), checksum(codec, { algorithm, stored: entryCrcField, position: 'before' }));
  return (p) => checked.get(tagOf(p.type)) ?? unknownType(p.type);
}

const tevdContents = contents(tevdId, u16be);
const tvdaContents = contents(tvdaId, u32be);

/** A TEVd (2017 and 2023) entry: the 281-byte header, then its content by type (1 file, 2 directory, 3 symlink, 0x11 compressed). */
export const tevdEntry: Codec<TevdEntry> = struct(
  {
    id: uniqueId(tevdId),
    parent: tevdId,
    type: u8,
    name: fixedString(256, 'utf8'),
    created: u48be,
    modified: u48be,
    content: contentByType(
      { 1: tevdContents.file, 2: tevdContents.directory, 3: tevdContents.symlink, 17: tevdContents.compressed },
      everyFourthByte,
      (type) => type,
    ),
  },
  'tevdEntry',
) as Codec<TevdEntry>;

/** A TVDA entry: the 36-byte header (64-bit ids, no name), then its content by the type's low two bits. */
export const tvdaEntry: Codec<TevdEntry> = map(
  struct(
    {
      id: uniqueId(tvdaId),
      parent: tvdaId,
      type: u8,
      reserved: magic('\0\0\0'),
      created: u48be,
      modified: u48be,
      content: contentByType(
        { 1: tvdaContents.file, 2: tvdaContents.directory, 3: tvdaContents.symlink },
        everyByte,
        (type) => type & 3,
      ),
    },
    'tvdaEntry',
  ),
  {
    name: 'tvdaEntry',
    decode: ({ reserved: _, ...entry }): TevdEntry => entry,
    encode: (entry) => ({ ...entry, reserved: '\0\0\0' as const }),
  },
);

// ——— The disk headers and the 2017 footer. ———

const tevdDiskHeader = struct({
  magic: magic('TEVd'),
  capacity: u48be,
  name: fixedString(32, 'utf8'),
  diskCrc: u32be,
  version: u8,
});
const tvdaDiskHeader = struct({
  magic: magic('TEVd'),
  capacity: u48be,
  nameHead: bytes(32),
  diskCrc: u32be,
  version: u8,
  /** The marker 0xFE and the 16 extra-info bytes. */
  attributes: bytes(17),
  nameTail: bytes(236),
});
const footer2017 = struct({ mark: magic('\xFE\xFE\xFE\xFE'), attributes: bytes(8), end: magic('\xFF\x19') });
const DISK_CRC_AT = 42;

const tevdEntries = array(tevdEntry, 'rest');
const tvdaEntries = array(tvdaEntry, 'rest');

/** The disk name of a TVDA header: its two parts (32 + 236 bytes) as one NUL-padded UTF-8 text. */
const tvdaName = fixedString(268, 'utf8');

/**
 * The layout of the disk ahead, from its version byte (offset 46) and — for spec 3 — whether the
 * bytes end with the 2017 footer. Looks ahead only; the magic is checked first.
 */
function layoutAhead(r: Reader): { layout: TevdLayout; version: number } {
  r.need(47);
  if (r.peek(0) !== 0x54 || r.peek(1) !== 0x45 || r.peek(2) !== 0x56 || r.peek(3) !== 0x64)
    throw r.error('not a TerranVirtualDisk: the magic is not "TEVd"');
  const version = r.peek(46) as number;
  if (version === 254) return { layout: 'tvda', version };
  if (version !== 2 && version !== 3)
    throw r.error(`TEVd spec version ${version} is not 2, 3 or 254 (TVDA)`, r.pos + 46);
  const size = r.remaining;
  const footer =
    size >= 47 + FOOTER_SIZE &&
    r.peek(size - 2) === 0xff &&
    r.peek(size - 1) === 0x19 &&
    [14, 13, 12, 11].every((back) => r.peek(size - back) === 0xfe);
  return { layout: version === 2 || footer ? 'tevd-2017' : 'tevd-2023', version };
}

/** Verifies the disk CRC (CRC-32 of the entry CRCs' low bytes, sorted as int32) against the header's. */
function checkDiskCrc(r: Reader, stored: number, crcs: ReadonlyArray<number>, at: number): void {
  const computed = diskCrc(crcs);
  if (computed === stored) return;
  const message = `disk CRC stored 0x${stored.toString(16).padStart(8, '0')}, computed 0x${computed.toString(16).padStart(8, '0')}`;
  reportChecksumMismatch(r, message, at);
}

/** Runs `body` with fresh notes for one disk's entries in `context` (restored after: disks may nest). */
function withNotes<T>(context: Map<unknown, unknown>, body: (notes: DiskNotes) => T): T {
  const outer = context.get(NOTES);
  const notes: DiskNotes = { ids: new Set(), crcs: [] };
  context.set(NOTES, notes);
  try {
    return body(notes);
  } finally {
    if (outer === undefined) context.delete(NOTES);
    else context.set(NOTES, outer);
  }
}

/** The bytes an entry takes on disk (header and content), for sizing the output once; 0 when it is not well-formed (the writer reports that). */
function entrySize(entry: TevdEntry, tvda: boolean): number {
  const c = entry?.content;
  if (typeof c !== 'object' || c === null) return 0;
  const header = tvda ? TVDA_ENTRY_HEADER : TEVD_ENTRY_HEADER;
  const idSize = tvda ? 8 : 4;
  if ((c.kind === 'file' || c.kind === 'compressed') && c.data instanceof Uint8Array)
    return header + (c.kind === 'file' ? 6 : 12) + c.data.length;
  if (c.kind === 'directory' && Array.isArray(c.children)) return header + (tvda ? 4 : 2) + c.children.length * idSize;
  if (c.kind === 'symlink') return header + idSize;
  return 0;
}

/** The CRC an entry must carry: its content as the layout writes it, checksummed. */
export function entryCrc(entry: TevdEntry, layout: TevdLayout): number {
  const tvda = layout === 'tvda';
  const c = tvda ? tvdaContents : tevdContents;
  const codec = c[entry.content.kind] as Codec<TevdContent>;
  const content = encodeOrThrow(codec, entry.content);
  return (tvda ? everyByte : everyFourthByte).compute(content);
}

/** A TerranVirtualDisk (TEVd 2017 / 2023, TVDA). */
export const tevdDisk: Codec<TevdDisk> = defineCodec<TevdDisk>({
  name: 'tevdDisk',
  def: customDef('tevdDisk'),
  json: diskJson,
  minSize: 47,
  children: [
    { key: 'header', codec: tevdDiskHeader },
    { key: 'tvdaHeader', codec: tvdaDiskHeader },
    { key: 'entries', codec: tevdEntries },
    { key: 'tvdaEntries', codec: tvdaEntries },
    { key: 'footer', codec: footer2017 },
  ],
  read(r) {
    const base = r.pos;
    const { layout, version } = layoutAhead(r);
    let name: string;
    let attributes: Uint8Array;
    let storedCrc: number;
    let capacity: number;
    if (layout === 'tvda') {
      const h = tvdaDiskHeader.read(r);
      if (h.attributes[0] !== 0xfe)
        throw r.errorAt('attributes', 'a TVDA header has the marker byte 0xFE after its version', base + 47);
      const nameBytes = new Uint8Array(268);
      nameBytes.set(h.nameHead, 0);
      nameBytes.set(h.nameTail, 32);
      name = readChild(r.layerReader(nameBytes), 'name', tvdaName);
      ({ attributes, capacity, diskCrc: storedCrc } = h);
    } else {
      const h = tevdDiskHeader.read(r);
      ({ name, capacity, diskCrc: storedCrc } = h);
      attributes = layout === 'tevd-2023' ? readChild(r, 'attributes', bytes(17)) : new Uint8Array(0);
    }
    const tvda = layout === 'tvda';
    const { entries, crcs } = withNotes(r.state.context, (notes) => {
      const window = r.window(r.remaining - (layout === 'tevd-2017' ? Math.min(FOOTER_SIZE, r.remaining) : 0));
      const list = readChild(window, 'entries', tvda ? tvdaEntries : tevdEntries);
      return { entries: list, crcs: notes.crcs };
    });
    if (layout === 'tevd-2017') attributes = footer2017.read(r).attributes;
    checkDiskCrc(r, storedCrc, crcs, base + DISK_CRC_AT);
    return { layout, version, capacity, name, attributes, entries };
  },
  write(w, disk) {
    if (typeof disk !== 'object' || disk === null || !Array.isArray(disk.entries))
      throw w.error('expected a TEVd disk');
    const tvda = disk.layout === 'tvda';
    // The versions the reader takes for each layout: 254 is TVDA; a version-2 disk is read as 2017's layout.
    const versions = tvda ? [254] : disk.layout === 'tevd-2017' ? [2, 3] : [3];
    if (!versions.includes(disk.version))
      throw w.errorAt(
        'version',
        `layout ${disk.layout} is written with version ${versions.join(' or ')}, not ${disk.version}`,
      );
    const attrSize = disk.layout === 'tevd-2017' ? 8 : 17;
    if (!(disk.attributes instanceof Uint8Array) || disk.attributes.length !== attrSize)
      throw w.errorAt(
        'attributes',
        `layout ${disk.layout} has ${attrSize} attribute bytes, got ${disk.attributes?.length}`,
      );
    if (typeof disk.name !== 'string' || !utf8.canEncode(disk.name))
      throw w.error('the disk name is not text UTF-8 can hold (a lone surrogate?)');
    checkEntries(w, disk);
    if (tvda && disk.attributes[0] !== 0xfe)
      throw w.errorAt('attributes', "a TVDA disk's attributes start with the marker byte 0xFE");
    const nameBytes = utf8.encode(disk.name);
    const nameSize = tvda ? 268 : 32;
    if (nameBytes.length > nameSize)
      throw w.error(`the disk name is ${nameBytes.length} bytes; the field holds ${nameSize}`);
    if (nameBytes.includes(0)) throw w.error('the disk name contains NUL');
    if (!Number.isInteger(disk.capacity) || disk.capacity < 0 || disk.capacity >= 2 ** 48)
      throw w.error(`capacity ${disk.capacity} does not fit 48 bits`);
    // Sized once: a large save is then written without regrowing and handed over without a copy.
    let size =
      (tvda ? tvdaDiskHeader.minSize : tevdDiskHeader.minSize) +
      (tvda ? 0 : disk.layout === 'tevd-2023' ? 17 : FOOTER_SIZE);
    for (const entry of disk.entries) size += entrySize(entry, tvda);
    w.presize(size);
    const start = w.length;
    if (tvda) {
      const padded = new Uint8Array(268);
      padded.set(nameBytes);
      tvdaDiskHeader.write(w, {
        magic: 'TEVd',
        capacity: disk.capacity,
        nameHead: padded.subarray(0, 32),
        diskCrc: 0,
        version: disk.version,
        attributes: disk.attributes,
        nameTail: padded.subarray(32),
      });
    } else {
      tevdDiskHeader.write(w, {
        magic: 'TEVd',
        capacity: disk.capacity,
        name: disk.name,
        diskCrc: 0,
        version: disk.version,
      });
      if (disk.layout === 'tevd-2023') w.append(disk.attributes);
    }
    const crcs = withNotes(w.state.context, (notes) => {
      writeChild(w, 'entries', tvda ? tvdaEntries : tevdEntries, disk.entries);
      return notes.crcs;
    });
    if (disk.layout === 'tevd-2017')
      footer2017.write(w, { mark: '\xFE\xFE\xFE\xFE', attributes: disk.attributes, end: '\xFF\x19' });
    patch(w, start + DISK_CRC_AT, u32be, diskCrc(crcs));
    if (w.length - start > 2 ** 48) throw w.error('a disk holds at most 2^48 bytes');
    if (disk.layout === 'tevd-2023' && looksLike2017(w.written().subarray(start)))
      throw w.error(
        'the last entry ends with the bytes of a 2017 footer (FE FE FE FE … FF 19): the disk would read back as the 2017 layout',
      );
  },
});

/** Whether a TEVd disk's bytes end as the 2017 layout does (how a reader tells the layouts apart). */
function looksLike2017(b: Uint8Array): boolean {
  const end = b.length;
  if (end < 47 + 14 || b[end - 2] !== 0xff || b[end - 1] !== 0x19) return false;
  return b[end - 14] === 0xfe && b[end - 13] === 0xfe && b[end - 12] === 0xfe && b[end - 11] === 0xfe;
}

/** A canonical decimal integer, as the reader writes ids back (`-0`, `01`, `+1`, `""` are not). */
const CANONICAL_ID = /^(0|-?[1-9][0-9]*)$/;

/** The entry type each content kind is stored with (TVDA: the low two bits). */
const TYPE_OF_KIND = { file: 1, directory: 2, symlink: 3, compressed: 0x11 } as const;

/**
 * What the reader could not read back the same, refused before anything is written (each an
 * EncodeError at `entries[k]…`): ids that are not canonical integers of the layout's width, or used
 * twice; a type that does not match the content; TEVd names that are empty, `.`/`..`, hold `/`, `\`
 * or NUL, are not UTF-8 text, run past the 256-byte field, or repeat in one directory; a parent that
 * is not an entry of the disk (or the root, id 0); directories whose parents loop (checked with a
 * work list, however deep); more children than the count field holds; times and lengths past 48 bits.
 */
function checkEntries(w: Writer, disk: TevdDisk): void {
  const tvda = disk.layout === 'tvda';
  const bits = tvda ? 64 : 32;
  const fail = (k: number, field: string | undefined, message: string): never => {
    const where = [...w.state.path, 'entries', k, ...(field !== undefined ? [field] : [])];
    throw new EncodeError(where, w.length, message);
  };
  const checkId = (k: number, field: string, id: unknown): string => {
    if (typeof id !== 'string' || !CANONICAL_ID.test(id))
      fail(
        k,
        field,
        `entry id ${JSON.stringify(id)} is not an integer written plainly (no sign, leading zeros or spaces)`,
      );
    const v = BigInt(id as string);
    if (v < -(2n ** BigInt(bits - 1)) || v >= 2n ** BigInt(bits - 1))
      fail(k, field, `entry id ${id as string} does not fit ${bits} bits`);
    return id as string;
  };
  const entries = disk.entries;
  const index = new Map<string, number>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k];
    if (typeof e !== 'object' || e === null) fail(k, undefined, 'expected an entry');
    const entry = e as TevdEntry;
    const id = checkId(k, 'id', entry.id);
    if (index.has(id)) fail(k, 'id', `entry id ${id} is used twice (entries ${index.get(id)} and ${k})`);
    index.set(id, k);
    checkId(k, 'parent', entry.parent);
    for (const key of ['created', 'modified'] as const) {
      const time = entry[key];
      if (!Number.isInteger(time) || time < 0 || time >= 2 ** 48)
        fail(k, key, `the ${key} time ${time} does not fit 48 bits`);
    }
    const c = entry.content;
    if (typeof c !== 'object' || c === null || !Object.hasOwn(TYPE_OF_KIND, c.kind))
      fail(k, 'content', 'expected file, directory, symlink or compressed content');
    const kind = TYPE_OF_KIND[c.kind];
    const type = entry.type;
    if (!Number.isInteger(type) || type < 0 || type > 255) fail(k, 'type', `type ${type} is not a byte`);
    if (tvda ? kind === 0x11 || (type & 3) !== kind : type !== kind)
      fail(
        k,
        'type',
        tvda
          ? kind === 0x11
            ? 'a TVDA disk has no compressed entries'
            : `type 0x${type.toString(16)} does not say ${c.kind} (its low two bits must be ${kind})`
          : `type 0x${type.toString(16)} does not say ${c.kind} (0x${kind.toString(16)})`,
      );
    if (c.kind === 'file' || c.kind === 'compressed') {
      if (!(c.data instanceof Uint8Array)) fail(k, 'content', 'file data must be bytes');
      if (
        c.kind === 'compressed' &&
        (!Number.isInteger(c.originalLength) || c.originalLength < 0 || c.originalLength >= 2 ** 48)
      )
        fail(k, 'content', `original length ${c.originalLength} does not fit 48 bits`);
    } else if (c.kind === 'directory') {
      if (!Array.isArray(c.children)) fail(k, 'content', 'a directory lists its children');
      const most = tvda ? 0xffffffff : 0xffff;
      if (c.children.length > most) fail(k, 'content', `${c.children.length} children; the count field holds ${most}`);
      c.children.forEach((child, i) => {
        checkId(k, `content.children[${i}]`, child);
      });
    } else checkId(k, 'content', c.target);
    if (tvda) {
      if (entry.name !== undefined) fail(k, 'name', 'TVDA entries have no names');
    } else {
      const name = entry.name;
      if (typeof name !== 'string') fail(k, 'name', 'a TEVd entry has a name');
      const n = name as string;
      if (!utf8.canEncode(n)) fail(k, 'name', 'the name is not text UTF-8 can hold (a lone surrogate?)');
      if (n.includes('\0')) fail(k, 'name', 'the name contains NUL');
      if (utf8.encode(n).length > 256)
        fail(k, 'name', `the name is ${utf8.encode(n).length} bytes; the field holds 256`);
      if (id !== '0') {
        const problem = nameProblem(n);
        if (problem !== undefined) fail(k, 'name', problem);
      }
    }
  }
  if (tvda) return;
  // Parents are entries of the disk, names are unique in their directory, and no chain of parents
  // loops: each entry is followed up once (a work list, marks: 1 on the current chain, 2 done).
  const names = new Set<string>();
  const mark = new Uint8Array(entries.length);
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (e.id === '0') continue;
    if (e.parent !== '0' && !index.has(e.parent)) fail(k, 'parent', `parent ${e.parent} is not an entry of the disk`);
    const key = `${e.parent}/${e.name as string}`;
    if (names.has(key)) fail(k, 'name', `a second entry named ${JSON.stringify(e.name)} in directory ${e.parent}`);
    names.add(key);
  }
  const chain: number[] = [];
  for (let k = 0; k < entries.length; k++) {
    let j: number | undefined = k;
    while (j !== undefined && mark[j] === 0 && entries[j]!.id !== '0') {
      mark[j] = 1;
      chain.push(j);
      j = index.get(entries[j]!.parent);
      if (j !== undefined && mark[j] === 1) {
        const loop = chain.slice(chain.indexOf(j)).map((i) => entries[i]!.id);
        const shown = loop.length > 6 ? [...loop.slice(0, 5), `… (${loop.length} entries)`] : loop;
        fail(j, 'parent', `the parents of entries ${shown.join(' → ')} loop: a directory tree has no cycles`);
      }
    }
    for (const i of chain) mark[i] = 2;
    chain.length = 0;
  }
}

/** Why a TEVd entry name (not the root's) cannot be a path segment of a save, or undefined. */
function nameProblem(name: string): string | undefined {
  if (name === '') return 'an entry name cannot be empty';
  if (name === '.' || name === '..' || name.includes('/') || name.includes('\\'))
    return `refused entry name ${JSON.stringify(name)}: it would leave the save`;
  return undefined;
}

/**
 * The files of a disk as a save tree: paths from the directory structure (TVDA: the entry ids).
 * Each directory's path is built once, from its parent's (linear in the entries, however deep). With
 * a `budget` (the decode's), every entry is a unit of work and every path's length is output charged
 * before the path is made: a deep tree of long names cannot ask for gigabytes of path text. Throws a
 * DecodeError at `entries[k].name` for a name that would leave the save, a BudgetError past the budget.
 */
export function diskToTree(disk: TevdDisk, budget?: DecodeBudget): Map<string, Uint8Array> {
  checkEntryNames(disk);
  const out = new Map<string, Uint8Array>();
  for (const [e, path] of entryPaths(disk, 'file', budget))
    out.set(path, (e.content as { readonly data: Uint8Array }).data);
  return out;
}

/**
 * Refuses a disk whose entry names could not be path segments of a save (empty, `.`, `..`, holding
 * `/` or `\\`; the root's name is free): a DecodeError at `entries[k].name`. One pass.
 */
export function checkEntryNames(disk: TevdDisk): void {
  disk.entries.forEach((e, k) => {
    if (e.name !== undefined && e.id !== '0') {
      const problem = nameProblem(e.name);
      if (problem !== undefined) throw new DecodeError(['entries', k, 'name'], 0, `${problem} (entry ${e.id})`);
    }
  });
}

/**
 * A 2017-layout TEVd disk holding a save tree: a root directory (id 0), a directory per folder, a
 * file per entry; ids numbered in path order; times given (default 0).
 */
export function treeToDisk(
  tree: ReadonlyMap<string, Uint8Array>,
  options: {
    readonly name?: string | undefined;
    readonly time?: number | undefined;
    readonly capacity?: number | undefined;
  } = {},
): TevdDisk {
  const time = options.time ?? 0;
  const entries: TevdEntry[] = [];
  const dirs = new Map<string, TevdEntry>();
  const root: TevdEntry = {
    id: '0',
    parent: '0',
    type: 2,
    name: '(root)',
    created: time,
    modified: time,
    content: { kind: 'directory', children: [] },
  };
  entries.push(root);
  dirs.set('', root);
  let next = 1;
  const newDirectory = (parent: TevdEntry, name: string): TevdEntry => {
    const dir: TevdEntry = {
      id: String(next++),
      parent: parent.id,
      type: 2,
      name,
      created: time,
      modified: time,
      content: { kind: 'directory', children: [] },
    };
    (parent.content as unknown as { children: string[] }).children.push(dir.id);
    entries.push(dir);
    return dir;
  };
  for (const path of [...tree.keys()].sort()) {
    const slash = path.lastIndexOf('/');
    const parent = directoryOf(dirs, slash < 0 ? '' : path.slice(0, slash), newDirectory);
    const file: TevdEntry = {
      id: String(next++),
      parent: parent.id,
      type: 1,
      name: path.slice(slash + 1),
      created: time,
      modified: time,
      content: { kind: 'file', data: tree.get(path) as Uint8Array },
    };
    (parent.content as unknown as { children: string[] }).children.push(file.id);
    entries.push(file);
  }
  return {
    layout: 'tevd-2017',
    version: 3,
    capacity: options.capacity ?? 0xffffffffffff,
    name: options.name ?? '',
    attributes: new Uint8Array(8),
    entries,
  };
}

/**
 * The path of each entry of one kind (files, or directories other than the root) as {@link diskToTree}
 * names them. Each entry's path is its parent's path and its name, made once per entry (walking up to
 * the first entry whose path is known, with a work list) — never by walking every ancestor again for
 * every entry. A parent chain that loops is cut where it repeats: the entry whose parent is already on
 * the chain is named at the top. Files are resolved first, in disk order, so the cut falls in the same
 * place whichever kind is asked for. With a `budget`, each entry costs a unit of work and each path
 * returned its length in output, charged before the path is built.
 */
function entryPaths(disk: TevdDisk, kind: 'file' | 'directory', budget?: DecodeBudget): Array<[TevdEntry, string]> {
  const out: Array<[TevdEntry, string]> = [];
  const entries = disk.entries;
  const charge = (k: number, units: number, chars: number) => {
    if (budget === undefined) return;
    budget.spendWork(units, ['entries', k], 0);
    if (chars > 0) budget.spendOutput(chars, ['entries', k, 'name'], 0);
  };
  if (disk.layout === 'tvda') {
    entries.forEach((e, k) => {
      charge(k, 1, 0);
      if (e.content.kind === kind && e.id !== '0') out.push([e, e.id]);
    });
    return out;
  }
  const byId = new Map<string, TevdEntry>();
  for (const e of entries) byId.set(e.id, e);
  /** Each resolved entry's path and its length. The root's is empty. */
  const known = new Map<string, { path: string; length: number }>();
  const onChain = new Set<string>();
  const chain: TevdEntry[] = [];
  const segment = (e: TevdEntry) => e.name ?? e.id;
  /** Resolves `start` and the ancestors not yet known, charging `charge` for what it builds. */
  const resolve = (start: TevdEntry, k: number) => {
    let base = { path: '', length: 0 };
    for (let e: TevdEntry | undefined = start; e !== undefined; e = byId.get(e.parent)) {
      if (e.id === '0') break;
      const seen = known.get(e.id);
      if (seen !== undefined) {
        base = seen;
        break;
      }
      if (onChain.has(e.id)) break; // a loop: the last entry on the chain is named at the top
      onChain.add(e.id);
      chain.push(e);
    }
    charge(k, chain.length, 0);
    for (let i = chain.length - 1; i >= 0; i--) {
      const e = chain[i]!;
      const name = segment(e);
      const length = base.length === 0 ? name.length : base.length + 1 + name.length;
      // A directory's path is a rope of its parent's (no copy); only the paths handed out are flattened, and charged.
      base = { path: base.length === 0 ? name : `${base.path}/${name}`, length };
      known.set(e.id, base);
    }
    chain.length = 0;
    onChain.clear();
  };
  entries.forEach((e, k) => {
    if (e.content.kind === 'file' && e.id !== '0') resolve(e, k);
  });
  entries.forEach((e, k) => {
    if (e.content.kind !== 'file' && e.id !== '0') resolve(e, k);
  });
  entries.forEach((e, k) => {
    if (e.content.kind !== kind || e.id === '0') return;
    const at = known.get(e.id);
    if (at === undefined) return;
    charge(k, 0, at.length);
    out.push([e, at.path]);
  });
  return out;
}

/**
 * The directory at `path` (`''` is the root), made with `create` — and its missing ancestors, outermost
 * first — where `dirs` (path → entry) lacks it. A loop, not recursion: paths may be deep.
 */
function directoryOf(
  dirs: Map<string, TevdEntry>,
  path: string,
  create: (parent: TevdEntry, name: string) => TevdEntry,
): TevdEntry {
  let known = path;
  const missing: string[] = [];
  let dir = dirs.get(known);
  while (dir === undefined) {
    const slash = known.lastIndexOf('/');
    missing.push(known);
    known = slash < 0 ? '' : known.slice(0, slash);
    dir = dirs.get(known);
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const at = missing[i]!;
    dir = create(dir, at.slice(at.lastIndexOf('/') + 1));
    dirs.set(at, dir);
  }
  return dir;
}

/**
 * The disk with its files replaced by `tree`'s: an entry whose bytes are unchanged is kept as it
 * is (id, times, place); a changed file keeps its entry with the new bytes and `modified = time`; a
 * file the tree no longer has is removed; a new file gets a new entry (and directories as needed).
 * Directories, symlinks and compressed entries are kept. On a TVDA disk paths are entry ids.
 */
export function updateDiskFromTree(
  disk: TevdDisk,
  tree: ReadonlyMap<string, Uint8Array>,
  options: { readonly time?: number | undefined } = {},
): TevdDisk {
  const time = options.time ?? Math.floor(Date.now() / 1000);
  const paths = new Map(entryPaths(disk, 'file'));
  const removed = new Set<string>();
  const entries: TevdEntry[] = [];
  const seenPaths = new Set<string>();
  for (const e of disk.entries) {
    const path = paths.get(e);
    if (path === undefined || e.content.kind !== 'file') {
      entries.push(e);
      continue;
    }
    const data = tree.get(path);
    if (data === undefined) {
      removed.add(e.id);
      continue;
    }
    seenPaths.add(path);
    entries.push(bytesEqual(data, e.content.data) ? e : { ...e, modified: time, content: { kind: 'file', data } });
  }
  // Children lists without the removed files (copied: the input disk is not changed).
  const updated = entries.map((e) =>
    e.content.kind === 'directory' && e.content.children.some((c) => removed.has(c))
      ? { ...e, content: { kind: 'directory' as const, children: e.content.children.filter((c) => !removed.has(c)) } }
      : e,
  );
  const added = [...tree.keys()].filter((p) => !seenPaths.has(p)).sort();
  for (const path of added) {
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..' || part.includes('\\')))
      throw new Error(`refused entry name ${JSON.stringify(path)}: it would leave the save`);
  }
  if (added.length === 0) return { ...disk, entries: updated };
  const tvda = disk.layout === 'tvda';
  let next = updated.reduce((max, e) => (/^-?\d+$/.test(e.id) && BigInt(e.id) > max ? BigInt(e.id) : max), 0n) + 1n;
  const root = updated.find((e) => e.id === '0' && e.content.kind === 'directory');
  if (root === undefined) throw new Error('the disk has no root directory (entry 0) to add files to');
  const children = new Map<string, string[]>();
  const childrenOf = (dir: TevdEntry) => {
    let list = children.get(dir.id);
    if (list === undefined) {
      list = dir.content.kind === 'directory' ? [...dir.content.children] : [];
      children.set(dir.id, list);
    }
    return list;
  };
  // Directories by parent id and name (ids hold no `/`): a path is found a segment at a time, so a deep
  // tree costs its paths' length, not every directory's whole path.
  const dirs = new Map<string, TevdEntry>();
  const dirKey = (parent: TevdEntry, name: string) => `${parent.id}/${name}`;
  if (!tvda)
    for (const e of updated)
      if (e.content.kind === 'directory' && e.id !== '0' && e.name !== undefined) {
        const parent = e.parent;
        const key = `${parent}/${e.name}`;
        if (!dirs.has(key)) dirs.set(key, e);
      }
  const newDirectory = (parent: TevdEntry, name: string): TevdEntry => {
    const dir: TevdEntry = {
      id: String(next++),
      parent: parent.id,
      type: 2,
      name,
      created: time,
      modified: time,
      content: { kind: 'directory', children: [] },
    };
    childrenOf(parent).push(dir.id);
    updated.push(dir);
    return dir;
  };
  for (const path of added) {
    if (tvda) {
      if (!/^-?\d+$/.test(path))
        throw new Error(`a TVDA disk names its files by id; ${JSON.stringify(path)} is not one`);
      updated.push({
        id: path,
        parent: '0',
        type: 1,
        created: time,
        modified: time,
        content: { kind: 'file', data: tree.get(path)! },
      });
      childrenOf(root).push(path);
      continue;
    }
    const segments = path.split('/');
    const fileName = segments.pop()!;
    let parent = root;
    for (const name of segments) {
      const key = dirKey(parent, name);
      let dir = dirs.get(key);
      if (dir === undefined) {
        dir = newDirectory(parent, name);
        dirs.set(key, dir);
      }
      parent = dir;
    }
    const id = String(next++);
    updated.push({
      id,
      parent: parent.id,
      type: 1,
      name: fileName,
      created: time,
      modified: time,
      content: { kind: 'file', data: tree.get(path)! },
    });
    childrenOf(parent).push(id);
  }
  return {
    ...disk,
    entries: updated.map((e) =>
      children.has(e.id) ? { ...e, content: { kind: 'directory' as const, children: children.get(e.id)! } } : e,
    ),
  };
}
