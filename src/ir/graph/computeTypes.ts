/** Type rules of transpose_conv2d and batch_matmul. */
import { Attrs, TensorType, tensorElements } from './types';
import { typeRuleFail as fail } from './typeRuleErrors';

function ints(op: string, attrs: Attrs, name: string, length: number, args: readonly TensorType[]): number[] {
  const v = attrs[name];
  if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
    fail(op, `attribute ${name} must be ${length} integers, got ${JSON.stringify(v)}`, args);
  }
  return v as number[];
}

function transposeConv2d(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'transpose_conv2d';
  const [input, weight, bias] = args;
  if (input.shape.length !== 4) fail(op, 'input must be 4-d NHWC', args);
  if (weight.shape.length !== 4) fail(op, 'weight must be 4-d OHWI', args);
  const [n, , , c] = input.shape;
  const [o, , , i] = weight.shape;
  if (i !== c) fail(op, `input has ${c} channels but the weight expects ${i}`, args);
  const strides = ints(op, attrs, 'strides', 2, args);
  if (strides.some((s) => s < 1)) fail(op, `strides must be positive, got [${strides}]`, args);
  const pads = ints(op, attrs, 'pad_before', 2, args);
  if (pads.some((p) => p < 0)) fail(op, `pad_before must not be negative, got [${pads}]`, args);
  const shape = ints(op, attrs, 'output_shape', 4, args);
  if (shape[0] !== n || shape[3] !== o || shape[1] < 1 || shape[2] < 1) {
    fail(op, `output_shape [${shape}] does not fit batch ${n} and ${o} output channels`, args);
  }
  // The C scatters input row iy to output row iy * stride + ky - pad, in int32 (fuzzed: a
  // stride of 2^31-2 overflowed there and the store landed outside the output).
  for (const axis of [0, 1]) {
    const reach = (input.shape[axis + 1] - 1) * strides[axis] + weight.shape[axis + 1] - 1;
    if (reach > 2 ** 31 - 1) {
      fail(op, `input ${axis === 0 ? 'rows' : 'columns'} scatter up to ${reach} (stride ${strides[axis]}), past 2^31-1: coordinates are 32-bit integers in the generated C`, args);
    }
  }
  const quantized = input.dtype !== 'float32';
  if (quantized ? weight.dtype !== 'int8' : weight.dtype !== 'float32') fail(op, `weight dtype ${weight.dtype} does not fit input dtype ${input.dtype}`, args);
  if (bias && tensorElements(bias) !== o) fail(op, `bias has ${tensorElements(bias)} elements, expected ${o}`, args);
  return { shape, dtype: input.dtype };
}

/** Batch axes (all but the last two) broadcast as TFLite's BatchMatMul does (rank <= 5). */
export function batchMatmulShape(lhs: readonly number[], rhs: readonly number[], adjX: boolean, adjY: boolean): { shape: number[] } | { problem: string } {
  if (lhs.length < 2 || rhs.length < 2 || lhs.length > 5 || rhs.length > 5) return { problem: 'operands must have rank 2 to 5' };
  const [rows, depth] = adjX ? [lhs[lhs.length - 1], lhs[lhs.length - 2]] : [lhs[lhs.length - 2], lhs[lhs.length - 1]];
  const [rdepth, cols] = adjY ? [rhs[rhs.length - 1], rhs[rhs.length - 2]] : [rhs[rhs.length - 2], rhs[rhs.length - 1]];
  if (depth !== rdepth) return { problem: `inner dimensions differ (${depth} vs ${rdepth})` };
  const lb = lhs.slice(0, -2);
  const rb = rhs.slice(0, -2);
  const rank = Math.max(lb.length, rb.length);
  const batch: number[] = [];
  for (let i = 0; i < rank; i++) {
    const a = lb[lb.length - rank + i] ?? 1;
    const b = rb[rb.length - rank + i] ?? 1;
    if (a !== b && a !== 1 && b !== 1) return { problem: `batch dimensions ${a} and ${b} do not broadcast` };
    batch.push(a === 1 ? b : a);
  }
  return { shape: [...batch, rows, cols] };
}

function batchMatmul(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'batch_matmul';
  const [lhs, rhs] = args;
  if (lhs.dtype !== rhs.dtype) fail(op, 'operand dtypes differ', args);
  const r = batchMatmulShape(lhs.shape, rhs.shape, attrs.adj_x === true, attrs.adj_y === true);
  if ('problem' in r) fail(op, r.problem, args);
  return { shape: r.shape, dtype: lhs.dtype };
}

export const COMPUTE_RULES = {
  transpose_conv2d: transposeConv2d,
  batch_matmul: batchMatmul,
};
