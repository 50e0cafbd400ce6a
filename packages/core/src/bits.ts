/**
 * Bit fields: named unsigned fields at any bit position and width inside a run of bytes, with an
 * explicit bit order. Every bit must belong to a field, so re-encoding can never drop one.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';
import { describeValue } from './errors.js';
import { jsonInt } from './json.js';

/**
 * Bit order. `'lsb'`: bit positions count from the least significant bit of each byte, and a field's
 * first bit is its least significant (UQM's game state, most little-endian C compilers' bitfields).
 * `'msb'`: positions count from the most significant bit, and a field's first bit is its most
 * significant (network protocols, big-endian packing).
 */
export type BitOrder = 'lsb' | 'msb';

/** A field: its width (placed right after the previous field) or its position and width. */
export type BitFieldSpec = number | { readonly at: number; readonly width: number };

/** The value of a bit-field group: one number per field. */
export type BitFields<F extends Readonly<Record<string, BitFieldSpec>>> = { [K in keyof F]: number };

/** Options of {@link bits}. */
export interface BitsOptions {
  /** The bit order; no default, because guessing it wrong silently scrambles every field. */
  readonly order: BitOrder;
  /** Size in bytes; by default the smallest that holds every field. */
  readonly bytes?: number;
}

interface Placed {
  readonly name: string;
  readonly at: number;
  readonly width: number;
}

/**
 * A group of bit fields. Widths may be 1 to 52 bits; values are unsigned numbers.
 *
 * @example
 * ```ts
 * // UQM packs its game state least-significant bit first.
 * const flags = bits({ shofixtiVisited: 1, spathiHome: 1, zoqfotSeen: 2, rest: 4 }, { order: 'lsb' });
 * // byte 0b0110_0101 → { shofixtiVisited: 1, spathiHome: 0, zoqfotSeen: 1, rest: 6 }
 * ```
 */
export function bits<const F extends Readonly<Record<string, BitFieldSpec>>>(
  fields: F,
  options: BitsOptions,
): Codec<BitFields<F>> {
  const placed: Placed[] = [];
  let cursor = 0;
  for (const [name, spec] of Object.entries(fields)) {
    const at = typeof spec === 'number' ? cursor : spec.at;
    const width = typeof spec === 'number' ? spec : spec.width;
    if (!Number.isInteger(width) || width < 1 || width > 52)
      throw new RangeError(`bits: field ${name} has width ${width}; 1 to 52 bits are allowed`);
    if (!Number.isInteger(at) || at < 0) throw new RangeError(`bits: field ${name} has position ${at}`);
    placed.push({ name, at, width });
    cursor = at + width;
  }
  const totalBits = Math.max(0, ...placed.map((f) => f.at + f.width));
  const size = options.bytes ?? Math.ceil(totalBits / 8);
  if (totalBits > size * 8) throw new RangeError(`bits: fields need ${totalBits} bits, more than ${size} bytes hold`);
  const owner = new Array<string | undefined>(size * 8).fill(undefined);
  for (const f of placed) {
    for (let b = f.at; b < f.at + f.width; b++) {
      if (owner[b] !== undefined) throw new RangeError(`bits: fields ${owner[b]} and ${f.name} both claim bit ${b}`);
      owner[b] = f.name;
    }
  }
  const free = owner.indexOf(undefined);
  if (free >= 0)
    throw new RangeError(`bits: bit ${free} belongs to no field; name it (a reserved field) so it is kept`);
  const lsb = options.order === 'lsb';
  const mask = (p: number) => (lsb ? 1 << (p & 7) : 0x80 >> (p & 7));
  const props: Record<string, t.Mixed> = {};
  for (const f of placed) props[f.name] = jsonInt(`u${f.width}`, 0, 2 ** f.width - 1);
  const json = t.type(props, 'bits') as unknown as t.Type<BitFields<F>, unknown, unknown>;
  return defineCodec<BitFields<F>>({
    name: `bits(${size} bytes, ${options.order})`,
    def: { type: 'bits', order: options.order, bytes: size, fields: placed },
    json,
    size,
    read(r) {
      const start = r.pos;
      r.need(size);
      const bytes = r.bytes;
      const out: Record<string, number> = {};
      for (const f of placed) {
        let value = 0;
        for (let n = 0; n < f.width; n++) {
          const p = f.at + n;
          if (bytes[start + (p >> 3)]! & mask(p)) value += 2 ** (lsb ? n : f.width - 1 - n);
        }
        out[f.name] = value;
      }
      r.pos = start + size;
      return out as BitFields<F>;
    },
    write(w, value) {
      if (typeof value !== 'object' || value === null) throw w.error('wrong-type', 'expected an object of bit fields');
      for (const f of placed) {
        const v = (value as Record<string, unknown>)[f.name];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= 2 ** f.width) {
          w.state.path.push(f.name);
          const error = w.error(
            'out-of-range',
            `${typeof v === 'number' ? v : describeValue(v)} does not fit in ${f.width} bits`,
          );
          w.state.path.pop();
          throw error;
        }
      }
      const start = w.reserve(size);
      const buf = w.buf;
      for (const f of placed) {
        const v = (value as Record<string, number>)[f.name]!; // checked above
        for (let n = 0; n < f.width; n++) {
          const bitValue = 2 ** (lsb ? n : f.width - 1 - n);
          const p = f.at + n;
          if (Math.floor(v / bitValue) % 2 === 1) buf[start + (p >> 3)]! |= mask(p);
        }
      }
    },
  });
}
