/**
 * fast-check arbitraries derived from core codecs, so a plugin gets property tests without writing
 * generators: every value an arbitrary produces is one the codec can encode.
 *
 * @module
 */
import fc from 'fast-check';
import { chunk, contextValue, encode, type AnyCodec, type Codec, type EncodingName } from '@savekit/core';
import {
  CP437_UPPER,
  DEFAULT_MAX_DEPTH,
  isRebuild,
  Writer,
  WriteState,
  unreachableDef,
  type DefCount,
  type DefInstance,
} from '@savekit/core/kit';
import type { GraphImage } from '@savekit/core/graph';

/** Options of {@link arbitrary}. */
export interface ArbitraryOptions {
  /** Longest strings, byte runs and variable arrays (default 8). */
  readonly maxLength?: number;
  /** How deep `lazy` recursion goes before arrays must be empty (default 3). */
  readonly maxDepth?: number;
  /**
   * Arbitraries by codec, used instead of deriving one. Custom codecs (`def.type === 'custom'`) need
   * one unless their definition carries a `model` codec or `samples`.
   */
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

/** The largest number a count or length codec can write, when its definition says. */
function largest(codec: Codec<number>): number {
  const def = codec.def;
  return def.type === 'int' && def.bits !== 64 ? def.max : Number.POSITIVE_INFINITY;
}

function countRange(count: DefCount, maxLength: number): { minLength: number; maxLength: number } {
  switch (count.type) {
    case 'fixed':
      return { minLength: count.count, maxLength: count.count };
    case 'rest':
      return { minLength: 0, maxLength };
    case 'prefix':
      return { minLength: 0, maxLength: Math.min(maxLength, largest(count.codec)) };
    default:
      return unreachableDef(count);
  }
}

/** Whether `value` encodes with `codec` in at most `most` bytes. */
function fitsIn(codec: AnyCodec, value: unknown, most: number): boolean {
  const bytes = encode(codec, value as never);
  return bytes._tag === 'Right' && bytes.right.length <= most;
}

function encodesTo(codec: AnyCodec, size: number) {
  return (value: unknown) => {
    const bytes = encode(codec, value as never);
    return bytes._tag === 'Right' && bytes.right.length === size;
  };
}

/**
 * The least bytes a value of `codec` takes, pointer targets included (a codec's `minSize` counts
 * only the bytes in line: a pointer's is its offset's). Recursion (`lazy`) is not followed.
 */
function leastBytes(codec: AnyCodec, depth = 0): number {
  if (depth > 8 || codec.def.type === 'lazy') return codec.minSize;
  let targets = 0;
  for (const child of codec.children) {
    const inner = leastBytes(child.codec, depth + 1);
    targets += codec.def.type === 'pointer' && child.key === 'target' ? inner : inner - child.codec.minSize;
  }
  return codec.minSize + targets;
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
 * Values of self-describing instances: each field of the file's definition, kept fields under
 * `$kept`, fields the file lacks at their defaults — the shape `instanceCodec` reads.
 */
function instances(def: DefInstance, element: (codec: AnyCodec) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const elements = def.elements();
  const fields = def.plan.fields.map((f, i) =>
    fc
      .array(element(elements[i]!), { minLength: f.def.count, maxLength: f.def.count })
      .map((values) => ({ f, values })),
  );
  return fc.tuple(...fields).map((all) => {
    const out: Record<string, unknown> = {};
    const kept: Record<string, unknown> = {};
    for (const { f, values } of all) {
      const name = f.def.name;
      if (f.known === undefined) {
        kept[name] = f.def.count === 1 ? values[0] : values;
        continue;
      }
      const expected = f.known.count;
      const own = values.slice(0, f.keep);
      for (let i = own.length; i < expected; i++) own.push(f.known.default());
      out[name] = expected === 1 ? own[0] : own;
      if (values.length > expected) kept[name] = values.slice(expected);
    }
    for (const m of def.plan.missing)
      out[m.name] = m.count === 1 ? m.default() : Array.from({ length: m.count }, () => m.default());
    if (Object.keys(kept).length > 0) out.$kept = kept;
    return out;
  });
}

/** The integer definition of `codec` or of the model it declares, when it reads numbers of up to 48 bits. */
function integerDef(codec: AnyCodec): { min: number; max: number } | undefined {
  let def = codec.def;
  for (let i = 0; i < 8 && def.type === 'custom' && def.model !== undefined; i++) def = def.model.def;
  return def.type === 'int' && def.bits !== 64 ? { min: def.min, max: def.max } : undefined;
}

/**
 * The names of fields that a later dependent field reads, found by calling each dependent spec once
 * with a stand-in parent whose every field is 0 (a spec that throws has read what it read by then).
 * `rebuild` specs compute on write and are not called.
 */
function readByLater(fields: ReadonlyArray<{ readonly name: string; readonly spec: unknown }>): Set<string> {
  const read = new Set<PropertyKey>();
  const names = new Set(fields.map((f) => f.name));
  const standIn = new Proxy({} as Record<string, unknown>, {
    get(_, key) {
      read.add(key);
      return 0;
    },
  });
  for (const { spec } of fields) {
    if (typeof spec !== 'function' || isRebuild(spec)) continue;
    try {
      spec(standIn);
    } catch {
      // Read what it read before giving up.
    }
  }
  return new Set([...read].filter((key): key is string => typeof key === 'string' && names.has(key)));
}

/** `value` seen through a proxy that records which of its properties are read into `read`. */
function watched(value: Record<string, unknown>, read: Set<PropertyKey>): Record<string, unknown> {
  return new Proxy(value, {
    get(target, key, receiver) {
      read.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
}

// Built once: `fc.stringMatching` costs far more to build than to draw from, and a codec built per
// generated value (a dependent field's) would build it again for each.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM_FOURCC = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 4, maxLength: 4 });
const ANY_FOURCC = fc
  .array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })
  .map((codes) => String.fromCharCode(...codes));

/** No arbitrary can be derived for a codec: an error of the caller's declarations, never skipped. */
class NoArbitraryError extends Error {}

/**
 * A value `lazy` could not generate (too large, or nested too deep), known only while generating:
 * an array holding one is one itself, a struct field or list element holding one is skipped, and
 * one anywhere else fails to encode, so the chunk or case holding it is not kept.
 */
const UNGENERABLE: unique symbol = Symbol('ungenerable');

/** How much deeper than `maxDepth` self-describing instances may nest (structures inside structures). */
const MAX_INSTANCE_NESTING = 6;

/** A value would be too large to generate (a fixed count of millions): the part that needs it is skipped. */
class TooLargeError extends Error {}

/** Context values (see `provide`, `fromContext`) as the parts generated so far leave them. */
type Env = ReadonlyMap<unknown, unknown>;
const NO_CONTEXT: Env = new Map();

/** Whether a value is a codec. */
const isCodec = (u: unknown): u is AnyCodec =>
  typeof u === 'object' && u !== null && typeof (u as AnyCodec).read === 'function' && 'def' in u;

const PROVIDES = new WeakMap<AnyCodec, boolean>();

/**
 * Whether `codec`, or a codec inside it, provides context values (`provide`): then what follows it
 * must be generated knowing its value. Dependent struct fields and `lazy` are not followed.
 */
function providesContext(codec: AnyCodec): boolean {
  const known = PROVIDES.get(codec);
  if (known !== undefined) return known;
  PROVIDES.set(codec, false); // a cycle provides nothing new
  let found = codec.def.type === 'provide';
  if (!found && codec.def.type !== 'lazy') {
    const inner: AnyCodec[] = codec.children.map((child) => child.codec);
    for (const part of Object.values(codec.def)) {
      if (isCodec(part)) inner.push(part);
      else if (Array.isArray(part))
        for (const item of part) {
          if (isCodec(item)) inner.push(item);
          else if (typeof item === 'object' && item !== null)
            for (const v of Object.values(item)) if (isCodec(v)) inner.push(v);
        }
    }
    found = inner.some(providesContext);
  }
  PROVIDES.set(codec, found);
  return found;
}

/**
 * The context after `value` is written with `codec` in context `env` — the values its `provide`
 * codecs record — or `undefined` when it cannot be written there.
 */
function contextAfter(codec: AnyCodec, value: unknown, env: Env): Env | undefined {
  const writer = new Writer(new WriteState(DEFAULT_MAX_DEPTH), 64);
  for (const [key, v] of env) writer.state.context.set(key, v);
  try {
    codec.write(writer, value);
  } catch {
    return undefined;
  }
  return new Map(writer.state.context);
}

/**
 * Lists generated in order: each element is one of `choices(env)` — built for the context the
 * elements before it leave — so data generated after a definition is data of that definition.
 */
function inOrder(
  range: { minLength: number; maxLength: number },
  env: Env,
  choices: (env: Env) => ReadonlyArray<{ codec?: AnyCodec; arbitrary: fc.Arbitrary<unknown> }>,
): fc.Arbitrary<unknown[]> {
  const step = (done: unknown[], at: Env, left: number, need: number): fc.Arbitrary<unknown[] | undefined> => {
    if (left === 0) return fc.constant(done);
    const options = choices(at);
    if (options.length === 0) return fc.constant(need > 0 ? undefined : done);
    return fc.nat({ max: options.length - 1 }).chain((pick) => {
      const { codec, arbitrary: element } = options[pick]!;
      return element.chain((value) => {
        // An element without a codec (a raw chunk) leaves the context as it was.
        const next = codec === undefined ? at : contextAfter(codec, value, at);
        if (next === undefined) return fc.constant(undefined);
        return step([...done, value], next, left - 1, need - 1);
      });
    });
  };
  return fc
    .integer({ min: range.minLength, max: range.maxLength })
    .chain((count) => step([], env, count, range.minLength))
    .filter((list): list is unknown[] => list !== undefined);
}

/**
 * An arbitrary of values `codec` can encode, derived from its definition (`codec.def`): integers over
 * their range, floats (−0, infinities and NaN included), strings in their encoding's alphabet, bit
 * fields, structs (dependent fields too), arrays, tagged unions, chunk lists with unknown chunks,
 * pointers, checksummed and layered values, self-describing instances, bounded recursion through
 * `lazy`, and values seen through `map`. Every core definition has a case (the compiler checks);
 * a custom codec is derived from its definition's `model`, else its `samples`, else
 * `options.overrides`, else this throws naming it.
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
  /**
   * A first value of a `rebuild` field, for the fields after it to read: a small number for an
   * integer (counts and lengths, so what they count stays small), any value of its codec otherwise.
   */
  const provisional = (c: AnyCodec, depth: number, env: Env): fc.Arbitrary<unknown> => {
    const int = integerDef(c);
    if (int === undefined || options.overrides?.has(c)) return build(c, depth, env);
    const min = Math.max(int.min, 0);
    return min > int.max ? build(c, depth, env) : intRange(min, Math.min(int.max, min + maxLength));
  };
  /** A field a later field reads: an integer mostly small (sometimes any), anything else as derived. */
  const countLike = (c: AnyCodec, depth: number, env: Env): fc.Arbitrary<unknown> => {
    const any = build(c, depth, env);
    const int = integerDef(c);
    if (int === undefined || options.overrides?.has(c)) return any;
    const min = Math.max(int.min, 0);
    if (min > int.max) return any;
    const small = intRange(min, Math.min(int.max, min + maxLength));
    return fc.oneof({ arbitrary: small, weight: 4 }, { arbitrary: any, weight: 1 });
  };
  const build = (c: AnyCodec, depth: number, env: Env): fc.Arbitrary<unknown> => {
    const override = options.overrides?.get(c);
    if (override !== undefined) return override;
    const limit = depth >= maxDepth ? 0 : maxLength;
    const def = c.def;
    switch (def.type) {
      case 'int':
        return def.bits === 64 ? fc.bigInt({ min: def.min, max: def.max }) : intRange(def.min, def.max);
      case 'float': {
        const numbers = def.bits === 32 ? fc.float({ noDefaultInfinity: false }).map(Math.fround) : fc.double();
        if (def.nan === 'refuse') return numbers;
        // NaNs with a payload, as `{ nan }` with the hex of the bits (the quiet NaN stays a number).
        const digits = def.bits === 32 ? 8 : 16;
        const exponent = def.bits === 32 ? 0x7f800000n : 0x7ff0000000000000n;
        const fraction = def.bits === 32 ? 0x7fffffn : 0xfffffffffffffn;
        const quiet = def.bits === 32 ? 0x7fc00000n : 0x7ff8000000000000n;
        const payload = fc
          .record({ sign: fc.boolean(), bits: fc.bigInt({ min: 1n, max: fraction }) })
          .map(({ sign, bits }) => (sign ? 1n << BigInt(def.bits - 1) : 0n) | exponent | bits)
          .filter((raw) => raw !== quiet)
          .map((raw) => ({ nan: raw.toString(16).padStart(digits, '0') }));
        return fc.oneof({ arbitrary: numbers, weight: 4 }, { arbitrary: payload, weight: 1 });
      }
      case 'bits': {
        const record: Record<string, fc.Arbitrary<number>> = {};
        for (const f of def.fields) record[f.name] = intRange(0, 2 ** f.width - 1);
        return fc.record(record);
      }
      case 'magic':
        return fc.constantFrom(...def.alternatives);
      case 'literal':
        return fc.constantFrom(...def.values);
      case 'fourcc':
        return def.alnum ? ALNUM_FOURCC : ANY_FOURCC;
      case 'string': {
        const { encoding, termination } = def;
        const byteLength = (s: string) => (encoding === 'utf8' ? utf8Length(s) : s.length);
        switch (termination.type) {
          case 'nul':
            return text(encoding, maxLength, false);
          case 'prefix': {
            const lengthMax = largest(termination.length);
            return text(encoding, maxLength, true).filter((s) => byteLength(s) <= lengthMax);
          }
          case 'fixed': {
            const { size, pad } = termination;
            const plain = text(encoding, Math.min(size, maxLength * 2), false).filter(
              (s) => byteLength(s) <= size && (pad === 0 || s.length === 0 || s.charCodeAt(s.length - 1) !== pad),
            );
            if (termination.tail === 'refuse' || pad !== 0 || size < 2) return plain;
            // A kept tail: the NUL, then the rest of the field, not all zero (else it reads as plain text).
            const withTail = plain
              .filter((s) => byteLength(s) < size - 1)
              .chain((s) => {
                const rest = size - byteLength(s) - 1;
                return fc
                  .uint8Array({ minLength: rest, maxLength: rest })
                  .filter((b) => b.some((x) => x !== 0))
                  .map((b) => ({ text: s, tail: Uint8Array.of(0, ...b) }));
              });
            return fc.oneof({ arbitrary: plain, weight: 3 }, { arbitrary: withTail, weight: 1 });
          }
          default:
            return unreachableDef(termination);
        }
      }
      case 'bytes':
        return fc.uint8Array(countRange(def.count, maxLength * 4));
      case 'struct': {
        const dependent = def.fields.some((f) => typeof f.spec === 'function' || providesContext(f.spec));
        if (!dependent) {
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          for (const f of def.fields) record[f.name] = build(f.spec as AnyCodec, depth, env);
          return fc.record(record);
        }
        // A field may depend on the ones before it, or on what they provide to the context: generate
        // them in order. Earlier values for which the field has no codec (a negative count: the
        // choice throws) or one too large to generate (a count of 2^31) are skipped, as decoding
        // refuses the first and cannot meet the second.
        //
        // A `rebuild` field (a count, a length, an offset) is computed from the whole value: it is
        // drawn small first — later fields may read it, a count of the array that follows — and once
        // every field is there, computed as encoding computes it. A value is kept when every rebuilt
        // field a later field read computes to what that field saw (the count is the array's length).
        const tooLarge = maxLength * 64;
        type Partial =
          | { readonly value: Record<string, unknown>; readonly env: Env; readonly read: ReadonlySet<PropertyKey> }
          | undefined;
        let value: fc.Arbitrary<Partial> = fc.constant({ value: {}, env, read: new Set<PropertyKey>() });
        const rebuilt: Array<{ name: string; compute: (parent: unknown) => unknown }> = [];
        // Fields later fields read (a width and a height the pixels take their size from): drawn
        // mostly small, as a count over a 32-bit range would make what it counts too large to generate.
        const counts = readByLater(def.fields);
        for (const { name, spec } of def.fields) {
          if (isRebuild(spec)) {
            rebuilt.push({ name, compute: spec.rebuild.compute });
            const drawn = provisional(spec.rebuild.codec, depth, env);
            value = value.chain((partial) =>
              partial === undefined
                ? fc.constant(undefined)
                : drawn.map((v) => ({ ...partial, value: { ...partial.value, [name]: v } })),
            );
            continue;
          }
          value = value
            .chain((partial): fc.Arbitrary<Partial> => {
              if (partial === undefined) return fc.constant(undefined);
              let chosen: AnyCodec;
              let field: fc.Arbitrary<unknown>;
              const read = new Set(partial.read);
              try {
                chosen = typeof spec === 'function' ? spec(watched(partial.value, read)) : spec;
                if (leastBytes(chosen) > tooLarge) return fc.constant(undefined);
                field = counts.has(name) ? countLike(chosen, depth, partial.env) : build(chosen, depth, partial.env);
              } catch (error) {
                // A codec nothing can be derived from is reported; skipping would retry forever.
                if (error instanceof NoArbitraryError) throw error;
                return fc.constant(undefined);
              }
              const provides = providesContext(chosen);
              return field.map((v) => {
                if (v === UNGENERABLE) return undefined;
                const next = provides ? contextAfter(chosen, v, partial.env) : partial.env;
                return next === undefined ? undefined : { value: { ...partial.value, [name]: v }, env: next, read };
              });
            })
            .filter((partial) => partial !== undefined);
        }
        if (rebuilt.length === 0) return value.map((partial) => partial!.value);
        return value
          .map((partial) => {
            const out: Record<string, unknown> = { ...partial!.value };
            for (const { name, compute } of rebuilt) {
              const drawn = out[name];
              try {
                out[name] = compute(out);
              } catch {
                return undefined;
              }
              if (partial!.read.has(name) && !Object.is(out[name], drawn)) return undefined;
            }
            return out;
          })
          .filter((out) => out !== undefined);
      }
      case 'array': {
        if (def.count.type === 'rest' && def.element.minSize === 0) return fc.constant([]);
        const range = countRange(def.count, limit);
        // A fixed count too large to generate (one a definition drew over its whole range): no value
        // here; a struct field or chunk that needs one is skipped, as for a count that has no codec.
        if (range.minLength > maxLength * 64)
          throw new TooLargeError(`${c.name}: ${range.minLength} elements are too many to generate`);
        if (providesContext(def.element))
          return inOrder(range, env, (at) => {
            try {
              return [{ codec: def.element, arbitrary: build(def.element, depth, at) }];
            } catch {
              return []; // no element can be generated in this context
            }
          });
        return fc
          .array(build(def.element, depth, env), range)
          .map((list) => (list.includes(UNGENERABLE) ? UNGENERABLE : list));
      }
      case 'optional':
        return fc.option(build(def.codec, depth, env), { nil: undefined });
      case 'nothing':
        return fc.constant(undefined);
      case 'padding': {
        // Padding up to a boundary has no fixed size to keep bytes of: always the fill.
        if (def.to === 'boundary') return fc.constant(undefined);
        const { count, fill } = def;
        return fc.option(
          fc.uint8Array({ minLength: count, maxLength: count }).filter((b) => b.some((x) => x !== fill)),
          { nil: undefined, freq: 4 },
        );
      }
      case 'taggedUnion': {
        const members: fc.Arbitrary<{ tag: unknown; value: unknown }>[] = def.variants.map(({ tag, codec: variant }) =>
          build(variant, depth, env).map((value) => ({ tag, value })),
        );
        const otherwise = def.otherwise;
        if (otherwise !== undefined) {
          const known = new Set(def.variants.map((v) => String(v.tag)));
          members.push(
            fc.record({
              tag: build(def.tag, depth, env).filter((t: unknown) => !known.has(String(t))),
              value: build(otherwise, depth, env),
            }),
          );
        }
        return fc.oneof(...members);
      }
      case 'switch': {
        // Each case's values, shown as `{ tag, value }` or not. A case value may write bytes that
        // select another case (a legacy save whose first field spells a newer magic): the switch
        // refuses those on encode, so they are left out. Data kept by `otherwise` must start with a
        // selector no case claims, which no generator of its codec knows, so it is not generated.
        const numeric = def.selector.def.type === 'int';
        const members = def.cases.map(({ key, codec: chosen }) => {
          const values = build(chosen, depth, env);
          return def.tag === 'hidden' ? values : values.map((value) => ({ tag: numeric ? Number(key) : key, value }));
        });
        return fc.oneof(...members).filter((value) => contextAfter(c, value, env) !== undefined);
      }
      case 'rebuild':
        // Outside a struct there is no parent to compute it from: any value of its codec.
        return build(def.codec, depth, env);
      case 'lazy':
        // Deferred, so building the arbitrary of a recursive codec terminates. What it finds too large
        // to generate then is only known while generating: the value is marked, and the part holding
        // it skipped (see UNGENERABLE).
        return fc.constant(null).chain(() => {
          try {
            return build(def.resolve(), depth + 1, env);
          } catch (error) {
            if (error instanceof TooLargeError) return fc.constant(UNGENERABLE);
            throw error;
          }
        });
      case 'map': {
        const { bijection } = def;
        if (bijection.model !== undefined) return build(bijection.model(), depth, env);
        const decodes = (stored: unknown) => {
          try {
            bijection.decode(stored);
            return true;
          } catch {
            return false;
          }
        };
        return build(def.stored, depth, env)
          .filter(decodes)
          .map((stored) => bijection.decode(stored));
      }
      case 'sized': {
        const body = build(def.body, depth, env);
        if (def.size.type === 'fixed') return body.filter(encodesTo(def.body, def.size.count));
        const most = largest(def.size.codec);
        return Number.isFinite(most) ? body.filter((v) => fitsIn(def.body, v, most)) : body;
      }
      case 'chunk':
        return fc.record({ id: fc.constant(def.marker), body: build(def.body, depth, env) });
      case 'chunkList': {
        const { framing } = def;
        const align = framing.align ?? 1;
        const taken = new Set<unknown>([...def.known.map((k) => k.marker), ...def.until]);
        const raw = fc.record({
          id: build(framing.marker, depth, env).filter((id) => !taken.has(id)),
          // A body holds at least the bytes its length does not count (EDGE's original length).
          raw: fc
            .uint8Array({
              minLength: framing.uncounted ?? 0,
              maxLength: Math.max(maxLength * 4, framing.uncounted ?? 0),
            })
            .map((b) => (framing.padCounted === false ? b : b.subarray(0, b.length - (b.length % align)))),
        });
        const known = (at: Env) =>
          def.known.map(({ marker, codec: body }) =>
            fc.record({ id: fc.constant(marker), body: build(body, depth, at) }),
          );
        if (!def.known.some((k) => providesContext(k.codec)))
          return fc.array(fc.oneof(...known(env), raw), { maxLength: limit });
        // Chunks that provide context values (definitions) decide how later chunks are written: each
        // chunk is generated in the context the chunks before it leave, and a known chunk that cannot
        // be generated there (data with no definition yet) is not offered.
        return inOrder({ minLength: 0, maxLength: limit }, env, (at) => {
          const choices: Array<{ codec: AnyCodec; arbitrary: fc.Arbitrary<unknown> }> = [];
          for (const { marker, codec: body } of def.known) {
            const entry = chunk(framing, marker, body);
            try {
              choices.push({
                codec: entry,
                arbitrary: fc.record({ id: fc.constant(marker), body: build(body, depth, at) }),
              });
            } catch {
              // No value of this chunk in this context.
            }
          }
          return [...choices, { arbitrary: raw }];
        });
      }
      case 'transform': {
        const inner = build(def.codec, depth, env);
        return def.keep === 'never' ? inner : inner.map((value) => ({ value }));
      }
      case 'checksum':
        return build(def.body, depth, env);
      case 'pointer': {
        const target = fc.record({ target: build(def.target, depth, env) });
        return def.nullOffset === undefined ? target : fc.option(target, { nil: null });
      }
      case 'arena':
        return fc.record({ root: build(def.root, depth, env), unclaimed: fc.constant([]) });
      case 'bytesUntil': {
        // Bytes in which no lead is found (what write accepts); none always is.
        const encodes = (value: unknown) => encode(c, value as never)._tag === 'Right';
        return fc.oneof(fc.constant(new Uint8Array(0)), fc.uint8Array({ maxLength: limit * 4 }).filter(encodes));
      }
      case 'windowsAt': {
        // Blocks (objects of a byte or more) of distinct indexes in any order, each written after the
        // one before; a lead of a byte or more or none. Values whose blocks land on the null offset or
        // past what an offset holds do not encode and are left out.
        const encodes = (value: unknown) => encode(c, value as never)._tag === 'Right';
        const takesBytes = (value: unknown) => {
          const out = encode(def.block, value as never);
          return out._tag === 'Right' && out.right.length > 0;
        };
        const element = fc
          .tuple(intRange(0, def.count - 1), build(def.block, depth + 1, env).filter(takesBytes))
          .filter(([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value))
          .map(([index, value]) => ({ [def.index]: index, ...(value as object) }) as Record<string, unknown>);
        const blocks = fc.uniqueArray(element, {
          selector: (b) => b[def.index],
          maxLength: Math.min(def.count, limit),
        });
        const lead = fc.uint8Array({ minLength: 1, maxLength: 4 });
        return fc
          .tuple(blocks, fc.option(lead, { nil: undefined }))
          .map(([list, lead]) => (lead === undefined ? { [def.blocks]: list } : { [def.blocks]: list, lead }))
          .filter(encodes);
      }
      case 'directory': {
        // An entry (its place is rebuilt on write), a body of the codec that entry chooses, joined;
        // entries whose body codec cannot be chosen, is too large to generate, or that do not join
        // with the body are skipped, as decoding refuses the first and last.
        if (def.model !== undefined)
          return fc.array(build(def.model(), depth, env), { minLength: def.count, maxLength: def.count });
        const tooLarge = maxLength * 64;
        const element = build(def.entry, depth, env)
          .chain((entry) => {
            let chosen: AnyCodec;
            try {
              chosen = def.body(entry);
            } catch {
              return fc.constant(undefined);
            }
            if (leastBytes(chosen) > tooLarge) return fc.constant(undefined);
            return build(chosen, depth, env).map((body) => {
              try {
                return { value: def.join(entry, body) };
              } catch {
                return undefined;
              }
            });
          })
          .filter((joined) => joined !== undefined)
          .map((joined) => joined.value);
        return fc.array(element, { minLength: def.count, maxLength: def.count });
      }
      case 'graphImage':
        return graphImages(limit);
      case 'instance':
        // A structure that holds itself (directly or through others) has no finite value: past a
        // depth no real save reaches, the part that needs one is skipped.
        if (depth > maxDepth + MAX_INSTANCE_NESTING)
          throw new TooLargeError(`${c.name}: instances nested deeper than ${maxDepth + MAX_INSTANCE_NESTING}`);
        return instances(def, (element) => build(element, depth + 1, env));
      case 'provide':
        return build(def.codec, depth, env);
      case 'fromContext':
        // The codec the context generated so far chooses (see `inOrder`).
        return build(def.choose(contextValue(env, def.key)), depth, env);
      case 'fallback': {
        // Values of either side that encode (a secondary value whose bytes the primary reads does not).
        const encodes = (value: unknown) => encode(c, value as never)._tag === 'Right';
        return fc.oneof(
          build(def.primary, depth, env).filter(encodes),
          build(def.secondary, depth, env).filter(encodes),
        );
      }
      case 'custom':
        if (def.model !== undefined) return build(def.model, depth, env);
        if (def.samples !== undefined && def.samples.length > 0) return fc.constantFrom(...def.samples);
        throw new NoArbitraryError(
          `no arbitrary can be derived for the custom codec ${c.name} (${def.name}): give its definition a model or samples (customDef), or pass one in options.overrides`,
        );
      default:
        return unreachableDef(def);
    }
  };
  return build(codec as AnyCodec, 0, NO_CONTEXT) as fc.Arbitrary<A>;
}
