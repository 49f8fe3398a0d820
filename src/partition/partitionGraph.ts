/**
 * PartitionGraph: every region becomes an external function of the module
 * (`Compiler=<target>`, `global_symbol=<target>_main_<n>`, n = region id) and main calls it.
 * Its parameters are the region's non-constant inputs (named after the values they receive,
 * in first-use order); constants it reads are copied in; it returns the region's one output.
 */
import { LoweringError } from '../errors';
import { CallNode, GraphFunction, GraphNode, IRModule, VarNode } from '../ir/graph/types';
import { FunctionView } from './dataflow';
import { Region, externalOutputs } from './mergeRegions';
import { groupInputs, mainOf, rebuildFunction, withFunctions } from './moduleEdit';

export function externalFunctionName(target: string, id: number): string {
  return `${target}_main_${id}`;
}

function regionOutput(view: FunctionView, region: Region, name: string): string {
  const set = new Set(region.nodes);
  const outs = externalOutputs(view, set);
  if (outs.length > 1) {
    throw new LoweringError(
      `PartitionGraph: region ${region.id} of target '${region.target}' has ${outs.length} outputs (${outs.join(', ')}); external functions return one value`,
      { func: name, target: region.target },
    );
  }
  // A region nobody reads still needs a return value: its last call.
  return outs[0] ?? region.nodes[region.nodes.length - 1];
}

export function partitionGraph(module: IRModule, regions: readonly Region[]): IRModule {
  const main = mainOf(module, 'PartitionGraph');
  const view = new FunctionView(main);
  const removed = new Set<string>();
  const replaced = new Map<string, CallNode>();
  const externals: GraphFunction[] = [];
  for (const region of regions) {
    const name = externalFunctionName(region.target, region.id);
    if (module.functions.has(name)) {
      throw new LoweringError(`PartitionGraph: function '${name}' already exists`, { func: name, target: region.target });
    }
    const set = new Set(region.nodes);
    const calls = region.nodes.map((n) => view.node(n));
    const { inputs, constants } = groupInputs(calls, (n) => set.has(n), (n) => view.node(n));
    const output = regionOutput(view, region, name);
    const params: VarNode[] = inputs.map((n) => ({ kind: 'var', name: n.name, type: n.type }));
    externals.push({
      name,
      params: params.map((p) => p.name),
      nodes: [...params, ...constants, ...calls],
      outputs: [output],
      attrs: { Compiler: region.target, global_symbol: name, target: region.target, Primitive: true },
    });
    for (const n of region.nodes) removed.add(n);
    replaced.set(output, {
      kind: 'call',
      name: output,
      callee: { kind: 'function', name },
      args: inputs.map((n) => n.name),
      attrs: {},
      type: view.node(output).type,
    });
  }
  const nodes: GraphNode[] = main.nodes.flatMap((n) => {
    const call = replaced.get(n.name);
    if (call !== undefined) return [call];
    return removed.has(n.name) ? [] : [n];
  });
  return withFunctions(module, [rebuildFunction(main, nodes), ...externals]);
}
