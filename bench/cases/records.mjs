// Realistic records: what save files are made of — length-prefixed UTF-8 strings, fixed arrays,
// nested variable arrays, a version switch in the header that changes the record layout — first as a
// plain file every peer can describe, then as a chunked file with a cp437 name, a zlib-compressed
// chunk and a CRC-32 trailer, which only savekit and a hand-written reader can do.
import { Parser } from 'binary-parser';
import * as r from 'restructure';
import { deflateSync, inflateSync } from 'fflate';
import CRC32 from 'crc-32';
import {
  array,
  checksum,
  chunkList,
  compile,
  compression,
  crc32,
  decode,
  encode,
  f32le,
  fixedString,
  fourcc,
  magic,
  maybe,
  pstring,
  struct,
  transform,
  u16le,
  u32le,
  u8,
} from '@savekit/core';
import { compileKsy, KaitaiStream } from '../peers/kaitai.mjs';
import { prng } from '../data.mjs';
import { must } from '../either.mjs';

/** A peer's player record as plain data of the same shape as savekit's, to compare the results. */
function cleanPlayer(p) {
  const out = {
    name: p.name,
    title: p.title,
    stats: p.stats,
    inventory: p.inventory.map((i) => ({ id: i.id, count: i.count, tag: i.tag })),
  };
  if (p.position) out.position = { x: p.position.x, y: p.position.y };
  return out;
}

// ---- the data ------------------------------------------------------------------------------------

const NAMES = ['Ånnä', 'Björk', 'Zoë', 'Ægir', 'Mårten', 'Chloé', 'Łukasz', 'Ingrid', 'Ödön', 'Renée'];
const TITLES = ['the Bold', 'of the North', 'Keeper of Keys', 'the Unready', 'Dragonslayer', 'Ölbrauer'];
const TAGS = ['potion', 'sword', 'key', 'scroll', 'gem', 'ration', 'torch'];

function players(count, seed) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  return Array.from({ length: count }, () => ({
    name: pick(NAMES),
    title: pick(TITLES),
    stats: Array.from({ length: 8 }, () => Math.floor(random() * 65536)),
    inventory: Array.from({ length: Math.floor(random() * 9) }, () => ({
      id: Math.floor(random() * 65536),
      count: Math.floor(random() * 256),
      tag: pick(TAGS),
    })),
    position: { x: Math.fround((random() - 0.5) * 1e4), y: Math.fround((random() - 0.5) * 1e4) },
  }));
}

// ---- savekit ---------------------------------------------------------------------------------------

const item = struct({ id: u16le, count: u8, tag: pstring(u8, 'utf8') });
const player = (version) =>
  struct({
    name: pstring(u8, 'utf8'),
    title: pstring(u8, 'utf8'),
    stats: array(u16le, 8),
    inventory: array(item, u8),
    position: maybe(version >= 2, struct({ x: f32le, y: f32le })), // the version switch
  });
const playerV1 = player(1);
const playerV2 = player(2);
/** The plain file: magic, version, then records whose layout the version decides. */
export const recordsFile = struct({
  magic: magic('RLSV'),
  version: u16le,
  players: (p) => array(p.version >= 2 ? playerV2 : playerV1, u32le),
});

const zlib = compression({
  name: 'zlib',
  compress: (b) => deflateSync(b, { level: 6 }),
  decompress: (b, max) => inflateSync(b, { out: new Uint8Array(max) }),
});
/** The chunked file: a cp437 name, the records, a zlib-compressed tile map, a CRC-32 trailer. */
export const chunkedFile = checksum(
  struct({
    magic: magic('RLCK'),
    version: u16le,
    chunks: chunkList(
      { marker: fourcc({ alnum: true }), length: u32le },
      {
        NAME: fixedString(32, 'cp437'),
        PLYR: array(playerV2, u32le),
        TILE: transform(array(u16le, 'rest'), { decodedLength: u32le }, zlib),
      },
      { until: ['ENDE'] },
    ),
    end: magic('ENDE'),
  }),
  { algorithm: crc32, stored: u32le, covers: 'window' },
);

// ---- hand-written --------------------------------------------------------------------------------

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const cp437Encode = new Map([...CP437_HIGH].map((c, i) => [c, 0x80 + i]));

function handReadPlayers(view, bytes, at, version) {
  const count = view.getUint32(at, true);
  at += 4;
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const nameLength = bytes[at++];
    const name = utf8Decoder.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const titleLength = bytes[at++];
    const title = utf8Decoder.decode(bytes.subarray(at, at + titleLength));
    at += titleLength;
    const stats = new Array(8);
    for (let k = 0; k < 8; k++, at += 2) stats[k] = view.getUint16(at, true);
    const itemCount = bytes[at++];
    const inventory = new Array(itemCount);
    for (let k = 0; k < itemCount; k++) {
      const id = view.getUint16(at, true);
      const count = bytes[at + 2];
      const tagLength = bytes[at + 3];
      at += 4;
      inventory[k] = { id, count, tag: utf8Decoder.decode(bytes.subarray(at, at + tagLength)) };
      at += tagLength;
    }
    let position;
    if (version >= 2) {
      position = { x: view.getFloat32(at, true), y: view.getFloat32(at + 4, true) };
      at += 8;
    }
    out[i] = version >= 2 ? { name, title, stats, inventory, position } : { name, title, stats, inventory };
  }
  return { players: out, end: at };
}

function handReadRecords(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, false) !== 0x524c5356) throw new Error('not RLSV');
  const version = view.getUint16(4, true);
  return { magic: 'RLSV', version, players: handReadPlayers(view, bytes, 6, version).players };
}

/** A growing output buffer, as a hand-written encoder would keep one. */
class Out {
  constructor(size = 1 << 16) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
  }
  ensure(n) {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }
  text(s) {
    const encoded = utf8Encoder.encode(s);
    this.ensure(1 + encoded.length);
    this.bytes[this.length++] = encoded.length;
    this.bytes.set(encoded, this.length);
    this.length += encoded.length;
  }
  result() {
    return this.bytes.slice(0, this.length);
  }
}

function handWritePlayers(out, list) {
  out.ensure(4);
  out.view.setUint32(out.length, list.length, true);
  out.length += 4;
  for (const p of list) {
    out.text(p.name);
    out.text(p.title);
    out.ensure(17);
    for (let k = 0; k < 8; k++) out.view.setUint16(out.length + 2 * k, p.stats[k], true);
    out.length += 16;
    out.bytes[out.length++] = p.inventory.length;
    for (const it of p.inventory) {
      out.ensure(3);
      out.view.setUint16(out.length, it.id, true);
      out.bytes[out.length + 2] = it.count;
      out.length += 3;
      out.text(it.tag);
    }
    out.ensure(8);
    out.view.setFloat32(out.length, p.position.x, true);
    out.view.setFloat32(out.length + 4, p.position.y, true);
    out.length += 8;
  }
}

function handWriteRecords(doc) {
  const out = new Out();
  out.ensure(6);
  out.bytes.set([0x52, 0x4c, 0x53, 0x56], 0);
  out.view.setUint16(4, doc.version, true);
  out.length = 6;
  handWritePlayers(out, doc.players);
  return out.result();
}

function handReadChunked(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stored = view.getUint32(bytes.length - 4, true);
  if (CRC32.buf(bytes.subarray(0, bytes.length - 4)) >>> 0 !== stored) throw new Error('CRC mismatch');
  const chunks = [];
  let at = 6;
  for (;;) {
    const id = String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
    if (id === 'ENDE') break;
    const length = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'NAME') {
      let end = body;
      while (end < body + 32 && bytes[end] !== 0) end++;
      let name = '';
      for (let k = body; k < end; k++)
        name += bytes[k] < 0x80 ? String.fromCharCode(bytes[k]) : CP437_HIGH[bytes[k] - 0x80];
      chunks.push({ id, body: name });
    } else if (id === 'PLYR') {
      chunks.push({ id, body: handReadPlayers(view, bytes, body, 2).players });
    } else if (id === 'TILE') {
      const expected = view.getUint32(body, true);
      const raw = inflateSync(bytes.subarray(body + 4, body + length), { out: new Uint8Array(expected) });
      const rawView = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const tiles = new Array(raw.length / 2);
      for (let k = 0; k < tiles.length; k++) tiles[k] = rawView.getUint16(2 * k, true);
      chunks.push({ id, body: tiles });
    }
    at = body + length;
  }
  return { magic: 'RLCK', version: view.getUint16(4, true), chunks, end: 'ENDE' };
}

function handWriteChunked(doc) {
  const out = new Out();
  out.ensure(6);
  out.bytes.set([0x52, 0x4c, 0x43, 0x4b], 0);
  out.view.setUint16(4, doc.version, true);
  out.length = 6;
  const header = (id, length) => {
    out.ensure(8);
    for (let k = 0; k < 4; k++) out.bytes[out.length + k] = id.charCodeAt(k);
    out.view.setUint32(out.length + 4, length, true);
    out.length += 8;
  };
  for (const chunk of doc.chunks) {
    if (chunk.id === 'NAME') {
      header('NAME', 32);
      out.ensure(32);
      out.bytes.fill(0, out.length, out.length + 32);
      [...chunk.body].forEach((c, k) => {
        out.bytes[out.length + k] = c.charCodeAt(0) < 0x80 ? c.charCodeAt(0) : cp437Encode.get(c);
      });
      out.length += 32;
    } else if (chunk.id === 'PLYR') {
      const start = out.length;
      header('PLYR', 0);
      handWritePlayers(out, chunk.body);
      out.view.setUint32(start + 4, out.length - start - 8, true);
    } else if (chunk.id === 'TILE') {
      const raw = new Uint8Array(chunk.body.length * 2);
      const rawView = new DataView(raw.buffer);
      chunk.body.forEach((t, k) => {
        rawView.setUint16(2 * k, t, true);
      });
      const packed = deflateSync(raw, { level: 6 });
      header('TILE', 4 + packed.length);
      out.ensure(4 + packed.length);
      out.view.setUint32(out.length, raw.length, true);
      out.bytes.set(packed, out.length + 4);
      out.length += 4 + packed.length;
    }
  }
  out.ensure(8);
  out.bytes.set([0x45, 0x4e, 0x44, 0x45], out.length);
  out.length += 4;
  out.view.setUint32(out.length, CRC32.buf(out.bytes.subarray(0, out.length)) >>> 0, true);
  out.length += 4;
  return out.result();
}

// ---- binary-parser, restructure, Kaitai Struct -----------------------------------------------------

function binaryParserPeer() {
  const text = (name) =>
    new Parser().uint8(`${name}Length`).string(name, { length: `${name}Length`, encoding: 'utf8' });
  const itemParser = new Parser()
    .endianness('little')
    .uint16('id')
    .uint8('count')
    .nest('', { type: text('tag') });
  const base = () =>
    new Parser()
      .endianness('little')
      .nest('', { type: text('name') })
      .nest('', { type: text('title') })
      .array('stats', { type: 'uint16le', length: 8 })
      .uint8('inventoryCount')
      .array('inventory', { type: itemParser, length: 'inventoryCount' });
  const v1 = base();
  const v2 = base().nest('position', { type: new Parser().endianness('little').floatle('x').floatle('y') });
  const body = (p) => new Parser().endianness('little').uint32('count').array('players', { type: p, length: 'count' });
  const file = new Parser()
    .endianness('little')
    .string('magic', { length: 4 })
    .uint16('version')
    .choice('body', { tag: 'version', choices: { 1: body(v1), 2: body(v2) } });
  return {
    parse: (bytes) => file.parse(bytes),
    clean: (v) => ({ magic: v.magic, version: v.version, players: v.body.players.map(cleanPlayer) }),
  };
}

function restructurePeer() {
  const text = new r.String(r.uint8, 'utf8');
  const itemStruct = new r.Struct({ id: r.uint16le, count: r.uint8, tag: text });
  const fields = {
    name: text,
    title: text,
    stats: new r.Array(r.uint16le, 8),
    inventory: new r.Array(itemStruct, r.uint8),
  };
  const v1 = new r.Struct(fields);
  const v2 = new r.Struct({ ...fields, position: new r.Struct({ x: r.floatle, y: r.floatle }) });
  const file = new r.Struct({
    magic: new r.String(4, 'ascii'),
    body: new r.VersionedStruct(r.uint16le, {
      1: { players: new r.Array(v1, r.uint32le) },
      2: { players: new r.Array(v2, r.uint32le) },
    }),
  });
  // restructure's arrays are its own kind of array: copied into plain ones.
  const clean = (p) => cleanPlayer({ ...p, stats: [...p.stats] });
  return {
    parse: (bytes) => file.fromBuffer(bytes),
    clean: (v) => ({ magic: v.magic, version: v.body.version, players: v.body.players.map(clean) }),
    write: (doc) => file.toBuffer({ magic: doc.magic, body: { version: doc.version, players: doc.players } }),
  };
}

async function kaitaiPeer() {
  const text = (id) => [
    { id: `${id}_len`, type: 'u1' },
    { id, type: 'str', size: `${id}_len`, encoding: 'UTF-8' },
  ];
  const Records = await compileKsy({
    meta: { id: 'records_file', endian: 'le' },
    seq: [
      { id: 'magic', contents: 'RLSV' },
      { id: 'version', type: 'u2' },
      { id: 'count', type: 'u4' },
      { id: 'players', type: 'player', repeat: 'expr', 'repeat-expr': 'count' },
    ],
    types: {
      player: {
        seq: [
          ...text('name'),
          ...text('title'),
          { id: 'stats', type: 'u2', repeat: 'expr', 'repeat-expr': 8 },
          { id: 'inventory_count', type: 'u1' },
          { id: 'inventory', type: 'item', repeat: 'expr', 'repeat-expr': 'inventory_count' },
          { id: 'position', type: 'position', if: '_root.version >= 2' },
        ],
      },
      item: { seq: [{ id: 'id', type: 'u2' }, { id: 'count', type: 'u1' }, ...text('tag')] },
      position: {
        seq: [
          { id: 'x', type: 'f4' },
          { id: 'y', type: 'f4' },
        ],
      },
    },
  });
  return {
    parse: (bytes) => new Records(new KaitaiStream(bytes)),
    clean: (v) => ({ magic: 'RLSV', version: v.version, players: v.players.map(cleanPlayer) }),
  };
}

// ---- the cases -------------------------------------------------------------------------------------

export async function cases(quick, { compare = false } = {}) {
  // savekit runs compiled codecs; --compare adds the interpreted ones (the same declarations, with
  // `compiled: false`: a struct or array runs its plan otherwise).
  const INTERPRETED = { compiled: false };
  const recordsCompiled = compile(recordsFile);
  const chunkedCompiled = compile(chunkedFile);
  const interpreted = (peer) => (compare ? [{ name: 'savekit (interpreted)', ...peer }] : []);
  const count = quick ? 200 : 20_000;
  const doc = { magic: 'RLSV', version: 2, players: players(count, 11) };
  const bytes = must(encode(recordsFile, doc));
  const bp = binaryParserPeer();
  const rs = restructurePeer();
  const ks = await kaitaiPeer();

  const random = prng(5);
  const tiles = Array.from({ length: quick ? 4096 : 256 * 1024 }, (_, i) =>
    i % 7 === 0 ? Math.floor(random() * 512) : (i >> 6) & 0xff,
  );
  const chunked = {
    magic: 'RLCK',
    version: 2,
    chunks: [
      { id: 'NAME', body: 'Höhle der Zwerge ░▒▓ Ω' },
      { id: 'PLYR', body: doc.players },
      { id: 'TILE', body: tiles },
    ],
    end: 'ENDE',
  };
  const chunkedBytes = must(encode(chunkedFile, chunked));
  // Every hand-written byte must be ours too (the same zlib level, the same layout).
  if (Buffer.compare(Buffer.from(handWriteChunked(chunked)), Buffer.from(chunkedBytes)) !== 0)
    throw new Error('the hand-written chunked encoder disagrees');
  const chunkedPayload = bytes.length + tiles.length * 2;
  const noCp437 = 'no cp437 strings, checksums or compression layers';
  const options = quick ? {} : { iterations: 20, warmupIterations: 3 };

  return [
    {
      name: `records decode ×${count} (${(bytes.length / 1e6).toFixed(2)} MB)`,
      description: 'UTF-8 strings with length prefixes, fixed and nested arrays, a version switch',
      bytesPerOp: bytes.length,
      ours: 'savekit',
      ...options,
      peers: [
        { name: 'savekit', run: () => must(decode(recordsCompiled, bytes)).value },
        ...interpreted({ run: () => must(decode(recordsFile, bytes, INTERPRETED)).value }),
        { name: 'DataView (hand-written)', run: () => handReadRecords(bytes) },
        { name: 'binary-parser', run: () => bp.parse(bytes), check: () => bp.clean(bp.parse(bytes)) },
        { name: 'restructure', run: () => rs.parse(bytes), check: () => rs.clean(rs.parse(bytes)) },
        { name: 'Kaitai Struct', run: () => ks.parse(bytes), check: () => ks.clean(ks.parse(bytes)) },
        { name: 'typed-binary', run: () => undefined, fails: 'no length-prefixed strings (its strings end in NUL)' },
      ],
    },
    {
      name: `records encode ×${count} (${(bytes.length / 1e6).toFixed(2)} MB)`,
      description: 'the same records written',
      bytesPerOp: bytes.length,
      ours: 'savekit',
      ...options,
      peers: [
        { name: 'savekit', run: () => must(encode(recordsCompiled, doc)) },
        ...interpreted({ run: () => must(encode(recordsFile, doc, INTERPRETED)) }),
        { name: 'DataView (hand-written)', run: () => handWriteRecords(doc) },
        { name: 'restructure', run: () => rs.write(doc), check: () => new Uint8Array(rs.write(doc)) },
        { name: 'binary-parser', run: () => undefined, fails: 'binary-parser only decodes' },
        { name: 'Kaitai Struct', run: () => undefined, fails: "Kaitai Struct's JavaScript target only reads" },
      ],
    },
    {
      name: `chunked file decode (cp437, zlib, CRC-32; ${(chunkedBytes.length / 1e6).toFixed(2)} MB file, ${(chunkedPayload / 1e6).toFixed(2)} MB data)`,
      description: 'a cp437 name chunk, the records chunk, a zlib-compressed tile chunk, a CRC-32 trailer',
      bytesPerOp: chunkedPayload,
      ours: 'savekit',
      ...options,
      peers: [
        { name: 'savekit', run: () => must(decode(chunkedCompiled, chunkedBytes)).value },
        ...interpreted({ run: () => must(decode(chunkedFile, chunkedBytes, INTERPRETED)).value }),
        { name: 'DataView + fflate + crc-32 (hand-written)', run: () => handReadChunked(chunkedBytes) },
        { name: 'binary-parser', run: () => undefined, fails: noCp437 },
        { name: 'restructure', run: () => undefined, fails: noCp437 },
        {
          name: 'Kaitai Struct',
          run: () => undefined,
          fails: 'no cp437 in its JavaScript runtime (TextDecoder), no checksums',
        },
      ],
    },
    {
      name: `chunked file encode (cp437, zlib, CRC-32; ${(chunkedPayload / 1e6).toFixed(2)} MB data)`,
      description: 'the same file written: records, compression, checksum',
      bytesPerOp: chunkedPayload,
      ours: 'savekit',
      ...options,
      peers: [
        { name: 'savekit', run: () => must(encode(chunkedCompiled, chunked)) },
        ...interpreted({ run: () => must(encode(chunkedFile, chunked, INTERPRETED)) }),
        { name: 'DataView + fflate + crc-32 (hand-written)', run: () => handWriteChunked(chunked) },
      ],
    },
  ];
}
