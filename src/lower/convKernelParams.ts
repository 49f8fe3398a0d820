/**
 * The compile-time parameters a hand-written int8 conv2d kernel needs (shapes, window,
 * zero-point offsets, activation clamp, per-channel requantization), computed once for every
 * backend that swaps a conv2d for a kernel call. Numbers come from the same TFLite Prepare
 * helpers the CPU loops and the reference interpreter use, so kernel, loops and oracle
 * requantize identically.
 */
import { activationAttr, loweringFail, windowAttrs } from './cpu/attrs';
import { requireDType } from './cpu/convCommon';
import { channelMultipliers, quantOf, quantizedActivationRange } from './cpu/quantParams';
import { OpLoweringInput } from './strategy';

/** Scalar parameters of an NHWC/OHWI int8 conv2d, in the order kernels usually take them. */
export const CONV_KERNEL_SCALARS = [
  'batches',
  'in_h',
  'in_w',
  'in_c',
  'out_h',
  'out_w',
  'out_c',
  'kernel_h',
  'kernel_w',
  'filter_c',
  'stride_h',
  'stride_w',
  'dilation_h',
  'dilation_w',
  'pad_top',
  'pad_left',
  'input_offset',
  'output_offset',
  'act_min',
  'act_max',
] as const;

export type ConvKernelScalarName = (typeof CONV_KERNEL_SCALARS)[number];
export type ConvKernelScalars = Readonly<Record<ConvKernelScalarName, number>>;

export interface ConvKernelParams {
  readonly scalars: ConvKernelScalars;
  /** Per output channel: TFLite quantized multiplier (Q31) and shift (positive = left). */
  readonly multipliers: Int32Array;
  readonly shifts: Int32Array;
}

/**
 * Kernel parameters of one int8 conv2d call (grouped convolutions included: `filter_c` is
 * the filter depth, `in_c / filter_c` the group count). Throws a LoweringError naming the
 * call for non-int8 tensors, shapes that do not fit, malformed attributes or missing
 * quantization.
 */
export function convKernelParams(input: OpLoweringInput): ConvKernelParams {
  const { call } = input;
  const [inType, weightType] = input.argTypes;
  const outType = call.type;
  requireDType(call, [inType, weightType, outType], ['int8'], 'conv2d kernel');
  const [batches, inH, inW, inC] = inType.shape;
  const [outC, kernelH, kernelW, filterC] = weightType.shape;
  const [, outH, outW, outC2] = outType.shape;
  if (filterC === 0 || inC % filterC !== 0 || outC2 !== outC || outC % (inC / filterC) !== 0) {
    loweringFail(call, `conv2d weight [${weightType.shape.join(', ')}] does not fit input [${inType.shape.join(', ')}] / output [${outType.shape.join(', ')}]`);
  }
  const window = windowAttrs(call);
  const [actMin, actMax] = quantizedActivationRange(call, activationAttr(call), outType);
  const requant = channelMultipliers(call, inType, weightType, outType, outC);
  return {
    scalars: {
      batches,
      in_h: inH,
      in_w: inW,
      in_c: inC,
      out_h: outH,
      out_w: outW,
      out_c: outC,
      kernel_h: kernelH,
      kernel_w: kernelW,
      filter_c: filterC,
      stride_h: window.strideH,
      stride_w: window.strideW,
      dilation_h: window.dilationH,
      dilation_w: window.dilationW,
      pad_top: window.padTop,
      pad_left: window.padLeft,
      input_offset: -quantOf(call, inType, 'input').zeroPoint,
      output_offset: quantOf(call, outType, 'output').zeroPoint,
      act_min: actMin,
      act_max: actMax,
    },
    multipliers: Int32Array.from(requant, (m) => m.multiplier),
    shifts: Int32Array.from(requant, (m) => m.shift),
  };
}
