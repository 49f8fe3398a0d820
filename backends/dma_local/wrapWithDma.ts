/**
 * dma_local's pre-partitioning pass: the accelerator computes only on its local memory, so
 * every call it will run gets a `copy(kind=dma_in)` on its activation input and a
 * `copy(kind=dma_out)` on its output. The DMA-out copy keeps the tensor's name (so its
 * consumers and the function outputs are unchanged); the compute call becomes `<name>_local`.
 */
import { CallNode, GraphFunction, GraphNode, GraphPass, IRModule, MAIN_FUNCTION, withFunction } from '../../src/index';
import { DMA_IN_KIND, DMA_OUT_KIND } from './names';
import { isOffloadableCompute } from './offloadable';

export const WRAP_WITH_DMA_PASS = 'dma_local.WrapWithDma';

function isCopyOfKind(node: GraphNode | undefined, kind: string): boolean {
  return node !== undefined && node.kind === 'call' && node.callee.kind === 'op' && node.callee.op === 'copy' && node.attrs.kind === kind;
}

function freshName(taken: Set<string>, base: string): string {
  let name = base;
  for (let k = 1; taken.has(name); k++) name = `${base}_${k}`;
  taken.add(name);
  return name;
}

function copyCall(name: string, source: GraphNode, kind: string): CallNode {
  return { kind: 'call', name, callee: { kind: 'op', op: 'copy' }, args: [source.name], attrs: { kind }, type: source.type };
}

export function wrapWithDma(fn: GraphFunction): GraphFunction {
  const byName = new Map(fn.nodes.map((n) => [n.name, n] as const));
  const taken = new Set(byName.keys());
  const nodes: GraphNode[] = [];
  let changed = false;
  for (const node of fn.nodes) {
    // Already wrapped (the pass ran before): its input comes through a DMA-in copy.
    if (!isOffloadableCompute(node, fn) || isCopyOfKind(byName.get((node as CallNode).args[0]), DMA_IN_KIND)) {
      nodes.push(node);
      continue;
    }
    const call = node as CallNode;
    const dmaIn = copyCall(freshName(taken, `${call.name}_dma_in`), byName.get(call.args[0]) as GraphNode, DMA_IN_KIND);
    const local: CallNode = { ...call, name: freshName(taken, `${call.name}_local`), args: [dmaIn.name, ...call.args.slice(1)] };
    nodes.push(dmaIn, local, { ...copyCall(call.name, local, DMA_OUT_KIND), type: call.type });
    changed = true;
  }
  return changed ? { ...fn, nodes } : fn;
}

export const wrapWithDmaPass: GraphPass = {
  name: WRAP_WITH_DMA_PASS,
  phase: 'pre_partitioning',
  run(module: IRModule): IRModule {
    const main = module.functions.get(MAIN_FUNCTION);
    return main ? withFunction(module, wrapWithDma(main)) : module;
  },
};
