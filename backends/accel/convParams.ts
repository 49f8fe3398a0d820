/**
 * The compile-time parameters of one offloaded conv2d, in the order `accel_conv2d` takes its
 * scalar arguments. The numbers are the shared `convKernelParams` (TFLite prepare-time
 * helpers, as the reference interpreter uses), so kernel and interpreter requantize
 * identically; this file only names them as the accelerator's C interface does.
 */
import { ConvKernelScalarName, LoweringError, OpLoweringInput, convKernelParams } from '../../src/index';

/** Scalar arguments of `accel_conv2d` after its six pointers, in call order. */
export const CONV_SCALAR_PARAMS = [
  'batches',
  'in_h',
  'in_w',
  'in_c',
  'out_h',
  'out_w',
  'out_c',
  'k_h',
  'k_w',
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

export type ConvScalars = Readonly<Record<(typeof CONV_SCALAR_PARAMS)[number], number>>;

export interface AccelConvParams {
  readonly scalars: ConvScalars;
  readonly multipliers: Int32Array;
  readonly shifts: Int32Array;
}

/** `accel_conv2d` calls the kernel extent `k_h`/`k_w` (its C parameter names). */
const SHARED_NAME: Partial<Record<(typeof CONV_SCALAR_PARAMS)[number], ConvKernelScalarName>> = { k_h: 'kernel_h', k_w: 'kernel_w' };

export function accelConvParams(input: OpLoweringInput): AccelConvParams {
  const { scalars, multipliers, shifts } = convKernelParams(input);
  // The accelerator has no grouped convolution: every filter spans all input channels.
  if (scalars.filter_c !== scalars.in_c) {
    const { call } = input;
    throw new LoweringError(`accel conv2d '${call.name}': filter depth ${scalars.filter_c} is not the input depth ${scalars.in_c} (grouped conv2d)`, {
      op: 'conv2d',
      target: 'accel',
    });
  }
  const named = Object.fromEntries(CONV_SCALAR_PARAMS.map((k) => [k, scalars[SHARED_NAME[k] ?? (k as ConvKernelScalarName)]]));
  return { scalars: named as ConvScalars, multipliers, shifts };
}
