// An EDGE reader and writer written for the tests from the seed's lump tables and edge.md — no code
// of the package: LZO through the native liblzo2 (`lzo`), zlib through Node's `zlib`, Adler-32 from
// fflate's zlib trailer. The package's output is checked against these, not against itself.
import { inflateSync, deflateSync } from 'node:zlib';
import * as lzo from 'lzo';
import { zlibSync } from 'fflate';

/** Adler-32 (zlib's), taken from the trailer of a stored zlib stream made by fflate. */
export function adler32(bytes: Uint8Array): number {
  const z = zlibSync(bytes, { level: 0 });
  return ((z[z.length - 4]! << 24) | (z[z.length - 3]! << 16) | (z[z.length - 2]! << 8) | z[z.length - 1]!) >>> 0; // a zlib stream ends in 4 bytes of Adler-32
}

export type Variant = 'A' | 'B' | 'C' | 'D';
export const variantOfVersion = (v: number): Variant =>
  v === 0xec ? 'D' : v < 0x12901 ? 'A' : v === 0x12901 ? 'B' : 'C';

const KEY = [0x45, 0x44, 0x47, 0x45, 0x21]; // "EDGE!"
const xor = (b: Uint8Array) => b.map((x, i) => x ^ KEY[i % 5]!);
const ascii = (b: Uint8Array) => String.fromCharCode(...b);
/** Byte `at` of `b`: reading past the end fails here rather than reading as a silent 0. */
const byteAt = (b: Uint8Array, at: number): number => {
  const x = b[at];
  if (x === undefined) throw new RangeError(`read past the end: byte ${at} of ${b.length}`);
  return x;
};
const u32 = (b: Uint8Array, at: number) =>
  (byteAt(b, at) | (byteAt(b, at + 1) << 8) | (byteAt(b, at + 2) << 16) | (byteAt(b, at + 3) << 24)) >>> 0;

/** A top-level chunk as the independent reader sees it. */
export interface RawTop {
  marker: string;
  /** Where it starts in the file, and its bytes (marker to end marker). */
  start: number;
  end: number;
  storedLength: number;
  origLength: number;
  stored: Uint8Array;
  plain: Uint8Array;
}

/** Reads a whole file: header, top-level chunks (decompressed), trailer; checks the Adler-32. */
export function readFile(file: Uint8Array): {
  version: number;
  padding: Uint8Array;
  chunks: RawTop[];
  checksumOk: boolean;
} {
  if (ascii(file.subarray(0, 8)) !== 'EdgeSave') throw new Error('no EdgeSave magic');
  const version = u32(file, 12);
  const variant = variantOfVersion(version);
  const chunks: RawTop[] = [];
  let at = 16;
  for (;;) {
    const marker = ascii(file.subarray(at, at + 4));
    if (marker === 'ENDE') break;
    const start = at;
    const storedLength = u32(file, at + 4);
    const origLength = u32(file, at + 8);
    const stored = file.subarray(at + 12, at + 12 + storedLength);
    if (stored.length !== storedLength) throw new Error('chunk runs past the end');
    at += 12 + storedLength;
    let plain: Uint8Array;
    if (variant === 'A' || variant === 'B') {
      plain = new Uint8Array(lzo.decompress(Buffer.from(stored), origLength));
      if (variant === 'A') plain = xor(plain);
    } else plain = storedLength === origLength ? stored.slice() : new Uint8Array(inflateSync(stored));
    if (plain.length !== origLength) throw new Error('wrong decompressed length');
    if (variant === 'A') {
      if (ascii(file.subarray(at, at + 4)) !== marker.toUpperCase()) throw new Error(`bad end marker of ${marker}`);
      at += 4;
    }
    chunks.push({ marker, start, end: at, storedLength, origLength, stored, plain });
  }
  if (ascii(file.subarray(at + 4, at + 12)) !== 'EdgeSave') throw new Error('no trailer magic');
  const checksumOk = u32(file, at + 12) === adler32(file.subarray(0, at + 12));
  if (at + 16 !== file.length) throw new Error('bytes after the trailer');
  return { version, padding: file.slice(8, 12), chunks, checksumOk };
}

/** Writes a file from plain payloads (each a multiple of 4), compressing the variant's way. */
export function writeFile(
  version: number,
  chunks: ReadonlyArray<{ marker: string; plain: Uint8Array }>,
  padding = Uint8Array.of(0x1a, 0x0d, 0x0a, 0),
): Uint8Array {
  const variant = variantOfVersion(version);
  const stored = chunks.map(({ marker, plain }) => {
    let stored: Uint8Array;
    if (variant === 'A') stored = new Uint8Array(lzo.compress(Buffer.from(xor(plain))));
    else if (variant === 'B') stored = new Uint8Array(lzo.compress(Buffer.from(plain)));
    else {
      const z = new Uint8Array(deflateSync(plain, { level: 1 }));
      stored = z.length < plain.length ? z : plain;
    }
    return { marker, stored, orig: plain.length };
  });
  return writeStored(version, stored, padding);
}

/**
 * Writes a file of top-level chunks whose stored bytes are given as they are (not compressed here,
 * so they may claim any `orig` length), variant A's end markers after each, and the checksum.
 */
export function writeStored(
  version: number,
  chunks: ReadonlyArray<{ marker: string; stored: Uint8Array; orig: number }>,
  padding = Uint8Array.of(0x1a, 0x0d, 0x0a, 0),
): Uint8Array {
  const a = variantOfVersion(version) === 'A';
  const parts: Uint8Array[] = [Buffer.from('EdgeSave'), padding, Uint8Array.from(le32(version))];
  for (const { marker, stored, orig } of chunks) {
    parts.push(Buffer.from(marker), Uint8Array.from(le32(stored.length)), Uint8Array.from(le32(orig)), stored);
    if (a) parts.push(Buffer.from(marker.toUpperCase()));
  }
  parts.push(Buffer.from('ENDEEdgeSave'));
  const body = new Uint8Array(Buffer.concat(parts));
  const out = new Uint8Array(body.length + 4);
  out.set(body);
  out.set(le32(adler32(body)), body.length);
  return out;
}

export function le32(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

/** A cursor over plain chunk data with the seed's primitive readers. */
export class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
    readonly end = bytes.length,
  ) {}
  int(): number {
    const v = u32(this.bytes, this.at) | 0;
    this.at += 4;
    return v;
  }
  u32(): number {
    const v = u32(this.bytes, this.at);
    this.at += 4;
    return v;
  }
  byte(): number {
    return byteAt(this.bytes, this.at++);
  }
  short(): number {
    const v = byteAt(this.bytes, this.at) | (byteAt(this.bytes, this.at + 1) << 8);
    this.at += 2;
    return v;
  }
  /** `AA` + u16 length + bytes, or `DE` for NULL (edge.md §3). Text as Latin-1 is enough for ASCII tests. */
  string(): string | null {
    const tag = this.byte();
    if (tag === 0xde) return null;
    if (tag !== 0xaa) throw new Error(`bad string tag ${tag}`);
    const n = this.short();
    const s = ascii(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return s;
  }
  /** The 6-byte float: u16 exponent biased by 256, i32 mantissa scaled by 2^30. */
  float(): number {
    const e = this.short() - 256;
    const m = this.int();
    return Math.fround(m * 2 ** (e - 30));
  }
  marker(): string {
    const s = ascii(this.bytes.subarray(this.at, this.at + 4));
    this.at += 4;
    return s;
  }
  /** A nested chunk: marker, length, data (and the end marker in variant A). */
  chunk(variant: Variant): { marker: string; data: Cursor } {
    const marker = this.marker();
    const length = this.u32();
    const data = new Cursor(this.bytes, this.at, this.at + length);
    this.at += length;
    if (variant === 'A') {
      const end = this.marker();
      if (end !== marker.toUpperCase()) throw new Error(`bad end marker ${end} of ${marker}`);
    }
    return { marker, data };
  }
  get left(): number {
    return this.end - this.at;
  }
}

// ---------------------------------------------------------------------------------------------
// The seed's design layout, read the way the seed says: a GLOB of lumps, a STRU of SDEF chunks, an
// ARRY of ADEF chunks, then STOR chunks, each read with the reader's own structure tables for the
// fields it knows and the file's declaration for the others.

/** How a field the reader knows is stored (its own "Structure Tables"). */
export type Storage = 'int' | 'float' | 'vec2' | 'vec3' | 'string' | 'index' | 'struct';
/** The reader's tables: structure name → field name → storage. */
export type ReaderTables = Record<string, Record<string, Storage>>;

/** A field definition as a SDEF chunk holds it. */
export interface SeedField {
  name: string;
  kind: 'numeric' | 'index' | 'string' | 'struct';
  size: number;
  count: number;
  ref?: string;
}
/** A structure definition as a SDEF chunk holds it. */
export interface SeedStruct {
  name: string;
  marker: string;
  fields: SeedField[];
}
/** An array definition as an ADEF chunk holds it. */
export interface SeedArray {
  name: string;
  struct: string;
  count: number;
}
/** An instance of a structure the file does not define: its marker and its chunk's data. */
export interface SeedRaw {
  marker: string;
  raw: Uint8Array;
}

/** What the independent reader makes of a design-layout file. */
export interface SeedSave {
  version: number;
  checksumOk: boolean;
  /** Top-level markers in file order. */
  markers: string[];
  /** The top-level chunks as read (lengths, stored bytes). */
  chunks: RawTop[];
  /** Each GLOB lump's data, by marker. */
  lumps: Record<string, Cursor>;
  structs: SeedStruct[];
  arrays: SeedArray[];
  /** Each STOR's elements, by array name: records of values (INDEX as its u32), or kept raw. */
  stores: Record<string, Array<Record<string, unknown> | SeedRaw>>;
}

const KINDS = ['', 'numeric', 'index', 'string', 'struct'] as const;

/** A structure definition from the body of its SDEF chunk. */
export function readSdef(d: Cursor): SeedStruct {
  const count = d.int();
  const name = d.string()!;
  const marker = d.string()!;
  const fields = Array.from({ length: count }, (): SeedField => {
    const kind = KINDS[d.byte()] as SeedField['kind'];
    const size = d.byte();
    const n = d.short();
    const fieldName = d.string()!;
    return {
      name: fieldName,
      kind,
      size,
      count: n,
      ...(kind === 'index' || kind === 'struct' ? { ref: d.string()! } : {}),
    };
  });
  return { name, marker, fields };
}

/** One value of a field: the reader's table decides for a field it knows, the declaration otherwise. */
function readValue(
  c: Cursor,
  f: SeedField,
  storage: Storage | undefined,
  ctx: { variant: Variant; structs: SeedStruct[]; tables: ReaderTables },
): unknown {
  const kind = storage ?? (f.kind === 'numeric' ? undefined : f.kind);
  switch (kind) {
    case 'int':
      return c.int();
    case 'float':
      return c.float();
    case 'vec2':
      return [c.float(), c.float()];
    case 'vec3':
      return [c.float(), c.float(), c.float()];
    case 'string':
      return c.string();
    case 'index':
      return c.u32();
    case 'struct': {
      const nested = c.chunk(ctx.variant);
      const def = ctx.structs.find((s) => s.marker === nested.marker)!;
      return readSeedInstance(nested.data, def, ctx);
    }
    default:
      // NUMERIC by declaration: the seed's sizes (6 is its float).
      if (f.size === 1) return c.byte();
      if (f.size === 2) return c.short();
      if (f.size === 4) return c.int();
      if (f.size === 6) return c.float();
      throw new Error(`no way to read NUMERIC ${f.size} of ${f.name}`);
  }
}

/** An instance's fields in definition order, each `count` times. */
export function readSeedInstance(
  c: Cursor,
  def: SeedStruct,
  ctx: { variant: Variant; structs: SeedStruct[]; tables: ReaderTables },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const table = ctx.tables[def.name] ?? {};
  for (const f of def.fields) {
    const values = Array.from({ length: f.count }, () => readValue(c, f, table[f.name], ctx));
    out[f.name] = f.count === 1 ? values[0] : values;
  }
  if (c.left >= 4) throw new Error(`${c.left} bytes left after an instance of ${def.name}`);
  return out;
}

/** Reads a design-layout file with the reader's tables (variant from the version). */
export function readDesignFile(file: Uint8Array, tables: ReaderTables = {}): SeedSave {
  const top = readFile(file);
  const variant = variantOfVersion(top.version);
  const nested: Variant = variant === 'A' ? 'A' : 'C';
  const lumps: Record<string, Cursor> = {};
  const structs: SeedStruct[] = [];
  const arrays: SeedArray[] = [];
  const stores: SeedSave['stores'] = {};
  const ctx = { variant: nested, structs, tables };
  for (const chunk of top.chunks) {
    const c = new Cursor(chunk.plain);
    if (chunk.marker === 'Glob') {
      while (c.left > 0) {
        const { marker, data } = c.chunk(nested);
        lumps[marker] = data;
      }
    } else if (chunk.marker === 'Stru') {
      while (c.left > 0) {
        const { marker, data } = c.chunk(nested);
        if (marker === 'Sdef') structs.push(readSdef(data));
      }
    } else if (chunk.marker === 'Arry') {
      while (c.left > 0) {
        const { marker, data } = c.chunk(nested);
        if (marker === 'Adef') arrays.push({ count: data.int(), name: data.string()!, struct: data.string()! });
      }
    } else if (chunk.marker === 'Stor') {
      const name = c.string()!;
      const def = arrays.find((a) => a.name === name);
      // A missing array is one of zero elements.
      const count = def?.count ?? 0;
      stores[name] = Array.from({ length: count }, () => {
        const { marker, data } = c.chunk(nested);
        const structDef = structs.find((s) => s.marker === marker && s.name === def!.struct);
        // A structure the file does not define: its instances cannot be read, only kept.
        if (structDef === undefined) return { marker, raw: data.bytes.slice(data.at, data.end) };
        return readSeedInstance(data, structDef, ctx);
      });
    }
    // Any other chunk is unknown to this reader and skipped, as the seed says.
  }
  return {
    version: top.version,
    checksumOk: top.checksumOk,
    markers: top.chunks.map((c) => c.marker),
    chunks: top.chunks,
    lumps,
    structs,
    arrays,
    stores,
  };
}
