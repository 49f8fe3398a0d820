/**
 * What the data-movement converters share: the dtypes TFLite Micro's kernels accept and
 * the quantization rules under which a plain copy is exact.
 */
import { TensorType } from '../../../ir/graph/types';
import { OperatorSite, unsupportedParameter } from './common';

/** float32, int8, int16, int32: what TFLite Micro's copy-like kernels take. */
export const COPY_DTYPES = ['float32', 'int8', 'int16', 'int32'] as const;

/**
 * Where TFLite Micro insists (CONCATENATION's int8 inputs, PADV2's int8 constant), a tensor
 * must carry the output's scale and zero point: the kernel copies raw values. Elsewhere
 * (PAD's input, slices, transposes) TFLite Micro copies raw values without checking, and so
 * does uma-ts.
 */
export function requireSameQuantization(site: OperatorSite, input: TensorType, output: TensorType, role: string): void {
  if (input.dtype !== 'int8') return;
  const a = input.quant;
  const b = output.quant;
  if (!a || !b) return;
  if (Math.fround(a.scale[0]) !== Math.fround(b.scale[0]) || a.zeroPoint[0] !== b.zeroPoint[0]) {
    unsupportedParameter(
      site,
      `${role} quantization (scale ${a.scale[0]}, zero point ${a.zeroPoint[0]}) differing from the output's (scale ${b.scale[0]}, zero point ${b.zeroPoint[0]}): TFLite Micro does not rescale ${input.dtype}`,
    );
  }
}

/** A strided_slice call of `input` (TFLite input 0 unless `position` says otherwise). */
export function sliceCall(begin: readonly number[], strides: readonly number[], sizes: readonly number[], position = 0) {
  return { op: 'strided_slice', attrs: { begin: [...begin], strides: [...strides], sizes: [...sizes] }, argPositions: [position] };
}
