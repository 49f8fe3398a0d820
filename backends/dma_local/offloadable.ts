/**
 * Which calls the dma_local accelerator computes: int8 conv2d, depthwise_conv2d and dense
 * with constant weights (and bias). The DMA-wrapping pass and the compute patterns share it.
 */
import { GraphFunction, GraphNode, isOpCall } from '../../src/index';
import { COMPUTE_OPS } from './names';

export function isOffloadableCompute(node: GraphNode, fn: GraphFunction): boolean {
  if (!isOpCall(node) || node.callee.kind !== 'op' || !(COMPUTE_OPS as readonly string[]).includes(node.callee.op)) return false;
  const arg = (i: number): GraphNode | undefined => fn.nodes.find((n) => n.name === node.args[i]);
  const [input, weight] = [arg(0), arg(1)];
  if (!input || !weight || weight.kind !== 'constant') return false;
  if (node.args.length > 2 && arg(2)?.kind !== 'constant') return false;
  return [input, weight, node].every((n) => n.type.dtype === 'int8' && (n.type.quant?.scale.length ?? 0) > 0);
}
