/**
 * A graphlib view of a GraphFunction (one graph node per IR node, one edge per argument use)
 * for ordering, cycle detection and producer/consumer queries, plus helpers that derive new
 * IRModules without mutating the old one.
 */
import { alg, Graph } from '@dagrejs/graphlib';
import { GraphStructureError } from '../../errors';
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

/** One cycle as a path `[a, b, ..., a]`, or null when the function is acyclic. */
export function findCycle(fn: GraphFunction): string[] | null {
  const g = toDataflowGraph(fn);
  const selfLoop = g.edges().find((e) => e.v === e.w);
  if (selfLoop) return [selfLoop.v, selfLoop.v];
  const components = alg.findCycles(g);
  if (components.length === 0) return null;
  // findCycles yields a strongly connected component; walk it to get an ordered cycle.
  const component = new Set(components[0]);
  const path: string[] = [];
  const seen = new Map<string, number>();
  let current = [...component].sort()[0];
  while (!seen.has(current)) {
    seen.set(current, path.length);
    path.push(current);
    const next = (g.successors(current) ?? []).filter((s) => component.has(s)).sort()[0];
    current = next;
  }
  return [...path.slice(seen.get(current)), current];
}

export function assertAcyclic(fn: GraphFunction): void {
  const cycle = findCycle(fn);
  if (cycle) {
    throw new GraphStructureError(`function ${fn.name} has a cycle: ${cycle.join(' -> ')}`, { func: fn.name });
  }
}

/**
 * Node names in a topological order that keeps the listed order wherever it is already
 * valid (Kahn's algorithm taking the earliest-listed ready node). A cycle is an error.
 */
export function topologicalOrder(fn: GraphFunction): string[] {
  assertAcyclic(fn);
  const g = toDataflowGraph(fn);
  const position = new Map(fn.nodes.map((n, i) => [n.name, i]));
  const pending = new Map(fn.nodes.map((n) => [n.name, new Set(g.predecessors(n.name) ?? []).size]));
  const ready = fn.nodes.filter((n) => pending.get(n.name) === 0).map((n) => n.name);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const name = ready.shift()!;
    order.push(name);
    for (const succ of new Set(g.successors(name) ?? [])) {
      const left = pending.get(succ)! - 1;
      pending.set(succ, left);
      if (left === 0) ready.push(succ);
    }
  }
  return order;
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
