/**
 * SUM as TFLite Micro's reduce kernel. float32: float sum in visiting order. int8/int16:
 * int32 sum, then QuantizedMeanOrSum's float requantization; the int32 result is narrowed
 * without a clamp (a static_cast), as TFLite Micro does.
 */
import { roundHalfAwayFromZero } from '../../arith/fixedpoint';
import { sumRequant } from '../../arith/reduce-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { reductionPlan } from './reduceCommon';

const f32 = Math.fround;

export function sum(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
  const out = allocateTensorData(ctx.outType);
  const x = input.data;
  const { count, offsets } = plan;
  if (ctx.outType.dtype === 'float32') {
    for (let o = 0; o < plan.outputs; o++) {
      let acc = 0;
      for (let k = 0; k < count; k++) acc = f32((x[offsets[o * count + k]] as number) + acc);
      out[o] = acc;
    }
    return out;
  }
  const dtype = ctx.outType.dtype;
  if ((dtype !== 'int8' && dtype !== 'int16') || input.type.dtype !== dtype) {
    throw ctx.unsupported(`sum from ${input.type.dtype} to ${dtype}`);
  }
  if (count === 0) return out;
  const qi = ctx.quant(input.type, 'input');
  const qo = ctx.quant(ctx.outType, 'output');
  const { scale, bias } = sumRequant(qi.scale, qi.zeroPoint, qo.scale, count);
  for (let o = 0; o < plan.outputs; o++) {
    let acc = 0;
    for (let k = 0; k < count; k++) acc = (acc + (x[offsets[o * count + k]] as number)) | 0;
    const value = (Math.trunc(roundHalfAwayFromZero(f32(f32(f32(acc) * scale) + bias))) + qo.zeroPoint) | 0;
    out[o] = value; // the typed array narrows with wrap-around, as static_cast<T> does
  }
  return out;
}
