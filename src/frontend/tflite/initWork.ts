/**
 * How much work evaluating a CALL_ONCE init subgraph at import takes, roughly, in element
 * operations: every operator reads its inputs and writes its output once, and the operators
 * that reduce a window or a row per output element (convolutions, dense, matrix products, the
 * recurrent ones) do that many multiply-accumulates per output element. Only an estimate, to
 * refuse a 2 KB model whose initializer would keep the interpreter busy for minutes (fuzzed: a
 * CONV_2D of 128x128x512 by 3x3x512 at import, 86 s).
 */
import { GraphFunction, TensorType, tensorBytes, tensorElements } from '../../ir/graph/types';

/** Operators whose output elements each reduce a row of their weight (input 1): its elements over the output's channels. */
const WEIGHTED_OPS: ReadonlySet<string> = new Set(['conv2d', 'depthwise_conv2d', 'transpose_conv2d', 'dense', 'svdf', 'unidirectional_sequence_lstm']);

export function initEvaluationWork(fn: GraphFunction): number {
  const types = new Map<string, TensorType>();
  for (const node of fn.nodes) types.set(node.name, node.type);
  let work = 0;
  for (const node of fn.nodes) {
    if (node.kind !== 'call') continue;
    const inputs = node.args.map((a) => types.get(a)).filter((t): t is TensorType => t !== undefined);
    const out = tensorElements(node.type);
    work += out + inputs.reduce((n, t) => n + tensorElements(t), 0);
    const op = node.callee.kind === 'op' ? node.callee.op : '';
    if (WEIGHTED_OPS.has(op) && inputs.length > 1) {
      const channels = Math.max(1, node.type.shape[node.type.shape.length - 1] ?? 1);
      work += out * Math.max(1, tensorElements(inputs[1]) / channels);
    } else if (op === 'batch_matmul' && inputs.length > 0) {
      const shape = inputs[0].shape;
      work += out * Math.max(1, shape[shape.length - 1] ?? 1);
    }
  }
  return work;
}

/** The bytes of the largest tensor an init subgraph computes (the interpreter holds it in memory). */
export function largestInitTensorBytes(fn: GraphFunction): number {
  let largest = 0;
  for (const node of fn.nodes) if (node.kind === 'call') largest = Math.max(largest, tensorBytes(node.type));
  return largest;
}
