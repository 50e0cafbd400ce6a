/**
 * Which codecs `compile` may specialise: those made by this package's own factories, whose `def`
 * says exactly how they read and write. A codec that shows another's definition but reads
 * differently (`borrowedBytes` has the `bytes` definition and returns views, `lookahead` has a tagged
 * union's, `reordered` a struct's) is not marked, so the compiler runs it interpreted.
 *
 * @module
 */
import { defineCodec, type AnyCodec, type Codec, type CodecSpec } from './codec.js';

const exact = new WeakSet<AnyCodec>();

/** {@link defineCodec} for a core factory whose definition describes its reading and writing exactly. */
export function defineExactCodec<A>(spec: CodecSpec<A>): Codec<A> {
  const codec = defineCodec(spec);
  exact.add(codec);
  return codec;
}

/** Whether the codec was made by {@link defineExactCodec}. */
export function isExact(codec: AnyCodec): boolean {
  return exact.has(codec);
}
