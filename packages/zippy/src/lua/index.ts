/**
 * `luasave.h` on a real Lua VM (fengari, Lua 5.3 in JavaScript): Lua values saved into a ZSAV file and
 * restored into a fresh state — nil, booleans, integers and floats exactly, binary strings, tables
 * with any keys (tables too), shared tables once, cycles, metatables, userdata with their payload;
 * any of them as a root; C structures (`adatasave.h`, and the application's own through
 * {@link LuaStructures}) referring to Lua values and Lua values referring to them (as light
 * userdata); either byte order, either number format. Functions are an error naming their path,
 * unless the application names them as externals, supplied again at load.
 *
 * A separate entry (`@savekit/zippy/lua`) so reading the container needs no Lua VM.
 *
 * @module
 */
import fengari from 'fengari';
import * as E from 'fp-ts/lib/Either.js';
import { decode, DecodeError, EncodeError, type DecodeOptions } from '@savekit/core';
import { BytesTable, type DecodeBudget } from '@savekit/core/kit';
import type { GraphSaver, ObjectNumbers, ObjectSink, RestoreContext, RestoreGenerator } from '@savekit/core/graph';
import { Growing, IdIndex } from '@savekit/core/graph';
import { allocateAData, isAData, restoreAData, writeAData, type AData, type ScriptClass } from '../adata.js';
import { zippyFile, type ZippyFile, type ZippyImageFile } from '../container.js';
import {
  dataTypeAt,
  firstSegment,
  readSavefileImage,
  restoreAfter,
  saveFailure,
  type SavefileImageRestorer,
  segmentFailure,
  segmentReaderOf,
  structureKind,
  writeSavefile,
  type WriteOptions,
} from '../savefile.js';
import {
  ADATA_TAG,
  ContainerVersion,
  DATA_TAG,
  FIRST_APPLICATION_DATATYPE,
  KIND,
  LUA_TAG,
  LuaType,
  ValueType,
} from '../tags.js';
import { LuaInteger, SegmentError, type SegmentFormat, SegmentReader, SegmentWriter, type ZValue } from '../values.js';
import { ScalarValue, scalarLuaType } from './scalars.js';

const { lua, lauxlib } = fengari;
// fengari's integers are 32-bit (luaconf.js); a file may hold wider ones from another Lua.
const MAX_INTEGER = BigInt(
  (fengari as unknown as { luaconf?: { LUA_MAXINTEGER?: number } }).luaconf?.LUA_MAXINTEGER ?? 2147483647,
);
const MIN_INTEGER = BigInt(
  (fengari as unknown as { luaconf?: { LUA_MININTEGER?: number } }).luaconf?.LUA_MININTEGER ?? -2147483648,
);

const MIN_INTEGER_NUMBER = Number(MIN_INTEGER);
const MAX_INTEGER_NUMBER = Number(MAX_INTEGER);
/** Strings up to this length are shared while restoring (keys, mostly); longer ones are pushed as they come. */
const MAX_SHARED_STRING = 64;
/** At most this many distinct strings are shared while restoring (a bound on what the share holds). */
const MAX_SHARED_STRINGS = 65_536;
/** At most this many shared strings per hash (see `pushString`). */
const MAX_BUCKET = 8;

/** A Lua state (fengari's `lua_State`). */
export type LuaState = object;

/**
 * A C-side reference to a Lua value: a registry reference in one state (what `luaL_ref` gives).
 * C structures hold these to point into Lua.
 */
export class LuaRef {
  constructor(
    readonly L: LuaState,
    readonly ref: number,
  ) {}

  /** Pushes the value onto `L`'s stack. */
  push(): void {
    lua.lua_rawgeti(this.L, lua.LUA_REGISTRYINDEX, this.ref);
  }

  /** Releases the reference. */
  release(): void {
    lauxlib.luaL_unref(this.L, lua.LUA_REGISTRYINDEX, this.ref);
  }
}

/** A reference to the value at `index` (the stack is unchanged). */
export function luaRef(L: LuaState, index: number): LuaRef {
  lua.lua_pushvalue(L, index);
  return new LuaRef(L, lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX));
}

/**
 * Values the application supplies by name instead of saving them (C functions, script functions,
 * singletons): a record (only its own properties count, so `__proto__`, `constructor` or `toString`
 * are names like any other) or a `Map`.
 */
export type Externals = Readonly<Record<string, (L: LuaState) => void>> | ReadonlyMap<string, (L: LuaState) => void>;

/** The pusher named `name`, if the application supplies one (own properties only, never inherited). */
function externalNamed(externals: Externals, name: string): ((L: LuaState) => void) | undefined {
  const push =
    externals instanceof Map
      ? externals.get(name)
      : Object.hasOwn(externals, name)
        ? (externals as Readonly<Record<string, (L: LuaState) => void>>)[name]
        : undefined;
  return typeof push === 'function' ? push : undefined;
}

/** Runs an external's pusher, which must push exactly one value (else the stack is put back and it is an error). */
function pushExternal(L: LuaState, name: string, push: (L: LuaState) => void): void {
  const before = lua.lua_gettop(L);
  push(L);
  const pushed = lua.lua_gettop(L) - before;
  if (pushed !== 1) {
    if (pushed > 0) lua.lua_settop(L, before);
    throw new Error(`the external ${JSON.stringify(name)} pushed ${pushed} values, not one`);
  }
}

/** Every (name, pusher) the application supplies. */
function externalEntries(externals: Externals): Array<[string, (L: LuaState) => void]> {
  const entries = externals instanceof Map ? [...externals] : Object.entries(externals);
  return entries.filter((entry): entry is [string, (L: LuaState) => void] => typeof entry[1] === 'function');
}

/** Options of {@link saveLua}. */
export interface LuaSaveOptions extends WriteOptions {
  /** Named values: each pushes its value; a saved value identical to one is written as its name. */
  readonly externals?: Externals;
  /** The application's own C structures (DataType 0x100 and up), saved with the Lua values they refer to. */
  readonly structures?: LuaStructures<object>;
}

/** Options of {@link loadLua}. */
export interface LuaLoadOptions extends DecodeOptions {
  /** The same names as when saving, pushing this state's values. */
  readonly externals?: Externals;
  /** The same structures as when saving (their `allocate` and `restore`). */
  readonly structures?: LuaStructures<object>;
}

/**
 * The application's own C structures, each a `DATA` object: `DATA`, its DataType (0x100 and up),
 * then the payload its `save` writes. A structure refers to Lua data as the wiki says: push the
 * value, call {@link saveLuaValue}; on restore, `ctx.readReferenceRestoringFirst()`, push what it
 * returns with {@link pushRestored}, and make a new reference of your own ({@link luaRef}).
 * Light userdata that `owns` are saved as these structures wherever Lua holds them.
 */
export interface LuaStructures<S extends object> {
  /** Whether `value` (a root, or a light userdata met in Lua) is one of these structures. */
  owns(value: unknown): value is S;
  /** Its DataType, 0x100 or more (below are `adatasave.h`'s own). */
  dataTypeOf(value: S): number;
  /**
   * Writes it: references with `sink.writeReference` (other structures) or {@link saveLuaValue}
   * (the Lua value on top of the stack), the payload with `sink.data` (after the tag and DataType,
   * in the file's byte order and number format; its `value` writes no references).
   */
  save(value: S, sink: StructureSink): void;
  /** An empty structure of this DataType (undefined: not one of these). */
  allocate(dataType: number): S | undefined;
  /**
   * Fills it: its references in the order written (`ctx.readReference()`,
   * `ctx.readReferenceRestoringFirst()`), its payload from `data` (positioned after the DataType),
   * into the state `L` being loaded.
   */
  restore(value: S, ctx: RestoreContext<object>, data: SegmentReader, L: LuaState): void;
}

/** The saver behind each sink (kept off the class, so the public type does not name the private saver). */
const saverOfSink = new WeakMap<StructureSink, LuaSaver>();

/** What a {@link LuaStructures} `save` writes to: the object's references and its data segment. */
export class StructureSink {
  /** The payload, after `DATA` and the DataType (references are not written through it). */
  readonly data: SegmentWriter;

  /** @internal */
  constructor(
    /** The Lua state being saved. */
    readonly L: LuaState,
    private readonly sink: ObjectSink<object>,
    /** The package's own saver (typed loosely so the public type does not name the private class). */
    saver: unknown,
    format: SegmentFormat,
  ) {
    this.data = new SegmentWriter(format);
    saverOfSink.set(this, saver as LuaSaver);
  }

  /** Appends a reference to another structure (or null). */
  writeReference(target: object | null): void {
    this.sink.writeReference(target);
  }
}

/**
 * `save_lua_value()`: from a structure's `save`, adds the Lua value on top of `L`'s stack (any value:
 * nil, a boolean, a number, a string, a table, a userdata) to the file, appends a reference to it to
 * the structure, and returns that reference (the object standing for the value). The stack is left
 * as it was: pop the value yourself.
 */
export function saveLuaValue(L: LuaState, sink: StructureSink): object {
  const saver = sink instanceof StructureSink ? saverOfSink.get(sink) : undefined;
  if (saver === undefined) throw new TypeError('saveLuaValue needs the StructureSink a structure save is given');
  if (sink.L !== L) throw new TypeError('saveLuaValue: the state is not the one being saved');
  if (lua.lua_gettop(L) < 1) throw new RangeError('saveLuaValue: the stack is empty (push the value first)');
  const target = saver.valueObjectAt(lua.lua_gettop(L), "a structure's Lua value");
  sink.writeReference(target);
  return target;
}

/**
 * Pushes what `ctx.readReferenceRestoringFirst()` returned onto `L`'s stack (`lua_getref`): a Lua
 * value, a C structure (as light userdata), or nil for null. What it returned is the loader's and is
 * released when the load ends: make a new reference of your own ({@link luaRef}) to keep the value.
 */
export function pushRestored(L: LuaState, target: object | null): void {
  if (target === null) lua.lua_pushnil(L);
  else if (target instanceof Handle) target.push();
  else lua.lua_pushlightuserdata(L, target);
}

type LuaKind = 'table' | 'userdata' | 'function';

/** A kept value's {@link LuaKind} as a number, for a typed column of them. */
const KEPT = { table: 0, userdata: 1, function: 2 } as const;

/** A column of one number per slot, slot 0 holding `first` (typed: outside the collector's heap). */
function column(first: number): Growing<Int32Array> {
  const out = new Growing(new Int32Array(1024), (n) => new Int32Array(n));
  out.push(first);
  return out;
}

/**
 * A step of a save path, for error messages: verbatim text (`[key]`, `<metatable>`, or a root's
 * name), or the key a value was met under (its number, boolean, bytes, or object).
 */
type Step = string | number | boolean | object;

/** The parent of a value met as a root (its step is then the root's name). */
const ROOT = -1;

const stepText = (step: Step): string =>
  typeof step === 'string'
    ? step
    : step instanceof Uint8Array
      ? `.${new TextDecoder().decode(step)}`
      : typeof step === 'number' || typeof step === 'boolean'
        ? `[${step}]`
        : '[table]';

/**
 * Values per keeper thread: below fengari's stack limit (`LUAI_MAXSTACK`, a million), with room for
 * the slot a push borrows.
 */
const KEEPER_CHUNK = 1 << 19;

/** fengari's stack limit: a state's stack never holds more values. */
const MAX_STACK: number =
  (fengari as unknown as { luaconf?: { LUAI_MAXSTACK?: number } }).luaconf?.LUAI_MAXSTACK ?? 1_000_000;

/**
 * Stack slots left free above the keeper's block on the state's own stack: the working room of
 * whatever runs after it (restore callbacks, externals' pushers, Lua code the application runs).
 */
const WORKING_ROOM = 50_000;

/**
 * Stack slots a save or load makes sure of on entry, above what the caller has pushed: LUA_MINSTACK,
 * what the C API promises a function (the caller may have used them all); more is asked for where
 * more is pushed. No more than that: asking grows a fresh state's 40-slot stack, and fengari's stack
 * is a JavaScript array it pops with `delete`, which V8 turns into a dictionary once it has 64 slots
 * or more and few in use — every push and pop of the save after that a hash update (asking for 64
 * made a 1,000,000-link chain's save take 9–10 s of CPU instead of 4.7).
 */
const ENTRY_ROOM = 20;
const NO_ROOM = 'the Lua stack has no room for the save or load to work in (it is at its limit)';

/**
 * Values met while saving or restoring are kept at consecutive stack positions: first on the
 * state's own stack, in a block above the keeper's anchor — pushing one is then a single
 * `lua_pushvalue`, where a value on another thread's stack costs a copy and a move (a
 * million-table load spent a second on those moves) — while the block is on top of the stack and
 * there is room; then on the stacks of threads of their own (coroutines that never run). A slot
 * is a value's number; {@link places} says where it is. Cheaper than a registry reference each (a
 * million tables would mean a million `luaL_ref`s), and than a table's integer keys — fengari's
 * tables are JavaScript Maps, and a Map of a million entries (an entry object and two values each,
 * rehashed as it grows) cost a million-table load more than its tables did. The threads are
 * anchored in a table on the stack, just below the block.
 */
class Keeper {
  /** The stack index of the table anchoring the threads (the block starts right above it). */
  readonly index: number;
  private count = 0;
  /** Values kept on threads so far. */
  private threadCount = 0;
  private threads: LuaState[] = [];
  /** The stack index of the block's last value (`index` while the block is empty). */
  private blockEnd: number;
  /**
   * Per slot (from 1): its stack index in the block (positive), or −(its position among the
   * values kept on threads, from 0) − 1.
   */
  private readonly places: number[] = [0];

  constructor(private readonly L: LuaState) {
    lua.lua_newtable(L);
    this.index = lua.lua_gettop(L);
    this.blockEnd = this.index;
  }

  /**
   * Whether the value on top of the stack can join the block: nothing is above the block but it,
   * and the stack has room for it and for the work after it.
   */
  private blockTakesTop(): boolean {
    const L = this.L;
    return (
      lua.lua_gettop(L) === this.blockEnd + 1 &&
      this.blockEnd + 1 + WORKING_ROOM < MAX_STACK &&
      lua.lua_checkstack(L, WORKING_ROOM)
    );
  }

  /** The thread the next value goes to, with room for it and for a push's borrowed slot. */
  private room(): LuaState {
    const L = this.L;
    if (this.threadCount % KEEPER_CHUNK === 0) {
      this.threads.push(lua.lua_newthread(L));
      lua.lua_rawseti(L, this.index, this.threads.length);
    }
    const thread = this.threads[this.threads.length - 1]!;
    if (!lua.lua_checkstack(thread, 2)) throw new Error('the Lua keeper thread has no room left');
    return thread;
  }

  /** Keeps the value at `index`; returns its slot. */
  keep(index: number): number {
    const at = lua.lua_absindex(this.L, index);
    if (lua.lua_gettop(this.L) === this.blockEnd) {
      lua.lua_pushvalue(this.L, at);
      return this.keepTop();
    }
    const thread = this.room();
    lua.lua_pushvalue(this.L, at);
    lua.lua_xmove(this.L, thread, 1);
    return this.onThread();
  }

  /** Keeps the value on top and pops it (or leaves it where it is, as the block's last value). */
  keepTop(): number {
    if (this.blockTakesTop()) {
      this.places.push(++this.blockEnd);
      return ++this.count;
    }
    lua.lua_xmove(this.L, this.room(), 1);
    return this.onThread();
  }

  /** The slot of the value just moved to a thread. */
  private onThread(): number {
    this.places.push(-++this.threadCount);
    return ++this.count;
  }

  push(slot: number): void {
    const place = this.places[slot]!;
    if (place > 0) {
      lua.lua_pushvalue(this.L, place);
      return;
    }
    const i = -place - 1;
    const thread = this.threads[Math.floor(i / KEEPER_CHUNK)]!;
    lua.lua_pushvalue(thread, (i % KEEPER_CHUNK) + 1);
    lua.lua_xmove(thread, this.L, 1);
  }

  /**
   * The stack index of the value kept at `slot` when it is in the block (usable in place, as any
   * stack index: no copy pushed); undefined when it is on a thread.
   */
  stackIndex(slot: number): number | undefined {
    const place = this.places[slot]!;
    return place > 0 ? place : undefined;
  }

  /** Values kept aside (see {@link keepAside}) so far. */
  private asideCount = 0;

  /**
   * Keeps the value on top in the anchor table (under a negative key, apart from the threads') and
   * pops it; returns the key. For a few values pushed again and again — shared strings — kept while
   * the block is not on top: a table lookup pushes one of them, without a thread's copy and move.
   */
  keepAside(): number {
    const key = -++this.asideCount;
    lua.lua_rawseti(this.L, this.index, key);
    return key;
  }

  /** Pushes the value kept aside under `key`. */
  pushAside(key: number): void {
    lua.lua_rawgeti(this.L, this.index, key);
  }

  /** Whether {@link drop} ran (slots are then gone). */
  dropped = false;

  /**
   * Removes the keeper table and the block from the stack (what is above them moves down) and
   * empties the threads.
   */
  drop(): void {
    const L = this.L;
    this.dropped = true;
    for (const thread of this.threads) lua.lua_settop(thread, 0);
    this.threads = [];
    const top = lua.lua_gettop(L);
    const above = top - this.blockEnd;
    // What was pushed after the block (a load's roots) moves down over it, one copy each.
    for (let i = 0; i < above; i++) lua.lua_copy(L, this.blockEnd + 1 + i, this.index + i);
    lua.lua_settop(L, this.index + above - 1);
  }
}

/** Key classes in the canonical pair order: numbers, strings, booleans, objects. */
function keyClass(type: number): number {
  if (type === ValueType.number || type === ValueType.integer) return 0;
  if (type === ValueType.string) return 1;
  if (type === ValueType.true || type === ValueType.false) return 2;
  return 3;
}

/**
 * The canonical order of two keys of one class (their payloads, as {@link LuaSaver} reads them):
 * numbers by value, strings by bytes, false before true; objects tie (they keep the table's order).
 */
function compareKeys(cls: number, a: unknown, b: unknown): number {
  if (cls === 0) return (a as number) - (b as number);
  if (cls === 1) {
    const x = a as Uint8Array;
    const y = b as Uint8Array;
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  }
  if (cls === 2) return Number(a) - Number(b);
  return 0;
}

/** Writes a value {@link LuaSaver} read: its type byte (a {@link ValueType}) and its payload. */
function writeRead(w: SegmentWriter, type: number, payload: unknown): void {
  w.u8(type);
  if (type === ValueType.number) w.f64(payload as number);
  else if (type === ValueType.integer) w.integer(payload as number);
  else if (type === ValueType.string) {
    w.u32((payload as Uint8Array).length);
    w.bytes(payload as Uint8Array);
  } else if (type === ValueType.reference) w.u32(w.slot(payload as object));
}

/** A value {@link LuaSaver} read as a segment value. */
function readValue(type: number, payload: unknown): ZValue {
  if (type === ValueType.integer) return new LuaInteger(BigInt(payload as number));
  if (type === ValueType.reference) return { ref: payload as object };
  if (type === ValueType.nil) return null;
  if (type === ValueType.false || type === ValueType.true) return type === ValueType.true;
  return payload as number | Uint8Array;
}

class LuaSaver implements GraphSaver<object> {
  /**
   * Each table or userdata met: its slot in the keeper (which the columns below are indexed by), by
   * the id fengari numbers its objects with — a flat index, where a map keyed by a million tables
   * cost a save more than reading them (see {@link lookup}) — or, for an object without a usable
   * id, and whenever the application saves structures of its own (whose objects may have an `id`
   * of their own, read by no one but it), in a map.
   */
  private readonly byId: IdIndex | undefined;
  private readonly known = new Map<object, number>();
  /**
   * The prototypes of fengari's tables and userdata: an id's slot counts only for an object of
   * theirs (ids are unique among one state's objects; any other object is looked up in the map).
   */
  private readonly tableProto: object | null;
  private readonly userdataProto: object | null;
  /**
   * Per slot: the value's kind, and where it was first met — the slot it was met in (or
   * {@link ROOT}) and the step from there. Columns of small values, not an object per value with a
   * path string: a million-link chain would otherwise build a million paths only an error reads.
   */
  private readonly kinds = column(KEPT.table);
  private readonly parents = column(ROOT);
  private readonly steps: Step[] = [''];
  /** Per slot: the object's number in the graph being written (0 while it has none), see {@link numbers}. */
  private readonly numbered = column(0);
  /** The object {@link slotOf} looked up last, and its slot (undefined: not a kept value). */
  private lastObject: object | undefined;
  private lastSlot: number | undefined;
  readonly keeper: Keeper;
  private readonly writer: SegmentWriter;
  /** The classes of this save whose superclass chains were checked (see `writeAData`). */
  private readonly acyclic = new WeakSet<ScriptClass>();
  /** The payload length of the userdata saved last (its recorded size). */
  private payloadLength = 0;
  private readonly externalNames = new Map<object, string>();
  /** The payload of the value {@link read} read last. */
  private payload: unknown = null;
  /** A table's entries as read (types and payloads of keys and values), reused from table to table. */
  private readonly keyTypes: number[] = [];
  private readonly keyPayloads: unknown[] = [];
  private readonly valueTypes: number[] = [];
  private readonly valuePayloads: unknown[] = [];
  /** The entries after the sequence part, as indices into the columns above, in canonical order. */
  private readonly rest: number[] = [];

  constructor(
    private readonly L: LuaState,
    externals: Externals,
    /** The file's byte order and number format. */
    private readonly format: SegmentFormat = {},
    private readonly structures?: LuaStructures<object>,
  ) {
    this.writer = new SegmentWriter(format);
    this.byId = structures === undefined ? new IdIndex() : undefined;
    lua.lua_newtable(L);
    this.tableProto = Object.getPrototypeOf(lua.lua_topointer(L, -1));
    lua.lua_newuserdata(L, 0);
    this.userdataProto = Object.getPrototypeOf(lua.lua_topointer(L, -1));
    lua.lua_pop(L, 2);
    this.keeper = new Keeper(L);
    for (const [name, push] of externalEntries(externals)) {
      pushExternal(L, name, push);
      const p = lua.lua_topointer(L, -1);
      if (p !== null) this.externalNames.set(p, name);
      else lua.lua_pop(L, 1);
      if (p !== null) lua.lua_pop(L, 1);
    }
  }

  /** A save path as text, e.g. `roots[0].next.next` (iteratively: a path may be a million steps long). */
  private pathText(parent: number, step: Step): string {
    const parts: string[] = [];
    let at = parent;
    let s = step;
    while (at !== ROOT) {
      parts.push(stepText(s));
      s = this.steps[at]!;
      at = this.parents.items[at]!;
    }
    return String(s) + parts.reverse().join('');
  }

  /**
   * The graph object for the value at `index`, met in the value kept at `parent` (or a root) under
   * `step`; errors for what cannot be saved.
   */
  objectAt(index: number, parent: number, step: Step): object {
    const L = this.L;
    const type = lua.lua_type(L, index);
    const p = lua.lua_topointer(L, index);
    if (p !== null && this.externalNames.size > 0 && this.externalNames.has(p)) return p;
    if (type === lua.LUA_TLIGHTUSERDATA) {
      const v = lua.lua_touserdata(L, index);
      if (isAData(v) || this.structures?.owns(v) === true) return v;
      throw new Error(`the light userdata at ${this.pathText(parent, step)} is not a C structure this package saves`);
    }
    if (type === lua.LUA_TFUNCTION) {
      if (this.slotOf(p) === undefined)
        throw new Error(`the function at ${this.pathText(parent, step)} cannot be saved: register it as an external`);
    }
    if (type === lua.LUA_TTHREAD) throw new Error(`the coroutine at ${this.pathText(parent, step)} cannot be saved`);
    if (this.slotOf(p) !== undefined) return p;
    const kind: LuaKind = type === lua.LUA_TTABLE ? 'table' : type === lua.LUA_TUSERDATA ? 'userdata' : 'function';
    if (kind === 'userdata') checkUserdata(L, index, () => this.pathText(parent, step));
    const slot = this.keeper.keep(index);
    // Slots are numbered 1, 2, 3… as values are kept: each column gets its next value.
    if (slot !== this.kinds.length) throw new Error(`the keeper gave slot ${slot}, not ${this.kinds.length}`);
    this.kinds.push(KEPT[kind]);
    this.parents.push(parent);
    this.steps[slot] = step;
    this.numbered.push(0);
    const id = this.byId !== undefined ? (p as { id?: unknown }).id : undefined;
    if (typeof id === 'number' && this.byId!.get(id) === undefined) this.byId!.set(id, slot);
    else this.known.set(p, slot);
    // The graph writer asks for its number next.
    this.lastObject = p;
    this.lastSlot = slot;
    return p;
  }

  /**
   * The slot of `object` when it is a value kept while saving: by its id when it has one (fengari
   * numbers every table and userdata of a state uniquely), the id's slot counting only if it was
   * given for this very object; else in the map.
   */
  private lookup(object: object): number | undefined {
    const byId = this.byId;
    if (byId !== undefined) {
      const id = (object as { id?: unknown }).id;
      if (typeof id === 'number') {
        const slot = byId.get(id);
        if (slot !== undefined) {
          const proto = Object.getPrototypeOf(object);
          if (proto === this.tableProto || proto === this.userdataProto) return slot;
        }
      }
    }
    return this.known.size > 0 ? this.known.get(object) : undefined;
  }

  /**
   * The slot of a value met while saving, or undefined for any other object: the graph writer asks
   * for one object several times in a row (its number, its kind, its save, its size), so the last
   * answer is kept — one lookup in a map of a million values instead of several.
   */
  private slotOf(object: object): number | undefined {
    if (object !== this.lastObject) {
      this.lastObject = object;
      this.lastSlot = this.lookup(object);
    }
    return this.lastSlot;
  }

  /**
   * The graph writer's object numbers, kept per slot beside {@link known} for the values met (a
   * second map of a million tables cost a save more than its tables' entries), in a map of their
   * own for other objects (C structures, scalars, externals).
   */
  numbers(): ObjectNumbers<object> {
    const others = new Map<object, number>();
    // Its storage is replaced as it grows (values are kept while the graph is written): read it each time.
    const numbered = this.numbered;
    // A fresh store for each write: numbers a previous write gave are forgotten.
    numbered.items.fill(0);
    return {
      get: (object) => {
        const slot = this.slotOf(object);
        if (slot === undefined) return others.get(object);
        const n = numbered.items[slot]!;
        return n === 0 ? undefined : n;
      },
      set: (object, n) => {
        const slot = this.slotOf(object);
        if (slot === undefined) others.set(object, n);
        else numbered.items[slot] = n;
      },
    };
  }

  /**
   * Reads the value at `index` without making a segment value of it: returns its {@link ValueType}
   * and leaves its payload in {@link payload} (a number, the string's own bytes — not a copy, they
   * are only read — a boolean, or the graph object; null for nil).
   */
  private read(index: number, parent: number, step: Step): number {
    const L = this.L;
    switch (lua.lua_type(L, index)) {
      case lua.LUA_TNIL:
        this.payload = null;
        return ValueType.nil;
      case lua.LUA_TBOOLEAN: {
        const b = lua.lua_toboolean(L, index);
        this.payload = b;
        return b ? ValueType.true : ValueType.false;
      }
      case lua.LUA_TNUMBER:
        if (lua.lua_isinteger(L, index)) {
          this.payload = lua.lua_tointeger(L, index);
          return ValueType.integer;
        }
        this.payload = lua.lua_tonumber(L, index);
        return ValueType.number;
      case lua.LUA_TSTRING:
        this.payload = lua.lua_tolstring(L, index);
        return ValueType.string;
      default:
        this.payload = this.objectAt(index, parent, step);
        return ValueType.reference;
    }
  }

  /**
   * The graph object for the value at `index` (met at the root-level place `path`), whatever it is:
   * a table, userdata, external or C structure as {@link objectAt}; nil, a boolean, a number or a
   * string as an object of its own.
   */
  valueObjectAt(index: number, path: string): object {
    const type = this.read(index, ROOT, path);
    return type === ValueType.reference ? (this.payload as object) : new ScalarValue(readValue(type, this.payload));
  }

  externalName(object: object): string | undefined {
    return this.externalNames.size > 0 ? this.externalNames.get(object) : undefined;
  }

  /**
   * The slot of `object` when it is a Lua value met while saving, looked up before the tests for
   * the other kinds (five `instanceof`s, an application's `owns`), which never match a kept value;
   * undefined when the application has structures of its own (its `owns` is asked first, as ever).
   */
  private keptSlot(object: object): number | undefined {
    return this.structures === undefined ? this.slotOf(object) : undefined;
  }

  kindOf(object: object): string {
    const kept = this.keptSlot(object);
    if (kept !== undefined) return this.kinds.items[kept] === KEPT.function ? this.otherKindOf(object) : KIND.lua;
    return this.otherKindOf(object);
  }

  private otherKindOf(object: object): string {
    if (isAData(object) || this.structures?.owns(object) === true) return KIND.adata;
    if (object instanceof ScalarValue) return KIND.lua;
    const slot = this.slotOf(object);
    if (slot === undefined) throw new Error('an object this saver did not meet');
    if (this.kinds.items[slot] !== KEPT.function) return KIND.lua;
    throw new Error(
      `the function at ${this.pathText(this.parents.items[slot]!, this.steps[slot]!)} cannot be saved: register it as an external`,
    );
  }

  /**
   * A C structure's reference to a Lua value (a LuaRef) as its graph object: a reference to the
   * value's object, whatever the value (scalars too, so it loads as a LuaRef again).
   */
  private adataValue = (v: ZValue): ZValue => {
    if (v !== null && typeof v === 'object' && 'ref' in v && v.ref instanceof LuaRef) {
      v.ref.push();
      try {
        return { ref: this.valueObjectAt(lua.lua_gettop(this.L), "a C structure's field") };
      } finally {
        lua.lua_pop(this.L, 1);
      }
    }
    return v;
  };

  /** The recorded size of the structure or userdata saved last (the payload's length). */
  private lastSize = 0;

  sizeOf(object: object, dataLength: number): number {
    void dataLength;
    const kept = this.keptSlot(object);
    if (kept !== undefined) return this.kinds.items[kept] === KEPT.userdata ? this.payloadLength : 0;
    if (isAData(object) || this.structures?.owns(object) === true) return this.lastSize;
    const slot = this.slotOf(object);
    return slot !== undefined && this.kinds.items[slot] === KEPT.userdata ? this.payloadLength : 0;
  }

  save(object: object, sink: ObjectSink<object>): void {
    try {
      this.saveObject(object, sink);
    } catch (error) {
      throw saveFailure(sink.numberOf(object), error);
    }
  }

  private saveObject(object: object, sink: ObjectSink<object>): void {
    const kept = this.keptSlot(object);
    if (kept !== undefined) {
      this.saveValue(kept, sink);
      return;
    }
    if (isAData(object)) {
      const { segment, references, size } = writeAData(object, this.adataValue, this.format, this.acyclic);
      this.lastSize = size;
      for (const r of references) sink.writeReference(r);
      sink.writeData(segment);
      return;
    }
    if (this.structures?.owns(object) === true) {
      this.saveStructure(object, this.structures, sink);
      return;
    }
    if (object instanceof ScalarValue) {
      const w = this.writer;
      w.reset();
      w.u32(LUA_TAG);
      w.u32(scalarLuaType(object.value));
      w.value(object.value);
      w.writeTo(sink);
      return;
    }
    this.saveValue(this.slotOf(object) as number, sink);
  }

  /** A table or userdata kept at `slot`. */
  private saveValue(slot: number, sink: ObjectSink<object>): void {
    const L = this.L;
    this.keeper.push(slot);
    const at = lua.lua_gettop(L);
    // One writer for every object: writeData copies the segment, so its buffer can be reused.
    const w = this.writer;
    w.reset();
    if (this.kinds.items[slot] === KEPT.userdata) {
      w.u32(LUA_TAG);
      w.u32(LuaType.userdata);
      this.writeMetatable(w, at, slot);
      const data = lua.lua_touserdata(L, at) as { payload?: unknown };
      const payload = data.payload instanceof Uint8Array ? data.payload : new Uint8Array(0);
      this.payloadLength = payload.length;
      w.u32(payload.length);
      w.bytes(payload);
    } else this.writeTable(w, at, slot);
    lua.lua_settop(L, at - 1);
    for (const r of w.references) sink.writeReference(r);
    w.writeTo(sink);
  }

  /**
   * The table at `at` (kept at `slot`): the sequence part (keys 1…n), then the other pairs in a
   * canonical order, then the metatable. Every entry is read once with `lua_next` — in the table's
   * order, so what cannot be saved is met where it always was — into columns reused from table to
   * table: no array, tuple or BigInt per entry.
   */
  private writeTable(w: SegmentWriter, at: number, slot: number): void {
    const L = this.L;
    const { keyTypes, keyPayloads, valueTypes, valuePayloads, rest } = this;
    let count = 0;
    let hasOne = false;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, at) !== 0) {
      const keyType = this.read(-2, slot, '[key]');
      const key = this.payload;
      if (keyType === ValueType.integer && key === 1) hasOne = true;
      valueTypes[count] = this.read(-1, slot, key as Step);
      valuePayloads[count] = this.payload;
      keyTypes[count] = keyType;
      keyPayloads[count] = key;
      count++;
      lua.lua_pop(L, 1);
    }
    // n: the largest n with keys 1…n all present (probed only when key 1 is).
    let n = 0;
    if (hasOne) {
      while (lua.lua_rawgeti(L, at, n + 1) !== lua.LUA_TNIL) {
        lua.lua_pop(L, 1);
        n++;
      }
      lua.lua_pop(L, 1);
    }
    if (this.format.numberFormat === 1 && this.format.allowPrecisionLoss === true) this.refuseMergedKeys(count, slot);
    // Columns are overwritten, not emptied (setting an array's length is a runtime call, per table).
    let restCount = 0;
    for (let i = 0; i < count; i++) {
      const key = keyPayloads[i] as number;
      if (!(keyTypes[i] === ValueType.integer && key >= 1 && key <= n)) rest[restCount++] = i;
    }
    const before = this.before;
    // Stable: keys that tie (objects) keep the table's order. Small tables, the common case, by insertion.
    if (restCount > 16) {
      const sorted = rest.slice(0, restCount).sort(before);
      for (let i = 0; i < restCount; i++) rest[i] = sorted[i]!;
    } else
      for (let i = 1; i < restCount; i++) {
        const x = rest[i]!;
        let j = i - 1;
        while (j >= 0 && before(rest[j]!, x) > 0) {
          rest[j + 1] = rest[j]!;
          j--;
        }
        rest[j + 1] = x;
      }
    w.u32(LUA_TAG);
    w.u32(LuaType.table);
    w.u32(n);
    for (let i = 1; i <= n; i++) {
      lua.lua_rawgeti(L, at, i);
      writeRead(w, this.read(-1, slot, i), this.payload);
      lua.lua_pop(L, 1);
    }
    w.u32(restCount);
    for (let r = 0; r < restCount; r++) {
      const i = rest[r]!;
      writeRead(w, keyTypes[i]!, keyPayloads[i]);
      writeRead(w, valueTypes[i]!, valuePayloads[i]);
    }
    this.writeMetatable(w, at, slot);
  }

  /**
   * Under number format 1 with precision loss allowed, a float key is written as the nearest 4-byte
   * float, which Lua turns into an integer key when it is whole: two keys of the table being written
   * (its `count` entries) that would load as one key are refused, as one entry
   * would be lost. Keys as they load: `i` an integer, `f` a float. (Every entry is looked at: the
   * sequence part's integer keys too.)
   */
  private refuseMergedKeys(count: number, slot: number): void {
    const loaded = new Map<string, unknown>();
    for (let i = 0; i < count; i++) {
      const type = this.keyTypes[i]!;
      const key = this.keyPayloads[i];
      let as: string;
      if (type === ValueType.integer) as = `i${String(key)}`;
      else if (type === ValueType.number && typeof key === 'number' && !Number.isNaN(key)) {
        const rounded = Math.fround(key);
        // Lua makes a whole float key an integer key when it fits 64 bits.
        as = Number.isInteger(rounded) && Math.abs(rounded) < 2 ** 63 ? `i${BigInt(rounded)}` : `f${rounded}`;
      } else continue;
      const other = loaded.get(as);
      if (other !== undefined)
        throw new Error(
          `the keys ${String(other)} and ${String(key)} of the table at ${this.pathText(this.parents.items[slot]!, this.steps[slot]!)} would load as one key (${as.slice(1)}) under number format 1: an entry would be lost`,
        );
      loaded.set(as, key);
    }
  }

  /** The canonical order of entries `i` and `j` of the table being written, by their keys. */
  private readonly before = (i: number, j: number): number => {
    const ci = keyClass(this.keyTypes[i]!);
    return ci - keyClass(this.keyTypes[j]!) || compareKeys(ci, this.keyPayloads[i], this.keyPayloads[j]);
  };

  /** The metatable of the value at `at` (kept at `slot`), or nil. */
  private writeMetatable(w: SegmentWriter, at: number, slot: number): void {
    if (!lua.lua_getmetatable(this.L, at)) {
      w.u8(ValueType.nil);
      return;
    }
    writeRead(w, this.read(-1, slot, '<metatable>'), this.payload);
    lua.lua_pop(this.L, 1);
  }

  /** An application structure: `DATA`, its DataType, the payload and references its `save` writes. */
  private saveStructure(object: object, structures: LuaStructures<object>, sink: ObjectSink<object>): void {
    const dataType = structures.dataTypeOf(object);
    if (!Number.isInteger(dataType) || dataType < FIRST_APPLICATION_DATATYPE || dataType > 0xffffffff)
      throw new Error(`an application structure's DataType is 0x100 or more, not ${dataType}`);
    const out = new StructureSink(this.L, sink, this, this.format);
    out.data.u32(ADATA_TAG);
    out.data.u32(dataType);
    const top = lua.lua_gettop(this.L);
    try {
      structures.save(object, out);
    } finally {
      lua.lua_settop(this.L, top);
    }
    if (out.data.references.length > 0)
      throw new Error('a structure writes its references with writeReference or saveLuaValue, not as data values');
    this.lastSize = out.data.length - 8;
    out.data.writeTo(sink);
  }

  /** Drops what the saver kept. */
  release(): void {
    this.keeper.drop();
  }
}

/**
 * A userdata saves its `payload` bytes (and its metatable) and nothing else, so anything more it
 * carries is refused rather than dropped: other JavaScript properties on its block, a payload that is
 * not a Uint8Array, a user value (`lua_setuservalue`).
 */
function checkUserdata(L: LuaState, index: number, where: () => string): void {
  const data = lua.lua_touserdata(L, index) as Record<PropertyKey, unknown>;
  const extra = Reflect.ownKeys(data).filter((key) => key !== 'payload');
  if (extra.length > 0)
    throw new Error(
      `the userdata at ${where()} carries state a save would drop (${extra.map((key) => String(key)).join(', ')}): only its payload bytes are saved`,
    );
  if (data.payload !== undefined && !(data.payload instanceof Uint8Array))
    throw new Error(`the userdata at ${where()} has a payload that is not a Uint8Array`);
  const at = lua.lua_absindex(L, index);
  const userValue = lua.lua_getuservalue(L, at);
  lua.lua_pop(L, 1);
  if (userValue !== lua.LUA_TNIL) throw new Error(`the userdata at ${where()} has a user value, which is not saved`);
}

/**
 * Saves the `count` values on top of `L`'s stack (the stack is left as it was) and what they reach,
 * as a ZSAV file — `save_lua_value()` for each root.
 *
 * @example
 * ```ts
 * // @check-only: needs a Lua state
 * import fengari from 'fengari';
 * import { saveLua, loadLua } from '@savekit/zippy/lua';
 * declare const L: object;
 * const bytes = saveLua(L, 1); // the table on top of the stack
 * ```
 */
export function saveLua(L: LuaState, count: number, options: LuaSaveOptions = {}): E.Either<EncodeError, Uint8Array> {
  if (!lua.lua_checkstack(L, ENTRY_ROOM)) return E.left(new EncodeError([], 0, NO_ROOM, 'out-of-range'));
  const top = lua.lua_gettop(L);
  if (!Number.isSafeInteger(count) || count < 0 || count > top)
    return E.left(
      new EncodeError(
        [],
        0,
        `saveLua(L, ${count}): the stack holds ${top} value${top === 1 ? '' : 's'}; count must be a whole number from 0 to ${top}`,
        'out-of-range',
      ),
    );
  return saveGame(
    L,
    Array.from({ length: count }, (_, i) => luaRef(L, -count + i)),
    options,
    true,
  );
}

/**
 * Saves a game whose roots mix Lua values (as {@link LuaRef}s: any value, nil to userdata), C
 * structures and the application's own ({@link LuaStructures}); null is a NULL root.
 */
export function saveGame(
  L: LuaState,
  roots: ReadonlyArray<LuaRef | AData | object | null>,
  options: LuaSaveOptions = {},
  releaseRoots = false,
): E.Either<EncodeError, Uint8Array> {
  // Whatever happens below, the stack is put back as it was (the saver's keeper table and any value
  // a failure left pushed are above this top).
  if (!lua.lua_checkstack(L, ENTRY_ROOM)) return E.left(new EncodeError([], 0, NO_ROOM, 'out-of-range'));
  const top = lua.lua_gettop(L);
  let saver: LuaSaver;
  try {
    saver = new LuaSaver(L, options.externals ?? {}, options, options.structures);
  } catch (error) {
    lua.lua_settop(L, top);
    if (releaseRoots) for (const r of roots) if (r instanceof LuaRef) r.release();
    return E.left(new EncodeError([], 0, error instanceof Error ? error.message : String(error)));
  }
  try {
    let objects: Array<object | null>;
    try {
      objects = roots.map((r, i) => {
        if (!(r instanceof LuaRef)) return r;
        r.push();
        try {
          return saver.valueObjectAt(lua.lua_gettop(L), `roots[${i}]`);
        } finally {
          lua.lua_pop(L, 1);
        }
      });
    } catch (error) {
      return E.left(new EncodeError([], 0, error instanceof Error ? error.message : String(error)));
    }
    return writeSavefile(objects, saver, options);
  } finally {
    lua.lua_settop(L, top);
    if (releaseRoots) for (const r of roots) if (r instanceof LuaRef) r.release();
  }
}

/** A Lua object being restored: its slot in the restorer's keeper. */
class Handle {
  constructor(
    readonly kind: LuaKind | 'external' | 'value',
    readonly ref: number,
    /** The keeper holding it (valid until the load ends). */
    readonly keeper?: Keeper,
  ) {}

  /** Pushes the value (while the load that made it runs: the keeper is dropped when it ends). */
  push(): void {
    if (this.keeper === undefined || this.keeper.dropped)
      throw new Error('this value was released when its load ended: keep a luaRef of your own');
    this.keeper.push(this.ref);
  }
}

/**
 * The check that a version 2 table's pairs are in the order the format gives them (numbers ascending,
 * then strings by their bytes, then false, true, then objects), none repeating a key before it or one
 * of the sequence part's 1…n: a file that repeats a key would load one entry over another and lose
 * it, so it is refused. One comparison with the key before a pair, made where the keys lie; object
 * keys, in the table's own order, are told apart by a set of their reference slots, made only for a
 * table that has them. One instance per load, restarted for each table.
 */
class KeyOrder {
  /** The class of the key before (see {@link keyClass}); −1 before the first pair. */
  private lastClass = -1;
  private lastNumber = 0;
  private lastType = 0;
  /** Where the last string key's bytes are in the segment. */
  private lastFrom = 0;
  private lastTo = 0;
  private objects: Set<number> | undefined;
  /** The length of the table's sequence part (keys 1…n). */
  private sequence = 0;

  start(sequence: number): this {
    this.lastClass = -1;
    this.objects = undefined;
    this.sequence = sequence;
    return this;
  }

  /** Checks the key just pushed (on top of `L`'s stack), of type `type`, read at `keyAt` of the segment. */
  check(L: LuaState, reader: SegmentReader, type: number, keyAt: number): void {
    const cls = keyClass(type);
    const last = this.lastClass;
    if (cls < last) throw outOfOrder(keyAt);
    let order = 1;
    if (cls === 0) {
      const k = lua.lua_tonumber(L, -1);
      if (Number.isInteger(k) && k >= 1 && k <= this.sequence)
        throw new SegmentError(`table key ${k} repeats a key of the sequence part (1…${this.sequence})`, keyAt);
      if (cls === last) order = k - this.lastNumber;
      this.lastNumber = k;
    } else if (cls === 1) {
      // A string key: its type byte, its u32 length, then its bytes up to where the reader stands.
      const from = keyAt + 5;
      const to = reader.pos;
      if (cls === last) order = reader.compareBytes(from, to, this.lastFrom, this.lastTo);
      this.lastFrom = from;
      this.lastTo = to;
    } else if (cls === 2) {
      if (cls === last) order = type - this.lastType;
      this.lastType = type;
    } else {
      // Any object, in the table's order: a slot met twice is the same key (slots are read again at keyAt + 1).
      this.objects ??= new Set();
      const pos = reader.pos;
      reader.pos = keyAt + 1;
      const slot = reader.u32();
      reader.pos = pos;
      if (this.objects.has(slot)) order = 0;
      this.objects.add(slot);
    }
    if (order === 0)
      throw new SegmentError('a table key repeats an earlier key: one of the two entries would be lost', keyAt);
    if (order < 0) throw outOfOrder(keyAt);
    this.lastClass = cls;
  }
}

const outOfOrder = (keyAt: number) =>
  new SegmentError(
    'table keys are out of order: numbers ascending, then strings by their bytes, then false, true, then objects',
    keyAt,
  );

class LuaRestorer implements SavefileImageRestorer<object> {
  /** Made when the load binds this restorer to its file, so a file that does not decode pushes nothing. */
  private keeper_: Keeper | undefined;
  private file_: ZippyImageFile | undefined;
  /** The load's budget: each object, reference and table entry restored costs a unit of work. */
  private budget: DecodeBudget | undefined;

  constructor(
    private readonly L: LuaState,
    private readonly externals: Externals,
    private readonly structures?: LuaStructures<object>,
  ) {}

  forImage(file: ZippyImageFile, budget: DecodeBudget): this {
    this.file_ = file;
    this.budget = budget;
    this.keeper_ ??= new Keeper(this.L);
    return this;
  }

  get keeper(): Keeper {
    if (this.keeper_ === undefined) throw new Error('the Lua restorer is bound to a file before it allocates');
    return this.keeper_;
  }

  private get file(): ZippyImageFile {
    if (this.file_ === undefined) throw new Error('the Lua restorer is bound to a file before it allocates');
    return this.file_;
  }

  /** Whether the file is container v1 (`DATA` userdata, `ADAT` structures, no Lua type in `LUA\0`). */
  private get v1(): boolean {
    return this.file.major === ContainerVersion.v1;
  }

  private work(units: number, n: number): void {
    // What `spendWork` does, with the path built only for the error (not three times an object).
    const budget = this.budget;
    if (units <= 0 || budget === undefined) return;
    const total = budget.workSpent + units;
    if (budget.exceeds(total)) throw budget.workError(['objects', n], 0);
    budget.workSpent = total;
  }

  /** A handle for the value on top of the stack (popped). */
  private handle(kind: Handle['kind']): Handle {
    return new Handle(kind, this.keeper.keepTop(), this.keeper);
  }

  allocate(kind: string, size: number, n: number): object {
    const L = this.L;
    // v2: a LUA\0 object's Lua type follows its tag; v1: LUA\0 is a table and DATA a userdata.
    const luaType = kind === KIND.lua && !this.v1 ? dataTypeAt(this.file, n) : undefined;
    if (kind === KIND.lua && (luaType === undefined || luaType === LuaType.table)) {
      lua.lua_newtable(L);
      return this.handle('table');
    }
    if (luaType !== undefined && luaType !== LuaType.userdata) return this.allocateScalar(n, luaType);
    if (kind === structureKind(this.file)) {
      const dataType = dataTypeAt(this.file, n);
      if (dataType < FIRST_APPLICATION_DATATYPE) return allocateAData(dataType);
      const made = this.structures?.allocate(dataType);
      if (made === undefined)
        throw new DecodeError(
          ['objects', n],
          0,
          `object ${n}: no structure of DataType 0x${dataType.toString(16)} is registered`,
          'unknown-tag',
        );
      return made;
    }
    if (luaType === LuaType.userdata || (this.v1 && kind === KIND.data)) {
      // The recorded size is a claim of the file: the payload lies in the object's own data
      // segment, so a size beyond that segment is refused, and nothing is allocated for it here —
      // `restore` sets the payload from the bytes actually present.
      const present = firstSegment(this.file, n)?.length ?? 0;
      if (size > present)
        throw new DecodeError(
          ['objects', n, 'size'],
          0,
          `object ${n} (a userdata): recorded size ${size} is more than the ${present} bytes of its data segment`,
        );
      const data = lua.lua_newuserdata(L, size) as { payload?: Uint8Array }; // fengari allocates nothing for `size`
      data.payload = new Uint8Array(0);
      return this.handle('userdata');
    }
    throw new DecodeError(['objects', n], 0, `object ${n} has the unknown tag ${JSON.stringify(kind)}`, 'unknown-tag');
  }

  /**
   * A nil, boolean, number or string object (v2), restored here: it refers to nothing, and whoever
   * refers to it may be restored before it.
   */
  private allocateScalar(n: number, luaType: number): Handle {
    const segment = firstSegment(this.file, n) ?? new Uint8Array(0);
    const reader = new SegmentReader(
      segment,
      (_slot, at) => {
        throw new SegmentError('a Lua value object refers to nothing', at);
      },
      this.file,
    );
    let value: ZValue;
    try {
      reader.pos = 8;
      value = reader.value();
      if (scalarLuaType(value) !== luaType)
        throw new SegmentError(`Lua type ${luaType} does not match the value's`, 4, 'invalid-value');
      this.push(value);
    } catch (error) {
      if (!(error instanceof SegmentError)) throw error;
      throw new DecodeError(
        ['objects', n, 'segments', 0],
        error.offset,
        `object ${n} (a Lua value): ${error.message}`,
        error.code,
      );
    }
    return this.handle('value');
  }

  external(name: string): object | undefined {
    const push = externalNamed(this.externals, name);
    if (push === undefined) return undefined;
    pushExternal(this.L, name, push);
    if (lua.lua_type(this.L, -1) === lua.LUA_TLIGHTUSERDATA) {
      const v = lua.lua_touserdata(this.L, -1);
      lua.lua_pop(this.L, 1);
      if (isAData(v)) return v;
      lua.lua_pushlightuserdata(this.L, v);
    }
    return this.handle('external');
  }

  /**
   * Reads the next value of `reader` and pushes it, as {@link push} would push `reader.value()` but
   * without making a segment value of it (no BigInt per integer, no copy per string: fengari copies
   * what it is given); returns its {@link ValueType}.
   */
  pushRead(reader: SegmentReader): number {
    const L = this.L;
    const type = reader.peek();
    if (type === ValueType.integer) {
      const at = reader.pos;
      reader.pos += 1;
      const v = reader.integer();
      if (typeof v === 'bigint' ? v < MIN_INTEGER || v > MAX_INTEGER : v < MIN_INTEGER_NUMBER || v > MAX_INTEGER_NUMBER)
        throw new SegmentError(`integer ${v} does not fit this Lua's integers`, at);
      lua.lua_pushinteger(L, Number(v));
    } else if (type === ValueType.string) {
      reader.pos += 1;
      if (!this.pushSharedString(reader)) this.pushString(reader.string());
    } else if (type === ValueType.reference && this.pushReference(reader)) {
      // pushed (no `{ ref }` made for it)
    } else this.push(reader.value());
    return type!;
  }

  /**
   * A reference to a Lua value, pushed from the keeper; false (nothing read) for anything else —
   * null, a C structure, a slot past the references — which {@link push} of `reader.value()`
   * handles. Only for a reader of {@link valueReader}, whose slots are {@link references}.
   */
  private pushReference(reader: SegmentReader): boolean {
    const at = reader.pos;
    if (reader.length - at < 5) return false;
    reader.pos = at + 1;
    const slot = reader.u32();
    const target = slot < this.referenceCount ? this.references[slot] : undefined;
    if (target instanceof Handle) {
      this.keeper.push(target.ref);
      return true;
    }
    reader.pos = at;
    return false;
  }

  /**
   * Short strings restored so far, by content: each is pushed once and kept aside, and pushed from
   * the keeper after — one Lua string (and one hash of it) for a key that a million tables repeat.
   * The core's bytes-keyed table, from a string's bytes (looked up where they lie) to the key it
   * is kept aside under; bounded in length, count and bucket size.
   */
  /** The order check of version 2 tables' keys (see {@link KeyOrder}). */
  private readonly keyOrder = new KeyOrder();

  private readonly strings = new BytesTable<number>({
    most: MAX_SHARED_STRINGS,
    longest: MAX_SHARED_STRING,
    bucket: MAX_BUCKET,
  });

  /**
   * Pushes the next string of `reader` (positioned at its length) when it is one already shared,
   * looked up where it lies in the segment (no view made of it — a million tables each had two of
   * their keys made into views); false, with nothing read, for anything else — a string not
   * shared yet, or a length the segment does not hold — which `pushString(reader.string())` reads
   * as ever.
   */
  private pushSharedString(reader: SegmentReader): boolean {
    const at = reader.pos;
    if (reader.length - at < 4 || this.strings.size === 0) return false;
    const n = reader.u32();
    const key = reader.find(this.strings, n);
    if (key === undefined) {
      reader.pos = at;
      return false;
    }
    reader.pos = at + 4 + n;
    this.keeper.pushAside(key);
    return true;
  }

  /** Pushes the string with these bytes (a view into the file: fengari copies them). */
  private pushString(bytes: Uint8Array): void {
    const L = this.L;
    const strings = this.strings;
    if (bytes.length > MAX_SHARED_STRING) {
      lua.lua_pushstring(L, bytes);
      return;
    }
    const known = strings.find(bytes, 0, bytes.length);
    if (known !== undefined) {
      this.keeper.pushAside(known);
      return;
    }
    lua.lua_pushstring(L, bytes);
    // The table refuses what does not fit its bounds (a full bucket: bytes crafted to collide);
    // such a string is then pushed afresh each time, as a long one is.
    if (!strings.canKeep(bytes, 0, bytes.length)) return;
    lua.lua_pushvalue(L, -1);
    strings.keep(bytes, 0, bytes.length, this.keeper.keepAside());
  }

  /** Sets the metatable of the value at `at` to `meta`, read at `metaAt`: a table (as Lua's own loader requires), else a SegmentError there. */
  private setMetatable(at: number, meta: ZValue, metaAt: number): void {
    this.push(meta);
    if (lua.lua_type(this.L, -1) !== lua.LUA_TTABLE) {
      lua.lua_pop(this.L, 1);
      throw new SegmentError('a metatable must be a table (or nil)', metaAt);
    }
    lua.lua_setmetatable(this.L, at);
  }

  /** Pushes a decoded value. */
  push(v: ZValue): void {
    const L = this.L;
    if (v === null) lua.lua_pushnil(L);
    else if (typeof v === 'boolean') lua.lua_pushboolean(L, v);
    else if (typeof v === 'number') lua.lua_pushnumber(L, v);
    else if (v instanceof LuaInteger) {
      if (v.value < MIN_INTEGER || v.value > MAX_INTEGER)
        throw new SegmentError(`integer ${v.value} does not fit this Lua's integers`, 0);
      lua.lua_pushinteger(L, Number(v.value));
    } else if (v instanceof Uint8Array) lua.lua_pushstring(L, v);
    else if (v.ref instanceof Handle) this.keeper.push(v.ref.ref);
    else lua.lua_pushlightuserdata(L, v.ref);
  }

  /**
   * Tables and userdata restore at once. A C structure that needs another restored first — a
   * superclass, an Instance's class — returns a generator waiting for it, which the core runs from
   * its work list: chains of any depth restore without recursion.
   */
  restore(object: object, ctx: RestoreContext<object>): RestoreGenerator<object> | undefined {
    const L = this.L;
    this.work(1 + ctx.referenceCount, ctx.number);
    // A Lua value (the common case) is a Handle: one test, not isAData's five, tells it apart.
    const adata = !(object instanceof Handle) && isAData(object);
    if (this.structures !== undefined && !adata && !(object instanceof Handle)) {
      this.restoreStructure(object, this.structures, ctx);
      return;
    }
    // A Lua value's segment is read here and now (a structure's, by a generator, maybe later).
    const reader = adata ? segmentReaderOf(ctx, this.file) : this.valueReader(ctx);
    try {
      if (adata) {
        const dependency = restoreAData(object as AData, reader, {
          value: (v) =>
            v !== null && typeof v === 'object' && 'ref' in v && v.ref instanceof Handle
              ? { ref: new LuaRef(L, this.copyRef(v.ref)) }
              : v,
          work: (units) => this.work(units, ctx.number),
        });
        return dependency === undefined ? undefined : restoreAfter(dependency, ctx);
      }
      const handle = object as Handle;
      // The value is used where the keeper holds it, when that is on this stack; else pushed.
      const top = lua.lua_gettop(L);
      let at = this.keeper.stackIndex(handle.ref);
      if (at === undefined) {
        this.keeper.push(handle.ref);
        at = top + 1;
      }
      try {
        const tag = reader.u32();
        if (!this.v1) {
          if (tag !== LUA_TAG) throw new SegmentError('a Lua value segment starts with LUA\\0', 0, 'unknown-tag');
          reader.u32(); // the Lua type, read when allocating
        }
        if (handle.kind === 'value') {
          reader.value(); // pushed when allocating
        } else if (handle.kind === 'userdata') {
          if (this.v1 && tag !== DATA_TAG)
            throw new SegmentError('a userdata segment starts with DATA', 0, 'unknown-tag');
          const metaAt = reader.pos;
          const meta = reader.value();
          const n = reader.count(1);
          (lua.lua_touserdata(L, at) as { payload: Uint8Array }).payload = reader.take(n).slice();
          if (meta !== null) this.setMetatable(at!, meta, metaAt);
        } else {
          if (tag !== LUA_TAG) throw new SegmentError('a table segment starts with LUA\\0', 0, 'unknown-tag');
          // Entries are counted against the bytes left (each takes at least one byte a value) and
          // charged before the loop; nothing is preallocated from a count.
          const n = reader.count(1);
          this.work(n, ctx.number);
          for (let i = 1; i <= n; i++) {
            this.pushRead(reader);
            lua.lua_rawseti(L, at, i);
          }
          const pairs = reader.count(2);
          this.work(pairs, ctx.number);
          const order = this.v1 ? undefined : this.keyOrder.start(n);
          for (let i = 0; i < pairs; i++) {
            const keyAt = reader.pos;
            const keyType = this.pushRead(reader);
            if (keyType === ValueType.nil) throw new SegmentError('a table key is nil', keyAt);
            if (keyType === ValueType.number && Number.isNaN(lua.lua_tonumber(L, -1)))
              throw new SegmentError('a table key is NaN', keyAt);
            order?.check(L, reader, keyType, keyAt);
            this.pushRead(reader);
            lua.lua_rawset(L, at);
          }
          // No metatable (most tables): its nil is the type byte alone, read as pushRead reads types.
          if (reader.peek() === ValueType.nil) reader.pos += 1;
          else {
            const metaAt = reader.pos;
            const meta = reader.value();
            if (meta !== null) this.setMetatable(at!, meta, metaAt);
          }
        }
        if (!reader.atEnd)
          throw new SegmentError(`${reader.length - reader.pos} bytes left after the value`, reader.pos);
      } finally {
        lua.lua_settop(L, top);
      }
    } catch (error) {
      throw segmentFailure(ctx, error);
    }
  }

  /**
   * The references of the Lua value being restored, read first: the first {@link referenceCount}
   * of an array reused from value to value.
   */
  private readonly references: Array<object | null> = [];
  private referenceCount = 0;
  private readonly resolveReference = (slot: number, at: number): object | null => {
    if (slot >= this.referenceCount)
      throw new SegmentError(`slot ${slot}, but the object has ${this.referenceCount} references`, at);
    return this.references[slot]!;
  };

  /**
   * {@link segmentReaderOf} for a Lua value's segment, which is read through before its restore
   * returns: its references go to one array the restorer reuses, its slots resolve through one
   * function.
   */
  private valueReader(ctx: RestoreContext<object>): SegmentReader {
    const references = this.references;
    const count = ctx.referenceCount;
    this.referenceCount = 0;
    for (let i = 0; i < count; i++) references[i] = ctx.readReference();
    this.referenceCount = count;
    // Its first segment, read where it lies in the image's data (no view made of it).
    const { segStart, dataStart, data } = this.file.image;
    const s = segStart[ctx.number - 1]!;
    if (!(s < segStart[ctx.number]!)) throw ctx.fail('no data segment');
    return SegmentReader.within(data, dataStart[s]!, dataStart[s + 1]!, this.resolveReference, this.file);
  }

  /** An application structure: its references read by its own `restore`, its payload after the DataType. */
  private restoreStructure(object: object, structures: LuaStructures<object>, ctx: RestoreContext<object>): void {
    const segment = ctx.getObjectData();
    if (segment === undefined) throw ctx.fail('no data segment');
    ctx.resetObjectData();
    const data = new SegmentReader(
      segment,
      (_slot, at) => {
        throw new SegmentError('a structure refers to objects through its references, not as data values', at);
      },
      this.file,
    );
    const top = lua.lua_gettop(this.L);
    try {
      data.pos = 8; // after DATA and the DataType
      structures.restore(object, ctx, data, this.L);
    } catch (error) {
      throw segmentFailure(ctx, error);
    } finally {
      lua.lua_settop(this.L, top);
    }
  }

  private copyRef(h: Handle): number {
    this.keeper.push(h.ref);
    return lauxlib.luaL_ref(this.L, lua.LUA_REGISTRYINDEX);
  }

  release(): void {
    this.keeper_?.drop();
    this.keeper_ = undefined;
  }
}

/** What {@link loadLua} restored. */
export interface LoadedLua {
  /** How many roots were pushed onto the stack (Lua values; C structures as light userdata). */
  readonly count: number;
  /**
   * The roots: {@link LuaRef}s (new references in this state, for any Lua value), C structures, the
   * application's structures, or null for a NULL root.
   */
  readonly roots: ReadonlyArray<LuaRef | AData | object | null>;
  /**
   * The decoded file: decoded from the input when first read (the load itself restores from the
   * file's image, without the document), so leave the input unchanged until then.
   */
  readonly file: ZippyFile;
}

/**
 * Restores a ZSAV file into `L` (a fresh state, typically): allocates every object, resolves every
 * reference, restores each — then pushes the roots onto the stack, and nothing else. On any failure
 * the stack is left as it was.
 */
export function loadLua(
  L: LuaState,
  bytes: Uint8Array,
  options: LuaLoadOptions = {},
): E.Either<DecodeError, LoadedLua> {
  if (!lua.lua_checkstack(L, ENTRY_ROOM)) return E.left(new DecodeError([], 0, NO_ROOM, 'out-of-range'));
  const top = lua.lua_gettop(L);
  const r = new LuaRestorer(L, options.externals ?? {}, options.structures);
  let result: ReturnType<typeof readSavefileImage<object>>;
  try {
    // Restored from the file's image: the document (an object and a segment view per object) is
    // made only if `file` is asked for.
    result = readSavefileImage<object>(bytes, r, options);
  } catch (error) {
    // Not a DecodeError (fengari itself failing, say): the stack is still put back.
    lua.lua_settop(L, top);
    throw error;
  }
  if (E.isLeft(result)) {
    // The restorer's keeper and anything a failed restore left pushed are above `top`.
    lua.lua_settop(L, top);
    return result;
  }
  const roots = result.right.roots.map((root) => {
    if (root === null) {
      lua.lua_pushnil(L);
      return null;
    }
    r.push({ ref: root });
    if (!(root instanceof Handle)) return root;
    return luaRef(L, -1);
  });
  r.release();
  return E.right(loaded(roots, bytes, options));
}

/**
 * What {@link loadLua} returns: `file` is decoded from `bytes` when first read (the image the load
 * restored from decoded without error, and the document is the same declaration, so it decodes),
 * then kept.
 */
function loaded(roots: LoadedLua['roots'], bytes: Uint8Array, options: DecodeOptions): LoadedLua {
  let file: ZippyFile | undefined;
  // The load's own budget was charged already: the document is decoded under the same limits, afresh.
  const { budget: _spent, ...limits } = options;
  return {
    count: roots.length,
    roots,
    get file(): ZippyFile {
      if (file === undefined) {
        const decoded = decode(zippyFile, bytes, limits);
        if (E.isLeft(decoded)) throw decoded.left; // only if `bytes` changed since the load
        file = decoded.right.value;
      }
      return file;
    },
  };
}

export { LuaInteger, SegmentError };
