/**
 * Choosing a codec by bytes not yet consumed (Kaitai's `switch-on`, construct's `Switch` over a
 * `Peek`): a selector is peeked (read without consuming it), it picks a case, and the case reads from
 * the same place — its own magic or marker included. On write the case writes, and the selector is
 * read back from the bytes written: an EncodeError says so when they would decode as another case.
 *
 * One concept with two faces, which differ only in whether the selector shows in the document:
 * - {@link switchOn}: the value is the case's own value (no wrapper, no path segment); `caseOf(value)`
 *   picks the case on write. For kinds a document already tells apart (a magic it holds, its shape).
 * - {@link lookahead}: the value is `{ tag, value }` with the peeked selector as the tag, like a
 *   {@link taggedUnion} whose tag is not consumed; the tag picks the case on write, and unknown data
 *   can be kept (`otherwise`).
 *
 * Both read and write through one dispatcher, and have the same definition (`def.type: 'switch'`,
 * with `tag: 'hidden'` or `'shown'`).
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, writeChild, readChild, type Codec, type TypeOf } from './codec.js';
import type { DefSwitch, DefSwitchCase } from './def.js';
import { resolveDecodeOptions } from './options.js';
import { Reader, ReadState, reread } from './reader.js';
import { DecodeError, describeValue, EncodeError } from './errors.js';
import type { Writer } from './writer.js';
import { annotateErrorFrom } from './dropped.js';
import { taggedUnion, type OtherTag, type Tagged } from './union.js';
import type { MisfitPart, NamesMisfitPart } from './json.js';

/** What a dispatcher is made of: how a peeked selector names a case, and what a case is. */
interface DispatchSpec<S> {
  readonly name: string;
  readonly selector: Codec<S>;
  /** The codec of case `key`, or `undefined` when there is no such case (built on first need). */
  readonly caseNamed: (key: string) => Codec<any> | undefined;
  /** The codec of a case key no case has, when such data is kept; else such a key is unknown. */
  readonly otherwise: Codec<any> | undefined;
  /** The smallest size of a value. */
  readonly minSize: number;
  readonly select: (selector: S) => string | undefined;
  readonly unknown: (selector: S) => string;
}

/** A peeked case: its key, the selector value that named it, and the codec that reads it. */
interface Picked<S> {
  readonly key: string;
  readonly selected: S;
  readonly codec: Codec<any>;
}

/** The one dispatcher behind {@link switchOn} and {@link lookahead}. */
interface Dispatcher<S> {
  /** Peeks the selector and finds its case; the reader stays where it was. */
  pick(reader: Reader): Picked<S>;
  /**
   * The codec of {@link pick}'s case, with nothing made per value when the selector is an integer
   * read in place (a marker byte): the same case and the same errors.
   */
  pickCodec(reader: Reader): Codec<any>;
  /**
   * Writes the case `key` — `value` with its codec, or as `writeCase` does — then checks that its
   * bytes select `key` again.
   */
  write(writer: Writer, key: string, value: unknown, writeCase?: (codec: Codec<any>) => void): void;
  /** The smallest size of a value: at least the selector, which every case reads again. */
  readonly minSize: number;
}

/** A letter or digit (what `fourcc({ alnum: true })` accepts). */
const isAlnum = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The state of {@link inPlaceReader}'s readers: never read or changed by an integer's `readFixed`. */
let inPlaceState: ReadState | undefined;

/**
 * A reader over a writer's buffer for an integer's `readFixed`, which reads `bytes` or `view` at an
 * offset and nothing else (not kept: it would hold on to the buffer).
 */
function inPlaceReader(w: Writer): Reader {
  inPlaceState ??= new ReadState(resolveDecodeOptions(undefined));
  return new Reader(w.buf, inPlaceState, 0, w.length, w.view);
}

/** What {@link guardRead} throws for `error`, thrown by the part `what`. */
function guarded(r: Reader, what: string, error: unknown, offset: number): Error {
  if (error instanceof DecodeError) return error;
  return r.error(`${what}: ${reason(error)}`, offset);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function dispatcher<S>(spec: DispatchSpec<S>): Dispatcher<S> {
  const { name, selector, otherwise } = spec;
  const selectWhat = `${name}: select`;
  const caseWhat = `${name}: case`;
  const codecOf = (key: string | undefined): Codec<any> | undefined =>
    key === undefined ? undefined : (spec.caseNamed(key) ?? otherwise);
  const pick = (r: Reader): Picked<S> => {
    const at = r.pos;
    // The selector has no place in the document: the spans its reading traced are dropped (the
    // case reads those bytes again, under its own paths).
    const spans = r.state.spans?.length;
    const depth = r.state.path.length;
    let selected: S;
    try {
      selected = selector.read(r);
    } catch (error) {
      // Nor in an error: what the selector's reading named below here is named as annotations.
      if (error instanceof DecodeError) annotateErrorFrom(error, depth);
      throw error;
    }
    r.pos = at;
    if (spans !== undefined) r.state.spans!.length = spans;
    // As `guardRead` would, without a closure per value read (EDGE picks one per string and instance).
    let key: string | undefined;
    try {
      key = spec.select(selected);
    } catch (error) {
      throw guarded(r, selectWhat, error, at);
    }
    let codec: Codec<any> | undefined;
    try {
      codec = codecOf(key);
    } catch (error) {
      throw guarded(r, caseWhat, error, at);
    }
    if (codec === undefined) throw r.error('unknown-tag', spec.unknown(selected), at);
    return { key: key as string, selected, codec };
  };
  // An integer or four-character-code selector is read back in place, its case checked, without a
  // reading state made ready per value: the check runs for every value written (EDGE: every string
  // and instance). Whatever it does not confirm goes through the full reread, which gives the error.
  const def = selector.def;
  const readInt = def.type === 'int' && selector.size !== undefined ? selector.readFixed : undefined;
  const intSize = selector.size ?? 0;
  const byte = def.type === 'int' && def.bits === 8 && !def.signed;
  const fourccAlnum = def.type === 'fourcc' ? def.alnum : undefined;
  // The four-character codes met, by their bytes as one number: a repeat makes no string. Bounded.
  const codes = new Map<number, string>();
  const CODES_MOST = 1024;
  /** The four-character code at `at` (known to be there), or `undefined` when it is not one. */
  // The code met last, by its bytes: values of one case mostly come in runs (an array's elements).
  let lastKey = -1;
  let lastCode: string | undefined;
  const codeAt = (b: Uint8Array, at: number): string | undefined => {
    const key = (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
    if (key === lastKey) return lastCode;
    let code = codes.get(key);
    if (code === undefined) {
      if (fourccAlnum && !(isAlnum(b[at]!) && isAlnum(b[at + 1]!) && isAlnum(b[at + 2]!) && isAlnum(b[at + 3]!)))
        return undefined;
      code = String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
      if (codes.size < CODES_MOST) codes.set(key, code);
    }
    lastKey = key;
    lastCode = code;
    return code;
  };
  const quickCheck = (w: Writer, start: number, key: string): boolean => {
    let selected: unknown;
    if (readInt !== undefined) {
      if (w.length - start < intSize) return false;
      selected = byte ? w.buf[start] : readInt(inPlaceReader(w), start);
    } else if (fourccAlnum !== undefined) {
      if (w.length - start < 4) return false;
      selected = codeAt(w.buf, start);
      if (selected === undefined) return false;
    } else return false;
    try {
      const key2 = spec.select(selected as S);
      return key2 === key && codecOf(key2) !== undefined;
    } catch {
      return false;
    }
  };
  const pickCodec = (r: Reader): Codec<any> => {
    const at = r.pos;
    // In place: no selector read through the reader, no spans to drop, no record of the pick. Any
    // doubt (too few bytes, tracing, a select or case that throws) takes `pick`, which names it.
    if (r.state.spans !== undefined) return pick(r).codec;
    let selected: unknown;
    if (readInt !== undefined && r.end - at >= intSize) selected = byte ? r.bytes[at]! : undefined;
    else if (fourccAlnum !== undefined && r.end - at >= 4) selected = codeAt(r.bytes, at);
    else return pick(r).codec;
    let codec: Codec<any> | undefined;
    try {
      if (selected === undefined && readInt !== undefined) selected = readInt(r, at);
      codec = selected === undefined ? undefined : codecOf(spec.select(selected as S));
    } catch {
      codec = undefined;
    }
    return codec ?? pick(r).codec;
  };
  return {
    pick,
    pickCodec,
    minSize: spec.minSize,
    write(w, key, value, writeCase) {
      // As `guardWrite` would, without a closure per value written.
      let codec: Codec<any> | undefined;
      try {
        codec = codecOf(key);
      } catch (error) {
        if (error instanceof EncodeError) throw error;
        throw w.error(`${caseWhat}: ${reason(error)}`);
      }
      if (codec === undefined) throw w.error('unknown-tag', `${name}: the value is of no case (${describeValue(key)})`);
      const start = w.length;
      if (writeCase !== undefined) writeCase(codec);
      else codec.write(w, value);
      if (quickCheck(w, start, key)) return;
      let again: Picked<S>;
      try {
        again = reread(w.buf, start, w.length, w.view, pick);
      } catch (error) {
        throw w.error(
          `the bytes written as ${JSON.stringify(key)} do not start with a ${selector.name} that picks a case: ${reason(error)}`,
          start,
        );
      }
      if (again.key !== key)
        throw w.error(
          `the bytes written as ${JSON.stringify(key)} start with ${show(again.selected)}: they would decode as ${JSON.stringify(again.key)}`,
          start,
        );
    },
  };
}

function show(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
}

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

/**
 * Chooses a codec by bytes not yet consumed, and is the value of the case chosen: `selector` is
 * read without consuming it (no span, no path segment of its own), `select` maps it to a case, and
 * the case reads from the same place. On write `caseOf(value)` picks the case and the case writes;
 * then the selector is read back from what was written, and an EncodeError says so when it would
 * pick another case (the bytes would decode as something else).
 *
 * Use {@link lookahead} instead when the document should show which case it is (`{ tag, value }`).
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
  if (keys.length === 0)
    throw new RangeError(`${options.name ?? `switchOn(${selector.name})`} needs at least one case`);
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
        ((members.length === 1
          ? members[0]
          : new SwitchJsonType(members as [t.Mixed, t.Mixed, ...t.Mixed[]], (value) => {
              const key = options.caseOf(value as A);
              return Object.hasOwn(cases, key) ? codecs[key]!.json : undefined;
            })) as t.Type<A, unknown, unknown>),
      minSize: Math.max(selector.minSize, Math.min(...keys.map((key) => codecs[key]!.minSize))),
    },
  );
}

/**
 * A switch's default JSON type: the union of its cases' forms, which `toJson` looks into through the
 * case `caseOf` picks for a value (the case it would be written with), not by guessing a member.
 */
class SwitchJsonType extends t.UnionType<[t.Mixed, t.Mixed, ...t.Mixed[]]> implements NamesMisfitPart {
  constructor(
    members: [t.Mixed, t.Mixed, ...t.Mixed[]],
    private readonly caseJson: (value: unknown) => t.Mixed | undefined,
  ) {
    const union = t.union(members);
    super(union.name, union.is, union.validate, union.encode, members);
  }

  misfitPart(value: unknown): MisfitPart | undefined {
    let member: t.Mixed | undefined;
    try {
      member = this.caseJson(value);
    } catch {
      return undefined; // no case for it: the switch itself is the misfit
    }
    return member === undefined || member.is(value) ? undefined : { type: member, value };
  }
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
  const built = new Map<string, Codec<A> | undefined>();
  // The case named last is kept at hand: values of one case mostly come in runs (an array's elements).
  let lastKey: string | undefined;
  let lastCodec: Codec<A> | undefined;
  const caseNamed = (key: string): Codec<A> | undefined => {
    if (key === lastKey) return lastCodec;
    let codec = built.get(key);
    if (codec === undefined && !built.has(key)) {
      codec = cases.build(key as K);
      built.set(key, codec);
    }
    lastKey = key;
    lastCodec = codec;
    return codec;
  };
  const name = options.name ?? `switchOn(${selector.name})`;
  const caseOfWhat = `${name}: caseOf`;
  const d = dispatcher<S>({
    name,
    selector,
    caseNamed,
    otherwise: undefined,
    minSize: options.minSize ?? selector.minSize,
    select: options.select,
    unknown:
      options.unknown ??
      ((s: S) => `unknown ${selector.name} ${JSON.stringify(s)} (known: ${cases.keys().join(', ')})`),
  });
  // The cases are listed for tools only when one asks (building them all is what on-demand avoids).
  const listed = (): ReadonlyArray<DefSwitchCase> =>
    cases.keys().flatMap((key) => {
      const codec = caseNamed(key);
      return codec === undefined ? [] : [{ key, codec }];
    });
  const def = { type: 'switch', selector, otherwise: undefined, tag: 'hidden' } as Omit<DefSwitch, 'cases'>;
  Object.defineProperty(def, 'cases', { get: listed, enumerable: true });
  const codec = defineCodec<A>({
    name,
    def: def as DefSwitch,
    json: options.json,
    minSize: d.minSize,
    read(r) {
      return d.pickCodec(r).read(r);
    },
    write(w, value) {
      // Once per value written (EDGE: per instance): no closures, the hook's name made once.
      let key: K;
      try {
        key = options.caseOf(value);
      } catch (error) {
        if (error instanceof EncodeError) throw error;
        throw w.error(`${caseOfWhat}: ${error instanceof Error ? error.message : String(error)}`);
      }
      d.write(w, key, value);
    },
  });
  Object.defineProperty(codec, 'children', { get: listed, enumerable: true });
  return codec;
}

/** Options of {@link lookahead}. */
export interface LookaheadOptions<O> {
  /**
   * The codec for a selector no case claims, reading from the same place as the cases do (the
   * selector's bytes included) — `bytes(rest)` or a raw chunk, so unknown data is kept. Without it an
   * unknown selector is a DecodeError listing the known ones.
   */
  readonly otherwise: Codec<O>;
}

/**
 * Chooses a codec by bytes not yet consumed, and shows the choice: the value is `{ tag, value }` as
 * for {@link taggedUnion}, with the peeked selector as the tag (and `otherwise` keeps unknown data as
 * `{ tag, value }` too). The case reads from where the selector starts — the selector's bytes
 * included, so a chunk reads its own marker. Errors inside a case name `value` in their path.
 *
 * On write the tag picks the case and the case writes the bytes; then the selector is read back
 * from what was written, and an EncodeError says so if it does not give the tag back (a value moved
 * to another case without its marker), since such bytes would decode as another case.
 *
 * Use {@link switchOn} instead when the document tells its cases apart by itself.
 *
 * @example
 * ```ts
 * const entry = lookahead(fourcc(), {
 *   RIFF: struct({ id: magic('RIFF'), size: u32le }),
 *   LIST: struct({ id: magic('LIST'), count: u16le }),
 * }, { otherwise: bytes('rest') });
 * // bytes "LIST" 02 00 → { tag: 'LIST', value: { id: 'LIST', count: 2 } }
 * ```
 */
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>>(
  selector: Codec<T>,
  cases: V,
): Codec<Tagged<V>>;
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  selector: Codec<T>,
  cases: V,
  options: LookaheadOptions<O>,
): Codec<Tagged<V> | OtherTag<T, O>>;
export function lookahead<T extends string | number, V extends Readonly<Record<T, Codec<any>>>, O>(
  selector: Codec<T>,
  cases: V,
  options?: LookaheadOptions<O>,
): Codec<any> {
  const name = `lookahead(${selector.name})`;
  const codecs = cases as Readonly<Record<string, Codec<any>>>;
  const keys = Object.keys(codecs);
  const otherwise = options?.otherwise;
  // Every selector value is its own case key; an unknown one is read by `otherwise` when there is one.
  const d = dispatcher<T>({
    name,
    selector,
    caseNamed: (key) => (Object.hasOwn(codecs, key) ? codecs[key] : undefined),
    otherwise,
    minSize: Math.max(
      selector.minSize,
      Math.min(...[...Object.values(codecs), ...(otherwise === undefined ? [] : [otherwise])].map((c) => c.minSize)),
    ),
    select: (s) => String(s),
    unknown: (s) => `unknown tag ${JSON.stringify(s)} (known: ${keys.join(', ')})`,
  });
  // The same `{ tag, value }` as a tagged union of the selector's type, so JSON forms agree.
  const shape = options === undefined ? taggedUnion(selector, cases) : taggedUnion(selector, cases, options);
  const def: DefSwitch = {
    type: 'switch',
    selector,
    cases: keys.map((key) => ({ key, codec: codecs[key]! })),
    otherwise,
    tag: 'shown',
  };
  return defineCodec<any>({
    name,
    def,
    json: shape.json,
    minSize: d.minSize,
    children: [...def.cases, ...(otherwise === undefined ? [] : [{ key: '*', codec: otherwise }])],
    read(r) {
      const { selected, codec } = d.pick(r);
      return { tag: selected, value: readChild(r, 'value', codec) };
    },
    write(w, tagged) {
      if (typeof tagged !== 'object' || tagged === null) throw w.error('wrong-type', 'expected { tag, value }');
      d.write(w, String(tagged.tag), undefined, (codec) => writeChild(w, 'value', codec, tagged.value));
    },
  });
}
