/**
 * Structs read in one order and stored in another. A struct's dependent fields see the fields
 * before them; when a field needs one stored after it — a WAD directory entry's `filepos` points at
 * a lump whose length is the `size` stored next — declare the fields in the order they depend on
 * each other and give the order they are stored in. Reading seeks to each field in declaration
 * order; writing, where the whole value is known, writes them in stored order.
 *
 * @module
 */
import { defineCodec, isCodec, readChild, writeChild, type Codec } from './codec.js';
import { chooseCodec, struct, type Fields, type StructType } from './struct.js';

/**
 * A struct whose fields are declared in the order they are read — each may depend on the ones
 * declared before it, as in {@link struct} — and stored in the order `stored` gives. The value, its
 * JSON form and generated values follow the declaration; the bytes and the layout (`children`)
 * follow `stored`.
 *
 * To reach a field, the reader needs the size of every field stored before it: each of those must
 * have a fixed size or be declared earlier (so it has been read). A dependent field (a function of
 * the fields before it) has no size until its codec is chosen: when one is stored before a field it
 * depends on, give its size in `stored` as `[name, size]` (a DecodeError if it then takes another).
 * A declaration where the sizes cannot be known is refused with a RangeError when it is made.
 *
 * @example
 * ```ts
 * import { bytes, fixedString, i32le, pointer, reordered } from '@savekit/core';
 * // A WAD directory entry: i32 filepos, i32 size, char[8] name. The lump at `filepos` needs `size`.
 * const entry = reordered(
 *   {
 *     size: i32le,
 *     lump: (e: { size: number }) => pointer(i32le, bytes(e.size), { nullOffset: 'none' }),
 *     name: fixedString(8, 'ascii'),
 *   },
 *   [['lump', 4], 'size', 'name'], // filepos (the lump's 4-byte offset), size, name
 *   'entry',
 * );
 * ```
 */
export function reordered<F extends Fields>(
  fields: F,
  order: ReadonlyArray<(keyof F & string) | readonly [keyof F & string, number]>,
  name = 'struct',
): Codec<StructType<F>> {
  const inner = struct(fields, name); // the value's shape, its JSON type and the field checks
  const names = Object.keys(fields);
  const stored = order.map((o) => (typeof o === 'string' ? o : o[0]));
  const given = new Map<string, number>();
  for (const o of order) {
    if (typeof o === 'string') continue;
    const [key, size] = o;
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`reordered: the size of ${key} must be a count`);
    const spec = fields[key];
    if (isCodec(spec) && spec.size !== size)
      throw new RangeError(`reordered: ${key} is given size ${size}, but its codec takes ${spec.size ?? 'varying'}`);
    given.set(key, size);
  }
  if (stored.length !== names.length || new Set(stored).size !== names.length || !stored.every((k) => k in fields)) {
    throw new RangeError(
      `reordered: the stored order must name each field once (fields: ${names.join(', ')}; stored: ${stored.join(', ')})`,
    );
  }
  const declared = new Map(names.map((key, i) => [key, i]));
  const specs = names.map((key) => fields[key]!);
  const fixedSize = (key: string): number | undefined => {
    const spec = fields[key];
    return given.get(key) ?? (isCodec(spec) ? spec.size : undefined);
  };
  // Every field stored before another must have a fixed size or be read before it.
  for (let s = 0; s < stored.length; s++) {
    const key = stored[s]!;
    for (const before of stored.slice(0, s)) {
      if (fixedSize(before) === undefined && declared.get(before)! > declared.get(key)!) {
        throw new RangeError(
          `reordered: ${key} is stored after ${before}, which has no fixed size and is declared after ${key}, so ${key} cannot be found before ${before} is read`,
        );
      }
    }
  }
  const position = stored.map((key) => declared.get(key)!);
  let size: number | undefined = 0;
  let minSize = 0;
  for (const spec of specs) {
    minSize += isCodec(spec) ? spec.minSize : 0;
    size = size !== undefined && isCodec(spec) && spec.size !== undefined ? size + spec.size : undefined;
  }
  // A dependent field of a given size leaves the struct's size open (its codec may be any), but
  // counts towards the least it takes.
  for (const [key, n] of given) if (!isCodec(fields[key])) minSize += n;
  const byKey = new Map(inner.children.map((child) => [child.key, child]));

  return defineCodec<StructType<F>>({
    name,
    // A struct for tools: the value is a struct of these fields (`def.fields` in declaration
    // order), the bytes are `def.stored` and `children` in stored order.
    def: inner.def.type === 'struct' ? { ...inner.def, stored } : inner.def,
    json: inner.json,
    size,
    minSize,
    children: stored.map((key) => byKey.get(key)!),
    read(r) {
      const start = r.pos;
      const out: Record<string, unknown> = {};
      // Bytes each field took, by declaration index (-1: not read yet).
      const taken = names.map(() => -1);
      for (let i = 0; i < names.length; i++) {
        const key = names[i]!;
        let offset = 0;
        for (const s of position) {
          if (s === i) break;
          offset += taken[s]! >= 0 ? taken[s]! : (fixedSize(names[s]!) as number); // checked when declared
        }
        if (offset > r.end - start)
          throw r.errorAt(key, `the field starts ${offset} bytes on, past the ${r.end - start} bytes left`, start);
        r.pos = start + offset; // errors choosing the codec name the field's offset
        const spec = specs[i]!;
        const codec = isCodec(spec) ? spec : chooseCodec(r, key, spec, out);
        out[key] = readChild(r, key, codec);
        taken[i] = r.pos - (start + offset);
        const promised = given.get(key);
        if (promised !== undefined && taken[i] !== promised)
          throw r.errorAt(key, `took ${taken[i]} bytes, where its declaration says ${promised}`, start + offset);
      }
      r.pos = start + taken.reduce((sum, n) => sum + n, 0);
      return out as StructType<F>;
    },
    write(w, value) {
      if (typeof value !== 'object' || value === null)
        throw w.error(`expected an object for ${name}, got ${value === null ? 'null' : typeof value}`);
      // The whole value is known: fields that depend on later ones can be chosen in stored order.
      for (const key of stored) {
        const spec = fields[key]!;
        const codec = isCodec(spec) ? spec : chooseCodec(w, key, spec, value);
        writeChild(w, key, codec, (value as Record<string, unknown>)[key]);
      }
    },
  });
}
