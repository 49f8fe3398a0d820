/**
 * TRANSPOSE_CONV → transpose_conv2d. TFLite inputs: output_shape (constant), weight (OHWI),
 * input, bias (optional). The leading pads come from TFLite Micro's
 * ComputePaddingHeightWidth applied to the output size, as its Prepare does.
 */
import { resolvePadding } from '../padding';
import { BuiltinOptionsType, TransposeConvOptions } from '../schema';
import { activation, Converter, formatError, inputType, positive, requiredOptions, spatial, unsupportedParameter } from './common';
import { constantInts } from './constants';
import { paddingMode } from './window';

const DTYPES: Readonly<Record<string, string>> = { float32: 'float32', int8: 'int8' };

export const transposeConv: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.TransposeConvOptions, TransposeConvOptions);
  const weight = inputType(site, 1, 'weight');
  const input = inputType(site, 2, 'input');
  if (DTYPES[input.dtype] === undefined) unsupportedParameter(site, `input dtype ${input.dtype}`);
  if (weight.dtype !== DTYPES[input.dtype]) unsupportedParameter(site, `weight dtype ${weight.dtype} with a ${input.dtype} input`);
  const bias = site.inputTypes[3];
  if (bias && bias.dtype !== (input.dtype === 'float32' ? 'float32' : 'int32')) {
    unsupportedParameter(site, `bias dtype ${bias.dtype} with a ${input.dtype} input`);
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
    attrs: { strides, pad_before: [top, left], output_shape: outputShape, activation: activation(site, opts.fusedActivation) },
    argPositions: bias ? [2, 1, 3] : [2, 1],
  };
};
