/**
 * What input fits a leaf of a document: found from the format's codec where it has one (an integer's
 * range, a string's encoding and size, a bit field's width, an io-ts enum's names), else from the
 * leaf's value. And the reverse: an input's text as the leaf's value.
 *
 * @module
 */
import { type AnyCodec, type AnySaveFormat, fromHex, toHex } from '@savekit/core';
import type { LeafKind } from './protocol.js';

/** Codecs whose children are alternatives or wrappers: a path segment may pass through them unconsumed. */
const PASS_THROUGH = new Set([
  'taggedUnion',
  'switch',
  'union',
  'fallback',
  'optional',
  'sized',
  'transform',
  'checksum',
  'chunk',
  'map',
  'rebuild',
  'provide',
  'pointer',
  'arena',
  'lazy',
  'custom',
]);

/**
 * The codecs that may read the value at `path` (a breadth-first walk over the codec's children,
 * bounded so a recursive codec cannot loop).
 */
export function codecsAt(root: AnyCodec, path: ReadonlyArray<string | number>): AnyCodec[] {
  const found: AnyCodec[] = [];
  const seen = new Set<string>();
  const ids = new Map<AnyCodec, number>();
  const queue: Array<[AnyCodec, number]> = [[root, 0]];
  let steps = 0;
  while (queue.length > 0 && steps++ < 5000) {
    const [codec, at] = queue.shift()!;
    if (!ids.has(codec)) ids.set(codec, ids.size);
    const key = `${ids.get(codec)}:${at}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (at === path.length) found.push(codec);
    const children = codec.children ?? [];
    const segment = path[at];
    for (const child of children) {
      if (at < path.length && (child.key === segment || (child.key === '[]' && typeof segment === 'number')))
        queue.push([child.codec, at + 1]);
    }
    if (PASS_THROUGH.has(codec.def?.type) || children.length === 1)
      for (const child of children) if (child.key !== segment) queue.push([child.codec, at]);
  }
  return found;
}

/** The names of an io-ts enum (`t.keyof`, or a union of literals), if the type is one. */
function enumNames(type: unknown): string[] | undefined {
  const t = type as {
    _tag?: string;
    keys?: Record<string, unknown>;
    types?: Array<{ _tag?: string; value?: unknown }>;
  };
  if (t?._tag === 'KeyofType' && t.keys) return Object.keys(t.keys);
  if (t?._tag === 'UnionType' && t.types?.every((m) => m._tag === 'LiteralType' && typeof m.value === 'string'))
    return t.types.map((m) => m.value as string);
  return undefined;
}

/** Bytes longer than this are shown, not edited in a text box (a 50 MB entry would be 100 MB of hex). */
const MAX_EDITABLE_BYTES = 64 * 1024;

/** The input for the leaf at `path` whose value is `value`. */
export function leafKind(format: AnySaveFormat, path: ReadonlyArray<string | number>, value: unknown): LeafKind {
  if (value instanceof Uint8Array && value.length > MAX_EDITABLE_BYTES)
    return { kind: 'readonly', reason: `${value.length.toLocaleString('en')} bytes: too long to edit as hex here` };
  if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array))
    return { kind: 'readonly', reason: `${value.constructor.name}: shown, not edited` };
  const root = (format as { codec?: AnyCodec }).codec;
  const candidates = root === undefined ? [] : codecsAt(root, path);
  if (root !== undefined && path.length > 0) {
    // A bit field of one bit is a flag: its group (the parent) names it.
    for (const parent of codecsAt(root, path.slice(0, -1))) {
      const def = parent.def as { type: string; fields?: Array<{ name: string; width: number }> };
      if (def.type === 'bits') {
        const field = def.fields?.find((f) => f.name === path[path.length - 1]);
        if (field !== undefined)
          return field.width === 1 ? { kind: 'flag' } : { kind: 'int', min: 0, max: 2 ** field.width - 1 };
      }
    }
  }
  for (const codec of candidates) {
    const names = enumNames(codec.json);
    if (names !== undefined && typeof value === 'string') return { kind: 'enum', names };
    const def = codec.def as unknown as Record<string, unknown> & { type: string };
    if (def.type === 'int' && typeof value === 'number')
      return { kind: 'int', min: def.min as number, max: def.max as number };
    if (def.type === 'int' && typeof value === 'bigint')
      return { kind: 'bigint', min: String(def.min), max: String(def.max) };
    if (def.type === 'float') return { kind: 'float' };
    if (def.type === 'string' && typeof value === 'string') {
      const termination = def.termination as { type: string; size?: number };
      return {
        kind: 'text',
        encoding: def.encoding as string,
        ...(termination.type === 'fixed' ? { maxBytes: termination.size } : {}),
      };
    }
    if (def.type === 'bytes' && value instanceof Uint8Array) {
      const count = def.count as { type: string; count?: number };
      return { kind: 'bytes', ...(count.type === 'fixed' ? { size: count.count } : {}) };
    }
  }
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (typeof value === 'bigint') return { kind: 'bigint', min: String(-(2n ** 63n)), max: String(2n ** 64n - 1n) };
  if (value instanceof Uint8Array) return { kind: 'bytes' };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { kind: 'int', min: -(2 ** 53), max: 2 ** 53 } : { kind: 'float' };
  if (typeof value === 'string') return { kind: 'text' };
  return { kind: 'json' };
}

/** The text an input starts with for a leaf's value. */
export function leafText(kind: LeafKind, value: unknown): string {
  if (kind.kind === 'readonly') return '';
  if (kind.kind === 'flag') return value === 1 || value === true ? '1' : '0';
  if (value instanceof Uint8Array) return toHex(value);
  if (typeof value === 'bigint') return String(value);
  if (Object.is(value, -0)) return '-0';
  if (typeof value === 'number') return String(value);
  if (kind.kind === 'json') return JSON.stringify(value) ?? 'null';
  return typeof value === 'string' ? value : String(value);
}

/**
 * An input's text as the leaf's value, or the reason it cannot be one. The codec has the last
 * word (the edit is encoded before it is accepted); this only refuses what is not even the right kind.
 */
export function parseLeaf(kind: LeafKind, text: string): { value: unknown } | { error: string } {
  switch (kind.kind) {
    case 'int': {
      if (!/^\s*[-+]?\d+\s*$/.test(text)) return { error: `not an integer: ${JSON.stringify(text)}` };
      const n = Number(text);
      if (n < kind.min || n > kind.max) return { error: `out of range: ${n} is not within ${kind.min}…${kind.max}` };
      return { value: n };
    }
    case 'bigint': {
      if (!/^\s*-?\d+\s*$/.test(text)) return { error: `not an integer: ${JSON.stringify(text)}` };
      const n = BigInt(text.trim());
      if (n < BigInt(kind.min) || n > BigInt(kind.max))
        return { error: `out of range: ${n} is not within ${kind.min}…${kind.max}` };
      return { value: n };
    }
    case 'float': {
      const t = text.trim();
      if (t === 'NaN' || t === 'Infinity' || t === '-Infinity') return { value: Number(t) };
      if (t === '-0') return { value: -0 };
      const n = Number(t);
      if (t === '' || Number.isNaN(n)) return { error: `not a number: ${JSON.stringify(text)}` };
      return { value: n };
    }
    case 'enum':
      return kind.names.includes(text) ? { value: text } : { error: `not one of ${kind.names.join(', ')}` };
    case 'flag':
      return { value: text === '1' || text === 'true' ? 1 : 0 };
    case 'boolean':
      return { value: text === '1' || text === 'true' };
    case 'text':
      return { value: text };
    case 'bytes': {
      const hex = text.replace(/\s+/g, '').toLowerCase();
      if (!/^([0-9a-f]{2})*$/.test(hex)) return { error: 'bytes are pairs of hex digits' };
      if (kind.size !== undefined && hex.length !== kind.size * 2)
        return { error: `exactly ${kind.size} bytes, not ${hex.length / 2}` };
      return { value: fromHex(hex) ?? new Uint8Array() };
    }
    case 'readonly':
      return { error: kind.reason };
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
  }
}
