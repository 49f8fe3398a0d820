/**
 * MAXIMUM / MINIMUM as TFLite Micro's kernels, broadcasting: compare the stored values
 * (quantized tensors share their quantization with the output, so no rescale).
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { mapBinary, requireDtype, requireSameDtypes } from './elementwise';

const DTYPES = ['float32', 'int8', 'int16', 'int32'] as const;

export function maximum(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, DTYPES, 'output');
  requireSameDtypes(ctx, 2);
  return mapBinary(ctx, (a, b) => (a > b ? a : b));
}

export function minimum(ctx: KernelContext): TypedArray {
  requireDtype(ctx, ctx.outType.dtype, DTYPES, 'output');
  requireSameDtypes(ctx, 2);
  return mapBinary(ctx, (a, b) => (a < b ? a : b));
}
