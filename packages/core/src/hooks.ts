/**
 * Hooks around a codec: code that runs before and after a value is read or written, with the
 * decode's or encode's shared context at hand — resolving references once a whole list is read,
 * numbering elements before a list is written — so such a step is part of a declaration.
 *
 * @module
 */
import { defineCodec, wrapping, type Codec } from './codec.js';
import { customDef } from './def.js';
import { DecodeError, EncodeError, type Path } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** What a read hook is given besides the value. */
export interface ReadHookContext {
  /** The reader (at the end of the value for `afterRead`, at its start for `beforeRead`). */
  readonly reader: Reader;
  /** Where the value starts. */
  readonly start: number;
  /** The path of the value (a copy, made when asked for: ask during the hook). */
  readonly path: Path;
  /** What the codecs of this decode tell each other (`ReadState.context`). */
  readonly context: Map<unknown, unknown>;
}

/** What a write hook is given besides the value. */
export interface WriteHookContext {
  /** The writer (after the value for `afterWrite`, before it for `beforeWrite`). */
  readonly writer: Writer;
  /** Where the value starts in the writer's output. */
  readonly start: number;
  /** The path of the value (a copy, made when asked for: ask during the hook). */
  readonly path: Path;
  /** What the codecs of this encode tell each other (`WriteState.context`). */
  readonly context: Map<unknown, unknown>;
}

/**
 * The hooks of {@link withHooks}; each is optional. Hooks observe and annotate: they may change
 * things the value refers to or carries outside its JSON form (a non-enumerable link, the shared
 * context), but a hook that changed the value itself would break the codec's laws — use `map` for
 * that. A hook refuses the value by throwing: a `DecodeError`/`EncodeError` as it is, anything else
 * as a DecodeError/EncodeError at the value's path naming the hook.
 */
export interface CodecHooks<A> {
  /** Before the value is read (to set up what its parts will report to). */
  readonly beforeRead?: (ctx: ReadHookContext) => void;
  /** After the value is read (to resolve references, check cross-field rules, count work). */
  readonly afterRead?: (value: A, ctx: ReadHookContext) => void;
  /** Before the value is written (to number elements its parts will refer to, check it). */
  readonly beforeWrite?: (value: A, ctx: WriteHookContext) => void;
  /** After the value is written. */
  readonly afterWrite?: (value: A, ctx: WriteHookContext) => void;
}

// Hook contexts copy the path when a hook asks for it: most hooks never do, and hooks run per value.
// (Classes, so that making one per value stays cheap.)
abstract class Hooked {
  constructor(readonly start: number) {}
  /** The decode's or encode's state: where the path and context are. */
  protected abstract get state(): { readonly path: Path; readonly context: Map<unknown, unknown> };
  get path(): Path {
    return this.state.path.slice();
  }
  get context(): Map<unknown, unknown> {
    return this.state.context;
  }
}

class ReadHooked extends Hooked implements ReadHookContext {
  constructor(
    readonly reader: Reader,
    start: number,
  ) {
    super(start);
  }
  protected get state() {
    return this.reader.state;
  }
}

class WriteHooked extends Hooked implements WriteHookContext {
  constructor(
    readonly writer: Writer,
    start: number,
  ) {
    super(start);
  }
  protected get state() {
    return this.writer.state;
  }
}

/** What a read hook threw, as `guardRead` makes it: a DecodeError as it is, else one naming the hook. */
function readHookError(r: Reader, hook: string, error: unknown, offset: number): DecodeError {
  return error instanceof DecodeError
    ? error
    : r.error(`${hook}: ${error instanceof Error ? error.message : String(error)}`, offset);
}

/** What a write hook threw, as `guardWrite` makes it. */
function writeHookError(w: Writer, hook: string, error: unknown): EncodeError {
  return error instanceof EncodeError
    ? error
    : w.error(`${hook}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * `codec` with hooks run around its reads and writes. The value, its JSON form and its laws are
 * `codec`'s.
 *
 * @example
 * ```ts
 * const save = withHooks(chunks, {
 *   afterRead(list, { context, reader }) {
 *     for (const ref of pendingRefs(context)) resolve(ref, list); // throw to refuse a dangling one
 *   },
 *   beforeWrite(list, { context }) {
 *     context.set(NUMBERING, numberElements(list));
 *   },
 * });
 * ```
 */
export function withHooks<A>(codec: Codec<A>, hooks: CodecHooks<A>, name = codec.name): Codec<A> {
  const { beforeRead, afterRead, beforeWrite, afterWrite } = hooks;
  const noReadHooks = beforeRead === undefined && afterRead === undefined;
  const noWriteHooks = beforeWrite === undefined && afterWrite === undefined;
  return defineCodec<A>({
    name,
    def: customDef('hooks', { params: { hooks }, model: codec }),
    json: codec.json,
    ...wrapping(codec, 'value'),
    // Hooks run per value: called in place (no closure per call), their errors made typed here.
    read(r) {
      // Hooks for writing only (EDGE's check of an instance's keys): nothing to make per value read.
      if (noReadHooks) return codec.read(r);
      const start = r.pos;
      const ctx = new ReadHooked(r, start); // one per value, shared by both hooks
      if (beforeRead !== undefined)
        try {
          beforeRead(ctx);
        } catch (error) {
          throw readHookError(r, 'beforeRead', error, start);
        }
      const value = codec.read(r);
      if (afterRead !== undefined)
        try {
          afterRead(value, ctx);
        } catch (error) {
          throw readHookError(r, 'afterRead', error, start);
        }
      return value;
    },
    write(w, value) {
      if (noWriteHooks) {
        codec.write(w, value);
        return;
      }
      const start = w.length;
      const ctx = new WriteHooked(w, start); // one per value, shared by both hooks
      if (beforeWrite !== undefined)
        try {
          beforeWrite(value, ctx);
        } catch (error) {
          throw writeHookError(w, 'beforeWrite', error);
        }
      codec.write(w, value);
      if (afterWrite !== undefined)
        try {
          afterWrite(value, ctx);
        } catch (error) {
          throw writeHookError(w, 'afterWrite', error);
        }
    },
  });
}
