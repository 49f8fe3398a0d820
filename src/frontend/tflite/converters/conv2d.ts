/** CONV_2D → conv2d. */
import { BuiltinOptionsType, Conv2DOptions } from '../schema';
import { Converter, presentInputs, requiredOptions } from './common';
import { convLike } from './window';

export const conv2d: Converter = (site) => {
  const c = convLike(site, requiredOptions(site, BuiltinOptionsType.Conv2DOptions, Conv2DOptions));
  return {
    op: 'conv2d',
    attrs: { strides: c.strides, dilation: c.dilation, padding: c.padding, activation: c.activation },
    argPositions: presentInputs(site, 3),
  };
};
