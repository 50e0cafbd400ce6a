// The core's public API with decode and encode running every codec both ways: interpreted (with
// `compiled: false`, as every struct and array runs its plan otherwise), and compiled with `compile`. Each call asserts that the two agree exactly — the same value, warnings,
// trailing bytes and spans, or the same error (name, message, code, path, offset and every other
// field) — and returns the compiled result. compiled-paths.test.ts runs the law, round-trip, hostile
// and fuzz suites against it, so every input those suites try is a comparison of the two paths.
import { isDeepStrictEqual } from 'node:util';
import * as E from 'fp-ts/lib/Either';
import type * as Core from '../src/index';

const real = jest.requireActual<typeof Core>('../src/index');

/**
 * `both` (the default): each call runs both paths and compares them. `compiled`: only the compiled
 * path runs, for the few tests that count what their codecs' callbacks did (running twice would
 * double their counts); their own assertions then check the compiled path.
 */
export const mode: { current: 'both' | 'compiled' } = { current: 'both' };

const compiledCodecs = new WeakMap<Core.AnyCodec, Core.AnyCodec>();
/** The compiled form of a codec, made once. */
export function compiledOf<A>(codec: Core.Codec<A>): Core.Codec<A> {
  let compiled = compiledCodecs.get(codec);
  if (compiled === undefined) {
    compiled = real.compile(codec);
    compiledCodecs.set(codec, compiled);
  }
  return compiled;
}

/** Everything an error carries, as a plain object (own fields, name and message). */
export function errorFields(error: Error): Record<string, unknown> {
  return { ...error, name: error.name, message: error.message };
}

function describeResult(result: E.Either<Error, unknown>): string {
  const shown = E.isLeft(result) ? errorFields(result.left) : result.right;
  return JSON.stringify(shown, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v));
}

function same(what: string, interpreted: E.Either<Error, unknown>, compiled: E.Either<Error, unknown>): void {
  const agree =
    E.isLeft(interpreted) && E.isLeft(compiled)
      ? isDeepStrictEqual(errorFields(interpreted.left), errorFields(compiled.left)) &&
        interpreted.left.constructor === compiled.left.constructor
      : E.isRight(interpreted) && E.isRight(compiled) && isDeepStrictEqual(interpreted.right, compiled.right);
  if (!agree) {
    throw new Error(
      `${what}: the compiled codec disagrees with the interpreted one\n  interpreted: ${describeResult(interpreted)}\n  compiled:    ${describeResult(compiled)}`,
    );
  }
}

export function decode<A>(codec: Core.Codec<A>, bytes: Uint8Array, options?: Core.DecodeOptions) {
  if (mode.current === 'compiled') return real.decode(compiledOf(codec), bytes, options);
  const budget = options?.budget;
  const saved = budget === undefined ? undefined : [budget.workSpent, budget.outputSpent];
  const interpreted = real.decode(codec, bytes, { ...options, compiled: false });
  if (budget !== undefined && saved !== undefined) [budget.workSpent, budget.outputSpent] = saved as [number, number];
  const compiled = real.decode(compiledOf(codec), bytes, options);
  same(`decode(${codec.name})`, interpreted, compiled);
  if (options === undefined) {
    // The hot-loop entry gives what decodeOrThrow gives.
    let fast: E.Either<Error, A>;
    try {
      fast = E.right(real.decoder(compiledOf(codec))(bytes));
    } catch (error) {
      fast = E.left(error as Error);
    }
    same(`decoder(${codec.name})`, E.isLeft(interpreted) ? interpreted : E.right(interpreted.right.value), fast);
  }
  return compiled;
}

export function encode<A>(codec: Core.Codec<A>, value: A, options?: Core.EncodeOptions) {
  if (mode.current === 'compiled') return real.encode(compiledOf(codec), value, options);
  const interpreted = real.encode(codec, value, { ...options, compiled: false });
  const compiled = real.encode(compiledOf(codec), value, options);
  same(`encode(${codec.name})`, interpreted, compiled);
  return compiled;
}

export function decodeOrThrow<A>(codec: Core.Codec<A>, bytes: Uint8Array, options?: Core.DecodeOptions): A {
  const result = decode(codec, bytes, options);
  if (E.isLeft(result)) throw result.left;
  return result.right.value;
}

export function encodeOrThrow<A>(codec: Core.Codec<A>, value: A, options?: Core.EncodeOptions): Uint8Array {
  const result = encode(codec, value, options);
  if (E.isLeft(result)) throw result.left;
  return result.right;
}
