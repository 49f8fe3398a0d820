/** Which input elements each output element of a reduction reads, in TFLite's visiting order. */
import { KernelContext } from '../kernel';

export interface ReductionPlan {
  readonly outputs: number;
  /** Elements reduced into each output. */
  readonly count: number;
  /** `offsets[o * count + k]`: flat input index of the k-th element of output o. */
  readonly offsets: Int32Array;
}

/**
 * TFLite walks the input row-major and folds each element into its output, so every output
 * sees its elements in row-major order of the reduced coordinates; outputs are row-major over
 * the kept axes.
 */
export function reductionPlan(ctx: KernelContext, shape: readonly number[], axes: readonly number[]): ReductionPlan {
  for (const a of axes) {
    if (!Number.isInteger(a) || a < 0 || a >= shape.length) throw ctx.fail(`axis ${a} is out of range for shape [${shape}]`);
  }
  const strides = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) strides[d] = strides[d + 1] * shape[d + 1];
  const kept = shape.map((_, d) => d).filter((d) => !axes.includes(d));
  const reduced = shape.map((_, d) => d).filter((d) => axes.includes(d));
  const bases = walk(kept, shape, strides);
  const inner = walk(reduced, shape, strides);
  const offsets = new Int32Array(bases.length * inner.length);
  bases.forEach((b, o) => inner.forEach((i, k) => (offsets[o * inner.length + k] = b + i)));
  return { outputs: bases.length, count: inner.length, offsets };
}

/** Flat offsets of every coordinate over `dims` (row-major), others held at 0. */
function walk(dims: readonly number[], shape: readonly number[], strides: readonly number[]): number[] {
  let out = [0];
  for (const d of dims) {
    const next: number[] = [];
    for (const base of out) for (let i = 0; i < shape[d]; i++) next.push(base + i * strides[d]);
    out = next;
  }
  return out;
}

/** Each output's float32 sum of its elements in visiting order (MEAN and SUM fold the same way). */
export function floatSums(plan: ReductionPlan, x: ArrayLike<number>): Float32Array {
  const sums = new Float32Array(plan.outputs);
  const { count, offsets } = plan;
  for (let o = 0; o < plan.outputs; o++) {
    let acc = 0;
    for (let k = 0; k < count; k++) acc = Math.fround(acc + x[offsets[o * count + k]]);
    sums[o] = acc;
  }
  return sums;
}

/** Each output's int32 sum (wrapping) of its elements: the accumulator of quantized MEAN and SUM. */
export function int32Sums(plan: ReductionPlan, x: ArrayLike<number>): Int32Array {
  const sums = new Int32Array(plan.outputs);
  const { count, offsets } = plan;
  for (let o = 0; o < plan.outputs; o++) {
    let acc = 0;
    for (let k = 0; k < count; k++) acc = (acc + x[offsets[o * count + k]]) | 0;
    sums[o] = acc;
  }
  return sums;
}

/** Quantized MEAN and SUM take int8 or int16 and keep the input's dtype. */
export function requireQuantizedReduce(ctx: KernelContext, inputDtype: string, op: string): 'int8' | 'int16' {
  const dtype = ctx.outType.dtype;
  if ((dtype !== 'int8' && dtype !== 'int16') || inputDtype !== dtype) throw ctx.unsupported(`${op} from ${inputDtype} to ${dtype}`);
  return dtype;
}
