// Issue 21, items 1–4: the seed's tags (container version 2, version 1 still read), files of either
// byte order read by every reader and written by every writer, any Lua value as a root and as a C
// structure's reference (with the wiki's saveLuaValue / readReferenceRestoringFirst workflow), and
// number format 1 as 4-byte floats. Every Lua-side check runs in a fresh fengari state after load.
import * as E from 'fp-ts/lib/Either';
import { decodeOrThrow, DecodeError, EncodeError, encodeOrThrow } from '@savekit/core';
import { type AData, Instance, List, Range, Vector, ZClass, zippyFile, type ZippyFile } from '@savekit/zippy';
import { loadStructures, saveStructures } from './structures';
import {
  loadLua,
  type LuaRef,
  luaRef,
  type LuaStructures,
  pushRestored,
  saveGame,
  saveLua,
  saveLuaValue,
  type StructureSink,
} from '@savekit/zippy/lua';
import { asVersion1, byteSwapped, V1_WORKED_EXAMPLE } from './layout-helpers';
import { heldValue, lua, newState, pushGlobal, run, setGlobal, setGlobals, to_luastring } from './lua-helpers';
import { workedExample } from './worked-example';

const ORDERS = ['be', 'le'] as const;
type Order = (typeof ORDERS)[number];

const right = <A>(result: E.Either<Error, A>): A => {
  if (E.isLeft(result)) throw result.left;
  return result.right;
};
const u32At = (segment: Uint8Array, at: number, order: Order) =>
  new DataView(segment.buffer, segment.byteOffset, segment.byteLength).getUint32(at, order === 'le');

/** A Lua state with a world of every kind: tables, a userdata, C structures of each DataType. */
function world(): { L: object; roots: Array<LuaRef | AData | null> } {
  const L = newState();
  run(L, 'members = {speed = 3}; T = {1.5, "a", k = {}}; T.self = T');
  pushGlobal(L, 'T');
  const data = lua.lua_newuserdata(L, 2) as { payload?: Uint8Array };
  data.payload = Uint8Array.of(7, 8);
  lua.lua_setfield(L, -2, to_luastring('u'));
  const t = luaRef(L, -1);
  lua.lua_pop(L, 1);
  pushGlobal(L, 'members');
  const members = luaRef(L, -1);
  lua.lua_pop(L, 1);
  const base = new ZClass('Actor');
  const imp = new ZClass('Imp', base, { ref: members });
  const list = List.of([{ ref: new Vector([1, -2]) }, { ref: new Range(0, 1, true) }, { ref: t }]);
  return { L, roots: [t, new Instance(imp, { ref: t }, Uint8Array.of(1)), list] };
}

describe('item 1: Lua values start with LUA\\0, C structures with DATA + DataType (container version 2)', () => {
  test.each(ORDERS)('%s: every object of a world of every kind, tag by tag; it loads into a fresh state', (order) => {
    const { L, roots } = world();
    const bytes = right(saveGame(L, roots, { byteOrder: order }));
    const file: ZippyFile = decodeOrThrow(zippyFile, bytes);
    expect([file.major, file.byteOrder]).toEqual([2, order]);
    const kinds = file.objects.map((o) => {
      const s = o.segments[0]!;
      return `${o.tag}:${u32At(s, 4, order)}`;
    });
    // Lua values: tables (5) and the userdata (7); structures: DATA and their DataType.
    expect(new Set(kinds)).toEqual(new Set(['LUA\0:5', 'LUA\0:7', 'DATA:1', 'DATA:2', 'DATA:3', 'DATA:4', 'DATA:5']));
    // Segment 0's first four bytes are the tag as an integer in the file's order.
    for (const o of file.objects)
      expect(u32At(o.segments[0]!, 0, order)).toBe(o.tag === 'DATA' ? 0x44415441 : 0x4c554100);
    const L2 = newState();
    const loaded = right(loadLua(L2, bytes));
    const [t, instance, list] = loaded.roots as [LuaRef, Instance, List];
    setGlobals(L2, { T: t, members: heldValue(instance.cls.members), fields: heldValue(instance.fields) });
    run(
      L2,
      'assert(T[1] == 1.5 and T[2] == "a" and T.self == T and type(T.u) == "userdata"); assert(members.speed == 3); assert(fields == T)',
    );
    expect([instance.cls.name, instance.cls.superclass?.name]).toEqual(['Imp', 'Actor']);
    const [v, r] = list.values() as Array<{ ref: unknown }>;
    expect([(v!.ref as Vector).values, (r!.ref as Range).loExclusive]).toEqual([[1, -2], true]);
  });

  test.each(ORDERS)('%s: the version-1 worked example (ADAT structures, DATA userdata) still loads', (order) => {
    const v1 = order === 'be' ? V1_WORKED_EXAMPLE : byteSwapped(V1_WORKED_EXAMPLE);
    const file = decodeOrThrow(zippyFile, v1);
    expect([file.major, file.objects.map((o) => o.tag)]).toEqual([1, ['LUA\0', 'DATA', 'ADAT']]);
    const L2 = newState();
    const loaded = right(loadLua(L2, v1));
    setGlobal(L2, 'T');
    run(L2, 'assert(T[1] == 1.0 and T[2] == "a" and T.self == T and type(T.u) == "userdata")');
    pushGlobal(L2, 'T');
    lua.lua_getfield(L2, -1, to_luastring('u'));
    expect((lua.lua_touserdata(L2, -1) as { payload: Uint8Array }).payload).toEqual(
      Uint8Array.of(0xde, 0xad, 0xbe, 0xef),
    );
    lua.lua_getfield(L2, -2, to_luastring('v'));
    expect((lua.lua_touserdata(L2, -1) as Vector).values).toEqual([1.5, -2]);
    expect(loaded.count).toBe(1);
    // Version 2 is the same save with the seed's tags: the v1 bytes are its version-1 rewrite.
    expect(Buffer.from(asVersion1(workedExample())).equals(Buffer.from(V1_WORKED_EXAMPLE))).toBe(true);
  });

  test.each(ORDERS)('%s: version-1 C structures alone load through adataRestorer', (order) => {
    const saved = right(saveStructures([new ZClass('A', new ZClass('B')), new Vector([0.5])]));
    const v1 = order === 'be' ? asVersion1(saved) : byteSwapped(asVersion1(saved));
    const loaded = right(loadStructures(v1));
    const [a, v] = loaded.roots as [ZClass, Vector];
    expect([a.name, a.superclass?.name, v.values, loaded.file.major]).toEqual(['A', 'B', [0.5], 1]);
  });

  test('a version-2 file with an ADAT object is refused (unknown tag), typed', () => {
    const v1Tagged = asVersion1(right(saveStructures([new Vector([1])])));
    const bad = encodeOrThrow(zippyFile, { ...decodeOrThrow(zippyFile, v1Tagged), major: 2 });
    const result = loadStructures(bad);
    expect(E.isLeft(result) && result.left).toBeInstanceOf(DecodeError);
    expect(E.isLeft(result) && [result.left.path, result.left.message]).toEqual([
      ['objects', 0],
      expect.stringMatching(/"ADAT", not a C structure/),
    ]);
  });
});

/** Every fixture: what the writers write big-endian, with the way to write it in either order. */
const fixtures: Array<[string, (order: Order) => Uint8Array]> = [
  ['the worked example', (order) => (order === 'be' ? workedExample() : byteSwapped(workedExample()))],
  [
    'a world of every kind (saveGame)',
    (order) => {
      const { L, roots } = world();
      return right(saveGame(L, roots, { byteOrder: order }));
    },
  ],
  [
    'C structures alone (writeSavefile + adataSaver)',
    (order) => {
      const base = new ZClass('Base');
      return right(
        saveStructures(
          [
            new ZClass('A', base, null, true),
            new ZClass('B', base),
            new Vector([0.5, -0]),
            new Range(-1, 1, false, true),
          ],
          { byteOrder: order },
        ),
      );
    },
  ],
  [
    'numbers of every kind, number format 1 (saveLua)',
    (order) => {
      const L = newState();
      run(L, 'T = {1.5, -0.0, 1/0, 0/0, 2^24, math.tointeger(7), "s", true}');
      pushGlobal(L, 'T');
      return right(saveLua(L, 1, { byteOrder: order, numberFormat: 1 }));
    },
  ],
  [
    'Lua values of every type as roots (saveLua)',
    (order) => {
      const L = newState();
      run(L, 'T = {x = 1}');
      lua.lua_pushnil(L);
      lua.lua_pushboolean(L, true);
      lua.lua_pushnumber(L, 2.5);
      lua.lua_pushstring(L, to_luastring('s'));
      pushGlobal(L, 'T');
      (lua.lua_newuserdata(L, 1) as { payload?: Uint8Array }).payload = Uint8Array.of(9);
      return right(saveLua(L, 6, { byteOrder: order }));
    },
  ],
];

describe('item 2: every fixture in both byte orders', () => {
  test.each(fixtures)('%s: written little-endian = the big-endian file byte-swapped field by field', (_name, make) => {
    const be = make('be');
    const le = make('le');
    expect(String.fromCharCode(...le.subarray(0, 4))).toBe('VASZ');
    expect(Buffer.from(le).toString('hex')).toBe(Buffer.from(byteSwapped(be)).toString('hex'));
  });

  test.each(fixtures.flatMap(([name, make]) => ORDERS.map((order) => [name, order, make] as const)))(
    '%s, %s: loads into a fresh Lua state the same as in the other order',
    (_name, order, make) => {
      const snapshot = (bytes: Uint8Array): string => {
        const L2 = newState();
        const loaded = right(loadLua(L2, bytes));
        // What Lua sees of each root, in a canonical text.
        run(
          L2,
          `function show(v, seen)
            seen = seen or {}
            if type(v) == "number" then return math.type(v) .. ":" .. string.format("%.17g", v) end
            if type(v) ~= "table" then return type(v) .. ":" .. tostring(type(v) == "userdata" and "" or v) end
            if seen[v] then return "<cycle>" end
            seen[v] = true
            local keys = {}
            for k in pairs(v) do keys[#keys + 1] = k end
            table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
            local out = {}
            for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" .. show(v[k], seen) end
            return "{" .. table.concat(out, ",") .. "}"
          end`,
        );
        const parts: string[] = [];
        const base = lua.lua_gettop(L2) - loaded.count; // the roots are on the stack above it
        for (let i = 1; i <= loaded.count; i++) {
          lua.lua_getglobal(L2, to_luastring('show'));
          lua.lua_pushvalue(L2, base + i);
          lua.lua_call(L2, 1, 1);
          parts.push(lua.lua_tojsstring(L2, -1));
          lua.lua_pop(L2, 1);
        }
        return parts.join(' | ');
      };
      const other: Order = order === 'be' ? 'le' : 'be';
      expect(snapshot(make(order))).toBe(snapshot(make(other)));
    },
  );

  test.each(ORDERS)('%s: adataRestorer and readSavefile read C structures in the file order', (order) => {
    const saved = right(saveStructures([new Vector([1.25, 3]), new ZClass('X')], { byteOrder: order }));
    const loaded = right(loadStructures(saved));
    expect([(loaded.roots[0] as Vector).values, (loaded.roots[1] as ZClass).name, loaded.file.byteOrder]).toEqual([
      [1.25, 3],
      'X',
      order,
    ]);
  });
});

describe("item 3: any Lua value, as a root and as a C structure's reference", () => {
  test.each(ORDERS)('%s: nil, booleans, numbers, strings, a table and a userdata as roots', (order) => {
    const L = newState();
    run(L, 'T = {x = 1}');
    lua.lua_pushnil(L);
    lua.lua_pushboolean(L, false);
    lua.lua_pushinteger(L, 42);
    lua.lua_pushnumber(L, -0.0);
    lua.lua_pushstring(L, Uint8Array.of(0x61, 0, 0xff));
    pushGlobal(L, 'T');
    (lua.lua_newuserdata(L, 1) as { payload?: Uint8Array }).payload = Uint8Array.of(5);
    const top = lua.lua_gettop(L);
    const bytes = right(saveLua(L, 7, { byteOrder: order }));
    expect(lua.lua_gettop(L)).toBe(top);
    const file = decodeOrThrow(zippyFile, bytes);
    // Each root is a LUA\0 object; the scalars hold one value, typed as lua.h types them.
    expect(file.roots).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(file.objects.slice(0, 7).map((o) => [o.tag, u32At(o.segments[0]!, 4, order)])).toEqual(
      [0, 1, 3, 3, 4, 5, 7].map((type) => ['LUA\0', type]),
    );
    const L2 = newState();
    const loaded = right(loadLua(L2, bytes));
    expect(loaded.count).toBe(7);
    for (const name of ['ud', 't', 's', 'z', 'i', 'b', 'n']) setGlobal(L2, name);
    run(
      L2,
      `assert(n == nil and b == false and math.type(i) == "integer" and i == 42)
       assert(math.type(z) == "float" and 1 / z == -math.huge)
       assert(#s == 3 and s:byte(2) == 0 and s:byte(3) == 255)
       assert(t.x == 1 and type(ud) == "userdata")`,
    );
    expect(loaded.roots.every((r) => r !== null && typeof (r as LuaRef).push === 'function')).toBe(true);
  });

  test.each(ORDERS)(
    '%s: LuaRefs to values of every type in C structures load as LuaRefs to the same values',
    (order) => {
      const L = newState();
      run(L, 'T = {name = "t"}');
      const refs = ['nil', 'true', '2.5', '"str"', 'T'].map((code) => {
        run(L, `V = ${code}`);
        pushGlobal(L, 'V');
        const ref = luaRef(L, -1);
        lua.lua_pop(L, 1);
        return ref;
      });
      const list = List.of(refs.map((ref) => ({ ref })));
      const cls = new ZClass('C', null, { ref: refs[3]! });
      const bytes = right(saveGame(L, [list, new Instance(cls, { ref: refs[2]! })], { byteOrder: order }));
      const L2 = newState();
      const loaded = right(loadLua(L2, bytes));
      const [list2, instance2] = loaded.roots as [List, Instance];
      const values = Object.fromEntries(list2.values().map((v, i) => [`v${i + 1}`, heldValue(v)]));
      setGlobals(L2, { ...values, members: heldValue(instance2.cls.members), fields: heldValue(instance2.fields) });
      run(
        L2,
        'assert(v1 == nil and v2 == true and v3 == 2.5 and v4 == "str" and v5.name == "t"); assert(members == "str" and fields == 2.5)',
      );
    },
  );

  /** The application's structure of the README: a sprite whose state is a Lua value, and a neighbour. */
  class Sprite {
    constructor(
      public frame = 0,
      public state: LuaRef | null = null,
      public next: Sprite | null = null,
    ) {}
  }
  const sprites: LuaStructures<Sprite> = {
    owns: (value): value is Sprite => value instanceof Sprite,
    dataTypeOf: () => 0x100,
    save(sprite, sink) {
      sprite.state!.push(); // 1. push the value
      saveLuaValue(sink.L, sink); // 2. save_lua_value()
      lua.lua_pop(sink.L, 1);
      sink.writeReference(sprite.next);
      sink.data.u32(sprite.frame);
      sink.data.f64(0.5);
    },
    allocate: (dataType) => (dataType === 0x100 ? new Sprite() : undefined),
    restore(sprite, ctx, data, S) {
      pushRestored(S, ctx.readReferenceRestoringFirst()); // 1–2: restore the value first, push it
      sprite.state = luaRef(S, -1); // 3. a new reference
      lua.lua_pop(S, 1);
      sprite.next = ctx.readReference() as Sprite | null;
      sprite.frame = data.u32();
      expect(data.f64()).toBe(0.5);
    },
  };

  test.each(ORDERS)(
    "%s: the wiki's workflow: saveLuaValue from a structure's save, readReferenceRestoringFirst + a new LuaRef on restore; Lua and C refer to each other",
    (order) => {
      const L = newState();
      run(L, 'mood = {name = "grumpy"}');
      pushGlobal(L, 'mood');
      const a = new Sprite(1, luaRef(L, -1));
      lua.lua_pushinteger(L, 99);
      const b = new Sprite(2, luaRef(L, -1), a);
      lua.lua_pop(L, 2);
      a.next = b; // a cycle between structures
      pushGlobal(L, 'mood');
      lua.lua_pushlightuserdata(L, b); // and Lua holding a structure
      lua.lua_setfield(L, -2, to_luastring('sprite'));
      lua.lua_pop(L, 1);
      const bytes = right(saveGame(L, [a], { byteOrder: order, structures: sprites }));
      const file = decodeOrThrow(zippyFile, bytes);
      expect(file.objects.filter((o) => o.tag === 'DATA').map((o) => u32At(o.segments[0]!, 4, order))).toEqual([
        0x100, 0x100,
      ]);
      const L2 = newState();
      const loaded = right(loadLua(L2, bytes, { structures: sprites }));
      const a2 = loaded.roots[0] as Sprite;
      const b2 = a2.next!;
      expect([a2.frame, b2.frame, b2.next]).toEqual([1, 2, a2]);
      setGlobals(L2, { mood: a2.state!, count: b2.state! });
      lua.lua_pushlightuserdata(L2, b2);
      setGlobal(L2, 'b');
      run(L2, 'assert(mood.name == "grumpy" and mood.sprite == b and count == 99)');
      // Without the structures, the file's application DataType is a typed refusal.
      const refused = loadLua(newState(), bytes);
      expect(E.isLeft(refused) && [refused.left.code, refused.left.message]).toEqual([
        'unknown-tag',
        expect.stringMatching(/no structure of DataType 0x100/),
      ]);
    },
  );

  test('what readReferenceRestoringFirst returned is released when the load ends (keep a luaRef instead)', () => {
    const L = newState();
    lua.lua_pushinteger(L, 5);
    const sprite = new Sprite(0, luaRef(L, -1));
    lua.lua_pop(L, 1);
    let kept: object | null = null;
    const keeping: LuaStructures<Sprite> = {
      ...sprites,
      restore(value, ctx, data, S) {
        kept = ctx.readReferenceRestoringFirst();
        ctx.resetObjectData();
        pushRestored(S, kept);
        value.state = luaRef(S, -1);
        lua.lua_pop(S, 1);
        value.frame = data.u32();
      },
    };
    const bytes = right(saveGame(L, [sprite], { structures: sprites }));
    const L2 = newState();
    right(loadLua(L2, bytes, { structures: keeping }));
    expect(() => pushRestored(L2, kept)).toThrow(/released when its load ended/);
  });

  test('saveLuaValue outside a structure save is a TypeError', () => {
    const L = newState();
    lua.lua_pushnil(L);
    expect(() => saveLuaValue(L, {} as StructureSink)).toThrow(TypeError);
  });
});

describe('item 4: number format 1 stores 4-byte floats', () => {
  test.each(ORDERS)(
    '%s: exact numbers round-trip as floats (header flag, 4-byte payloads), in Lua and in structures',
    (order) => {
      const L = newState();
      run(L, 'T = {1.5, -0.0, 1/0, -1/0, 0/0, 2^24, 0.25, math.tointeger(7)}');
      pushGlobal(L, 'T');
      const wide = right(saveLua(L, 1, { byteOrder: order }));
      const narrow = right(saveLua(L, 1, { byteOrder: order, numberFormat: 1 }));
      expect(decodeOrThrow(zippyFile, narrow).numberFormat).toBe(1);
      expect(wide.length - narrow.length).toBe(4 * 7); // 7 floats, 4 bytes less each (the integer keeps 8)
      const L2 = newState();
      right(loadLua(L2, narrow));
      setGlobal(L2, 'T');
      run(
        L2,
        `assert(T[1] == 1.5 and 1 / T[2] == -math.huge and T[3] == math.huge and T[4] == -math.huge)
       assert(T[5] ~= T[5] and T[6] == 2^24 and T[7] == 0.25 and math.type(T[8]) == "integer" and T[8] == 7)`,
      );
      const structures = right(
        saveStructures([new Vector([0.5, -3]), new Range(-0.125, 8)], {
          byteOrder: order,
          numberFormat: 1,
        }),
      );
      const loaded = right(loadStructures(structures));
      expect([(loaded.roots[0] as Vector).values, (loaded.roots[1] as Range).lo]).toEqual([[0.5, -3], -0.125]);
    },
  );

  test.each(ORDERS)(
    '%s: a number a float would change is an EncodeError (path, offset, code) unless allowed',
    (order) => {
      const L = newState();
      run(L, 'T = {x = 0.1}');
      pushGlobal(L, 'T');
      const refused = saveLua(L, 1, { byteOrder: order, numberFormat: 1 });
      if (E.isRight(refused)) throw new Error('expected a refusal');
      expect(refused.left).toBeInstanceOf(EncodeError);
      // The table is objects[0]; 0.1 follows tag, Lua type, n = 0, m = 1, the key "x" (6 bytes), its type byte.
      expect([refused.left.path, refused.left.offset, refused.left.code]).toEqual([
        ['objects', 0, 'segments', 0],
        4 + 4 + 4 + 4 + 6 + 1,
        'out-of-range',
      ]);
      expect(refused.left.message).toMatch(/0\.1 is not exactly a 4-byte float/);
      const lossy = right(saveLua(L, 1, { byteOrder: order, numberFormat: 1, allowPrecisionLoss: true }));
      const L2 = newState();
      right(loadLua(L2, lossy));
      setGlobal(L2, 'T');
      run(L2, `assert(T.x == ${Math.fround(0.1).toPrecision(17)} and T.x ~= 0.1)`);
      const vector = saveStructures([new Vector([1 / 3])], { byteOrder: order, numberFormat: 1 });
      expect(E.isLeft(vector) && [vector.left.path, vector.left.offset, vector.left.code]).toEqual([
        ['objects', 0, 'segments', 0],
        12,
        'out-of-range',
      ]);
    },
  );

  test('allowPrecisionLoss: keys that would load as one key are an EncodeError (an entry would be lost), others load apart', () => {
    const cases: Array<[string, RegExp]> = [
      [
        '{[0.1] = "a", [0.10000000001] = "b"}',
        /the keys 0\.1 and 0\.10000000001 of the table at roots\[0\] would load as one key/,
      ],
      ['{[16777217.5] = "c", [16777218] = "d"}', /would load as one key \(16777218\)/],
      ['{"x", "y", [2.0000001] = "z"}', /the keys 2\.0000001 and 2 .*would load as one key \(2\)/],
      ['{inner = {[0.3] = 1, [0.30000000001] = 2}}', /of the table at roots\[0\]\.inner would load as one key/],
    ];
    for (const [table, message] of cases) {
      const L = newState();
      run(L, `T = ${table}`);
      pushGlobal(L, 'T');
      const refused = saveLua(L, 1, { numberFormat: 1, allowPrecisionLoss: true });
      if (E.isRight(refused)) throw new Error(`${table} was saved`);
      expect(refused.left).toBeInstanceOf(EncodeError);
      expect(refused.left.message).toMatch(message);
    }
    // Keys that stay apart when rounded: every entry loads.
    const L = newState();
    run(L, 'T = {[0.1] = "a", [0.2] = "b", [1.5] = "c", 7, 8}');
    pushGlobal(L, 'T');
    const L2 = newState();
    right(loadLua(L2, right(saveLua(L, 1, { numberFormat: 1, allowPrecisionLoss: true }))));
    setGlobal(L2, 'T');
    run(L2, 'local n = 0 for _ in pairs(T) do n = n + 1 end assert(n == 5 and T[1.5] == "c" and T[2] == 8)');
  });

  test('a number format other than 0 or 1 is an EncodeError', () => {
    const result = saveStructures([new Vector([1])], { numberFormat: 2 });
    expect(E.isLeft(result) && [result.left.path, result.left.code]).toEqual([['numberFormat'], 'out-of-range']);
  });
});
