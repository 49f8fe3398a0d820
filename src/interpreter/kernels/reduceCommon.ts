/** Which input elements each output element of a reduction reads, in TFLite's visiting order. */
import { KernelContext } from '../kernel';

export interface ReductionPlan {
  readonly outputs: number;
  /** Elements reduced into each output. */
  readonly count: number;
  /** Per output: the flat input index of its first element (every reduced coordinate 0). */
  readonly bases: Int32Array;
  /** The reduced axes' sizes and strides, outermost first. */
  readonly reducedSizes: Int32Array;
  readonly reducedStrides: Int32Array;
}

/**
 * TFLite walks the input row-major and folds each element into its output, so every output
 * sees its elements in row-major order of the reduced coordinates; outputs are row-major over
 * the kept axes. Offsets are walked, not listed: a list of every input element's offset was
 * four bytes per element, and a JavaScript array per output (fuzzed: REDUCE_MAX of a
 * 140M-element tensor) killed the process.
 */
export function reductionPlan(ctx: KernelContext, shape: readonly number[], axes: readonly number[]): ReductionPlan {
  for (const a of axes) {
    if (!Number.isInteger(a) || a < 0 || a >= shape.length) throw ctx.fail(`axis ${a} is out of range for shape [${shape}]`);
  }
  const strides = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) strides[d] = strides[d + 1] * shape[d + 1];
  const kept = shape.map((_, d) => d).filter((d) => !axes.includes(d));
  const reduced = shape.map((_, d) => d).filter((d) => axes.includes(d));
  const size = (dims: number[]) => dims.reduce((n, d) => n * shape[d], 1);
  const outputs = size(kept);
  const bases = new Int32Array(outputs);
  const keptSizes = Int32Array.from(kept, (d) => shape[d]);
  const keptStrides = Int32Array.from(kept, (d) => strides[d]);
  walkOffsets(keptSizes, keptStrides, 0, outputs, (o, offset) => (bases[o] = offset));
  return {
    outputs,
    count: size(reduced),
    bases,
    reducedSizes: Int32Array.from(reduced, (d) => shape[d]),
    reducedStrides: Int32Array.from(reduced, (d) => strides[d]),
  };
}

/** Calls `visit(k, offset)` for the `count` offsets from `base` over `sizes`/`strides`, row-major. */
function walkOffsets(sizes: Int32Array, strides: Int32Array, base: number, count: number, visit: (k: number, offset: number) => void): void {
  const counter = new Int32Array(sizes.length);
  let offset = base;
  for (let k = 0; k < count; k++) {
    visit(k, offset);
    for (let d = sizes.length - 1; d >= 0; d--) {
      offset += strides[d];
      if (++counter[d] < sizes[d]) break;
      offset -= strides[d] * sizes[d];
      counter[d] = 0;
    }
  }
}

/** Folds output o's elements of `x` in visiting order: `step(acc, value)` from `init`. */
export function foldOutput(plan: ReductionPlan, x: ArrayLike<number>, o: number, init: number, step: (acc: number, value: number) => number): number {
  let acc = init;
  walkOffsets(plan.reducedSizes, plan.reducedStrides, plan.bases[o], plan.count, (_, offset) => (acc = step(acc, x[offset])));
  return acc;
}

/** Each output's float32 sum of its elements in visiting order (MEAN and SUM fold the same way). */
export function floatSums(plan: ReductionPlan, x: ArrayLike<number>): Float32Array {
  const sums = new Float32Array(plan.outputs);
  for (let o = 0; o < plan.outputs; o++) sums[o] = foldOutput(plan, x, o, 0, (acc, v) => Math.fround(acc + v));
  return sums;
}

/** Each output's int32 sum (wrapping) of its elements: the accumulator of quantized MEAN and SUM. */
export function int32Sums(plan: ReductionPlan, x: ArrayLike<number>): Int32Array {
  const sums = new Int32Array(plan.outputs);
  for (let o = 0; o < plan.outputs; o++) sums[o] = foldOutput(plan, x, o, 0, (acc, v) => (acc + v) | 0);
  return sums;
}

/** Quantized MEAN and SUM take int8 or int16 and keep the input's dtype. */
export function requireQuantizedReduce(ctx: KernelContext, inputDtype: string, op: string): 'int8' | 'int16' {
  const dtype = ctx.outType.dtype;
  if ((dtype !== 'int8' && dtype !== 'int16') || inputDtype !== dtype) throw ctx.unsupported(`${op} from ${inputDtype} to ${dtype}`);
  return dtype;
}
