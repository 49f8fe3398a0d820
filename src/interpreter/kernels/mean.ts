/**
 * MEAN as TFLite Micro's reduce kernel. float32: float sum in visiting order, divided by
 * float(n). int8/int16 with the input's scale and zero point: int32 sum / n truncated
 * (reference_ops::Mean). Otherwise the float requantization of QuantizedMeanOrSum.
 */
import { roundHalfAwayFromZero } from '../../arith/fixedpoint';
import { integerRange } from '../../arith/quant-params';
import { meanKeepsQuantization, meanRequant } from '../../arith/reduce-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { reductionPlan } from './reduceCommon';

const f32 = Math.fround;

export function mean(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
  const out = allocateTensorData(ctx.outType);
  const x = input.data;
  const { count, offsets } = plan;
  if (count === 0) return out;
  if (ctx.outType.dtype === 'float32') {
    for (let o = 0; o < plan.outputs; o++) {
      let acc = 0;
      for (let k = 0; k < count; k++) acc = f32(acc + (x[offsets[o * count + k]] as number));
      out[o] = f32(acc / count);
    }
    return out;
  }
  const dtype = ctx.outType.dtype;
  if ((dtype !== 'int8' && dtype !== 'int16') || input.type.dtype !== dtype) {
    throw ctx.unsupported(`mean from ${input.type.dtype} to ${dtype}`);
  }
  const qi = ctx.quant(input.type, 'input');
  const qo = ctx.quant(ctx.outType, 'output');
  const sums = new Int32Array(plan.outputs);
  for (let o = 0; o < plan.outputs; o++) {
    let acc = 0;
    for (let k = 0; k < count; k++) acc = (acc + (x[offsets[o * count + k]] as number)) | 0;
    sums[o] = acc;
  }
  if (meanKeepsQuantization(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint)) {
    for (let o = 0; o < plan.outputs; o++) out[o] = Math.trunc(sums[o] / count);
    return out;
  }
  const { scale, bias } = meanRequant(qi.scale, qi.zeroPoint, qo.scale);
  const range = integerRange(dtype);
  for (let o = 0; o < plan.outputs; o++) {
    const floatMean = f32(f32(sums[o]) / f32(count));
    const r = f32(roundHalfAwayFromZero(f32(f32(floatMean * scale) + bias)) + qo.zeroPoint);
    out[o] = Math.max(Math.min(r, range.max), range.min);
  }
  return out;
}
