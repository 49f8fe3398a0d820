/**
 * Small helpers shared by the partitioning passes to rebuild functions immutably.
 */
import { LoweringError } from '../errors';
import { ConstantNode, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION } from '../ir/graph/types';
import { OMITTED_ARG, topoSort } from './dataflow';

export function mainOf(module: IRModule, stage: string): GraphFunction {
  const main = module.functions.get(MAIN_FUNCTION);
  if (main === undefined) {
    throw new LoweringError(`${stage}: module has no '${MAIN_FUNCTION}' function`, { func: MAIN_FUNCTION });
  }
  return main;
}

export function withFunctions(module: IRModule, updates: Iterable<GraphFunction>, removed: Iterable<string> = []): IRModule {
  const functions = new Map(module.functions);
  for (const name of removed) functions.delete(name);
  for (const f of updates) functions.set(f.name, f);
  return { ...module, functions };
}

/** Drops constants no call uses and the function does not return. */
export function dropUnusedConstants(nodes: readonly GraphNode[], outputs: readonly string[]): GraphNode[] {
  const used = new Set<string>(outputs);
  for (const n of nodes) if (n.kind === 'call') for (const a of n.args) used.add(a);
  return nodes.filter((n) => n.kind !== 'constant' || used.has(n.name));
}

/** Main with `nodes`, unused constants dropped and re-sorted topologically. */
export function rebuildFunction(fn: GraphFunction, nodes: readonly GraphNode[]): GraphFunction {
  return { ...fn, nodes: topoSort(dropUnusedConstants(nodes, fn.outputs), fn.name) };
}

/** Splits the outside values a group of calls reads into constants (copied in) and inputs (params). */
export function groupInputs(
  members: readonly GraphNode[],
  isMember: (name: string) => boolean,
  lookup: (name: string) => GraphNode,
): { inputs: GraphNode[]; constants: ConstantNode[] } {
  const inputs: GraphNode[] = [];
  const constants: ConstantNode[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    if (m.kind !== 'call') continue;
    for (const a of m.args) {
      if (a === OMITTED_ARG || isMember(a) || seen.has(a)) continue;
      seen.add(a);
      const n = lookup(a);
      if (n.kind === 'constant') constants.push(n);
      else inputs.push(n);
    }
  }
  return { inputs, constants };
}
