// parseJsonInParts against JSON.parse, with the bytes cut into parts of 1 to 9 bytes (so every token,
// escape and multi-byte character is cut somewhere): the same value for every text JSON.parse reads,
// with keys in the same order and `__proto__` an own key; and a SyntaxError for every text it refuses.
import fc from 'fast-check';
import { parseJsonInParts } from '../src/json-parts';

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * JSON.parse's value of the text UTF-8 bytes of `text` hold, or 'refused'. (A lone surrogate, which
 * a cut can make of a pair, has no UTF-8: the bytes hold U+FFFD there.)
 */
function reference(text: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(utf8(text)));
  } catch {
    return 'refused';
  }
}

/** parseJsonInParts's value, or 'refused' (only a SyntaxError counts as refusing). */
function parts(bytes: Uint8Array, size: number): unknown {
  try {
    return parseJsonInParts(bytes, size);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return 'refused';
  }
}

/** Values and keys alike, own keys in order: toStrictEqual does not look at key order. */
const shape = (value: unknown): unknown =>
  value === null || typeof value !== 'object'
    ? Object.is(value, -0)
      ? '-0'
      : value
    : Array.isArray(value)
      ? value.map(shape)
      : Object.getOwnPropertyNames(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]);

/** Keys that go wrong in naive parsers: number-like ones, __proto__, and a spelling of it with escapes. */
const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('__proto__', '0', '10', '5', 'constructor', 'toString', '\u2028', '\ufeff', 'é😀'),
);
const scalar = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }),
  ),
}));

/** JSON text of a generated value: entries (key, value) pairs become an object, repeated keys kept. */
function text(v: unknown, indent: number): string {
  if (
    Array.isArray(v) &&
    v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string') &&
    v.length > 0
  )
    return `{${(v as Array<[string, unknown]>).map(([k, x]) => `${JSON.stringify(k)}:${' '.repeat(indent)}${text(x, indent)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map((x) => text(x, indent)).join(`,${'\n'.repeat(indent > 1 ? 1 : 0)}`)}]`;
  return JSON.stringify(v) ?? 'null';
}

test('the value JSON.parse gives, keys in order, for texts cut into parts anywhere', () => {
  fc.assert(
    fc.property(value, fc.nat(3), fc.integer({ min: 1, max: 9 }), (v, indent, size) => {
      const source = text(v, indent);
      const expected = reference(source);
      expect(expected).not.toBe('refused');
      expect(shape(parts(utf8(source), size))).toEqual(shape(expected));
    }),
    { numRuns: 3000, seed: 21 },
  );
});

test('__proto__ is an own key, as JSON.parse makes it, spelled plainly or with escapes', () => {
  for (const source of ['{"__proto__": {"x": 1}, "a": 2}', '[{"__pr\\u006fto__": 1}]', '{"a":{"__proto__":[]}}'])
    for (let size = 1; size <= 5; size++) expect(shape(parts(utf8(source), size))).toEqual(shape(JSON.parse(source)));
  const parsed = parseJsonInParts(utf8('{"__proto__": {"polluted": 1}}'), 3) as Record<string, unknown>;
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
});

test('refuses what JSON.parse refuses: every cut of a document, stray and missing characters, a byte order mark', () => {
  const document = '{"a": [1, -2.5e3, "x\\"y\\\\", true, null, {"b": {}}], "c\\u00e9": "😀", "d": []}';
  for (let cut = 0; cut < document.length; cut++) {
    const source = document.slice(0, cut);
    for (const size of [1, 4, 1 << 20]) expect(parts(utf8(source), size)).toBe('refused');
  }
  for (const source of [
    '',
    ' ',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    '[1 2]',
    '01',
    '1.',
    '.5',
    '+1',
    '-',
    'tru',
    'nul',
    'NaN',
    '[1]]',
    '{}{}',
    '"\u0001"',
    '"\\x"',
    '[',
    '{',
    '"abc',
    '\ufeff{}',
    '{"a":1}x',
    '[1,,2]',
    '{,}',
    '[:]',
  ])
    for (const size of [1, 3, 64])
      expect({ source, parsed: parts(utf8(source), size) }).toEqual({ source, parsed: reference(source) });
  fc.assert(
    fc.property(
      value,
      fc.nat(),
      fc.constantFrom(...',:[]{}"\\ x0-.e'),
      fc.integer({ min: 1, max: 9 }),
      (v, at, inserted, size) => {
        const source = text(v, 1);
        const where = at % (source.length + 1);
        const broken = source.slice(0, where) + inserted + source.slice(where);
        expect(shape(parts(utf8(broken), size))).toEqual(shape(reference(broken)));
      },
    ),
    { numRuns: 3000, seed: 22 },
  );
});

test('a document nested a million deep is parsed without recursion', () => {
  const depth = 1_000_000;
  const parsed = parseJsonInParts(utf8(`${'['.repeat(depth)}${']'.repeat(depth)}`), 1 << 16);
  let level = 0;
  for (let at = parsed as unknown[]; at.length > 0; at = at[0] as unknown[]) level++;
  expect(level).toBe(depth - 1);
});
