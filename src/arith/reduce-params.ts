/**
 * The float requantization of TFLite Micro's quantized MEAN and SUM
 * (reference_ops::QuantizedMeanOrSum): a float32 scale and bias formed as the C++ forms them
 * (each product rounded to float), shared by the interpreter kernel and the CPU lowering.
 */
import { UnsupportedOperatorError } from '../errors';

const f32 = Math.fround;

export interface FloatRequant {
  /** float(input_scale) / float(output_scale), in float. */
  readonly scale: number;
  /** The float bias the kernel adds after scaling. */
  readonly bias: number;
}

/** MEAN: result = round(float(sum) / float(n) * scale + bias) + output_zp, clamped. */
export function meanRequant(inputScale: number, inputZeroPoint: number, outputScale: number): FloatRequant {
  const scale = finiteScale('mean', f32(f32(inputScale) / f32(outputScale)));
  return { scale, bias: f32(-inputZeroPoint * scale) };
}

/**
 * SUM: result = int32(round(float(sum) * scale + bias)) + output_zp, narrowed without a clamp.
 * `dtype` bounds the sum: a result that can leave int32 is refused, where TFLite Micro's
 * static_cast is undefined (fuzzed: the generated C saturated and the interpreter wrapped).
 */
export function sumRequant(dtype: 'int8' | 'int16', inputScale: number, inputZeroPoint: number, outputScale: number, count: number): FloatRequant {
  const scale = finiteScale('sum', f32(f32(inputScale) / f32(outputScale)));
  const largest = ((dtype === 'int8' ? 128 : 32768) + Math.abs(inputZeroPoint)) * count * scale;
  if (largest > SUM_RESULT_LIMIT) {
    throw new UnsupportedOperatorError(
      `quantized sum of ${count} elements with the scale ratio ${scale} can reach ${largest.toPrecision(4)}, past the int32 the requantized sum is converted to`,
    );
  }
  return { scale, bias: f32(f32(-inputZeroPoint * scale) * f32(count)) };
}

/** Below 2^31 with room for the output zero point and rounding. */
const SUM_RESULT_LIMIT = 2 ** 31 - 2 ** 16;

/** An input over output scale that overflows float32 (3.4e38 / 1e-30) makes NaN of every result. */
function finiteScale(op: string, scale: number): number {
  if (!Number.isFinite(scale)) throw new UnsupportedOperatorError(`quantized ${op}: the input over output scale is ${scale} in float32`);
  return scale;
}

/** Whether MEAN takes TFLite Micro's integer path (same scale and zero point: sum / n, truncated). */
export function meanKeepsQuantization(inScale: number, inZp: number, outScale: number, outZp: number): boolean {
  return inZp === outZp && f32(inScale) === f32(outScale);
}
