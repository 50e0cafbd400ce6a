// luasave on a real Lua VM: values saved from one fengari state and restored into a fresh one, the
// result checked by Lua code running in the new state — sharing, cycles, keys that are tables,
// metatables, userdata, exact numbers, binary strings, externals, C structures pointing into Lua.
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { DecodeError, decodeOrThrow, encodeOrThrow } from '@savekit/core';
import { Instance, List, Range, Vector, ZClass, zippyFile } from '@savekit/zippy';
import { loadLua, luaRef, saveGame, saveLua } from '@savekit/zippy/lua';
import { testBudget } from '@savekit/testkit';
import { isUserdata } from './attacks';
import { allocatedBy, heldValue, lua, newState, pushGlobal, run, setGlobal, setGlobals } from './lua-helpers';

// Sizes under SAVEKIT_TEST_PROFILE: the quick run still goes far past any recursion limit and
// through thousands of random graphs' shapes; the heavy run is the full size.
const LINKS = testBudget({ quick: 50_000, heavy: 1_000_000 });
const GRAPH_RUNS = testBudget({ quick: 40, heavy: 120 });
const BIG_GRAPH = testBudget({ quick: 2_000, heavy: 10_000 });

/** The byte orders every round trip below runs in; `order` is the one of the test running. */
const ORDERS = ['be', 'le'] as const;
let order: (typeof ORDERS)[number] = 'be';

/** A test run once in each byte order (`order` is that order while the body runs). */
function inEachOrder(title: string, body: () => void, timeout?: number): void {
  test.each(ORDERS)(
    title,
    (byteOrder) => {
      order = byteOrder;
      body();
    },
    timeout,
  );
}

/** A fresh state that has run `source`. */
function stateWith(source: string): object {
  const L = newState();
  run(L, source);
  return L;
}

function roundTrip(
  source: string,
  global = 'T',
  options: Parameters<typeof saveLua>[2] = {},
  loadOptions: Parameters<typeof loadLua>[2] = {},
): object {
  const L = stateWith(source);
  pushGlobal(L, global);
  return reloadTop(L, global, options, loadOptions);
}

/** Saves the value on top of L's stack, loads it into a fresh state, and names it `global` there. */
function reloadTop(
  L: object,
  global: string,
  options: Parameters<typeof saveLua>[2] = {},
  loadOptions: Parameters<typeof loadLua>[2] = {},
): object {
  const saved = saveLua(L, 1, { byteOrder: order, ...options });
  if (E.isLeft(saved)) throw saved.left;
  expect(String.fromCharCode(...saved.right.subarray(0, 4))).toBe(order === 'le' ? 'VASZ' : 'ZSAV');
  const L2 = newState();
  const loaded = loadLua(L2, saved.right, loadOptions);
  if (E.isLeft(loaded)) throw loaded.left;
  setGlobal(L2, global);
  return L2;
}

inEachOrder(
  '%s: a table with shared children, cycles, self-reference, table keys and a metatable — checked by Lua in the fresh state',
  () => {
    const L = roundTrip(`
    T = {1, "a", 2.5, true, false}
    T.self = T
    local child = {x = 1}
    T.c1 = child; T.c2 = child
    T[child] = "child as a key"
    local a, b = {name = "a"}, {name = "b"}
    a.other = b; b.other = a
    T.ring = a
    T.meta = setmetatable({}, {__index = {hidden = 42}})`);
    run(
      L,
      `
    assert(T[1] == 1 and T[2] == "a" and T[3] == 2.5 and T[4] == true and T[5] == false)
    assert(T.self == T, "self-reference")
    assert(T.c1 == T.c2 and T.c1.x == 1, "shared child stored once")
    assert(T[T.c1] == "child as a key", "table key")
    assert(T.ring.other.other == T.ring and T.ring.other.name == "b", "two-cycle")
    assert(T.meta.hidden == 42, "metatable")
    assert(getmetatable(T.meta).__index.hidden == 42)`,
    );
  },
);

inEachOrder('%s: numbers are exact: integers stay integers, floats keep −0, NaN, ±inf; strings are binary-safe', () => {
  const L = roundTrip(
    `T = {i = 7, f = 7.0, neg = -0.0, nan = 0/0, inf = 1/0, ninf = -1/0, tiny = 5e-324, big = 2^53 + 0.0, s = "a\\0b\\255c", long = string.rep("xyz\\0", 20000)}`,
  );
  run(
    L,
    `
    assert(math.type(T.i) == "integer" and T.i == 7)
    assert(math.type(T.f) == "float" and T.f == 7.0)
    assert(1 / T.neg == -math.huge, "-0.0 kept")
    assert(T.nan ~= T.nan, "NaN kept")
    assert(T.inf == math.huge and T.ninf == -math.huge)
    assert(T.tiny == 5e-324 and T.big == 2^53)
    assert(#T.s == 5 and T.s:byte(2) == 0 and T.s:byte(4) == 255)
    assert(#T.long == 80000 and T.long:sub(1, 4) == "xyz\\0")`,
  );
});

inEachOrder('%s: userdata keep their payload and metatable; a userdata referenced twice loads as one', () => {
  const L = stateWith('T = {}; Point = {__name = "Point"}');
  pushGlobal(L, 'T');
  const data = lua.lua_newuserdata(L, 3) as { payload?: Uint8Array };
  data.payload = Uint8Array.of(1, 2, 3);
  pushGlobal(L, 'Point');
  lua.lua_setmetatable(L, -2);
  lua.lua_pushvalue(L, -1);
  lua.lua_setfield(L, -3, to('u1'));
  lua.lua_setfield(L, -2, to('u2'));
  const L2 = reloadTop(L, 'T');
  run(L2, 'assert(T.u1 == T.u2, "one userdata"); assert(getmetatable(T.u1).__name == "Point")');
  pushGlobal(L2, 'T');
  lua.lua_getfield(L2, -1, to('u1'));
  expect((lua.lua_touserdata(L2, -1) as { payload: Uint8Array }).payload).toEqual(Uint8Array.of(1, 2, 3));
});

inEachOrder('%s: functions are an error naming their path, unless registered as externals', () => {
  const L = stateWith('T = {actors = {{name = "imp", think = function() return 1 end}}}');
  pushGlobal(L, 'T');
  const refused = saveLua(L, 1);
  expect(E.isLeft(refused) && refused.left.message).toMatch(
    /the function at roots\[0\]\.actors\[1\]\.think cannot be saved: register it as an external/,
  );
  // With the function registered by name, the file holds the name; the loader supplies the value.
  run(L, 'function think() return 1 end; T.actors[1].think = think');
  pushGlobal(L, 'T');
  const externals = { 'ai.think': (S: object) => lua.lua_getglobal(S, to('think')) };
  const saved = saveLua(L, 1, { externals, byteOrder: order });
  if (E.isLeft(saved)) throw saved.left;
  const L2 = stateWith('function think() return 2 end');
  const loaded = loadLua(L2, saved.right, { externals });
  if (E.isLeft(loaded)) throw loaded.left;
  setGlobal(L2, 'T');
  run(L2, 'assert(T.actors[1].think == think and T.actors[1].think() == 2)');
  expect(loaded.right.file.externals).toEqual(['ai.think']);
  const missing = loadLua(newState(), saved.right);
  expect(E.isLeft(missing) && missing.left.message).toMatch(/ai\.think/);
});

inEachOrder(
  '%s: C structures and Lua values refer to each other; restore_first finishes a Class before its Instance',
  () => {
    // The seed's rule: an Instance needs its Class whole. Here the Instance is met first (lower number),
    // so restoring it must restore the Class first — and the Class's members table points back to
    // the Instance: a reference cycle through a Lua table.
    const L = stateWith('members = {speed = 3}; world = {}');
    const members = luaRef(L, lua.lua_gettop(L) + 0 || -1);
    lua.lua_pop(L, 0);
    pushGlobal(L, 'members');
    const membersRef = luaRef(L, -1);
    lua.lua_pop(L, 1);
    members.release();
    const cls = new ZClass('Imp', null, { ref: membersRef });
    const imp = new Instance(cls, null, Uint8Array.of(9, 9));
    pushGlobal(L, 'members');
    lua.lua_pushlightuserdata(L, imp);
    lua.lua_setfield(L, -2, to('prototype'));
    lua.lua_pop(L, 1);
    const path = List.of([
      { ref: new Vector([1, 2, 3]) },
      { ref: new Range(0, 10, false, true) },
      7,
      new TextEncoder().encode('node'),
    ]);
    const saved = saveGame(L, [imp, path], { byteOrder: order });
    if (E.isLeft(saved)) throw saved.left;
    const L2 = newState();
    const loaded = loadLua(L2, saved.right);
    if (E.isLeft(loaded)) throw loaded.left;
    const [imp2, path2] = loaded.right.roots as [Instance, List];
    expect(imp2.cls.name).toBe('Imp');
    expect([...imp2.native]).toEqual([9, 9]);
    setGlobals(L2, { members: heldValue(imp2.cls.members) });
    lua.lua_pushlightuserdata(L2, imp2);
    setGlobal(L2, 'imp');
    run(L2, 'assert(members.speed == 3); assert(members.prototype == imp, "the cycle back to the instance")');
    const values = path2.values();
    expect((values[0] as { ref: Vector }).ref.values).toEqual([1, 2, 3]);
    expect((values[1] as { ref: Range }).ref).toEqual(new Range(0, 10, false, true));
    expect(values[2]).toBe(7);
    expect(new TextDecoder().decode(values[3] as Uint8Array)).toBe('node');
  },
);

// The chain in each byte order; the full million only in the first. How deep a chain loads does not
// depend on the byte order (the same work list reads both), so the second order runs the quick size,
// still five times past any recursion limit, instead of building and walking a million tables again.
for (const [byteOrder, links] of [
  [ORDERS[0], LINKS],
  [ORDERS[1], Math.min(LINKS, 50_000)],
] as const) {
  test(`${byteOrder}: a Lua table chain of ${links.toLocaleString('en')} links saves and loads without a stack overflow`, () => {
    order = byteOrder;
    const L = stateWith(
      `head = {n = 0}; local t = head; for i = 1, ${links} do local x = {n = i}; t.next = x; t = x end`,
    );
    pushGlobal(L, 'head');
    const L2 = reloadTop(L, 'head', { crc: false });
    run(L2, `local t, n = head, 0; while t.next do t = t.next; n = n + 1; assert(t.n == n) end; assert(n == ${links})`);
  }, 600_000);
}

// Random graphs: every table is listed in root.all (so tables have canonical numbers), tables hold
// random scalars and references to random tables (sharing, cycles), some keyed by tables.
interface Model {
  tables: Array<Array<[key: Scalar | { t: number }, value: Scalar | { t: number }]>>;
}
type Scalar = { s: string } | { i: number } | { f: number } | { b: boolean };

const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => ({ s })),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((i) => ({ i })),
  fc.double().map((f) => ({ f })),
  fc.constantFrom(0, -0, Infinity, -Infinity, NaN).map((f) => ({ f })),
  fc.boolean().map((b) => ({ b })),
);

function models(maxTables: number): fc.Arbitrary<Model> {
  return fc.integer({ min: 1, max: maxTables }).chain((n) =>
    fc
      .array(
        fc.array(
          fc.tuple(
            fc.oneof(
              scalar,
              fc.nat({ max: n - 1 }).map((t) => ({ t })),
            ),
            fc.oneof(
              scalar,
              fc.nat({ max: n - 1 }).map((t) => ({ t })),
            ),
          ),
          { maxLength: 4 },
        ),
        { minLength: n, maxLength: n },
      )
      .map((tables) => ({ tables })),
  );
}

const luaScalar = (v: Scalar): string =>
  's' in v
    ? JSON.stringify(v.s).replace(/\\u([0-9a-f]{4})/g, (_, h) => `\\u{${h}}`)
    : 'i' in v
      ? `math.tointeger(${v.i})`
      : 'b' in v
        ? String(v.b)
        : Number.isNaN(v.f)
          ? '(0/0)'
          : v.f === Infinity
            ? '(1/0)'
            : v.f === -Infinity
              ? '(-1/0)'
              : Object.is(v.f, -0)
                ? '(-0.0)'
                : `(${v.f.toPrecision(17)} + 0.0)`;

/** Lua source building the model in `all` (keys never nil or NaN), root = all[1]. */
function build(model: Model): string {
  const lines = ['all = {}', `for i = 1, ${model.tables.length} do all[i] = {} end`];
  model.tables.forEach((entries, i) => {
    for (const [k, v] of entries) {
      if ('f' in k && Number.isNaN(k.f)) continue;
      const key = 't' in k ? `all[${k.t + 1}]` : luaScalar(k);
      const value = 't' in v ? `all[${v.t + 1}]` : luaScalar(v);
      lines.push(`all[${i + 1}][${key}] = ${value}`);
    }
  });
  lines.push('root = {all = all}');
  return lines.join('\n');
}

/** A canonical description of every table in `all`, tables named by their index. */
const DESCRIBE = `
local index = {}
for i, t in ipairs(all) do index[t] = i end
local function d(v)
  local ty = math.type(v) or type(v)
  if ty == "table" then return "t" .. index[v] end
  if ty == "float" then
    if v ~= v then return "f:nan" end
    if v == 0 and 1 / v < 0 then return "f:-0" end
    return "f:" .. string.format("%.17g", v)
  end
  return ty .. ":" .. tostring(v)
end
local out = {}
for i, t in ipairs(all) do
  local pairs_ = {}
  for k, v in pairs(t) do pairs_[#pairs_ + 1] = d(k) .. "=" .. d(v) end
  table.sort(pairs_)
  out[i] = table.concat(pairs_, ",")
end
description = table.concat(out, "|")`;

function describe(L: object): string {
  run(L, DESCRIBE);
  pushGlobal(L, 'description');
  const text = lua.lua_tojsstring(L, -1);
  lua.lua_pop(L, 1);
  return text;
}

/** Builds the model's graph in a Lua state, saves it, loads it into a fresh state and compares what Lua sees. */
function expectRoundTrip(model: Parameters<typeof build>[0]): void {
  const L = stateWith(build(model));
  const before = describe(L);
  pushGlobal(L, 'root');
  const L2 = reloadTop(L, 'root');
  run(L2, 'all = root.all');
  expect(describe(L2)).toBe(before);
}

inEachOrder(
  '%s: property: random Lua graphs (sharing, cycles, table keys, odd floats) round-trip with identity kept',
  () => {
    fc.assert(
      fc.property(models(60), (model) => expectRoundTrip(model)),
      { numRuns: GRAPH_RUNS },
    );
  },
);

inEachOrder(
  `%s: a graph of ${BIG_GRAPH.toLocaleString('en')} tables with random sharing and cycles`,
  () => {
    const [model] = fc.sample(
      models(BIG_GRAPH).filter((m) => m.tables.length > BIG_GRAPH * 0.9),
      { numRuns: 1, seed: 42 },
    );
    expectRoundTrip(model!);
  },
  600_000,
);

function to(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

// Recorded sizes (issue 17): allocation follows the bytes present. (`describe` is this file's own helper.)
{
  /** A saved table of `count` userdata of 4 bytes each, every userdata object's recorded size set to `size`. */
  function claiming(count: number, size: number): Uint8Array {
    const L = newState();
    lua.lua_createtable(L, count, 0);
    for (let i = 1; i <= count; i++) {
      (lua.lua_newuserdata(L, 4) as { payload?: Uint8Array }).payload = Uint8Array.of(1, 2, 3, i & 255);
      lua.lua_rawseti(L, -2, i);
    }
    const saved = saveLua(L, 1);
    if (E.isLeft(saved)) throw saved.left;
    const file = decodeOrThrow(zippyFile, saved.right);
    for (const o of file.objects) if (isUserdata(o)) o.size = size;
    return encodeOrThrow(zippyFile, file);
  }

  test('recorded sizes: 1,000 userdata objects claiming 0xFFFFFFFF each: a DecodeError naming the first, nothing allocated for the claims', () => {
    const bytes = claiming(1000, 0xffffffff);
    let result: ReturnType<typeof loadLua> | undefined;
    // The old restorer allocated each claim (1,000 × 4 GiB) before reading the object.
    const allocated = allocatedBy(() => {
      result = loadLua(newState(), bytes);
    });
    expect(allocated).toBeLessThan(1 << 20);
    if (result === undefined || E.isRight(result)) throw new Error('expected a refusal');
    expect(result.left).toBeInstanceOf(DecodeError);
    // objects[0] is the table; the first DATA object (object 2, as references number them) is objects[1].
    expect(result.left.path).toEqual(['objects', 1, 'size']);
    expect(result.left.message).toContain('recorded size 4294967295 is more than the 17 bytes of its data segment');
  });

  test('recorded sizes: a size the data segment can hold still loads, with the payload from the file', () => {
    const L2 = newState();
    const loaded = loadLua(L2, claiming(3, 4));
    if (E.isLeft(loaded)) throw loaded.left;
    lua.lua_rawgeti(L2, -1, 3);
    expect((lua.lua_touserdata(L2, -1) as { payload: Uint8Array }).payload).toEqual(Uint8Array.of(1, 2, 3, 3));
  });
}
