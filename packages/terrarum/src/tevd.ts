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
  beforeTrailer,
  borrowedBytes,
  bytes,
  checksum,
  crc32,
  decodeOrThrow,
  type ChecksumAlgorithm,
  DecodeError,
  EncodeError,
  encodeOrThrow,
  fixedString,
  i32be,
  i64be,
  literal,
  magic,
  map,
  patch,
  struct,
  switchOn,
  u16be,
  u32be,
  u48be,
  u8,
  withHooks,
  type Codec,
  type ErrorCode,
  type Path,
  type TypeOf,
} from '@savekit/core';
import { bytesEqual, type DecodeBudget, jsonArray, jsonBytes, reportChecksumMismatch, utf8 } from '@savekit/core/kit';
import { diskCrc, everyFourthByteCrc } from './crc.js';
import { tevdEntryHeader, tvdaEntryHeader } from './tevd-headers.js';

/** Which layout a disk has. */
export type TevdLayout = 'tevd-2017' | 'tevd-2023' | 'tvda';

/** What an entry holds. */
export type TevdContent =
  /**
   * A file. `inSave` marks a file of the save a disk document holds: its bytes are the save's (decoded
   * there), so `data` is empty here and encoding fills it from the save; a disk marked so cannot be
   * written without its save. Decoding sets it to the file's path in the save (a TVDA disk's: the
   * entry id), so that renaming or moving the entry on the disk, which the save would undo, is refused
   * on encode; `true` marks a file without saying where (as documents of savekit 0.1 did).
   */
  | { readonly kind: 'file'; readonly data: Uint8Array; readonly inSave?: true | string }
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
  t.intersection([
    t.type({ kind: t.literal('file'), data: jsonBytes() }),
    t.partial({ inSave: t.union([t.literal(true), t.string]) }),
  ]),
  t.type({ kind: t.literal('directory'), children: jsonArray(t.string) }),
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
  entries: jsonArray(entryJson),
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

/** An entry's id, refused when another entry of the disk already has it (noted in the disk's context). */
function uniqueId(id: Codec<string>): Codec<string> {
  return withHooks(
    id,
    {
      afterRead(value, { context, path, start }) {
        const notes = notesOf(context);
        if (notes === undefined) return;
        if (notes.ids.has(value)) throw new DecodeError(path, start, `entry id ${value} is used twice`);
        notes.ids.add(value);
      },
    },
    id.name,
  );
}

/** The u32be entry CRC, noted for the disk CRC: as stored when read, as computed when written. */
const entryCrcField: Codec<number> = withHooks(
  u32be,
  {
    afterRead: (crc, { context }) => notesOf(context)?.crcs.push(crc),
    afterWrite: (crc, { context }) => notesOf(context)?.crcs.push(crc),
  },
  'entryCrc',
);

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
  // A type no content is declared for has no codec: the struct refuses it at `content`.
  return (p) => {
    const codec = checked.get(tagOf(p.type));
    if (codec === undefined) throw new Error(`unknown entry type 0x${p.type.toString(16)}`);
    return codec;
  };
}

/**
 * An entry's type byte, with a model for tools: one of the types a content is declared for (`types`)
 * — a drawn byte would seldom be one, and the content depends on it.
 */
function entryType(types: readonly [number, ...number[]]): Codec<number> {
  const model = literal(u8, ...types);
  return map(u8, { name: 'type', decode: (v) => v, encode: (v) => v, model: () => model });
}

const tevdContents = contents(tevdId, u16be);
const tvdaContents = contents(tvdaId, u32be);

/** A TEVd (2017 and 2023) entry: the 281-byte header, then its content by type (1 file, 2 directory, 3 symlink, 0x11 compressed). */
export const tevdEntry: Codec<TevdEntry> = struct(
  {
    id: uniqueId(tevdId),
    parent: tevdId,
    type: entryType([1, 2, 3, 17]),
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

// ——— The disk: one declaration per layout, chosen by the version byte and the 2017 footer. ———

const tevdEntries = array(tevdEntry, 'rest');
const tvdaEntries = array(tvdaEntry, 'rest');

/** The 2017 layout: the 47-byte header, the entries, then `FE FE FE FE`, 8 flag bytes and `FF 19`. */
const tevd2017 = struct(
  {
    magic: magic('TEVd'),
    capacity: u48be,
    name: fixedString(32, 'utf8'),
    diskCrc: u32be,
    version: u8,
    entries: beforeTrailer(FOOTER_SIZE, tevdEntries),
    mark: magic('\xFE\xFE\xFE\xFE'),
    attributes: bytes(8),
    end: magic('\xFF\x19'),
  },
  'tevd2017',
);

/** The 2023 layout: the 64-byte header (an attribute byte and 16 user bytes at its end), the entries. */
const tevd2023 = struct(
  {
    magic: magic('TEVd'),
    capacity: u48be,
    name: fixedString(32, 'utf8'),
    diskCrc: u32be,
    version: u8,
    attributes: bytes(17),
    entries: tevdEntries,
  },
  'tevd2023',
);

/** TVDA's 17 attribute bytes: the marker 0xFE, then 16 bytes of extra info. */
const tvdaAttributes = map(struct({ marker: magic('\xFE'), extra: bytes(16) }), {
  name: 'tvdaAttributes',
  decode: ({ extra }) => Uint8Array.of(0xfe, ...extra),
  encode: (a) => {
    if (!(a instanceof Uint8Array) || a.length !== 17 || a[0] !== 0xfe)
      throw new Error("a TVDA disk's 17 attribute bytes start with the marker byte 0xFE");
    return { marker: '\xFE' as const, extra: a.subarray(1) };
  },
});

/** TVDA: the 300-byte header (the disk name in two parts around the CRC, version and attributes), the entries. */
const tvda = struct(
  {
    magic: magic('TEVd'),
    capacity: u48be,
    nameHead: bytes(32),
    diskCrc: u32be,
    version: u8,
    attributes: tvdaAttributes,
    nameTail: bytes(236),
    entries: tvdaEntries,
  },
  'tvda',
);

/** The disk name of a TVDA header: its two parts (32 + 236 bytes) as one NUL-padded UTF-8 text. */
const tvdaName = fixedString(268, 'utf8');

/** What decides the layout, read ahead: the version byte (offset 46) and the bytes after the header (the 2017 footer's place). */
const layoutAhead = struct(
  { magic: magic('TEVd'), header: borrowedBytes(42), version: u8, rest: borrowedBytes('rest') },
  'tevdLayoutAhead',
);

/** Whether the bytes after a TEVd header end as the 2017 layout's do (`FE FE FE FE`, 8 bytes, `FF 19`). */
function endsWithFooter(b: Uint8Array): boolean {
  const end = b.length;
  if (end < FOOTER_SIZE || b[end - 2] !== 0xff || b[end - 1] !== 0x19) return false;
  return b[end - 14] === 0xfe && b[end - 13] === 0xfe && b[end - 12] === 0xfe && b[end - 11] === 0xfe;
}

/** The layout of the bytes ahead: TVDA by version 254; spec 2, or spec 3 ending with the footer, is 2017's. */
function selectLayout(ahead: { version: number; rest: Uint8Array }): TevdLayout | undefined {
  if (ahead.version === 254) return 'tvda';
  if (ahead.version === 2 || (ahead.version === 3 && endsWithFooter(ahead.rest))) return 'tevd-2017';
  return ahead.version === 3 ? 'tevd-2023' : undefined;
}

type Stored2017 = TypeOf<typeof tevd2017>;
type Stored2023 = TypeOf<typeof tevd2023>;
type StoredTvda = TypeOf<typeof tvda>;

// The disk of a TEVd layout that stores its name whole (2017, 2023), and its stored fields (the disk
// CRC written as 0, patched in after the entries).
const namedDisk = (layout: TevdLayout, stored: Stored2017 | Stored2023): TevdDisk => {
  const { version, capacity, name, attributes, entries } = stored;
  return { layout, version, capacity, name, attributes, entries };
};
const namedStored = (d: TevdDisk): Stored2023 => ({
  magic: 'TEVd',
  capacity: d.capacity,
  name: d.name,
  diskCrc: 0,
  version: d.version,
  attributes: d.attributes,
  entries: d.entries,
});

/**
 * Entries as a directory tree the writer accepts, for models: ids 1, 2, … in order, each parent the
 * root (0) or a directory before it (chosen by the drawn parent), and TEVd names made unique in their
 * directory and safe as path segments by the entry's number in front (what is drawn follows it).
 */
function asTree(entries: ReadonlyArray<TevdEntry>, tvda: boolean): TevdEntry[] {
  const directories = ['0'];
  return entries.map((entry, k) => {
    const id = String(k + 1);
    const parent = directories[Math.abs(Number(entry.parent)) % directories.length]!;
    if (entry.content.kind === 'directory') directories.push(id);
    if (tvda) return { ...entry, id, parent };
    const drawn = (entry.name ?? '').replace(/[/\\\0]/g, '');
    const name = utf8.encode(drawn).length > 240 ? String(k) : `${k}${drawn}`;
    return { ...entry, id, parent, name };
  });
}

/**
 * For tools (testkit's arbitraries): the disks of one layout the writer accepts — the header's
 * fields as declared, with a version the layout is read with, and a few entries of the layout made
 * a tree ({@link asTree}).
 */
function diskModel(layout: TevdLayout): Codec<TevdDisk> {
  const tvda = layout === 'tvda';
  const parts = struct({
    version: tvda ? literal(u8, 254) : layout === 'tevd-2017' ? literal(u8, 2, 3) : literal(u8, 3),
    capacity: u48be,
    name: tvda ? tvdaName : fixedString(32, 'utf8'),
    attributes: tvda ? tvdaAttributes : bytes(layout === 'tevd-2017' ? 8 : 17),
    entries: array(tvda ? tvdaEntry : tevdEntry, u8),
  });
  return map(parts, {
    name: `diskModel(${layout})`,
    decode: ({ entries, ...header }): TevdDisk => ({ layout, ...header, entries: asTree(entries, tvda) }),
    encode: ({ layout: _, ...disk }) => disk as never,
  });
}

/** The layouts as the document has them (the disk CRC is patched in after the entries, see {@link tevdDisk}). */
const layouts = {
  'tevd-2017': map(withDiskCrc(tevd2017), {
    name: 'tevd-2017',
    model: () => diskModel('tevd-2017'),
    decode: (stored: Stored2017) => namedDisk('tevd-2017', stored),
    encode: (d: TevdDisk): Stored2017 => ({ ...namedStored(d), mark: '\xFE\xFE\xFE\xFE', end: '\xFF\x19' }),
  }),
  'tevd-2023': map(withDiskCrc(tevd2023), {
    name: 'tevd-2023',
    model: () => diskModel('tevd-2023'),
    decode: (stored: Stored2023) => namedDisk('tevd-2023', stored),
    encode: (d: TevdDisk): Stored2023 => namedStored(d),
  }),
  tvda: map(withDiskCrc(tvda), {
    name: 'tvda',
    model: () => diskModel('tvda'),
    decode: ({ version, capacity, nameHead, nameTail, attributes, entries }: StoredTvda): TevdDisk => {
      const whole = new Uint8Array(268);
      whole.set(nameHead);
      whole.set(nameTail, 32);
      return { layout: 'tvda', version, capacity, name: decodeOrThrow(tvdaName, whole), attributes, entries };
    },
    encode: (d: TevdDisk): StoredTvda => {
      const whole = encodeOrThrow(tvdaName, d.name);
      return {
        magic: 'TEVd',
        capacity: d.capacity,
        nameHead: whole.subarray(0, 32),
        diskCrc: 0,
        version: d.version,
        attributes: d.attributes as Uint8Array<ArrayBuffer>,
        nameTail: whole.subarray(32),
        entries: d.entries,
      };
    },
  }),
} as const;

/** The entry CRCs a decoded disk stored, by its entries array (the document keeps no CRC: it is computed on write). */
const STORED_CRCS = new WeakMap<object, ReadonlyArray<number>>();

/**
 * The CRC each entry header stored, in the order of `disk.entries`, for a disk as {@link tevdDisk}
 * decoded it (`undefined` for a disk built or copied since): the third side of a save's check (the
 * meta's CRC, the entry's, the content's).
 */
export function storedEntryCrcs(disk: TevdDisk): ReadonlyArray<number> | undefined {
  return STORED_CRCS.get(disk.entries);
}

/** Where the disk CRC is, from the start of the disk. */
const DISK_CRC_AT = 42;

/**
 * A layout's struct with its disk CRC — CRC-32 of the entry CRCs' low bytes, sorted as int32 —
 * which follows from the entry CRCs its entries note in the decode's (encode's) context while they
 * are read (written): checked against the stored one once the disk is read (the one checksum policy:
 * an error, or a warning with `{ checksums: 'warn' }`), patched into the header once it is written.
 */
function withDiskCrc<S extends { diskCrc: number }>(layout: Codec<S>): Codec<S> {
  const start = (context: Map<unknown, unknown>) =>
    context.set(NOTES, { ids: new Set(), crcs: [] } satisfies DiskNotes);
  const take = (context: Map<unknown, unknown>): ReadonlyArray<number> => {
    const crcs = notesOf(context)?.crcs ?? [];
    context.delete(NOTES);
    return crcs;
  };
  return withHooks(
    layout,
    {
      beforeRead: ({ context }) => start(context),
      afterRead(value, { reader, start: at, context }) {
        const stored = value.diskCrc;
        const crcs = take(context);
        const entries = (value as { entries?: unknown }).entries;
        if (Array.isArray(entries) && entries.length === crcs.length) STORED_CRCS.set(entries, crcs);
        const computed = diskCrc(crcs);
        if (computed !== stored)
          reportChecksumMismatch(
            reader,
            `disk CRC stored 0x${stored.toString(16).padStart(8, '0')}, computed 0x${computed.toString(16).padStart(8, '0')}`,
            at + DISK_CRC_AT,
          );
      },
      beforeWrite: (_, { context }) => start(context),
      afterWrite: (_, { writer, start: at, context }) => patch(writer, at + DISK_CRC_AT, u32be, diskCrc(take(context))),
    },
    layout.name,
  );
}

/**
 * A TerranVirtualDisk (TEVd 2017 / 2023, TVDA): a switch on the layout read ahead (the version byte,
 * and for spec 3 whether the bytes end with the 2017 footer), each layout a struct with its disk CRC.
 */
export const tevdDisk: Codec<TevdDisk> = withHooks(
  switchOn(layoutAhead, layouts, {
    name: 'tevdDisk',
    select: selectLayout,
    caseOf: (d: TevdDisk) => d.layout,
    json: diskJson,
    unknown: (ahead) => `TEVd spec version ${ahead.version} is not 2, 3 or 254 (TVDA)`,
  }),
  {
    beforeWrite(disk, { writer, path }) {
      checkDisk(disk, path, writer.length);
      // Sized once: a large save is then written without regrowing and handed over without a copy.
      writer.presize(diskSize(disk));
    },
    afterWrite(_, { writer, start }) {
      if (writer.length - start > 2 ** 48) throw new Error('a disk holds at most 2^48 bytes');
    },
  },
  'tevdDisk',
);

/** The bytes a disk takes, for sizing the output once. */
function diskSize(disk: TevdDisk): number {
  const tvda = disk.layout === 'tvda';
  let size = tvda ? 300 : disk.layout === 'tevd-2023' ? 64 : 47 + FOOTER_SIZE;
  for (const entry of disk.entries) size += entrySize(entry, tvda);
  return size;
}

/** The bytes an entry takes on disk (header and content); 0 when it is not well-formed (the writer reports that). */
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
  const isTvda = layout === 'tvda';
  const c = isTvda ? tvdaContents : tevdContents;
  const codec = c[entry.content.kind] as Codec<TevdContent>;
  const content = encodeOrThrow(codec, entry.content);
  return (isTvda ? everyByte : everyFourthByte).compute(content);
}

/**
 * What the layouts' declarations cannot see, refused before anything is written (EncodeErrors at
 * the disk's fields): the version a layout is read with, its attribute bytes, the disk name, the
 * capacity, and the entries (see {@link checkEntries}).
 */
function checkDisk(disk: TevdDisk, path: Path, offset: number): void {
  const fail = (field: string | undefined, message: string): never => {
    throw new EncodeError(field === undefined ? path : [...path, field], offset, message);
  };
  if (typeof disk !== 'object' || disk === null || !Array.isArray(disk.entries))
    fail(undefined, 'expected a TEVd disk');
  if (disk.layout !== 'tvda' && disk.layout !== 'tevd-2017' && disk.layout !== 'tevd-2023')
    fail('layout', `layout ${JSON.stringify(disk.layout)} is not tevd-2017, tevd-2023 or tvda`);
  const isTvda = disk.layout === 'tvda';
  // The versions the reader takes for each layout: 254 is TVDA; a version-2 disk is read as 2017's layout.
  const versions = isTvda ? [254] : disk.layout === 'tevd-2017' ? [2, 3] : [3];
  if (!versions.includes(disk.version))
    fail('version', `layout ${disk.layout} is written with version ${versions.join(' or ')}, not ${disk.version}`);
  const attrSize = disk.layout === 'tevd-2017' ? 8 : 17;
  if (!(disk.attributes instanceof Uint8Array) || disk.attributes.length !== attrSize)
    fail('attributes', `layout ${disk.layout} has ${attrSize} attribute bytes, got ${disk.attributes?.length}`);
  if (typeof disk.name !== 'string' || !utf8.canEncode(disk.name))
    fail('name', 'the disk name is not text UTF-8 can hold (a lone surrogate?)');
  checkEntries(disk, path, offset);
  const nameBytes = utf8.encode(disk.name);
  const nameSize = isTvda ? 268 : 32;
  if (nameBytes.length > nameSize)
    fail('name', `the disk name is ${nameBytes.length} bytes; the field holds ${nameSize}`);
  if (nameBytes.includes(0)) fail('name', 'the disk name contains NUL');
  if (!Number.isInteger(disk.capacity) || disk.capacity < 0 || disk.capacity >= 2 ** 48)
    fail('capacity', `capacity ${disk.capacity} does not fit 48 bits`);
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
function checkEntries(disk: TevdDisk, path: Path, offset: number): void {
  const tvda = disk.layout === 'tvda';
  const bits = tvda ? 64 : 32;
  const fail = (k: number, field: string | undefined, message: string, child?: number, code?: ErrorCode): never => {
    const where = [...path, 'entries', k, ...(field !== undefined ? [field] : [])];
    if (child !== undefined) where.push('children', child);
    throw new EncodeError(where, offset, message, code);
  };
  /** Checks the id in `field` (with `child`: the directory's child `child` in `content`). */
  const checkId = (k: number, field: string, id: unknown, child?: number): string => {
    if (typeof id !== 'string' || !CANONICAL_ID.test(id))
      fail(
        k,
        field,
        `entry id ${JSON.stringify(id)} is not an integer written plainly (no sign, leading zeros or spaces)`,
        child,
      );
    // A plain number is exact for TEVd's 32-bit ids (and cheap: a disk has one per entry and child).
    const fits = tvda
      ? BigInt(id as string) >= -(2n ** 63n) && BigInt(id as string) < 2n ** 63n
      : Number(id) >= -(2 ** 31) && Number(id) < 2 ** 31;
    if (!fits) fail(k, field, `entry id ${id as string} does not fit ${bits} bits`, child);
    return id as string;
  };
  const entries = disk.entries;
  const index = new Map<string, number>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k];
    if (typeof e !== 'object' || e === null) fail(k, undefined, 'expected an entry');
    const entry = e as TevdEntry;
    if (entry.content?.kind === 'file' && entry.content.inSave !== undefined)
      fail(
        k,
        'content',
        "the file's bytes are in the save the document holds: a disk document without its save cannot be written",
      );
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
      const children = c.children;
      for (let i = 0; i < children.length; i++) {
        if (!(i in children)) fail(k, 'content', `child ${i} is missing: the list has a hole`, i, 'wrong-type');
        checkId(k, 'content', children[i], i);
      }
    } else checkId(k, 'content', c.target);
    if (tvda) {
      if (entry.name !== undefined) fail(k, 'name', 'TVDA entries have no names');
    } else {
      const name = entry.name;
      if (typeof name !== 'string') fail(k, 'name', 'a TEVd entry has a name');
      const n = name as string;
      if (!utf8.canEncode(n)) fail(k, 'name', 'the name is not text UTF-8 can hold (a lone surrogate?)');
      if (n.includes('\0')) fail(k, 'name', 'the name contains NUL');
      // At most 3 bytes a UTF-16 unit: only a long name is encoded to measure it.
      const size = n.length * 3 <= 256 ? 0 : utf8.encode(n).length;
      if (size > 256) fail(k, 'name', `the name is ${size} bytes; the field holds 256`);
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

// A new entry, created and modified at `time`: a file holding `data`, or without it an empty directory.
// TVDA entries have no name: none is set where `name` is undefined.
function newEntry(id: string, parent: string, name: string | undefined, time: number, data?: Uint8Array): TevdEntry {
  return {
    id,
    parent,
    type: data === undefined ? 2 : 1,
    ...(name === undefined ? {} : { name }),
    created: time,
    modified: time,
    content: data === undefined ? { kind: 'directory', children: [] } : { kind: 'file', data },
  };
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
  const root = newEntry('0', '0', '(root)', time);
  entries.push(root);
  dirs.set('', root);
  let next = 1;
  const newDirectory = (parent: TevdEntry, name: string): TevdEntry => {
    const dir = newEntry(String(next++), parent.id, name, time);
    (parent.content as unknown as { children: string[] }).children.push(dir.id);
    entries.push(dir);
    return dir;
  };
  for (const path of [...tree.keys()].sort()) {
    const slash = path.lastIndexOf('/');
    const parent = directoryOf(dirs, slash < 0 ? '' : path.slice(0, slash), newDirectory);
    const file = newEntry(String(next++), parent.id, path.slice(slash + 1), time, tree.get(path) as Uint8Array);
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
export function entryPaths(
  disk: TevdDisk,
  kind: 'file' | 'directory',
  budget?: DecodeBudget,
): Array<[TevdEntry, string]> {
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
    e.content.kind === 'directory' && listsAny(e.content.children, removed)
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
    const dir = newEntry(String(next++), parent.id, name, time);
    childrenOf(parent).push(dir.id);
    updated.push(dir);
    return dir;
  };
  for (const path of added) {
    if (tvda) {
      if (!/^-?\d+$/.test(path))
        throw new Error(`a TVDA disk names its files by id; ${JSON.stringify(path)} is not one`);
      updated.push(newEntry(path, '0', undefined, time, tree.get(path)!));
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
    updated.push(newEntry(id, parent.id, fileName, time, tree.get(path)!));
    childrenOf(parent).push(id);
  }
  return {
    ...disk,
    entries: updated.map((e) =>
      children.has(e.id) ? { ...e, content: { kind: 'directory' as const, children: children.get(e.id)! } } : e,
    ),
  };
}

/** Whether `list` holds any of `ids`; stops at a hole (a sparse list is refused where it is written, not walked). */
function listsAny<T>(list: ReadonlyArray<T>, ids: ReadonlySet<T>): boolean {
  for (let i = 0; i < list.length && i in list; i++) if (ids.has(list[i]!)) return true;
  return false;
}
