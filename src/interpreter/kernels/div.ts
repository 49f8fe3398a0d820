/** DIV as TFLite Micro's reference kernel (float32 only), broadcasting: a / b clamped to the fused activation. */
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { clampTo, mapBinary, requireDtype, requireSameDtypes } from './elementwise';

export function div(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, ['float32'], 'output');
  requireSameDtypes(ctx, 2);
  const act = floatActivationRange(ctx.string('activation', 'NONE'));
  return mapBinary(ctx, (a, b) => clampTo(Math.fround(a / b), act.min, act.max));
}
