/**
 * TRANSPOSE_CONV → transpose_conv2d. TFLite inputs: output_shape (constant), weight (OHWI),
 * input, bias (optional). The leading pads come from TFLite Micro's
 * ComputePaddingHeightWidth applied to the output size, as its Prepare does.
 */
import { resolvePadding } from '../padding';
import { BuiltinOptionsType, TransposeConvOptions } from '../schema';
import { quantizedActivation, Converter, formatError, inputType, positive, requiredOptions, requireWideRequantize, spatial, unsupportedParameter, requireDtype } from './common';
import { constantInts } from './constants';
import { paddingMode } from './window';

/** Weight dtype per input dtype (int16 activations take int8 weights: 16x8). */
const DTYPES: Readonly<Record<string, string>> = { float32: 'float32', int8: 'int8', int16: 'int8' };
/** Bias dtypes TFLite Micro reads per input dtype (16x8: int64, or int16 widened). */
const BIAS: Readonly<Record<string, readonly string[]>> = { float32: ['float32'], int8: ['int32'], int16: ['int64', 'int16'] };

export const transposeConv: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.TransposeConvOptions, TransposeConvOptions);
  const weight = inputType(site, 1, 'weight');
  const input = inputType(site, 2, 'input');
  requireDtype(site, input, Object.keys(DTYPES), 'input');
  if (weight.dtype !== DTYPES[input.dtype]) unsupportedParameter(site, `weight dtype ${weight.dtype} with a ${input.dtype} input`);
  const bias = site.inputTypes[3];
  if (bias && !BIAS[input.dtype].includes(bias.dtype)) unsupportedParameter(site, `bias dtype ${bias.dtype} with a ${input.dtype} input`);
  if (input.dtype === 'int16') {
    // TFLite Micro's 16x8 kernel adds no input or output offset: both zero points must be 0.
    for (const [role, t] of [['input', input], ['output', site.outputType]] as const) {
      if (t.quant && t.quant.zeroPoint.some((z) => z !== 0)) unsupportedParameter(site, `int16 ${role} zero point ${t.quant.zeroPoint[0]}`);
    }
    // 16x8 accumulates in an int64 scratch and requantizes in 64 bits (transpose_conv.cc).
    requireWideRequantize(site, input, weight);
  }
  const outputShape = constantInts(site, 0, 'output_shape');
  if (outputShape.length !== 4) formatError(site, `output_shape has ${outputShape.length} values, expected 4 (NHWC)`);
  const declared = site.outputType.shape;
  if (declared.length !== 4 || declared.some((d, i) => d !== outputShape[i])) {
    formatError(site, `output_shape [${outputShape}] differs from the output tensor's shape [${declared}]`);
  }
  const strides = positive(site, 'strides', [opts.strideH, opts.strideW]);
  const [top, left] = resolvePadding(paddingMode(site, opts.padding), {
    input: spatial(site, site.outputType, 'output'),
    filter: spatial(site, weight, 'weight'),
    strides,
    dilation: [1, 1],
  });
  return {
    op: 'transpose_conv2d',
    attrs: { strides, pad_before: [top, left], output_shape: outputShape, activation: quantizedActivation(site, opts.fusedActivation) },
    argPositions: bias ? [2, 1, 3] : [2, 1],
  };
};
