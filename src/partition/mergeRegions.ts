/**
 * MergeCompilerRegions: groups the annotated calls of main into regions, one external
 * function each.
 *
 * Without merging every annotated call is its own region. With merging, calls are visited
 * in topological order and each is merged with the region of every annotated argument's
 * producer (parent-child adjacency, as TVM), repeating until nothing changes, unless
 *  - the merged region would be part of a cycle once contracted (a path leaves it through
 *    host code and comes back), or
 *  - the merged region would have more than one value used outside it.
 * The second rule is ours: graph IR calls produce one value, so an external function
 * returns exactly one output (TVM would return a tuple instead). A refused merge just
 * leaves two adjacent regions.
 */
import { GraphFunction } from '../ir/graph/types';
import { ContractedDag } from './contractedDag';
import { FunctionView } from './dataflow';
import { TargetAnnotation } from './annotateTarget';

export interface Region {
  /** 0-based, in order of the region's first call in main. */
  readonly id: number;
  readonly target: string;
  /** Member calls, in main's topological order. */
  readonly nodes: readonly string[];
}

export type MergeRefusal = 'cycle' | 'multiple-outputs';

/** The final outcome of merging a consumer's region with a producer's region. */
export interface MergeDecision {
  readonly producer: string;
  readonly consumer: string;
  readonly merged: boolean;
  readonly reason?: MergeRefusal;
}

export interface RegionResult {
  readonly regions: readonly Region[];
  readonly decisions: readonly MergeDecision[];
}

/** Members of `set` whose value is used outside it (or returned by the function). */
export function externalOutputs(view: FunctionView, set: ReadonlySet<string>): string[] {
  return [...set].filter((n) => view.isOutput(n) || view.consumers(n).some((c) => !set.has(c)));
}

export function mergeCompilerRegions(main: GraphFunction, annotation: TargetAnnotation, merge = true): RegionResult {
  const view = new FunctionView(main);
  const dag = new ContractedDag(view);
  const annotated = main.nodes.filter((n) => annotation.nodes.has(n.name)).map((n) => n.name);
  const regionOf = new Map<string, string>(annotated.map((n) => [n, n]));
  const members = new Map<string, Set<string>>(annotated.map((n) => [n, new Set([n])]));
  // Latest outcome per (producer, consumer) pair, in order of first attempt.
  const decisions = new Map<string, MergeDecision>();

  // Repeats until stable: a merge refused early (a producer feeding two separate regions)
  // can become possible once those regions have merged with each other.
  for (let changed = merge; changed; ) {
    changed = false;
    for (const consumer of annotated) {
      const node = view.node(consumer);
      if (node.kind !== 'call') continue;
      for (const producer of new Set(node.args)) {
        const from = regionOf.get(producer);
        const to = regionOf.get(consumer) as string;
        if (from === undefined || from === to) continue;
        const union = new Set([...(members.get(from) as Set<string>), ...(members.get(to) as Set<string>)]);
        let reason: MergeRefusal | undefined;
        if (!dag.isConvex(union)) reason = 'cycle';
        else if (externalOutputs(view, union).length > 1) reason = 'multiple-outputs';
        decisions.set(
          `${producer}\u0000${consumer}`,
          reason === undefined ? { producer, consumer, merged: true } : { producer, consumer, merged: false, reason },
        );
        if (reason !== undefined) continue;
        dag.contract(union);
        for (const n of members.get(to) as Set<string>) regionOf.set(n, from);
        members.set(from, union);
        members.delete(to);
        changed = true;
      }
    }
  }

  const regions = [...members.values()]
    .map((set) => [...set].sort((a, b) => view.position(a) - view.position(b)))
    .sort((a, b) => view.position(a[0]) - view.position(b[0]))
    .map((nodes, id) => ({ id, target: annotation.target, nodes }));
  return { regions, decisions: [...decisions.values()] };
}
