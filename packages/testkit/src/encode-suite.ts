/**
 * The encode suite: whatever encodes, decodes — to the same document. Sample documents are changed
 * in one place of their JSON form at a time (a string emptied, made a lone surrogate, very long, 3 or
 * 5 bytes, or a sibling's value so ids and names collide; a number made −1, 0, 2^31, 2^32, 2^53, 1.5
 * or `"NaN"`; a boolean or null swapped; an array element removed or duplicated; a name renamed to
 * `""`, `__proto__`, …), the way a user edits a dump before building it. Then `fromJson` may refuse
 * the document with its `JsonError`, and `encode` may refuse it with an `EncodeError`, but neither may
 * throw; and what `encode` writes must decode, to the same document.
 *
 * @module
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  formatPath,
  fromJson,
  isSaveTree,
  toJson,
  type DecodeOptions,
  type Path,
  type SaveFormat,
  type SaveInput,
} from '@savekit/core';
import { testBudget } from './budget.js';
import { finish, preview, type SuiteFailure, type SuiteReport } from './report.js';
import { sameSave } from './same-save.js';

/** Options of {@link encodeSuite}. */
export interface EncodeSuiteOptions<Doc> {
  /** Saves whose documents are mutated (each must decode). */
  readonly samples?: ReadonlyArray<SaveInput>;
  /** Documents to mutate, besides those of the samples. */
  readonly documents?: ReadonlyArray<Doc>;
  /** Mutations per document (default `testBudget({ quick: 200, heavy: 5000 })`). */
  readonly runs?: number;
  /**
   * What an encoded document must decode to. `document` (the default, the stricter): the same
   * document — its JSON equals the JSON of the document that was encoded, except at `normalises`.
   * `fixed-point`: a document that encodes to the same bytes again.
   */
  readonly check?: 'document' | 'fixed-point';
  /**
   * Fields whose value legitimately changes on the way through encode and decode (a count or
   * checksum the encoder recomputes), as paths the way errors print them, with `*` for one name or
   * index and `**` for any run: `header.checksum`, `entries[*].size`, `files.*.crc`. A difference
   * at or below such a path is not reported.
   */
  readonly normalises?: ReadonlyArray<string>;
  /** Options of the decodes (default: the format's). */
  readonly decodeOptions?: DecodeOptions;
  /** Seed of the mutation generator, for reproducing a run (default 1). */
  readonly seed?: number;
  /** Add this run to the CI totals (default true; the kit's own tests of broken formats say false). */
  readonly record?: boolean;
}

/** The report of {@link encodeSuite}: the suite report, and what became of the mutated documents. */
export interface EncodeReport extends SuiteReport {
  readonly suite: 'encode';
  /** Mutated documents `fromJson` refused with its JsonError. */
  readonly refusedByJson: number;
  /** Mutated documents `encode` refused with an EncodeError. */
  readonly refusedByEncode: number;
  /** Mutated documents that encoded, and were decoded and compared. */
  readonly encoded: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A place in a document to mutate. */
type Target =
  | { readonly kind: 'string' | 'number' | 'boolean' | 'null' | 'array'; readonly path: Path }
  | { readonly kind: 'key'; readonly path: Path; readonly key: string };

const LONG = (n: number) => 'a'.repeat(n);
const STRINGS: ReadonlyArray<readonly [string, string]> = [
  ['""', ''],
  ['a lone surrogate', '\ud800'],
  ['256 characters', LONG(256)],
  ['65,536 characters', LONG(65_536)],
  ['3 bytes', 'abc'],
  ['5 bytes', 'abcde'],
];
const NUMBERS: ReadonlyArray<readonly [string, Json]> = [
  ['-1', -1],
  ['0', 0],
  ['2^31', 2 ** 31],
  ['2^32', 2 ** 32],
  ['2^53', 2 ** 53],
  ['1.5', 1.5],
  ['"NaN"', 'NaN'],
];
const NULL_SWAPS: ReadonlyArray<readonly [string, Json]> = [
  ['false', false],
  ['0', 0],
  ['""', ''],
];
const KEYS: ReadonlyArray<readonly [string, string]> = [
  ['""', ''],
  ['a lone surrogate', '\ud800'],
  ['3 bytes', 'abc'],
  ['5 bytes', 'abcde'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
];

const isObject = (v: unknown): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every place of `json` a mutation can change. */
function targets(json: Json): Target[] {
  const out: Target[] = [];
  // A work list, not recursion: documents may be deep.
  const stack: Array<[Json, Path]> = [[json, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (Array.isArray(value)) {
      out.push({ kind: 'array', path });
      for (const [i, item] of value.entries()) stack.push([item, [...path, i]]);
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        out.push({ kind: 'key', path, key });
        stack.push([value[key]!, [...path, key]]);
      }
    } else out.push({ kind: value === null ? 'null' : (typeof value as 'string' | 'number' | 'boolean'), path });
  }
  return out;
}

function at(json: Json, path: Path): Json | undefined {
  let value: Json | undefined = json;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isObject(value) && typeof segment === 'string' && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

/** An own data property, even for `__proto__`. */
function define(object: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `json` with the value at `path` replaced by `change(old)`: copies only the containers on the path. */
function update(json: Json, path: Path, change: (old: Json) => Json): Json {
  if (path.length === 0) return change(json);
  const [head, ...rest] = path;
  if (Array.isArray(json) && typeof head === 'number') {
    const copy = json.slice();
    copy[head] = update(json[head]!, rest, change);
    return copy;
  }
  if (isObject(json) && typeof head === 'string') {
    const copy = { ...json };
    define(copy, head, update(json[head]!, rest, change));
    return copy;
  }
  return json;
}

/** Another value of the same kind, from a sibling in the nearest enclosing array (else anywhere). */
function siblingValue(
  json: Json,
  path: Path,
  kind: 'string' | 'number',
  all: Target[],
  random: number,
): Json | undefined {
  const current = at(json, path);
  let k = path.length - 1;
  while (k >= 0 && typeof path[k] !== 'number') k--;
  if (k >= 0) {
    const array = at(json, path.slice(0, k));
    if (Array.isArray(array) && array.length > 1) {
      const rest = path.slice(k + 1);
      for (let step = 0; step < array.length; step++) {
        const j = (Math.floor(random * array.length) + step) % array.length;
        if (j === path[k]) continue;
        const value = at(array[j]!, rest);
        if (typeof value === kind && value !== current) return value;
      }
    }
  }
  const others = all.filter((t) => t.kind === kind);
  for (let step = 0; step < others.length; step++) {
    const other = others[(Math.floor(random * others.length) + step) % others.length]!;
    const value = at(json, other.path);
    if (value !== current) return value;
  }
  return undefined;
}

/** One mutation: its description and the new JSON, or undefined when it does not apply here. */
function mutation(
  json: Json,
  all: Target[],
  target: Target,
  choice: number,
  random: number,
): [string, Json] | undefined {
  const replace = (label: string, value: Json): [string, Json] => [label, update(json, target.path, () => value)];
  const pick = <T>(items: ReadonlyArray<T>) => items[choice % items.length]!;
  switch (target.kind) {
    case 'string':
    case 'number': {
      const options = target.kind === 'string' ? STRINGS.length + 1 : NUMBERS.length + 1;
      if (choice % options === options - 1) {
        const sibling = siblingValue(json, target.path, target.kind, all, random);
        return sibling === undefined ? undefined : replace(`a sibling's value ${JSON.stringify(sibling)}`, sibling);
      }
      const [label, value] = target.kind === 'string' ? pick(STRINGS) : pick(NUMBERS);
      return replace(label, value);
    }
    case 'boolean': {
      const old = at(json, target.path) as boolean;
      return choice % 2 === 0 ? replace(String(!old), !old) : replace('null', null);
    }
    case 'null': {
      const [label, value] = pick(NULL_SWAPS);
      return replace(label, value);
    }
    case 'array': {
      const array = at(json, target.path) as Json[];
      if (array.length === 0) return undefined;
      const i = Math.floor(random * array.length);
      return choice % 2 === 0
        ? [`element ${i} removed`, update(json, target.path, () => array.filter((_, j) => j !== i))]
        : [`element ${i} duplicated`, update(json, target.path, () => [...array.slice(0, i + 1), ...array.slice(i)])];
    }
    case 'key': {
      const [label, key] = pick(KEYS);
      const object = at(json, target.path) as { [key: string]: Json };
      if (Object.hasOwn(object, key)) return undefined;
      // Object.fromEntries defines own properties, so a `__proto__` key stays a key.
      const renamed = Object.fromEntries(Object.keys(object).map((k) => [k === target.key ? key : k, object[k]!]));
      return [`name ${JSON.stringify(target.key)} renamed to ${label}`, update(json, target.path, () => renamed)];
    }
  }
}

/** A path pattern of `normalises` as a regular expression over formatted paths (and what is below them). */
function patternOf(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const body = escaped.replace(/\\\*\\\*/g, '.*').replace(/\\\*/g, '[^.\\[\\]]*');
  return new RegExp(`^${body}(?:[.[].*)?$`);
}

/** The first path where `a` and `b` differ, outside `ignored` paths; undefined when they are equal. */
function difference(a: Json, b: Json, ignored: ReadonlyArray<RegExp>): Path | undefined {
  const stack: Array<[Json, Json, Path]> = [[a, b, []]];
  while (stack.length > 0) {
    const [x, y, path] = stack.pop()!;
    if (ignored.length > 0 && path.length > 0) {
      const shown = formatPath(path);
      if (ignored.some((re) => re.test(shown))) continue;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return path;
      for (let i = x.length - 1; i >= 0; i--) stack.push([x[i]!, y[i]!, [...path, i]]);
    } else if (isObject(x) && isObject(y)) {
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length || keys.some((k) => !Object.hasOwn(y, k))) return path;
      for (const k of keys.reverse()) stack.push([x[k]!, y[k]!, [...path, k]]);
    } else if (x !== y) return path;
  }
  return undefined;
}

/** The JSON form of a document, as JSON text would carry it (plain objects, -0 as 0, no undefined). */
function jsonOf<Doc>(format: SaveFormat<Doc>, doc: Doc): Json {
  return JSON.parse(JSON.stringify(toJson(format, doc))) as Json;
}

const shown = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error).slice(0, 300);
const typed = (error: unknown, name: string) =>
  error !== null &&
  typeof error === 'object' &&
  (error as { name?: unknown }).name === name &&
  Array.isArray((error as { path?: unknown }).path) &&
  typeof (error as { offset?: unknown }).offset === 'number';
const show = (value: Json | undefined) => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/**
 * Mutates each sample document in one place of its JSON form, `runs` times, and holds the format to
 * "whatever encodes, decodes": `fromJson` answers with a value or its `JsonError`, `encode` with
 * bytes or an `EncodeError` — neither throws — and bytes `encode` wrote decode, to the same document
 * (or, with `check: 'fixed-point'`, to one that encodes to the same bytes). Returns the report;
 * throws a `SuiteError` naming each failing mutation by its path and what was put there.
 *
 * @example
 * ```ts
 * encodeSuite(format, { samples: [sampleBytes], normalises: ['header.checksum'] });
 * ```
 */
export function encodeSuite<Doc>(format: SaveFormat<Doc>, options: EncodeSuiteOptions<Doc>): EncodeReport {
  const runs = options.runs ?? testBudget({ quick: 200, heavy: 5000 });
  const check = options.check ?? 'document';
  const ignored = (options.normalises ?? []).map(patternOf);
  const failures: SuiteFailure[] = [];
  const seen = new Set<string>();
  const fail = (check: string, message: string, key: string, input?: string) => {
    if (seen.has(key) || failures.length >= 20) return;
    seen.add(key);
    failures.push({ check, message, ...(input !== undefined ? { input } : {}) });
  };
  let iterations = 0;
  let refusedByJson = 0;
  let refusedByEncode = 0;
  let encoded = 0;

  const documents: Array<[string, Doc]> = [];
  for (const [i, sample] of (options.samples ?? []).entries()) {
    let decoded: ReturnType<typeof format.decode>;
    try {
      decoded = format.decode(sample, options.decodeOptions);
    } catch (error) {
      fail(`sample ${i}`, `decode threw ${shown(error)}`, `sample ${i}`);
      continue;
    }
    if (E.isLeft(decoded)) fail(`sample ${i}`, `does not decode: ${decoded.left.toString()}`, `sample ${i}`);
    else documents.push([`sample ${i}`, decoded.right.value]);
  }
  for (const [i, doc] of (options.documents ?? []).entries()) documents.push([`document ${i}`, doc]);

  for (const [name, doc] of documents) {
    const base = jsonOf(format, doc);
    const all = targets(base);
    if (all.length === 0) continue;
    const choices = fc.sample(
      fc.record({
        target: fc.nat({ max: all.length - 1 }),
        choice: fc.nat({ max: 1_000 }),
        random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      }),
      { numRuns: runs, seed: options.seed ?? 1 },
    );
    for (const { target, choice, random } of choices) {
      if (failures.length >= 20) break;
      const place = all[target]!;
      const mutated = mutation(base, all, place, choice, random);
      if (mutated === undefined) continue;
      iterations++;
      const [label, json] = mutated;
      const where = place.kind === 'key' ? formatPath([...place.path, place.key]) : formatPath(place.path);
      const what = `${name}, ${where} := ${label}`;
      // Failures of one kind at one place (indexes folded) are reported once.
      const key = (stage: string) => `${where.replace(/\[\d+\]/g, '[*]')} ${label.replace(/\d+/g, 'N')} ${stage}`;
      let parsed: ReturnType<typeof fromJson<Doc>>;
      try {
        parsed = fromJson(format, json);
      } catch (error) {
        fail(what, `fromJson threw ${shown(error)}`, key('fromJson'));
        continue;
      }
      if (E.isLeft(parsed)) {
        if (parsed.left?.name !== 'JsonError')
          fail(what, `fromJson failed with something other than a JsonError: ${shown(parsed.left)}`, key('fromJson'));
        refusedByJson++;
        continue;
      }
      let bytes: ReturnType<typeof format.encode>;
      try {
        bytes = format.encode(parsed.right);
      } catch (error) {
        fail(what, `encode threw ${shown(error)}`, key('encode'));
        continue;
      }
      if (E.isLeft(bytes)) {
        if (!typed(bytes.left, 'EncodeError'))
          fail(what, `encode failed with something other than an EncodeError: ${shown(bytes.left)}`, key('encode'));
        refusedByEncode++;
        continue;
      }
      encoded++;
      const input = isSaveTree(bytes.right) ? `tree of ${bytes.right.size} files` : preview(bytes.right);
      let back: ReturnType<typeof format.decode>;
      try {
        back = format.decode(bytes.right, options.decodeOptions);
      } catch (error) {
        fail(what, `its encoding makes decode throw ${shown(error)}`, key('decode'), input);
        continue;
      }
      if (E.isLeft(back)) {
        fail(what, `encoded into a save that does not decode: ${back.left.toString()}`, key('decode'), input);
        continue;
      }
      try {
        if (check === 'document') {
          const expected = jsonOf(format, parsed.right);
          const actual = jsonOf(format, back.right.value);
          const path = difference(expected, actual, ignored);
          if (path !== undefined)
            fail(
              what,
              `decodes to another document: at ${formatPath(path)}, ${show(at(expected, path))} became ${show(at(actual, path))}`,
              key('document'),
              input,
            );
        } else {
          const again = format.encode(back.right.value);
          if (E.isLeft(again) || !sameSave(again.right, bytes.right))
            fail(
              what,
              E.isLeft(again)
                ? `its decoding does not encode again: ${again.left.toString()}`
                : 'its decoding encodes to other bytes',
              key('fixed-point'),
              input,
            );
        }
      } catch (error) {
        fail(what, `comparing the decoded document threw ${shown(error)}`, key('compare'), input);
      }
    }
  }
  if (documents.length === 0 && failures.length === 0)
    failures.push({ check: 'setup', message: 'nothing to check: give samples or documents' });
  const report: EncodeReport = {
    suite: 'encode',
    format: format.id,
    iterations,
    failures,
    refusedByJson,
    refusedByEncode,
    encoded,
  };
  return finish(report, options.record ?? true) as EncodeReport;
}
