/**
 * Which conv2d calls the accelerator runs: int8 activations and weights, constant weights
 * (and bias), quantization on every tensor, no grouping. The fetcher-insertion pass and the
 * conv pattern share this test so every inserted fetcher ends up offloaded with its conv.
 */
import { CallNode, GraphFunction, GraphNode, isOpCall } from '../../src/index';

function quantized(node: GraphNode | CallNode): boolean {
  return node.type.dtype === 'int8' && (node.type.quant?.scale.length ?? 0) > 0;
}

export function isOffloadableConv(call: GraphNode, fn: GraphFunction): boolean {
  if (!isOpCall(call, 'conv2d') || call.args.length < 2) return false;
  const arg = (i: number): GraphNode | undefined => fn.nodes.find((n) => n.name === call.args[i]);
  const [input, weight, bias] = [arg(0), arg(1), call.args.length > 2 ? arg(2) : undefined];
  if (!input || !weight || weight.kind !== 'constant') return false;
  if (call.args.length > 2 && (!bias || bias.kind !== 'constant' || bias.type.dtype !== 'int32')) return false;
  if (!quantized(input) || !quantized(weight) || !quantized(call)) return false;
  const inChannels = input.type.shape[3];
  return input.type.shape.length === 4 && weight.type.shape.length === 4 && weight.type.shape[3] === inChannels;
}
