/**
 * DEPTHWISE_CONV_2D as TFLite Micro's reference kernels: output channel
 * ic * depth_multiplier + m reads input channel ic and weight column of that output
 * channel; int8 and 16x8 (see integerConv.ts) requantize per output channel; hybrid (float32
 * activations, int8 weights) as TensorFlow Lite's (src/arith/hybrid.ts).
 */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { dotNumericsOf } from './dotNumerics';
import { perChannelRequant } from './integerConv';
import { forEachWindow, nhwc, windowGeometry } from './window';

export function depthwiseConv2d(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const weight = ctx.input(1, 'weight');
  const bias = ctx.optionalInput(2);
  const g = windowGeometry(ctx);
  const [batches, inH, inW, inC] = nhwc(ctx, input.type.shape, 'input');
  const [, kH, kW, wC] = nhwc(ctx, weight.type.shape, 'weight');
  const [, outH, outW, outC] = nhwc(ctx, ctx.outType.shape, 'output');
  const depthMultiplier = ctx.number('depth_multiplier', inC > 0 ? outC / inC : 1);
  if (wC !== outC || inC * depthMultiplier !== outC) {
    throw ctx.fail(
      `weight [${weight.type.shape.join(', ')}] with depth_multiplier ${depthMultiplier} does not map ${inC} input to ${outC} output channels`,
    );
  }
  const out = allocateTensorData(ctx.outType);
  const activation = ctx.string('activation', 'NONE');
  // Hybrid: one quantization row per batch image.
  const numerics = dotNumericsOf(ctx, 'depthwise_conv2d', { input, weight, bias }, outC, inH * inW * inC, () => ({
    stage: perChannelRequant(ctx, input, weight, outC, activation),
  }));
  const o = out as Float32Array | Int8Array | Int16Array;
  forEachWindow(g, { batches, inH, inW, outH, outW, kH, kW }, (n, oy, ox, taps) => {
    const pixel = (n * outH + oy) * outW + ox;
    for (let ic = 0; ic < inC; ic++)
      for (let m = 0; m < depthMultiplier; m++) {
        const oc = ic * depthMultiplier + m;
        o[pixel * outC + oc] = numerics.output(numerics.sumTaps(0, n, taps, inC, ic, outC, oc, 1), oc, n);
      }
  });
  return out;
}
