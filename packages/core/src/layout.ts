/**
 * Byte layouts read off codec definitions: a readable type for any codec ({@link typeNameOf}) and
 * the rows of a layout table ({@link layoutOf}) — offsets, sizes, field paths and types — so
 * documentation is generated from the declarations and cannot drift from them. Both switch over
 * `codec.def` exhaustively.
 *
 * @module
 */
import type { AnyCodec } from './codec.js';
import { unreachableDef, type DefCount } from './def.js';

function countText(count: DefCount): string {
  switch (count.type) {
    case 'fixed':
      return String(count.count);
    case 'prefix':
      return typeNameOf(count.codec);
    case 'rest':
      return 'rest';
    default:
      return unreachableDef(count);
  }
}

/**
 * A short readable type of a codec for tables and messages, from its definition: `u32le`,
 * `cstring(ascii)`, `u8[u16le]`, `entry[4]`, `chunk "Vari"`, `body <lzo1x, xor>`, `u32le → node`.
 * Structures and recursive codecs are named, not expanded.
 */
export function typeNameOf(codec: AnyCodec): string {
  const def = codec.def;
  switch (def.type) {
    case 'int':
      return `${def.signed ? 'i' : 'u'}${def.bits}${def.bits === 8 ? '' : def.endian}`;
    case 'float':
      return `f${def.bits}${def.endian}${def.nan === 'keep' ? ' (NaN payloads kept)' : ''}`;
    case 'bits':
      return `bits(${def.bytes} bytes, ${def.order})`;
    case 'magic':
      return `magic ${def.alternatives.map((a) => JSON.stringify(a)).join(' | ')}`;
    case 'literal':
      return `${typeNameOf(def.codec)} = ${def.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'fourcc':
      return def.alnum ? 'fourcc (letters and digits)' : 'fourcc';
    case 'string': {
      const t = def.termination;
      switch (t.type) {
        case 'nul':
          return `cstring(${def.encoding})`;
        case 'prefix':
          return `pstring(${typeNameOf(t.length)}, ${def.encoding})`;
        case 'fixed':
          return `fixedString(${t.size}, ${def.encoding})`;
        default:
          return unreachableDef(t);
      }
    }
    case 'bytes':
      return `u8[${countText(def.count)}]`;
    case 'struct':
      return codec.name;
    case 'array':
      return `${typeNameOf(def.element)}[${countText(def.count)}]`;
    case 'optional':
      return `${typeNameOf(def.codec)}?`;
    case 'nothing':
      return 'nothing';
    case 'padding':
      return def.to === 'count' ? `padding(${def.count})` : `align(${def.boundary})`;
    case 'taggedUnion':
      return `taggedUnion(${typeNameOf(def.tag)}: ${def.variants.map((v) => JSON.stringify(v.tag)).join(' | ')}${def.otherwise === undefined ? '' : ' | *'})`;
    case 'map':
      return codec.name;
    case 'sized':
      return `${typeNameOf(def.body)} in ${def.size.type === 'fixed' ? `${def.size.count} bytes` : `${typeNameOf(def.size.codec)} bytes`}`;
    case 'chunk':
      return `chunk ${JSON.stringify(def.marker)}`;
    case 'chunkList':
      return `chunks (${def.known.map((k) => k.marker).join(', ')}${def.known.length > 0 ? ', ' : ''}others raw)`;
    case 'transform':
      return `${typeNameOf(def.codec)} <${def.layers.map((l) => l.name).join(', ')}>`;
    case 'checksum':
      return `${typeNameOf(def.body)} + ${def.algorithm.name}`;
    case 'pointer':
      return `${typeNameOf(def.offset)} → ${typeNameOf(def.target)}`;
    case 'arena':
      return `arena(${typeNameOf(def.root)})`;
    case 'lazy':
      return codec.name;
    case 'graphImage':
      return 'graphImage';
    case 'instance':
      return `instance(${def.struct})`;
    case 'provide':
      return typeNameOf(def.codec);
    case 'fromContext':
      return `depends on ${def.key.name}`;
    case 'switchOn':
      return `switchOn(${typeNameOf(def.selector)}: ${def
        .cases()
        .map((c) => c.key)
        .join(' | ')})`;
    case 'fallback':
      return `${typeNameOf(def.primary)}, else ${typeNameOf(def.secondary)}`;
    case 'custom':
      return codec.name;
    default:
      return unreachableDef(def);
  }
}

/** A row of a layout table. */
export interface LayoutRow {
  /** The field's path, dotted (`header.flags.alive`); `''` for a codec that is not a structure. */
  readonly path: string;
  /** Byte offset from the codec's start; `undefined` once a field before it has a variable size. */
  readonly offset: number | undefined;
  /** Size in bytes; `undefined` when it varies (or for a bit field, see `bits`). */
  readonly size: number | undefined;
  /** For a bit field: its first bit and width, in the group's bit order. */
  readonly bits?: { readonly at: number; readonly width: number; readonly order: 'lsb' | 'msb' };
  /** The type, as {@link typeNameOf} gives it. */
  readonly type: string;
}

/**
 * The rows of a codec's layout table: structures are flattened into dotted paths, bit fields get a
 * row each, the bodies of checksums, fixed-size windows and mapped values are laid out in place (the
 * digest after or before them); every other codec is one row.
 *
 * @example
 * ```ts
 * layoutOf(struct({ id: u16le, flags: bits({ a: 1, b: 7 }, { order: 'lsb' }), name: cstring('ascii') }));
 * // [{ path: 'id', offset: 0, size: 2, type: 'u16le' },
 * //  { path: 'flags.a', offset: 2, size: undefined, bits: { at: 0, width: 1, order: 'lsb' }, type: 'u1' }, …,
 * //  { path: 'name', offset: 3, size: undefined, type: 'cstring(ascii)' }]
 * ```
 */
export function layoutOf(codec: AnyCodec): LayoutRow[] {
  const out: LayoutRow[] = [];
  const join = (prefix: string, key: string) => (prefix === '' ? key : key === '' ? prefix : `${prefix}.${key}`);
  const walk = (c: AnyCodec, path: string, offset: number | undefined): void => {
    const def = c.def;
    switch (def.type) {
      case 'struct': {
        let at = offset;
        // Rows follow the bytes: a `reordered` struct's stored order, else declaration order.
        const order = def.stored?.map((n) => def.fields.find((f) => f.name === n)!) ?? def.fields;
        for (const field of order) {
          const name = join(path, field.name);
          if (typeof field.spec === 'function') {
            out.push({ path: name, offset: at, size: undefined, type: 'depends on earlier fields' });
            at = undefined;
          } else {
            walk(field.spec, name, at);
            at = at === undefined || field.spec.size === undefined ? undefined : at + field.spec.size;
          }
        }
        return;
      }
      case 'bits':
        for (const f of def.fields)
          out.push({
            path: join(path, f.name),
            offset,
            size: undefined,
            bits: { at: f.at, width: f.width, order: def.order },
            type: `u${f.width}`,
          });
        return;
      case 'checksum': {
        const digest = { path: join(path, def.algorithm.name), size: def.stored.size, type: typeNameOf(def.stored) };
        if (def.position === 'before') {
          out.push({ ...digest, offset });
          walk(
            def.body,
            path,
            offset === undefined || def.stored.size === undefined ? undefined : offset + def.stored.size,
          );
        } else {
          walk(def.body, path, offset);
          out.push({
            ...digest,
            offset: offset === undefined || def.body.size === undefined ? undefined : offset + def.body.size,
          });
        }
        return;
      }
      case 'sized':
        if (def.size.type === 'fixed') {
          walk(def.body, path, offset);
          return;
        }
        out.push({ path, offset, size: c.size, type: typeNameOf(c) });
        return;
      case 'map':
        walk(def.stored, path, offset);
        return;
      case 'provide':
        walk(def.codec, path, offset);
        return;
      case 'int':
      case 'float':
      case 'magic':
      case 'literal':
      case 'fourcc':
      case 'string':
      case 'bytes':
      case 'array':
      case 'optional':
      case 'nothing':
      case 'padding':
      case 'taggedUnion':
      case 'chunk':
      case 'chunkList':
      case 'transform':
      case 'pointer':
      case 'arena':
      case 'lazy':
      case 'graphImage':
      case 'instance':
      case 'fromContext':
      case 'fallback':
      case 'switchOn':
      case 'custom':
        out.push({ path, offset, size: c.size, type: typeNameOf(c) });
        return;
      default:
        unreachableDef(def);
    }
  };
  walk(codec, '', 0);
  return out;
}
