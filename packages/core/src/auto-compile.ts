/**
 * Structs and arrays that run compiled wherever they sit. `struct` and `array` make their codecs
 * with {@link defineAutoCompiledCodec}: from its eighth call on ({@link PLAN_AT}), the codec's `read` (and, apart,
 * its `write`) is the one `compile` makes for it — its plan, with the interpreted body for tracing,
 * `compiled: false` and failures. So a format whose root the compiler runs interpreted (a switch,
 * a checksum, a custom codec) still reads every struct under it by plan, with no code of its own.
 *
 * The compiler registers itself here ({@link setAutoCompiler}) when compile.ts loads, so struct.ts
 * and array.ts need not import it (compile.ts imports them). Without it, codecs run interpreted.
 *
 * @module
 */
import type { AnyCodec, Codec, CodecSpec } from './codec.js';
import { defineExactCodec } from './exact.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** A codec's interpreted `read` and `write`: the bodies its factory wrote. */
export interface InterpretedBodies {
  readonly read: (r: Reader) => unknown;
  readonly write: (w: Writer, value: unknown) => void;
}

/** Makes a codec's compiled `read` or `write` from its interpreted body (the body itself when no plan helps). */
export interface AutoCompiler {
  read(codec: AnyCodec, body: (r: Reader) => unknown): (r: Reader) => unknown;
  write(codec: AnyCodec, body: (w: Writer, value: unknown) => void): (w: Writer, value: unknown) => void;
}

let compiler: AutoCompiler | undefined;
/**
 * The call from which a codec runs its plan (reading and writing counted apart). Formats make
 * codecs per file or per value (EDGE a codec per structure its file defines, dependent fields a
 * codec per value), many of them read once or a few times: planning costs more than such reads.
 * A codec read more often than this is worth its plan.
 */
export const PLAN_AT = 8;
const bodies = new WeakMap<AnyCodec, InterpretedBodies>();

/** Called once by compile.ts as it loads. */
export function setAutoCompiler(c: AutoCompiler): void {
  compiler = c;
}

/**
 * The interpreted `read` and `write` of a codec made by {@link defineAutoCompiledCodec}, else
 * undefined (its own `read` and `write` are then interpreted already).
 */
export function interpretedBodies(codec: AnyCodec): InterpretedBodies | undefined {
  return bodies.get(codec);
}

/** Puts the compiled `read`/`write` on the codec; a frozen codec keeps calling through its stub. */
function replace(put: () => void): void {
  try {
    put();
  } catch {
    // Frozen by its user: the stub forwards to the compiled function, one call more.
  }
}

/**
 * {@link defineExactCodec} for a codec whose `read` and `write` become compiled on their
 * {@link PLAN_AT}th call. Not on the first: a struct made per value (a dependent field's codec) is
 * often used once, and planning it would cost more than reading it.
 */
export function defineAutoCompiledCodec<A>(spec: CodecSpec<A>): Codec<A> {
  const bodyRead = spec.read;
  const bodyWrite = spec.write;
  let read: ((r: Reader) => unknown) | undefined;
  let write: ((w: Writer, value: unknown) => void) | undefined;
  let reads = 0;
  let writes = 0;
  const codec = defineExactCodec<A>(spec) as { -readonly [K in keyof Codec<A>]: Codec<A>[K] };
  // These stay the codec's `read`/`write` until they make the compiled ones, then replace
  // themselves on the codec; a copy of them (`{ ...codec }`) keeps working through `read`/`write`.
  codec.read = (r) => {
    if (read !== undefined) return read(r) as A;
    if (compiler === undefined || ++reads < PLAN_AT) return bodyRead(r);
    read = compiler.read(codec, bodyRead as (r: Reader) => unknown);
    replace(() => {
      codec.read = read as (r: Reader) => A;
    });
    return read(r) as A;
  };
  codec.write = (w, value) => {
    if (write !== undefined) return write(w, value);
    if (compiler === undefined || ++writes < PLAN_AT) return bodyWrite(w, value);
    write = compiler.write(codec, bodyWrite as (w: Writer, value: unknown) => void);
    replace(() => {
      codec.write = write as (w: Writer, value: A) => void;
    });
    return write(w, value);
  };
  bodies.set(codec, { read: bodyRead, write: bodyWrite as (w: Writer, value: unknown) => void });
  return codec;
}
