/**
 * MEAN as TFLite Micro's reduce kernel. float32: float sum in visiting order, divided by
 * float(n). int8/int16 with the input's scale and zero point: int32 sum / n truncated
 * (reference_ops::Mean). Otherwise QuantizedMeanOrSum's integer requantization, 1/n folded
 * into the multiplier (src/arith/reduce-params.ts), clamped.
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { integerRange } from '../../arith/quant-params';
import { meanKeepsQuantization, reduceRequant, shiftedSum } from '../../arith/reduce-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { floatSums, int32Sums, reductionPlan, requireQuantizedReduce } from './reduceCommon';

const f32 = Math.fround;

export function mean(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
  const out = allocateTensorData(ctx.outType);
  const { count } = plan;
  if (count === 0) return out;
  if (ctx.outType.dtype === 'float32') {
    const sums = floatSums(plan, input.data as ArrayLike<number>);
    for (let o = 0; o < plan.outputs; o++) out[o] = f32(sums[o] / count);
    return out;
  }
  const dtype = requireQuantizedReduce(ctx, input.type.dtype, 'mean');
  const qi = ctx.quant(input.type, 'input');
  const qo = ctx.quant(ctx.outType, 'output');
  const sums = int32Sums(plan, input.data as ArrayLike<number>);
  if (meanKeepsQuantization(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint)) {
    for (let o = 0; o < plan.outputs; o++) out[o] = Math.trunc(sums[o] / count);
    return out;
  }
  const m = reduceRequant('mean', qi.scale, qo.scale, count);
  const range = integerRange(dtype);
  for (let o = 0; o < plan.outputs; o++) {
    const r = multiplyByQuantizedMultiplier(shiftedSum(sums[o], qi.zeroPoint, count), m.multiplier, m.shift) + qo.zeroPoint;
    out[o] = Math.max(Math.min(r, range.max), range.min);
  }
  return out;
}
