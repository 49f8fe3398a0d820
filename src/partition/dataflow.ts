/**
 * Producer/consumer queries over one graph function (the partitioner's cycle check over
 * contracted groups is ContractedDag, contractedDag.ts).
 */
import { LoweringError } from '../errors';
import { GraphFunction, GraphNode } from '../ir/graph/types';

/** An empty argument name stands for an omitted optional argument (the interpreter agrees). */
export const OMITTED_ARG = '';

export class FunctionView {
  private readonly byName = new Map<string, GraphNode>();
  private readonly positions = new Map<string, number>();
  private readonly consumerLists = new Map<string, string[]>();
  private readonly outputSet: ReadonlySet<string>;

  constructor(readonly fn: GraphFunction) {
    fn.nodes.forEach((n, i) => {
      this.byName.set(n.name, n);
      this.positions.set(n.name, i);
      this.consumerLists.set(n.name, []);
    });
    for (const n of fn.nodes) {
      if (n.kind !== 'call') continue;
      for (const a of new Set(n.args)) {
        if (a === OMITTED_ARG) continue;
        const list = this.consumerLists.get(a);
        if (list === undefined) {
          throw new LoweringError(`function '${fn.name}': call '${n.name}' uses unknown node '${a}'`, {
            func: fn.name,
            op: n.name,
          });
        }
        list.push(n.name);
      }
    }
    this.outputSet = new Set(fn.outputs);
  }

  node(name: string): GraphNode {
    const n = this.byName.get(name);
    if (n === undefined) throw new LoweringError(`function '${this.fn.name}' has no node '${name}'`, { func: this.fn.name });
    return n;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Calls that use `name`'s value, each once, in topological order. */
  consumers(name: string): readonly string[] {
    return this.consumerLists.get(name) ?? [];
  }

  /** Whether the function returns `name`'s value. */
  isOutput(name: string): boolean {
    return this.outputSet.has(name);
  }

  position(name: string): number {
    const p = this.positions.get(name);
    if (p === undefined) throw new LoweringError(`function '${this.fn.name}' has no node '${name}'`, { func: this.fn.name });
    return p;
  }
}

/**
 * Orders nodes so that every call follows its arguments, keeping the given order wherever
 * it is already valid (stable Kahn's algorithm).
 */
export function topoSort(nodes: readonly GraphNode[], func = '<function>'): GraphNode[] {
  const names = new Set(nodes.map((n) => n.name));
  const pending = new Map<string, number>();
  const consumers = new Map<string, string[]>();
  for (const n of nodes) {
    const deps = n.kind === 'call' ? [...new Set(n.args)].filter((a) => names.has(a)) : [];
    pending.set(n.name, deps.length);
    for (const d of deps) {
      const list = consumers.get(d) ?? [];
      list.push(n.name);
      consumers.set(d, list);
    }
  }
  const order = new Map(nodes.map((n, i) => [n.name, i] as const));
  const byName = new Map(nodes.map((n) => [n.name, n] as const));
  // The ready nodes as a binary min-heap by original position: sorting the whole ready list at
  // every step was quadratic where many nodes are ready at once (10,000 operators reading one
  // input: 4 s of a compile).
  const ready: string[] = [];
  const rank = (name: string): number => order.get(name) as number;
  const push = (name: string): void => {
    let i = ready.push(name) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (rank(ready[parent]) <= rank(ready[i])) break;
      [ready[parent], ready[i]] = [ready[i], ready[parent]];
      i = parent;
    }
  };
  const pop = (): string => {
    const top = ready[0];
    const last = ready.pop() as string;
    if (ready.length > 0) {
      ready[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < ready.length && rank(ready[l]) < rank(ready[m])) m = l;
        if (r < ready.length && rank(ready[r]) < rank(ready[m])) m = r;
        if (m === i) break;
        [ready[m], ready[i]] = [ready[i], ready[m]];
        i = m;
      }
    }
    return top;
  };
  for (const n of nodes) if (pending.get(n.name) === 0) push(n.name);
  const out: GraphNode[] = [];
  while (ready.length > 0) {
    const next = pop();
    out.push(byName.get(next) as GraphNode);
    for (const c of consumers.get(next) ?? []) {
      const left = (pending.get(c) as number) - 1;
      pending.set(c, left);
      if (left === 0) push(c);
    }
  }
  if (out.length !== nodes.length) {
    throw new LoweringError(`function '${func}': dataflow has a cycle after partitioning`, { func });
  }
  return out;
}
