// Self-describing schemas shared by the core's and the kit's tests: a player and its weapons as an
// older and a newer game declare them, nested in chunks named by their markers.
import { bytes, chunk, f32le, fourcc, map, pstring, u16le, u32le, u8, type Codec } from '@savekit/core';
import type { Instance, KnownField, KnownStruct, SchemaEncoding, StructDef } from '@savekit/core/schema';

/** The strings of the schema tests: a u8 length, then UTF-8. */
export const text = pstring(u8, 'utf8');

// A number stored in 6 bytes although definitions declare 4 (as EDGE's floats): the reader's
// schema must say so, the size byte cannot.
export const wide = map(bytes(6), {
  decode: (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(2, true),
  encode: (n: number) => {
    const b = new Uint8Array(6);
    new DataView(b.buffer).setUint32(2, n, true);
    b[0] = 0xee;
    return b;
  },
});

/** Numbers as raw bytes, strings as {@link text}, u32 indexes, structures in chunks of their marker. */
export const encoding: SchemaEncoding = {
  numeric: (size) => bytes(size),
  string: text,
  index: u32le,
  nest: (def: StructDef, body: Codec<Instance>) =>
    map(chunk({ marker: fourcc(), length: u16le }, def.marker, body), {
      decode: (c) => c.body,
      encode: (body: Instance) => ({ id: def.marker, body }),
    }),
};

export const zero = () => 0;

/** A numeric field: `count` values of `size` bytes each, read with `codec`, `initial` when missing. */
export function numeric(name: string, size: number, codec: Codec<number>, count = 1, initial = 0): KnownField {
  return { name, kind: 'numeric', size, count, codec, default: () => initial };
}

const name: KnownField = { name: 'name', kind: 'string', size: 0, count: 1, default: () => '' };
const health = numeric('health', 4, f32le);
const speed = numeric('speed', 4, wide);
const weaponKind = numeric('kind', 1, u8);
const owned = numeric('owned', 1, u8);
/** player_t: the fields both games declare first, then `rest`. */
const player = (...rest: KnownField[]): KnownStruct => ({
  name: 'player_t',
  marker: 'play',
  fields: [health, speed, name, ...rest],
});

/** The player as an older game declares it. */
export const older: KnownStruct[] = [
  player(
    { name: 'weapons', kind: 'struct', size: 0, count: 2, ref: 'weap_t', default: () => ({ kind: 0, owned: 0 }) },
    { name: 'target', kind: 'index', size: 4, count: 1, ref: 'mobjs', default: zero },
    numeric('ammo', 2, u16le, 4),
  ),
  { name: 'weap_t', marker: 'weap', fields: [weaponKind, owned] },
];

/** The player as a newer game declares it: more weapons, fewer ammo slots, an armor, no target. */
export const newer: KnownStruct[] = [
  player(
    {
      name: 'weapons',
      kind: 'struct',
      size: 0,
      count: 3,
      ref: 'weap_t',
      default: () => ({ kind: 0, owned: 0, clip: 0 }),
    },
    numeric('ammo', 2, u16le, 2),
    numeric('armor', 4, u32le, 1, 100),
  ),
  { name: 'weap_t', marker: 'weap', fields: [weaponKind, owned, numeric('clip', 2, u16le)] },
];
