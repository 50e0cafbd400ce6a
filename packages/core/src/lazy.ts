/**
 * Recursive codecs. Each level counts against the decode's or encode's `maxDepth`, so hostile nesting
 * fails with a DecodeError or EncodeError long before the call stack runs out; in the JSON direction
 * each level counts against the `maxDepth` of `fromJson` / `toJson` (default 512), and going past it is
 * a JsonError.
 *
 * @module
 */
import { defineCodec, type Codec } from './codec.js';
import { lazyJson } from './json.js';

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
  const json = lazyJson(name, () => get().json);
  return defineCodec<A>({
    name,
    def: { type: 'lazy', resolve: get },
    json,
    minSize: 0,
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
