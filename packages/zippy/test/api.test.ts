// Issue 21, items 5–7: Lua stacks left as found on every path, restore chains of any depth through
// the shipped restorers, and the API's seams (one restorer shape, errors that keep their object,
// names that collide with nothing, userdata state refused). Each Lua-side claim is checked by Lua
// code running in a fresh state after the load.
import * as E from 'fp-ts/lib/Either';
import { DecodeError, decodeOrThrow, EncodeError, encodeOrThrow } from '@savekit/core';
import { readGraph, type GraphRestorer, type GraphSaver, type RestoreGenerator } from '@savekit/core/graph';
import type { Instance as SchemaInstance } from '@savekit/core/schema';
import {
  adataRestorer,
  Instance,
  KIND,
  List,
  readSavefile,
  ScriptClass,
  ScriptInstance,
  toGraphImage,
  Vector,
  writeAData,
  writeSavefile,
  ZClass,
  zippyFile,
  type AData,
  type ZippyFile,
} from '@savekit/zippy';
import { loadStructures, saveStructures } from './structures';
import { loadLua, type LuaRef, luaRef, saveGame, saveLua } from '@savekit/zippy/lua';
import { testBudget } from '@savekit/testkit';
import { heldValue, lua, newState, pushGlobal, run, setGlobal, setGlobals, to_luastring } from './lua-helpers';

// Quick: past every recursion limit (the core's 10,000 for plain callbacks, the engine's stack);
// heavy (SAVEKIT_TEST_PROFILE=heavy, as CI runs it): the million.
const CHAIN = testBudget({ quick: 20_000, heavy: 1_000_000 });

const left = <A>(result: E.Either<DecodeError | EncodeError, A>): DecodeError | EncodeError => {
  if (E.isRight(result)) throw new Error('expected an error');
  return result.left;
};

/** The bytes of `file` with segment 0 of object `n` (0-based) changed by `change`. */
function patched(bytes: Uint8Array, n: number, change: (segment: Uint8Array) => void): Uint8Array {
  const file = decodeOrThrow(zippyFile, bytes);
  const segment = file.objects[n]!.segments[0]!.slice();
  change(segment);
  const objects = file.objects.map((o, i) => (i === n ? { ...o, segments: [segment, ...o.segments.slice(1)] } : o));
  return encodeOrThrow(zippyFile, { ...file, objects });
}

describe('item 5: every API leaves the Lua stack as it found it', () => {
  test('saveLua: on success, and after each of three failures in a row (top stays 2)', () => {
    const L = newState();
    run(L, 'good = {1, {2}}; bad = {f = print}');
    pushGlobal(L, 'good');
    pushGlobal(L, 'bad');
    expect(lua.lua_gettop(L)).toBe(2);
    for (let i = 0; i < 3; i++) {
      const error = left(saveLua(L, 1));
      expect(error).toBeInstanceOf(EncodeError);
      expect(error.message).toMatch(/function at roots\[0\]\.f/);
      expect(lua.lua_gettop(L)).toBe(2);
    }
    // Both values, the first good: still a failure (the second), still balanced.
    left(saveLua(L, 2));
    expect(lua.lua_gettop(L)).toBe(2);
    lua.lua_pop(L, 1);
    const saved = saveLua(L, 1);
    expect(E.isRight(saved)).toBe(true);
    expect(lua.lua_gettop(L)).toBe(1);
    // The state is still sound: Lua runs in it, and what was saved loads into a fresh one.
    run(L, 'assert(good[2][1] == 2)');
    const L2 = newState();
    const loaded = loadLua(L2, (saved as E.Right<Uint8Array>).right);
    if (E.isLeft(loaded)) throw loaded.left;
    expect(lua.lua_gettop(L2)).toBe(1);
    setGlobal(L2, 'T');
    run(L2, 'assert(T[1] == 1 and T[2][1] == 2)');
  });

  test('saveLua(L, count) with a count the stack cannot give is a typed EncodeError, not "invalid index"', () => {
    const L = newState();
    run(L, 'T = {}');
    pushGlobal(L, 'T');
    for (const count of [3, 2, -1, 1.5, Number.NaN]) {
      const error = left(saveLua(L, count));
      expect(error).toBeInstanceOf(EncodeError);
      expect([error.code, error.message]).toEqual(['out-of-range', expect.stringMatching(/the stack holds 1 value/)]);
      expect(lua.lua_gettop(L)).toBe(1);
    }
    expect(E.isRight(saveLua(L, 0)) && lua.lua_gettop(L)).toBe(1);
  });

  test('saveLua and loadLua work however much of its guaranteed stack (LUA_MINSTACK, 20) the caller has used', () => {
    const L = newState();
    run(L, 'T = { 1, 2, { x = "y" } }');
    for (let i = 0; i < 19; i++) lua.lua_pushinteger(L, i);
    pushGlobal(L, 'T');
    for (const count of [1, 20]) {
      const saved = saveLua(L, count);
      if (E.isLeft(saved)) throw saved.left;
      expect(lua.lua_gettop(L)).toBe(20);
      for (const used of [0, 19, 20]) {
        const L2 = newState();
        for (let i = 0; i < used; i++) lua.lua_pushinteger(L2, i);
        const loaded = loadLua(L2, saved.right);
        if (E.isLeft(loaded)) throw loaded.left;
        expect(loaded.right.roots.length).toBe(count);
      }
    }
  });

  test("saveLua grows no stack that has the room it needs: a fresh state's stays at its 40 slots", () => {
    // fengari's stack is an array it pops with `delete`; V8 makes one of 64 slots or more with few in
    // use a dictionary, and every push and pop after that a hash update. Asking for 64 slots on entry
    // grew a fresh state's stack to 80 and doubled the CPU time of a 1,000,000-link chain's save
    // (4.7 s to 9–10 s).
    const slots = (state: object) => (state as { stack: unknown[] }).stack.length;
    const L = newState();
    run(L, 'T = {}; local t = T; for i = 1, 1000 do t.next = {n = i, s = "x" .. i}; t = t.next end');
    pushGlobal(L, 'T');
    const before = slots(L);
    expect(before).toBeLessThan(64);
    const saved = saveLua(L, 1);
    if (E.isLeft(saved)) throw saved.left;
    expect(slots(L)).toBe(before);
    const L2 = newState();
    const loaded = loadLua(L2, saved.right);
    if (E.isLeft(loaded)) throw loaded.left;
    setGlobal(L2, 'T');
    run(L2, 'local t, n = T, 0; while t.next do t = t.next; n = n + 1; assert(t.s == "x" .. n) end; assert(n == 1000)');
  });

  test('saveGame: a failing C structure field, an external pushing the wrong number of values, refused userdata', () => {
    const L = newState();
    run(L, 'f = function() end; x = 1');
    lua.lua_pushinteger(L, 7);
    pushGlobal(L, 'f');
    const fn = luaRef(L, -1);
    lua.lua_pop(L, 1);
    expect(lua.lua_gettop(L)).toBe(1);
    // A List whose item is a Lua function: refused while the structure's fields are written.
    expect(left(saveGame(L, [List.of([{ ref: fn }])])).message).toMatch(/function/);
    expect(lua.lua_gettop(L)).toBe(1);
    // An external whose pusher pushes nothing, or two values.
    const none = left(saveGame(L, [fn], { externals: { none: () => {} } }));
    expect(none.message).toMatch(/external "none" pushed 0 values/);
    expect(lua.lua_gettop(L)).toBe(1);
    const two = left(
      saveGame(L, [fn], {
        externals: {
          two: (S) => {
            lua.lua_pushnil(S);
            lua.lua_pushnil(S);
          },
        },
      }),
    );
    expect(two.message).toMatch(/pushed 2 values/);
    expect(lua.lua_gettop(L)).toBe(1);
    // Userdata carrying state a save would drop.
    (lua.lua_newuserdata(L, 0) as Record<string, unknown>).hp = 3;
    expect(left(saveLua(L, 1)).message).toMatch(/userdata at roots\[0\] carries state .*\(hp\)/);
    expect(lua.lua_gettop(L)).toBe(2);
    fn.release();
    expect(lua.lua_tointeger(L, 1)).toBe(7);
  });

  test('loadLua: pushes only its roots on success; on every failure the stack is as it was', () => {
    const L = newState();
    run(L, 'T = {1, "two", {3}}; T.self = T; T.u = {n = 4}');
    pushGlobal(L, 'T');
    const saved = saveLua(L, 1);
    if (E.isLeft(saved)) throw saved.left;
    const bytes = saved.right;
    const L2 = newState();
    lua.lua_pushboolean(L2, true);
    lua.lua_pushinteger(L2, 2);
    const failures: Array<[string, Uint8Array, Parameters<typeof loadLua>[2]?]> = [
      ['truncated (the container fails)', bytes.subarray(0, bytes.length - 9)],
      // A nil key in object 1's pairs (the restore fails half-way through a table, values pushed).
      [
        'a nil key',
        patched(saveLuaOf('T = {a = 1}'), 0, (s) => {
          // The key "a": its type byte (string) five bytes before the character becomes nil.
          s[s.lastIndexOf(0x61) - 5] = 0x00;
        }),
      ],
      ['an unknown external', savedWithExternal(), {}],
      [
        'an external pushing two values',
        savedWithExternal(),
        {
          externals: {
            print: (S) => {
              lua.lua_pushnil(S);
              lua.lua_pushnil(S);
            },
          },
        },
      ],
      ['an unknown DataType (the allocation fails)', unknownDataType()],
    ];
    for (const [what, input, options] of failures) {
      const result = loadLua(L2, input, options);
      expect([what, E.isLeft(result) && result.left instanceof DecodeError]).toEqual([what, true]);
      expect([what, lua.lua_gettop(L2)]).toEqual([what, 2]);
    }
    const loaded = loadLua(L2, bytes);
    if (E.isLeft(loaded)) throw loaded.left;
    expect(lua.lua_gettop(L2)).toBe(3);
    setGlobal(L2, 'T');
    expect(lua.lua_gettop(L2)).toBe(2);
    run(L2, 'assert(T.self == T and T[2] == "two" and T[3][1] == 3 and T.u.n == 4)');
    expect(lua.lua_toboolean(L2, 1)).toBe(true);
  });
});

function saveLuaOf(source: string): Uint8Array {
  const L = newState();
  run(L, source);
  pushGlobal(L, 'T');
  const saved = saveLua(L, 1, { crc: false });
  if (E.isLeft(saved)) throw saved.left;
  return saved.right;
}

function savedWithExternal(): Uint8Array {
  const L = newState();
  run(L, 'T = {f = print}');
  pushGlobal(L, 'T');
  const saved = saveLua(L, 1, { externals: { print: (S) => lua.lua_getglobal(S, to_luastring('print')) } });
  if (E.isLeft(saved)) throw saved.left;
  return saved.right;
}

/** One Vector whose DataType is 99. */
function unknownDataType(): Uint8Array {
  const saved = saveStructures([new Vector([1])], { crc: false });
  if (E.isLeft(saved)) throw saved.left;
  const file = decodeOrThrow(zippyFile, saved.right);
  return patched(saved.right, 0, (s) => {
    // The DataType is the u32 after the tag, in the file's byte order.
    new DataView(s.buffer, s.byteOffset).setUint32(4, 99, file.byteOrder === 'le');
  });
}

/**
 * A superclass chain `n` long under an Instance. The base class's members and the top class's are Lua
 * tables (`{depth = 1}`, `{depth = n, base = <the base's members>}`); the classes between have none, so
 * a million links stay within a test process's memory.
 */
function classChain(L: object, n: number): ScriptInstance {
  run(L, `base = {depth = 1}; top = {depth = ${n}, base = base}`);
  const members = (name: string): { ref: LuaRef } => {
    pushGlobal(L, name);
    const ref = luaRef(L, -1);
    lua.lua_pop(L, 1);
    return { ref };
  };
  let cls = new ScriptClass('c1', null, members('base'));
  for (let i = 2; i <= n; i++) cls = new ScriptClass(`c${i}`, cls, i === n ? members('top') : null);
  return new ScriptInstance(cls, null, Uint8Array.of(1));
}

describe('item 6: restore chains of any depth', () => {
  test(`a ${CHAIN.toLocaleString('en')}-deep superclass chain under an Instance loads into Lua; Lua checks both ends`, () => {
    const L = newState();
    const instance = classChain(L, CHAIN);
    const saved = saveGame(L, [instance], { crc: false });
    if (E.isLeft(saved)) throw saved.left;
    const L2 = newState();
    const loaded = loadLua(L2, saved.right);
    if (E.isLeft(loaded)) throw loaded.left;
    const root = loaded.right.roots[0] as ScriptInstance;
    let depth = 0;
    let base = root.cls;
    for (let c: ScriptClass | null = root.cls; c !== null; c = c.superclass) {
      if (c.name !== `c${CHAIN - depth}`) throw new Error(`class ${depth} from the top is ${c.name}`);
      base = c;
      depth++;
    }
    expect(depth).toBe(CHAIN);
    setGlobals(L2, { top: heldValue(root.cls.members), base: heldValue(base.members) });
    run(L2, `assert(top.depth == ${CHAIN} and base.depth == 1 and top.base == base)`);
  }, 600_000);

  // (The million-deep chain through adataRestorer alone is container.test.ts's.)
  test('adataRestorer: a superclass cycle is still an error, at the class that closes it', () => {
    const a = new ScriptClass('A');
    const b = new ScriptClass('B', a);
    a.superclass = b;
    // adataSaver refuses to write the cycle (below): this file is made by a saver that writes each
    // class with a stand-in superclass, then refers to the real one in its place.
    const careless: GraphSaver<AData> = {
      kindOf: () => KIND.adata,
      save(object, sink) {
        const cls = object as ScriptClass;
        const standIn = new ScriptClass('stand-in');
        const written = writeAData(new ScriptClass(cls.name, cls.superclass === null ? null : standIn, cls.members));
        for (const r of written.references) sink.writeReference(r === standIn ? cls.superclass : (r as AData | null));
        sink.writeData(written.segment);
      },
    };
    const cycle = writeSavefile<AData>([a], careless);
    if (E.isLeft(cycle)) throw cycle.left;
    const error = left(loadStructures(cycle.right));
    expect([error.path.slice(0, 2), error.message]).toEqual([
      ['objects', 1],
      expect.stringMatching(/class B's superclass chain is a cycle/),
    ]);
  });

  test('adataSaver writes only what adataRestorer loads: a superclass cycle, a superclass or class that is no Class, a List whose nodes loop', () => {
    const a = new ScriptClass('A');
    const b = new ScriptClass('B', a);
    a.superclass = b;
    const self = new ScriptClass('S');
    self.superclass = self;
    const wrongSuper = new ScriptClass('W', new Vector([1]) as unknown as ScriptClass);
    const wrongClass = new ScriptInstance(new Vector([1]) as unknown as ScriptClass, null);
    const looped = List.of([1, 2, 3]);
    looped.head!.next!.next!.next = looped.head!.next;
    const cases: Array<[AData, RegExp]> = [
      [a, /class A's superclass chain is a cycle/],
      [self, /class S's superclass chain is a cycle/],
      [wrongSuper, /a superclass must be a Class/],
      [wrongClass, /an Instance needs a Class/],
      [looped, /the list's nodes loop back after \d+ values/],
    ];
    for (const [root, message] of cases) {
      const error = left(saveStructures([root]));
      expect(error).toBeInstanceOf(EncodeError);
      expect([error.path, error.message]).toEqual([['objects', 0], expect.stringMatching(message)]);
    }
    // Each chain is walked once per save, not once per class: a 2,000-deep chain (saved whole, every
    // class an object) reads each superclass a few times, where a walk per class would read ~2,000,000.
    let reads = 0;
    let counted: ScriptClass | null = null;
    for (let i = 0; i < 2000; i++) {
      const cls = new ScriptClass(`k${i}`);
      let superclass: ScriptClass | null = counted;
      Object.defineProperty(cls, 'superclass', {
        get: () => {
          reads++;
          return superclass;
        },
        set: (v: ScriptClass | null) => {
          superclass = v;
        },
      });
      counted = cls;
    }
    expect(E.isRight(saveStructures([counted]))).toBe(true);
    expect(reads).toBeLessThan(20 * 2000);
    // A long chain and a long list are fine (the checks take no memory per class or node).
    let top = new ScriptClass('c0');
    for (let i = 1; i < 10_000; i++) top = new ScriptClass(`c${i}`, top);
    expect(E.isRight(saveStructures([top]))).toBe(true);
    expect(List.of(Array.from({ length: 10_000 }, (_, i) => i)).values().length).toBe(10_000);
  });

  test('plain callbacks keep their documented limit, and the error names the generator form', () => {
    interface Link {
      next: Link | null;
    }
    let head: Link | null = null;
    for (let i = 0; i < CHAIN; i++) head = { next: head };
    const tag = new TextEncoder().encode('LINK'); // segment 0 of every object starts with its tag
    const saver: GraphSaver<Link> = {
      kindOf: () => 'LINK',
      save(l, sink) {
        sink.writeReference(l.next);
        sink.writeData(tag);
      },
    };
    const saved = writeSavefile([head], saver, { crc: false });
    if (E.isLeft(saved)) throw saved.left;
    const plain: GraphRestorer<Link> = {
      allocate: () => ({ next: null }),
      restore(link, ctx) {
        link.next = ctx.readReferenceRestoringFirst();
      },
    };
    // Nested calls end at maxRestoreDepth (10,000 by default) or, sooner, at the engine's call stack
    // (about 1,700 plain restores deep under Jest): a too-deep DecodeError either way, naming the cure.
    const tooDeep = left(readSavefile(saved.right, plain));
    expect([tooDeep.code, tooDeep.message]).toEqual([
      'too-deep',
      expect.stringMatching(/write .* as (a )?generators?/),
    ]);
    const limited = left(readSavefile(saved.right, { ...plain, maxRestoreDepth: 500 }));
    expect([limited.code, limited.message]).toEqual([
      'too-deep',
      'restoreFirst nested deeper than 500; write the restore callback as a generator',
    ]);
    const generator: GraphRestorer<Link> = {
      allocate: () => ({ next: null }),
      *restore(link, ctx): RestoreGenerator<Link> {
        link.next = ctx.readReference();
        yield link.next;
      },
    };
    const result = readSavefile(saved.right, generator);
    if (E.isLeft(result)) throw result.left;
    let n = 0;
    for (let l = result.right.roots[0] ?? null; l !== null; l = l.next) n++;
    expect(n).toBe(CHAIN);
  }, 600_000);
});

describe('item 7: API seams', () => {
  const base = new ScriptClass('Actor');
  const saved = saveStructures([new ScriptClass('Imp', base), new Vector([1.5])]);
  if (E.isLeft(saved)) throw saved.left;
  const bytes = saved.right;

  test("readSavefile and the core's readGraph take the same restorer shape", () => {
    const viaSavefile = loadStructures(bytes);
    if (E.isLeft(viaSavefile)) throw viaSavefile.left;
    const file: ZippyFile = decodeOrThrow(zippyFile, bytes);
    const viaGraph = readGraph(toGraphImage(file), adataRestorer.forFile(file));
    if (E.isLeft(viaGraph)) throw viaGraph.left;
    for (const roots of [viaSavefile.right.roots, viaGraph.right.roots]) {
      const [imp, v] = roots as [ScriptClass, Vector];
      expect([imp.name, imp.superclass?.name, v.values]).toEqual(['Imp', 'Actor', [1.5]]);
    }
    // A GraphRestorer with no need of the file goes to both as it is.
    const counting: GraphRestorer<{ n: number }> = { allocate: (_k, _s, n) => ({ n }), restore: () => {} };
    const a = readSavefile(bytes, counting);
    const b = readGraph(toGraphImage(file), counting);
    expect(E.isRight(a) && a.right.objects.map((o) => o.n)).toEqual(E.isRight(b) && b.right.objects.map((o) => o.n));
    // The deprecated factory shape still works.
    const factory = readSavefile(bytes, (f, budget) => adataRestorer.forFile(f, budget));
    expect(E.isRight(factory)).toBe(true);
    // Unbound, adataRestorer says how to bind it.
    expect(left(readGraph(toGraphImage(file), adataRestorer)).message).toMatch(/forFile/);
  });

  test('an error while allocating keeps its object: path and message (not "(root) … restoring object 0")', () => {
    const error = left(loadStructures(unknownDataType()));
    expect([error.path, error.message]).toEqual([['objects', 0], 'allocating object 1: unknown DataType 99']);
    const L = newState();
    const viaLua = left(loadLua(L, unknownDataType()));
    expect([viaLua.path, viaLua.message]).toEqual([['objects', 0], 'allocating object 1: unknown DataType 99']);
    expect(lua.lua_gettop(L)).toBe(0);
    // The state still loads a good file; Lua checks it.
    const loaded = loadLua(L, saveLuaOf('T = {ok = true}'));
    if (E.isLeft(loaded)) throw loaded.left;
    setGlobal(L, 'T');
    run(L, 'assert(T.ok)');
  });

  test("a kind mismatch names the object and that object's own reference number", () => {
    // Objects: 1 Imp (references 2), 2 Vector, 3 Actor. Imp's first reference is to Actor.
    const strict: GraphRestorer<object> = {
      allocate: () => ({}),
      restore(_o, ctx) {
        for (let i = 0; i < ctx.referenceCount; i++) ctx.readReference(KIND.lua);
      },
    };
    const error = left(readSavefile(bytes, strict));
    expect([error.path, error.message]).toEqual([
      ['objects', 0],
      `object 1's reference 1 of 1 is to object 3 of kind ${JSON.stringify(KIND.adata)}, expected ${JSON.stringify(KIND.lua)}`,
    ]);
  });

  test('ScriptClass and ScriptInstance collide with nothing; ZClass and Instance are the same classes', () => {
    const schemaValue: SchemaInstance | undefined = undefined; // @savekit/core/schema's Instance, imported beside ours
    expect(schemaValue).toBeUndefined();
    expect(ZClass).toBe(ScriptClass);
    expect(Instance).toBe(ScriptInstance);
    const old: ZClass = new ZClass('Old');
    expect(new Instance(old)).toBeInstanceOf(ScriptInstance);
  });

  test('userdata: the payload and metatable are kept (checked by Lua); other JS state and user values are refused', () => {
    const L = newState();
    run(L, 'mt = {__index = {kind = "sprite"}}');
    const data = lua.lua_newuserdata(L, 3) as { payload?: Uint8Array };
    data.payload = Uint8Array.of(1, 2, 3);
    pushGlobal(L, 'mt');
    lua.lua_setmetatable(L, -2);
    setGlobal(L, 'u');
    run(L, 'T = {u = u, again = u}');
    pushGlobal(L, 'T');
    const ok = saveLua(L, 1);
    if (E.isLeft(ok)) throw ok.left;
    const L2 = newState();
    const loaded = loadLua(L2, ok.right, {});
    if (E.isLeft(loaded)) throw loaded.left;
    setGlobal(L2, 'T');
    run(L2, 'assert(T.u == T.again and type(T.u) == "userdata" and T.u.kind == "sprite")');
    pushGlobal(L2, 'T');
    lua.lua_getfield(L2, -1, to_luastring('u'));
    expect([...(lua.lua_touserdata(L2, -1) as { payload: Uint8Array }).payload]).toEqual([1, 2, 3]);
    lua.lua_settop(L2, 0);

    // Extra JS state: refused, with the path and the property.
    (data as Record<string, unknown>).cache = new Map();
    const extra = left(saveLua(L, 1));
    expect([extra instanceof EncodeError, extra.message]).toEqual([
      true,
      expect.stringMatching(/userdata at roots\[0\]\.(u|again) carries state a save would drop \(cache\)/),
    ]);
    delete (data as Record<string, unknown>).cache;
    // A payload that is not bytes.
    (data as Record<string, unknown>).payload = [1, 2, 3];
    expect(left(saveLua(L, 1)).message).toMatch(/payload that is not a Uint8Array/);
    data.payload = Uint8Array.of(1, 2, 3);
    // A user value.
    pushGlobal(L, 'u');
    lua.lua_newtable(L);
    lua.lua_setuservalue(L, -2);
    lua.lua_pop(L, 1);
    expect(left(saveLua(L, 1)).message).toMatch(/has a user value/);
    expect(lua.lua_gettop(L)).toBe(1);
  });
});
