/**
 * A graphlib view of a GraphFunction (one graph node per IR node, one edge per argument use)
 * for ordering, cycle detection and producer/consumer queries, plus helpers that derive new
 * IRModules without mutating the old one.
 */
import { Graph } from '@dagrejs/graphlib';
import { GraphStructureError } from '../../errors';
import { findCycleFrom } from '../../util/cycle';
import { CallNode, GraphFunction, GraphNode, IRModule } from './types';

export type DataflowGraph = Graph<string, GraphNode, { argIndex: number }>;

/** Nodes by name; a duplicate name is a GraphStructureError. */
export function nodeByName(fn: GraphFunction): Map<string, GraphNode> {
  const map = new Map<string, GraphNode>();
  for (const node of fn.nodes) {
    if (map.has(node.name)) {
      throw new GraphStructureError(`function ${fn.name} has two nodes named '${node.name}'`, { func: fn.name });
    }
    map.set(node.name, node);
  }
  return map;
}

/**
 * The dataflow graph: an edge producer → call per argument (a multigraph, so `add(x, x)`
 * keeps both uses, each edge named by its argument index). Unknown argument or output
 * names are GraphStructureErrors.
 */
export function toDataflowGraph(fn: GraphFunction): DataflowGraph {
  const nodes = nodeByName(fn);
  const g: DataflowGraph = new Graph({ directed: true, multigraph: true });
  g.setGraph(fn.name);
  for (const node of fn.nodes) g.setNode(node.name, node);
  for (const node of fn.nodes) {
    if (node.kind !== 'call') continue;
    node.args.forEach((arg, argIndex) => {
      if (!nodes.has(arg)) {
        throw new GraphStructureError(`call '${node.name}' in function ${fn.name} uses unknown node '${arg}'`, {
          func: fn.name,
          op: node.name,
        });
      }
      g.setEdge(arg, node.name, { argIndex }, String(argIndex));
    });
  }
  for (const name of [...fn.params, ...fn.outputs]) {
    if (!nodes.has(name)) {
      throw new GraphStructureError(`function ${fn.name} names unknown node '${name}' as a param or output`, {
        func: fn.name,
      });
    }
  }
  return g;
}

/**
 * Per node (by position in `fn.nodes`), the positions of the calls using its value, once per
 * use. Unknown names are GraphStructureErrors (toDataflowGraph's checks).
 */
function usesByPosition(fn: GraphFunction): number[][] {
  toDataflowGraph(fn);
  const position = new Map(fn.nodes.map((n, i) => [n.name, i] as const));
  const uses: number[][] = fn.nodes.map(() => []);
  fn.nodes.forEach((node, i) => {
    if (node.kind === 'call') for (const a of node.args) uses[position.get(a)!].push(i);
  });
  return uses;
}

/**
 * One cycle as a path `[a, b, ..., a]` starting at its least name, or null when the function
 * is acyclic (`findCycleFrom`, no recursion: graphlib's cycle search recursed
 * once per node of a path and overflowed the stack on a 20,000-operator chain).
 */
export function findCycle(fn: GraphFunction): string[] | null {
  const cycle = findCycleFrom(usesByPosition(fn), fn.nodes.keys());
  if (cycle === null) return null;
  const names = cycle.slice(0, -1).map((i) => fn.nodes[i].name);
  const least = names.indexOf([...names].sort()[0]);
  const rotated = [...names.slice(least), ...names.slice(0, least)];
  return [...rotated, rotated[0]];
}

export function assertAcyclic(fn: GraphFunction): void {
  const cycle = findCycle(fn);
  if (cycle) {
    throw new GraphStructureError(`function ${fn.name} has a cycle: ${cycle.join(' -> ')}`, { func: fn.name });
  }
}

/**
 * `nodes` ordered so that every call follows those of its arguments that are among them,
 * keeping the given order wherever it is already valid: Kahn's algorithm taking the
 * earliest-listed ready node, from a binary heap (sorting the ready list at every step was
 * quadratic where many nodes are ready at once). Nodes on or behind a cycle are left out, so
 * a shorter result means a cycle.
 */
export function stableTopologicalNodes(nodes: readonly GraphNode[]): GraphNode[] {
  const position = new Map(nodes.map((n, i) => [n.name, i] as const));
  const pending = new Int32Array(nodes.length);
  const uses: number[][] = nodes.map(() => []);
  nodes.forEach((n, i) => {
    if (n.kind !== 'call') return;
    for (const a of new Set(n.args)) {
      const p = position.get(a);
      if (p === undefined) continue;
      pending[i]++;
      uses[p].push(i);
    }
  });
  // The heap holds positions, so the earliest-listed ready node is its least entry.
  const heap: number[] = [];
  const push = (v: number): void => {
    let i = heap.push(v) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= v) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = v;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const c = l + 1 < heap.length && heap[l + 1] < heap[l] ? l + 1 : l;
        if (heap[c] >= last) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  nodes.forEach((_, i) => {
    if (pending[i] === 0) push(i);
  });
  const out: GraphNode[] = [];
  while (heap.length > 0) {
    const v = pop();
    out.push(nodes[v]);
    for (const u of uses[v]) if (--pending[u] === 0) push(u);
  }
  return out;
}

/**
 * Node names in a topological order that keeps the listed order wherever it is already
 * valid (stableTopologicalNodes). A cycle is an error.
 */
export function topologicalOrder(fn: GraphFunction): string[] {
  toDataflowGraph(fn);
  const order = stableTopologicalNodes(fn.nodes);
  if (order.length < fn.nodes.length) assertAcyclic(fn);
  return order.map((n) => n.name);
}

/** The same function with its nodes listed in `topologicalOrder`. */
export function sortTopologically(fn: GraphFunction): GraphFunction {
  const nodes = nodeByName(fn);
  return { ...fn, nodes: topologicalOrder(fn).map((name) => nodes.get(name)!) };
}

/** The node that defines `name` (param, constant or call), or undefined. */
export function producerOf(fn: GraphFunction, name: string): GraphNode | undefined {
  return fn.nodes.find((n) => n.name === name);
}

/** The calls that take `name` as an argument, in node order, each once. */
export function consumersOf(fn: GraphFunction, name: string): CallNode[] {
  return fn.nodes.filter((n): n is CallNode => n.kind === 'call' && n.args.includes(name));
}

/** A new module with `fn` added or replacing the function of the same name. */
export function withFunction(module: IRModule, fn: GraphFunction): IRModule {
  const functions = new Map(module.functions);
  functions.set(fn.name, fn);
  return { ...module, functions };
}

/** A new module whose functions are `f` of each function (keyed by the result's name). */
export function mapFunctions(module: IRModule, f: (fn: GraphFunction) => GraphFunction): IRModule {
  const functions = new Map<string, GraphFunction>();
  for (const fn of module.functions.values()) {
    const mapped = f(fn);
    if (functions.has(mapped.name)) {
      throw new GraphStructureError(`mapFunctions produced two functions named ${mapped.name}`, { func: mapped.name });
    }
    functions.set(mapped.name, mapped);
  }
  return { ...module, functions };
}
