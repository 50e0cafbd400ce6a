/**
 * Pointers: offsets into the same buffer. An `arena` is the region pointers point into: it reads its
 * root value, follows the pointers, and keeps every byte nobody claimed. Writing plans the layout —
 * each target goes back where it was while it fits, shared targets are written once, anything new or
 * grown goes at the end — so nothing overlaps, reserved offsets (such as "0 means absent") are never
 * used, and an unmodified document is written back byte for byte.
 *
 * @module
 */
import * as t from 'io-ts';
import { defineCodec, namedChildren, readChild, writeChild, type Codec } from './codec.js';
import { bytesEqual } from './bytes.js';
import { EncodeError } from './errors.js';
import { jsonArray, jsonBytes, jsonInt } from './json.js';
import { pathAnnotation, type PathSegment } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** A pointer's value: its target, and the arena offset it was read from (absent for new targets). */
export interface Pointer<A> {
  /** Offset in the arena where the target was found; the writer puts it back there when it can. */
  at?: number;
  /** The value pointed to. */
  target: A;
}

/** Bytes in an arena no root or pointer claimed, kept at their offset. */
export interface Unclaimed {
  /** Offset in the arena. */
  readonly at: number;
  /** The bytes. */
  readonly bytes: Uint8Array;
}

/** An arena's value: the root value and the unclaimed bytes. */
export interface Arena<A> {
  /** The value at the start of the arena. */
  root: A;
  /** Bytes no value claimed, kept so they are written back (clear them if the layout changes). */
  unclaimed: Unclaimed[];
}

/** Options of {@link pointer}. */
export interface PointerOptions {
  /**
   * The stored offset that means "no target" (the value `null`); default 0. `'none'`: every stored
   * offset points at a target and the value is never `null` (a WAD's `filepos`, where 0 is an offset
   * like any other). `undefined` is the old spelling of `'none'`, still accepted.
   */
  readonly nullOffset?: number | 'none' | undefined;
  /** Further offsets the writer must never use for a target. */
  readonly reserved?: ReadonlyArray<number>;
  /** What the offset counts from: the arena's start (default) or the pointer's own position. */
  readonly base?: 'arena' | 'pointer';
  /** Targets the writer moves are placed at multiples of this (default 1). */
  readonly align?: number;
}

interface ReadScope {
  readonly start: number;
  readonly end: number;
  readonly claims: Array<[number, number]>;
  /** Where pointer slots are: [offset, size, index of the claim that holds it or -1 for the root]. */
  readonly slots: Array<[number, number, number]>;
  /** Claims being read, innermost last. */
  readonly owners: number[];
  /** Where each claimed target was pointed at from, to name it in errors. */
  readonly from: number[];
  readonly cache: Map<Codec<unknown>, Map<number, unknown>>;
  readonly reading: Set<string>;
}

interface Blob {
  bytes: Uint8Array;
  readonly at: number | undefined;
  /** Offsets of pointer slots inside the blob: never shared with another blob. */
  readonly slots: number[];
  placed: number;
  readonly reserved: ReadonlySet<number>;
  readonly align: number;
}

interface PendingPointer {
  readonly owner: number;
  readonly slot: number;
  readonly offset: Codec<number>;
  readonly base: 'arena' | 'pointer';
  readonly codec: Codec<unknown>;
  readonly value: Pointer<unknown>;
  readonly path: ReadonlyArray<PathSegment>;
  readonly reserved: ReadonlySet<number>;
  readonly align: number;
  blob: number;
}

interface WriteScope {
  readonly blobs: Blob[];
  readonly pending: PendingPointer[];
  readonly identity: Map<Codec<unknown>, Map<unknown, number>>;
  /** Blobs written for each target object, whatever the codec (see the arena's write). */
  readonly byObject: Map<object, number[]>;
  writer: Writer;
  blob: number;
}

/**
 * An EncodeError from a writer of part of the arena (the root, a target, a patched slot), moved to
 * the file offset: those writers count from 0, the file from `by`. Anything else passes unchanged.
 */
function atFileOffset(error: unknown, by: number, note = ''): unknown {
  if (!(error instanceof EncodeError)) return error;
  const offset = error.offset + by;
  const moved = new EncodeError(error.path, offset, `${error.message}${note}`);
  // Keep whatever else the error carries (its stack, fields added later), with the new offset.
  return Object.assign(moved, { ...error, offset, message: moved.message });
}

function topScope<S>(stack: unknown[]): S | undefined {
  return stack[stack.length - 1] as S | undefined;
}

/**
 * A pointer: an offset (read with `offset`) to a `target` elsewhere in the enclosing {@link arena}.
 * The value is `{ at, target }`, or `null` for the null offset. A pointer cycle is a DecodeError, and
 * pointers to the same offset give the same target object.
 */
export function pointer<A>(
  offset: Codec<number>,
  target: Codec<A>,
  options: PointerOptions & { readonly nullOffset: 'none' },
): Codec<Pointer<A>>;
export function pointer<A>(offset: Codec<number>, target: Codec<A>, options?: PointerOptions): Codec<Pointer<A> | null>;
export function pointer<A>(
  offset: Codec<number>,
  target: Codec<A>,
  options: PointerOptions = {},
): Codec<Pointer<A>> | Codec<Pointer<A> | null> {
  const nullOffset = 'nullOffset' in options ? (options.nullOffset === 'none' ? undefined : options.nullOffset) : 0;
  const base = options.base ?? 'arena';
  const align = options.align ?? 1;
  const reserved = new Set<number>([...(options.reserved ?? []), ...(nullOffset !== undefined ? [nullOffset] : [])]);
  if (offset.size === undefined) throw new RangeError('pointer: the offset codec must have a fixed size');
  const pointerJson = t.intersection([
    t.type({ target: target.json }),
    t.partial({ at: jsonInt('offset', 0, Number.MAX_SAFE_INTEGER) }),
  ]);
  const json = (nullOffset === undefined ? pointerJson : t.union([pointerJson, t.null])) as unknown as t.Type<
    Pointer<A> | null,
    unknown,
    unknown
  >;
  return defineCodec<Pointer<A> | null>({
    name: `pointer(${offset.name} -> ${target.name})`,
    def: { type: 'pointer', offset, target, nullOffset, base, reserved: [...reserved], align },
    json,
    size: offset.size,
    children: namedChildren({ offset, target }),
    read(r) {
      const slotAt = r.pos;
      const stored = offset.read(r);
      if (stored === nullOffset) return null;
      const scope = topScope<ReadScope>(r.state.arenas);
      if (scope === undefined) throw r.error('bad-pointer', 'a pointer must be read inside an arena', slotAt);
      scope.slots.push([slotAt, r.pos - slotAt, scope.owners.length > 0 ? scope.owners[scope.owners.length - 1]! : -1]);
      const absolute = (base === 'arena' ? scope.start : slotAt) + stored;
      // The arena's end itself is a valid place for an empty target (a WAD without lumps has its
      // empty directory there); a target that needs bytes fails on its own short read.
      if (absolute < scope.start || absolute > scope.end) {
        throw r.error(
          'bad-pointer',
          `pointer to ${stored} is outside the arena (${scope.end - scope.start} bytes)`,
          slotAt,
        );
      }
      const at = absolute - scope.start;
      const cacheKey = target as unknown as Codec<unknown>;
      let seen = scope.cache.get(cacheKey);
      if (seen === undefined) {
        seen = new Map();
        scope.cache.set(cacheKey, seen);
      }
      if (seen.has(at)) return { at, target: seen.get(at) as A };
      const key = `${at}:${target.name}`;
      if (scope.reading.has(key))
        throw r.error('bad-pointer', `pointer cycle: ${target.name} at ${at} is already being read`, slotAt);
      scope.reading.add(key);
      const claim = scope.claims.length;
      scope.claims.push([absolute, absolute]);
      scope.from.push(slotAt);
      scope.owners.push(claim);
      r.descend();
      const sub = r.at(absolute, scope.start, scope.end);
      r.state.path.push('target');
      const value = readChild(sub, pathAnnotation(`@${at}`), target);
      r.state.path.pop();
      r.ascend();
      scope.owners.pop();
      scope.reading.delete(key);
      scope.claims[claim]![1] = sub.pos;
      seen.set(at, value);
      return { at, target: value };
    },
    write(w, value) {
      if (value === null) {
        if (nullOffset === undefined)
          throw w.error(
            'bad-pointer',
            "got null, but this pointer has no null offset (nullOffset: 'none'): give { target }",
          );
        offset.write(w, nullOffset);
        return;
      }
      if (typeof value !== 'object' || !('target' in value))
        throw w.error('wrong-type', 'expected { at?, target } or null');
      const scope = topScope<WriteScope>(w.state.arenas);
      if (scope === undefined) throw w.error('bad-pointer', 'a pointer must be written inside an arena');
      if (w !== scope.writer)
        throw w.error(
          'bad-pointer',
          'a pointer cannot be written inside a transformed or re-buffered region of its arena',
        );
      const slot = w.reserve(offset.size as number);
      scope.blobs[scope.blob]!.slots.push(slot); // the blob being written, pushed by arena()
      scope.pending.push({
        owner: scope.blob,
        slot,
        offset,
        base,
        codec: target as Codec<unknown>,
        value: value as Pointer<unknown>,
        path: w.state.path.slice(),
        reserved,
        align,
        blob: -1,
      });
    },
  });
}

/** Places blobs into one image: root first, kept bytes, then each target where it was or at the end. */
class Layout {
  image = new Uint8Array(256);
  /** 0 free, 1 data, 2 pointer slot. */
  used = new Uint8Array(256);
  end = 0;

  private room(size: number): void {
    if (size <= this.image.length) return;
    let capacity = this.image.length * 2;
    while (capacity < size) capacity *= 2;
    const image = new Uint8Array(capacity);
    image.set(this.image);
    const used = new Uint8Array(capacity);
    used.set(this.used);
    this.image = image;
    this.used = used;
  }

  fits(at: number, bytes: Uint8Array, slots: ReadonlyArray<number>): boolean {
    const isSlot = new Set(slots);
    for (let i = 0; i < bytes.length; i++) {
      const p = at + i;
      if (p >= this.end || this.used[p] === 0) continue;
      if (this.used[p] === 2 || isSlot.has(i) || this.image[p] !== bytes[i]) return false;
    }
    return true;
  }

  put(at: number, bytes: Uint8Array, slots: ReadonlyArray<number>): void {
    this.room(at + bytes.length);
    this.image.set(bytes, at);
    this.used.fill(1, at, at + bytes.length);
    for (const s of slots) this.used.fill(2, at + s, at + s + 1);
    this.end = Math.max(this.end, at + bytes.length);
  }
}

/**
 * The region pointers point into: `root` at its start, targets anywhere in it, up to the end of the
 * window. Bytes no value claimed are kept in `unclaimed`.
 */
export function arena<A>(root: Codec<A>): Codec<Arena<A>> {
  const unclaimedJson = jsonArray(t.type({ at: jsonInt('offset', 0, Number.MAX_SAFE_INTEGER), bytes: jsonBytes() }));
  return defineCodec<Arena<A>>({
    name: `arena(${root.name})`,
    def: { type: 'arena', root },
    json: t.type({ root: root.json, unclaimed: unclaimedJson }, 'Arena') as unknown as t.Type<
      Arena<A>,
      unknown,
      unknown
    >,
    minSize: root.minSize,
    children: [{ key: 'root', codec: root }],
    read(r: Reader) {
      const scope: ReadScope = {
        start: r.pos,
        end: r.end,
        claims: [],
        slots: [],
        owners: [],
        from: [],
        cache: new Map(),
        reading: new Set(),
      };
      r.state.arenas.push(scope);
      const value = readChild(r, 'root', root);
      r.state.arenas.pop();
      // A target may share bytes with another target, but not with the root or a pointer: those
      // bytes would have to be two things at once when written back.
      const rootEnd = r.pos;
      const slots = scope.slots.slice().sort((a, b) => a[0] - b[0]);
      for (let i = 0; i < scope.claims.length; i++) {
        const [from, to] = scope.claims[i]!;
        if (to === from) continue; // an empty target claims no bytes, so it overlaps nothing
        if (from < rootEnd && to > scope.start) {
          throw r.error(
            'bad-pointer',
            `pointer to ${from - scope.start} points into the root value (which ends at ${rootEnd - scope.start})`,
            scope.from[i],
          );
        }
        // Slots overlapping this target must be its own (a pointer field inside it).
        let lo = 0;
        let hi = slots.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (slots[mid]![0] + slots[mid]![1] <= from) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < slots.length && slots[k]![0] < to; k++) {
          if (slots[k]![2] !== i) {
            throw r.error(
              'bad-pointer',
              `the target at ${from - scope.start} overlaps the pointer at ${slots[k]![0] - scope.start}`,
              scope.from[i],
            );
          }
        }
      }
      scope.claims.push([scope.start, rootEnd]);
      const claims = scope.claims.sort((a, b) => a[0] - b[0]);
      const unclaimed: Unclaimed[] = [];
      let covered = scope.start;
      for (const [from, to] of claims) {
        if (from > covered) unclaimed.push({ at: covered - scope.start, bytes: r.bytes.slice(covered, from) });
        covered = Math.max(covered, to);
      }
      if (covered < scope.end) unclaimed.push({ at: covered - scope.start, bytes: r.bytes.slice(covered, scope.end) });
      r.pos = scope.end;
      return { root: value, unclaimed };
    },
    write(w, value) {
      if (typeof value !== 'object' || value === null) throw w.error('wrong-type', 'expected { root, unclaimed }');
      // The root and each target are written to writers of their own, counting from 0: errors from
      // them are moved to the file offset (the arena's start plus where the part goes).
      const base = w.length;
      const rootWriter = w.sub(256);
      const scope: WriteScope = {
        blobs: [],
        pending: [],
        identity: new Map(),
        byObject: new Map(),
        writer: rootWriter,
        blob: 0,
      };
      scope.blobs.push({ bytes: new Uint8Array(0), at: 0, slots: [], placed: 0, reserved: new Set(), align: 1 });
      w.state.arenas.push(scope);
      try {
        writeChild(rootWriter, 'root', root, value.root);
      } catch (error) {
        w.state.arenas.pop();
        throw atFileOffset(error, base);
      }
      scope.blobs[0]!.bytes = rootWriter.finish();
      // Targets may hold pointers themselves: a work list, not recursion.
      const path = w.state.path;
      const depth = path.length;
      for (let i = 0; i < scope.pending.length; i++) {
        const p = scope.pending[i]!;
        const target = p.value.target;
        let byIdentity = scope.identity.get(p.codec);
        if (byIdentity === undefined) {
          byIdentity = new Map();
          scope.identity.set(p.codec, byIdentity);
        }
        const shared = typeof target === 'object' && target !== null ? byIdentity.get(target) : undefined;
        if (shared !== undefined) {
          p.blob = shared;
          continue;
        }
        const at = p.value.at;
        if (at !== undefined && (!Number.isSafeInteger(at) || at < 0))
          throw w.error('bad-pointer', `pointer target offset ${at} is not valid`);
        const blobWriter = w.sub(64);
        scope.writer = blobWriter;
        scope.blob = scope.blobs.length;
        scope.blobs.push({ bytes: new Uint8Array(0), at, slots: [], placed: -1, reserved: p.reserved, align: p.align });
        path.length = depth;
        path.push(...p.path, 'target', pathAnnotation(`@${at ?? 'new'}`));
        try {
          p.codec.write(blobWriter, target);
        } catch (error) {
          w.state.arenas.pop();
          if (at !== undefined || !(error instanceof EncodeError)) throw atFileOffset(error, base + (at ?? 0));
          // A new target has no file offset yet: name the arena's start and say where in the target.
          throw atFileOffset(error, base - error.offset, ` (offset ${error.offset} in a new target, not yet placed)`);
        }
        path.length = depth;
        const blob = scope.blobs[scope.blob]!;
        blob.bytes = blobWriter.finish();
        p.blob = scope.blob;
        if (typeof target !== 'object' || target === null) continue;
        byIdentity.set(target, scope.blob);
        // The same object through another codec instance (a dependent target such as
        // `bytes(e.size)` is a new codec per entry): shared when it wrote the same bytes and holds
        // no pointer, so a lump named by two entries is still written once.
        let same = scope.byObject.get(target);
        if (same === undefined) {
          same = [];
          scope.byObject.set(target, same);
        }
        const twin =
          blob.slots.length === 0
            ? same.find((b) => scope.blobs[b]!.slots.length === 0 && bytesEqual(scope.blobs[b]!.bytes, blob.bytes))
            : undefined;
        if (twin !== undefined && twin !== scope.blob) {
          scope.blobs.pop(); // the blob just written is the last one
          p.blob = twin;
          byIdentity.set(target, twin);
        } else same.push(scope.blob);
      }
      w.state.arenas.pop();

      const layout = new Layout();
      const rootBlob = scope.blobs[0]!;
      layout.put(0, rootBlob.bytes, rootBlob.slots);
      if (!Array.isArray(value.unclaimed)) throw w.error('wrong-type', 'expected unclaimed to be an array');
      // No part of a file the parts came from ends past the sum of their sizes: a kept offset past
      // it is not "where it was" (an edited offset such as 2^31), and must not make a huge image.
      let total = 0;
      for (const blob of scope.blobs) total += blob.bytes.length;
      for (const kept of value.unclaimed) total += kept?.bytes instanceof Uint8Array ? kept.bytes.length : 0;
      for (const kept of value.unclaimed) {
        if (!(kept.bytes instanceof Uint8Array) || !Number.isSafeInteger(kept.at) || kept.at < 0)
          throw w.error('wrong-type', 'unclaimed entries need { at, bytes }');
        if (kept.at + kept.bytes.length > total)
          throw w.error(
            'bad-pointer',
            `unclaimed bytes at ${kept.at} end past every byte the arena holds (${total}); clear arena.unclaimed after changing the layout`,
          );
        if (!layout.fits(kept.at, kept.bytes, [])) {
          throw w.error(
            'bad-pointer',
            `unclaimed bytes at ${kept.at} collide with the root value; clear arena.unclaimed after changing the layout`,
          );
        }
        layout.put(kept.at, kept.bytes, []);
      }
      // Targets go back where they were, latest offset first: a target that grew runs into the next
      // one, so giving later offsets precedence moves exactly the targets that grew.
      // Empty targets claim no bytes: they are placed last, where they were if that is still inside
      // the image, else at its end (never past it, which would pad the file with zeros).
      const byOffset = scope.blobs
        .slice(1)
        .filter((blob) => blob.at !== undefined && blob.bytes.length > 0 && blob.at + blob.bytes.length <= total)
        .sort((a, b) => (b.at as number) - (a.at as number));
      for (const blob of byOffset) {
        const at = blob.at as number;
        if (!blob.reserved.has(at) && layout.fits(at, blob.bytes, blob.slots)) {
          blob.placed = at;
          layout.put(at, blob.bytes, blob.slots);
        }
      }
      for (let b = 1; b < scope.blobs.length; b++) {
        const blob = scope.blobs[b]!;
        if (blob.placed >= 0 || blob.bytes.length === 0) continue;
        let spot = Math.ceil(layout.end / blob.align) * blob.align;
        while (blob.reserved.has(spot)) spot += blob.align;
        blob.placed = spot;
        layout.put(spot, blob.bytes, blob.slots);
      }
      for (let b = 1; b < scope.blobs.length; b++) {
        const blob = scope.blobs[b]!;
        if (blob.bytes.length > 0) continue;
        const kept = blob.at !== undefined && blob.at <= layout.end && !blob.reserved.has(blob.at);
        // (`layout.end` is at most `total`, so an edited offset cannot grow the image either.)
        let spot = kept ? (blob.at as number) : Math.ceil(layout.end / blob.align) * blob.align;
        while (!kept && blob.reserved.has(spot)) spot += blob.align;
        blob.placed = spot;
        layout.put(spot, blob.bytes, blob.slots);
      }
      // Fill in every pointer now that all targets have a place.
      const patcher = w.sub(16);
      for (const p of scope.pending) {
        // Every pending pointer's owner and target blob were pushed above.
        const slotAt = scope.blobs[p.owner]!.placed + p.slot;
        const targetAt = scope.blobs[p.blob]!.placed;
        const stored = p.base === 'arena' ? targetAt : targetAt - slotAt;
        patcher.length = 0;
        path.length = depth;
        path.push(...p.path);
        try {
          p.offset.write(patcher, stored);
        } catch (error) {
          throw atFileOffset(error, base + slotAt);
        }
        path.length = depth;
        layout.image.set(patcher.written(), slotAt);
      }
      w.append(layout.image.subarray(0, layout.end));
    },
  });
}
