/**
 * EDGE's primitive encodings (spec edge.md §3): little-endian integers, the 6-byte float, the
 * `AA`/`DE` string, and the declared numeric kinds built from them.
 *
 * @module
 */
import * as t from 'io-ts';
import {
  array,
  f32le,
  fieldsMap,
  i32le,
  magic,
  map,
  pstring,
  struct,
  switchOn,
  taggedUnion,
  u16le,
  u32le,
  u8,
  type Codec,
} from '@savekit/core';
import { frexp32, pairMap, type Frexp32 } from '@savekit/core/kit';

/** `byte`: one raw byte. */
export const edgeByte: Codec<number> = u8;
/** `short`: u16 little-endian. */
export const edgeShort: Codec<number> = u16le;
/** `int` (and enum): 32 bits little-endian, read signed (two's complement). */
export const edgeInt: Codec<number> = i32le;
/** `angle_t` (binary angle: 0x40000000 is 90°), unsigned 32 bits little-endian. */
export const edgeAngle: Codec<number> = u32le;

/** A 6-byte float whose bytes are not the engine's encoding of any float; kept as found. */
export interface RawEdgeFloat {
  /** The stored exponent short (the real exponent + 256). */
  readonly exponent: number;
  /** The stored signed 32-bit mantissa. */
  readonly mantissa: number;
}

/** A decoded EDGE float: a float32 value, or the raw pair when the bytes are not canonical. */
export type EdgeFloatValue = number | RawEdgeFloat;

/** The engine's split of a float32 value into (stored exponent, mantissa): `frexp`, then ×2^30. */
export function splitEdgeFloat(value: number): RawEdgeFloat {
  const pair = { exponent: 0, mantissa: 0 };
  splitInto(value, pair);
  return pair;
}

/** {@link splitEdgeFloat} into `pair` (the stored fields being written: no object per value). */
function splitInto(value: number, pair: { exponent: number; mantissa: number }): void {
  // frexp's fraction in [0.5, 1) is significand / 2^24; the engine stores it × 2^30 (exact: a
  // float32 has 24 significant bits). Zero (either sign) has exponent 0 and significand 0: (256, 0).
  if (!frexp32(value, parts)) throw new RangeError(`${value} cannot be stored: EDGE floats are finite`);
  pair.exponent = 256 + parts.exponent;
  pair.mantissa = parts.significand * 64;
}

/** The parts {@link splitInto} reads (one record, filled per float written). */
const parts: Frexp32 = { exponent: 0, significand: 0 };

/** 2^(exponent − 286) for the stored exponents real floats use (float32 needs 108 … 384). */
const SCALE = Float64Array.from({ length: 1024 }, (_, e) => 2 ** (e - 286));

/** The value of a stored (exponent, mantissa) pair, as the engine computes it (to float32). */
export function joinEdgeFloat(exponent: number, mantissa: number): number {
  // Stored exponents are u16 (never negative): below 1024 they are in the table.
  return Math.fround(mantissa * (exponent < 1024 ? SCALE[exponent]! : 2 ** (exponent - 286)));
}

/**
 * Whether (exponent, mantissa) is what the engine writes for the value it decodes to: a normalised
 * mantissa (|m| in [2^29, 2^30)) whose value is exactly a finite float32, or zero as (256, 0).
 */
function isCanonical(exponent: number, mantissa: number): boolean {
  if (mantissa === 0) return exponent === 256;
  const m = mantissa < 0 ? -mantissa : mantissa;
  if (m < 0x20000000 || m >= 0x40000000) return false;
  const x = mantissa * (exponent < 1024 ? SCALE[exponent]! : 2 ** (exponent - 286));
  // Past float32's range the value is infinite, which cannot be written back: kept as its pair.
  return Math.fround(x) === x && Number.isFinite(x);
}

/**
 * The value of a stored pair: its number when the pair is canonical ({@link isCanonical}), else the
 * pair itself. The product is worked out once: a canonical pair's is exactly a float32, so it is
 * what {@link joinEdgeFloat} gives.
 */
function decodeEdgeFloat(exponent: number, mantissa: number): EdgeFloatValue {
  if (mantissa === 0) return exponent === 256 ? 0 : { exponent, mantissa };
  const m = mantissa < 0 ? -mantissa : mantissa;
  if (m < 0x20000000 || m >= 0x40000000) return { exponent, mantissa };
  const x = mantissa * (exponent < 1024 ? SCALE[exponent]! : 2 ** (exponent - 286));
  return Math.fround(x) === x && Number.isFinite(x) ? x : { exponent, mantissa };
}

const rawFloatJson = t.type({ exponent: t.number, mantissa: t.number }, 'RawEdgeFloat');
const floatJson = new t.Type<EdgeFloatValue, unknown, unknown>(
  'EdgeFloat',
  (u): u is EdgeFloatValue => (typeof u === 'number' && Number.isFinite(u)) || rawFloatJson.is(u),
  (u, c) => {
    if (typeof u === 'number') return Number.isFinite(u) ? t.success(u) : t.failure(u, c, 'EDGE floats are finite');
    const raw = rawFloatJson.validate(u, c);
    return raw._tag === 'Right' ? t.success({ exponent: raw.right.exponent, mantissa: raw.right.mantissa }) : raw;
  },
  (a) => a,
);

/** The stored pair of an EDGE float: the exponent short, then the mantissa int. */
const floatPair: Codec<RawEdgeFloat> = struct({ exponent: u16le, mantissa: i32le });

/**
 * EDGE's 6-byte float: u16 exponent biased by 256, then a signed 32-bit mantissa scaled by 2^30
 * (`value = mantissa · 2^(exponent − 256 − 30)`). Every float32 survives bit for bit; −0 is written as
 * +0, as the engine does; values are rounded to float32 first, as assigning to a C `float` would.
 * Bytes that are not the engine's encoding of their value (an unnormalised mantissa, say) decode to
 * `{ exponent, mantissa }` and are written back unchanged. Every 6 bytes decode, so the bijection is
 * total on the stored side; a map of fixed fields, so structs of floats are still read in place and
 * no stored pair is made per float.
 */
export const edgeFloat: Codec<EdgeFloatValue> = pairMap(['exponent', u16le], ['mantissa', i32le], {
  name: 'edgeFloat',
  // A float is a number in the document: an error in its stored pair names the part as framing.
  framing: ['exponent', 'mantissa'],
  json: floatJson,
  is: floatJson.is,
  model: () => floatModel,
  // The stored pair comes as two numbers: a float read in place makes nothing but its value.
  decode: decodeEdgeFloat,
  encode: (value: EdgeFloatValue, fields) => {
    const pair = fields as { exponent: number; mantissa: number };
    if (typeof value === 'number') return splitInto(value, pair);
    if (typeof value !== 'object' || value === null) throw new Error('expected a number or { exponent, mantissa }');
    pair.exponent = value.exponent;
    pair.mantissa = value.mantissa;
  },
});

/**
 * The values of {@link edgeFloat}, for tools (random pairs are rarely canonical): a finite float32
 * other than −0, or a stored pair that is not the engine's encoding of its value.
 */
const floatModel: Codec<EdgeFloatValue> = map(taggedUnion(u8, { 0: f32le, 1: floatPair }), {
  decode: ({ tag, value }): EdgeFloatValue => {
    if (tag === 0) {
      const x = value as number;
      if (!Number.isFinite(x) || Object.is(x, -0)) throw new Error(`${x} is not a value EDGE stores`);
      return x;
    }
    const { exponent, mantissa } = value as RawEdgeFloat;
    if (isCanonical(exponent, mantissa)) throw new Error('a canonical pair reads as its number');
    return { exponent, mantissa };
  },
  encode: (v: EdgeFloatValue) =>
    typeof v === 'number' ? { tag: 0 as const, value: v } : { tag: 1 as const, value: { ...v } },
});

/** Two floats (x, y): 12 bytes, declared as 8. */
export const edgeVec2: Codec<EdgeFloatValue[]> = array(edgeFloat, 2);
/** Three floats (x, y, z): 18 bytes, declared as 12. */
export const edgeVec3: Codec<EdgeFloatValue[]> = array(edgeFloat, 3);

/** The byte that starts a string (`STRING_MARKER`). */
export const STRING_MARKER = 0xaa as const;
/** The byte that stands for a NULL string (`NULLSTR_MARKER`). */
export const NULL_STRING_MARKER = 0xde as const;

/**
 * A string's prefix: its marker byte again (the switch peeked it), then the u16 length. The marker is
 * a `magic`, so the prefix is read in place (a fixed-size pair: no record, no work per field).
 */
const markedLength: Codec<number> = fieldsMap(
  { marker: magic('\xAA'), length: u16le },
  {
    name: 'AA length',
    framing: ['marker', 'length'],
    decode: ({ length }) => length,
    encode: (length: number, fields) => {
      fields.marker = '\xAA';
      fields.length = length;
    },
    is: (u): u is number => typeof u === 'number',
  },
);

/**
 * A string as stored: the marked length and the cp437 bytes. Short strings recur in every instance of
 * a save (`ZOMBIEMAN`, `*:SEE:2`, texture names), so they are shared: a repeat is found from its bytes,
 * and a decoded document holds it once rather than once per instance.
 */
const storedString: Codec<string> = pstring(markedLength, 'cp437', { share: true });

/** NULL: the marker byte alone (a fixed field: read in place, nothing made per value). */
const nullString: Codec<null> = fieldsMap(
  { marker: magic('\xDE') },
  {
    name: 'NULL',
    framing: ['marker'],
    decode: () => null,
    encode: (_: null, fields) => {
      fields.marker = '\xDE';
    },
    is: (u): u is null => u === null,
    json: t.null as t.Type<null, unknown, unknown>,
  },
);

/**
 * EDGE's string: `AA`, u16 length, the bytes (no NUL; the design doc says IBM cp437, and cp437 maps
 * every byte, so nothing is lost), or the single byte `DE` for a NULL pointer (`null`). Any other first
 * byte is an error, as in the engine ("invalid string").
 */
export const edgeString: Codec<string | null> = switchOn(
  u8,
  { string: storedString, null: nullString },
  {
    name: 'edgeString',
    select: (marker) => (marker === STRING_MARKER ? 'string' : marker === NULL_STRING_MARKER ? 'null' : undefined),
    caseOf: (text: string | null) => (text === null ? 'null' : 'string'),
    json: t.union([t.string, t.null], 'EdgeString') as t.Type<string | null, unknown, unknown>,
    unknown: (marker) =>
      `invalid string: marker byte 0x${marker.toString(16).padStart(2, '0')}, expected 0xaa (string) or 0xde (NULL)`,
  },
);

/**
 * The boolean of `SR_PutBoolean`: an int 0 or 1. The reader treats any non-zero value as true, so an
 * odd value (2, −1) is kept as its number and written back unchanged.
 */
export const edgeBoolean: Codec<boolean | number> = fieldsMap(
  { value: i32le },
  {
    name: 'edgeBoolean',
    decode: ({ value: n }): boolean | number => (n === 0 ? false : n === 1 ? true : n),
    encode: (v: boolean | number, fields) => {
      if (typeof v !== 'boolean' && typeof v !== 'number') throw new Error(`expected a boolean, got ${typeof v}`);
      fields.value = v === false ? 0 : v === true ? 1 : v;
    },
    is: (u): u is boolean | number => typeof u === 'boolean' || Number.isInteger(u),
    json: t.union([t.boolean, t.Int], 'EdgeBoolean') as unknown as t.Type<boolean | number, unknown, unknown>,
  },
);
