import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either';
import { decode, encode } from '../src/index';
import {
  graphImage,
  graphObject,
  readGraph,
  writeGraph,
  type GraphImage,
  type GraphRestorer,
  type GraphSaver,
  type RestoreContext,
  type RestoreGenerator,
} from '../src/graph';
import { testBudget } from '@savekit/testkit';
import { checkLaws } from './laws';

// The big graphs: quick is five times the restorer's nesting limit (10,000) and far past any
// recursion depth, so a recursive walk would still overflow; heavy is the full million.
const BIG = testBudget({ quick: 50_000, heavy: 1_000_000 });

interface Node {
  id: number;
  refs: Array<Node | null>;
}

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const readU32 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(0, true);

const nodeSaver: GraphSaver<Node> = {
  kindOf: () => 'node',
  save(node, sink) {
    sink.writeData(u32(node.id));
    for (const ref of node.refs) sink.writeReference(ref);
  },
};
const nodeRestorer: GraphRestorer<Node> = {
  allocate: (kind, size) => (kind === 'node' && size === 4 ? { id: -1, refs: [] } : undefined),
  restore(node, ctx) {
    node.id = readU32(ctx.getObjectData()!);
    for (let k = 0; k < ctx.referenceCount; k++) node.refs.push(ctx.readReference());
  },
};

function ok<L, R>(result: E.Either<L, R>): R {
  if (E.isLeft(result)) throw new Error(String(result.left));
  return result.right;
}

/** Save, encode to bytes, decode, restore: the whole trip. */
function roundTrip(roots: Array<Node | null>): Array<Node | null> {
  const image = ok(writeGraph(roots, nodeSaver));
  const bytes = ok(encode(graphImage, image));
  const back = ok(decode(graphImage, bytes)).value;
  return ok(readGraph(back, nodeRestorer)).roots as Array<Node | null>;
}

/** Walks both graphs together; fails unless they are isomorphic with identity (sharing, cycles) kept. */
function expectSameShape(original: Array<Node | null>, restored: Array<Node | null>): number {
  const forward = new Map<Node, Node>();
  const backward = new Map<Node, Node>();
  const work: Array<[Node | null, Node | null]> = original.map((o, i) => [o, restored[i]!]);
  expect(restored.length).toBe(original.length);
  while (work.length > 0) {
    const [a, b] = work.pop()!;
    if (a === null || b === null) {
      if (a !== b) throw new Error('null mismatch');
      continue;
    }
    const seen = forward.get(a);
    if (seen !== undefined) {
      if (seen !== b) throw new Error(`node ${a.id}: sharing not kept`);
      continue;
    }
    if (backward.has(b)) throw new Error(`node ${a.id}: two originals became one`);
    forward.set(a, b);
    backward.set(b, a);
    if (a.id !== b.id || a.refs.length !== b.refs.length) throw new Error(`node ${a.id}: contents differ`);
    for (let k = 0; k < a.refs.length; k++) work.push([a.refs[k]!, b.refs[k]!]);
  }
  return forward.size;
}

describe('writing and reading graphs', () => {
  test('objects are numbered 1-based in visit order; shared objects once; cycles and self-references kept', () => {
    const a: Node = { id: 1, refs: [] };
    const b: Node = { id: 2, refs: [] };
    const c: Node = { id: 3, refs: [] };
    a.refs = [b, c, null];
    b.refs = [c, a]; // shared c, cycle back to a
    c.refs = [c]; // self-reference
    const image = ok(writeGraph([a, a], nodeSaver));
    expect(image.roots).toEqual([1, 1]);
    expect(graphObject(image, 1)).toEqual({ kind: 'node', size: 4, references: [2, 3, 0], segments: [u32(1)] });
    expect(graphObject(image, 2).references).toEqual([3, 1]);
    expect(graphObject(image, 3).references).toEqual([3]);
    const [ra, rb] = roundTrip([a, a]);
    expect(ra).toBe(rb);
    expect(expectSameShape([a], [ra!])).toBe(3);
    expect(ra!.refs[1]!.refs[0]).toBe(ra!.refs[1]); // c → c
  });

  test('externals are written by name and supplied by the application on load', () => {
    const engine: Node = { id: 99, refs: [] };
    const a: Node = { id: 1, refs: [engine, engine] };
    const image = ok(writeGraph([a], { ...nodeSaver, externalName: (n) => (n === engine ? 'engine' : undefined) }));
    expect(image.externals).toEqual(['engine']);
    expect(graphObject(image, 1).references).toEqual([-1, -1]);
    const appEngine: Node = { id: 1000, refs: [] };
    const restored = ok(
      readGraph(image, { ...nodeRestorer, external: (name) => (name === 'engine' ? appEngine : undefined) }),
    );
    expect((restored.roots[0] as Node).refs).toEqual([appEngine, appEngine]);
    const missing = readGraph(image, nodeRestorer);
    expect(E.isLeft(missing) && missing.left.message).toBe('external "engine" is not known to this application');
  });

  test("a saver's own number store is asked and told every number, and the image is the same", () => {
    const a: Node = { id: 1, refs: [] };
    const b: Node = { id: 2, refs: [] };
    const engine: Node = { id: 99, refs: [] };
    a.refs = [b, a, engine];
    b.refs = [a, engine];
    const told = new Map<Node, number>();
    const asked: Node[] = [];
    const externalName = (n: Node) => (n === engine ? 'engine' : undefined);
    const saver: GraphSaver<Node> = {
      ...nodeSaver,
      externalName,
      numbers: () => ({
        get: (n) => {
          asked.push(n);
          return told.get(n);
        },
        set: (n, number) => {
          expect(told.has(n)).toBe(false); // once per object
          told.set(n, number);
        },
      }),
    };
    const image = ok(writeGraph([a], saver));
    expect(image).toEqual(ok(writeGraph([a], { ...nodeSaver, externalName })));
    expect([...told]).toEqual([
      [a, 1],
      [b, 2],
      [engine, -1],
    ]);
    expect(asked).toEqual([a, b, a, engine, a, engine]);
  });

  test('segment data past several megabyte chunks, and a segment larger than one, joined in order', () => {
    interface Blob {
      bytes: Uint8Array;
      next: Blob | null;
    }
    // 40 segments of 100,000 bytes, then one of 3 MB, then small ones: chunks fill, one is skipped past.
    const sizes = [...Array.from({ length: 40 }, () => 100_000), 3_000_000, 7, 0, 1];
    let head: Blob | null = null;
    for (let i = sizes.length - 1; i >= 0; i--) {
      const bytes = new Uint8Array(sizes[i]!);
      for (let j = 0; j < bytes.length; j++) bytes[j] = (i * 31 + j) & 0xff;
      head = { bytes, next: head };
    }
    const image = ok(
      writeGraph<Blob>([head], {
        kindOf: () => 'blob',
        save(blob, sink) {
          sink.writeData(blob.bytes);
          sink.writeReference(blob.next);
        },
      }),
    );
    expect(image.data.length).toBe(sizes.reduce((x, y) => x + y, 0));
    let blob = head;
    for (let n = 1; blob !== null; n++, blob = blob.next) expect(graphObject(image, n).segments).toEqual([blob.bytes]);
  });

  test('writeData(bytes, length) takes the first length bytes of one scratch buffer reused for every object', () => {
    interface Item {
      bytes: Uint8Array;
      next: Item | null;
    }
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200, size: 'max' }), { minLength: 1, maxLength: 40 }), (list) => {
        let head: Item | null = null;
        for (let i = list.length - 1; i >= 0; i--) head = { bytes: list[i]!, next: head };
        // Larger than any segment and overwritten per object: what is past `length` is never taken.
        const scratch = new Uint8Array(256).fill(0xee);
        const image = ok(
          writeGraph<Item>([head], {
            kindOf: () => 'item',
            save(item, sink) {
              scratch.set(item.bytes);
              sink.writeData(scratch, item.bytes.length);
              sink.writeReference(item.next);
            },
          }),
        );
        let item = head;
        for (let n = 1; item !== null; n++, item = item.next)
          expect(graphObject(image, n).segments).toEqual([item.bytes]);
      }),
      { numRuns: 200 },
    );
    // A length that is not a prefix of the bytes given is refused, naming the object (by its number).
    for (const length of [-1, 1.5, 5, Number.NaN]) {
      const refused = writeGraph<{ id: number }>([{ id: 1 }], {
        kindOf: () => 'item',
        save: (_item, sink) => sink.writeData(new Uint8Array(4), length),
      });
      expect(E.isLeft(refused) && refused.left.message).toMatch(/length .* is not within the 4 bytes given/);
      expect(E.isLeft(refused) && refused.left.path).toEqual(['objects', 1]);
    }
  });

  test('property: random graphs up to 10,000 objects round-trip with identity preserved', () => {
    const graphs = fc.record({
      size: fc.integer({ min: 1, max: 10_000 }),
      density: fc.integer({ min: 0, max: 4 }),
      nulls: fc.boolean(),
      seed: fc.integer(),
      roots: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(graphs, ({ size, density, nulls, seed, roots }) => {
        let state = seed >>> 0;
        const next = () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          return state / 2 ** 32;
        };
        const nodes: Node[] = Array.from({ length: size }, (_, id) => ({ id, refs: [] }));
        for (const node of nodes) {
          const k = (next() * (density + 1)) | 0;
          for (let i = 0; i < k; i++) node.refs.push(nulls && next() < 0.2 ? null : nodes[(next() * size) | 0]!);
        }
        const rootNodes = Array.from({ length: roots }, () => nodes[(next() * size) | 0]!);
        expectSameShape(rootNodes, roundTrip(rootNodes));
      }),
      { numRuns: 150 },
    );
  });

  test(`a ${BIG.toLocaleString('en')}-node cyclic chain round-trips without a stack overflow`, () => {
    const count = BIG;
    const nodes: Node[] = Array.from({ length: count }, (_, id) => ({ id, refs: [] }));
    for (let i = 0; i < count; i++) nodes[i]!.refs.push(nodes[(i + 1) % count]!);
    const [head] = roundTrip([nodes[0]!]);
    let node = head!;
    for (let i = 0; i < count; i++) {
      if (node.id !== i) throw new Error(`node ${i} has id ${node.id}`);
      node = node.refs[0]!;
    }
    expect(node).toBe(head);
  });

  test(`a ${BIG.toLocaleString('en')}-node tree round-trips without a stack overflow`, () => {
    const count = BIG;
    const nodes: Node[] = Array.from({ length: count }, (_, id) => ({ id, refs: [] }));
    for (let i = 1; i < count; i++) nodes[(i - 1) >> 1]!.refs.push(nodes[i]!);
    const [root] = roundTrip([nodes[0]!]);
    let visited = 0;
    const work = [root!];
    while (work.length > 0) {
      const node = work.pop()!;
      visited++;
      for (const child of node.refs) work.push(child!);
    }
    expect(visited).toBe(count);
  });
});

describe('restoreFirst', () => {
  // A needs B's contents (its values) to finish; B refers back to A.
  interface Owner {
    kind: 'owner';
    name: string;
    table: Table | null;
    total: number;
  }
  interface Table {
    kind: 'table';
    values: number[];
    owner: Owner | null;
  }
  type Obj = Owner | Table;
  const saver: GraphSaver<Obj> = {
    kindOf: (o) => o.kind,
    save(o, sink) {
      if (o.kind === 'owner') {
        sink.writeData(new TextEncoder().encode(o.name));
        sink.writeReference(o.table);
      } else {
        sink.writeData(Uint8Array.from(o.values));
        sink.writeReference(o.owner);
      }
    },
  };
  const allocate = (kind: string): Obj | undefined =>
    kind === 'owner'
      ? { kind: 'owner', name: '', table: null, total: -1 }
      : kind === 'table'
        ? { kind: 'table', values: [], owner: null }
        : undefined;

  function sample(): Owner {
    const owner: Owner = { kind: 'owner', name: 'hero', table: null, total: 0 };
    const table: Table = { kind: 'table', values: [3, 4, 5], owner };
    owner.table = table;
    owner.total = 12;
    return owner;
  }

  /** A restorer that reads each object's data, then its references as the test says. */
  const restorerOf = (references: {
    owner(o: Owner, ctx: RestoreContext<Obj>): void;
    table(o: Table, ctx: RestoreContext<Obj>): void;
  }): GraphRestorer<Obj> => ({
    allocate,
    restore(o, ctx) {
      if (o.kind === 'owner') {
        o.name = new TextDecoder().decode(ctx.getObjectData());
        references.owner(o, ctx);
      } else {
        o.values = Array.from(ctx.getObjectData()!);
        references.table(o, ctx);
      }
    },
  });

  test('restoring A that needs B first, where B refers back to A: both come out right', () => {
    const statuses: string[] = [];
    const restorer = restorerOf({
      owner(o, ctx) {
        // Store all we can before restore_first, as the seed's rule says.
        o.table = ctx.readReference() as Table;
        statuses.push(ctx.restoreFirst(o.table));
        o.total = o.table.values.reduce((a, b) => a + b, 0); // needs B's contents
      },
      table(o, ctx) {
        o.owner = ctx.readReference() as Owner; // A: allocated, restore in progress
        statuses.push(`owner name seen by table: ${o.owner.name}`);
      },
    });
    const image = ok(writeGraph([sample()], saver));
    const owner = ok(readGraph(image, restorer)).roots[0] as Owner;
    expect(owner.total).toBe(12);
    expect(owner.table!.owner).toBe(owner);
    expect(statuses).toEqual(['owner name seen by table: hero', 'restored']);
  });

  test('a cycle of restoreFirst calls terminates, reporting in-progress', () => {
    const statuses: string[] = [];
    const restorer = restorerOf({
      owner(o, ctx) {
        o.table = ctx.readReferenceRestoringFirst() as Table;
      },
      table(o, ctx) {
        o.owner = ctx.readReference() as Owner;
        statuses.push(ctx.restoreFirst(o.owner)); // A is being restored: no recursion
      },
    });
    const owner = ok(readGraph(ok(writeGraph([sample()], saver)), restorer)).roots[0] as Owner;
    expect(statuses).toEqual(['in-progress']);
    expect(owner.table!.owner).toBe(owner);
  });

  test(`generator callbacks restore a ${BIG.toLocaleString('en')}-long chain of dependencies iteratively`, () => {
    // Each node's restore needs the next node's contents first (its depth), a chain of BIG.
    interface Link {
      depth: number;
      next: Link | null;
    }
    const count = BIG;
    let head: Link | null = null;
    for (let i = 0; i < count; i++) head = { depth: 0, next: head };
    const image = ok(writeGraph([head], { kindOf: () => 'link', save: (l, sink) => sink.writeReference(l.next) }));
    const restored = ok(
      readGraph<Link>(image, {
        allocate: () => ({ depth: -1, next: null }),
        *restore(link, ctx): RestoreGenerator<Link> {
          link.next = ctx.readReference();
          const status = yield link.next;
          link.depth = status === 'null' ? 1 : link.next!.depth + 1;
        },
      }),
    );
    expect((restored.roots[0] as Link).depth).toBe(count);
  });

  test('a plain restoreFirst chain past the depth limit is a DecodeError, not a stack overflow', () => {
    interface Link {
      next: Link | null;
    }
    let head: Link | null = null;
    for (let i = 0; i < 50_000; i++) head = { next: head };
    const image = ok(writeGraph([head], { kindOf: () => 'link', save: (l, sink) => sink.writeReference(l.next) }));
    const result = readGraph<Link>(image, {
      allocate: () => ({ next: null }),
      restore: (link, ctx) => {
        link.next = ctx.readReferenceRestoringFirst();
      },
      maxRestoreDepth: 1000,
    });
    expect(E.isLeft(result) && result.left.message).toBe(
      'restoreFirst nested deeper than 1000; write the restore callback as a generator',
    );
  });
});

describe('bad graphs', () => {
  const a: Node = { id: 1, refs: [] };
  const b: Node = { id: 2, refs: [a] };
  a.refs = [b];
  const good = ok(writeGraph([a], nodeSaver));

  const broken = (change: (image: { -readonly [K in keyof GraphImage]: GraphImage[K] }) => void): GraphImage => {
    const copy = {
      ...good,
      refs: good.refs.slice(),
      sizes: good.sizes.slice(),
      kindOf: good.kindOf.slice(),
      refStart: good.refStart.slice(),
    };
    change(copy);
    return copy;
  };
  const failure = (image: GraphImage, restorer: GraphRestorer<Node> = nodeRestorer) => {
    const result = readGraph(image, restorer);
    if (E.isRight(result)) throw new Error('expected a DecodeError');
    return result.left;
  };

  test('a reference to a number that does not exist', () => {
    const error = failure(
      broken((i) => {
        i.refs[1] = 7;
      }),
    );
    expect(error.path).toEqual(['objects', 2]);
    expect(error.message).toBe('reference 7 names no object (there are 2)');
  });

  test('the wrong kind or a size that does not match: the allocation is refused', () => {
    expect(
      failure(
        broken((i) => {
          i.sizes[0] = 5;
        }),
      ).toString(),
    ).toBe('at objects[1] (offset 0): no object can be allocated for kind "node"');
    const kinds = broken((i) => {
      i.kinds = ['node', 'table'];
    });
    kinds.kindOf[1] = 1;
    expect(failure(kinds).path).toEqual(['objects', 2]);
  });

  test('a restore callback that throws, or reads past its references', () => {
    const throwing = failure(good, {
      ...nodeRestorer,
      restore: (_node: Node, ctx: RestoreContext<Node>) => {
        if (ctx.number === 2) throw new TypeError('boom');
      },
    });
    expect(throwing.toString()).toBe('at objects[2] (offset 0): restoring object 2: boom');
    const greedy = failure(good, {
      ...nodeRestorer,
      restore: (_node: Node, ctx: RestoreContext<Node>) => {
        ctx.readReference();
        ctx.readReference();
      },
    });
    expect(greedy.message).toBe('read past the last of its 1 references');
    expect(greedy.path).toEqual(['objects', 1]);
  });

  test('a reference to an object of the wrong kind, when the restorer says which kind it expects', () => {
    const error = failure(good, {
      ...nodeRestorer,
      restore: (_node: Node, ctx: RestoreContext<Node>) => void ctx.readReference('table'),
    });
    expect(error.toString()).toBe(
      'at objects[1] (offset 0): object 1\'s reference 1 of 1 is to object 2 of kind "node", expected "table"',
    );
    // Object 2's own first reference, not the second reference of the image.
    const second = failure(good, {
      ...nodeRestorer,
      restore: (_node: Node, ctx: RestoreContext<Node>) => {
        if (ctx.number === 2) ctx.readReference('table');
        else ctx.readReference();
      },
    });
    expect(second.toString()).toBe(
      'at objects[2] (offset 0): object 2\'s reference 1 of 1 is to object 1 of kind "node", expected "table"',
    );
  });

  test('an error thrown while allocating keeps the path of the object being allocated', () => {
    const error = failure(good, {
      ...nodeRestorer,
      allocate: (_kind, _size, n) => {
        if (n === 2) throw new RangeError('no room');
        return { id: 0, refs: [] };
      },
    });
    expect(error.toString()).toBe('at objects[2] (offset 0): allocating object 2: no room');
  });

  test('malformed columns are refused before anything is indexed', () => {
    expect(
      failure(
        broken((i) => {
          i.refStart[1] = 9;
        }),
      ).message,
    ).toMatch(/^malformed graph image/);
  });

  test('graphObject refuses a number that names no object, and a kind index outside the kinds', () => {
    const thrown = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error('expected a throw');
    };
    for (const n of [0, 3, -1, 1.5, Number.NaN])
      expect(String(thrown(() => graphObject(good, n)))).toBe(`RangeError: object ${n} is not in the graph (1 to 2)`);
    // An image decoded from a file has its kind indexes checked only by readGraph.
    const kindless = broken((i) => {
      i.kindOf[1] = 4;
    });
    expect(graphObject(kindless, 1).kind).toBe('node');
    expect(String(thrown(() => graphObject(kindless, 2)))).toBe(
      'at objects[2] (offset 0): malformed graph image: object 2 has kind 4 of 1',
    );
  });

  test('the image codec refuses hostile counts before allocating, and truncation everywhere', () => {
    const bytes = ok(encode(graphImage, good));
    const hostile = bytes.slice();
    new DataView(hostile.buffer).setUint32(0, 0xffffffff, true);
    const r = decode(graphImage, hostile);
    expect(E.isLeft(r) && r.left.message).toMatch(/do not fit in the \d+ bytes left/);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(E.isLeft(decode(graphImage, bytes.subarray(0, cut)))).toBe(true);
  });
});

describe('the graph image codec', () => {
  test('obeys both laws (1,000 cases each), on images of random graphs with externals', () => {
    const images = fc
      .record({ size: fc.integer({ min: 0, max: 40 }), seed: fc.integer(), externals: fc.boolean() })
      .map(({ size, seed, externals }) => {
        let state = seed >>> 0;
        const next = () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          return state / 2 ** 32;
        };
        const nodes: Node[] = Array.from({ length: size }, (_, id) => ({ id, refs: [] }));
        const engine: Node = { id: -1, refs: [] };
        for (const node of nodes) {
          const k = (next() * 3) | 0;
          for (let i = 0; i < k; i++)
            node.refs.push(next() < 0.1 ? null : externals && next() < 0.2 ? engine : nodes[(next() * size) | 0]!);
        }
        return ok(
          writeGraph(nodes.slice(0, 2), { ...nodeSaver, externalName: (n) => (n === engine ? 'engine' : undefined) }),
        );
      });
    checkLaws(graphImage, images, {
      equal: (a, b) => expect(ok(encode(graphImage, a))).toEqual(ok(encode(graphImage, b))),
    });
  });
});
