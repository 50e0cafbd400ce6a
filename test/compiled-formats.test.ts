// Every format plugin through both paths: its codecs compiled (the default) and interpreted
// (`{ compiled: false }`). On the bundled samples, every real file of the corpus and mutations of
// each (flips, cuts, insertions, …), decode must give the same document and warnings or the same
// error (message, code, path, offset), and encoding the document the same bytes or the same error.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnySaveFormat, type DecodeError, type EncodeError, formatsOf, type SaveInput } from '@savekit/core';
import * as edge from '@savekit/edge';
import * as skirmish from '../examples/src/skirmish';
import { corpus, mutate, prng, testBudget } from '@savekit/testkit';
import * as terrarum from '@savekit/terrarum';
import * as uqm from '@savekit/uqm';
import * as zippy from '@savekit/zippy';
import { PLAN_AT } from '../packages/core/src/auto-compile';
import { compiledCalls } from '../packages/core/src/compile';
import * as E from 'fp-ts/lib/Either';

const FORMATS: AnySaveFormat[] = [edge, uqm, zippy, terrarum, skirmish].flatMap((m) =>
  formatsOf(m as Record<string, unknown>),
);
const INTERPRETED = { compiled: false } as const;
const KINDS = ['flip', 'truncate', 'insert', 'inflate', 'duplicate', 'swap', 'zero', 'hostile'] as const;
const MUTATIONS_PER_SEED = testBudget({ quick: 40, heavy: 400 });

/** What must be equal between the two paths' errors. */
function errorFacts(error: DecodeError | EncodeError) {
  return { name: error.name, message: error.message, code: error.code, path: error.path, offset: error.offset };
}

/** Decodes and encodes `input` with `format` both ways and fails the test on any difference. */
function sameBothWays(format: AnySaveFormat, input: SaveInput, label: string): 'decoded' | 'refused' {
  const compiled = format.decode(input);
  const interpreted = format.decode(input, INTERPRETED);
  if (E.isLeft(compiled) || E.isLeft(interpreted)) {
    expect({ label, result: E.isLeft(compiled) ? errorFacts(compiled.left) : 'decoded' }).toEqual({
      label,
      result: E.isLeft(interpreted) ? errorFacts(interpreted.left) : 'decoded',
    });
    return 'refused';
  }
  expect(compiled.right.value).toEqual(interpreted.right.value);
  expect(compiled.right.warnings).toEqual(interpreted.right.warnings);
  const written = format.encode(compiled.right.value);
  const writtenInterpreted = format.encode(compiled.right.value, INTERPRETED);
  if (E.isLeft(written) || E.isLeft(writtenInterpreted)) {
    expect({ label, result: E.isLeft(written) ? errorFacts(written.left) : 'encoded' }).toEqual({
      label,
      result: E.isLeft(writtenInterpreted) ? errorFacts(writtenInterpreted.left) : 'encoded',
    });
  } else {
    expect(written.right).toEqual(writtenInterpreted.right);
  }
  return 'decoded';
}

/** The bundled samples and every real file of the corpus, each with the formats that claim it. */
function seeds(): Array<{ name: string; bytes: Uint8Array; formats: AnySaveFormat[] }> {
  const samples = join(__dirname, '..', 'examples', 'saves');
  const files: Array<{ name: string; bytes: Uint8Array }> = readdirSync(samples).map((name) => ({
    name: `examples/saves/${name}`,
    bytes: new Uint8Array(readFileSync(join(samples, name))),
  }));
  for (const folder of ['edge', 'uqm', 'terrarum']) {
    const real = corpus(folder);
    if (!real.warnIfAbsent(`compiled-vs-interpreted on the ${folder} corpus`)) continue;
    for (const [name, bytes] of real.files((n) => !/\.(txt|json|md)$/i.test(n)))
      files.push({ name: `${folder}/${name}`, bytes });
  }
  return files.map((file) => ({ ...file, formats: FORMATS.filter((f) => f.sniff(file.bytes) > 0) }));
}

describe('every format decodes and encodes the same compiled and interpreted', () => {
  const all = seeds();

  test('every seed is claimed by a format', () => {
    expect(all.filter((s) => s.formats.length === 0).map((s) => s.name)).toEqual([]);
  });

  for (const seed of all) {
    test(`${seed.name}: as it is, and ${MUTATIONS_PER_SEED} mutations`, () => {
      for (const format of seed.formats) {
        expect(sameBothWays(format, seed.bytes, `${format.id} ${seed.name}`)).toBe('decoded');
        const random = prng(seed.bytes.length);
        let refused = 0;
        for (let i = 0; i < MUTATIONS_PER_SEED; i++) {
          const kind = KINDS[i % KINDS.length]!;
          const input = mutate(seed.bytes, kind, random);
          if (sameBothWays(format, input, `${format.id} ${seed.name} ${kind} #${i}`) === 'refused') refused++;
        }
        // The mutations reach the error paths, not only the accepting ones.
        expect(refused).toBeGreaterThan(0);
      }
    });
  }
});

// Every format's root is a kind the compiler runs interpreted (a map, a switch, a checksum), so its
// compiled root alone would run no plan: the structs and arrays under it run theirs (once used
// PLAN_AT times; see the guide's Compiled codecs page), with no code of the format's own.
describe('every format runs compiled plans', () => {
  const samples = seeds().filter((s) => s.name.startsWith('examples/saves/'));
  const covered = new Set(samples.flatMap((s) => s.formats.map((f) => f.id)));

  test('there is a sample of every package (EDGE, UQM, Zippy, Terrarum, the example)', () => {
    const packages = [edge, uqm, zippy, terrarum, skirmish].map((m) =>
      formatsOf(m as Record<string, unknown>).map((f) => f.id),
    );
    expect(packages.filter((ids) => !ids.some((id) => covered.has(id)))).toEqual([]);
  });

  for (const seed of samples) {
    test(`${seed.name}: decoding and encoding run plans, none redone`, () => {
      for (const format of seed.formats) {
        // A struct or array runs its plan once it has been used PLAN_AT times.
        const first = format.decode(seed.bytes);
        if (E.isLeft(first)) throw first.left;
        for (let i = 0; i < PLAN_AT; i++) {
          format.decode(seed.bytes);
          format.encode(first.right.value);
        }
        const before = { ...compiledCalls };
        const decoded = format.decode(seed.bytes);
        if (E.isLeft(decoded)) throw decoded.left;
        const encoded = format.encode(decoded.right.value);
        if (E.isLeft(encoded)) throw encoded.left;
        const runs = {
          format: format.id,
          reads: compiledCalls.reads - before.reads > 0,
          readsRedone: compiledCalls.readsRedone - before.readsRedone,
          writes: compiledCalls.writes - before.writes > 0,
          writesRedone: compiledCalls.writesRedone - before.writesRedone,
        };
        expect(runs).toEqual({ format: format.id, reads: true, readsRedone: 0, writes: true, writesRedone: 0 });
      }
    });
  }
});
