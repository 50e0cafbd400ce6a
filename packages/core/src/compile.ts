/**
 * Compiled codecs: a codec tree turned, from its typed definitions, into specialised closures for
 * decoding and encoding, with the interpreted codec as the reference for every error.
 *
 * How it stays exact:
 * - A subtree the compiler knows completely (integers, floats, magic, literals, padding, strings,
 *   bytes, structs and arrays of those) is *pure*: it touches nothing but the position and the work
 *   budget, keeps no path, and fixed-layout runs are read at known offsets after one bounds check.
 *   Any failure in it — a short read, a bad value, a spent budget — throws, and the subtree is read
 *   again by the interpreted codec from where it started (its checkpoint is just the position and
 *   the work spent), which gives today's error, path and offset, byte for byte.
 * - Anything else (custom codecs, transforms, pointers, unions, …) runs interpreted. Structs around
 *   such a subtree keep the path for it and spend work exactly when the interpreter does, so what
 *   it reads, warns and throws is what it would be without compiling.
 * - Tracing (`trace: true`) decodes interpreted.
 *
 * No source is generated and nothing is evaluated, so compiled codecs work under a Content Security
 * Policy without `unsafe-eval`.
 *
 * @module
 */
import { interpretedBodies, setAutoCompiler } from './auto-compile.js';
import { defaultBudgetLimits, DecodeBudget } from './budget.js';
import { decodeOrThrow, defineCodec, readChild, writeChild, type AnyCodec, type Codec } from './codec.js';
import type { DefCount, DefStructField } from './def.js';
import { ascii, textEncoding, type EncodingName } from './encodings.js';
import { isExact } from './exact.js';
import { resolveDecodeOptions, WRITE_INTERPRETED } from './options.js';
import { Reader, ReadState } from './reader.js';
import { rebuildFields } from './rebuild.js';
import { SHORT_TEXT, shortAscii, shortUtf8 } from './short-text.js';
import { sharesText } from './strings.js';
import { chooseCodec, placeholderFor, type FieldSpec } from './struct.js';
import type { Writer } from './writer.js';

const DEFAULT_OPTIONS = Object.freeze(resolveDecodeOptions(undefined));

// ---- plans -----------------------------------------------------------------------------------------

// biome-ignore lint/suspicious/noExplicitAny: a value of any codec of the tree, checked by the plan that writes it
type Value = any;
/** A dependent struct field: a codec chosen from the fields before it. */
type Dependent = (parent: Value) => AnyCodec;
type ReadAt = (r: Reader, at: number) => unknown;
type WriteAt = (w: Writer, at: number, value: Value) => void;

/** How a compiled subtree reads. */
interface ReadPlan {
  /** False when the plan is the codec's own `read`, run as it is (the compiler knows nothing better). */
  readonly compiled: boolean;
  /** Touches only the position and the work budget; throws anything on failure. */
  readonly pure: boolean;
  /** Size in bytes when `at` is given (a fixed-layout run). */
  readonly size: number;
  /** Work units the interpreted codec's `read` spends on one value (for fixed-layout plans). */
  readonly work: number;
  /** Reads a fixed-layout value at `at` without bounds checks or moving; throws on bad bytes. */
  readonly at: ReadAt | undefined;
  /** The {@link Code} of a number read by `at` that {@link readCode} reads itself, else `OTHER`. */
  readonly code: Code;
  /** Reads one value at the position (pure plans throw anything on failure; impure ones are exact). */
  readonly read: (r: Reader) => unknown;
}

/** How a compiled subtree writes. */
interface WritePlan {
  /** False when the plan is the codec's own `write`, run as it is. */
  readonly compiled: boolean;
  /** Touches only the output; throws anything on a value it cannot write. */
  readonly pure: boolean;
  /** Size in bytes when `at` is given. */
  readonly size: number;
  /** Writes a fixed-layout value at `at`, where room was made; throws on a bad value. */
  readonly at: WriteAt | undefined;
  /** Writes one value (pure plans throw anything on failure; impure ones are exact). */
  readonly write: (w: Writer, value: Value) => void;
  /** Bytes the value will take, when that is cheap to know (to size the output once). */
  readonly measure: ((value: Value) => number | undefined) | undefined;
}

/** Thrown by pure plans: the value of the throw does not matter, only that the subtree failed. */
const BAIL: unknown = Object.freeze({ bail: true });

function spend(r: Reader, units: number): void {
  const budget = r.state.budget;
  const total = budget.workSpent + units;
  if (budget.exceeds(total)) throw BAIL;
  budget.workSpent = total;
}

function fixedRead(size: number, work: number, at: ReadAt, code: Code = OTHER): ReadPlan {
  return {
    compiled: true,
    pure: true,
    size,
    work,
    at,
    code,
    read:
      work === 0
        ? (r) => {
            const start = r.pos;
            if (r.end - start < size) throw BAIL;
            const value = at(r, start);
            r.pos = start + size;
            return value;
          }
        : (r) => {
            const start = r.pos;
            if (r.end - start < size) throw BAIL;
            spend(r, work);
            const value = at(r, start);
            r.pos = start + size;
            return value;
          },
  };
}

function fixedWrite(size: number, at: WriteAt): WritePlan {
  return {
    compiled: true,
    pure: true,
    size,
    at,
    write(w, value) {
      const start = w.ensure(size);
      at(w, start, value);
      w.length = start + size;
    },
    measure: () => size,
  };
}

/** A plan without a fixed layout: it reads at the position. */
function streamRead(pure: boolean, read: (r: Reader) => unknown): ReadPlan {
  return { compiled: true, pure, size: 0, work: 0, at: undefined, code: OTHER, read };
}

/** A plan without a fixed layout: it writes at the end of the output. */
function streamWrite(
  pure: boolean,
  write: (w: Writer, value: Value) => void,
  measure?: (value: Value) => number | undefined,
): WritePlan {
  return { compiled: true, pure, size: 0, at: undefined, write, measure };
}

/**
 * A codec's interpreted `read`: for a struct or array (whose own `read` becomes its compiled one,
 * see auto-compile.ts) the body its factory wrote, so a plan never runs the codec's compiled `read`
 * in place of its interpreted one.
 */
function bodyRead(codec: AnyCodec): (r: Reader) => unknown {
  return interpretedBodies(codec)?.read ?? ((r) => codec.read(r));
}

function bodyWrite(codec: AnyCodec): (w: Writer, value: Value) => void {
  return interpretedBodies(codec)?.write ?? ((w, v) => codec.write(w, v));
}

/** A subtree the compiler leaves to the interpreter. */
function interpretedRead(codec: AnyCodec): ReadPlan {
  return { ...streamRead(false, bodyRead(codec)), compiled: false };
}

function interpretedWrite(codec: AnyCodec): WritePlan {
  return { ...streamWrite(false, bodyWrite(codec)), compiled: false };
}

/**
 * Above zero while a failed pure subtree is redone interpreted: the structs and arrays inside it
 * then run their interpreted bodies too (their plans are part of the one that failed), so nothing
 * is planned or counted twice. Decoding and encoding are synchronous, so a counter for the process
 * is the redo in progress.
 */
let redoing = 0;

/** Runs `redo` (the interpreted codec of a failed pure subtree) with every codec in it interpreted. */
function interpreted<T>(redo: () => T): T {
  redoing++;
  try {
    return redo();
  } finally {
    redoing--;
  }
}

/** A leaf the compiler runs as it is: it only moves the position and throws (with a path it need not keep). */
function leafRead(codec: AnyCodec): ReadPlan {
  return { ...streamRead(true, (r) => codec.read(r)), compiled: false };
}

function leafWrite(codec: AnyCodec): WritePlan {
  return { ...streamWrite(true, (w, v) => codec.write(w, v)), compiled: false };
}

// ---- integers and floats ---------------------------------------------------------------------------

// Numbers by type code. Every struct of the process shares the closures that read its fields
// (closures made by one function share their type feedback), so once a handful of struct shapes
// have run, a call through a per-field reader closure becomes megamorphic and stops being inlined.
// A field of a number type is instead read by `readCode`: always the same function (a call V8
// keeps inlining), branching on a small code.

/**
 * A number type read by {@link readCode}: its kind times two, plus one when little-endian (so the
 * byte order is passed to the `DataView` as it is); `OTHER` calls the field's closure.
 */
type Code = number;
const OTHER = 0;
const U8 = 2;
const I8 = 4;
const U16 = 6;
const I16 = 8;
const U32 = 10;
const I32 = 12;
const F32 = 14;
const F64 = 16;

function numberCode(type: 'int' | 'float', bits: number, signed: boolean, le: boolean): Code {
  const order = le ? 1 : 0;
  if (type === 'float') return (bits === 32 ? F32 : F64) + order;
  switch (bits) {
    case 8:
      return signed ? I8 : U8;
    case 16:
      return (signed ? I16 : U16) + order;
    case 32:
      return (signed ? I32 : U32) + order;
    default:
      return OTHER;
  }
}

/**
 * Reads a number of type `code` at `at` (what the field's `read` would); floats and `OTHER` go to
 * {@link readOtherCode}. Small on purpose (163 bytes of bytecode; `node
 * --print-bytecode-filter=readCode`): V8 inlines a function of up to 460 bytes, and all the
 * functions inlined into one optimised function together up to 920, so a run of several fields
 * reads each inline only if this stays small. A 496-byte form was never inlined: it boxed a large
 * u32 on return and again in the record (docs/guide/compiled.md, "Many records").
 */
function readCode(r: Reader, at: number, code: Code, read: ReadAt): unknown {
  const view = r.view;
  const le = (code & 1) === 1;
  // The cases are the kinds as literals (`U32 >> 1` is 5, …; the test "every number type read by
  // code" reads each as interpreted): V8 makes a switch over small literal integers one jump
  // through a table, where named constants were a load, a shift and a comparison per case (208
  // bytes of bytecode in all, now 163; see fillOfEight for why it matters).
  switch (code >> 1) {
    case 1:
      return view.getUint8(at);
    case 2:
      return view.getInt8(at);
    case 3:
      return view.getUint16(at, le);
    case 4:
      return view.getInt16(at, le);
    case 5:
      return view.getUint32(at, le);
    case 6:
      return view.getInt32(at, le);
    default:
      return readOtherCode(r, at, code, read);
  }
}

/** The floats of {@link readCode} (`read` for a NaN, whose bits decide its value) and `OTHER`. */
function readOtherCode(r: Reader, at: number, code: Code, read: ReadAt): unknown {
  const le = (code & 1) === 1;
  let v: number;
  if (code >> 1 === F32 >> 1) v = r.view.getFloat32(at, le);
  else if (code >> 1 === F64 >> 1) v = r.view.getFloat64(at, le);
  else return read(r, at);
  return Number.isNaN(v) ? read(r, at) : v;
}

function intReadAt(bits: number, signed: boolean, le: boolean): ReadAt | undefined {
  switch (bits) {
    case 8:
      return signed ? (r, at) => r.view.getInt8(at) : (r, at) => r.bytes[at];
    case 16:
      if (signed) return le ? (r, at) => r.view.getInt16(at, true) : (r, at) => r.view.getInt16(at, false);
      return le ? (r, at) => r.view.getUint16(at, true) : (r, at) => r.view.getUint16(at, false);
    case 32:
      if (signed) return le ? (r, at) => r.view.getInt32(at, true) : (r, at) => r.view.getInt32(at, false);
      return le ? (r, at) => r.view.getUint32(at, true) : (r, at) => r.view.getUint32(at, false);
    default:
      return undefined;
  }
}

/** A NaN (whose bits decide what it decodes to) is read by the codec's own `readFixed`. */
function floatReadAt(bits: 32 | 64, le: boolean, readFixed: ReadAt): ReadAt {
  if (bits === 64) {
    return le
      ? (r, at) => {
          const v = r.view.getFloat64(at, true);
          return Number.isNaN(v) ? readFixed(r, at) : v;
        }
      : (r, at) => {
          const v = r.view.getFloat64(at, false);
          return Number.isNaN(v) ? readFixed(r, at) : v;
        };
  }
  return le
    ? (r, at) => {
        const v = r.view.getFloat32(at, true);
        return Number.isNaN(v) ? readFixed(r, at) : v;
      }
    : (r, at) => {
        const v = r.view.getFloat32(at, false);
        return Number.isNaN(v) ? readFixed(r, at) : v;
      };
}

function intWriteAt(bits: number, signed: boolean, le: boolean): WriteAt | undefined {
  // Each check is true exactly of the integers of the codec's range (so not of NaN, fractions,
  // strings or booleans): the value survives a round trip through the width's integer operation.
  switch (bits) {
    case 8:
      return signed
        ? (w, at, v) => {
            if ((v << 24) >> 24 !== v) throw BAIL;
            w.buf[at] = v;
          }
        : (w, at, v) => {
            if ((v & 0xff) !== v) throw BAIL;
            w.buf[at] = v;
          };
    case 16:
      if (signed) {
        return le
          ? (w, at, v) => {
              if ((v << 16) >> 16 !== v) throw BAIL;
              w.view.setInt16(at, v, true);
            }
          : (w, at, v) => {
              if ((v << 16) >> 16 !== v) throw BAIL;
              w.view.setInt16(at, v, false);
            };
      }
      return le
        ? (w, at, v) => {
            if ((v & 0xffff) !== v) throw BAIL;
            w.view.setUint16(at, v, true);
          }
        : (w, at, v) => {
            if ((v & 0xffff) !== v) throw BAIL;
            w.view.setUint16(at, v, false);
          };
    case 32:
      if (signed) {
        return le
          ? (w, at, v) => {
              if ((v | 0) !== v) throw BAIL;
              w.view.setInt32(at, v, true);
            }
          : (w, at, v) => {
              if ((v | 0) !== v) throw BAIL;
              w.view.setInt32(at, v, false);
            };
      }
      return le
        ? (w, at, v) => {
            if (v >>> 0 !== v) throw BAIL;
            w.view.setUint32(at, v, true);
          }
        : (w, at, v) => {
            if (v >>> 0 !== v) throw BAIL;
            w.view.setUint32(at, v, false);
          };
    default:
      return undefined;
  }
}

/** Numbers only, NaN aside (a kept NaN's bits, an object, and the canonical NaN are written by the interpreter). */
function floatWriteAt(bits: 32 | 64, le: boolean): WriteAt {
  if (bits === 64) {
    return le
      ? (w, at, v) => {
          if (typeof v !== 'number' || Number.isNaN(v)) throw BAIL;
          w.view.setFloat64(at, v, true);
        }
      : (w, at, v) => {
          if (typeof v !== 'number' || Number.isNaN(v)) throw BAIL;
          w.view.setFloat64(at, v, false);
        };
  }
  // Math.fround(NaN) !== NaN: a NaN goes to the interpreter too.
  return le
    ? (w, at, v) => {
        if (typeof v !== 'number' || Math.fround(v) !== v) throw BAIL;
        w.view.setFloat32(at, v, true);
      }
    : (w, at, v) => {
        if (typeof v !== 'number' || Math.fround(v) !== v) throw BAIL;
        w.view.setFloat32(at, v, false);
      };
}

/** A fixed-size leaf that offers `readFixed`/`writeFixed`: used as they are. */
function offeredRead(codec: AnyCodec): ReadPlan {
  return codec.readFixed !== undefined && codec.size !== undefined
    ? fixedRead(codec.size, 0, codec.readFixed)
    : leafRead(codec);
}

function offeredWrite(codec: AnyCodec): WritePlan {
  return codec.writeFixed !== undefined && codec.size !== undefined
    ? fixedWrite(codec.size, codec.writeFixed)
    : leafWrite(codec);
}

// ---- strings ---------------------------------------------------------------------------------------

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();
/** `bytes[start, end)` as text: short runs decoded here, long ones by the platform. Throws on bad text. */
function textReader(encoding: EncodingName): (bytes: Uint8Array, start: number, end: number) => string {
  switch (encoding) {
    case 'utf8':
      return (bytes, start, end) => {
        if (end - start > SHORT_TEXT) return utf8Decoder.decode(bytes.subarray(start, end));
        const text = shortUtf8(bytes, start, end);
        if (text === undefined) throw BAIL;
        return text;
      };
    case 'ascii':
      return (bytes, start, end) => {
        if (end - start > SHORT_TEXT) return ascii.decode(bytes.subarray(start, end));
        const text = shortAscii(bytes, start, end);
        if (text === undefined) throw BAIL;
        return text;
      };
    default: {
      const enc = textEncoding(encoding);
      return (bytes, start, end) => enc.decode(bytes.subarray(start, end));
    }
  }
}

/** UTF-8 length of `text`; throws on a lone surrogate (which cannot be encoded). */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw BAIL;
      n += 2; // two UTF-16 units, four bytes
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) throw BAIL;
    else n += 2;
  }
  return n;
}

/** Writes `text` as UTF-8 at `at` (room made, length known valid). */
function writeUtf8(buf: Uint8Array, at: number, text: string, length: number): void {
  if (length > SHORT_TEXT) {
    utf8Encoder.encodeInto(text, buf.subarray(at, at + length));
    return;
  }
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) buf[at++] = c;
    else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
      buf[at++] = 0xf0 | (c >> 18);
      buf[at++] = 0x80 | ((c >> 12) & 0x3f);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    }
  }
}

function pstringRead(codec: AnyCodec, length: Codec<number>, encoding: EncodingName, plans: Plans): ReadPlan {
  const prefix = plans.read(length);
  if (!prefix.pure) return interpretedRead(codec);
  if (encoding === 'cp437') return leafRead(codec);
  const readPrefix = prefix.read;
  const text = textReader(encoding);
  return streamRead(true, (r) => {
    const count = readPrefix(r) as number;
    const start = r.pos;
    if (!(count >= 0 && count <= r.end - start)) throw BAIL;
    const value = text(r.bytes, start, start + count);
    r.pos = start + count;
    return value;
  });
}

function pstringWrite(codec: AnyCodec, length: Codec<number>, encoding: EncodingName, plans: Plans): WritePlan {
  const prefix = plans.write(length);
  if (!prefix.pure) return interpretedWrite(codec);
  if (encoding !== 'utf8') return leafWrite(codec);
  const writePrefix = prefix.write;
  return streamWrite(true, (w, text) => {
    if (typeof text !== 'string') throw BAIL;
    const n = utf8Length(text);
    writePrefix(w, n);
    const at = w.ensure(n);
    writeUtf8(w.buf, at, text, n);
    w.length = at + n;
  });
}

// ---- unrolled runs ---------------------------------------------------------------------------------
// A loop over field names makes every store a megamorphic keyed store; one closure per run, with the
// names and readers captured and a store site per field, gives each site the names of one field
// position (what generated code would have), without generating code. Unrolled to eight by hand on
// purpose: blocks of four chained by closures measured 1.5-5x slower encoding runs of 5 to 8 fields,
// as each store site then sees several names and writers. A run stops after its `length` fields;
// the test on the captured length is predicted and costs nothing next to a store.

type Fill = (out: Record<string, unknown>, r: Reader, at: number) => void;
type Store = (w: Writer, at: number, value: Record<string, unknown>) => void;
type Eight<T> = [T, T, T, T, T, T, T, T];

/** `make` for a run of up to eight fields; a longer run is made in pieces of eight, joined by `chain`. */
function byEight<F, R>(
  names: string[],
  offsets: number[],
  fns: F[],
  make: (names: string[], offsets: number[], fns: F[]) => R,
  chain: (head: R, tail: R) => R,
): R {
  if (names.length <= 8) return make(names, offsets, fns);
  const head = make(names.slice(0, 8), offsets.slice(0, 8), fns.slice(0, 8));
  return chain(head, byEight(names.slice(8), offsets.slice(8), fns.slice(8), make, chain));
}

/** Stores the fields of a run into `out`, read at their offsets from `at` (see {@link readCode}). */
function runFill(names: string[], offsets: number[], readers: ReadAt[], codes: Code[]): Fill {
  return byEight(
    names,
    offsets,
    readers.map((read, i) => [read, codes[i]!] as const),
    fillOfEight,
    (head, tail) => (out, r, at) => {
      head(out, r, at);
      tail(out, r, at);
    },
  );
}

// A closure per field count: V8 inlines a function whole, counting all its bytecode against the
// budget of the function it is inlined into (920 bytes in all), so one closure for every count,
// testing the count after each field, was 420 bytes for four fields as for eight, and with it
// only two of a 16-byte struct's four `readCode`s were inlined where a hot loop called the struct.
function fillOfEight(names: string[], offsets: number[], fields: ReadonlyArray<readonly [ReadAt, Code]>): Fill {
  const [n0, n1, n2, n3, n4, n5, n6, n7] = names as Eight<string>;
  const [o0, o1, o2, o3, o4, o5, o6, o7] = offsets as Eight<number>;
  const [f0, f1, f2, f3, f4, f5, f6, f7] = fields.map((f) => f[0]) as Eight<ReadAt>;
  const [c0, c1, c2, c3, c4, c5, c6, c7] = fields.map((f) => f[1]) as Eight<Code>;
  switch (names.length) {
    case 0:
      return () => {};
    case 1:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
      };
    case 2:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
      };
    case 3:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
      };
    case 4:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
        out[n3] = readCode(r, at + o3, c3, f3);
      };
    case 5:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
        out[n3] = readCode(r, at + o3, c3, f3);
        out[n4] = readCode(r, at + o4, c4, f4);
      };
    case 6:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
        out[n3] = readCode(r, at + o3, c3, f3);
        out[n4] = readCode(r, at + o4, c4, f4);
        out[n5] = readCode(r, at + o5, c5, f5);
      };
    case 7:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
        out[n3] = readCode(r, at + o3, c3, f3);
        out[n4] = readCode(r, at + o4, c4, f4);
        out[n5] = readCode(r, at + o5, c5, f5);
        out[n6] = readCode(r, at + o6, c6, f6);
      };
    default:
      return (out, r, at) => {
        out[n0] = readCode(r, at + o0, c0, f0);
        out[n1] = readCode(r, at + o1, c1, f1);
        out[n2] = readCode(r, at + o2, c2, f2);
        out[n3] = readCode(r, at + o3, c3, f3);
        out[n4] = readCode(r, at + o4, c4, f4);
        out[n5] = readCode(r, at + o5, c5, f5);
        out[n6] = readCode(r, at + o6, c6, f6);
        out[n7] = readCode(r, at + o7, c7, f7);
      };
  }
}

/** Writes the fields of a run of `value` at their offsets from `at`. */
function runStore(names: string[], offsets: number[], writers: WriteAt[]): Store {
  return byEight(names, offsets, writers, storeOfEight, (head, tail) => (w, at, value) => {
    head(w, at, value);
    tail(w, at, value);
  });
}

// Writes keep a closure per field: a shared `writeCode` (as `readCode` for reads) measured 1.8x
// slower encoding a single struct shape, which a process with few shapes would pay.
function storeOfEight(names: string[], offsets: number[], writers: WriteAt[]): Store {
  const n = names.length;
  if (n === 0) return () => {};
  const [n0, n1, n2, n3, n4, n5, n6, n7] = names as Eight<string>;
  const [o0, o1, o2, o3, o4, o5, o6, o7] = offsets as Eight<number>;
  const [f0, f1, f2, f3, f4, f5, f6, f7] = writers as Eight<WriteAt>;
  return (w, at, value) => {
    f0(w, at + o0, value[n0]);
    if (n === 1) return;
    f1(w, at + o1, value[n1]);
    if (n === 2) return;
    f2(w, at + o2, value[n2]);
    if (n === 3) return;
    f3(w, at + o3, value[n3]);
    if (n === 4) return;
    f4(w, at + o4, value[n4]);
    if (n === 5) return;
    f5(w, at + o5, value[n5]);
    if (n === 6) return;
    f6(w, at + o6, value[n6]);
    if (n === 7) return;
    f7(w, at + o7, value[n7]);
  };
}

// ---- structs ---------------------------------------------------------------------------------------

/** A struct's field names and specs, as two lists in field order. */
function fieldLists(fields: ReadonlyArray<DefStructField>): [string[], FieldSpec[]] {
  return [fields.map((f) => f.name), fields.map((f) => f.spec)];
}

function isCodec(spec: FieldSpec): spec is AnyCodec {
  return typeof spec === 'object' && spec !== null;
}

/** A step of a struct's reading: a fixed-layout run of fields, or one field. */
type ReadStep =
  | {
      readonly kind: 'run';
      readonly first: number;
      readonly names: string[];
      readonly offsets: number[];
      readonly readers: ReadAt[];
      readonly codes: Code[];
      readonly size: number;
      readonly work: number;
      fill: Fill;
    }
  | { readonly kind: 'field'; readonly index: number; readonly plan: ReadPlan }
  | { readonly kind: 'dependent'; readonly index: number; readonly spec: Dependent };

/** Reads a run at the position: one bounds check and one work charge for all its fields. */
function readRun(r: Reader, out: Record<string, unknown>, step: Extract<ReadStep, { kind: 'run' }>): void {
  const at = r.pos;
  if (r.end - at < step.size) throw BAIL;
  spend(r, step.work);
  step.fill(out, r, at);
  r.pos = at + step.size;
}

/**
 * A reader of one field of a run, at the position: the run's first field checks the bounds and
 * spends the work of the whole run, its last moves past the run (as {@link readRun} does at once).
 */
function runMemberReader(
  step: Extract<ReadStep, { kind: 'run' }>,
  first: boolean,
  last: boolean,
  offset: number,
  read: ReadAt,
): ReadAt {
  const size = step.size;
  const work = step.work;
  if (first && last) {
    return (r) => {
      const at = r.pos;
      if (r.end - at < size) throw BAIL;
      spend(r, work);
      const value = read(r, at + offset);
      r.pos = at + size;
      return value;
    };
  }
  if (first) {
    return (r) => {
      const at = r.pos;
      if (r.end - at < size) throw BAIL;
      spend(r, work);
      return read(r, at + offset);
    };
  }
  if (last) {
    return (r) => {
      const at = r.pos;
      const value = read(r, at + offset);
      r.pos = at + size;
      return value;
    };
  }
  return (r) => read(r, r.pos + offset);
}

/** Each record constructor's first object (see {@link recordMaker}), alive while the constructor is. */
const shapes = new WeakMap<object, object>();

/**
 * A constructor of plain objects (prototype `Object.prototype`, as `{}`'s) for one struct. Each
 * closure made here has an initial hidden class of its own, so `new` gives every struct its own
 * objects with room for their fields, and making one is a plain allocation wherever it is called
 * from. Copying a template (`{ ...template }`) does that only while the copying site has seen few
 * templates: it is shared by every struct of the process, and once five or more shapes have run it
 * became a slow generic copy (the many-shapes benchmark decoded 2.5x slower; see bench/cases).
 */
function recordMaker(names: ReadonlyArray<string>): new () => Record<string, unknown> {
  const make = function (this: Record<string, unknown>) {} as unknown as new () => Record<string, unknown>;
  make.prototype = Object.prototype;
  // One object given `null` in every field, in field order, before any record is read: the fields
  // of this struct's records are then of the engine's general kind from the first record on, so a
  // small integer is stored as it is and only a number outside that range is boxed (once). Were the
  // first value of a field a large u32 or a fraction, the field would hold every value in a box of
  // its own, small integers too: a 100,000-record decode allocated 15 MB instead of 10, and
  // records that outlive a young-generation collection cost it in proportion (see PIECE).
  const first = new make();
  for (const name of names) first[name] = null;
  // Kept as long as the constructor: the engine keeps the maps of that transition chain only while
  // an object has one, and once the collector had freed this object (the first full collection
  // did) the records' first values chose the fields' representation again. A large u32 first
  // made every field a box of its own, small integers too: 129–145 bytes a record of four u32
  // (two over 2³¹) instead of 96, so a decode of many records filled the young generation half as
  // fast again.
  shapes.set(make, first);
  return make;
}

function structRead(codec: AnyCodec, fields: ReadonlyArray<DefStructField>, plans: Plans): ReadPlan {
  const [names, specs] = fieldLists(fields);
  const count = names.length;
  const template: Record<string, unknown> = {};
  // The interpreted struct's placeholders, so values have the same shape as its values.
  for (let i = 0; i < count; i++) template[names[i]!] = placeholderFor(specs[i]!);
  const fieldPlans = specs.map((s) => (isCodec(s) ? plans.read(s) : undefined));
  // Consecutive fixed-layout fields form a run: one bounds check and one work charge for all.
  const steps: ReadStep[] = [];
  for (let i = 0; i < count; i++) {
    const spec = specs[i]!;
    const plan = fieldPlans[i];
    if (plan === undefined) {
      steps.push({ kind: 'dependent', index: i, spec: spec as Dependent });
    } else if (plan.pure && plan.at !== undefined) {
      const last = steps[steps.length - 1];
      const run =
        last?.kind === 'run'
          ? last
          : {
              kind: 'run' as const,
              first: i,
              names: [],
              offsets: [],
              readers: [],
              codes: [],
              size: 0,
              work: 0,
              fill: (() => {}) as Fill,
            };
      if (run !== last) steps.push(run);
      run.names.push(names[i]!);
      run.offsets.push(run.size);
      run.readers.push(plan.at);
      run.codes.push(plan.code);
      (run as { size: number }).size += plan.size;
      (run as { work: number }).work += 1 + plan.work;
    } else {
      steps.push({ kind: 'field', index: i, plan });
    }
  }
  for (const step of steps)
    if (step.kind === 'run') step.fill = runFill(step.names, step.offsets, step.readers, step.codes);
  const pure = fieldPlans.every((p) => p?.pure);

  const only = steps.length === 1 ? steps[0] : undefined;
  if (pure && only?.kind === 'run') {
    // The whole struct is one fixed-layout run.
    // Values are made by a constructor of this struct's own (see recordMaker) and filled in field
    // order, so they have the interpreter's keys in its order. With one struct shape in the process
    // this measured as fast as copying a template; with many, 2.5x faster.
    const fill = only.fill;
    // The work the interpreter spends: none when it reads the struct at offsets (`readFixed`).
    const work = codec.readFixed !== undefined ? 0 : only.work;
    const Make = recordMaker(names);
    return fixedRead(only.size, work, (r, at) => {
      const out: Record<string, unknown> = new Make();
      fill(out, r, at);
      return out;
    });
  }
  if (pure) {
    // One reader per field, stored by an unrolled fill (as for a run): each field then has a store
    // site and a call site of its own, where a loop over the steps made both megamorphic.
    const fieldReaders: ReadAt[] = [];
    for (const step of steps) {
      if (step.kind === 'run') {
        for (let k = 0; k < step.names.length; k++)
          fieldReaders.push(
            runMemberReader(step, k === 0, k === step.names.length - 1, step.offsets[k]!, step.readers[k]!),
          );
      } else if (step.kind === 'field') {
        const read = step.plan.read;
        fieldReaders.push((r) => {
          spend(r, 1);
          return read(r);
        });
      }
    }
    const fill = runFill(
      names,
      names.map(() => 0),
      fieldReaders,
      names.map(() => OTHER),
    );
    const Make = recordMaker(names);
    return streamRead(true, (r) => {
      const out: Record<string, unknown> = new Make();
      fill(out, r, 0);
      return out;
    });
  }
  // A struct the interpreter reads at offsets (every field offers `readFixed`, a custom codec among
  // them) spends no work and keeps no path: reading it as it does is already the fast way.
  if (codec.readFixed !== undefined) return interpretedRead(codec);
  // Some field runs interpreted (or is chosen at run time): the path is kept for those fields and
  // work is spent field by field, as the interpreter does, so what they do is exactly what it does.
  // A pure field or run that fails is read again by the interpreter from its start.
  const redoRun = (r: Reader, out: Record<string, unknown>, step: Extract<ReadStep, { kind: 'run' }>) => {
    for (let k = 0; k < step.names.length; k++) {
      const i = step.first + k;
      out[names[i]!] = interpreted(() => readChild(r, names[i]!, specs[i] as AnyCodec));
    }
  };
  const readField = (r: Reader, key: string, child: AnyCodec, plan: ReadPlan): unknown => {
    if (!plan.pure) {
      const path = r.state.path;
      path.push(key);
      r.work(1);
      const value = plan.read(r);
      path.pop();
      return value;
    }
    const start = r.pos;
    const budget = r.state.budget;
    const work = budget.workSpent;
    try {
      spend(r, 1);
      return plan.read(r);
    } catch {
      r.pos = start;
      budget.workSpent = work;
      return interpreted(() => readChild(r, key, child));
    }
  };
  return streamRead(false, (r) => {
    const out: Record<string, unknown> = { ...template };
    for (const step of steps) {
      if (step.kind === 'run') {
        const at = r.pos;
        const budget = r.state.budget;
        const work = budget.workSpent;
        try {
          readRun(r, out, step);
        } catch {
          r.pos = at;
          budget.workSpent = work;
          redoRun(r, out, step);
        }
      } else if (step.kind === 'field') {
        const key = names[step.index]!;
        out[key] = readField(r, key, specs[step.index] as AnyCodec, step.plan);
      } else {
        const key = names[step.index]!;
        const child = chooseCodec(r, key, step.spec, out);
        out[key] = readField(r, key, child, plans.read(child));
      }
    }
    return out;
  });
}

function structWrite(codec: AnyCodec, fields: ReadonlyArray<DefStructField>, plans: Plans): WritePlan {
  const [names, specs] = fieldLists(fields);
  // `rebuild` fields change what the struct writes: the interpreter does that.
  if (rebuildFields(names, specs) !== undefined) return interpretedWrite(codec);
  const count = names.length;
  const fieldPlans = specs.map((s) => (isCodec(s) ? plans.write(s) : undefined));
  const pure = fieldPlans.every((p) => p?.pure);
  if (pure && fieldPlans.every((p) => p!.at !== undefined)) {
    const offsets: number[] = [];
    let size = 0;
    for (const p of fieldPlans) {
      offsets.push(size);
      size += p!.size;
    }
    const store = runStore(
      names,
      offsets,
      fieldPlans.map((p) => p!.at!),
    );
    return fixedWrite(size, (w, at, value) => {
      if (typeof value !== 'object' || value === null) throw BAIL;
      store(w, at, value);
    });
  }
  if (pure) {
    // Each field loaded and written from a site of its own (an unrolled store, as for a run).
    const store = runStore(
      names,
      names.map(() => 0),
      fieldPlans.map((p) => {
        const write = p!.write;
        return (w: Writer, _at: number, v: Value) => write(w, v);
      }),
    );
    const measures = fieldPlans.map((p) => p!.measure);
    const measurable = measures.every((m) => m !== undefined);
    return streamWrite(
      true,
      (w, value) => {
        if (typeof value !== 'object' || value === null) throw BAIL;
        store(w, 0, value);
      },
      measurable
        ? (value) => {
            if (typeof value !== 'object' || value === null) return undefined;
            let total = 0;
            for (let i = 0; i < count; i++) {
              const n = measures[i]!(value[names[i]!]);
              if (n === undefined) return undefined;
              total += n;
            }
            return total;
          }
        : undefined,
    );
  }
  const writeField = (w: Writer, key: string, child: AnyCodec, plan: WritePlan, value: unknown): void => {
    if (!plan.pure) {
      const path = w.state.path;
      path.push(key);
      plan.write(w, value);
      path.pop();
      return;
    }
    const start = w.length;
    try {
      plan.write(w, value);
    } catch {
      w.length = start;
      interpreted(() => writeChild(w, key, child, value));
    }
  };
  return streamWrite(false, (w, value) => {
    // A value that is not an object: the interpreter says so.
    if (typeof value !== 'object' || value === null) return bodyWrite(codec)(w, value);
    for (let i = 0; i < count; i++) {
      const key = names[i]!;
      const spec = specs[i]!;
      const plan = fieldPlans[i];
      if (plan !== undefined) writeField(w, key, spec as AnyCodec, plan, value[key]);
      else {
        const child = chooseCodec(w, key, spec as Dependent, value);
        writeField(w, key, child, plans.write(child), value[key]);
      }
    }
  });
}

// ---- arrays and bytes ------------------------------------------------------------------------------

/**
 * Elements per piece of a long array being read: 64 KiB of pointers, under V8's large-object size
 * (128 KiB). A long array is read into pieces and joined once at the end. Read into one array, it
 * became a large object, which the first young-generation collection during the decode moved to
 * the old generation as it was; from then on every record stored in it was kept alive by it (the
 * old generation's pointers into the young one are roots of the young collections), so the
 * records of a decode long finished were copied and promoted by the next collection, and the
 * collector cost a decode of 100,000 records several times its reading (docs/guide/compiled.md,
 * "Many records and the collector"). Pieces are ordinary young objects that die with the decode.
 */
const PIECE = 8192;

/** Pieces joined by one `concat` (its arguments are on the stack: a bounded number at a time). */
const JOIN = 1024;

/** One array of the pieces' elements, in order (one copy of the pointers, two past 8M elements). */
function joinPieces(pieces: unknown[][]): unknown[] {
  let level = pieces;
  while (level.length > JOIN) {
    const joined: unknown[][] = [];
    for (let i = 0; i < level.length; i += JOIN) joined.push(([] as unknown[]).concat(...level.slice(i, i + JOIN)));
    level = joined;
  }
  return ([] as unknown[]).concat(...level);
}

/** The count of a `fixed` or `prefix` count (pure prefix plans only); throws when it is not a count. */
function countReader(count: DefCount, plans: Plans): ((r: Reader) => number) | undefined | 'rest' {
  if (count.type === 'rest') return 'rest';
  if (count.type === 'fixed') {
    const n = count.count;
    return () => n;
  }
  const plan = plans.read(count.codec);
  if (!plan.pure) return undefined;
  const read = plan.read;
  return (r) => {
    const n = read(r) as number;
    if (!Number.isSafeInteger(n) || n < 0) throw BAIL;
    return n;
  };
}

function arrayRead(codec: AnyCodec, element: AnyCodec, count: DefCount, plans: Plans): ReadPlan {
  const plan = plans.read(element);
  const readCount = countReader(count, plans);
  if (!plan.pure || readCount === undefined) return interpretedRead(codec);
  const minSize = element.minSize;
  if (readCount === 'rest') {
    const readElement = plan.read;
    return streamRead(true, (r) => {
      let piece: unknown[] = [];
      let pieces: unknown[][] | undefined;
      while (r.pos < r.end) {
        spend(r, 1);
        const start = r.pos;
        if (piece.length === PIECE) {
          if (pieces === undefined) pieces = [];
          pieces.push(piece);
          piece = [];
        }
        piece.push(readElement(r));
        if (r.pos === start) throw BAIL;
      }
      if (pieces === undefined) return piece;
      pieces.push(piece);
      return joinPieces(pieces);
    });
  }
  const elementAt = plan.at;
  if (elementAt !== undefined) {
    const step = plan.size;
    // The interpreter spends a unit per element, and reads elements that offer `readFixed` at
    // their offsets (spending nothing more), others one by one.
    const each = 1 + (element.readFixed !== undefined ? 0 : plan.work);
    // Made in pieces (see PIECE), each at its size.
    const readAll = (r: Reader, at: number, n: number): unknown[] => {
      if (n <= PIECE) {
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++, at += step) out[i] = elementAt(r, at);
        return out;
      }
      const pieces: unknown[][] = [];
      for (let i = 0; i < n; i += PIECE) {
        const piece = new Array<unknown>(Math.min(PIECE, n - i));
        for (let k = 0; k < piece.length; k++, at += step) piece[k] = elementAt(r, at);
        pieces.push(piece);
      }
      return joinPieces(pieces);
    };
    if (count.type === 'fixed') {
      const n = count.count;
      if (step > 0 || n === 0) return fixedRead(n * step, n * each, (r, at) => readAll(r, at, n));
      // Elements of no bytes: how many may be made is the decode's `maxElements`, known only when
      // it runs (past it the interpreter gives the error).
      return streamRead(true, (r) => {
        if (n > r.state.options.maxElements) throw BAIL;
        spend(r, n * each);
        return readAll(r, r.pos, n);
      });
    }
    return streamRead(true, (r) => {
      const n = readCount(r);
      const start = r.pos;
      if (n * step > r.end - start || (step === 0 && n > r.state.options.maxElements)) throw BAIL;
      spend(r, n * each);
      const out = readAll(r, start, n);
      r.pos = start + n * step;
      return out;
    });
  }
  const readElement = plan.read;
  return streamRead(true, (r) => {
    const n = readCount(r);
    if (minSize > 0 ? n * minSize > r.end - r.pos : n > r.state.options.maxElements) throw BAIL;
    spend(r, n);
    if (n <= PIECE) {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = readElement(r);
      return out;
    }
    const pieces: unknown[][] = [];
    for (let i = 0; i < n; i += PIECE) {
      const piece = new Array<unknown>(Math.min(PIECE, n - i));
      for (let k = 0; k < piece.length; k++) piece[k] = readElement(r);
      pieces.push(piece);
    }
    return joinPieces(pieces);
  });
}

function arrayWrite(codec: AnyCodec, element: AnyCodec, count: DefCount, plans: Plans): WritePlan {
  const plan = plans.write(element);
  let writePrefix: ((w: Writer, n: number) => void) | undefined;
  let prefixMeasure: ((n: number) => number | undefined) | undefined;
  if (count.type === 'prefix') {
    const prefix = plans.write(count.codec);
    if (!prefix.pure) return interpretedWrite(codec);
    writePrefix = prefix.write;
    prefixMeasure = prefix.measure;
  }
  if (!plan.pure) return interpretedWrite(codec);
  const fixed = count.type === 'fixed' ? count.count : undefined;
  const checkCount = (w: Writer, n: number) => {
    if (fixed !== undefined) {
      if (n !== fixed) throw BAIL;
    } else if (writePrefix !== undefined) writePrefix(w, n);
  };
  const elementAt = plan.at;
  if (elementAt !== undefined) {
    const step = plan.size;
    const writeAll = (w: Writer, at: number, value: unknown[]) => {
      for (let i = 0; i < value.length; i++, at += step) elementAt(w, at, value[i]);
    };
    if (fixed !== undefined) {
      return fixedWrite(fixed * step, (w, at, value) => {
        if (!Array.isArray(value) || value.length !== fixed) throw BAIL;
        writeAll(w, at, value);
      });
    }
    return streamWrite(
      true,
      (w, value) => {
        if (!Array.isArray(value)) throw BAIL;
        checkCount(w, value.length);
        const start = w.ensure(value.length * step);
        writeAll(w, start, value);
        w.length = start + value.length * step;
      },
      (value) => {
        if (!Array.isArray(value)) return undefined;
        const head = prefixMeasure === undefined ? 0 : prefixMeasure(value.length);
        return head === undefined ? undefined : head + value.length * step;
      },
    );
  }
  const writeElement = plan.write;
  return streamWrite(true, (w, value) => {
    if (!Array.isArray(value)) throw BAIL;
    checkCount(w, value.length);
    for (let i = 0; i < value.length; i++) writeElement(w, value[i]);
  });
}

function bytesRead(codec: AnyCodec, count: DefCount, plans: Plans): ReadPlan {
  if (count.type === 'fixed') {
    const n = count.count;
    return fixedRead(n, 0, (r, at) => r.bytes.slice(at, at + n));
  }
  const readCount = countReader(count, plans);
  if (readCount === undefined) return interpretedRead(codec);
  return leafRead(codec);
}

// ---- maps ------------------------------------------------------------------------------------------
// `map`, `fixedMap` and `withModel` (an identity map): the stored codec's plan, and the caller's
// function once on the value it gives. A function that throws fails the plan like a bad byte: the
// subtree is redone interpreted from its start, which calls the function again and makes the
// interpreted error. So on success each function runs exactly once, as interpreted; on a failure it
// may run again on the same input — a map's functions must be pure (the guide's rule for bijections).
// Values a pure stored plan reads have no warnings, so the interpreted map's bookkeeping of dropped
// warnings has nothing to do.

function mapRead(codec: AnyCodec, stored: AnyCodec, decodeStored: (a: Value) => Value, plans: Plans): ReadPlan {
  const inner = plans.read(stored);
  if (!inner.pure) return interpretedRead(codec);
  const innerAt = inner.at;
  if (innerAt !== undefined) {
    // The interpreted map spends what its stored codec spends, and nothing of its own.
    return fixedRead(inner.size, inner.work, (r, at) => decodeStored(innerAt(r, at)));
  }
  const readInner = inner.read;
  return streamRead(true, (r) => decodeStored(readInner(r)));
}

function mapWrite(codec: AnyCodec, stored: AnyCodec, encodeValue: (b: Value) => Value, plans: Plans): WritePlan {
  const inner = plans.write(stored);
  if (!inner.pure) return interpretedWrite(codec);
  const innerAt = inner.at;
  if (innerAt !== undefined) return fixedWrite(inner.size, (w, at, value) => innerAt(w, at, encodeValue(value)));
  const writeInner = inner.write;
  // No `measure`: sizing the output first would call `encode` a second time.
  return streamWrite(true, (w, value) => writeInner(w, encodeValue(value)));
}

// ---- the compiler ----------------------------------------------------------------------------------

/** Plans by codec, made once per codec (a recursive or shared codec gets one plan). */
class Plans {
  private readonly reads = new WeakMap<AnyCodec, ReadPlan>();
  private readonly writes = new WeakMap<AnyCodec, WritePlan>();

  read(codec: AnyCodec): ReadPlan {
    return planOnce(this.reads, codec, () => planRead(codec, this));
  }

  write(codec: AnyCodec): WritePlan {
    return planOnce(this.writes, codec, () => planWrite(codec, this));
  }
}

/** The plan of `codec` in `plans`, made by `make` the first time. */
function planOnce<P>(plans: WeakMap<AnyCodec, P>, codec: AnyCodec, make: () => P): P {
  let plan = plans.get(codec);
  if (plan === undefined) {
    plan = make();
    plans.set(codec, plan);
  }
  return plan;
}

/** One cache for every compiled codec: plans depend only on the codec. */
const PLANS = new Plans();

function planRead(codec: AnyCodec, plans: Plans): ReadPlan {
  const compiled = compiledOf.get(codec);
  if (compiled !== undefined) return plans.read(compiled);
  if (!isExact(codec)) return interpretedRead(codec);
  const def = codec.def;
  switch (def.type) {
    case 'int': {
      const le = def.endian === 'le';
      const at = def.bits === 64 ? undefined : intReadAt(def.bits, def.signed, le);
      return at !== undefined
        ? fixedRead(def.bits / 8, 0, at, numberCode('int', def.bits, def.signed, le))
        : offeredRead(codec);
    }
    case 'float':
      return codec.readFixed !== undefined
        ? fixedRead(
            def.bits / 8,
            0,
            floatReadAt(def.bits, def.endian === 'le', codec.readFixed),
            numberCode('float', def.bits, true, def.endian === 'le'),
          )
        : offeredRead(codec);
    case 'magic':
      return offeredRead(codec);
    case 'padding':
    case 'nothing':
      return leafRead(codec);
    case 'string':
      // A text codec that shares its texts keeps its table in its own read: planned as a leaf.
      if (def.termination.type === 'prefix' && !sharesText(codec))
        return pstringRead(codec, def.termination.length, def.encoding, plans);
      return leafRead(codec);
    case 'bytes':
      return bytesRead(codec, def.count, plans);
    case 'literal': {
      const inner = plans.read(def.codec);
      if (!inner.pure) return interpretedRead(codec);
      const values = def.values as ReadonlyArray<unknown>;
      const readInner = inner.read;
      return streamRead(true, (r) => {
        const value = readInner(r);
        if (!values.includes(value)) throw BAIL;
        return value;
      });
    }
    case 'optional': {
      const inner = plans.read(def.codec);
      const readInner = inner.read;
      return streamRead(inner.pure, (r) => (r.pos < r.end ? readInner(r) : undefined));
    }
    case 'struct':
      if (def.stored !== undefined) return interpretedRead(codec);
      return structRead(codec, def.fields, plans);
    case 'array':
      return arrayRead(codec, def.element, def.count, plans);
    case 'map':
      return mapRead(codec, def.stored, def.bijection.decode, plans);
    default:
      return interpretedRead(codec);
  }
}

function planWrite(codec: AnyCodec, plans: Plans): WritePlan {
  const compiled = compiledOf.get(codec);
  if (compiled !== undefined) return plans.write(compiled);
  if (!isExact(codec)) return interpretedWrite(codec);
  const def = codec.def;
  switch (def.type) {
    case 'int': {
      if (def.bits === 64) return leafWrite(codec);
      const at = intWriteAt(def.bits, def.signed, def.endian === 'le');
      return at !== undefined ? fixedWrite(def.bits / 8, at) : offeredWrite(codec);
    }
    case 'float':
      return fixedWrite(def.bits / 8, floatWriteAt(def.bits, def.endian === 'le'));
    case 'magic':
    case 'padding':
    case 'nothing':
      return offeredWrite(codec);
    case 'bytes':
      return def.count.type !== 'prefix' || plans.write(def.count.codec).pure
        ? offeredWrite(codec)
        : interpretedWrite(codec);
    case 'literal':
      return plans.write(def.codec).pure ? offeredWrite(codec) : interpretedWrite(codec);
    case 'string':
      if (def.termination.type === 'prefix' && !sharesText(codec))
        return pstringWrite(codec, def.termination.length, def.encoding, plans);
      return leafWrite(codec);
    case 'optional':
      // `optional` checks the bytes a present value took: the interpreter does that.
      return interpretedWrite(codec);
    case 'struct':
      if (def.stored !== undefined) return interpretedWrite(codec);
      return structWrite(codec, def.fields, plans);
    case 'array':
      return arrayWrite(codec, def.element, def.count, plans);
    case 'map':
      return mapWrite(codec, def.stored, def.bijection.encode, plans);
    default:
      return interpretedWrite(codec);
  }
}

/**
 * The `read` of a compiled codec: its plan, counted in {@link compiledCalls}; a pure plan that fails
 * is redone by the interpreted `body` from where it started. Tracing, `compiled: false` and a redo
 * in progress run `body`. A plan that is the codec's own interpreted reading is `body` itself.
 */
function compiledRead(plan: ReadPlan, body: (r: Reader) => unknown): (r: Reader) => unknown {
  if (!plan.compiled) return body;
  const planned = plan.read;
  if (!plan.pure) {
    return (r) => {
      if (redoing !== 0 || r.state.spans !== undefined || !r.state.options.compiled) return body(r);
      compiledCalls.reads++;
      return planned(r);
    };
  }
  return (r) => {
    if (redoing !== 0 || r.state.spans !== undefined || !r.state.options.compiled) return body(r);
    const start = r.pos;
    const budget = r.state.budget;
    const work = budget.workSpent;
    compiledCalls.reads++;
    try {
      return planned(r);
    } catch {
      r.pos = start;
      budget.workSpent = work;
      compiledCalls.readsRedone++;
      return interpreted(() => body(r));
    }
  };
}

/** Whether an encode asked for `compiled: false` (a mark in its context, usually empty). */
function writesInterpreted(w: Writer): boolean {
  return redoing !== 0 || (w.state.context.size !== 0 && w.state.context.has(WRITE_INTERPRETED));
}

/** The `write` of a compiled codec, as {@link compiledRead} for reading. */
function compiledWrite(plan: WritePlan, body: (w: Writer, value: Value) => void): (w: Writer, value: Value) => void {
  if (!plan.compiled) return body;
  const planned = plan.write;
  if (!plan.pure) {
    return (w, value) => {
      if (writesInterpreted(w)) return body(w, value);
      compiledCalls.writes++;
      planned(w, value);
    };
  }
  const measure = plan.measure;
  return (w, value) => {
    if (writesInterpreted(w)) return body(w, value);
    const start = w.length;
    compiledCalls.writes++;
    try {
      if (measure !== undefined && start === 0) {
        // Room for the whole value at once, for a value that starts an output (it then fills
        // the buffer exactly and is handed over without a copy); not elsewhere, where sizing
        // exactly for each value would copy the buffer each time.
        const size = measure(value);
        if (size !== undefined) w.presize(size);
      }
      planned(w, value);
    } catch {
      w.length = start;
      compiledCalls.writesRedone++;
      interpreted(() => body(w, value));
    }
  };
}

// Every struct and array runs its plan from its second call on (see auto-compile.ts).
setAutoCompiler({
  read: (codec, body) => compiledRead(PLANS.read(codec), body),
  write: (codec, body) => compiledWrite(PLANS.write(codec), body),
});

/**
 * How often compiled codecs ran their plans, for tests that prove decoding and encoding take the
 * compiled path (not exported by the package). `reads`/`writes` count top-level calls whose plan is
 * more than the codec's own `read`/`write`; `redone*` those whose plan failed and the interpreted
 * codec ran again. One increment per call, not per value read.
 *
 * @internal
 */
export const compiledCalls = { reads: 0, readsRedone: 0, writes: 0, writesRedone: 0 };

/** Compiled codecs, to the codec they were compiled from. */
const compiledOf = new WeakMap<AnyCodec, AnyCodec>();
/** The compiled codec of each codec compiled, so compiling twice gives the same codec. */
const compiledCodecs = new WeakMap<AnyCodec, AnyCodec>();

/**
 * A codec that reads and writes what `codec` does, with the same errors, warnings and values, but
 * faster: the codec tree is compiled, from its typed definitions (`codec.def`), into specialised
 * closures. Use the result wherever a codec goes — `decode`, `encode`, inside other codecs.
 *
 * - Fixed-layout runs (structs of integers, floats, magic and padding; arrays of those) are read at
 *   known offsets with one bounds check per run and no path bookkeeping; strings take a fast path
 *   for short text; encoding writes fixed-size runs into room made once.
 * - Whatever the compiler does not know (custom codecs, transforms, pointers, unions, …) runs
 *   interpreted, inside compiled structs.
 * - On any failure the subtree that failed is read or written again by the interpreted codec from
 *   where it started, so a `DecodeError` or `EncodeError` is the interpreted one: message, code,
 *   path and offset. Decoding with `trace: true` runs interpreted.
 *
 * No code is generated or evaluated: compiled codecs run under a Content Security Policy without
 * `unsafe-eval`. Compiling is cheap and cached: compiling a codec (or its compiled codec) again gives
 * the same compiled codec. Decoding or encoding with `compiled: false` runs it interpreted.
 *
 * @example
 * ```ts
 * import { compile, decodeOrThrow, struct, u32le } from '@savekit/core';
 * const record = compile(struct({ a: u32le, b: u32le }));
 * decodeOrThrow(record, new Uint8Array([1, 0, 0, 0, 2, 0, 0, 0])); // { a: 1, b: 2 }
 * ```
 */
export function compile<A>(codec: Codec<A>): Codec<A> {
  const source = compiledOf.get(codec) ?? codec;
  const known = compiledCodecs.get(source);
  if (known !== undefined) return known as Codec<A>;
  const read = compiledRead(PLANS.read(source), bodyRead(source)) as (r: Reader) => A;
  const write = compiledWrite(PLANS.write(source), bodyWrite(source)) as (w: Writer, value: A) => void;
  const compiled = defineCodec<A>({
    name: source.name,
    def: source.def,
    json: source.json,
    size: source.size,
    minSize: source.minSize,
    read,
    readFixed: source.readFixed,
    writeFixed: source.writeFixed,
    write,
  });
  // Read through: a codec may list its children lazily (`switchOnDemand` builds a case when first met).
  Object.defineProperty(compiled, 'children', { get: () => source.children, enumerable: true });
  compiledOf.set(compiled, source);
  compiledCodecs.set(source, compiled);
  return compiled;
}

/**
 * A function that decodes whole buffers with `codec` exactly as `decodeOrThrow(codec, bytes)` does
 * with default options — same value, same `DecodeError` — for hot loops that decode many small
 * buffers (a record per network message, a struct per call).
 *
 * When the codec compiles completely (no custom codecs, transforms or pointers inside; see
 * {@link compile}), a call allocates nothing but the value: the reader, its state and budget are
 * reused, there is no `Either` and no result object, and a `DataView` is made only when the buffer
 * changes. Warnings cannot occur on that path. Anything else — a codec that does not compile
 * completely, bytes that fail or leave bytes over — goes through `decodeOrThrow`, so errors are the
 * same. A decoder is not reentrant-safe across threads; it needs no disposal.
 *
 * @example
 * ```ts
 * import { decoder, struct, u32le } from '@savekit/core';
 * const readRecord = decoder(struct({ a: u32le, b: u32le }));
 * readRecord(new Uint8Array([1, 0, 0, 0, 2, 0, 0, 0])); // { a: 1, b: 2 }
 * ```
 */
export function decoder<A>(codec: Codec<A>): (bytes: Uint8Array) => A {
  const source = compiledOf.get(codec) ?? codec;
  const plan = PLANS.read(source);
  const slow = (bytes: Uint8Array): A => decodeOrThrow(codec, bytes);
  if (!plan.pure) return slow;
  const planned = plan.read;
  const fixedAt = plan.at;
  const fixedSize = plan.size;
  // The budget of a decode of up to MIN_WORK / 2 bytes: larger inputs take the ordinary path,
  // whose budget grows with the input.
  const limits = defaultBudgetLimits(0);
  const largest = Math.floor(limits.maxWork / 2);
  const budget = new DecodeBudget(limits);
  const state = new ReadState(DEFAULT_OPTIONS, budget);
  // The array last read, with a reader over its whole buffer and its offset: a view's buffer
  // and offset never change (a detached or shrunk buffer shows as a length other than expected),
  // so a call with the array of the call before reads neither. (`buffer` is a getter V8 calls
  // rather than inlines: checking it on every call took half of a 16-byte struct's decode.)
  let last: Uint8Array | undefined;
  let buffer: ArrayBufferLike | undefined;
  let reader = new Reader(new Uint8Array(0), state, 0, 0);
  let offset = 0;
  const remember = (bytes: Uint8Array): void => {
    if (bytes.buffer !== buffer) {
      buffer = bytes.buffer;
      reader = new Reader(new Uint8Array(buffer), state, 0, buffer.byteLength);
    }
    last = bytes;
    offset = bytes.byteOffset;
  };
  if (fixedAt !== undefined && plan.work <= limits.maxWork) {
    // A fixed-layout value: exactly its size, read at the array's offset.
    return (bytes) => {
      if (bytes.length !== fixedSize) return slow(bytes);
      if (bytes !== last) remember(bytes);
      try {
        return fixedAt(reader, offset) as A;
      } catch {
        return slow(bytes);
      }
    };
  }
  return (bytes) => {
    if (bytes.length > largest) return slow(bytes);
    if (bytes !== last) remember(bytes);
    // The reader spans the whole buffer; this call's window is set on it (offsets in errors are
    // relative to `bytes`, but errors are made by the ordinary path).
    const r = reader as { -readonly [K in keyof Reader]: Reader[K] };
    r.start = offset;
    r.end = offset + bytes.length;
    r.pos = r.start;
    budget.workSpent = 0;
    let value: A;
    try {
      value = planned(r) as A;
    } catch {
      return slow(bytes);
    }
    return r.pos === r.end ? value : slow(bytes);
  };
}
