/**
 * TFLite's integer requantization arithmetic, bit-exact (gemmlowp fixedpoint.h,
 * TFLite `kernels/internal/common.h` and `quantization_util.cc`).
 *
 * Every function takes and returns int32 values held in JS numbers. The 64-bit products
 * of the C code are computed exactly with a split-multiply on doubles (no BigInt on the
 * hot path), so the interpreter, the lowering and the generated C agree bit for bit.
 */

import { UnsupportedOperatorError } from '../errors';

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

const TWO_POW_15 = 32768;
const TWO_POW_31 = 2147483648;

export interface QuantizedMultiplier {
  /** Q31 fixed-point significand, in [2^30, 2^31) for positive multipliers (0 for 0). */
  readonly multiplier: number;
  /** Power-of-two exponent: real = multiplier * 2^(shift - 31). Positive = left shift. */
  readonly shift: number;
}

/**
 * C's `frexp`: x = q * 2^e with |q| in [0.5, 1), read from the IEEE-754 bits so it is
 * exact for every finite double (including subnormals).
 */
export function frexp(x: number): { fraction: number; exponent: number } {
  if (x === 0 || !Number.isFinite(x)) return { fraction: x, exponent: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  if (biased === 0) {
    // Subnormal: normalise first so the exponent field is meaningful.
    const r = frexp(x * 2 ** 64);
    return { fraction: r.fraction, exponent: r.exponent - 64 };
  }
  // Setting the biased exponent to 1022 puts |fraction| in [0.5, 1) without rounding.
  view.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  return { fraction: view.getFloat64(0), exponent: biased - 1022 };
}

/** C's `std::round` (TfLiteRound): halves go away from zero, unlike `Math.round`. */
export function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** TFLite `QuantizeMultiplier`: a real multiplier as a Q31 significand and a shift. */
export function quantizeMultiplier(realMultiplier: number): QuantizedMultiplier {
  if (realMultiplier === 0) return { multiplier: 0, shift: 0 };
  // Scales whose float32 product overflows (1e30 x 1e30) give an infinite multiplier, which
  // frexp passes through: it reached the C as the literal Infinity (fuzzed).
  if (!Number.isFinite(realMultiplier)) {
    throw new UnsupportedOperatorError(`a requantization multiplier of ${realMultiplier} (from scales whose product overflows float32) is outside the 32-bit fixed-point range`);
  }
  const { fraction, exponent } = frexp(realMultiplier);
  let shift = exponent;
  let qFixed = roundHalfAwayFromZero(fraction * TWO_POW_31);
  // Rounding can carry the significand up to exactly 2^31, which does not fit int32.
  if (qFixed === TWO_POW_31) {
    qFixed /= 2;
    shift += 1;
  }
  // Everything would be shifted out; TFLite encodes that as a zero multiplier.
  if (shift < -31) {
    shift = 0;
    qFixed = 0;
  }
  // A multiplier of 2^31 or more needs a left shift of 32 or more, which C leaves undefined
  // (TFLite Micro's kernels too): an output scale far too small for its inputs' scales. Fuzzed,
  // the generated C and the interpreter then disagreed; refused instead.
  if (shift > 31) {
    throw new UnsupportedOperatorError(
      `a requantization multiplier of ${realMultiplier} (2^31 or more: an output scale too small for the input scales) is outside the 32-bit fixed-point range`,
    );
  }
  return { multiplier: qFixed, shift };
}

/**
 * TFLite `QuantizeMultiplierSmallerThanOneExp`: like `quantizeMultiplier` for multipliers
 * in (0, 1); `shift` (TFLite's left_shift) is then <= 0.
 */
export function quantizeMultiplierSmallerThanOneExp(realMultiplier: number): QuantizedMultiplier {
  return quantizeMultiplier(realMultiplier);
}

/**
 * gemmlowp `SaturatingRoundingDoublingHighMul`: the high 32 bits of 2*a*b, rounded to
 * nearest (C integer division, so ties of negative products round toward zero after the
 * nudge), saturating the single overflow case INT32_MIN * INT32_MIN.
 */
export function saturatingRoundingDoublingHighMul(a: number, b: number): number {
  if (a === INT32_MIN && b === INT32_MIN) return INT32_MAX;
  // a*b = pHi * 2^16 + pLo, both parts exact in a double (|pHi| <= 2^46, |pLo| < 2^47).
  const bHi = b >> 16;
  const bLo = b & 0xffff;
  const pHi = a * bHi;
  const pLo = a * bLo;
  // Sign of a*b decides the nudge, as in gemmlowp.
  const productNonNegative = a === 0 || b === 0 || a > 0 === b > 0;
  const nudge = productNonNegative ? 1 << 30 : 1 - (1 << 30);
  // Split pHi * 2^16 = qh * 2^31 + rh * 2^16 so the remaining sum stays exact.
  const qh = Math.floor(pHi / TWO_POW_15);
  const rh = pHi - qh * TWO_POW_15;
  const s = rh * 65536 + pLo + nudge;
  const qs = Math.floor(s / TWO_POW_31);
  const rs = s - qs * TWO_POW_31;
  // floor((ab + nudge) / 2^31) = qh + qs, remainder rs >= 0; C truncates toward zero.
  const floorQuotient = qh + qs;
  const truncated = floorQuotient < 0 && rs !== 0 ? floorQuotient + 1 : floorQuotient;
  return truncated | 0;
}

/**
 * gemmlowp `RoundingDivideByPOT`: x / 2^exponent rounded to nearest, ties away from zero.
 * `exponent` must be in [0, 31].
 */
export function roundingDivideByPOT(x: number, exponent: number): number {
  if (exponent === 0) return x | 0;
  const mask = (2 ** exponent - 1) | 0;
  const remainder = x & mask;
  const threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return ((x >> exponent) + (remainder > threshold ? 1 : 0)) | 0;
}

/**
 * TFLite (and TFLite Micro reference) `MultiplyByQuantizedMultiplier`, double-rounding
 * variant: x * 2^leftShift (int32, wrapping as the C compilers in use do), then
 * SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT by the right shift.
 */
export function multiplyByQuantizedMultiplier(x: number, multiplier: number, shift: number): number {
  const leftShift = shift > 0 ? shift : 0;
  const rightShift = shift > 0 ? 0 : -shift;
  return roundingDivideByPOT(
    saturatingRoundingDoublingHighMul(Math.imul(x, 1 << leftShift), multiplier),
    rightShift,
  );
}

/** TFLite `MultiplyByQuantizedMultiplierSmallerThanOneExp` (leftShift <= 0). */
export function multiplyByQuantizedMultiplierSmallerThanOneExp(
  x: number,
  multiplier: number,
  leftShift: number,
): number {
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, multiplier), -leftShift);
}

/** TFLite `MultiplyByQuantizedMultiplierGreaterThanOne` (leftShift >= 0). */
export function multiplyByQuantizedMultiplierGreaterThanOne(
  x: number,
  multiplier: number,
  leftShift: number,
): number {
  return saturatingRoundingDoublingHighMul(Math.imul(x, 1 << leftShift), multiplier);
}

const TWO_POW_53 = 2 ** 53;

/**
 * TFLite `MultiplyByQuantizedMultiplier(int64_t x, ...)`, the overload the 16x8 kernels
 * call on their 64-bit accumulators: the multiplier is first reduced to Q15 (rounded,
 * saturated at 0x7FFF), then x * reduced + 2^(total_shift-1) is shifted right
 * arithmetically by total_shift = 15 - shift, and the result cast to int32 (wrapping).
 * TFLite asserts |x| < 2^47; past it the product wraps modulo 2^64, as the generated C's
 * (`uma_q_multiply_shift64`). `x` is an exact integer: a number within 2^53, or a bigint
 * int64 (an accumulator with a bias beyond 2^53). `shift` must be below 15 (TFLite asserts < 8).
 */
export function multiplyByQuantizedMultiplier64(x: number | bigint, multiplier: number, shift: number): number {
  const reduced = multiplier < 0x7fff0000 ? (multiplier + 32768) >> 16 : 0x7fff;
  const totalShift = 15 - shift;
  if (totalShift < 1) throw new RangeError(`multiplyByQuantizedMultiplier64: shift ${shift} is out of range (must be < 15)`);
  const round = 2 ** (totalShift - 1);
  if (typeof x === 'number') {
    const product = x * reduced;
    // Below 2^53 the sum is exact in a double and floor(/2^n) is the arithmetic shift.
    if (Math.abs(product) + round < TWO_POW_53) return Math.floor((product + round) / 2 ** totalShift) | 0;
  }
  const wide = BigInt.asIntN(64, BigInt(x) * BigInt(reduced) + BigInt(round));
  return Number(BigInt.asIntN(32, wide >> BigInt(totalShift)));
}
