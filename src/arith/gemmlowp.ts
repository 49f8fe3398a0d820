/**
 * The gemmlowp fixed-point transcendental helpers TFLite's int8 softmax uses
 * (gemmlowp `fixedpoint.h`, TFLite `GetReciprocal`). Values are int32 raws of
 * `FixedPoint<int32_t, IntegerBits>`: real = raw * 2^(IntegerBits - 31).
 * Raw addition wraps like the C code; products are SaturatingRoundingDoublingHighMul.
 */
import { INT32_MAX, INT32_MIN, roundingDivideByPOT, saturatingRoundingDoublingHighMul } from './fixedpoint';

const mul = saturatingRoundingDoublingHighMul;

/** gemmlowp `SaturatingRoundingMultiplyByPOT<exponent>` on a raw int32. */
export function saturatingRoundingMultiplyByPOT(x: number, exponent: number): number {
  if (exponent === 0) return x;
  if (exponent < 0) return roundingDivideByPOT(x, -exponent);
  const threshold = 2 ** (31 - exponent) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return x << exponent;
}

/** gemmlowp `Rescale<dstBits>` of a value with `srcBits` integer bits. */
export function rescale(x: number, srcBits: number, dstBits: number): number {
  return saturatingRoundingMultiplyByPOT(x, srcBits - dstBits);
}

/** gemmlowp `RoundingHalfSum` for int32: (a + b) / 2 rounded half away from zero. */
export function roundingHalfSum(a: number, b: number): number {
  const sum = a + b; // exact in a double
  const sign = sum >= 0 ? 1 : -1;
  return Math.trunc((sum + sign) / 2) | 0;
}

/** exp(a) for a raw Q0.31 value a in [-1/4, 0), as a Q0.31 raw. */
export function expOnIntervalBetweenNegativeOneQuarterAnd0Excl(a: number): number {
  const constantTerm = 1895147668; // exp(-1/8)
  const constant1Over3 = 715827883;
  const x = (a + (1 << 28)) | 0; // change of variable around -1/8
  const x2 = mul(x, x);
  const x3 = mul(x2, x);
  const x4 = mul(x2, x2);
  const x4Over4 = saturatingRoundingMultiplyByPOT(x4, -2);
  const poly = saturatingRoundingMultiplyByPOT((mul((x4Over4 + x3) | 0, constant1Over3) + x2) | 0, -1);
  return (constantTerm + mul(constantTerm, (x + poly) | 0)) | 0;
}

/** Barrel-shifter multipliers exp(-2^k) in Q0.31, for k = -2..4. */
const EXP_BARREL: readonly (readonly [number, number])[] = [
  [-2, 1672461947],
  [-1, 1302514674],
  [0, 790015084],
  [1, 290630308],
  [2, 39332535],
  [3, 720401],
  [4, 242],
];

/**
 * gemmlowp `exp_on_negative_values` for an input with `integerBits` integer bits
 * (a <= 0); returns exp(a) as a Q0.31 raw.
 */
export function expOnNegativeValues(a: number, integerBits: number): number {
  const fractionalBits = 31 - integerBits;
  const oneQuarter = 1 << (fractionalBits - 2);
  const mask = oneQuarter - 1;
  const aModQuarterMinusOneQuarter = ((a & mask) - oneQuarter) | 0;
  let result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(rescale(aModQuarterMinusOneQuarter, integerBits, 0));
  const remainder = (aModQuarterMinusOneQuarter - a) | 0;
  for (const [exponent, multiplier] of EXP_BARREL) {
    if (integerBits > exponent) {
      const shiftAmount = fractionalBits + exponent;
      if ((remainder & (1 << shiftAmount)) !== 0) result = mul(result, multiplier);
    }
  }
  if (integerBits > 5) {
    const clamp = -(1 << (36 - integerBits));
    if (a < clamp) result = 0;
  }
  if (a === 0) result = INT32_MAX;
  return result;
}

/** gemmlowp `one_over_one_plus_x_for_x_in_0_1`: Q0.31 in, Q0.31 out (Newton-Raphson). */
export function oneOverOnePlusXForXIn01(a: number): number {
  const halfDenominator = roundingHalfSum(a, INT32_MAX);
  const constant48Over17 = 1515870810; // Q2.29
  const constantNeg32Over17 = -1010580540; // Q2.29
  const oneQ2 = 1 << 29;
  let x = (constant48Over17 + mul(halfDenominator, constantNeg32Over17)) | 0;
  for (let i = 0; i < 3; i++) {
    const halfDenominatorTimesX = mul(halfDenominator, x);
    const oneMinus = (oneQ2 - halfDenominatorTimesX) | 0;
    x = (x + rescale(mul(x, oneMinus), 4, 2)) | 0;
  }
  // ExactMulByPot<-1> turns Q2 into Q1 without touching the raw; then Rescale<0>.
  return rescale(x, 1, 0);
}

/** `Math.clz32` on the raw's unsigned bit pattern (TFLite `CountLeadingZeros<uint32_t>`). */
export function countLeadingZeros32(x: number): number {
  return Math.clz32(x);
}

/**
 * TFLite `GetReciprocal`: 1 / x for a positive fixed-point x with `xIntegerDigits`
 * integer bits. Returns the Q0.31 scale and how many bits x exceeds one by.
 */
export function getReciprocal(x: number, xIntegerDigits: number): { scale: number; numBitsOverUnit: number } {
  const headroomPlusOne = countLeadingZeros32(x);
  const numBitsOverUnit = xIntegerDigits - headroomPlusOne;
  // (uint32(x) << headroom) - 2^31, reinterpreted as int32
  const shiftedSumMinusOne = ((x << headroomPlusOne) - INT32_MIN) | 0;
  return { scale: oneOverOnePlusXForXIn01(shiftedSumMinusOne), numBitsOverUnit };
}

/** gemmlowp `one_minus_x_over_one_plus_x_for_x_in_0_1` (tanh's division): Q0.31 in, Q0.31 out. */
export function oneMinusXOverOnePlusXForXIn01(a: number): number {
  const halfDenominator = roundingHalfSum(a, INT32_MAX);
  const oneQ2 = 1 << 29;
  let x = (1515870810 + mul(halfDenominator, -1010580540)) | 0;
  for (let i = 0; i < 3; i++) {
    const oneMinus = (oneQ2 - mul(halfDenominator, x)) | 0;
    x = (x + rescale(mul(x, oneMinus), 4, 2)) | 0;
  }
  return rescale((x - oneQ2) | 0, 2, 0);
}

/**
 * A probability's scaled value divided by 2^exponent, rounded. An int8 output's exponent passes
 * 31 once a row's sum of exps reaches 512 (at least 512 logits near the row's maximum: a
 * 1,000-class head on a blank image), where TFLite Micro's shift is undefined (gemmlowp asserts
 * it away). The value is non-negative and below 2^31, so the exact quotient rounds to 0: every
 * probability is under half a step (1/512 at 1/256), the output its minimum, as LiteRT gives
 * (and an Arm core's shift, the clamp taking its -1 to the minimum).
 */
export function roundedProbability(scaled: number, exponent: number): number {
  return exponent > 31 ? 0 : roundingDivideByPOT(scaled, exponent);
}
