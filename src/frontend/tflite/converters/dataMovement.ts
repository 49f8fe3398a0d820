/**
 * What the data-movement converters share: the dtypes TFLite Micro's kernels accept and
 * the quantization rules under which a plain copy is exact.
 */
import { TensorType } from '../../../ir/graph/types';
import { OperatorSite, unsupportedParameter } from './common';

/** float32, int8, int16, int32: what TFLite Micro's copy-like kernels take. */
export const COPY_DTYPES = ['float32', 'int8', 'int16', 'int32'] as const;

/** int8 inputs must carry the output's scale and zero point (TFLite Micro copies raw values). */
export function requireSameQuantization(site: OperatorSite, input: TensorType, output: TensorType, role: string): void {
  if (input.dtype !== 'int8' && input.dtype !== 'int16') return;
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
