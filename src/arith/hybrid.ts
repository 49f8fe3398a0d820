/**
 * Dynamic-range ("hybrid") CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: float32
 * activations, int8 constant weights. Each quantization row of the input is quantized to
 * int8 at run time, asymmetrically; int8 x int8 products accumulate in int32 as
 * w * (q - zero_point); the output is `(float)acc * filter_scale[oc] * row_scale + bias[oc]`,
 * then the fused activation.
 *
 * Numerics are what LiteRT (TensorFlow Lite with its default XNNPack delegate) computes,
 * measured against it: the row parameters of XNNPack's xnn_f32_qd8_asymmetric_quantization_params
 * (TFLite's AsymmetricQuantizeFloats recipe, range widened to include 0, in float: multiplier
 * 255 / (max - min), zero point nudged from the smaller-error end, rounded half to even) and its
 * f32-qs8 conversion (x * multiplier clamped, rounded half to even, + zero point). TFLite's
 * builtin kernels (double parameters, halves away from zero) differ only on exact ties. The
 * rows are a whole batch image for conv2d and depthwise_conv2d (as TFLite's
 * EvalHybridPerChannel), one input row for dense (always asymmetric, whatever
 * `asymmetric_quantize_inputs` says), and one pixel for an ungrouped 1x1, stride-1, unpadded conv2d
 * (XNNPack runs those as a fully-connected layer). Shared by the interpreter kernels and the
 * evaluator twin of the `uma_ref_quantize_rows_f32_asym` runtime kernel, whose C code does
 * the same float operations in the same order.
 *
 * depthwise_conv2d is the exception (HYBRID_ROW_RECIPE): XNNPack has no dynamically quantized
 * depthwise convolution, so LiteRT runs TFLite's builtin EvalHybridPerChannel, whose
 * AsymmetricQuantizeFloats computes the row parameters in double, scales by the float
 * reciprocal of the row scale, adds the zero point in float before rounding half away from
 * zero, and finishes `(float)acc * row_scale * filter_scale + bias`
 * (`quantizeRowAsymmetricTflite`, the `uma_ref_quantize_rows_f32_asym_tflite` runtime kernel).
 * Adding the zero point first moves values within a float ulp of a half step (a realistic-model
 * campaign's MobileFaceNet: -90 + -5.4999967 is -95.5 in float), 1 LSB of the input that
 * a 127 weight turns into a 7% output difference.
 */

const f32 = Math.fround;

/** rintf in the default rounding mode: halves to even (|v| < 2^31). */
export function roundHalfEven(v: number): number {
  const t = Math.trunc(v) + 0; // + 0: no -0 results
  const frac = v - t;
  if (frac > 0.5 || (frac === 0.5 && t % 2 !== 0)) return t + 1;
  if (frac < -0.5 || (frac === -0.5 && t % 2 !== 0)) return t - 1;
  return t;
}

export interface RowQuantization {
  /** Dequantization scale of the row: real = scale * (q - zeroPoint). */
  readonly scale: number;
  readonly zeroPoint: number;
}

/** The row's smallest and largest values, the range widened to hold 0 (both recipes start so). */
function rowRange(x: Float32Array, start: number, len: number): { rmin: number; rmax: number } {
  let mn = 0;
  let mx = 0;
  if (len > 0) {
    mn = x[start];
    mx = x[start];
    for (let i = 1; i < len; i++) {
      const v = x[start + i];
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
  }
  return { rmin: mn < 0 ? mn : 0, rmax: mx > 0 ? mx : 0 };
}

/**
 * Quantizes `len` float32 values of `x` from `start` into `q` from the same offset (see the
 * module comment). A NaN value becomes -128, as the C twin's guarded clamp.
 */
export function quantizeRowAsymmetric(x: Float32Array, start: number, len: number, q: Int8Array): RowQuantization {
  const { rmin, rmax } = rowRange(x, start, len);
  const multiplier = rmin === rmax ? 1 : f32(255 / f32(rmax - rmin));
  const descaledMin = f32(rmin * multiplier);
  const descaledMax = f32(rmax * multiplier);
  const errorSum = f32(f32(-128 + descaledMin) + f32(127 + descaledMax));
  let zero = errorSum > 0 ? f32(-128 - descaledMin) : f32(127 - descaledMax);
  // An infinite value, or a range too wide or too narrow for float32, leaves the zero point
  // NaN: XNNPack's max(zero, -128) then gives -128, and so does this comparison (a NaN was
  // undefined behaviour in the C twin's conversion to int).
  zero = !(zero >= -128) ? -128 : zero > 127 ? 127 : zero;
  const zeroPoint = roundHalfEven(zero);
  // Values are scaled by the multiplier itself, not by the reciprocal of the row scale (which
  // is 1 ulp off for ranges like [-4, 4] and moves an end value across a rounding tie:
  // measured against LiteRT).
  const scale = f32(1 / multiplier);
  const lo = -128 - zeroPoint;
  const hi = 127 - zeroPoint;
  for (let i = 0; i < len; i++) {
    let y = f32(x[start + i] * multiplier);
    if (!(y >= lo)) y = lo;
    if (y > hi) y = hi;
    q[start + i] = roundHalfEven(y) + zeroPoint;
  }
  return { scale, zeroPoint };
}

/** roundf: halves away from zero. */
function roundHalfAway(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/**
 * TFLite's builtin PortableAsymmetricQuantizeFloats (the row quantization of its hybrid
 * kernels, which LiteRT runs for depthwise_conv2d): range widened to include 0, scale
 * (max - min) / 255 and the zero point from the end with the smaller error in double, the
 * zero point rounded half away from zero, each value quantized as
 * round_half_away((float)zero_point + x * (1.0f / (float)scale)). A constant row gives zeros
 * at scale 1, zero point 0; a NaN value (or zero point) becomes -128, as the C twin's guarded clamp.
 */
export function quantizeRowAsymmetricTflite(x: Float32Array, start: number, len: number, q: Int8Array): RowQuantization {
  const { rmin, rmax } = rowRange(x, start, len);
  if (rmin === rmax) {
    q.fill(0, start, start + len);
    return { scale: 1, zeroPoint: 0 };
  }
  const scale = (rmax - rmin) / 255;
  const fromMin = -128 - rmin / scale;
  const fromMax = 127 - rmax / scale;
  const zero = 128 + Math.abs(rmin / scale) < 127 + Math.abs(rmax / scale) ? fromMin : fromMax;
  const zeroPoint = !(zero > -128) ? -128 : zero >= 127 ? 127 : roundHalfAway(zero);
  const rowScale = f32(scale);
  const inverse = f32(1 / rowScale);
  for (let i = 0; i < len; i++) {
    const y = f32(zeroPoint + f32(x[start + i] * inverse));
    q[start + i] = !(y >= -128) ? -128 : y >= 127 ? 127 : roundHalfAway(y);
  }
  return { scale: rowScale, zeroPoint };
}

/** Which row quantization and output stage LiteRT uses for a hybrid operator (see the module comment). */
export type HybridRecipe = 'xnnpack' | 'tflite';
export const HYBRID_RECIPE: Readonly<Record<HybridOp, HybridRecipe>> = { conv2d: 'xnnpack', depthwise_conv2d: 'tflite', dense: 'xnnpack' };

export interface QuantizedRows {
  readonly q: Int8Array;
  readonly scales: Float32Array;
  readonly zeroPoints: Int32Array;
}

/** Every row of `rowLength` values of `x` quantized on its own, by `recipe`. */
export function quantizeRowsAsymmetric(x: Float32Array, rows: number, rowLength: number, out?: QuantizedRows, recipe: HybridRecipe = 'xnnpack'): QuantizedRows {
  const q = out?.q ?? new Int8Array(rows * rowLength);
  const scales = out?.scales ?? new Float32Array(rows);
  const zeroPoints = out?.zeroPoints ?? new Int32Array(rows);
  const quantizeRow = recipe === 'tflite' ? quantizeRowAsymmetricTflite : quantizeRowAsymmetric;
  for (let r = 0; r < rows; r++) {
    const p = quantizeRow(x, r * rowLength, rowLength, q);
    scales[r] = p.scale;
    zeroPoints[r] = p.zeroPoint;
  }
  return { q, scales, zeroPoints };
}

/**
 * The float output of one accumulator: `(float)acc * filterScale * rowScale + bias`, in that
 * order (XNNPack); TFLite's builtin kernels (`recipe` 'tflite') multiply by the row scale first.
 */
export function hybridOutput(acc: number, filterScale: number, rowScale: number, bias: number | undefined, recipe: HybridRecipe = 'xnnpack'): number {
  const scaled = recipe === 'tflite' ? f32(f32(f32(acc) * rowScale) * filterScale) : f32(f32(f32(acc) * filterScale) * rowScale);
  return bias === undefined ? scaled : f32(scaled + bias);
}

/**
 * Whether a conv2d quantizes per pixel (XNNPack's fully-connected path: 1x1 kernel, stride 1,
 * no padding, not grouped) rather than per image.
 */
export function conv2dQuantizesPerPixel(
  kernelH: number,
  kernelW: number,
  strides: readonly number[],
  padding: readonly number[],
  groups: number,
): boolean {
  return kernelH === 1 && kernelW === 1 && strides.every((s) => s === 1) && padding.every((p) => p === 0) && groups === 1;
}

export type HybridOp = 'conv2d' | 'depthwise_conv2d' | 'dense';

/** The weight axis of output channels: OHWI conv2d and [units, in] dense 0, 1HWC depthwise 3. */
export const HYBRID_CHANNEL_AXIS: Readonly<Record<HybridOp, number>> = { conv2d: 0, depthwise_conv2d: 3, dense: 0 };

export type FilterScales = { readonly scales: readonly number[] } | { readonly problem: string };

/**
 * One filter scale per output channel, or why the weight's quantization does not fit a
 * hybrid kernel: symmetric int8 (zero points 0), one scale (conv2d, dense) or one per
 * output channel along the channel axis; depthwise needs one per channel, as TFLite's
 * Prepare checks.
 */
export function hybridFilterScales(op: HybridOp, quant: { scale: readonly number[]; zeroPoint: readonly number[]; axis: number } | undefined, channels: number): FilterScales {
  if (!quant || quant.scale.length === 0) return { problem: 'int8 weight without quantization scales' };
  const nonZero = quant.zeroPoint.find((z) => z !== 0);
  if (nonZero !== undefined) return { problem: `weight zero point ${nonZero} (hybrid weights must be symmetric, zero point 0)` };
  const n = quant.scale.length;
  const axis = HYBRID_CHANNEL_AXIS[op];
  // Scales are float32 in a .tflite file; a hand-built graph's are rounded the same way, so
  // the interpreter multiplies by the value the C literal or table holds.
  if (n === channels && (n === 1 || quant.axis === axis)) return { scales: quant.scale.map(f32) };
  if (n === 1 && op !== 'depthwise_conv2d') return { scales: new Array<number>(channels).fill(f32(quant.scale[0])) };
  const wanted = op === 'depthwise_conv2d' ? `${channels} (one per output channel)` : `1 or ${channels} (one per output channel)`;
  return { problem: `weight has ${n} scale${n === 1 ? '' : 's'} along axis ${quant.axis}; a hybrid ${op} takes ${wanted} along axis ${axis}` };
}
