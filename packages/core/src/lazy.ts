/**
 * Recursive codecs. Each level counts against the decode's `maxDepth`, so hostile nesting fails with a
 * DecodeError long before the call stack runs out.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, type Codec } from './codec.js';

/**
 * A codec defined later, for recursive types.
 *
 * @example
 * ```ts
 * interface Node { value: number; children: Node[] }
 * const node: Codec<Node> = struct({ value: u8, children: lazy(() => array(node, u8)) });
 * ```
 */
export function lazy<A>(define: () => Codec<A>, name = 'lazy'): Codec<A> {
  let resolved: Codec<A> | undefined;
  const get = () => (resolved ??= define());
  const json = new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => get().json.is(u),
    (u, c) => get().json.validate(u, c),
    (a) => get().json.encode(a),
  );
  return defineCodec<A>({
    name,
    kind: 'lazy',
    json,
    minSize: 0,
    meta: { resolve: get },
    read(r) {
      r.descend();
      const value = get().read(r);
      r.ascend();
      return value;
    },
    write(w, value) {
      w.descend();
      get().write(w, value);
      w.ascend();
    },
  });
}
