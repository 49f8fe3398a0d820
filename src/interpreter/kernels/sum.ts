/**
 * SUM as TFLite Micro's reduce kernel. float32: float sum in visiting order. int8/int16:
 * int32 sum, then QuantizedMeanOrSum's float requantization; the int32 result is narrowed
 * without a clamp (a static_cast), as TFLite Micro does.
 */
import { roundHalfAwayFromZero } from '../../arith/fixedpoint';
import { sumRequant } from '../../arith/reduce-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { floatSums, int32Sums, reductionPlan, requireQuantizedReduce } from './reduceCommon';

const f32 = Math.fround;

export function sum(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
  const out = allocateTensorData(ctx.outType);
  if (ctx.outType.dtype === 'float32') {
    const sums = floatSums(plan, input.data as ArrayLike<number>);
    for (let o = 0; o < plan.outputs; o++) out[o] = sums[o];
    return out;
  }
  const dtype = requireQuantizedReduce(ctx, input.type.dtype, 'sum');
  if (plan.count === 0) return out;
  const qi = ctx.quant(input.type, 'input');
  const qo = ctx.quant(ctx.outType, 'output');
  const { scale, bias } = sumRequant(dtype, qi.scale, qi.zeroPoint, qo.scale, plan.count);
  const sums = int32Sums(plan, input.data as ArrayLike<number>);
  for (let o = 0; o < plan.outputs; o++) {
    const value = (Math.trunc(roundHalfAwayFromZero(f32(f32(f32(sums[o]) * scale) + bias))) + qo.zeroPoint) | 0;
    out[o] = value; // the typed array narrows with wrap-around, as static_cast<T> does
  }
  return out;
}
