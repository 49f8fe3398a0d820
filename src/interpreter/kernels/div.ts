/**
 * DIV as TFLite Micro's kernel, broadcasting: float32 a / b clamped to the fused activation;
 * int8 TFLite's DivElementwise (reciprocal of the divisor at full headroom, requantized by
 * s1 / (s2 so)). A zero divisor is an error, as TFLite's kernel check.
 */
import { divInt8, divMultiplier } from '../../arith/elementwise';
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { binaryQuants, clampTo, mapBinary, outputRange, requireDtype, requireSameDtypes } from './elementwise';

export function div(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int8'], 'output');
  requireSameDtypes(ctx, 2);
  if (dtype === 'float32') {
    const act = floatActivationRange(ctx.string('activation', 'NONE'));
    return mapBinary(ctx, (a, b) => clampTo(Math.fround(a / b), act.min, act.max));
  }
  const { q1, q2, qo } = binaryQuants(ctx);
  const m = divMultiplier(q1.scale, q2.scale, qo.scale);
  const act = outputRange(ctx);
  return mapBinary(ctx, (a, b) => {
    if (b === q2.zeroPoint) throw ctx.fail(`division by zero (a divisor element equals the zero point ${q2.zeroPoint})`);
    return divInt8(m, a - q1.zeroPoint, b - q2.zeroPoint, qo.zeroPoint, act.min, act.max);
  });
}
