/** SUB as TFLite Micro's reference kernels, broadcasting: float32/int32 subtract and clamp; int8/int16 TFLite's general rescaling. */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { addSubQuantized, requireDtype, requireSameDtypes, unquantizedBinary } from './elementwise';

export function sub(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, ['float32', 'int32', 'int8', 'int16'], 'output');
  requireSameDtypes(ctx, 2);
  return unquantizedBinary(ctx, (a, b) => a - b, (a, b) => (a - b) | 0) ?? addSubQuantized(ctx, -1);
}
