/**
 * DIV as TFLite Micro's kernel, broadcasting: float32 a / b and int32 truncating a / b clamped to
 * the fused activation;
 * int8 TFLite's DivElementwise (reciprocal of the divisor at full headroom, requantized by
 * s1 / (s2 so)). A zero divisor is an error, as TFLite's kernel check.
 */
import { divInt8, divMultiplier } from '../../arith/elementwise';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { binaryQuants, mapBinary, outputRange, requireDtype, requireSameDtypes, unquantizedBinary } from './elementwise';

export function div(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int8', 'int32'], 'output');
  requireSameDtypes(ctx, 2);
  // int32: C's truncating division; a zero divisor or INT32_MIN / -1, undefined in TFLite
  // Micro's C (a trap on most targets), fails here.
  const unquantized = unquantizedBinary(ctx, (a, b) => a / b, (a, b) => {
    if (b === 0) throw ctx.fail('int32 division by zero');
    if (a === -2147483648 && b === -1) throw ctx.fail('int32 division overflow (INT32_MIN / -1)');
    return Math.trunc(a / b);
  });
  if (unquantized !== undefined) return unquantized;
  const { q1, q2, qo } = binaryQuants(ctx);
  const m = divMultiplier(q1.scale, q2.scale, qo.scale);
  const act = outputRange(ctx);
  return mapBinary(ctx, (a, b) => {
    if (b === q2.zeroPoint) throw ctx.fail(`division by zero (a divisor element equals the zero point ${q2.zeroPoint})`);
    return divInt8(m, a - q1.zeroPoint, b - q2.zeroPoint, qo.zeroPoint, act.min, act.max);
  });
}
