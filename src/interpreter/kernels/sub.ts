/** SUB as TFLite Micro's reference kernels, broadcasting: float32/int32 subtract and clamp; int8/int16 TFLite's general rescaling. */
import { floatActivationRange, integerRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { addSubQuantized, clampTo, mapBinary, requireDtype, requireSameDtypes } from './elementwise';

/** TFLite `CalculateActivationRange<int32_t>`: the float bounds cut to int32. */
export function int32ActivationRange(activation: string): { min: number; max: number } {
  const f = floatActivationRange(activation);
  const r = integerRange('int32');
  return { min: Math.max(f.min, r.min), max: Math.min(f.max, r.max) };
}

export function sub(ctx: KernelContext): TypedArray {
  const dtype = ctx.outType.dtype;
  requireDtype(ctx, dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  const activation = ctx.string('activation', 'NONE');
  if (dtype === 'float32') {
    const act = floatActivationRange(activation);
    return mapBinary(ctx, (a, b) => clampTo(Math.fround(a - b), act.min, act.max));
  }
  if (dtype === 'int32') {
    const act = int32ActivationRange(activation);
    return mapBinary(ctx, (a, b) => clampTo((a - b) | 0, act.min, act.max));
  }
  return addSubQuantized(ctx, -1);
}
