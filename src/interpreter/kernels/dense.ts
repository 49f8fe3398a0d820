/**
 * FULLY_CONNECTED as TFLite Micro's reference kernels: rows of length `in` (the weight's
 * last dim) times weight [units, in]; int8 and 16x8 (see integerConv.ts) use one per-tensor multiplier (or per-channel
 * multipliers when the weight carries several scales); hybrid (float32 activations, int8
 * weights) as TensorFlow Lite's (src/arith/hybrid.ts).
 */
import { denseOutputMultiplier, perChannelMultipliers, quantizedActivationRange } from '../../arith/quant-params';
import { tensorElements } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { allocateTensorData, Tensor, TypedArray } from '../tensor';
import { dotNumericsOf } from './dotNumerics';
import { PerChannelRequant } from './integerConv';

export function dense(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const weight = ctx.input(1, 'weight');
  const bias = ctx.optionalInput(2);
  if (weight.type.shape.length !== 2) throw ctx.fail(`weight must be [units, in], got [${weight.type.shape.join(', ')}]`);
  const [units, depth] = weight.type.shape;
  const inElems = tensorElements(input.type);
  if (depth === 0 || inElems % depth !== 0) throw ctx.fail(`input of ${inElems} elements is not rows of ${depth}`);
  const batches = inElems / depth;
  const out = allocateTensorData(ctx.outType);
  if (out.length !== batches * units) {
    throw ctx.fail(`output has ${out.length} elements, expected ${batches} x ${units}`);
  }
  const activation = ctx.string('activation', 'NONE');

  // Hybrid: one quantization row per input row.
  const numerics = dotNumericsOf(ctx, 'dense', { input, weight, bias }, units, depth, () => denseRequant(ctx, input, weight, units, activation));
  const o = out as Float32Array | Int8Array | Int16Array;
  for (let n = 0; n < batches; n++)
    for (let u = 0; u < units; u++) o[n * units + u] = numerics.output(numerics.sum(0, n, n * depth, u * depth, depth), u, n);
  return out;
}

/**
 * FULLY_CONNECTED's output stage: one per-tensor multiplier with the weight's zero point as
 * filter offset, or per-channel multipliers (then no filter offset), as TFLite Micro.
 */
function denseRequant(ctx: KernelContext, input: Tensor, weight: Tensor, units: number, activation: string): { stage: PerChannelRequant; filterOffset: number } {
  const inQ = ctx.quant(input.type, 'input');
  const wQ = ctx.quant(weight.type, 'weight');
  const outQ = ctx.quant(ctx.outType, 'output');
  const wScales = weight.type.quant?.scale ?? [];
  const act = quantizedActivationRange(activation, ctx.outType.dtype, outQ.scale, outQ.zeroPoint);
  if (wScales.length > 1) {
    const { multipliers, shifts } = perChannelMultipliers(inQ.scale, wScales, outQ.scale, units);
    return { stage: { outputZeroPoint: outQ.zeroPoint, multipliers, shifts, act }, filterOffset: 0 };
  }
  const q = denseOutputMultiplier(inQ.scale, wQ.scale, outQ.scale);
  const stage = { outputZeroPoint: outQ.zeroPoint, multipliers: new Int32Array(units).fill(q.multiplier), shifts: new Int32Array(units).fill(q.shift), act };
  return { stage, filterOffset: -wQ.zeroPoint };
}
