/**
 * CONV_2D as TFLite Micro's reference kernels: float32 (float accumulation), int8 and 16x8
 * (int16 activations, int8 weights; see integerConv.ts) with per-channel requantization;
 * hybrid (float32 activations, int8 weights) as TensorFlow Lite's (src/arith/hybrid.ts). Out-of-image taps are skipped, which for int8 equals
 * padding with the input zero point.
 */
import { conv2dQuantizesPerPixel } from '../../arith/hybrid';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { dotNumericsOf } from './dotNumerics';
import { perChannelRequant } from './integerConv';
import { forEachWindow, nhwc, windowGeometry } from './window';

export function conv2d(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const weight = ctx.input(1, 'weight');
  const bias = ctx.optionalInput(2);
  const g = windowGeometry(ctx);
  const [batches, inH, inW, inC] = nhwc(ctx, input.type.shape, 'input');
  const [outC, kH, kW, kC] = nhwc(ctx, weight.type.shape, 'weight');
  const [, outH, outW, outDepth] = nhwc(ctx, ctx.outType.shape, 'output');
  if (outDepth !== outC || kC === 0 || inC % kC !== 0) {
    throw ctx.fail(`weight [${weight.type.shape.join(', ')}] does not fit input channels ${inC} / output ${outDepth}`);
  }
  const groups = inC / kC;
  const filtersPerGroup = outC / groups;
  const out = allocateTensorData(ctx.outType);
  const activation = ctx.string('activation', 'NONE');
  // Hybrid: one quantization row per batch image, or per pixel for an ungrouped 1x1, stride-1,
  // unpadded conv2d (whose output pixels are its input pixels).
  const perPixel =
    input.type.dtype === 'float32' &&
    weight.type.dtype !== 'float32' &&
    conv2dQuantizesPerPixel(kH, kW, ctx.numbers('strides', [1, 1]), ctx.numbers('padding', [0, 0, 0, 0]), groups);
  const numerics = dotNumericsOf(ctx, 'conv2d', { input, weight, bias }, outC, perPixel ? inC : inH * inW * inC, () => ({
    stage: perChannelRequant(ctx, input, weight, outC, activation),
  }));
  const o = out as Float32Array | Int8Array | Int16Array;
  forEachWindow(g, { batches, inH, inW, outH, outW, kH, kW }, (n, oy, ox, taps) => {
    const pixel = (n * outH + oy) * outW + ox;
    const row = perPixel ? pixel : n;
    for (let oc = 0; oc < outC; oc++) {
      const cBase = Math.floor(oc / filtersPerGroup) * kC;
      const acc = numerics.sumTaps(0, row, taps, inC, cBase, kC, oc * kH * kW * kC, kC);
      o[pixel * outC + oc] = numerics.output(acc, oc, row);
    }
  });
  return out;
}
