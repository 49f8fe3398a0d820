/**
 * Producer/consumer queries over one graph function (the partitioner's cycle check over
 * contracted groups is ContractedDag, contractedDag.ts).
 */
import { LoweringError } from '../errors';
import { stableTopologicalNodes } from '../ir/graph/graph';
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
 * it is already valid (stable Kahn's algorithm); a cycle is a LoweringError.
 */
export function topoSort(nodes: readonly GraphNode[], func = '<function>'): GraphNode[] {
  const out = stableTopologicalNodes(nodes);
  if (out.length !== nodes.length) {
    throw new LoweringError(`function '${func}': dataflow has a cycle after partitioning`, { func });
  }
  return out;
}
