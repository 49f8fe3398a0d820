/**
 * Prepare-time quantization parameters computed exactly as TFLite Micro's kernels compute
 * them (kernel_util.cc, *_common.cc), shared by the interpreter and the lowering so both
 * bake in the same multipliers. Scales are stored as float32 in a .tflite file; each
 * input scale is passed through `Math.fround` so products TFLite forms in `float` match.
 */
import { DType } from '../ir/graph/types';
import { QuantizedMultiplier, quantizeMultiplier, roundHalfAwayFromZero } from './fixedpoint';

export interface ActivationRange {
  readonly min: number;
  readonly max: number;
}

const f32 = Math.fround;
/** FLT_MAX: TFLite's float activation bounds are +-numeric_limits<float>::max(). */
const FLOAT_MAX = 3.4028234663852886e38;

/** Representable range of an integer dtype. */
export function integerRange(dtype: DType): ActivationRange {
  switch (dtype) {
    case 'int8':
      return { min: -128, max: 127 };
    case 'uint8':
      return { min: 0, max: 255 };
    case 'int16':
      return { min: -32768, max: 32767 };
    case 'int32':
      return { min: -2147483648, max: 2147483647 };
    default:
      throw new RangeError(`integerRange: ${dtype} is not an integer dtype`);
  }
}

/** TFLite `CalculateActivationRange` for float kernels. */
export function floatActivationRange(activation: string): ActivationRange {
  switch (activation) {
    case 'RELU':
      return { min: 0, max: FLOAT_MAX };
    case 'RELU6':
      return { min: 0, max: 6 };
    case 'RELU_N1_TO_1':
      return { min: -1, max: 1 };
    default:
      return { min: -FLOAT_MAX, max: FLOAT_MAX };
  }
}

/** TFLite's activation `Quantize`: zero_point + round(f / scale), the division in float. */
function quantizeActivationBound(f: number, scale: number, zeroPoint: number): number {
  return zeroPoint + roundHalfAwayFromZero(f32(f / f32(scale)));
}

/** TFLite `CalculateActivationRangeQuantized`: the output clamp of a quantized kernel. */
export function quantizedActivationRange(
  activation: string,
  dtype: DType,
  scale: number,
  zeroPoint: number,
): ActivationRange {
  const { min: qmin, max: qmax } = integerRange(dtype);
  switch (activation) {
    case 'RELU':
      return { min: Math.max(qmin, quantizeActivationBound(0, scale, zeroPoint)), max: qmax };
    case 'RELU6':
      return {
        min: Math.max(qmin, quantizeActivationBound(0, scale, zeroPoint)),
        max: Math.min(qmax, quantizeActivationBound(6, scale, zeroPoint)),
      };
    case 'RELU_N1_TO_1':
      return {
        min: Math.max(qmin, quantizeActivationBound(-1, scale, zeroPoint)),
        max: Math.min(qmax, quantizeActivationBound(1, scale, zeroPoint)),
      };
    default:
      return { min: qmin, max: qmax };
  }
}

/**
 * Why TFLite's `CalculateActivationRangeQuantized` (kernel_util.cc) would fail Prepare on this
 * fused activation and output scale, or undefined. Its `Quantize` rounds each bound f / scale
 * in float and TF_LITE_ENSUREs the result lies within int32: RELU6 below an output scale of
 * about 2.8e-9 (6 / 2^31), RELU_N1_TO_1 below about 4.7e-10, leaves it and TFLite Micro refuses
 * the model. A bound of exactly 2^31 passes that check but its int32 conversion is undefined
 * (x86 gives INT32_MIN, an upper clamp below every value); it is refused too.
 */
export function activationBoundsProblem(activation: string, scale: number): string | undefined {
  // RELU's only bound, 0, always quantizes to the zero point.
  const bounds = activation === 'RELU6' ? [0, 6] : activation === 'RELU_N1_TO_1' ? [-1, 1] : [];
  for (const f of bounds) {
    const t = roundHalfAwayFromZero(f32(f / f32(scale)));
    if (!(t >= -2147483648 && t < 2147483648)) {
      return `fused ${activation} on output scale ${String(Number(scale.toPrecision(6)))}: its bound ${f} quantizes past int32 (TFLite Micro's CalculateActivationRangeQuantized refuses it)`;
    }
  }
  return undefined;
}

export interface PerChannelMultipliers {
  readonly multipliers: Int32Array;
  readonly shifts: Int32Array;
}

/**
 * TFLite `PopulateConvolutionQuantizationParams` (conv, depthwise, per-channel dense):
 * quantizeMultiplier(double(input_scale) * double(filter_scale[c]) / double(output_scale)),
 * a per-tensor filter scale broadcast over all channels.
 */
export function perChannelMultipliers(
  inputScale: number,
  filterScales: readonly number[],
  outputScale: number,
  channels: number,
): PerChannelMultipliers {
  const multipliers = new Int32Array(channels);
  const shifts = new Int32Array(channels);
  for (let c = 0; c < channels; c++) {
    const filterScale = f32(filterScales.length > 1 ? filterScales[c] : filterScales[0]);
    const q = quantizeMultiplier((f32(inputScale) * filterScale) / f32(outputScale));
    multipliers[c] = q.multiplier;
    shifts[c] = q.shift;
  }
  return { multipliers, shifts };
}

/**
 * TFLite `GetQuantizedConvolutionMultipler` as the per-tensor FULLY_CONNECTED path uses
 * it: the input*filter scale product is formed in float, then divided in double.
 */
export function denseOutputMultiplier(inputScale: number, filterScale: number, outputScale: number): QuantizedMultiplier {
  return quantizeMultiplier(f32(f32(inputScale) * f32(filterScale)) / f32(outputScale));
}

/**
 * Why TFLite's int64 `MultiplyByQuantizedMultiplier` (the 16x8 kernels' requantize of an int64
 * accumulator) cannot take these scales, or undefined. It rounds with `1 << (14 - shift)` and
 * shifts right by `15 - shift`: from a real multiplier of 2^14 on (shift 15) both are undefined
 * in C (TFLite asserts shift < 8 in debug builds). The interpreter then threw a RangeError
 * and the generated C shifted by a negative amount; refused instead. Any scale missing or not
 * positive is left to the operator's own checks.
 */
export function wideRequantizeProblem(
  inputScale: number | undefined,
  weightScales: readonly number[],
  outputScale: number | undefined,
  productInFloat = false,
): string | undefined {
  if (!(inputScale! > 0) || !(outputScale! > 0) || weightScales.length === 0) return undefined;
  // As the kernels form them: per channel (perChannelMultipliers); per-tensor FULLY_CONNECTED
  // and BATCH_MATMUL with the product in float (denseOutputMultiplier). quantizeMultiplier
  // refuses 2^31 or more (and non-finite) itself, naming the multiplier.
  const shifts = productInFloat
    ? weightScales.map((w) => denseOutputMultiplier(inputScale!, w, outputScale!).shift)
    : Array.from(perChannelMultipliers(inputScale!, weightScales, outputScale!, weightScales.length).shifts);
  const c = shifts.findIndex((shift) => shift >= 15);
  if (c < 0) return undefined;
  const w = weightScales[c];
  const product = productInFloat ? f32(f32(inputScale!) * f32(w)) : f32(inputScale!) * f32(w);
  const g = (x: number): string => String(Number(x.toPrecision(6)));
  return `int16 output scale ${g(outputScale!)} too small for input scale ${g(inputScale!)} and weight scale ${g(w)} (requantization multiplier ${g(product / f32(outputScale!))}, about 2^14 or more: TFLite's 64-bit requantize would shift by a negative amount)`;
}

/**
 * TFLite Micro's int16 Prepare of RELU, ABS, LOGISTIC and TANH requires both zero points 0:
 * the reason, or undefined.
 */
export function int16ZeroPointsProblem(op: string, input: { zeroPoint: number }, output: { zeroPoint: number }): string | undefined {
  if (input.zeroPoint === 0 && output.zeroPoint === 0) return undefined;
  return `int16 ${op} needs zero points 0, got ${input.zeroPoint} and ${output.zeroPoint}`;
}

/** TFLite Micro quantize/requantize: quantizeMultiplier(double(in_scale) / double(out_scale)). */
export function requantizeMultiplier(inputScale: number, outputScale: number): QuantizedMultiplier {
  return quantizeMultiplier(f32(inputScale) / f32(outputScale));
}

export interface AddQuantParams {
  readonly leftShift: number;
  readonly input1Multiplier: number;
  readonly input1Shift: number;
  readonly input2Multiplier: number;
  readonly input2Shift: number;
  readonly outputMultiplier: number;
  readonly outputShift: number;
}

/** The left shift, the common input scale and the output rescale of TFLite Micro's ADD/SUB (in double). */
function addRescales(input1Scale: number, input2Scale: number, outputScale: number, dtype: DType) {
  const leftShift = dtype === 'int16' ? 15 : 20;
  const twiceMaxInputScale = 2 * Math.max(f32(input1Scale), f32(input2Scale));
  return { leftShift, twiceMaxInputScale, outputRescale: twiceMaxInputScale / ((1 << leftShift) * f32(outputScale)) };
}

/**
 * TFLite Micro `CalculateOpDataAdd` for int8 (left_shift 20) and int16 (15): both inputs
 * are rescaled to twice the larger input scale, summed, then rescaled to the output.
 * `op` 'sub' forms the three ratios in float, as `CalculateOpDataSub` does.
 */
export function addQuantParams(
  input1Scale: number,
  input2Scale: number,
  outputScale: number,
  dtype: DType = 'int8',
  op: 'add' | 'sub' = 'add',
): AddQuantParams {
  const { leftShift, twiceMaxInputScale, outputRescale } = addRescales(input1Scale, input2Scale, outputScale, dtype);
  // TFLite Micro's SUB (sub_common.cc CalculateOpDataSub) divides in float and only then widens
  // to double (`static_cast<double>(input1->params.scale / twice_max_input_scale)`, and the
  // output rescale as `twice_max_input_scale / ((1 << left_shift) * output->params.scale)` in
  // float); ADD (add_common.cc) divides in double. The multipliers differ in their low bits.
  const real = (x: number): number => (op === 'sub' ? f32(x) : x);
  const in1 = quantizeMultiplier(real(f32(input1Scale) / twiceMaxInputScale));
  const in2 = quantizeMultiplier(real(f32(input2Scale) / twiceMaxInputScale));
  const out = quantizeMultiplier(op === 'sub' ? f32(twiceMaxInputScale / f32((1 << leftShift) * f32(outputScale))) : outputRescale);
  return {
    leftShift,
    input1Multiplier: in1.multiplier,
    input1Shift: in1.shift,
    input2Multiplier: in2.multiplier,
    input2Shift: in2.shift,
    outputMultiplier: out.multiplier,
    outputShift: out.shift,
  };
}

/**
 * Why TFLite Micro's ADD/SUB Prepare would abort on these scales, or undefined: it takes the
 * output rescale (twice the larger input scale over 2^left_shift times the output scale) with
 * `QuantizeMultiplierSmallerThanOneExp`, which checks it is in (0, 1). Past that the kernel's
 * rescale shifts left and wraps in int32 (an int16 SUB of 32767 and -32768 into a scale 1e5
 * times smaller gave -32768).
 */
export function addRescaleProblem(input1Scale: number, input2Scale: number, outputScale: number, dtype: DType): string | undefined {
  const real = addRescales(input1Scale, input2Scale, outputScale, dtype).outputRescale;
  if (real > 0 && real < 1) return undefined;
  const g = (x: number): string => String(Number(x.toPrecision(6)));
  return `${dtype} output scale ${g(outputScale)} too small for input scales ${g(input1Scale)} and ${g(input2Scale)} (output rescale ${g(real)}, not below 1: TFLite Micro refuses it)`;
}

/** Integer bits of the scaled input difference in TFLite's int8 softmax (Q5.26). */
export const SOFTMAX_SCALED_DIFF_INTEGER_BITS = 5;
/** Integer bits of the sum-of-exps accumulator in TFLite's int8 softmax (Q12.19). */
export const SOFTMAX_ACCUMULATION_INTEGER_BITS = 12;

export interface SoftmaxQuantParams {
  readonly inputMultiplier: number;
  readonly inputLeftShift: number;
  /** Differences from the row max below this contribute exp = 0. */
  readonly diffMin: number;
}

/** TFLite `CalculateInputRadius`. */
export function calculateInputRadius(inputIntegerBits: number, inputLeftShift: number, totalSignedBits = 31): number {
  const maxInputRescaled =
    (1.0 * ((1 << inputIntegerBits) - 1) * 2 ** (totalSignedBits - inputIntegerBits)) / 2 ** inputLeftShift;
  return Math.floor(maxInputRescaled);
}

/**
 * PreprocessSoftmaxScaling's real input multiplier, beta * scale * 2^(31 - 5) in the
 * double-rounding build, capped at 2^31 - 1.
 */
function softmaxRealMultiplier(beta: number, inputScale: number): number {
  return Math.min(f32(beta) * f32(inputScale) * (1 << (31 - SOFTMAX_SCALED_DIFF_INTEGER_BITS)), 2 ** 31 - 1.0);
}

/**
 * PreprocessLogSoftmaxScalingExp's real reverse scaling divisor, 2^(31 - left shift) /
 * multiplier, which QuantizeMultiplierSmallerThanOneExp then quantizes (it must be below 1).
 */
export function logSoftmaxReverseScaling(inputMultiplier: number, inputLeftShift: number): number {
  return 2 ** (31 - inputLeftShift) / inputMultiplier;
}

/**
 * TFLite `PreprocessSoftmaxScaling` + `CalculateInputRadius` for int8 softmax
 * (double-rounding build: the real multiplier is capped at 2^31 - 1).
 */
export function softmaxQuantParams(beta: number, inputScale: number): SoftmaxQuantParams {
  const q = quantizeMultiplier(softmaxRealMultiplier(beta, inputScale));
  return {
    inputMultiplier: q.multiplier,
    inputLeftShift: q.shift,
    diffMin: -1.0 * calculateInputRadius(SOFTMAX_SCALED_DIFF_INTEGER_BITS, q.shift),
  };
}

/**
 * Why TFLite Micro's int8 SOFTMAX / LOG_SOFTMAX Prepare would abort on this beta and input
 * scale, or undefined. PreprocessSoftmaxScaling (quantization_util.cc) passes
 * min(beta * scale * 2^26, 2^31 - 1) to QuantizeMultiplierGreaterThanOne, whose
 * TFLITE_CHECK_GT(double_multiplier, 1.) aborts at 1 or below (beta x scale at most 2^-26,
 * about 1.49e-8). LOG_SOFTMAX (beta 1) then quantizes the reverse scaling divisor
 * 2^(31 - left_shift) / multiplier with QuantizeMultiplierSmallerThanOneExp, whose
 * TFLITE_CHECK_LT(double_multiplier, 1.) aborts when it reaches 1 (a product just above 2^-26
 * whose multiplier rounds to 2^30).
 */
export function softmaxScalingProblem(beta: number, inputScale: number, log = false): string | undefined {
  const real = softmaxRealMultiplier(beta, inputScale);
  const g = (x: number): string => String(Number(x.toPrecision(6)));
  if (!(real > 1)) {
    return `input scale x beta ${g(f32(beta) * f32(inputScale))} is not above 2^-26 (TFLite Micro's PreprocessSoftmaxScaling aborts in QuantizeMultiplierGreaterThanOne)`;
  }
  if (log) {
    const q = quantizeMultiplier(real);
    if (!(logSoftmaxReverseScaling(q.multiplier, q.shift) < 1)) {
      return `input scale ${g(f32(inputScale))}: the reverse scaling divisor is not below 1 (TFLite Micro's PreprocessLogSoftmaxScalingExp aborts)`;
    }
  }
  return undefined;
}

/** SOFTMAX input -> output dtypes TFLite Micro's kernel runs. */
export const SOFTMAX_SIGNATURES: readonly (readonly [DType, DType])[] = [
  ['int8', 'int8'],
  ['int8', 'int16'],
  ['int16', 'int16'],
  ['float32', 'float32'],
];

/**
 * TFLite Micro `CalculateSoftmaxParams`' output checks for int8 input: an int8 output must
 * have zero point -128 and scale exactly 1/256; an int16 output zero point -32768 and a
 * scale within 0.001/65536 of 1/65536 (converters write 1/65535). Returns why `dtype` with
 * this quantization is not accepted, or undefined when it is.
 */
export function softmaxOutputQuantProblem(dtype: DType, scale: number, zeroPoint: number): string | undefined {
  if (dtype === 'int8') {
    if (zeroPoint !== -128 || f32(scale) !== f32(1 / 256)) {
      return `int8 output must have zero point -128 and scale 1/256, got ${zeroPoint} and ${scale}`;
    }
    return undefined;
  }
  if (dtype === 'int16') {
    const target = f32(1 / 65536);
    if (zeroPoint !== -32768 || Math.abs(f32(scale) - target) > f32(0.001 * target)) {
      return `int16 output must have zero point -32768 and scale 1/65536, got ${zeroPoint} and ${scale}`;
    }
    return undefined;
  }
  return `output dtype ${dtype} is not an int8 softmax output (int8 or int16)`;
}

export interface SvdfIntegerParams {
  readonly scale1: QuantizedMultiplier;
  readonly scale2: QuantizedMultiplier;
}

/**
 * TFLite Micro `PrepareSvdf` (integer path): both effective scales are formed in float
 * and only then widened to double.
 */
export function svdfIntegerParams(
  inputScale: number,
  weightsFeatureScale: number,
  stateScale: number,
  weightsTimeScale: number,
  outputScale: number,
): SvdfIntegerParams {
  const s1 = f32(f32(f32(inputScale) * f32(weightsFeatureScale)) / f32(stateScale));
  const s2 = f32(f32(f32(stateScale) * f32(weightsTimeScale)) / f32(outputScale));
  return { scale1: quantizeMultiplier(s1), scale2: quantizeMultiplier(s2) };
}

/** Operators with a 16x8 (int16 activations, int8 weights) kernel in TFLite Micro. */
export type Op16x8 = 'conv2d' | 'depthwise_conv2d' | 'dense';

/**
 * The accumulator of TFLite Micro's 16x8 kernels, which also picks the requantize overload
 * (int64: the Q15 `MultiplyByQuantizedMultiplier(int64_t, ...)`): CONV_2D and
 * FULLY_CONNECTED accumulate in the bias type (int32 when there is no bias),
 * DEPTHWISE_CONV_2D always in int64 and reads its bias as int64. Undefined when TFLite
 * Micro has no kernel for that bias dtype.
 */
export function accumulatorDType16x8(op: Op16x8, biasDtype: DType | undefined): 'int32' | 'int64' | undefined {
  if (op === 'depthwise_conv2d') return biasDtype === undefined || biasDtype === 'int64' ? 'int64' : undefined;
  if (biasDtype === undefined || biasDtype === 'int32') return 'int32';
  return biasDtype === 'int64' ? 'int64' : undefined;
}

/**
 * QUANTIZE signatures TFLite Micro runs (quantize_common.cc), input -> outputs; float32 ->
 * uint8 is TFLite's AffineQuantize too (TFLite Micro dropped it; kept for existing models).
 */
export const QUANTIZE_SIGNATURES: Readonly<Record<string, readonly DType[]>> = {
  float32: ['int8', 'int16', 'uint8'],
  int32: ['int8', 'int16'],
  int16: ['int8', 'int16', 'int32'],
  int8: ['int8', 'uint8', 'int16', 'int32'],
  uint8: ['int8'],
};

/** Why QUANTIZE `input` -> `output` is not supported, or undefined when it is. */
export function quantizeSignatureProblem(input: DType, output: DType): string | undefined {
  const outs = QUANTIZE_SIGNATURES[input];
  if (outs?.includes(output)) return undefined;
  const supported = Object.entries(QUANTIZE_SIGNATURES).map(([i, o]) => `${i} -> ${o.join('/')}`).join(', ');
  return `quantize ${input} -> ${output} is not supported (TFLite Micro has ${supported})`;
}
