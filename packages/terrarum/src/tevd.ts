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
  bytesEqual,
  type DecodeBudget,
  DecodeError,
  EncodeError,
  defineCodec,
  jsonBytes,
  reportChecksumMismatch,
  utf8,
  type Codec,
  type Reader,
  type Writer,
} from '@savekit/core';
import { diskCrc, everyFourthByteCrc, fullCrc } from './crc.js';
import { tevdEntryHeader, tevdHeader, tvdaEntryHeader, tvdaHeaderExtension } from './tevd-headers.js';

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

const MAGIC = [0x54, 0x45, 0x56, 0x64]; // "TEVd"
const FOOTER_MARK = 0xfefefefe;
// Sizes of the fixed headers, from their declarations (47, 253, 281 and 36 bytes).
const TEVD_HEADER = tevdHeader.minSize;
const TVDA_HEADER_EXTENSION = tvdaHeaderExtension.minSize;
const TEVD_ENTRY_HEADER = tevdEntryHeader.minSize;
const TVDA_ENTRY_HEADER = tvdaEntryHeader.minSize;

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

function u48(r: Reader, at: number): number {
  return r.view.getUint16(at, false) * 2 ** 32 + r.view.getUint32(at + 2, false);
}

/** Text in a fixed, zero-padded field; bytes after the first NUL must be zero (else kept? no: refused). */
function fixedText(r: Reader, at: number, size: number, what: string): string {
  const bytes = r.bytes.subarray(at, at + size);
  let end = bytes.indexOf(0);
  if (end < 0) end = size;
  for (let i = end; i < size; i++)
    if (bytes[i] !== 0) throw r.error(`${what}: bytes after its end are not zero`, at + i);
  try {
    return utf8.decode(bytes.subarray(0, end));
  } catch {
    throw r.error(`${what} is not UTF-8`, at);
  }
}

/** An entry id as a signed integer of `bits` bits, or an error naming it. */
function idOf(w: Writer, id: string, bits: 32 | 64): bigint {
  let v: bigint;
  try {
    v = BigInt(id);
  } catch {
    throw w.error(`entry id ${JSON.stringify(id)} is not an integer`);
  }
  if (v < -(2n ** BigInt(bits - 1)) || v >= 2n ** BigInt(bits - 1))
    throw w.error(`entry id ${id} does not fit ${bits} bits`);
  return v;
}

/**
 * The serialised content of an entry (what its CRC covers) in two parts, so a file's bytes are never
 * copied just to be checksummed or written: the fields before the data, and the data.
 */
function contentParts(entry: TevdEntry, tvda: boolean): { head: Uint8Array; data?: Uint8Array } {
  const w: number[] = [];
  const push48 = (v: number) =>
    w.push(
      Math.floor(v / 2 ** 40) & 0xff,
      Math.floor(v / 2 ** 32) & 0xff,
      (v >>> 24) & 0xff,
      (v >>> 16) & 0xff,
      (v >>> 8) & 0xff,
      v & 0xff,
    );
  const pushId = (id: string) => {
    const v = BigInt(id);
    const n = tvda ? 8 : 4;
    const u = BigInt.asUintN(n * 8, v);
    for (let i = n - 1; i >= 0; i--) w.push(Number((u >> BigInt(i * 8)) & 0xffn));
  };
  const c = entry.content;
  if (c.kind === 'file') {
    push48(c.data.length);
    return { head: Uint8Array.from(w), data: c.data };
  }
  if (c.kind === 'compressed') {
    push48(c.data.length);
    push48(c.originalLength);
    return { head: Uint8Array.from(w), data: c.data };
  }
  if (c.kind === 'directory') {
    if (tvda)
      w.push(
        ...[
          (c.children.length >>> 24) & 0xff,
          (c.children.length >>> 16) & 0xff,
          (c.children.length >>> 8) & 0xff,
          c.children.length & 0xff,
        ],
      );
    else w.push((c.children.length >>> 8) & 0xff, c.children.length & 0xff);
    for (const id of c.children) pushId(id);
    return { head: Uint8Array.from(w) };
  }
  pushId(c.target);
  return { head: Uint8Array.from(w) };
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

function crcOfParts(parts: { head: Uint8Array; data?: Uint8Array }, layout: TevdLayout): number {
  const { head, data } = parts;
  if (layout === 'tvda') return data === undefined ? fullCrc(head) : fullCrc(data, fullCrc(head));
  if (data === undefined) return everyFourthByteCrc(head);
  return everyFourthByteCrc(data, head);
}

/** The CRC an entry must carry. */
export function entryCrc(entry: TevdEntry, layout: TevdLayout): number {
  return crcOfParts(contentParts(entry, layout === 'tvda'), layout);
}

function layoutOf(r: Reader, base: number, size: number): { layout: TevdLayout; version: number } {
  const version = r.bytes[base + 46];
  if (version === 254) return { layout: 'tvda', version };
  if (version !== 2 && version !== 3)
    throw r.error(`TEVd spec version ${version} is not 2, 3 or 254 (TVDA)`, base + 46);
  const b = r.bytes;
  const end = base + size;
  const footer =
    size >= 47 + 14 && b[end - 2] === 0xff && b[end - 1] === 0x19 && r.view.getUint32(end - 14, false) === FOOTER_MARK;
  return { layout: version === 2 || footer ? 'tevd-2017' : 'tevd-2023', version };
}

/** A TerranVirtualDisk (TEVd 2017 / 2023, TVDA). */
export const tevdDisk: Codec<TevdDisk> = defineCodec<TevdDisk>({
  name: 'tevdDisk',
  kind: 'tevdDisk',
  json: diskJson,
  minSize: 47,
  read(r) {
    const base = r.pos;
    const size = r.end - base;
    r.need(47);
    for (let i = 0; i < 4; i++)
      if (r.bytes[base + i] !== MAGIC[i]) throw r.error('not a TerranVirtualDisk: the magic is not "TEVd"', base);
    const { layout, version } = layoutOf(r, base, size);
    const tvda = layout === 'tvda';
    r.pos = base;
    const header = tevdHeader.read(r);
    const capacity = header.capacity;
    const storedDiskCrc = header.diskCrc;
    let name: string;
    let attributes: Uint8Array;
    let at: number;
    let end = base + size;
    const path = r.state.path;
    if (tvda) {
      r.need(300 - 47);
      if (r.bytes[base + 47] !== 0xfe)
        throw r.error('a TVDA header has the marker byte 0xFE after its version', base + 47);
      const extension = tvdaHeaderExtension.read(r);
      attributes = extension.extraInfo;
      const nameBytes = new Uint8Array(268);
      nameBytes.set(header.name, 0);
      nameBytes.set(extension.nameTail, 32);
      const sub = r.layerReader(nameBytes);
      name = fixedText(sub, 0, 268, 'the disk name');
      at = base + 300;
    } else if (layout === 'tevd-2023') {
      r.need(64 - 47);
      name = fixedText(r, base + 10, 32, 'the disk name');
      attributes = r.bytes.slice(base + 47, base + 64);
      at = base + 64;
    } else {
      name = fixedText(r, base + 10, 32, 'the disk name');
      attributes = r.bytes.slice(end - 10, end - 2);
      end -= 14; // FE FE FE FE · 8 flag bytes · FF 19
      at = base + 47;
    }
    const headerSize = tvda ? 36 : 281;
    const entries: TevdEntry[] = [];
    const crcs: number[] = [];
    const ids = new Set<string>();
    for (let k = 0; at < end; k++) {
      path.push('entries', k);
      r.work(1);
      if (end - at < headerSize) throw r.error(`entry header of ${headerSize} bytes runs past the end`, at);
      r.pos = at;
      const typeAt = tvda ? at + 16 : at + 8;
      let id: string,
        parent: string,
        type: number,
        entryName: string | undefined,
        created: number,
        modified: number,
        storedCrc: number;
      if (tvda) {
        const h = tvdaEntryHeader.read(r);
        if ((h.reserved[0]! | h.reserved[1]! | h.reserved[2]!) !== 0)
          throw r.error('reserved entry bytes are not zero', at + 17);
        ({ type, created, modified, crc: storedCrc } = h);
        id = h.id.toString();
        parent = h.parent.toString();
      } else {
        const h = tevdEntryHeader.read(r);
        ({ type, created, modified, crc: storedCrc, name: entryName } = h);
        id = String(h.id);
        parent = String(h.parent);
      }
      const crcAt = at + headerSize - 4;
      let p = at + headerSize;
      const kind = tvda ? type & 3 : type;
      let content: TevdContent;
      const need = (n: number) => {
        if (p + n > end) throw r.error(`entry ${id}: content of ${n} bytes runs past the end`, p);
      };
      if (kind === 1) {
        need(6);
        const length = u48(r, p);
        need(6 + length);
        content = { kind: 'file', data: r.bytes.slice(p + 6, p + 6 + length) };
        p += 6 + length;
      } else if (kind === 2) {
        const countSize = tvda ? 4 : 2;
        need(countSize);
        const count = tvda ? r.view.getUint32(p, false) : r.view.getUint16(p, false);
        const idSize = tvda ? 8 : 4;
        need(countSize + count * idSize);
        r.work(count);
        const children: string[] = [];
        for (let c = 0; c < count; c++) {
          const q = p + countSize + c * idSize;
          children.push(tvda ? r.view.getBigInt64(q, false).toString() : String(r.view.getInt32(q, false)));
        }
        content = { kind: 'directory', children };
        p += countSize + count * idSize;
      } else if (kind === 3) {
        need(tvda ? 8 : 4);
        content = {
          kind: 'symlink',
          target: tvda ? r.view.getBigInt64(p, false).toString() : String(r.view.getInt32(p, false)),
        };
        p += tvda ? 8 : 4;
      } else if (!tvda && type === 0x11) {
        need(12);
        const length = u48(r, p);
        const originalLength = u48(r, p + 6);
        need(12 + length);
        content = { kind: 'compressed', originalLength, data: r.bytes.slice(p + 12, p + 12 + length) };
        p += 12 + length;
      } else {
        throw r.error(`entry ${id}: unknown type 0x${type.toString(16)}`, typeAt);
      }
      if (ids.has(id)) throw r.error(`entry id ${id} is used twice`, at);
      ids.add(id);
      const entry: TevdEntry =
        entryName === undefined
          ? { id, parent, type, created, modified, content }
          : { id, parent, type, name: entryName, created, modified, content };
      const computed = entryCrc(entry, layout);
      if (computed !== storedCrc) {
        const message = `entry ${id}${entryName ? ` (${entryName})` : ''}: CRC stored 0x${storedCrc.toString(16).padStart(8, '0')}, computed 0x${computed.toString(16).padStart(8, '0')}`;
        reportChecksumMismatch(r, message, crcAt);
      }
      const spans = r.state.spans;
      if (spans !== undefined) {
        // The entry, and its content (read by hand above), for hex views.
        spans.push({ path: [...path, 'content'], start: at + headerSize, end: p, layer: r.layer });
        spans.push({ path: path.slice(), start: at, end: p, layer: r.layer });
      }
      crcs.push(storedCrc);
      entries.push(entry);
      at = p;
      path.length -= 2;
    }
    if (layout === 'tevd-2017') {
      if (r.view.getUint32(end, false) !== FOOTER_MARK)
        throw r.error('the entries do not end at the FE FE FE FE footer', end);
    }
    const computedDisk = diskCrc(crcs);
    if (computedDisk !== storedDiskCrc) {
      const message = `disk CRC stored 0x${storedDiskCrc.toString(16).padStart(8, '0')}, computed 0x${computedDisk.toString(16).padStart(8, '0')}`;
      reportChecksumMismatch(r, message, base + 42);
    }
    r.pos = r.end;
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
    if (disk.attributes.length !== attrSize)
      throw w.error(`layout ${disk.layout} has ${attrSize} attribute bytes, got ${disk.attributes.length}`);
    const start = w.length;
    if (typeof disk.name !== 'string' || !utf8.canEncode(disk.name))
      throw w.error('the disk name is not text UTF-8 can hold (a lone surrogate?)');
    checkEntries(w, disk);
    const nameBytes = utf8.encode(disk.name);
    const nameSize = tvda ? 268 : 32;
    if (nameBytes.length > nameSize)
      throw w.error(`the disk name is ${nameBytes.length} bytes; the field holds ${nameSize}`);
    if (nameBytes.includes(0)) throw w.error('the disk name contains NUL');
    const paddedName = new Uint8Array(nameSize);
    paddedName.set(nameBytes);
    if (!Number.isInteger(disk.capacity) || disk.capacity < 0 || disk.capacity >= 2 ** 48)
      throw w.error(`capacity ${disk.capacity} does not fit 48 bits`);
    // Sized once: a large save is then written without regrowing and handed over without a copy.
    let size =
      TEVD_HEADER +
      (tvda ? TVDA_HEADER_EXTENSION : disk.layout === 'tevd-2023' ? attrSize : 0) +
      (disk.layout === 'tevd-2017' ? 4 + attrSize + 2 : 0);
    if (Array.isArray(disk.entries)) for (const entry of disk.entries) size += entrySize(entry, tvda);
    w.presize(size);
    tevdHeader.write(w, {
      magic: 'TEVd',
      capacity: disk.capacity,
      name: paddedName.subarray(0, 32),
      diskCrc: 0,
      version: disk.version,
    });
    const crcAt = start + 42; // patched once every entry's CRC is known
    if (tvda) tvdaHeaderExtension.write(w, { extraInfo: disk.attributes, nameTail: paddedName.subarray(32) });
    else if (disk.layout === 'tevd-2023') w.append(disk.attributes);
    const crcs: number[] = [];
    const path = w.state.path;
    disk.entries.forEach((entry, k) => {
      path.push('entries', k);
      const bits = tvda ? 64 : 32;
      const id = idOf(w, entry.id, bits);
      const parent = idOf(w, entry.parent, bits);
      if (entry.content.kind === 'directory') for (const child of entry.content.children) idOf(w, child, bits);
      if (entry.content.kind === 'symlink') idOf(w, entry.content.target, bits);
      const parts = contentParts(entry, tvda);
      const crc = crcOfParts(parts, disk.layout);
      crcs.push(crc);
      const times = { created: entry.created, modified: entry.modified };
      for (const [key, value] of Object.entries(times))
        if (!Number.isInteger(value) || value < 0 || value >= 2 ** 48)
          throw w.error(`the ${key} time ${value} does not fit 48 bits`);
      if (tvda) {
        tvdaEntryHeader.write(w, { id, parent, type: entry.type, reserved: new Uint8Array(3), ...times, crc });
      } else {
        tevdEntryHeader.write(w, {
          id: Number(id),
          parent: Number(parent),
          type: entry.type,
          name: entry.name ?? '',
          ...times,
          crc,
        });
      }
      w.append(parts.head);
      if (parts.data !== undefined) w.append(parts.data);
      path.length -= 2;
    });
    if (disk.layout === 'tevd-2017') {
      const at = w.ensure(4);
      w.view.setUint32(at, FOOTER_MARK, false);
      w.length = at + 4;
      w.append(disk.attributes);
      w.u8(0xff);
      w.u8(0x19);
    }
    w.view.setUint32(crcAt, diskCrc(crcs), false);
    if (w.length - start > 2 ** 48) throw w.error('a disk holds at most 2^48 bytes');
    if (disk.layout === 'tevd-2023' && looksLike2017(w.buf.subarray(start, w.length)))
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
