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
  i32le,
  map,
  optional,
  pstring,
  struct,
  taggedUnion,
  u16le,
  u32le,
  u8,
  type Codec,
} from '@savekit/core';
import { customDef, cp437, defineCodec, type CodecSpec, type Reader, type Writer } from '@savekit/core/kit';

// One of EDGE's own codecs: a custom definition under its name with a model of its values (for
// tools), and the io-ts type of its JSON form.
function edgeCodec<A>(
  name: string,
  json: t.Mixed,
  model: Codec<A>,
  spec: Omit<CodecSpec<A>, 'name' | 'def' | 'json'>,
): Codec<A> {
  return defineCodec<A>({
    name,
    def: customDef<A>(name, { model }),
    json: json as unknown as t.Type<A, unknown, unknown>,
    ...spec,
  });
}

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

const TWO_30 = 2 ** 30;

/** The engine's split of a float32 value into (stored exponent, mantissa): `frexp`, then ×2^30. */
export function splitEdgeFloat(value: number): RawEdgeFloat {
  const v = Math.fround(value);
  if (!Number.isFinite(v)) throw new RangeError(`${value} cannot be stored: EDGE floats are finite`);
  const exponent = storedExponent(v);
  return { exponent, mantissa: splitMantissa };
}

/** The mantissa of the last {@link storedExponent} call (a second return value, without allocating). */
let splitMantissa = 0;

/** The stored exponent of a finite float32 value; its mantissa is left in `splitMantissa`. */
function storedExponent(v: number): number {
  const a = Math.abs(v);
  if (a === 0) {
    splitMantissa = 0;
    return 256;
  }
  let e = Math.floor(Math.log2(a)) + 1;
  let f = a * 2 ** -e;
  // log2 can be off by one near powers of two; frexp's fraction is in [0.5, 1).
  if (f >= 1) {
    f /= 2;
    e += 1;
  } else if (f < 0.5) {
    f *= 2;
    e -= 1;
  }
  const mant = Math.trunc(f * TWO_30);
  splitMantissa = v < 0 ? -mant : mant;
  return 256 + e;
}

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

/**
 * EDGE's 6-byte float: u16 exponent biased by 256, then a signed 32-bit mantissa scaled by 2^30
 * (`value = mantissa · 2^(exponent − 256 − 30)`). Every float32 survives bit for bit; −0 is written as
 * +0, as the engine does; values are rounded to float32 first, as assigning to a C `float` would.
 * Bytes that are not the engine's encoding of their value (an unnormalised mantissa, say) decode to
 * `{ exponent, mantissa }` and are written back unchanged.
 */
export const edgeFloat: Codec<EdgeFloatValue> = edgeCodec<EdgeFloatValue>('edgeFloat', floatJson, floatModel(), {
  size: 6,
  readFixed: readFloatAt,
  writeFixed: writeFloatAt,
  read(r) {
    r.need(6);
    const at = r.pos;
    const value = readFloatAt(r, at);
    r.pos = at + 6;
    return value;
  },
  write(w, value) {
    const at = w.ensure(6);
    writeFloatAt(w, at, value);
    w.length = at + 6;
  },
});

/**
 * The values of {@link edgeFloat}, for tools: a finite float32 other than −0, or a stored pair that is
 * not the engine's encoding of its value.
 */
function floatModel(): Codec<EdgeFloatValue> {
  const pair = struct({ exponent: u16le, mantissa: i32le });
  return map(taggedUnion(u8, { 0: f32le, 1: pair }), {
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
}

// The exponent and mantissa through the core's integer codecs, at offsets the caller checked.
const readExponent = u16le.readFixed!;
const readMantissa = i32le.readFixed!;
const writeExponent = u16le.writeFixed!;
const writeMantissa = i32le.writeFixed!;

/** Reads the 6 bytes at `at` (the caller checked they are there). */
function readFloatAt(r: Reader, at: number): EdgeFloatValue {
  const exponent = readExponent(r, at);
  const mantissa = readMantissa(r, at + 2);
  return isCanonical(exponent, mantissa) ? joinEdgeFloat(exponent, mantissa) : { exponent, mantissa };
}

/** Writes `value` as 6 bytes at `at` (the caller made room). */
function writeFloatAt(w: Writer, at: number, value: EdgeFloatValue): void {
  let exponent: number;
  let mantissa: number;
  if (typeof value === 'number') {
    const v = Math.fround(value);
    if (!Number.isFinite(v)) throw w.error(`${value} cannot be stored: EDGE floats are finite`);
    exponent = storedExponent(v);
    mantissa = splitMantissa;
  } else if (
    typeof value === 'object' &&
    value !== null &&
    Number.isInteger(value.exponent) &&
    Number.isInteger(value.mantissa)
  ) {
    if (value.exponent < 0 || value.exponent > 0xffff) throw w.error(`exponent ${value.exponent} does not fit 16 bits`);
    if (value.mantissa < -0x80000000 || value.mantissa > 0x7fffffff)
      throw w.error(`mantissa ${value.mantissa} does not fit 32 bits`);
    exponent = value.exponent;
    mantissa = value.mantissa;
  } else {
    throw w.error('expected a number or { exponent, mantissa }');
  }
  writeExponent(w, at, exponent);
  writeMantissa(w, at + 2, mantissa);
}

/** Two floats (x, y): 12 bytes, declared as 8. */
export const edgeVec2: Codec<EdgeFloatValue[]> = array(edgeFloat, 2);
/** Three floats (x, y, z): 18 bytes, declared as 12. */
export const edgeVec3: Codec<EdgeFloatValue[]> = array(edgeFloat, 3);

/** The byte that starts a string (`STRING_MARKER`). */
export const STRING_MARKER = 0xaa;
/** The byte that stands for a NULL string (`NULLSTR_MARKER`). */
export const NULL_STRING_MARKER = 0xde;

/**
 * Short strings recur in every instance of a save (`ZOMBIEMAN`, `*:SEE:2`, texture names): one copy of
 * each is kept, so a decoded document holds it once rather than once per instance, and its cp437
 * bytes are worked out once when writing. Bounded, so a hostile file cannot grow it.
 */
const SHARED_LENGTH = 32;
const SHARED_MOST = 4096;
const SHARED = new Map<string, string>();
/** The cp437 bytes of short strings written (never modified: the writer copies what it appends). */
const ENCODED = new Map<string, Uint8Array>();

/** `text`, or the copy of it kept already. */
function shareText(text: string): string {
  if (text.length > SHARED_LENGTH) return text;
  const kept = SHARED.get(text);
  if (kept !== undefined) return kept;
  if (SHARED.size < SHARED_MOST) SHARED.set(text, text);
  return text;
}

/**
 * EDGE's string: `AA`, u16 length, the bytes (no NUL; the design doc says IBM cp437, and cp437 maps
 * every byte, so nothing is lost), or the single byte `DE` for a NULL pointer (`null`). Any other first
 * byte is an error, as in the engine ("invalid string").
 */
export const edgeString: Codec<string | null> = edgeCodec<string | null>(
  'edgeString',
  t.union([t.string, t.null], 'EdgeString'),
  // Its values: cp437 text of up to 65,535 bytes, or null.
  map(optional(pstring(u16le, 'cp437')), {
    decode: (text) => text ?? null,
    encode: (text: string | null) => text ?? undefined,
  }),
  {
    minSize: 1,
    read(r) {
      const at = r.pos;
      const marker = r.u8();
      if (marker === NULL_STRING_MARKER) return null;
      if (marker !== STRING_MARKER) {
        throw r.error(
          `invalid string: marker byte 0x${marker.toString(16).padStart(2, '0')}, expected 0xaa (string) or 0xde (NULL)`,
          at,
        );
      }
      const length = u16le.read(r);
      return shareText(cp437.decode(r.borrow(length)));
    },
    write(w, value) {
      if (value === null) {
        w.u8(NULL_STRING_MARKER);
        return;
      }
      if (typeof value !== 'string') throw w.error('expected a string or null');
      let bytes = ENCODED.get(value);
      if (bytes === undefined) {
        try {
          bytes = cp437.encode(value);
        } catch (error) {
          throw w.error(`not cp437 text: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (value.length <= SHARED_LENGTH && ENCODED.size < SHARED_MOST) ENCODED.set(value, bytes);
      }
      if (bytes.length > 0xffff) throw w.error(`a string of ${bytes.length} bytes does not fit the 16-bit length`);
      w.u8(STRING_MARKER);
      u16le.write(w, bytes.length);
      w.append(bytes);
    },
  },
);

/**
 * The boolean of `SR_PutBoolean`: an int 0 or 1. The reader treats any non-zero value as true, so an
 * odd value (2, −1) is kept as its number and written back unchanged.
 */
export const edgeBoolean: Codec<boolean | number> = map(i32le, {
  name: 'edgeBoolean',
  decode: (n): boolean | number => (n === 0 ? false : n === 1 ? true : n),
  encode: (v: boolean | number) => (v === false ? 0 : v === true ? 1 : v),
  is: (u): u is boolean | number => typeof u === 'boolean' || Number.isInteger(u),
  json: t.union([t.boolean, t.Int], 'EdgeBoolean') as unknown as t.Type<boolean | number, unknown, unknown>,
});
