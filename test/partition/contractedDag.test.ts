/**
 * ContractedDag answers "does contracting this set close a cycle?" from a window of its kept
 * topological order. Checked against a whole-graph check (a depth-first search over the
 * contracted graph) on random DAGs, through random sequences of contractions.
 */
import fc from 'fast-check';
import { GraphFunction, GraphNode } from '../../src/ir/graph/types';
import { ContractedDag } from '../../src/partition/contractedDag';
import { FunctionView } from '../../src/partition/dataflow';

const TYPE = { shape: [1], dtype: 'int8' as const };

/** A function of `argLists.length` nodes; node i reads the earlier nodes argLists[i] names. */
function dagFunction(argLists: readonly number[][]): GraphFunction {
  const nodes: GraphNode[] = argLists.map((args, i) =>
    args.length === 0
      ? { kind: 'var', name: `n${i}`, type: TYPE }
      : { kind: 'call', name: `n${i}`, callee: { kind: 'op', op: 'ADD' }, args: args.map((a) => `n${a}`), attrs: {}, type: TYPE },
  );
  return { name: 'main', params: nodes.filter((n) => n.kind === 'var').map((n) => n.name), nodes, outputs: [`n${argLists.length - 1}`], attrs: {} };
}

/** Whether the graph with `groupOf`'s groups and `members` each contracted has a cycle. */
function hasCycleWhole(fn: GraphFunction, groupOf: readonly number[], members: ReadonlySet<number>): boolean {
  const n = fn.nodes.length;
  const key = (i: number): number => (members.has(i) ? -1 : groupOf[i]);
  const succ = new Map<number, Set<number>>();
  fn.nodes.forEach((node, i) => {
    if (node.kind !== 'call') return;
    for (const a of node.args) {
      const from = key(Number(a.slice(1)));
      const to = key(i);
      if (from === to) continue;
      if (!succ.has(from)) succ.set(from, new Set());
      succ.get(from)!.add(to);
    }
  });
  const state = new Map<number, 1 | 2>();
  const keys = new Set(Array.from({ length: n }, (_, i) => key(i)));
  for (const root of keys) {
    if (state.has(root)) continue;
    // Iterative DFS: 1 = on the current path, 2 = finished.
    const stack: Array<[number, number[]]> = [[root, [...(succ.get(root) ?? [])]]];
    state.set(root, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const next = top[1].pop();
      if (next === undefined) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const s = state.get(next);
      if (s === 1) return true;
      if (s === undefined) {
        state.set(next, 1);
        stack.push([next, [...(succ.get(next) ?? [])]]);
      }
    }
  }
  return false;
}

const dagArb = fc
  .integer({ min: 2, max: 40 })
  .chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        i === 0 ? fc.constant([] as number[]) : fc.uniqueArray(fc.integer({ min: 0, max: i - 1 }), { maxLength: Math.min(i, 3) }),
      ),
    ),
  );

describe('ContractedDag', () => {
  it('agrees with a whole-graph cycle check through random contractions', () => {
    fc.assert(
      fc.property(
        dagArb,
        fc.array(fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.boolean()), { maxLength: 30 }),
        (argLists, steps) => {
          const fn = dagFunction(argLists);
          const dag = new ContractedDag(new FunctionView(fn));
          const n = fn.nodes.length;
          const groupOf = Array.from({ length: n }, (_, i) => i);
          for (const [picks, accept] of steps) {
            const members = new Set(picks.map((p) => p % n));
            // The candidate takes in the whole groups its nodes belong to, as the partitioner's sets do.
            const touched = new Set([...members].map((m) => groupOf[m]));
            for (let i = 0; i < n; i++) if (touched.has(groupOf[i])) members.add(i);
            const names = [...members].map((m) => `n${m}`);
            const expected = !hasCycleWhole(fn, groupOf, members);
            expect(dag.isConvex(names)).toBe(expected);
            if (expected && accept) {
              dag.contract(names);
              const g = Math.min(...members);
              for (const m of members) groupOf[m] = g;
            }
          }
        },
      ),
      { seed: 24, numRuns: 400 },
    );
  });

  it('refuses a contraction that closes a cycle', () => {
    // n0 -> n1 -> n2 and n0 -> n2: contracting {n0, n2} leaves n1 on a path out and back.
    const dag = new ContractedDag(new FunctionView(dagFunction([[], [0], [0, 1]])));
    expect(dag.isConvex(['n0', 'n2'])).toBe(false);
    expect(() => dag.contract(['n0', 'n2'])).toThrow(/would create a cycle/);
    expect(dag.isConvex(['n0', 'n1'])).toBe(true);
    dag.contract(['n0', 'n1']);
    expect(dag.isConvex(['n0', 'n2'])).toBe(true);
  });

  it('a 20,000-node chain contracts pairwise; skipping a node is never convex', () => {
    const n = 20000;
    const fn = dagFunction(Array.from({ length: n }, (_, i) => (i === 0 ? [] : [i - 1])));
    const dag = new ContractedDag(new FunctionView(fn));
    // Pairs (2k, 2k+1) contract; skipping over a node is never convex on a chain.
    for (let k = 0; k + 1 < n; k += 2) {
      expect(dag.isConvex([`n${k}`, `n${k + 2 < n ? k + 2 : k + 1}`])).toBe(k + 2 >= n);
      dag.contract([`n${k}`, `n${k + 1}`]);
    }
    expect(dag.isConvex(['n0', 'n1', 'n2', 'n3'])).toBe(true);
  });
});
