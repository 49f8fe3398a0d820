/**
 * ADD as TFLite Micro's reference kernels with broadcasting: float32 and int32 add then
 * clamp to the fused activation (int32: TFLite's CalculateActivationRange<int32_t>); int8/int16 use TFLite's general rescaling (`addSubQuantized`).
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { addSubQuantized, requireDtype, requireSameDtypes, unquantizedBinary } from './elementwise';

export function add(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  return unquantizedBinary(ctx, (a, b) => a + b, (a, b) => (a + b) | 0) ?? addSubQuantized(ctx, 1);
}
