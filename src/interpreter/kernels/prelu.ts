/**
 * PRELU as TFLite Micro's kernel, alpha broadcast to the input: x >= 0 ? x : alpha * x.
 * int8/int16: the positive side requantized by s_in/s_out, the negative side (x - z) * (alpha - z_a)
 * by s_in*s_alpha/s_out. int16 input and output take an int8 alpha, as TFLM's Prepare requires.
 */
import { preluParams } from '../../arith/elementwise';
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { clampTo, mapBinary, requireDtype } from './elementwise';

export function prelu(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int8', 'int16'], 'output');
  requireDtype(ctx, ctx.input(0, 'input').type.dtype, [dtype], 'input');
  requireDtype(ctx, ctx.input(1, 'alpha').type.dtype, dtype === 'int16' ? ['int8'] : [dtype], 'alpha');
  const roles = ['input', 'alpha'] as const;
  if (dtype === 'float32') return mapBinary(ctx, (x, alpha) => (x >= 0 ? x : Math.fround(x * alpha)), roles);
  const qi = ctx.quant(ctx.input(0, 'input').type, 'input');
  const qa = ctx.quant(ctx.input(1, 'alpha').type, 'alpha');
  const qo = ctx.quant(ctx.outType, 'output');
  const p = preluParams(qi.scale, qa.scale, qo.scale);
  const [lo, hi] = dtype === 'int16' ? [-32768, 32767] : [-128, 127];
  return mapBinary(
    ctx,
    (x, alpha) => {
      const v = x - qi.zeroPoint;
      const scaled =
        v >= 0
          ? multiplyByQuantizedMultiplier(v, p.identity.multiplier, p.identity.shift)
          : multiplyByQuantizedMultiplier(v * (alpha - qa.zeroPoint), p.alpha.multiplier, p.alpha.shift);
      return clampTo(scaled + qo.zeroPoint, lo, hi);
    },
    roles,
  );
}
