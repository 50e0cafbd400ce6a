/**
 * A switch on bytes not yet consumed (Kaitai's `switch-on`, construct's `Switch` over a `Peek`): a
 * selector is peeked, it picks a case, and the case reads from the same place — its own magic
 * included. Unlike {@link lookahead}, the value is the case's value itself (no `{ tag, value }`
 * wrapper, no path segment), and on write the case is picked from the value by `caseOf`: for a
 * document whose kinds are told apart by a magic the value already holds, or by their shape.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, guardRead, guardWrite, type Codec, type TypeOf } from './codec.js';
import { ReadState, Reader } from './reader.js';
import { resolveDecodeOptions } from './options.js';

/** Options of {@link switchOn}. */
export interface SwitchOptions<S, K extends string, A> {
  /**
   * The case a peeked selector picks, or `undefined` for none (a DecodeError naming the selector and
   * the known values). Default: the selector itself, when it names a case.
   */
  readonly select?: (selector: S) => K | undefined;
  /** The case a value is written with (a value of no case throws: an EncodeError at its path). */
  readonly caseOf: (value: A) => K;
  /** The JSON form; default: the union of the cases' forms (each tried in turn). */
  readonly json?: t.Type<A, unknown, unknown>;
  /** The codec's name; default `switchOn(<selector>)`. */
  readonly name?: string;
  /** Text for a selector no case claims; default `unknown <selector> <value> (known: …)`. */
  readonly unknown?: (selector: S) => string;
}

/** A reader over bytes just written, to check which case they would decode as. */
function rereader(bytes: Uint8Array, start: number, end: number): Reader {
  return new Reader(bytes, new ReadState(resolveDecodeOptions(undefined)), start, end);
}

/**
 * Chooses a codec by bytes not yet consumed, and is the value of the case chosen: `selector` is
 * read without consuming it (no span, no path segment of its own), `select` maps it to a case, and
 * the case reads from the same place. On write `caseOf(value)` picks the case and the case writes;
 * then the selector is read back from what was written, and an EncodeError says so when it would
 * pick another case (the bytes would decode as something else).
 *
 * @example
 * ```ts
 * const image = switchOn(fourcc(), { ZSAV: littleEndianSave, VASZ: bigEndianSave }, {
 *   caseOf: (save) => (save.byteOrder === 'le' ? 'ZSAV' : 'VASZ'),
 * });
 * // A save is read by the case its first four bytes name, and is that case's value.
 * const document = switchOn(fourcc(), { chunked: chunkedSave, legacy: legacySave }, {
 *   select: (magic) => (magic === 'UMS\x01' ? 'chunked' : 'legacy'),
 *   caseOf: (doc) => ('magic' in doc ? 'chunked' : 'legacy'),
 * });
 * ```
 */
export function switchOn<S, V extends Readonly<Record<string, Codec<any>>>>(
  selector: Codec<S>,
  cases: V,
  options: SwitchOptions<S, Extract<keyof V, string>, TypeOf<V[keyof V]>>,
): Codec<TypeOf<V[keyof V]>> {
  type A = TypeOf<V[keyof V]>;
  type K = Extract<keyof V, string>;
  const keys = Object.keys(cases) as K[];
  if (keys.length === 0) throw new RangeError('switchOn needs at least one case');
  const codecs = cases as Readonly<Record<string, Codec<A>>>;
  const members = keys.map((key) => codecs[key]!.json);
  return switchOnDemand<S, K, A>(
    selector,
    { keys: () => keys, build: (key) => (Object.hasOwn(cases, key) ? codecs[key] : undefined) },
    {
      ...options,
      select: options.select ?? ((s: S) => (typeof s === 'string' && Object.hasOwn(cases, s) ? (s as K) : undefined)),
      json:
        options.json ??
        ((members.length === 1 ? members[0] : t.union(members as [t.Mixed, t.Mixed, ...t.Mixed[]])) as t.Type<
          A,
          unknown,
          unknown
        >),
      minSize: Math.max(selector.minSize, Math.min(...keys.map((key) => codecs[key]!.minSize))),
      children: keys.map((key) => ({ key, codec: codecs[key]! })),
    },
  );
}

/**
 * The cases of a {@link switchOnDemand}: their keys, and each case's codec built when first needed.
 */
export interface SwitchCases<K extends string, A> {
  /** Every case's key: for tools and for the message naming the known ones (called only then). */
  readonly keys: () => ReadonlyArray<K>;
  /** The codec of case `key`, or `undefined` when there is no such case; called once per key. */
  readonly build: (key: K) => Codec<A> | undefined;
}

/** Options of {@link switchOnDemand}: those of {@link switchOn}, with `select` and `json` required. */
export interface SwitchOnDemandOptions<S, K extends string, A> extends SwitchOptions<S, K, A> {
  readonly select: (selector: S) => K | undefined;
  readonly json: t.Type<A, unknown, unknown>;
  /** A lower bound on the bytes of a value (default: the selector's). */
  readonly minSize?: number;
  /** The cases, when they are known up front (tools walk them). */
  readonly children?: ReadonlyArray<{ readonly key: string; readonly codec: Codec<A> }>;
}

/**
 * {@link switchOn} with cases built on demand: a case's codec is built the first time a value of it
 * is read or written, then kept. For cases that depend on what the file defined — one per structure
 * the file declares, say, when chosen by `fromContext` — where building every case for every
 * context value would cost the square of the definitions.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { decodeOrThrow, fourcc, struct, switchOnDemand, u8, u16le, magic } from '@savekit/core';
 * import * as t from 'io-ts';
 *
 * const widths: Record<string, number> = { BYTE: 1, WORD: 2 };
 * const entry = switchOnDemand(
 *   fourcc(),
 *   {
 *     keys: () => Object.keys(widths),
 *     build: (marker) => (marker in widths ? struct({ marker: magic(marker), n: widths[marker] === 1 ? u8 : u16le }) : undefined),
 *   },
 *   {
 *     select: (marker) => (marker in widths ? marker : undefined),
 *     caseOf: (value) => value.marker,
 *     json: t.type({ marker: t.string, n: t.number }),
 *   },
 * );
 * assert.deepEqual(decodeOrThrow(entry, Uint8Array.of(0x57, 0x4f, 0x52, 0x44, 1, 2)), { marker: 'WORD', n: 0x201 });
 * ```
 */
export function switchOnDemand<S, K extends string, A>(
  selector: Codec<S>,
  cases: SwitchCases<K, A>,
  options: SwitchOnDemandOptions<S, K, A>,
): Codec<A> {
  const built = new Map<K, Codec<A>>();
  const buildCase = (key: K): Codec<A> | undefined => {
    const codec = cases.build(key);
    if (codec !== undefined) built.set(key, codec);
    return codec;
  };
  const caseNamed = (key: K | undefined): Codec<A> | undefined =>
    key === undefined ? undefined : (built.get(key) ?? buildCase(key));
  const { select } = options;
  const name = options.name ?? `switchOn(${selector.name})`;
  const unknown =
    options.unknown ?? ((s: S) => `unknown ${selector.name} ${JSON.stringify(s)} (known: ${cases.keys().join(', ')})`);
  const selectWhat = `${name}: select`;
  const caseWhat = `${name}: case`;
  const caseOfWhat = `${name}: caseOf`;
  // The case the bytes at the reader pick: its key (its codec is then in `built`).
  const peekCase = (r: Reader): K => {
    const at = r.pos;
    const value = selector.read(r);
    r.pos = at;
    const key = guardRead(r, selectWhat, () => select(value), at);
    const codec = key === undefined ? undefined : (built.get(key) ?? guardRead(r, caseWhat, () => buildCase(key), at));
    if (codec === undefined) throw r.error(unknown(value), at);
    return key as K;
  };
  return defineCodec<A>({
    name,
    def: {
      type: 'switchOn',
      selector,
      cases: () =>
        cases.keys().flatMap((key) => {
          const codec = caseNamed(key);
          return codec === undefined ? [] : [{ key, codec }];
        }),
      caseOf: options.caseOf as (value: unknown) => string,
    },
    json: options.json,
    minSize: options.minSize ?? selector.minSize,
    ...(options.children !== undefined ? { children: options.children } : {}),
    read(r) {
      return built.get(peekCase(r))!.read(r);
    },
    write(w, value) {
      const key = guardWrite(w, caseOfWhat, () => options.caseOf(value));
      const codec = guardWrite(w, caseWhat, () => caseNamed(key));
      if (codec === undefined) throw w.error(`${name}: the value is of no case (caseOf gave ${JSON.stringify(key)})`);
      const start = w.length;
      codec.write(w, value);
      let again: K;
      try {
        again = peekCase(rereader(w.buf, start, w.length));
      } catch (error) {
        throw w.error(
          `the bytes written as ${JSON.stringify(key)} pick no case: ${error instanceof Error ? error.message : String(error)}`,
          start,
        );
      }
      if (again !== key)
        throw w.error(`the bytes written as ${JSON.stringify(key)} would decode as ${JSON.stringify(again)}`, start);
    },
  });
}
