/**
 * Structs: named fields in order. A field is a codec, or a function of the fields decoded before it
 * that returns the codec (a count, a version switch, a condition).
 *
 * @module
 */
import { defineAutoCompiledCodec } from './auto-compile.js';
import * as t from 'io-ts';
import { defineCodec, isCodec, readChild, writeChild, type Codec } from './codec.js';
import { rebuildFields } from './rebuild.js';
import { customDef } from './def.js';
import { DecodeError, EncodeError, FieldError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';
import type { MisfitPart, NamesMisfitPart } from './json.js';

/** A struct field: a codec, or a codec chosen from the fields before it (`parent` holds those). */
export type FieldSpec = Codec<any> | ((parent: any) => Codec<any>);

/** The fields of a struct, in order. */
export type Fields = Readonly<Record<string, FieldSpec>>;

/** The value type of one field spec. */
export type FieldType<F> = F extends Codec<infer A> ? A : F extends (parent: any) => Codec<infer A> ? A : never;

/** The value type of a struct of `F`. */
export type StructType<F extends Fields> = { [K in keyof F]: FieldType<F[K]> };

/**
 * The codec a dependent field chooses from `parent`. The choice is user code run on values from the
 * file (`array(entry, p.count)` with a negative count throws a RangeError): anything it throws is a
 * DecodeError or EncodeError at the field, never an exception out of `decode` or `encode`.
 */
export function chooseCodec(
  at: Reader | Writer,
  key: string,
  spec: (parent: any) => Codec<any>,
  parent: unknown,
): Codec<any> {
  try {
    return spec(parent);
  } catch (error) {
    if (error instanceof DecodeError || error instanceof EncodeError) throw error;
    // The spec refused a part of the parent it reads: the error names that part.
    if (error instanceof FieldError) throw refusedAt(at, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw at.errorAt(key, `cannot choose the codec of this field: ${reason}`);
  }
}

/** A {@link FieldError} thrown while reading or writing a struct: an error at the struct's path and the part's. */
function refusedAt(at: Reader | Writer, error: FieldError): DecodeError | EncodeError {
  const path = [...at.state.path, ...error.at];
  return 'pos' in at
    ? new DecodeError(path, at.pos, error.message, error.code)
    : new EncodeError(path, at.length, error.message, error.code);
}

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function structJson(
  names: ReadonlyArray<string>,
  specs: ReadonlyArray<FieldSpec>,
  name: string,
): t.Type<any, unknown, unknown> {
  return new StructJsonType(names, specs, name);
}

/** A field's JSON type: its codec's, chosen from the parent for a field whose codec depends on it. */
const fieldType = (spec: FieldSpec, parent: any) => (isCodec(spec) ? spec : spec(parent)).json;

/** A struct's JSON type: an object with the fields' JSON forms (the part `toJson` finds a misfit under named). */
class StructJsonType extends t.Type<any, unknown, unknown> implements NamesMisfitPart {
  // `names` and `specs` have the same length: the `i < names.length` loops below index both.
  constructor(
    private readonly names: ReadonlyArray<string>,
    private readonly specs: ReadonlyArray<FieldSpec>,
    name: string,
  ) {
    super(
      name,
      (u): u is any => isStructLike(u) && firstMisfit(names, specs, u) === undefined,
      (u, c) => {
        if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, 'expected an object');
        const out: Record<string, unknown> = {};
        const errors: t.Errors = [];
        for (let i = 0; i < names.length; i++) {
          const key = names[i]!;
          // Own properties only: a JSON key like "constructor" must not pick up Object's.
          const raw = hasOwn(u, key) ? (u as Record<string, unknown>)[key] : undefined;
          let type: t.Type<any, unknown, unknown>;
          try {
            type = fieldType(specs[i]!, out);
          } catch (error) {
            errors.push({
              value: raw,
              context: [...c, { key, type: t.unknown, actual: raw }],
              message: `cannot choose the field's codec: ${String(error)}`,
            });
            break;
          }
          const result = type.validate(raw, [...c, { key, type, actual: raw }]);
          if (result._tag === 'Left') {
            errors.push(...result.left);
            if (!isCodec(specs[i]!)) break; // later dependent fields would see a hole
          } else {
            out[key] = result.right;
          }
        }
        return errors.length > 0 ? t.failures(errors) : t.success(out);
      },
      (a) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) {
          const key = names[i]!;
          const encoded = fieldType(specs[i]!, a).encode(a[key]);
          if (encoded !== undefined) out[key] = encoded;
        }
        return out;
      },
    );
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    if (!isStructLike(value)) return undefined;
    const misfit = firstMisfit(this.names, this.specs, value);
    // A field whose codec cannot be chosen: its siblings are wrong, and the struct itself is the misfit.
    return misfit === NOT_CHOSEN ? undefined : misfit;
  }
}

const isStructLike = (u: unknown): u is object => typeof u === 'object' && u !== null && !Array.isArray(u);

/** {@link firstMisfit}'s answer for a field whose codec cannot be chosen (the chooser throws). */
const NOT_CHOSEN = Symbol('not chosen');

/** A struct value's first field not of its type, {@link NOT_CHOSEN}, or undefined when every field is. */
function firstMisfit(
  names: ReadonlyArray<string>,
  specs: ReadonlyArray<FieldSpec>,
  value: object,
): MisfitPart | typeof NOT_CHOSEN | undefined {
  for (let i = 0; i < names.length; i++) {
    let type: t.Mixed;
    try {
      type = fieldType(specs[i]!, value);
    } catch {
      return NOT_CHOSEN;
    }
    const part = (value as Record<string, unknown>)[names[i]!];
    if (!type.is(part)) return { key: names[i]!, type, value: part };
  }
  return undefined;
}

/**
 * A struct: fields read and written in the order given, the value an object with those keys.
 *
 * @example
 * ```ts
 * const header = struct({
 *   magic: magic('EdgeSave'),
 *   separator: magic('\x1A\r\n\0'),
 *   version: u32le,
 * });
 * type Header = TypeOf<typeof header>; // { magic: 'EdgeSave'; separator: '\x1A\r\n\0'; version: number }
 *
 * // A field may depend on the ones before it:
 * const list = struct({ count: u16le, items: (p: { count: number }) => array(u32le, p.count) });
 * ```
 */
export function struct<F extends Fields>(fields: F, name = 'struct'): Codec<StructType<F>> {
  const names = Object.keys(fields);
  for (const key of names) {
    if (key === '__proto__' || /^(0|[1-9][0-9]*)$/.test(key)) {
      // Integer-like keys are reordered by JavaScript; __proto__ is not a safe property name.
      throw new RangeError(`struct: field name ${JSON.stringify(key)} is not allowed`);
    }
  }
  const specs = names.map((k) => fields[k]!);
  // `names`, `specs` (and the fast-path arrays below) have `count` entries: loops to `count` use `!`.
  // Each field's codec, or undefined for a dependent field: decided once, not per value.
  const fixedCodecs: Array<Codec<any> | undefined> = specs.map((spec) => (isCodec(spec) ? spec : undefined));
  const staticCodecs = specs.every(isCodec) ? (specs as Codec<any>[]) : undefined;
  let size: number | undefined = 0;
  let minSize = 0;
  for (const spec of specs) {
    if (isCodec(spec)) {
      minSize += spec.minSize;
      size = size !== undefined && spec.size !== undefined ? size + spec.size : undefined;
    } else {
      size = undefined;
    }
  }
  const count = names.length;
  // Every value starts as a copy of one template object with all the fields already in place, so
  // all values of this struct share one hidden class and field stores are fast (a cloned object
  // literal, unlike stores of varying keys into an empty one). Placeholders match what the field
  // will hold, so the shape never has to change.
  const template: Record<string, unknown> = {};
  specs.forEach((spec, i) => {
    template[names[i]!] = placeholderFor(spec);
  });
  // Fast path: every field has a fixed size and a fast read, so the struct is read at precomputed
  // offsets with one bounds check and no per-field path bookkeeping. A failure is redone on the
  // tracked path, so errors still name the field.
  const fixedReaders = staticCodecs?.every((c) => c.readFixed !== undefined)
    ? staticCodecs.map((c) => c.readFixed!)
    : undefined;
  const offsets: number[] = [];
  if (fixedReaders && staticCodecs) {
    let at = 0;
    for (const c of staticCodecs) {
      offsets.push(at);
      at += c.size as number;
    }
  }
  const fixedWriters = staticCodecs?.every((c) => c.writeFixed !== undefined && c.size !== undefined)
    ? staticCodecs.map((c) => c.writeFixed!)
    : undefined;
  if (fixedWriters && staticCodecs && offsets.length === 0) {
    let at = 0;
    for (const c of staticCodecs) {
      offsets.push(at);
      at += c.size as number;
    }
  }
  const writeFixed =
    fixedWriters === undefined
      ? undefined
      : (w: Writer, at: number, value: StructType<F>): void => {
          if (typeof value !== 'object' || value === null)
            throw w.error('wrong-type', `expected an object for ${name}`);
          for (let i = 0; i < count; i++)
            fixedWriters[i]!(w, at + offsets[i]!, (value as Record<string, unknown>)[names[i]!]);
        };
  // `rebuild` fields are computed before any field is written, so later dependent fields see them.
  const rebuilt = rebuildFields(names, specs);
  const writeTracked = (w: Writer, value: StructType<F>): void => {
    if (typeof value !== 'object' || value === null)
      throw w.error('wrong-type', `expected an object for ${name}, got ${value === null ? 'null' : typeof value}`);
    if (rebuilt !== undefined) value = rebuilt(w, value) as StructType<F>;
    for (let i = 0; i < count; i++) {
      const spec = specs[i]!;
      const key = names[i]!;
      const codec = fixedCodecs[i] ?? chooseCodec(w, key, spec as (parent: any) => Codec<any>, value);
      writeChild(w, key, codec, (value as Record<string, unknown>)[key]);
    }
  };
  const readFixed =
    fixedReaders === undefined
      ? undefined
      : (r: Reader, at: number): StructType<F> => {
          const out: Record<string, unknown> = { ...template };
          for (let i = 0; i < count; i++) out[names[i]!] = fixedReaders[i]!(r, at + offsets[i]!);
          return out as StructType<F>;
        };

  const readTracked = (r: Reader): StructType<F> => {
    const out: Record<string, unknown> = { ...template };
    for (let i = 0; i < count; i++) {
      const spec = specs[i]!;
      const key = names[i]!;
      const codec = fixedCodecs[i] ?? chooseCodec(r, key, spec as (parent: any) => Codec<any>, out);
      out[key] = readChild(r, key, codec);
    }
    return out as StructType<F>;
  };

  return defineAutoCompiledCodec<StructType<F>>({
    name,
    def: { type: 'struct', fields: specs.map((spec, i) => ({ name: names[i]!, spec })) },
    json: structJson(names, specs, name),
    size,
    minSize,
    children: specs.map((spec, i) => ({ key: names[i]!, codec: isCodec(spec) ? spec : dependentPlaceholder })),
    read:
      readFixed === undefined
        ? readTracked
        : (r) => {
            const at = r.pos;
            if (r.state.spans !== undefined || r.end - at < (size as number)) return readTracked(r);
            try {
              const value = readFixed(r, at);
              r.pos = at + (size as number);
              return value;
            } catch {
              return readTracked(r);
            }
          },
    readFixed,
    write:
      writeFixed === undefined
        ? writeTracked
        : (w, value) => {
            // Fast path as for reading: one bounds check, fields at their offsets; a failure is
            // redone on the tracked path so the error names the field.
            const start = w.ensure(size as number);
            try {
              writeFixed(w, start, value);
              w.length = start + (size as number);
            } catch {
              w.length = start;
              writeTracked(w, value);
            }
          },
    writeFixed,
  });
}

/**
 * A placeholder of the kind of value a field will hold (small integer, double, or anything); the
 * compiled struct builds its template from these too, so its values have the same shape.
 */
export function placeholderFor(spec: FieldSpec): unknown {
  if (!isCodec(spec)) return undefined;
  const def = spec.def;
  if (def.type === 'int') return def.bits <= 24 ? 0 : def.bits === 64 ? undefined : 0.5;
  if (def.type === 'float') return 0.5;
  return undefined;
}

/** Stands in for a dependent field in `children`: its codec is only known once the value is. */
const dependentPlaceholder: Codec<unknown> = defineCodec<unknown>({
  name: 'dependent',
  def: customDef('dependent'),
  json: t.unknown,
  read(r) {
    throw r.error('invalid-value', 'a dependent field has no codec of its own');
  },
  write(w) {
    throw w.error('invalid-value', 'a dependent field has no codec of its own');
  },
});
