/**
 * The one hand-written kernel of the vanilla accelerator, `vanilla_conv2dnchw`, described
 * once for every place that needs it: the strategy that records its parameters, the TIR pass
 * that emits the call, the TypeScript simulation and the C header (runtime/vanilla_conv2d.h).
 *
 * The name is TVM's (`my_ai_hw_conv2dnchw` in apps/uma/_template) for familiarity; the data
 * layout is ours: NHWC activations, OHWI weights, int8 with int32 bias, TFLite's per-channel
 * requantization.
 */
import { CONV_KERNEL_SCALARS, ConvKernelScalarName } from '../../src/index';

export const VANILLA_CONV2D = 'vanilla_conv2dnchw';

/** Annotation key the vanilla conv2d strategy puts on the loop nest the TIR pass replaces. */
export const CONV2D_NEST_ANNOTATION = 'vanilla.conv2d';

/**
 * The buffers of one convolution, as the ids of their handle vars (vars are identified by
 * id; names may repeat across scopes). `bias` is absent for a conv2d without bias.
 */
export interface Conv2dBufferIds {
  readonly input: number;
  readonly weights: number;
  readonly bias?: number;
  readonly output: number;
}

/**
 * The scalar parameters of `vanilla_conv2dnchw`, in the kernel's argument order: the kernel
 * was written to take exactly the public conv kernel parameters, in their order.
 */
export const CONV2D_SCALAR_PARAMS = CONV_KERNEL_SCALARS;

export type Conv2dScalarName = ConvKernelScalarName;
export type Conv2dScalars = Readonly<Record<Conv2dScalarName, number>>;

/** Everything the kernel call needs, as recorded on the loop nest (JSON-safe). */
export interface Conv2dCallParams {
  readonly buffers: Conv2dBufferIds;
  readonly scalars: Conv2dScalars;
  /** Per output channel: TFLite quantized multiplier (Q31) and shift (positive = left). */
  readonly multipliers: readonly number[];
  readonly shifts: readonly number[];
}

/**
 * The C parameters in call order: six pointers (input, weights, bias, output, multipliers,
 * shifts), then the scalars. The TIR pass, the simulation and the header follow this list.
 */
export const CONV2D_C_PARAMS: readonly string[] = [
  'const int8_t* input',
  'const int8_t* weights',
  'const int32_t* bias',
  'int8_t* output',
  'const int32_t* out_multiplier',
  'const int32_t* out_shift',
  ...CONV2D_SCALAR_PARAMS.map((p) => `int32_t ${p}`),
];

export const CONV2D_POINTER_ARGS = 6;
