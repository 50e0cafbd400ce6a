/**
 * Tagged unions: a tag read first picks the codec of the rest.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, readChild, writeChild, type Codec, type TypeOf } from './codec.js';

/** The value of a tagged union over `V`: the tag, and the value of the codec it picked. */
export type Tagged<V extends Readonly<Record<string | number, Codec<any>>>> = {
  [K in keyof V]: { tag: K; value: TypeOf<V[K]> };
}[keyof V];

/** A tagged value whose tag no variant claimed, read with the `otherwise` codec. */
export interface OtherTag<T, A> {
  tag: T;
  value: A;
}

function hasOwn(object: object, key: PropertyKey): boolean {
  return Object.hasOwn(object, key);
}

/**
 * A tag, then the value of the variant it names. Without `otherwise`, an unknown tag is a DecodeError
 * listing the known ones; with it, the unknown tag and the `otherwise` value are kept.
 *
 * @example
 * ```ts
 * const value = taggedUnion(u8, { 1: u32le, 2: cstring('ascii') });
 * // bytes 02 41 00 → { tag: 2, value: 'A' }
 * ```
 */
export function taggedUnion<T extends string | number, V extends Readonly<Record<T, Codec<any>>>>(
  tag: Codec<T>,
  variants: V,
): Codec<Tagged<V>>;
export function taggedUnion<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  tag: Codec<T>,
  variants: V,
  options: { readonly otherwise: Codec<O> },
): Codec<Tagged<V> | OtherTag<T, O>>;
export function taggedUnion<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  tag: Codec<T>,
  variants: V,
  options?: { readonly otherwise: Codec<O> },
): Codec<any> {
  const keys = Object.keys(variants);
  const numeric = tag.def.type === 'int';
  const tagOf = (key: string) => (numeric ? Number(key) : key);
  const otherwise = options?.otherwise;
  const known = new Set(keys.map(tagOf));
  const members: t.Mixed[] = keys.map((key) =>
    t.type({ tag: t.literal(tagOf(key)), value: (variants as Record<string, Codec<unknown>>)[key]!.json }),
  );
  if (otherwise) {
    const unknownTag = new t.Type<T, unknown, unknown>(
      'otherTag',
      (u): u is T => tag.json.is(u) && !known.has(u as string | number),
      (u, c) => {
        const r = tag.json.validate(u, c);
        return r._tag === 'Right' && known.has(r.right as string | number)
          ? t.failure(u, c, 'tag belongs to a known variant')
          : r;
      },
      (a) => tag.json.encode(a),
    );
    members.push(t.type({ tag: unknownTag, value: otherwise.json }));
  }
  const json = (members.length === 1 ? members[0] : t.union(members as [t.Mixed, t.Mixed, ...t.Mixed[]])) as t.Type<
    any,
    unknown,
    unknown
  >;
  const pick = (value: T): Codec<any> | undefined =>
    hasOwn(variants, value as PropertyKey) ? (variants as Record<string, Codec<unknown>>)[String(value)] : otherwise;
  const listed = keys.join(', ');
  return defineCodec<any>({
    name: `taggedUnion(${tag.name})`,
    def: {
      type: 'taggedUnion',
      tag: tag as unknown as Codec<string> | Codec<number>,
      variants: keys.map((key) => ({ tag: tagOf(key), codec: (variants as Record<string, Codec<unknown>>)[key]! })),
      otherwise,
    },
    json,
    minSize: tag.minSize,
    children: [
      { key: 'tag', codec: tag },
      ...keys.map((key) => ({ key, codec: (variants as Record<string, Codec<unknown>>)[key]! })),
      ...(otherwise ? [{ key: '*', codec: otherwise }] : []),
    ],
    read(r) {
      const at = r.pos;
      const value = readChild(r, 'tag', tag);
      const codec = pick(value);
      if (codec === undefined)
        throw r.error('unknown-tag', `unknown tag ${JSON.stringify(value)} (known: ${listed})`, at);
      return { tag: value, value: readChild(r, 'value', codec) };
    },
    write(w, tagged) {
      if (typeof tagged !== 'object' || tagged === null) throw w.error('wrong-type', 'expected { tag, value }');
      const codec = pick(tagged.tag);
      if (codec === undefined)
        throw w.error('unknown-tag', `unknown tag ${JSON.stringify(tagged.tag)} (known: ${listed})`);
      writeChild(w, 'tag', tag, tagged.tag);
      writeChild(w, 'value', codec, tagged.value);
    },
  });
}
