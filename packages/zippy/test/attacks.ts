// Hostile and large ZSAV files for the budget tests (issue 17): sizes recorded in the file that the
// bytes cannot back, many objects, wide and deep tables. Each is a real save (written by saveLua or
// by the container's encoder from a decoded save), then patched where the attack needs it.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, encodeOrThrow } from '@savekit/core';
import { adataSaver, type AData, writeSavefile, ZClass, zippyFile, type ZippyFile } from '@savekit/zippy';
import { saveLua } from '@savekit/zippy/lua';
import { lua, newState, pushGlobal, run } from './lua-helpers';

/** A byte order of the file (each claim below is written in either). */
type Order = 'be' | 'le';

/** Saves the global `name` after running `source` in a fresh state. */
export function savedLua(source: string, name = 'T', byteOrder: Order = 'be'): Uint8Array {
  const L = newState();
  run(L, source);
  pushGlobal(L, name);
  const saved = saveLua(L, 1, { crc: false, byteOrder });
  if (E.isLeft(saved)) throw saved.left;
  return saved.right;
}

/** Whether `o` is a userdata object (container v2: `LUA\0` whose Lua type, after the tag, is 7). */
export function isUserdata(o: ZippyFile['objects'][number], byteOrder: 'be' | 'le' = 'be'): boolean {
  const s = o.segments[0]!;
  return o.tag === 'LUA\0' && new DataView(s.buffer, s.byteOffset, s.byteLength).getUint32(4, byteOrder === 'le') === 7;
}

/** A table of `count` userdata of 4 bytes each, every userdata object's recorded size set to `size`. */
export function dataClaiming(count: number, size: number, byteOrder: Order = 'be'): Uint8Array {
  const L = newState();
  lua.lua_createtable(L, count, 0);
  for (let i = 1; i <= count; i++) {
    (lua.lua_newuserdata(L, 4) as { payload?: Uint8Array }).payload = Uint8Array.of(1, 2, 3, i & 255);
    lua.lua_rawseti(L, -2, i);
  }
  const saved = saveLua(L, 1, { crc: false, byteOrder });
  if (E.isLeft(saved)) throw saved.left;
  const file = decodeOrThrow(zippyFile, saved.right);
  for (const o of file.objects) if (isUserdata(o, byteOrder)) o.size = size;
  return encodeOrThrow(zippyFile, file);
}

/** A save whose object `n` (1-based) has its segment 0 changed by `patch` (the container re-encoded around it). */
function patchedSegment(bytes: Uint8Array, n: number, patch: (segment: Uint8Array) => Uint8Array): Uint8Array {
  const file: ZippyFile = decodeOrThrow(zippyFile, bytes);
  const o = file.objects[n - 1]!;
  o.segments = [patch(o.segments[0]!.slice()), ...o.segments.slice(1)];
  return encodeOrThrow(zippyFile, file);
}

const setU32 = (segment: Uint8Array, at: number, value: number, byteOrder: Order = 'be') => {
  new DataView(segment.buffer, segment.byteOffset, segment.byteLength).setUint32(at, value, byteOrder === 'le');
  return segment;
};

/** A table whose sequence count (after the tag and the Lua type) claims `count` entries. */
export function tableCountClaim(count = 0xffffffff, byteOrder: Order = 'be'): Uint8Array {
  return patchedSegment(savedLua('T = {1, 2, 3}', 'T', byteOrder), 1, (s) => setU32(s, 8, count, byteOrder));
}

/** A table whose one string value claims `length` bytes (type 04, then the u32 length). */
export function stringLengthClaim(length = 0xffffffff, byteOrder: Order = 'be'): Uint8Array {
  return patchedSegment(savedLua('T = {"abc"}', 'T', byteOrder), 1, (s) => setU32(s, 8 + 4 + 1, length, byteOrder));
}

/** A userdata whose payload length (after `LUA\0`, the Lua type and a nil metatable) claims `length` bytes. */
export function payloadLengthClaim(length = 0xffffffff, byteOrder: Order = 'be'): Uint8Array {
  const L = newState();
  (lua.lua_newuserdata(L, 4) as { payload?: Uint8Array }).payload = Uint8Array.of(1, 2, 3, 4);
  const saved = saveLua(L, 1, { crc: false, byteOrder });
  if (E.isLeft(saved)) throw saved.left;
  return patchedSegment(saved.right, 1, (s) => setU32(s, 8 + 1, length, byteOrder));
}

/** A container header claiming `count` objects (and as many roots) in a 32-byte file. */
export function headerClaim(count = 0x7fffffff, byteOrder: Order = 'be'): Uint8Array {
  const bytes = encodeOrThrow(zippyFile, {
    byteOrder,
    major: 2,
    minor: 0,
    numberFormat: 0,
    crc: false,
    roots: [],
    externals: [],
    objects: [],
  });
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setUint32(12, count, byteOrder === 'le');
  view.setUint32(16, count, byteOrder === 'le');
  return out;
}

/** A table of `n` empty tables: n + 1 objects. */
export function manyObjects(n: number): Uint8Array {
  return savedLua(`T = {}; for i = 1, ${n} do T[i] = {} end`);
}

/** One table of `n` integer entries (the sequence part) and `n` string-keyed pairs. */
export function wideTable(n: number): Uint8Array {
  return savedLua(`T = {}; for i = 1, ${n} do T[i] = i; T["k" .. i] = true end`);
}

/** `n` tables each holding the next: nesting `n` deep. */
export function deepTables(n: number): Uint8Array {
  return savedLua(`T = {}; local t = T; for i = 1, ${n} do local x = {}; t[1] = x; t = x end`);
}

/** A superclass chain `n` long (C structures only). */
export function classChain(n: number): Uint8Array {
  let cls: ZClass | null = null;
  for (let i = 0; i < n; i++) cls = new ZClass(`c${i}`, cls);
  const saved = writeSavefile<AData>([cls], adataSaver, { crc: false });
  if (E.isLeft(saved)) throw saved.left;
  return saved.right;
}
