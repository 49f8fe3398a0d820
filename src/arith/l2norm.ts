/**
 * TFLite's int8 L2_NORMALIZATION (reference_integer_ops::L2Normalization): per row the sum
 * of squared offsets, its inverse square root as a quantized multiplier
 * (GetInvSqrtQuantizedMultiplierExp: five gemmlowp fixed-point Newton-Raphson steps), then
 * every element scaled into Q0.7 (output scale 1/128). Shared by the interpreter kernel and
 * the evaluator twin of the `uma_ref_l2norm_int8` runtime kernel.
 */
import { INT32_MAX, multiplyByQuantizedMultiplier, saturatingRoundingDoublingHighMul } from './fixedpoint';
import { countLeadingZeros32, rescale, saturatingRoundingMultiplyByPOT } from './gemmlowp';

const mul = saturatingRoundingDoublingHighMul;
/** The float kernel's floor on the norm (TFLite Micro hard-codes 1e-6f). */
export const L2NORM_EPSILON = Math.fround(1e-6);
/** TFLite's kReverseShift: the multiplier's right shift becomes a MultiplyByQuantizedMultiplier shift. */
const REVERSE_SHIFT = -1;
/** Output in Q0.7. */
const OUTPUT_SCALE_BITS = 7;

export function invSqrtQuantizedMultiplierExp(input: number, reverseShift: number): { multiplier: number; shift: number } {
  if (input <= 1) return { multiplier: INT32_MAX, shift: 0 };
  let shift = 11;
  let v = input;
  while (v >= 1 << 29) {
    v = Math.trunc(v / 4);
    shift++;
  }
  const leftShiftBitPairs = Math.floor((countLeadingZeros32(v) - 1) / 2) - 1;
  shift -= leftShiftBitPairs;
  v = v << (2 * leftShiftBitPairs);
  const halfInput = saturatingRoundingMultiplyByPOT(v >> 1, -1);
  const halfThree = (1 << 28) + (1 << 27);
  let x = 1 << 28; // F3 one
  for (let i = 0; i < 5; i++) {
    const x3 = rescale(mul(mul(x, x), x), 9, 3);
    x = rescale((mul(halfThree, x) - mul(halfInput, x3)) | 0, 6, 3);
  }
  x = mul(x, 1518500250); // sqrt(2) / 2 in Q0.31
  if (shift < 0) {
    x = x << -shift;
    shift = 0;
  }
  return { multiplier: x, shift: shift * reverseShift };
}

export function l2NormalizeInt8Rows(x: ArrayLike<number>, y: Int8Array, outer: number, depth: number, inputZeroPoint: number): void {
  for (let o = 0; o < outer; o++) {
    let acc = 0;
    for (let c = 0; c < depth; c++) {
      const v = x[o * depth + c] - inputZeroPoint;
      acc = (acc + v * v) | 0;
    }
    const { multiplier, shift } = invSqrtQuantizedMultiplierExp(acc, REVERSE_SHIFT);
    for (let c = 0; c < depth; c++) {
      const v = multiplyByQuantizedMultiplier(x[o * depth + c] - inputZeroPoint, multiplier, shift + OUTPUT_SCALE_BITS);
      y[o * depth + c] = Math.min(127, Math.max(-128, v));
    }
  }
}
