/**
 * The requantization of TFLite Micro's quantized MEAN and SUM (reference_ops::
 * QuantizedMeanOrSum, in integers as TFLite's reduce.h has it since it left float
 * arithmetic): PrepareMeanOrSum's QuantizeMultiplier(input scale / output scale, in double),
 * and for MEAN 1/n folded into that multiplier. Shared by the interpreter kernels and the
 * CPU lowering; each output is MultiplyByQuantizedMultiplier(int32(sum - input_zp * n)) plus
 * the output zero point, clamped to the type.
 */
import { QuantizedMultiplier } from './fixedpoint';
import { requantizeMultiplier } from './quant-params';

const f32 = Math.fround;

/** The multiplier and shift of a quantized MEAN or SUM over `count` elements per output. */
export function reduceRequant(op: 'mean' | 'sum', inputScale: number, outputScale: number, count: number): QuantizedMultiplier {
  const m = requantizeMultiplier(inputScale, outputScale);
  if (op === 'sum' || count <= 0) return m;
  // floor(log2(n)), limited so the shifted multiplier stays in 64 bits and the shift at -31
  // or above, as the kernel limits it.
  const log2 = BigInt(count).toString(2).length - 1;
  const shift = Math.min(log2, 32, 31 + m.shift);
  const multiplier = Number((BigInt(m.multiplier) << BigInt(shift)) / BigInt(count));
  return { multiplier, shift: m.shift - shift };
}

/** The int32 the kernel requantizes: the sum less n input zero points, wrapped to 32 bits. */
export function shiftedSum(sum: number, inputZeroPoint: number, count: number): number {
  return (sum - inputZeroPoint * count) | 0;
}

/** Whether MEAN takes TFLite Micro's integer path (same scale and zero point: sum / n, truncated). */
export function meanKeepsQuantization(inScale: number, inZp: number, outScale: number, outZp: number): boolean {
  return inZp === outZp && f32(inScale) === f32(outScale);
}
