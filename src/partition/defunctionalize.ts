/**
 * The step after post_partitioning_0, and an optional flattening helper.
 *
 * `defunctionalize`: TVM runs Relay's Defunctionalization here so lowering sees first-order
 * code. Our graph IR is first-order and every function is already global (composites are
 * lifted by MergeComposite), so nothing needs converting; the step keeps composites as
 * functions called from the external functions — which is how lowering sees composite
 * names (`strategyFor(target, '<target>.<pattern>')`) — and drops composite functions that
 * post_partitioning_0 passes left uncalled.
 *
 * `inlineComposites`: for backends that prefer flat external functions (e.g. as a
 * post_partitioning_1 pass). Every inlined call records its origin in
 * `CallNode.composite = { name: <target>.<pattern>, instance: <composite function name> }`.
 */
import { LoweringError } from '../errors';
import { CallNode, GraphFunction, GraphNode, IRModule } from '../ir/graph/types';

function inlineComposite(
  host: GraphFunction,
  call: CallNode,
  composite: GraphFunction,
  present: Set<string>,
): GraphNode[] {
  const name = composite.attrs.Composite as string;
  if (composite.params.length !== call.args.length) {
    throw new LoweringError(
      `Defunctionalize: call '${call.name}' passes ${call.args.length} arguments to '${composite.name}', which takes ${composite.params.length}`,
      { func: host.name, op: call.name },
    );
  }
  const rename = new Map<string, string>(composite.params.map((p, i) => [p, call.args[i]]));
  // The composite's output keeps the name of the call it replaces, so users of it still resolve.
  rename.set(composite.outputs[0], call.name);
  const fresh = (n: string): string => {
    if (rename.has(n)) return rename.get(n) as string;
    let candidate = n;
    for (let k = 1; present.has(candidate); k++) candidate = `${n}_${k}`;
    rename.set(n, candidate);
    return candidate;
  };
  const out: GraphNode[] = [];
  for (const n of composite.nodes) {
    if (n.kind === 'var') continue;
    if (n.kind === 'constant') {
      // The same constant copied into several composites is one value of the host.
      if (present.has(n.name) && !rename.has(n.name)) {
        rename.set(n.name, n.name);
        continue;
      }
      const renamed = fresh(n.name);
      present.add(renamed);
      out.push({ ...n, name: renamed });
      continue;
    }
    const renamed = fresh(n.name);
    present.add(renamed);
    out.push({
      ...n,
      name: renamed,
      args: n.args.map((a) => rename.get(a) ?? a),
      composite: n.composite ?? { name, instance: composite.name },
    });
  }
  return out;
}

function inlineFunction(fn: GraphFunction, module: IRModule): GraphFunction {
  const present = new Set(fn.nodes.map((n) => n.name));
  let changed = false;
  const nodes: GraphNode[] = [];
  for (const n of fn.nodes) {
    const callee = n.kind === 'call' && n.callee.kind === 'function' ? module.functions.get(n.callee.name) : undefined;
    if (n.kind !== 'call' || callee === undefined || typeof callee.attrs.Composite !== 'string') {
      nodes.push(n);
      continue;
    }
    nodes.push(...inlineComposite(fn, n, callee, present));
    changed = true;
  }
  return changed ? { ...fn, nodes } : fn;
}

function calledFunctions(module: IRModule): Set<string> {
  const called = new Set<string>();
  for (const f of module.functions.values()) {
    for (const n of f.nodes) if (n.kind === 'call' && n.callee.kind === 'function') called.add(n.callee.name);
  }
  return called;
}

function dropUncalledComposites(functions: Map<string, GraphFunction>, module: IRModule): IRModule {
  const called = calledFunctions({ ...module, functions });
  for (const [name, fn] of [...functions]) {
    if (typeof fn.attrs.Composite === 'string' && !called.has(name)) functions.delete(name);
  }
  return { ...module, functions };
}

export function defunctionalize(module: IRModule): IRModule {
  const out = dropUncalledComposites(new Map(module.functions), module);
  return out.functions.size === module.functions.size ? module : out;
}

/** Inlines the composites called from `target`'s external functions into them. */
export function inlineComposites(module: IRModule, target: string): IRModule {
  const functions = new Map(module.functions);
  for (const [name, fn] of module.functions) {
    if (fn.attrs.Compiler === target) functions.set(name, inlineFunction(fn, module));
  }
  return dropUncalledComposites(functions, module);
}
