/** DEPTHWISE_CONV_2D → depthwise_conv2d. */
import { TypeInferenceError } from '../../../errors';
import { BuiltinOptionsType, DepthwiseConv2DOptions } from '../schema';
import { Converter, presentInputs, requiredOptions, requireWideRequantize, where } from './common';
import { convLike } from './window';

export const depthwiseConv2d: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.DepthwiseConv2DOptions, DepthwiseConv2DOptions);
  const c = convLike(site, opts);
  // 16x8 depthwise always accumulates and requantizes in 64 bits (depthwise_conv.cc).
  if (c.input.dtype === 'int16') requireWideRequantize(site, c.input, c.weight);
  // Recent TFLite kernels ignore the stored depth_multiplier (converters may leave it 0)
  // and derive it from the channel counts; so do we.
  const inChannels = c.input.shape[3];
  const outChannels = c.weight.shape[3];
  if (inChannels <= 0 || outChannels % inChannels !== 0) {
    throw new TypeInferenceError(
      `DEPTHWISE_CONV_2D weight channels ${outChannels} are not a multiple of input channels ${inChannels} (${where(site)})`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return {
    op: 'depthwise_conv2d',
    attrs: {
      strides: c.strides,
      dilation: c.dilation,
      padding: c.padding,
      activation: c.activation,
      depth_multiplier: outChannels / inChannels,
    },
    argPositions: presentInputs(site, 3),
  };
};
