/**
 * A limit on how many values of a kind may be open at once while a file is read or written — a
 * format's own nesting limit (EDGE's `MAX_CHUNK_DEPTH` on instance chunks), beside the decode's
 * `maxDepth` — and the work each such value costs, charged before it is read.
 *
 * It does what pairs of hooks counting in the decode's or encode's context would, with nothing made
 * per value: a save reads and writes hundreds of thousands of such values.
 *
 * @module
 */
import { defineCodec, wrapping, type Codec } from './codec.js';
import { customDef } from './def.js';
import { ROLLBACK, type Rollbackable } from './reader.js';

/** Options of {@link nestingLimit}. */
export interface NestingLimitOptions {
  /**
   * Names the count in the decode's context (`ReadState.context`): every codec limited under one
   * key counts toward one number per decode.
   */
  readonly key: object;
  /** How many values under {@link NestingLimitOptions.key} may be open (being read) at once. */
  readonly most: number;
  /** The message of the `too-deep` DecodeError for a value past {@link NestingLimitOptions.most}. */
  readonly message: string;
  /**
   * The work units charged for each value before it is read (default none). Called per value, as
   * a cost may be settled only once the file has defined what the value is.
   */
  readonly cost?: () => number;
}

/** How many values under one key are open in one decode: a rolled-back reading puts it back. */
class OpenCount implements Rollbackable {
  open = 0;
  [ROLLBACK](): () => void {
    const open = this.open;
    return () => {
      this.open = open;
    };
  }
}

/**
 * `codec`, read as one more open value under `options.key`: past `options.most` open at once, a
 * `too-deep` DecodeError with `options.message` at the value's start (path and offset); otherwise
 * `options.cost()` units of work are charged, then the value is read. A value whose reading fails
 * stays counted, as the decode ends there (or a rolled-back attempt puts the count back). Writing
 * counts the same way in the encode's context: past `options.most`, a `too-deep` EncodeError with
 * `options.message` at the value's path (no work is charged). The value, its JSON form and its laws
 * are `codec`'s.
 *
 * @example
 * ```ts
 * import { array, decode, lazy, nestingLimit, struct, u8, type Codec } from '@savekit/core';
 * interface Node { children: Node[] }
 * const NODES = {};
 * const node: Codec<Node> = nestingLimit(
 *   struct({ children: array(lazy(() => node), u8) }),
 *   { key: NODES, most: 2, message: 'nodes nested deeper than 2', cost: () => 1 },
 * );
 * decode(node, Uint8Array.of(1, 0))._tag; // 'Right': a node holding one node
 * decode(node, Uint8Array.of(1, 1, 0))._tag; // 'Left': too-deep, at the third node (offset 2)
 * ```
 */
export function nestingLimit<A>(codec: Codec<A>, options: NestingLimitOptions): Codec<A> {
  const { key, most, message, cost } = options;
  if (!Number.isInteger(most) || most < 0) throw new RangeError('nestingLimit: most must be a non-negative integer');
  return defineCodec<A>({
    name: codec.name,
    def: customDef('nestingLimit', { params: { most, message }, model: codec }),
    json: codec.json,
    ...wrapping(codec, 'value'),
    read(r) {
      const count = openCount(r.state.context, key);
      if (count.open + 1 > most) throw r.error('too-deep', message);
      count.open += 1;
      if (cost !== undefined) r.work(cost());
      const value = codec.read(r);
      count.open -= 1;
      return value;
    },
    write(w, value) {
      const count = openCount(w.state.context, key);
      if (count.open + 1 > most) throw w.error('too-deep', message);
      count.open += 1;
      codec.write(w, value);
      count.open -= 1;
    },
  });
}

/** The count under `key` in a decode's or encode's context, made on first use. */
function openCount(context: Map<unknown, unknown>, key: object): OpenCount {
  let count = context.get(key) as OpenCount | undefined;
  if (count === undefined) {
    count = new OpenCount();
    context.set(key, count);
  }
  return count;
}
