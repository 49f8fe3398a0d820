/** Window attributes shared by convolutions and pools: TFLite padding mode resolved to explicit pads. */
import { Conv2DOptions, DepthwiseConv2DOptions, PaddingCode } from '../schema';
import { PaddingMode, resolvePadding } from '../padding';
import { quantizedActivation, formatError, inputType, OperatorSite, positive, spatial } from './common';

export function paddingMode(site: OperatorSite, code: number): PaddingMode {
  if (code === PaddingCode.SAME) return 'SAME';
  if (code === PaddingCode.VALID) return 'VALID';
  return formatError(site, `unknown padding ${code}`);
}

export function convLike(site: OperatorSite, opts: Conv2DOptions | DepthwiseConv2DOptions) {
  const input = inputType(site, 0, 'input');
  const weight = inputType(site, 1, 'weight');
  const strides = positive(site, 'strides', [opts.strideH, opts.strideW]);
  const dilation = positive(site, 'dilation', [opts.dilationH, opts.dilationW]);
  const padding = resolvePadding(paddingMode(site, opts.padding), {
    input: spatial(site, input, 'input'),
    filter: spatial(site, weight, 'weight'),
    strides,
    dilation,
  });
  return { input, weight, strides, dilation, padding, activation: quantizedActivation(site, opts.fusedActivation) };
}
