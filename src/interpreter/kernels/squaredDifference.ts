/**
 * SQUARED_DIFFERENCE as TFLite Micro's kernel, broadcasting. int8/int16: both inputs shifted
 * left (int8 by 7, int16 by 0) and rescaled to twice the larger scale, the difference squared,
 * requantized and clamped to the output type.
 */
import { squaredDifferenceParams } from '../../arith/elementwise';
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { binaryQuants, clampTo, mapBinary, requireDtype, requireSameDtypes } from './elementwise';

export function squaredDifference(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  if (dtype === 'float32') {
    return mapBinary(ctx, (a, b) => {
      const d = Math.fround(a - b);
      return Math.fround(d * d);
    });
  }
  if (dtype === 'int32') {
    return mapBinary(ctx, (a, b) => {
      const d = (a - b) | 0;
      return Math.imul(d, d);
    });
  }
  const { q1, q2, qo } = binaryQuants(ctx);
  if (dtype === 'int16' && (q1.zeroPoint !== 0 || q2.zeroPoint !== 0 || qo.zeroPoint !== 0)) {
    throw ctx.fail(`int16 needs zero points 0 (got ${q1.zeroPoint}, ${q2.zeroPoint}, ${qo.zeroPoint})`);
  }
  const p = squaredDifferenceParams(q1.scale, q2.scale, qo.scale, dtype === 'int16' ? 'int16' : 'int8');
  const [lo, hi] = dtype === 'int16' ? [-32768, 32767] : [-128, 127];
  const shift = 1 << p.leftShift;
  return mapBinary(ctx, (a, b) => {
    const s1 = multiplyByQuantizedMultiplier((a - q1.zeroPoint) * shift, p.input1.multiplier, p.input1.shift);
    const s2 = multiplyByQuantizedMultiplier((b - q2.zeroPoint) * shift, p.input2.multiplier, p.input2.shift);
    const d = (s1 - s2) | 0;
    const raw = multiplyByQuantizedMultiplier(Math.imul(d, d), p.output.multiplier, p.output.shift) + qo.zeroPoint;
    return clampTo(raw, lo, hi);
  });
}
