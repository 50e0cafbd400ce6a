// The reread that write checks read their bytes back with (reader.ts): a state as fresh as a new one
// on every call, however the last call left it, and one of its own for a reread inside another.
import { Reader, ReadState, reread } from '../src/reader';
import { resolveDecodeOptions } from '../src/options';

describe('reread', () => {
  const bytes = Uint8Array.of(1, 2, 3, 4);
  const view = new DataView(bytes.buffer);

  test('each call starts from an empty path, no warnings, context or spent budget, at the window given', () => {
    const seen = reread(bytes, 1, 3, view, (r) => {
      r.state.path.push('dirty', 1);
      r.warn('some-warning', 'left behind');
      r.state.context.set('key', 'value');
      r.work(5);
      r.state.depth = 3;
      return { state: r.state, at: r.pos, end: r.end, byte: r.bytes[r.pos] };
    });
    expect(seen).toMatchObject({ at: 1, end: 3, byte: 2 });
    const again = reread(bytes, 0, 4, view, (r) => ({
      state: r.state,
      path: [...r.state.path],
      warnings: r.state.warnings.length,
      context: r.state.context.size,
      work: r.state.budget.workSpent,
      depth: r.state.depth,
    }));
    expect(again).toMatchObject({ path: [], warnings: 0, context: 0, work: 0, depth: 0 });
    // Even after a read that threw.
    expect(() =>
      reread(bytes, 0, 4, view, (r) => {
        r.state.path.push('x');
        throw r.error('failed');
      }),
    ).toThrow('failed');
    expect(reread(bytes, 0, 4, view, (r) => r.state.path.length)).toBe(0);
  });

  test('a reread inside another has a state of its own', () => {
    reread(bytes, 0, 4, view, (outer) => {
      outer.state.path.push('outer');
      const inner = reread(bytes, 2, 4, view, (r) => r.state);
      expect(inner).not.toBe(outer.state);
      expect(outer.state.path).toEqual(['outer']);
    });
  });
});

describe('ReadState.empty', () => {
  test('leaves the state as a new one with the same options: nothing kept, nothing spent', () => {
    const state = new ReadState(resolveDecodeOptions({ trace: true }));
    const fresh = new ReadState(resolveDecodeOptions({ trace: true }));
    const r = new Reader(Uint8Array.of(1, 2, 3), state);
    state.path.push('field', 2);
    r.warn('some-warning', 'left behind');
    state.depth = 3;
    state.arenas.push({});
    state.layers = 2;
    state.context.set('key', 1);
    state.deferred.push(() => {});
    state.budget.spendWork(100, [], 0);
    state.empty();
    // Every field but the budget (compared by what it has spent) equals a new state's: a field added
    // to ReadState later and left out of empty() fails here.
    const { budget, ...rest } = state;
    const { budget: freshBudget, ...freshRest } = fresh;
    expect(rest).toEqual(freshRest);
    expect([budget.workSpent, budget.outputSpent]).toEqual([freshBudget.workSpent, freshBudget.outputSpent]);
  });
});
