/**
 * Fields computed on write (construct's `Rebuild`): a count, a length, an offset or a flag that the
 * file stores but that follows from the rest of the value, so a document edited without touching it
 * is still written consistently.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { bytesEqual } from './bytes.js';
import { defineCodec, encode, type Codec } from './codec.js';
import { DecodeError, EncodeError, FieldError } from './errors.js';
import type { Writer } from './writer.js';

/** What decoding does with a stored value that differs from what the rest of the value computes. */
export type RebuildMismatch = 'keep' | 'error';

/** Options of {@link rebuild}. */
export interface RebuildOptions {
  /**
   * `'keep'` (the default): a warning `rebuild-mismatch` at the field, and the stored value is kept
   * in the document and written back unchanged as long as the document still holds it, so a file
   * that was inconsistent is re-encoded byte for byte. `'error'`: a DecodeError at the field.
   */
  readonly mismatch?: RebuildMismatch;
}

/** What a {@link rebuild} field spec carries for tools: the stored codec and how it is computed. */
export interface RebuildInfo<A, P> {
  /** The codec of the stored value. */
  readonly codec: Codec<A>;
  /** Computes the value from the whole parent value being written. */
  readonly compute: (parent: P) => A;
  /** The decode policy (see {@link RebuildOptions.mismatch}). */
  readonly mismatch: RebuildMismatch;
  /** The codec the spec gives for the field (its definition is a `DefRebuild`). */
  readonly field: Codec<A>;
}

/**
 * A {@link rebuild} field: a dependent struct field spec (a function of the parent) that also says,
 * in `rebuild`, what it is — so tools that walk a struct's specs can tell it from other dependent
 * fields.
 */
export type RebuildSpec<A, P> = ((parent: P) => Codec<A>) & { readonly rebuild: RebuildInfo<A, P> };

/**
 * Stored values the decoder found inconsistent and kept, by parent object and field: written back
 * as they were while the document still holds them.
 */
const kept = new WeakMap<object, Map<string, unknown>>();

function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Whether two values of `codec` are the same value: equal primitives, or objects that encode alike. */
function sameValue<A>(codec: Codec<A>, a: A, b: A): boolean {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  const x = encode(codec, a);
  const y = encode(codec, b);
  return E.isRight(x) && E.isRight(y) && bytesEqual(x.right, y.right);
}

function orUndefined<A>(codec: Codec<A>): t.Type<A, unknown, unknown> {
  return new t.Type<A, unknown, unknown>(
    codec.json.name,
    (u): u is A => u === undefined || codec.json.is(u),
    (u, c) => (u === undefined ? t.success(undefined as A) : codec.json.validate(u, c)),
    (a) => (a === undefined ? undefined : codec.json.encode(a)),
  );
}

/**
 * A struct field whose value is computed on write from the whole value being written (`parent`):
 * a count, a length, an offset, a flag. Use it as a struct field; later fields see the stored value
 * as usual.
 *
 * - **Decode** reads the stored value and keeps it in the document. Once the whole value is read,
 *   it checks the stored value against `compute(parent)`; a difference is a warning
 *   `rebuild-mismatch` (or a DecodeError with `mismatch: 'error'`).
 * - **Encode** writes `compute(parent)`, whatever the field holds — it may be left out — except a
 *   value the decoder reported as inconsistent, which is written back unchanged while the document
 *   still holds it (so `write(read(b)) = b` holds for inconsistent files too). Set the field to
 *   `undefined` to have such a value rebuilt.
 *
 * Errors thrown by `compute` become EncodeErrors at the field (DecodeErrors in the decode check).
 *
 * @example
 * ```ts
 * const list = struct({
 *   count: rebuild(u32le, (p: { items: number[] }) => p.items.length),
 *   items: (p: { count: number }) => array(u16le, p.count),
 * });
 * encode(list, { count: 0, items: [7, 8, 9] }); // count written as 3
 * ```
 */
export function rebuild<A, P = any>(
  codec: Codec<A>,
  compute: (parent: P) => A,
  options: RebuildOptions = {},
): RebuildSpec<A, P> {
  const mismatch = options.mismatch ?? 'keep';
  const name = `rebuild(${codec.name})`;
  const json = orUndefined(codec);
  // One codec for every read: `struct` calls the spec with the parent right before it reads the
  // field, so the spec hands the parent over in `next` and the read takes it before reading anything
  // (a nested read of the same spec cannot come in between). No codec is allocated per value.
  let handedOver = false;
  let next: P | undefined;
  const field = defineCodec<A>({
    name,
    def: { type: 'rebuild', codec, compute, mismatch },
    json,
    size: codec.size,
    minSize: codec.minSize,
    children: [{ key: 'stored', codec }],
    read(r) {
      const handed = handedOver;
      const parent = next as P;
      handedOver = false;
      next = undefined;
      const at = r.pos;
      const stored = codec.read(r);
      if (!handed) return stored; // read outside a struct: no parent to check against
      const state = r.state;
      // The field's own key; its path as the document names it (the check runs once the value is read).
      const key = state.path[state.path.length - 1];
      const path = state.lastingPath();
      r.defer(() => {
        let computed: A;
        try {
          computed = compute(parent);
        } catch (error) {
          if (error instanceof DecodeError) throw error;
          // A part of the parent refused: the path is the parent's (this field's without its key) and the part's.
          if (error instanceof FieldError)
            throw new DecodeError([...path.slice(0, -1), ...error.at], at, error.message, error.code);
          const reason = error instanceof Error ? error.message : String(error);
          throw new DecodeError(path, at, `rebuild: ${reason}`);
        }
        if (sameValue(codec, stored, computed)) return;
        const message = `stored ${show(stored)}, but the rest of the value gives ${show(computed)}`;
        if (mismatch === 'error') throw new DecodeError(path, at, message, 'size-mismatch');
        state.addWarning({
          code: 'rebuild-mismatch',
          path,
          offset: at,
          message: `${message}; the stored value is kept`,
        });
        if (typeof parent === 'object' && parent !== null && typeof key === 'string') {
          let fields = kept.get(parent);
          if (fields === undefined) {
            fields = new Map();
            kept.set(parent, fields);
          }
          fields.set(key, stored);
        }
      });
      return stored;
    },
    write(w, value) {
      // The struct has computed the value already (see rebuildFields).
      codec.write(w, value);
    },
  });
  const spec = (parent: P): Codec<A> => {
    handedOver = true;
    next = parent;
    return field;
  };
  return Object.assign(spec, { rebuild: { codec, compute, mismatch, field } });
}

/** Whether a struct field spec is a {@link rebuild} field. */
export function isRebuild(spec: unknown): spec is RebuildSpec<unknown, unknown> {
  return typeof spec === 'function' && typeof (spec as { rebuild?: unknown }).rebuild === 'object';
}

/**
 * For `struct`: given its field names and specs, a function that returns the value to write — a
 * copy of the value with each `rebuild` field computed, in declaration order (each computation sees
 * the ones before), except values the decoder kept — or `undefined` when the struct has no
 * `rebuild` field.
 */
export function rebuildFields(
  names: ReadonlyArray<string>,
  specs: ReadonlyArray<unknown>,
): ((w: Writer, value: object) => object) | undefined {
  const fields: Array<[string, RebuildInfo<unknown, unknown>]> = [];
  specs.forEach((spec, i) => {
    if (isRebuild(spec)) fields.push([names[i]!, spec.rebuild]);
  });
  if (fields.length === 0) return undefined;
  return (w, value) => {
    const out: Record<string, unknown> = { ...value };
    const keptHere = kept.get(value);
    for (const [key, info] of fields) {
      const current = out[key];
      if (current !== undefined && keptHere?.has(key) && sameValue(info.codec, current, keptHere.get(key))) continue;
      try {
        out[key] = info.compute(out);
      } catch (error) {
        if (error instanceof EncodeError) throw error;
        // The computation refused a part of the value (the struct's path, then the part's).
        if (error instanceof FieldError)
          throw new EncodeError([...w.state.path, ...error.at], w.length, error.message, error.code);
        throw w.errorAt(key, `rebuild: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return out;
  };
}
