/**
 * MUL as TFLite Micro's reference kernels, broadcasting. int8/int16: (a - z1) * (b - z2)
 * requantized by s1*s2/so, + output zero point, clamped to the fused activation.
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { mulMultiplier } from '../../arith/elementwise';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { binaryQuants, clampTo, mapBinary, outputRange, requireDtype, requireSameDtypes, unquantizedBinary } from './elementwise';

export function mul(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  const unquantized = unquantizedBinary(ctx, (a, b) => a * b, (a, b) => Math.imul(a, b));
  if (unquantized !== undefined) return unquantized;
  const { q1, q2, qo } = binaryQuants(ctx);
  const m = mulMultiplier(q1.scale, q2.scale, qo.scale);
  const act = outputRange(ctx);
  return mapBinary(ctx, (a, b) => {
    const product = Math.imul(a - q1.zeroPoint, b - q2.zeroPoint);
    return clampTo(qo.zeroPoint + multiplyByQuantizedMultiplier(product, m.multiplier, m.shift), act.min, act.max);
  });
}
