/**
 * The float requantization of TFLite Micro's quantized MEAN and SUM
 * (reference_ops::QuantizedMeanOrSum): a float32 scale and bias formed as the C++ forms them
 * (each product rounded to float), shared by the interpreter kernel and the CPU lowering.
 */
const f32 = Math.fround;

export interface FloatRequant {
  /** float(input_scale) / float(output_scale), in float. */
  readonly scale: number;
  /** The float bias the kernel adds after scaling. */
  readonly bias: number;
}

/** MEAN: result = round(float(sum) / float(n) * scale + bias) + output_zp, clamped. */
export function meanRequant(inputScale: number, inputZeroPoint: number, outputScale: number): FloatRequant {
  const scale = f32(f32(inputScale) / f32(outputScale));
  return { scale, bias: f32(-inputZeroPoint * scale) };
}

/** SUM: result = int32(round(float(sum) * scale + bias)) + output_zp, narrowed without a clamp. */
export function sumRequant(inputScale: number, inputZeroPoint: number, outputScale: number, count: number): FloatRequant {
  const scale = f32(f32(inputScale) / f32(outputScale));
  return { scale, bias: f32(f32(-inputZeroPoint * scale) * f32(count)) };
}

/** Whether MEAN takes TFLite Micro's integer path (same scale and zero point: sum / n, truncated). */
export function meanKeepsQuantization(inScale: number, inZp: number, outScale: number, outZp: number): boolean {
  return inZp === outZp && f32(inScale) === f32(outScale);
}
