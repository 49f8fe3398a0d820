/** CONV_2D → conv2d. */
import { BuiltinOptionsType, Conv2DOptions } from '../schema';
import { Converter, presentInputs, requiredOptions, requireWideRequantize } from './common';
import { convLike } from './window';

export const conv2d: Converter = (site) => {
  const c = convLike(site, requiredOptions(site, BuiltinOptionsType.Conv2DOptions, Conv2DOptions));
  // 16x8 with an int64 bias accumulates and requantizes in 64 bits (conv.cc).
  if (c.input.dtype === 'int16' && site.inputTypes[2]?.dtype === 'int64') requireWideRequantize(site, c.input, c.weight);
  return {
    op: 'conv2d',
    attrs: { strides: c.strides, dilation: c.dilation, padding: c.padding, activation: c.activation },
    argPositions: presentInputs(site, 3),
  };
};
