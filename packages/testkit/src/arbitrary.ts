/**
 * fast-check arbitraries derived from core codecs, so a plugin gets property tests without writing
 * generators: every value an arbitrary produces is one the codec can encode.
 *
 * @module
 */
import fc from 'fast-check';
import {
  CP437_UPPER,
  encode,
  type AnyCodec,
  type Codec,
  type CountSpec,
  type EncodingName,
  type FieldSpec,
  type GraphImage,
} from '@savekit/core';

/** Options of {@link arbitrary}. */
export interface ArbitraryOptions {
  /** Longest strings, byte runs and variable arrays (default 8). */
  readonly maxLength?: number;
  /** How deep `lazy` recursion goes before arrays must be empty (default 3). */
  readonly maxDepth?: number;
  /** Arbitraries for codecs the kit cannot derive one for (custom codecs), by codec. */
  readonly overrides?: ReadonlyMap<AnyCodec, fc.Arbitrary<unknown>>;
}

const text = (encoding: EncodingName, maxLength: number, allowNul: boolean): fc.Arbitrary<string> => {
  const min = allowNul ? 0 : 1;
  switch (encoding) {
    case 'ascii':
      return fc.string({ unit: fc.integer({ min, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength });
    case 'cp437':
      return fc.string({
        unit: fc.integer({ min, max: 0xff }).map((b) => (b < 0x80 ? String.fromCharCode(b) : CP437_UPPER[b - 0x80]!)),
        maxLength,
      });
    case 'utf8':
      return fc.string({ unit: 'grapheme', maxLength }).map((s) => (allowNul ? s : s.replace(/\0/g, '')));
  }
};

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

function intRange(min: number, max: number): fc.Arbitrary<number> {
  // fc.integer is 32-bit; wider ranges go through bigint.
  if (min >= -0x80000000 && max <= 0x7fffffff) return fc.integer({ min, max });
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

function countRange(spec: CountSpec, maxLength: number): { minLength: number; maxLength: number } {
  if (typeof spec === 'number') return { minLength: spec, maxLength: spec };
  if (spec === 'rest') return { minLength: 0, maxLength };
  const max = typeof spec.meta.max === 'number' ? spec.meta.max : maxLength;
  return { minLength: 0, maxLength: Math.min(maxLength, max) };
}

function encodesTo(codec: AnyCodec, size: number) {
  return (value: unknown) => {
    const bytes = encode(codec, value as never);
    return bytes._tag === 'Right' && bytes.right.length === size;
  };
}

/** Consistent graph images: up to `max` objects, references within range, externals by name. */
function graphImages(max: number): fc.Arbitrary<GraphImage> {
  const object = (count: number, externals: number) =>
    fc.record({
      kind: fc.integer({ min: 0, max: 2 }),
      size: fc.integer({ min: 0, max: 1000 }),
      refs: fc.array(fc.integer({ min: -externals, max: count }), { maxLength: 4 }),
      segments: fc.array(fc.uint8Array({ maxLength: 8 }), { maxLength: 3 }),
    });
  return fc
    .record({ count: fc.integer({ min: 0, max: max * 2 }), externals: fc.integer({ min: 0, max: 2 }) })
    .chain(({ count, externals }) =>
      fc
        .record({
          objects: fc.array(object(count, externals), { minLength: count, maxLength: count }),
          roots: fc.array(fc.integer({ min: 0, max: count }), { maxLength: 3 }),
        })
        .map(({ objects, roots }) => {
          const segments = objects.flatMap((o) => o.segments);
          const refStart = new Uint32Array(count + 1);
          const segStart = new Uint32Array(count + 1);
          const dataStart = new Uint32Array(segments.length + 1);
          objects.forEach((o, i) => {
            refStart[i + 1] = refStart[i]! + o.refs.length;
            segStart[i + 1] = segStart[i]! + o.segments.length;
          });
          segments.forEach((s, i) => {
            dataStart[i + 1] = dataStart[i]! + s.length;
          });
          const data = new Uint8Array(dataStart[segments.length]!);
          segments.forEach((s, i) => {
            data.set(s, dataStart[i]!);
          });
          return {
            roots,
            kinds: ['node', 'LUA\0', 'DATA'],
            kindOf: Uint32Array.from(objects, (o) => o.kind),
            sizes: Uint32Array.from(objects, (o) => o.size),
            refStart,
            refs: Int32Array.from(objects.flatMap((o) => o.refs)),
            segStart,
            dataStart,
            data,
            externals: Array.from({ length: externals }, (_, i) => `external${i}`),
          };
        }),
    );
}

/**
 * An arbitrary of values `codec` can encode, derived from the codec tree: integers over their
 * range, floats (−0, infinities and NaN included), strings in their encoding's alphabet, bit fields,
 * structs (dependent fields too), arrays, tagged unions, chunk lists with unknown chunks, pointers,
 * bounded recursion through `lazy`, and values seen through `map`.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { arbitrary } from '@savekit/testkit';
 * fc.assert(fc.property(arbitrary(header), (value) => { … }));
 * ```
 */
export function arbitrary<A>(codec: Codec<A>, options: ArbitraryOptions = {}): fc.Arbitrary<A> {
  const maxLength = options.maxLength ?? 8;
  const maxDepth = options.maxDepth ?? 3;
  const build = (c: AnyCodec, depth: number): fc.Arbitrary<unknown> => {
    const override = options.overrides?.get(c);
    if (override !== undefined) return override;
    // biome-ignore lint/suspicious/noExplicitAny: each kind's parameters (`meta`) are read by that kind's case below
    const m = c.meta as Record<string, any>;
    const child = (key: string | number) => c.children.find((k) => k.key === key)?.codec as AnyCodec;
    const limit = depth >= maxDepth ? 0 : maxLength;
    switch (c.kind) {
      case 'int':
        return m.bits === 64 ? fc.bigInt({ min: m.min, max: m.max }) : intRange(m.min, m.max);
      case 'float':
        return m.bits === 32 ? fc.float({ noDefaultInfinity: false }).map(Math.fround) : fc.double();
      case 'bits': {
        const record: Record<string, fc.Arbitrary<number>> = {};
        for (const f of m.fields as Array<{ name: string; width: number }>)
          record[f.name] = intRange(0, 2 ** f.width - 1);
        return fc.record(record);
      }
      case 'magic':
        return fc.constantFrom(...(m.alternatives as string[]));
      case 'literal':
        return fc.constantFrom(...(m.values as unknown[]));
      case 'fourcc':
        return m.alnum
          ? fc.stringMatching(/^[A-Za-z0-9]{4}$/)
          : fc
              .array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })
              .map((codes) => String.fromCharCode(...codes));
      case 'cstring':
        return text(m.encoding, maxLength, false);
      case 'pstring': {
        const lengthMax = typeof m.lengthCodec?.meta?.max === 'number' ? m.lengthCodec.meta.max : Infinity;
        return text(m.encoding, maxLength, true).filter(
          (s) => (m.encoding === 'utf8' ? utf8Length(s) : s.length) <= lengthMax,
        );
      }
      case 'fixedString': {
        const size = c.size as number;
        return text(m.encoding, Math.min(size, maxLength * 2), false).filter((s) => {
          const length = m.encoding === 'utf8' ? utf8Length(s) : s.length;
          return length <= size && (m.pad === 0 || s.length === 0 || s.charCodeAt(s.length - 1) !== m.pad);
        });
      }
      case 'bytes':
        return fc.uint8Array(countRange(m.countSpec, maxLength * 4));
      case 'struct': {
        const names = m.fields as string[];
        const specs = m.specs as FieldSpec[];
        const dependent = specs.some((s) => typeof s === 'function');
        if (!dependent) {
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          names.forEach((name, i) => {
            record[name] = build(specs[i] as AnyCodec, depth);
          });
          return fc.record(record);
        }
        // A field may depend on the ones before it: generate them in order.
        let value: fc.Arbitrary<Record<string, unknown>> = fc.constant({});
        names.forEach((name, i) => {
          const spec = specs[i]!;
          value = value.chain((partial) =>
            build(typeof spec === 'function' ? spec(partial) : spec, depth).map((v) => ({ ...partial, [name]: v })),
          );
        });
        return value;
      }
      case 'array': {
        const element = child('[]');
        const range = countRange(m.countSpec, limit);
        if (m.countSpec === 'rest' && element.minSize === 0) return fc.constant([]);
        return fc.array(build(element, depth), range);
      }
      case 'optional':
        return fc.option(build(child('value'), depth), { nil: undefined });
      case 'aligned':
        return build(child('value'), depth);
      case 'nothing':
      case 'align':
        return fc.constant(undefined);
      case 'padding':
        return fc.option(
          fc.uint8Array({ minLength: m.count, maxLength: m.count }).filter((b) => b.some((x) => x !== m.fill)),
          { nil: undefined, freq: 4 },
        );
      case 'taggedUnion': {
        const tagCodec = child('tag');
        const variants = m.variants as Record<string, AnyCodec>;
        const members: fc.Arbitrary<{ tag: unknown; value: unknown }>[] = Object.keys(variants).map((key) =>
          build(variants[key]!, depth).map((value) => ({ tag: tagCodec.kind === 'int' ? Number(key) : key, value })),
        );
        if (m.otherwise !== undefined) {
          const known = new Set((m.tags as unknown[]).map(String));
          members.push(
            fc.record({
              tag: build(tagCodec, depth).filter((t: unknown) => !known.has(String(t))),
              value: build(m.otherwise, depth),
            }),
          );
        }
        return fc.oneof(...members);
      }
      case 'lazy':
        // Deferred, so building the arbitrary of a recursive codec terminates.
        return fc.constant(null).chain(() => build((m.resolve as () => AnyCodec)(), depth + 1));
      case 'map': {
        const bijection = m.bijection as { decode: (a: unknown) => unknown };
        const decodes = (stored: unknown) => {
          try {
            bijection.decode(stored);
            return true;
          } catch {
            return false;
          }
        };
        return build(child('stored'), depth)
          .filter(decodes)
          .map((stored) => bijection.decode(stored));
      }
      case 'sized': {
        const body = build(child('body'), depth);
        return typeof m.sizeSpec === 'number' ? body.filter(encodesTo(child('body'), m.sizeSpec)) : body;
      }
      case 'chunk':
        return fc.record({ id: fc.constant(m.marker), body: build(child(m.marker), depth) });
      case 'chunkList': {
        const known = m.known as Record<string, AnyCodec>;
        const framing = m.framing as { marker: AnyCodec; align?: number; padCounted?: boolean };
        const align = framing.align ?? 1;
        const taken = new Set<unknown>([...Object.keys(known), ...(m.until as string[])]);
        const raw = fc.record({
          id: build(framing.marker, depth).filter((id) => !taken.has(id)),
          raw: fc
            .uint8Array({ maxLength: maxLength * 4 })
            .map((b) => (framing.padCounted === false ? b : b.subarray(0, b.length - (b.length % align)))),
        });
        const entries = [
          ...Object.keys(known).map((id) => fc.record({ id: fc.constant(id), body: build(known[id]!, depth) })),
          raw,
        ];
        return fc.array(fc.oneof(...entries), { maxLength: limit });
      }
      case 'transform': {
        const inner = build(c.children[0]!.codec, depth);
        return m.keeps ? inner.map((value) => ({ value })) : inner;
      }
      case 'checksum':
        return build(child('value'), depth);
      case 'pointer': {
        const target = fc.record({ target: build(child('target'), depth) });
        return m.nullOffset === undefined ? target : fc.option(target, { nil: null });
      }
      case 'arena':
        return fc.record({ root: build(child('root'), depth), unclaimed: fc.constant([]) });
      case 'graphImage':
        return graphImages(limit);
      default:
        throw new Error(
          `no arbitrary can be derived for codec ${c.name} (kind ${c.kind}); pass one in options.overrides`,
        );
    }
  };
  return build(codec as AnyCodec, 0) as fc.Arbitrary<A>;
}
