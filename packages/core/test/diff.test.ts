import fc from 'fast-check';
import { diffDocuments, formatPath, type DocumentDifference, type PathSegment } from '@savekit/core';
import { documentChild, documentKeys, isDocumentBranch, sameDocumentLeaf } from '@savekit/core/kit';

/** The differences by the definition, recursively: every key of both sides, looked up one by one. */
function reference(a: unknown, b: unknown, path: PathSegment[] = []): DocumentDifference[] {
  if (Object.is(a, b)) return [];
  if (isDocumentBranch(a) && isDocumentBranch(b) && Array.isArray(a) === Array.isArray(b)) {
    const left = documentKeys(a);
    const right = documentKeys(b);
    const out: DocumentDifference[] = [];
    for (const key of [...left, ...right.filter((k) => !left.includes(k))]) {
      const x = documentChild(a, key);
      const y = documentChild(b, key);
      const at = formatPath([...path, key]);
      if (!right.includes(key)) out.push({ path: at, kind: 'removed', before: x });
      else if (!left.includes(key)) out.push({ path: at, kind: 'added', after: y });
      else out.push(...reference(x, y, [...path, key]));
    }
    return out;
  }
  return sameDocumentLeaf(a, b) ? [] : [{ path: formatPath(path), kind: 'changed', before: a, after: b }];
}

/** Small documents of every kind of node: objects, arrays, maps, bytes and awkward leaves. */
const { node: documentArbitrary } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom(Number.NaN, -0, 'x', null, true, 5n),
      fc.uint8Array({ maxLength: 2 }),
    ),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'toString'), tie('node'), { maxKeys: 4 }),
    fc.array(tie('node'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom<string | number>('k', 1, '1'), tie('node')), { maxLength: 3 })
      .map((e) => new Map(e)),
  ),
}));

/**
 * A second document made from `doc` by `choices`: mostly a rebuilt copy (same keys, new objects), at
 * times the very node, a changed leaf, a dropped, added or reordered key.
 */
function perturb(doc: unknown, choices: number[]): unknown {
  let next = 0;
  const choose = () => choices[next++ % choices.length]! % 10;
  const walk = (node: unknown): unknown => {
    const choice = choose();
    if (choice === 0) return node;
    if (!isDocumentBranch(node) || node instanceof Uint8Array) return choice === 1 ? 'changed' : node;
    if (Array.isArray(node)) {
      const copy = node.map(walk);
      if (choice === 2) copy.pop();
      if (choice === 3) copy.push('added');
      return copy;
    }
    if (node instanceof Map) {
      const copy = new Map([...node].map(([k, v]) => [k, walk(v)]));
      if (choice === 2) copy.delete([...copy.keys()][0]);
      return copy;
    }
    const entries = Object.entries(node).map(([k, v]) => [k, walk(v)] as const);
    if (choice === 2) entries.shift();
    if (choice === 3) entries.push(['added', 1]);
    if (choice === 4) entries.reverse();
    return Object.fromEntries(entries);
  };
  return walk(doc);
}

describe('diffDocuments', () => {
  test('equal documents, shared or rebuilt, have no differences', () => {
    const doc = { name: 'Ann', hp: 3n, blob: Uint8Array.of(1, 2), party: [{ x: 1 }, { x: NaN }] };
    expect(diffDocuments(doc, doc)).toEqual([]);
    expect(diffDocuments(doc, structuredClone(doc))).toEqual([]);
    expect(diffDocuments(null, null)).toEqual([]);
  });

  test('the walk gives the differences the definition gives, for rebuilt copies and edited ones', () => {
    fc.assert(
      fc.property(documentArbitrary, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (doc, choices) => {
        const other = perturb(doc, choices);
        expect(diffDocuments(doc, other)).toEqual(reference(doc, other));
        expect(diffDocuments(other, doc)).toEqual(reference(other, doc));
      }),
      { numRuns: 1000, seed: 12 },
    );
  });

  test('a changed leaf is named by its document path', () => {
    expect(diffDocuments({ party: [{ hp: 3 }, { hp: 4 }] }, { party: [{ hp: 3 }, { hp: 5 }] })).toEqual([
      { path: 'party[1].hp', kind: 'changed', before: 4, after: 5 },
    ]);
    expect(diffDocuments(1, 2)).toEqual([{ path: '(root)', kind: 'changed', before: 1, after: 2 }]);
  });

  test('elements and fields only one side has are added or removed, with their whole value', () => {
    expect(diffDocuments({ items: [1, 2, 3], old: { a: 1 } }, { items: [1], fresh: [7] })).toEqual([
      { path: 'items[1]', kind: 'removed', before: 2 },
      { path: 'items[2]', kind: 'removed', before: 3 },
      { path: 'old', kind: 'removed', before: { a: 1 } },
      { path: 'fresh', kind: 'added', after: [7] },
    ]);
    expect(diffDocuments([1], [1, { b: 2 }])).toEqual([{ path: '[1]', kind: 'added', after: { b: 2 } }]);
  });

  test('the differences come in document order, nested changes before later siblings', () => {
    const paths = diffDocuments({ a: { b: [1, 2] }, c: 1, d: 0 }, { a: { b: [9] }, c: 2, e: 0 }).map(
      (d) => `${d.kind} ${d.path}`,
    );
    expect(paths).toEqual(['changed a.b[0]', 'removed a.b[1]', 'changed c', 'removed d', 'added e']);
  });

  test('bytes compare by content, bigints by value, NaN equals NaN, -0 differs from 0', () => {
    expect(diffDocuments({ b: Uint8Array.of(1, 2), n: 5n, f: NaN }, { b: Uint8Array.of(1, 2), n: 5n, f: NaN })).toEqual(
      [],
    );
    expect(diffDocuments({ b: Uint8Array.of(1, 2), n: 5n, z: 0 }, { b: Uint8Array.of(1, 3), n: 6n, z: -0 })).toEqual([
      { path: 'b', kind: 'changed', before: Uint8Array.of(1, 2), after: Uint8Array.of(1, 3) },
      { path: 'n', kind: 'changed', before: 5n, after: 6n },
      { path: 'z', kind: 'changed', before: 0, after: -0 },
    ]);
    // A view over part of a larger buffer compares by the bytes it sees.
    const big = Uint8Array.of(0, 1, 2, 0);
    expect(diffDocuments(big.subarray(1, 3), Uint8Array.of(1, 2))).toEqual([]);
    expect(diffDocuments(Uint16Array.of(1), Uint8Array.of(1, 0))).toHaveLength(1);
  });

  test('maps pair entries by key; a branch turned leaf or array turned object changes whole', () => {
    const before = new Map<string | number, unknown>([
      ['a', 1],
      [2, 'x'],
    ]);
    const after = new Map<string | number, unknown>([
      ['a', 1],
      [2, 'y'],
      ['c', true],
    ]);
    expect(diffDocuments(before, after)).toEqual([
      { path: '[2]', kind: 'changed', before: 'x', after: 'y' },
      { path: 'c', kind: 'added', after: true },
    ]);
    expect(diffDocuments({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
    expect(diffDocuments({ a: { x: 1 } }, { a: null })).toEqual([
      { path: 'a', kind: 'changed', before: { x: 1 }, after: null },
    ]);
  });

  test('only own fields count: a field named like an Object method is added and removed', () => {
    expect(diffDocuments({ toString: 1 }, { constructor: 2 })).toEqual([
      { path: 'toString', kind: 'removed', before: 1 },
      { path: 'constructor', kind: 'added', after: 2 },
    ]);
  });

  test('a document nested 200,000 deep is walked without recursion', () => {
    const nest = (leaf: number) => {
      let doc: unknown = leaf;
      for (let i = 0; i < 200_000; i++) doc = i % 2 === 0 ? { n: doc } : [doc];
      return doc;
    };
    const differences = diffDocuments(nest(1), nest(2));
    expect(differences).toHaveLength(1);
    expect(differences[0]).toMatchObject({ kind: 'changed', before: 1, after: 2 });
    expect(differences[0]!.path.startsWith('[0].n[0].n')).toBe(true);
    expect(differences[0]!.path.endsWith('[0].n')).toBe(true);
  });

  test('a shared subtree is not walked', () => {
    let visited = 0;
    const shared = new Proxy(
      { big: 1 },
      {
        ownKeys: (target) => {
          visited++;
          return Reflect.ownKeys(target);
        },
      },
    );
    expect(diffDocuments({ shared, hp: 1 }, { shared, hp: 2 })).toHaveLength(1);
    expect(visited).toBe(0);
  });
});

describe('document nodes', () => {
  test('branches are arrays, maps and objects; bytes, typed arrays and dates are leaves', () => {
    expect([[], new Map(), {}].map(isDocumentBranch)).toEqual([true, true, true]);
    expect([Uint8Array.of(1), new Float32Array(1), new Date(0), 1n, 'a', null].map(isDocumentBranch)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(documentKeys(['a', 'b'])).toEqual([0, 1]);
    expect(
      documentKeys(
        new Map<unknown, unknown>([
          ['k', 1],
          [{}, 2],
          [3, 4],
        ]),
      ),
    ).toEqual(['k', 3]);
    expect(documentChild(new Map([['3', 'by text']]), 3)).toBe('by text');
    expect(documentChild({}, 'toString')).toBeUndefined();
    expect(sameDocumentLeaf(new Date(5), new Date(5))).toBe(true);
    expect(sameDocumentLeaf(Uint8Array.of(1), Int8Array.of(1))).toBe(false);
  });
});
