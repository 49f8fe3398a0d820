/**
 * SUM as TFLite Micro's reduce kernel. float32: float sum in visiting order. int8/int16:
 * int32 sum, then QuantizedMeanOrSum's integer requantization (src/arith/reduce-params.ts),
 * clamped; over no elements the reset output, raw 0.
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { integerRange } from '../../arith/quant-params';
import { reduceRequant, shiftedSum } from '../../arith/reduce-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { floatSums, int32Sums, reductionPlan, requireQuantizedReduce } from './reduceCommon';


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
  const m = reduceRequant('sum', qi.scale, qo.scale, plan.count);
  const range = integerRange(dtype);
  const sums = int32Sums(plan, input.data as ArrayLike<number>);
  for (let o = 0; o < plan.outputs; o++) {
    const r = multiplyByQuantizedMultiplier(shiftedSum(sums[o], qi.zeroPoint, plan.count), m.multiplier, m.shift) + qo.zeroPoint;
    out[o] = Math.max(Math.min(r, range.max), range.min);
  }
  return out;
}
