/**
 * The round-trip suite: the decode/encode laws on samples and on generated documents, JSON dump and
 * build identity, and sniffing of the format's own output.
 *
 * @module
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { isSaveTree, type AnyCodec, type SaveFormat, type SaveInput } from '@savekit/core';
import { arbitrary, type ArbitraryOptions } from './arbitrary.js';
import { checkDecodedPaths } from './paths.js';
import { finish, preview, type SuiteFailure, type SuiteReport } from './report.js';
import { sameSave } from './same-save.js';

/** Options of {@link roundTripSuite}. */
export interface RoundTripOptions<Doc> {
  /** Real or bundled saves: each must decode, re-encode byte for byte, and survive JSON. */
  readonly samples?: ReadonlyArray<SaveInput>;
  /** Generated documents. Give this, or `codec` to derive them. */
  readonly arbitraries?: fc.Arbitrary<Doc>;
  /** The format's root codec, to derive generated documents from (see `arbitrary`). */
  readonly codec?: AnyCodec;
  /** Options of the derived arbitrary. */
  readonly arbitraryOptions?: ArbitraryOptions;
  /** Generated documents to try (default 1,000). */
  readonly numRuns?: number;
  /**
   * With `codec`: also decode each save with it, tracing, and check that every span and warning path
   * resolves in `toJson` of the value (see `checkDecodedPaths`). Default true when `codec` is given.
   */
  readonly checkPaths?: boolean;
  /** Add this run to the CI totals (default true; the kit's own tests of broken formats say false). */
  readonly record?: boolean;
}

const show = (input: SaveInput) => (isSaveTree(input) ? `tree of ${input.size} files` : preview(input));

/**
 * Runs the laws on a format and returns the report; throws a `SuiteError` listing what failed.
 * Runner-agnostic: call it inside a jest/vitest/mocha test, or from a script.
 *
 * @example
 * ```ts
 * test('skirmish round-trips', () => {
 *   roundTripSuite(format, { samples: [sampleBytes], codec: skirmishSave });
 * });
 * ```
 */
export function roundTripSuite<Doc>(format: SaveFormat<Doc>, options: RoundTripOptions<Doc> = {}): SuiteReport {
  const failures: SuiteFailure[] = [];
  let iterations = 0;
  const pathCodec = options.checkPaths !== false ? options.codec : undefined;
  // One document through every law; returns the failures it showed.
  const lawsOn = (check: string, input: SaveInput, fromDoc: boolean) => {
    const decoded = format.decode(input);
    if (E.isLeft(decoded))
      return failures.push({ check, message: `does not decode: ${decoded.left.toString()}`, input: show(input) });
    const again = format.encode(decoded.right.value);
    if (E.isLeft(again))
      return failures.push({ check, message: `does not re-encode: ${again.left.toString()}`, input: show(input) });
    if (!sameSave(again.right, input))
      return failures.push({ check, message: 'encode(decode(bytes)) differs from the bytes', input: show(input) });
    const json = JSON.parse(JSON.stringify(format.json.encode(decoded.right.value)));
    const back = format.json.decode(json);
    if (E.isLeft(back))
      return failures.push({
        check,
        message: "its JSON does not validate against the format's own type",
        input: show(input),
      });
    const rebuilt = format.encode(back.right);
    if (E.isLeft(rebuilt) || !sameSave(rebuilt.right, input))
      return failures.push({ check, message: 'JSON dump then build gives other bytes', input: show(input) });
    if (pathCodec !== undefined && !isSaveTree(input)) {
      let problems: ReturnType<typeof checkDecodedPaths>;
      try {
        problems = checkDecodedPaths(pathCodec, input);
      } catch (error) {
        return failures.push({ check, message: `the codec does not decode it: ${String(error)}`, input: show(input) });
      }
      if (problems.length > 0)
        return failures.push({
          check,
          message: `${problems.length} ${problems.length === 1 ? 'path does' : 'paths do'} not resolve in the document: ${problems
            .slice(0, 3)
            .map((p) => `${p.source} ${p.path}`)
            .join('; ')}`,
          input: show(input),
        });
    }
    let confidence = 0;
    try {
      confidence = format.sniff(input);
    } catch (error) {
      return failures.push({ check, message: `sniff threw: ${String(error)}`, input: show(input) });
    }
    if (!(confidence > 0))
      return failures.push({
        check,
        message: `sniff does not recognise ${fromDoc ? "the format's own output" : 'the sample'}`,
        input: show(input),
      });
    return undefined;
  };
  for (const [i, sample] of (options.samples ?? []).entries()) {
    iterations++;
    lawsOn(`sample ${i}`, sample, false);
  }
  const documents =
    options.arbitraries ??
    (options.codec ? (arbitrary(options.codec, options.arbitraryOptions) as fc.Arbitrary<Doc>) : undefined);
  if (documents !== undefined) {
    const runs = options.numRuns ?? 1000;
    const before = failures.length;
    fc.check(
      fc.property(documents, (doc) => {
        iterations++;
        const bytes = format.encode(doc);
        if (E.isLeft(bytes)) {
          failures.push({ check: 'generated document', message: `does not encode: ${bytes.left.toString()}` });
          return false;
        }
        const decoded = format.decode(bytes.right);
        if (E.isLeft(decoded)) {
          failures.push({
            check: 'generated document',
            message: `its encoding does not decode: ${decoded.left.toString()}`,
            input: show(bytes.right),
          });
          return false;
        }
        return lawsOn('generated document', bytes.right, true) === undefined;
      }),
      { numRuns: runs, endOnFailure: true },
    );
    // fast-check shrinks; keep only the first (unshrunk) failure and the smallest, not every step.
    if (failures.length - before > 2) failures.splice(before + 1, failures.length - before - 2);
  }
  if (iterations === 0)
    failures.push({ check: 'setup', message: 'nothing to check: give samples, arbitraries or a codec' });
  return finish({ suite: 'roundTrip', format: format.id, iterations, failures }, options.record ?? true);
}
