/**
 * Byte layouts read off codec definitions: a readable type for any codec ({@link typeNameOf}) and
 * the rows of a layout table ({@link layoutOf}) — offsets, sizes, field paths and types — so
 * documentation is generated from the declarations and cannot drift from them. Both switch over
 * `codec.def` exhaustively.
 *
 * @module
 */
import type { AnyCodec } from './codec.js';
import { unreachableDef, type CodecDef, type DefCount } from './def.js';
import { isRebuild } from './rebuild.js';

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
    case 'switch': {
      const keys = def.cases.map((c) => JSON.stringify(c.key));
      return `${def.tag === 'shown' ? 'lookahead' : 'switchOn'}(${typeNameOf(def.selector)}: ${keys.join(' | ')}${def.otherwise === undefined ? '' : ' | *'})`;
    }
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
    case 'bytesUntil':
      return `bytes until ${typeNameOf(def.lead)}`;
    case 'windowsAt':
      return `${typeNameOf(def.offset)}[${def.count}] → ${typeNameOf(def.block)} to the next offset`;
    case 'directory':
      return `directory(${typeNameOf(def.entry)}[${def.count}] + bodies)`;
    case 'rebuild':
      return `${typeNameOf(def.codec)}, computed on write`;
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
  /**
   * What the row's value is made of that has a layout of its own (see {@link partsOf}): the variants
   * of a tagged union or a switch, the known chunks of a chunk list, an array's element … Empty for
   * a row that is all there is to say.
   */
  readonly parts: ReadonlyArray<LayoutPart>;
}

/** A codec a layout row holds, under the tag, marker or role that leads to it. */
export interface LayoutPart {
  /** The tag, marker or case key (`"LIST"`, `1`), or the role: `element`, `body`, `target`, `otherwise` … */
  readonly key: string;
  readonly codec: AnyCodec;
}

/** Cases, and the `otherwise` codec after them when there is one. */
function withOtherwise(cases: LayoutPart[], otherwise: AnyCodec | undefined): LayoutPart[] {
  return otherwise === undefined ? cases : [...cases, { key: 'otherwise', codec: otherwise }];
}

/** The codecs that wrap one other codec, which is their one layout part. */
type WrapperDef = Extract<
  CodecDef,
  { type: 'array' | 'optional' | 'sized' | 'transform' | 'pointer' | 'arena' | 'provide' | 'directory' }
>;

/** The fields of a def that hold a codec. */
type CodecField<D> = { [K in keyof D]: D[K] extends AnyCodec ? K : never }[keyof D];

/**
 * Each wrapper's part: the role it is listed under, and the field of the def holding it. A directory's
 * bodies are chosen by their entries: the entry is its fixed part.
 */
const WRAPPED: { readonly [T in WrapperDef['type']]: readonly [string, CodecField<Extract<WrapperDef, { type: T }>>] } =
  {
    array: ['element', 'element'],
    optional: ['value', 'codec'],
    sized: ['body', 'body'],
    transform: ['decoded', 'codec'],
    pointer: ['target', 'target'],
    arena: ['root', 'root'],
    provide: ['value', 'codec'],
    directory: ['entry', 'entry'],
  };

function wrappedPart(def: WrapperDef): LayoutPart {
  const [key, field] = WRAPPED[def.type];
  // The table's type ties each field to its own def type; indexing by it needs the correlation spelt out.
  return { key, codec: (def as unknown as Record<string, AnyCodec>)[field as string]! };
}

/**
 * The codecs a codec's value is made of that a layout row does not expand: the cases of a container
 * (tagged union, switch, chunk list), and what a one-row codec wraps (an array's element, a chunk's
 * body, a pointer's target, a transformed or optional codec). A docs generator gives each its own
 * table and links the row to them; structures laid out in place (struct fields, bit fields, checksum
 * and fixed-window bodies, mapped values) are not parts, they are rows.
 */
export function partsOf(codec: AnyCodec): LayoutPart[] {
  const def = codec.def;
  switch (def.type) {
    case 'taggedUnion':
      return withOtherwise(
        def.variants.map((v) => ({ key: String(v.tag), codec: v.codec })),
        def.otherwise,
      );
    case 'switch':
      return withOtherwise([...def.cases], def.otherwise);
    case 'chunkList':
      return def.known.map((k) => ({ key: k.marker, codec: k.codec }));
    case 'chunk':
      return [{ key: def.marker, codec: def.body }];
    case 'array':
    case 'optional':
    case 'sized':
    case 'transform':
    case 'pointer':
    case 'arena':
    case 'provide':
    case 'directory':
      return [wrappedPart(def)];
    case 'lazy':
      return [{ key: 'resolved', codec: def.resolve() }];
    case 'windowsAt':
      return [{ key: 'block', codec: def.block }];
    case 'bytesUntil':
      // The lead belongs to what follows: the value is bytes.
      return [];
    case 'custom':
      return def.model === undefined ? [] : [{ key: 'model', codec: def.model }];
    case 'fallback':
      return [
        { key: 'primary', codec: def.primary },
        { key: 'secondary', codec: def.secondary },
      ];
    case 'rebuild':
      // The stored codec is said by the row's type.
      return [];
    case 'fromContext':
      // The codec is chosen by a value read earlier in the file: no fixed part to list.
      return [];
    case 'int':
    case 'float':
    case 'bits':
    case 'magic':
    case 'literal':
    case 'fourcc':
    case 'string':
    case 'bytes':
    case 'struct':
    case 'nothing':
    case 'padding':
    case 'map':
    case 'checksum':
    case 'graphImage':
    case 'instance':
      return [];
    default:
      return unreachableDef(def);
  }
}

/**
 * The rows of a codec's layout table: structures are flattened into dotted paths, bit fields get a
 * row each, the bodies of checksums, fixed-size windows and mapped values are laid out in place (the
 * digest after or before them); every other codec is one row — a container (tagged union, switch,
 * chunk list) too, with its cases in the row's `parts`.
 *
 * @example
 * ```ts
 * layoutOf(struct({ id: u16le, flags: bits({ a: 1, b: 7 }, { order: 'lsb' }), name: cstring('ascii') }));
 * // [{ path: 'id', offset: 0, size: 2, type: 'u16le', parts: [] },
 * //  { path: 'flags.a', offset: 2, size: undefined, bits: { at: 0, width: 1, order: 'lsb' }, type: 'u1', parts: [] }, …,
 * //  { path: 'name', offset: 3, size: undefined, type: 'cstring(ascii)', parts: [] }]
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
          if (isRebuild(field.spec)) {
            // A function of the parent only to compute it on write: its bytes are its codec's.
            const stored = field.spec.rebuild.field;
            walk(stored, name, at);
            at = at === undefined || stored.size === undefined ? undefined : at + stored.size;
          } else if (typeof field.spec === 'function') {
            out.push({ path: name, offset: at, size: undefined, type: 'depends on earlier fields', parts: [] });
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
            parts: [],
          });
        return;
      case 'checksum': {
        const digest = {
          path: join(path, def.algorithm.name),
          size: def.stored.size,
          type: typeNameOf(def.stored),
          parts: [],
        };
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
        out.push({ path, offset, size: c.size, type: typeNameOf(c), parts: partsOf(c) });
        return;
      case 'map':
        walk(def.stored, path, offset);
        return;
      case 'provide':
        walk(def.codec, path, offset);
        return;
      case 'directory': {
        // The entries' fields (the first entry's offsets), then the bodies they place.
        const each = `${path}[]`;
        walk(def.entry, each, offset);
        out.push({
          path: join(each, 'body'),
          offset: undefined,
          size: undefined,
          type: `body at ${def.place.offset}, ${def.place.length} bytes`,
          parts: [],
        });
        return;
      }
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
      case 'switch':
      case 'chunk':
      case 'chunkList':
      case 'transform':
      case 'pointer':
      case 'arena':
      case 'windowsAt':
      case 'bytesUntil':
      case 'lazy':
      case 'rebuild':
      case 'graphImage':
      case 'instance':
      case 'fromContext':
      case 'fallback':
      case 'custom':
        out.push({ path, offset, size: c.size, type: typeNameOf(c), parts: partsOf(c) });
        return;
      default:
        unreachableDef(def);
    }
  };
  walk(codec, '', 0);
  return out;
}

/** A layout table of {@link layoutTables}: a codec's rows under a name. */
export interface LayoutTable {
  /** The name it was given, or for a part, where it is met: `header.entries:element`, `chunks:Vari`. */
  readonly name: string;
  readonly codec: AnyCodec;
  readonly rows: ReadonlyArray<LayoutRow>;
}

/**
 * Whether a part needs a table of its own: it is a structure or holds one. A part whose layout is a
 * single row of itself (`u16le`, `cstring(ascii)`) is said in full by its type on the row that holds it.
 */
function hasLayout(codec: AnyCodec, rows: ReadonlyArray<LayoutRow>): boolean {
  return codec.def.type === 'struct' || rows.length > 1 || rows.some((row) => row.parts.length > 0);
}

/**
 * The layout tables that describe `codecs` completely: one per named codec, in the order given, then
 * one per part a row holds that has a layout of its own (the cases of tagged unions, switches and
 * chunk lists, array elements, pointer targets …), found transitively — each codec once, so shared
 * and recursive codecs end. Every row's parts are then either a table of this list or said by their
 * type. Generators of documentation link a row's parts to the tables of the same codecs.
 *
 * @example
 * ```ts
 * const entry = struct({ id: u16le, name: cstring('ascii') });
 * layoutTables({ file: struct({ count: u8, entries: array(entry, 'rest') }) }).map((t) => t.name);
 * // ['file', 'file.entries:element']
 * ```
 */
export function layoutTables(codecs: Readonly<Record<string, AnyCodec>>): LayoutTable[] {
  const tables: LayoutTable[] = [];
  const seen = new Set<AnyCodec>();
  const queue: Array<{ name: string; codec: AnyCodec; named: boolean }> = Object.entries(codecs).map(
    ([name, codec]) => ({ name, codec, named: true }),
  );
  // Breadth first and iterative: nesting as deep as a format's declarations needs no stack.
  for (let i = 0; i < queue.length; i++) {
    const { name, codec, named } = queue[i]!;
    if (seen.has(codec)) continue;
    const rows = layoutOf(codec);
    if (!named && !hasLayout(codec, rows)) continue;
    seen.add(codec);
    tables.push({ name, codec, rows });
    for (const row of rows)
      for (const part of row.parts)
        queue.push({
          name: `${row.path === '' ? name : `${name}.${row.path}`}:${part.key}`,
          codec: part.codec,
          named: false,
        });
  }
  return tables;
}
