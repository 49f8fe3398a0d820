/**
 * ADD as TFLite Micro's reference kernels with broadcasting: float32 and int32 add then
 * clamp to the fused activation (int32: TFLite's CalculateActivationRange<int32_t>); int8/int16 use TFLite's general rescaling (`addSubQuantized`).
 */
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { addSubQuantized, clampTo, mapBinary, requireDtype, requireSameDtypes } from './elementwise';
import { int32ActivationRange } from './sub';

export function add(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  if (dtype === 'float32') {
    const act = floatActivationRange(ctx.string('activation', 'NONE'));
    return mapBinary(ctx, (a, b) => clampTo(Math.fround(a + b), act.min, act.max));
  }
  if (dtype === 'int32') {
    const act = int32ActivationRange(ctx.string('activation', 'NONE'));
    return mapBinary(ctx, (a, b) => clampTo((a + b) | 0, act.min, act.max));
  }
  return addSubQuantized(ctx, 1);
}
