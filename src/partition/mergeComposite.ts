/**
 * MergeComposite: each match of a registered pattern in `main` becomes a function of the
 * module with `Composite=<target>.<pattern>`, and the matched calls in main become one call
 * of it. Patterns are tried in registration order; within a pattern, nodes are visited from
 * the outputs backwards (as TVM's PatternPartitioner), so a match takes the largest extent
 * rooted at each node. A match is kept only when
 *  - its inner calls are used inside the match only (the composite has one output),
 *  - it is convex: no path leaves the matched calls and comes back in,
 *  - the pattern's predicate (if any) accepts it.
 * Constants a match reads are copied into the composite (TVM keeps them inline too); other
 * inputs become parameters named after the values they receive.
 */
import { PatternEntry } from '../backend/umaBackend';
import { callPredicate } from '../backend/userCode';
import { CallNode, GraphFunction, GraphNode, IRModule, VarNode } from '../ir/graph/types';
import { ContractedDag } from './contractedDag';
import { FunctionView } from './dataflow';
import { PatternMatch, PatternMatcher } from './matcher';
import { groupInputs, mainOf, rebuildFunction, withFunctions } from './moduleEdit';

/** The target whose pattern this is (its composite is `<target>.<name>`). */
function targetOf(entry: PatternEntry): string {
  return entry.composite.slice(0, entry.composite.length - entry.name.length - 1);
}

export interface CompositeMatch {
  /** Name of the composite function created for the match. */
  readonly functionName: string;
  readonly entry: PatternEntry;
  readonly match: PatternMatch;
}

function innerCallsStayInside(m: PatternMatch, view: FunctionView): boolean {
  const members = new Set(m.calls.map((c) => c.name));
  return m.calls.every(
    (c) => c.name === m.root.name || (!view.isOutput(c.name) && view.consumers(c.name).every((u) => members.has(u))),
  );
}

/** Finds the matches MergeComposite would rewrite, in the order they were found. */
export function findCompositeMatches(main: GraphFunction, patterns: readonly PatternEntry[]): CompositeMatch[] {
  const view = new FunctionView(main);
  const claimed = new Set<string>();
  const dag = new ContractedDag(view);
  const found: Array<Omit<CompositeMatch, 'functionName'>> = [];
  for (const entry of patterns) {
    const matcher = new PatternMatcher(view, claimed);
    for (let i = main.nodes.length - 1; i >= 0; i--) {
      const node = main.nodes[i];
      if (node.kind !== 'call' || node.callee.kind !== 'op' || claimed.has(node.name)) continue;
      const m = matcher.matchAt(entry.name, entry.pattern, node.name);
      if (m === undefined || !innerCallsStayInside(m, view)) continue;
      const members = new Set(m.calls.map((c) => c.name));
      if (!dag.isConvex(members)) continue;
      const predicate = entry.predicate;
      // The predicate sees the match frozen: it decides, the match itself stays as found.
      const seen = Object.freeze({ ...m });
      if (predicate !== undefined && !callPredicate(targetOf(entry), `predicate of pattern '${entry.name}' (at '${node.name}')`, () => predicate(seen), { op: node.name })) continue;
      for (const c of members) claimed.add(c);
      dag.contract(members);
      found.push({ entry, match: m });
    }
  }
  // Names follow main's order, not discovery order, so `_0` is the first composite computed.
  return found
    .sort((a, b) => view.position(a.match.root.name) - view.position(b.match.root.name))
    .map((f, i) => ({ ...f, functionName: `${f.entry.composite}_${i}` }));
}

function compositeFunction(cm: CompositeMatch, view: FunctionView): { fn: GraphFunction; call: CallNode } {
  const m = cm.match;
  const members = new Set(m.calls.map((c) => c.name));
  const { inputs, constants } = groupInputs(m.calls, (n) => members.has(n), (n) => view.node(n));
  const params: VarNode[] = inputs.map((n) => ({ kind: 'var', name: n.name, type: n.type }));
  const fn: GraphFunction = {
    name: cm.functionName,
    params: params.map((p) => p.name),
    nodes: [...params, ...constants, ...m.calls],
    outputs: [m.root.name],
    attrs: {
      Composite: cm.entry.composite,
      Primitive: true,
      PartitionedFromPattern: m.calls.map((c) => (c.callee.kind === 'op' ? c.callee.op : c.callee.name)).join('_') + '_',
    },
  };
  const call: CallNode = {
    kind: 'call',
    name: m.root.name,
    callee: { kind: 'function', name: cm.functionName },
    args: inputs.map((n) => n.name),
    attrs: {},
    type: m.root.type,
  };
  return { fn, call };
}

export function mergeComposite(module: IRModule, patterns: readonly PatternEntry[]): IRModule {
  const main = mainOf(module, 'MergeComposite');
  const matches = findCompositeMatches(main, patterns);
  if (matches.length === 0) return module;
  const view = new FunctionView(main);
  const replaced = new Map<string, CallNode>();
  const removed = new Set<string>();
  const composites: GraphFunction[] = [];
  for (const cm of matches) {
    const { fn, call } = compositeFunction(cm, view);
    composites.push(fn);
    replaced.set(call.name, call);
    for (const c of cm.match.calls) if (c.name !== call.name) removed.add(c.name);
  }
  const nodes: GraphNode[] = main.nodes
    .filter((n) => !removed.has(n.name))
    .map((n) => replaced.get(n.name) ?? n);
  return withFunctions(module, [rebuildFunction(main, nodes), ...composites]);
}
