/**
 * IFF-like chunks: a marker, a length, a body (padded to a boundary), and optionally an end marker.
 * `chunk` reads one chunk of a known marker; `chunkList` reads a run of chunks, decoding the markers it
 * knows and keeping every other chunk's bytes, in place, so re-encoding loses nothing.
 *
 * @module
 */
import * as t from 'io-ts';
import { UNITS_PER_CHUNK } from './budget.js';
import { defineCodec, readChild, writeChild, type Codec, type TypeOf } from './codec.js';
import { describeValue, pathAnnotation, type PathSegment } from './errors.js';
import { jsonArray, jsonBytes } from './json.js';
import type { Reader } from './reader.js';
import { patch } from './sized.js';
import type { Writer } from './writer.js';

/** How a family of chunks is framed. */
export interface ChunkFraming {
  /** The marker codec, usually {@link fourcc}. */
  readonly marker: Codec<string>;
  /** The length codec. The length counts the body (and its padding, unless `padCounted` is false). */
  readonly length: Codec<number>;
  /** Where the length sits: `'before'` the body (default) or `'after'` it (then the body must end itself). */
  readonly lengthPosition?: 'before' | 'after';
  /** The end marker that follows the body, as a function of the start marker (EDGE: upper case). */
  readonly endMarker?: (marker: string) => string;
  /** Bodies are padded with zero bytes to a multiple of this (default 1: no padding). */
  readonly align?: number;
  /** Whether the length counts the padding (default true). */
  readonly padCounted?: boolean;
  /**
   * Bytes at the start of the body that the length does not count (default 0): a fixed header the
   * body codec reads first. EDGE's top-level chunks store `stored_len`, then `orig_len`, then
   * `stored_len` bytes: the length counts the stored bytes only, so the body is `orig_len | stored`
   * with `uncounted: 4`. Only with the length before the body.
   */
  readonly uncounted?: number;
}

/** A decoded chunk the list knew: its marker and decoded body. */
export interface KnownChunk<M extends string, A> {
  /** The marker. */
  id: M;
  /** The decoded body. */
  body: A;
  /** Padding bytes, only when they were not all zero (kept so they are written back). */
  pad?: Uint8Array;
}

/** A chunk whose marker the list did not know: its bytes, kept as they were. */
export interface RawChunk {
  /** The marker. */
  id: string;
  /** The body bytes, exactly as counted by the length. */
  raw: Uint8Array;
  /** Padding bytes outside the length, only when they were not all zero. */
  pad?: Uint8Array;
}

/** The entries of a chunk list over the codecs `M`: known chunks decoded, others raw. */
export type ChunkEntry<M extends Readonly<Record<string, Codec<any>>>> =
  | { [K in keyof M & string]: KnownChunk<K, TypeOf<M[K]>> }[keyof M & string]
  | RawChunk;

/** Whether a chunk-list entry is a raw (unknown) chunk. */
export function isRawChunk(entry: { id: string }): entry is RawChunk {
  return 'raw' in entry;
}

/**
 * A four-character code: four bytes read as Latin-1 text. With `alnum`, only ASCII letters and digits
 * are accepted (EDGE's `VerifyMarker`).
 */
export function fourcc(options: { readonly alnum?: boolean } = {}): Codec<string> {
  const allowed = (c: number) =>
    !options.alnum || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  // A loop over the code units, no array per call: every chunk written checks its marker. (A
  // surrogate is above 0xff, so a string of four code units with one is refused as before.)
  const valid = (s: string) => {
    if (s.length !== 4) return false;
    for (let i = 0; i < 4; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff || !allowed(c)) return false;
    }
    return true;
  };
  return defineCodec<string>({
    name: options.alnum ? 'fourcc(alnum)' : 'fourcc',
    def: { type: 'fourcc', alnum: !!options.alnum },
    json: new t.Type<string, string, unknown>(
      'fourcc',
      (u): u is string => typeof u === 'string' && valid(u),
      (u, c) => (typeof u === 'string' && valid(u) ? t.success(u) : t.failure(u, c, 'expected a four-character code')),
      (a) => a,
    ),
    size: 4,
    read(r) {
      const at = r.pos;
      r.need(4);
      const b = r.bytes;
      for (let i = 0; i < 4; i++) {
        if (!allowed(b[at + i]!))
          throw r.error(
            'bad-magic',
            `marker byte 0x${b[at + i]!.toString(16).padStart(2, '0')} is not a letter or digit`,
            at + i,
          );
      }
      r.pos = at + 4;
      return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
    },
    write(w, value) {
      if (typeof value !== 'string' || !valid(value))
        throw w.error('out-of-range', `${describeValue(value)} is not a valid four-character code`);
      const at = w.ensure(4);
      for (let i = 0; i < 4; i++) w.buf[at + i] = value.charCodeAt(i);
      w.length = at + 4;
    },
  });
}

/** Whether `fourcc({ alnum })` reads the four code units of `text` back as `text`. */
function fourccAccepts(text: string, alnum: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return false;
    if (alnum && !((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return false;
  }
  return true;
}

/** The length is framing, not part of a chunk's value: it shows on paths as the annotation `<length>`. */
const LENGTH = pathAnnotation('length');

interface Framed {
  id: string;
  /** Reader positioned on the body (a window when the length comes first). */
  body: Reader;
  /** Declared body length, when it came first. */
  length?: number;
}

/** Writes a chunk's padding: `pad` when the document kept some (it must be `count` bytes), else zeros. */
function writePad(into: Writer, id: string, pad: Uint8Array | undefined, count: number): void {
  if (pad === undefined) {
    if (count > 0) into.fill(count, 0);
  } else if (pad.length !== count)
    throw into.error('size-mismatch', `chunk ${id}: kept padding is ${pad.length} bytes, the body needs ${count}`);
  else into.append(pad);
}

/**
 * Shared framing logic of `chunk`, `chunkList` and `chunkBody` (internal: not exported by the package).
 *
 * @internal
 */
export class Framer {
  readonly align: number;
  readonly padCounted: boolean;
  readonly lengthAfter: boolean;
  readonly uncounted: number;
  /** The length's `readFixed` when it is an integer read in place (else undefined), and its size. */
  readonly lengthAt: ((r: Reader, at: number) => number) | undefined;
  readonly lengthSize: number;

  constructor(readonly framing: ChunkFraming) {
    const length = framing.length;
    this.lengthAt =
      length.def.type === 'int' && length.size !== undefined && framing.lengthPosition !== 'after'
        ? length.readFixed
        : undefined;
    this.lengthSize = length.size ?? 0;
    this.align = framing.align ?? 1;
    this.padCounted = framing.padCounted ?? true;
    this.lengthAfter = framing.lengthPosition === 'after';
    this.uncounted = framing.uncounted ?? 0;
    if (!Number.isInteger(this.align) || this.align < 1)
      throw new RangeError('chunk: align must be a positive integer');
    if (!Number.isInteger(this.uncounted) || this.uncounted < 0)
      throw new RangeError('chunk: uncounted must be a non-negative integer');
    if (this.uncounted > 0 && this.lengthAfter)
      throw new RangeError('chunk: uncounted bytes need the length before the body');
  }

  padFor(length: number): number {
    return (this.align - (length % this.align)) % this.align;
  }

  /**
   * Reads the marker (at `markerKey` on the path) and the length, when it comes first, and opens the
   * body. Charges {@link UNITS_PER_CHUNK} for what a chunk makes, then a unit each for marker and length.
   */
  open(r: Reader, markerKey: PathSegment = 'id'): Framed {
    r.work(UNITS_PER_CHUNK);
    const id = readChild(r, markerKey, this.framing.marker);
    if (this.lengthAfter) return { id, body: r };
    const at = r.pos;
    const length = readChild(r, LENGTH, this.framing.length);
    if (this.padCounted && length % this.align !== 0) {
      throw r.error('size-mismatch', `chunk ${id}: length ${length} is not a multiple of ${this.align}`, at);
    }
    const whole = length + this.uncounted;
    if (whole > r.remaining) {
      const what = this.uncounted > 0 ? `length ${length} (+${this.uncounted} uncounted)` : `length ${length}`;
      throw r.error('short-read', `chunk ${id}: ${what} is more than the ${r.remaining} bytes left`, at);
    }
    return { id, body: r.window(whole), length };
  }

  /**
   * {@link Framer.open} for a chunk that should be the marker whose bytes are `codes`, done in place
   * when it can be: the marker a four-character code of those bytes, the length an integer read at
   * its offset. Gives the body's window (its length is the window's, less the uncounted bytes), with
   * no record of the framing made per chunk. Charges what `open` charges ({@link UNITS_PER_CHUNK}, and a
   * unit of work each for the marker and the length). Undefined, with nothing read or spent, whenever `open` would say more than
   * "here is the body" (another marker, a length that does not fit, too little work left) or would
   * record spans: `open` then gives the error.
   */
  openKnown(r: Reader, codes: ReadonlyArray<number>): Reader | undefined {
    const readLength = this.lengthAt;
    if (readLength === undefined || r.state.spans !== undefined) return undefined;
    const at = r.pos;
    const head = 4 + this.lengthSize;
    if (r.end - at < head) return undefined;
    const b = r.bytes;
    if (b[at] !== codes[0] || b[at + 1] !== codes[1] || b[at + 2] !== codes[2] || b[at + 3] !== codes[3])
      return undefined;
    let length: number;
    try {
      length = readLength(r, at + 4);
    } catch {
      return undefined;
    }
    if (this.padCounted && length % this.align !== 0) return undefined;
    const whole = length + this.uncounted;
    if (!(whole <= r.end - at - head)) return undefined;
    const budget = r.state.budget;
    const spent = budget.workSpent + UNITS_PER_CHUNK + 2;
    if (budget.exceeds(spent)) return undefined;
    budget.workSpent = spent;
    r.pos = at + head;
    return r.window(whole);
  }

  /**
   * Finishes a chunk whose body has been read from `framed.body`: checks nothing was left unread,
   * reads padding, the trailing length and the end marker. Returns non-zero padding, if any.
   */
  close(r: Reader, framed: Framed, bodyStart: number): Uint8Array | undefined {
    return this.closeBody(r, framed.id, framed.body, framed.length, bodyStart);
  }

  /**
   * {@link Framer.close} for the chunk `id` whose body was read from `body` (from `bodyStart`),
   * `length` its declared length when that came first.
   */
  closeBody(
    r: Reader,
    id: string,
    body: Reader,
    length: number | undefined,
    bodyStart: number,
  ): Uint8Array | undefined {
    let pad: Uint8Array | undefined;
    if (this.lengthAfter) {
      const used = body.pos - bodyStart;
      if (this.padCounted) pad = this.readPad(r, this.padFor(used));
      const at = r.pos;
      const length = readChild(r, LENGTH, this.framing.length);
      const expected = used + (this.padCounted ? this.padFor(used) : 0);
      if (length !== expected)
        throw r.error('size-mismatch', `chunk ${id}: length says ${length}, body took ${expected}`, at);
      if (!this.padCounted) pad = this.readPad(r, this.padFor(used));
    } else {
      const used = body.pos - bodyStart;
      const left = body.end - body.pos;
      if (this.padCounted) {
        if (left !== this.padFor(used))
          throw body.error('trailing-bytes', `chunk ${id}: ${left} bytes left unread in its body`);
        pad = this.readPad(body, left);
      } else {
        if (left !== 0) throw body.error('trailing-bytes', `chunk ${id}: ${left} bytes left unread in its body`);
        pad = this.readPad(r, this.padFor(length ?? 0));
      }
    }
    this.readEnd(r, id);
    return pad;
  }

  readPad(r: Reader, count: number): Uint8Array | undefined {
    if (count === 0) return undefined;
    const at = r.pos;
    r.need(count);
    for (let i = at; i < at + count; i++) if (r.bytes[i] !== 0) return r.take(count);
    r.pos = at + count;
    return undefined;
  }

  readEnd(r: Reader, id: string): void {
    const endMarker = this.framing.endMarker;
    if (endMarker === undefined) return;
    const expected = endMarker(id);
    const at = r.pos;
    r.need(expected.length);
    for (let i = 0; i < expected.length; i++) {
      if (r.bytes[at + i] !== expected.charCodeAt(i)) {
        const found = String.fromCharCode(...r.bytes.subarray(at, at + expected.length));
        throw r.error(
          'bad-magic',
          `chunk ${id}: expected end marker ${JSON.stringify(expected)}, found ${JSON.stringify(found)}`,
          at,
        );
      }
    }
    r.pos = at + expected.length;
  }

  /**
   * Writes a whole chunk; `writeBody` writes the body at the writer's end (`body`, when given, is
   * handed to it: a chunk written per instance then needs no closure per value).
   */
  write<B>(
    w: Writer,
    id: string,
    pad: Uint8Array | undefined,
    writeBody: (w: Writer, body: B) => void,
    markerKey: PathSegment = 'id',
    body?: B,
  ): void {
    const { marker, length } = this.framing;
    writeChild(w, markerKey, marker, id);
    const origin = w.origin;
    const reserve = !this.lengthAfter && length.size !== undefined;
    const slot = reserve ? w.reserve(length.size as number) : -1;
    // A length codec of varying size cannot be reserved: write the body aside, then length and body.
    const target = this.lengthAfter || reserve ? w : w.sub();
    const start = target.length;
    target.origin = start;
    writeBody(target, body as B);
    target.origin = origin;
    const used = target.length - start;
    const padCount = this.padFor(used);
    if (this.padCounted) writePad(target, id, pad, padCount);
    const counted = used + (this.padCounted ? padCount : 0) - this.uncounted;
    if (counted < 0)
      throw w.error('size-mismatch', `chunk ${id}: the body is shorter than its ${this.uncounted} uncounted bytes`);
    w.state.path.push(LENGTH);
    if (this.lengthAfter) length.write(w, counted);
    else if (reserve) patch(w, slot, length, counted);
    else {
      length.write(w, counted);
      w.append(target.written());
    }
    w.state.path.pop();
    if (!this.padCounted) writePad(w, id, pad, padCount);
    const endMarker = this.framing.endMarker;
    if (endMarker !== undefined) {
      const text = endMarker(id);
      for (let i = 0; i < text.length; i++) w.u8(text.charCodeAt(i) & 0xff);
    }
  }
}

function chunkJson<A>(id: t.Type<any, unknown, unknown>, body: t.Type<A, unknown, unknown>, name: string) {
  return t.intersection([t.type({ id, body }), t.partial({ pad: jsonBytes() })], name) as unknown as t.Type<
    KnownChunk<any, A>,
    unknown,
    unknown
  >;
}

/**
 * One chunk with a known marker. The value is `{ id, body, pad? }`; a different marker is a DecodeError.
 *
 * @example
 * ```ts
 * const edgeChunk = { marker: fourcc({ alnum: true }), length: u32le, align: 4, endMarker: (m: string) => m.toUpperCase() };
 * const vari = chunk(edgeChunk, 'Vari', struct({ name: edgeString, value: edgeString }));
 * ```
 */
export function chunk<M extends string, A>(framing: ChunkFraming, marker: M, body: Codec<A>): Codec<KnownChunk<M, A>> {
  const framer = new Framer(framing);
  const writeBody = (into: Writer, value: A): void => body.write(into, value);
  // A four-character marker the marker codec would read is compared in place, as its bytes (no
  // string made per chunk: EDGE reads one chunk per instance).
  const markerDef = framing.marker.def;
  const codes =
    markerDef.type === 'fourcc' && marker.length === 4 && fourccAccepts(marker, markerDef.alnum)
      ? Array.from(marker, (c) => c.charCodeAt(0))
      : undefined;
  return defineCodec<KnownChunk<M, A>>({
    name: `chunk(${marker})`,
    def: { type: 'chunk', framing, marker, body },
    json: chunkJson(t.literal(marker), body.json, `chunk(${marker})`),
    minSize: framing.marker.minSize + framing.length.minSize,
    children: [{ key: marker, codec: body }],
    read(r) {
      const at = r.pos;
      r.descend();
      // In place when it can be (no record of the framing per chunk), else by the marker and length codecs.
      let within = codes !== undefined ? framer.openKnown(r, codes) : undefined;
      let length: number | undefined;
      if (within !== undefined) length = within.end - within.start - framer.uncounted;
      else {
        const framed = framer.open(r);
        if (framed.id !== marker)
          throw r.error(
            'bad-magic',
            `expected chunk ${JSON.stringify(marker)}, found ${JSON.stringify(framed.id)}`,
            at,
          );
        within = framed.body;
        length = framed.length;
      }
      const bodyStart = within.pos;
      const value = readChild(within, 'body', body);
      const pad = framer.closeBody(r, marker, within, length, bodyStart);
      r.ascend();
      return pad === undefined ? { id: marker, body: value } : { id: marker, body: value, pad };
    },
    write(w, value) {
      if (typeof value !== 'object' || value === null) throw w.error('wrong-type', 'expected a chunk object');
      if (value.id !== marker)
        throw w.error('bad-magic', `expected chunk ${JSON.stringify(marker)}, got ${describeValue(value.id)}`);
      w.descend();
      w.state.path.push('body');
      framer.write(w, marker, value.pad, writeBody, 'id', value.body);
      w.state.path.pop();
      w.ascend();
    },
  });
}

/** Options of {@link chunkList}. */
export interface ChunkListOptions {
  /** Markers that end the list without being read (EDGE's `ENDE`): the list stops in front of them. */
  readonly until?: ReadonlyArray<string>;
}

/**
 * Chunks until the window ends (or a marker in `until`): markers in `known` decoded by their codecs,
 * every other chunk kept as `{ id, raw }`, all in file order.
 */
export function chunkList<M extends Readonly<Record<string, Codec<any>>>>(
  framing: ChunkFraming,
  known: M,
  options: ChunkListOptions = {},
): Codec<Array<ChunkEntry<M>>> {
  const framer = new Framer(framing);
  if (framer.lengthAfter)
    throw new RangeError('chunkList: chunks with the length after the body cannot be skipped when unknown');
  const markers = Object.keys(known);
  const until = options.until ?? [];
  const isKnown = (id: string) => Object.hasOwn(known, id);
  const rawJson = t.intersection(
    [t.type({ id: t.string, raw: jsonBytes() }), t.partial({ pad: jsonBytes() })],
    'RawChunk',
  );
  const members: t.Mixed[] = markers.map((m) =>
    chunkJson(t.literal(m), (known as Record<string, Codec<unknown>>)[m]!.json, `chunk(${m})`),
  );
  const unknownRaw = new t.Type<RawChunk, unknown, unknown>(
    'RawChunk',
    (u): u is RawChunk => rawJson.is(u) && !isKnown(u.id),
    (u, c) => {
      const result = rawJson.validate(u, c);
      if (result._tag === 'Right' && isKnown(result.right.id))
        return t.failure(u, c, `chunk ${result.right.id} must have a decoded body`);
      return result as t.Validation<RawChunk>;
    },
    (a) => rawJson.encode(a),
  );
  members.push(unknownRaw);
  const entryJson = members.length === 1 ? members[0]! : t.union(members as [t.Mixed, t.Mixed, ...t.Mixed[]]);
  // The fewest bytes a chunk takes: its marker and its length.
  const leastChunk = framing.marker.minSize + framing.length.minSize;
  const stopsAt = (r: Reader): boolean => {
    if (until.length === 0) return false;
    const left = r.remaining;
    for (const stop of until) {
      // Fewer bytes than a stop marker, and the start of one, where no chunk fits: the list ends, so
      // a file cut inside its end marker is short there, not at a chunk the document never had.
      if (stop.length > left && left >= leastChunk) continue;
      const n = Math.min(stop.length, left);
      let i = 0;
      while (i < n && r.bytes[r.pos + i] === stop.charCodeAt(i)) i++;
      if (i === n) return true;
    }
    return false;
  };
  return defineCodec<Array<ChunkEntry<M>>>({
    name: `chunkList(${markers.join(', ')})`,
    def: {
      type: 'chunkList',
      framing,
      known: markers.map((m) => ({ marker: m, codec: (known as Record<string, Codec<unknown>>)[m]! })),
      until,
    },
    json: jsonArray(entryJson) as unknown as t.Type<Array<ChunkEntry<M>>, unknown, unknown>,
    minSize: 0,
    children: markers.map((m) => ({ key: m, codec: (known as Record<string, Codec<unknown>>)[m]! })),
    read(r) {
      const out: Array<ChunkEntry<M>> = [];
      const { path, spans } = r.state;
      const depth = path.length;
      r.descend();
      path.push(0);
      for (let i = 0; r.pos < r.end && !stopsAt(r); i++) {
        path[depth] = i;
        r.work(1);
        const start = r.pos;
        const framed = framer.open(r);
        const bodyStart = framed.body.pos;
        let entry: ChunkEntry<M>;
        if (isKnown(framed.id)) {
          const body = readChild(framed.body, 'body', (known as Record<string, Codec<unknown>>)[framed.id]!);
          entry = { id: framed.id, body } as ChunkEntry<M>;
        } else {
          entry = { id: framed.id, raw: framed.body.take(framed.body.end - framed.body.pos) };
        }
        const pad = framer.close(r, framed, bodyStart);
        if (pad !== undefined) entry.pad = pad;
        out.push(entry);
        if (spans !== undefined) r.state.addSpan(spans, { path: path.slice(), start, end: r.pos, layer: r.layer });
      }
      path.pop();
      r.ascend();
      return out;
    },
    write(w, entries) {
      if (!Array.isArray(entries)) throw w.error('wrong-type', 'expected an array of chunks');
      const path = w.state.path;
      const depth = path.length;
      w.descend();
      path.push(0);
      for (let i = 0; i < entries.length; i++) {
        path[depth] = i;
        const entry = entries[i];
        if (typeof entry !== 'object' || entry === null) throw w.error('wrong-type', 'expected a chunk object');
        if (isRawChunk(entry)) {
          if (isKnown(entry.id))
            throw w.error('invalid-value', `chunk ${entry.id} is known and must have a decoded body`);
          const raw = entry.raw;
          if (!(raw instanceof Uint8Array)) throw w.error('wrong-type', 'a raw chunk needs its bytes');
          // Raw bodies were read including any counted padding, so they need none added: bytes that
          // are not a whole number of aligned units would gain padding and read back longer.
          if (framer.padCounted && framer.padFor(raw.length) !== 0) {
            path.push('raw');
            const error = w.error(
              'size-mismatch',
              `a kept chunk's bytes are its whole body, padding included: ${raw.length} bytes is not a multiple of ${framer.align}`,
            );
            path.pop();
            throw error;
          }
          framer.write(w, entry.id, entry.pad, (into) => into.append(raw));
        } else {
          const codec = isKnown(entry.id) ? (known as Record<string, Codec<unknown>>)[entry.id] : undefined;
          if (codec === undefined)
            throw w.error(
              'unknown-tag',
              `chunk ${describeValue(entry.id)} has a body but no codec; give unknown chunks as { id, raw }`,
            );
          path.push('body');
          framer.write(w, entry.id, entry.pad, (into) =>
            codec.write(into, (entry as KnownChunk<string, unknown>).body),
          );
          path.pop();
        }
      }
      path.pop();
      w.ascend();
    },
  });
}
