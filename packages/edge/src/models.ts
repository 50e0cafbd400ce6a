/**
 * Models for tools: what a generated save should hold where a field reads any value but only a few
 * make sense to draw (a version that names a variant, an element count a generated chunk can hold, a
 * name a definition has).
 *
 * @module
 */
import { fallback, literal, withModel, type Codec } from '@savekit/core';

/**
 * A model that draws one of `values` as often as not, else any value of `codec` (`other` says what
 * that is: the warning the model's fallback records).
 */
export function oftenOneOfModel<A extends string | number>(
  codec: Codec<A>,
  values: readonly [A, ...A[]],
  other: string,
): Codec<A> {
  // `literal` takes a text or a number codec; `A` is one of the two.
  const known = literal(
    codec as unknown as Codec<string>,
    ...(values as unknown as [string, ...string[]]),
  ) as unknown as Codec<A>;
  return fallback(known, codec, { warning: { code: 'model', message: other } });
}

/** `codec` unchanged, named `name`, with the model {@link oftenOneOfModel} of `values`. */
export function oftenOneOf<A extends string | number>(
  codec: Codec<A>,
  name: string,
  values: readonly [A, ...A[]],
  other: string,
): Codec<A> {
  return withModel(codec, { name, model: () => oftenOneOfModel(codec, values, other) });
}
