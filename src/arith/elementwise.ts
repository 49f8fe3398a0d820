/**
 * Prepare-time parameters and per-element integer semantics of TFLite Micro's quantized
 * elementwise kernels (sub, mul, squared_difference, relu family, leaky_relu, prelu,
 * hard_swish, logistic, tanh), shared by the interpreter kernels and the CPU lowering so
 * both bake in the same numbers. Scales are float32 in a .tflite file: products and
 * quotients TFLM forms in `float` go through `Math.fround`, those it forms in `double` do not.
 */
import { DType } from '../ir/graph/types';
import {
  INT32_MAX,
  INT32_MIN,
  QuantizedMultiplier,
  multiplyByQuantizedMultiplier,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  roundingDivideByPOT,
  frexp,
  saturatingRoundingDoublingHighMul,
  multiplyByQuantizedMultiplierGreaterThanOne,
} from './fixedpoint';
import { expOnNegativeValues, getReciprocal, oneMinusXOverOnePlusXForXIn01, oneOverOnePlusXForXIn01, saturatingRoundingMultiplyByPOT } from './gemmlowp';
import { calculateInputRadius, integerRange } from './quant-params';

const f32 = Math.fround;

/** TFLM `CalculateOpDataMul`: one multiplier s1*s2/so (double). */
export function mulMultiplier(s1: number, s2: number, so: number): QuantizedMultiplier {
  return quantizeMultiplier((f32(s1) * f32(s2)) / f32(so));
}

export interface SquaredDifferenceParams {
  readonly leftShift: number;
  readonly input1: QuantizedMultiplier;
  readonly input2: QuantizedMultiplier;
  readonly output: QuantizedMultiplier;
}

/**
 * TFLM squared_difference Prepare: both inputs to twice the larger scale; int8 shifts left by 7
 * (255^2 << 14 still fits int32), int16 by 0 (its zero points are 0, so 32767^2 fits).
 */
export function squaredDifferenceParams(s1: number, s2: number, so: number, dtype: 'int8' | 'int16' = 'int8'): SquaredDifferenceParams {
  const leftShift = dtype === 'int16' ? 0 : 7;
  const twiceMax = 2 * Math.max(f32(s1), f32(s2));
  return {
    leftShift,
    input1: quantizeMultiplier(f32(s1) / twiceMax),
    input2: quantizeMultiplier(f32(s2) / twiceMax),
    output: quantizeMultiplier((twiceMax * twiceMax) / f32((1 << (leftShift * 2)) * f32(so))),
  };
}

/** TFLM `FloatToQuantizedType`: round(value / scale) + zero point (float quotient), clamped to `dtype`. */
export function floatToQuantized(value: number, scale: number, zeroPoint: number, dtype: DType): number {
  const r = integerRange(dtype);
  const q = roundHalfAwayFromZero(f32(f32(value) / f32(scale))) + zeroPoint;
  return Math.min(Math.max(q, r.min), r.max);
}

export interface ReluParams {
  readonly inputZeroPoint: number;
  readonly outputZeroPoint: number;
  readonly multiplier: QuantizedMultiplier;
  readonly min: number;
  readonly max: number;
}

/**
 * TFLM `CalculateReluOpData` generalised to a [lo, hi] real range (RELU: [0, inf),
 * RELU_N1_TO_1: [-1, 1] as TFLite's ReluX): requantize input to output, clamp.
 */
export function reluParams(
  inScale: number,
  inZp: number,
  outScale: number,
  outZp: number,
  dtype: DType,
  lo: number,
  hi: number,
): ReluParams {
  const r = integerRange(dtype);
  const bound = (v: number): number => outZp + roundHalfAwayFromZero(f32(f32(v) / f32(outScale)));
  return {
    inputZeroPoint: inZp,
    outputZeroPoint: outZp,
    multiplier: quantizeMultiplier(f32(inScale) / f32(outScale)),
    min: Math.max(r.min, bound(lo)),
    max: hi === Infinity ? r.max : Math.min(r.max, bound(hi)),
  };
}

export function reluElement(p: ReluParams, x: number): number {
  const v = p.outputZeroPoint + multiplyByQuantizedMultiplier(x - p.inputZeroPoint, p.multiplier.multiplier, p.multiplier.shift);
  return Math.min(Math.max(v, p.min), p.max);
}

/** TFLM `Relu6Prepare`: clamp raw values between the input zero point and quantized 6 (input scale). */
export function relu6Bounds(inScale: number, inZp: number, dtype: DType): { lo: number; hi: number } {
  return { lo: inZp, hi: floatToQuantized(6, inScale, inZp, dtype) };
}

export interface LeakyReluParams {
  readonly inputZeroPoint: number;
  readonly outputZeroPoint: number;
  readonly alpha: QuantizedMultiplier;
  readonly identity: QuantizedMultiplier;
}

/** TFLM `CalculateOpDataLeakyRelu`: the two slopes' multipliers, products in float. */
export function leakyReluParams(inScale: number, inZp: number, outScale: number, outZp: number, alpha: number): LeakyReluParams {
  return {
    inputZeroPoint: inZp,
    outputZeroPoint: outZp,
    alpha: quantizeMultiplier(f32(f32(f32(inScale) * f32(alpha)) / f32(outScale))),
    identity: quantizeMultiplier(f32(f32(inScale) / f32(outScale))),
  };
}

/** TFLite `QuantizeLeakyRelu` for one element, clamped to `dtype`. */
export function leakyReluElement(p: LeakyReluParams, x: number, dtype: DType): number {
  const v = x - p.inputZeroPoint;
  const m = v >= 0 ? p.identity : p.alpha;
  const r = integerRange(dtype);
  return Math.min(Math.max(p.outputZeroPoint + multiplyByQuantizedMultiplier(v, m.multiplier, m.shift), r.min), r.max);
}

export interface PreluParams {
  readonly identity: QuantizedMultiplier;
  readonly alpha: QuantizedMultiplier;
}

/** TFLM prelu Prepare: input/output and input*alpha/output, in double. */
export function preluParams(inScale: number, alphaScale: number, outScale: number): PreluParams {
  return {
    identity: quantizeMultiplier(f32(inScale) / f32(outScale)),
    alpha: quantizeMultiplier((f32(inScale) * f32(alphaScale)) / f32(outScale)),
  };
}

// ------------------------------------------------------------------ hard swish

export interface HardSwishParams {
  readonly inputZeroPoint: number;
  readonly outputZeroPoint: number;
  readonly reluishMultiplier: number;
  readonly reluishExponent: number;
  readonly outputMultiplier: number;
  readonly outputExponent: number;
}

/** TFLite `DownScaleInt32ToInt16Multiplier`. */
function downScaleToInt16(m: number): number {
  const rounding = 1 << 15;
  if (m >= INT32_MAX - rounding) return 32767;
  return (m + rounding) >> 16;
}

/**
 * TFLM `HardSwishPrepare` (int8). Returns a reason instead when TFLM rejects the scales
 * (output multiplier exponent > 0).
 */
export function hardSwishParams(inScale: number, inZp: number, outScale: number, outZp: number): HardSwishParams | string {
  const hires = f32(f32(1 / 128) * f32(inScale));
  const reluishScale = f32(3 / 32768);
  const out = quantizeMultiplier(f32(hires / f32(outScale)));
  if (out.shift > 0) return `output scale ${outScale} is too small for input scale ${inScale} (TFLite needs input/output <= 128)`;
  const reluish = quantizeMultiplier(f32(hires / reluishScale));
  return {
    inputZeroPoint: inZp,
    outputZeroPoint: outZp,
    reluishMultiplier: downScaleToInt16(reluish.multiplier),
    reluishExponent: reluish.shift,
    outputMultiplier: downScaleToInt16(out.multiplier),
    outputExponent: out.shift,
  };
}

const wrap16 = (v: number): number => (v << 16) >> 16;
const sat16 = (v: number): number => Math.min(Math.max(v, -32768), 32767);

/** gemmlowp `SaturatingRoundingDoublingHighMul` on int16. */
function srdhm16(a: number, b: number): number {
  if (a === b && a === -32768) return 32767;
  const ab = a * b;
  const nudge = ab >= 0 ? 1 << 14 : 1 - (1 << 14);
  return wrap16(Math.trunc((ab + nudge) / 32768));
}

/** TFLite `SaturatingDoublingHighMul` on int16 (truncating). */
function sdhm16(a: number, b: number): number {
  if (a === b && a === -32768) return 32767;
  return wrap16(Math.trunc((a * b) / 32768));
}

function saturatingLeftShift16(v: number, amount: number): number {
  return sat16(v * 2 ** amount);
}

/**
 * gemmlowp `RoundingDivideByPOT` instantiated on int16_t, as TFLite's HardSwish calls it:
 * the mask `(1ll << exponent) - 1` is narrowed to int16, so from exponent 16 on it is all
 * ones (-1) and the threshold -1 (x >= 0) or 0 (x < 0): any x >= 0 rounds up to 1 and any
 * x < 0 to -1, never to 0 (a wide roundingDivideByPOT would give 0 there).
 */
function roundingDivideByPOT16(x: number, exponent: number): number {
  const mask = wrap16(2 ** exponent - 1);
  const remainder = wrap16(x & mask);
  const threshold = wrap16((mask >> 1) + (x < 0 ? 1 : 0));
  return wrap16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

/** TFLite reference `HardSwish<int8_t>` for one element. */
export function hardSwishElement(p: HardSwishParams, x: number, dtype: DType): number {
  const input = wrap16(x - p.inputZeroPoint);
  const hires = wrap16(input * 128);
  const preshiftOutput = srdhm16(hires, p.outputMultiplier);
  let reluish = hires;
  if (p.reluishExponent > 0) reluish = saturatingLeftShift16(reluish, p.reluishExponent - 1);
  reluish = srdhm16(reluish, p.reluishMultiplier);
  if (p.reluishExponent > 0) reluish = saturatingLeftShift16(reluish, 1);
  if (p.reluishExponent < 0) reluish = roundingDivideByPOT16(reluish, -p.reluishExponent);
  reluish = wrap16((reluish + (1 << 15)) >> 1);
  const preshift = sdhm16(reluish, preshiftOutput);
  const out = wrap16(roundingDivideByPOT16(preshift, -p.outputExponent) + p.outputZeroPoint);
  const r = integerRange(dtype);
  return Math.min(Math.max(out, r.min), r.max);
}

// ------------------------------------------------------------ logistic and tanh

export interface SigmoidParams {
  readonly inputZeroPoint: number;
  readonly inputMultiplier: number;
  readonly inputLeftShift: number;
  readonly inputRangeRadius: number;
}

const SIGMOID_INPUT_INTEGER_BITS = 4;

/** TFLM logistic/tanh Prepare (int8): input scale * 2^27 as a frexp multiplier, and the input radius. */
export function sigmoidParams(inScale: number, inZp: number): SigmoidParams {
  const real = f32(inScale) * 2 ** (31 - SIGMOID_INPUT_INTEGER_BITS);
  const { fraction, exponent } = frexp(real);
  return {
    inputZeroPoint: inZp,
    inputMultiplier: roundHalfAwayFromZero(fraction * 2 ** 31) | 0,
    inputLeftShift: exponent,
    inputRangeRadius: calculateInputRadius(SIGMOID_INPUT_INTEGER_BITS, exponent, 31),
  };
}

/** gemmlowp `logistic` on a raw with `integerBits` integer bits; Q0.31 result. */
export function fixedLogistic(a: number, integerBits: number): number {
  if (a === 0) return 1 << 30;
  const positive = a > 0;
  const abs = positive ? a : -a | 0;
  const resultIfPositive = oneOverOnePlusXForXIn01(expOnNegativeValues(-abs | 0, integerBits));
  return positive ? resultIfPositive : (INT32_MAX - resultIfPositive) | 0;
}

/** gemmlowp `tanh` on a raw with `integerBits` integer bits; Q0.31 result. */
export function fixedTanh(a: number, integerBits: number): number {
  if (a === 0) return 0;
  const negative = a < 0;
  const n = negative ? a : -a | 0;
  // ExactMulByPot<1> doubles the value by adding an integer bit, raw unchanged.
  const t = oneMinusXOverOnePlusXForXIn01(expOnNegativeValues(n, integerBits + 1));
  return negative ? -t | 0 : t;
}

/** TFLM `reference_integer_ops::Logistic` (int8 in, int8 out at scale 1/256, zero point -128). */
export function logisticInt8(p: SigmoidParams, x: number): number {
  const input = x - p.inputZeroPoint;
  if (input <= -p.inputRangeRadius) return -128;
  if (input >= p.inputRangeRadius) return 127;
  const q4 = multiplyByQuantizedMultiplier(input, p.inputMultiplier, p.inputLeftShift);
  const q23 = roundingDivideByPOT(fixedLogistic(q4, SIGMOID_INPUT_INTEGER_BITS), 31 - 8);
  return Math.min(Math.max(q23 - 128, -128), 127);
}

/** TFLM `reference_integer_ops::Tanh` (int8 in, int8 out at scale 1/128, zero point 0). */
export function tanhInt8(p: SigmoidParams, x: number): number {
  const input = x - p.inputZeroPoint;
  if (input <= -p.inputRangeRadius) return -128;
  if (input >= p.inputRangeRadius) return 127;
  const q4 = multiplyByQuantizedMultiplier(input, p.inputMultiplier, p.inputLeftShift);
  const q24 = roundingDivideByPOT(fixedTanh(q4, SIGMOID_INPUT_INTEGER_BITS), 31 - 7);
  return Math.min(Math.max(q24, -128), 127);
}

/**
 * What TFLM's Prepare checks of an int8 logistic/tanh output: logistic's zero point must be
 * -128, nothing else. The integer kernels always write at 1/256 (logistic) and 1/128, zero
 * point 0 (tanh) whatever the output's declared scale, so accepting another scale (TFLM's
 * own logistic test declares 1/255) keeps the bytes TFLM produces; returns why an output is
 * rejected.
 */
export function sigmoidOutputProblem(op: 'logistic' | 'tanh', _scale: number, zeroPoint: number): string | undefined {
  if (op === 'logistic' && zeroPoint !== -128) return `int8 logistic output must have zero point -128, got ${zeroPoint}`;
  return undefined;
}

// --------------------------------------------------------- dequantize/requantize

/** Real value of a quantized element, as TFLM's float-based int8 kernels (ELU, exp...) dequantize it. */
export function dequantizeElement(x: number, scale: number, zeroPoint: number): number {
  return f32(f32(scale) * (x - zeroPoint));
}

/** TFLM `AffineQuantize` of one float to `dtype`: round(v / scale) + zero point, clamped. */
export function quantizeElement(v: number, scale: number, zeroPoint: number, dtype: DType): number {
  const r = integerRange(dtype);
  const q = roundHalfAwayFromZero(f32(f32(v) / f32(scale))) + zeroPoint;
  return Math.min(Math.max(q, r.min), r.max);
}

export { INT32_MIN };

/** Largest float32 below 2^31: CAST clamps float values to [-2^31, this] before truncating. */
export const FLOAT_INT32_MAX = 2147483520;

// ------------------------------------------------------------------------- rsqrt

/**
 * TFLite `GetInvSqrtQuantizedMultiplierExp`: 1/sqrt(input) as a Q31 multiplier and shift
 * (5 Newton-Raphson steps in gemmlowp Q3.28), the shift negated by `reverseShift` = -1.
 */
export function invSqrtQuantizedMultiplierExp(input: number, reverseShift: number): QuantizedMultiplier {
  if (input <= 1) return { multiplier: INT32_MAX, shift: 0 };
  let shift = 11;
  while (input >= 1 << 29) {
    input = Math.trunc(input / 4);
    shift++;
  }
  const maxLeftShiftBits = Math.clz32(input) - 1;
  const leftShiftBitPairs = Math.floor(maxLeftShiftBits / 2) - 1;
  shift -= leftShiftBitPairs;
  input = (input << (2 * leftShiftBitPairs)) | 0;
  const fixedInput = input >> 1;
  const halfInput = roundingDivideByPOT(fixedInput, 1);
  const halfThree = (1 << 28) + (1 << 27);
  let x = 1 << 28;
  for (let i = 0; i < 5; i++) {
    const x3 = saturatingRoundingMultiplyByPOT(saturatingRoundingDoublingHighMul(saturatingRoundingDoublingHighMul(x, x), x), 6);
    x = saturatingRoundingMultiplyByPOT((saturatingRoundingDoublingHighMul(halfThree, x) - saturatingRoundingDoublingHighMul(halfInput, x3)) | 0, 3);
  }
  let multiplier = saturatingRoundingDoublingHighMul(x, 1518500250);
  if (shift < 0) {
    multiplier = (multiplier << -shift) | 0;
    shift = 0;
  }
  return { multiplier, shift: shift * reverseShift };
}

/** TFLite `SetRsqrtOutputMultiplier`: 1 / (sqrt(input scale) * output scale), the product in float. */
export function rsqrtOutputMultiplier(inScale: number, outScale: number): QuantizedMultiplier {
  return quantizeMultiplier(1 / f32(f32(Math.sqrt(f32(inScale))) * f32(outScale)));
}

/** TFLite `RsqrtEvalQuantized` (int8) for one element at or above the input zero point. */
export function rsqrtInt8(m: QuantizedMultiplier, inZp: number, outZp: number, x: number): number {
  const value = x - inZp;
  if (value === 0) return 127;
  const shiftUp = 20;
  const inv = invSqrtQuantizedMultiplierExp(value, -1);
  const data = multiplyByQuantizedMultiplier(1, inv.multiplier, inv.shift + shiftUp);
  const out = multiplyByQuantizedMultiplier(data, m.multiplier, m.shift - shiftUp) + outZp;
  return Math.min(Math.max(out, -128), 127);
}

// --------------------------------------------------------------------- int8 div

/** TFLM `CalculateOpDataDiv` (int8): s1 / (s2 * so), all in float, then QuantizeMultiplier. */
export function divMultiplier(s1: number, s2: number, so: number): QuantizedMultiplier {
  return quantizeMultiplier(f32(f32(s1) / f32(f32(s2) * f32(so))));
}

/** TFLite `CountLeadingSignBits` of an int32 (31 for 0 and -1). */
export function countLeadingSignBits(x: number): number {
  return x >= 0 ? Math.clz32(x) - 1 : Math.clz32(~x) - 1;
}

/**
 * TFLite's reciprocal of a positive int32 as `GetReciprocal(x, 31, &shift)` gives it: the
 * Q0.31 reciprocal of x scaled into [1, 2) and how many bits x exceeds one by.
 */
export function divReciprocal(v: number): { inverse: number; shift: number } {
  const r = getReciprocal(v, 31);
  return { inverse: r.scale, shift: r.numBitsOverUnit };
}

/**
 * TFLite `DivElementwise` (int8) for one pair of offset values v1 = a - z1, v2 = b - z2
 * (v2 != 0): sign folded onto v1, v1 times the reciprocal of v2 at full headroom, then the
 * output multiplier with the combined shift. A combined right shift beyond 31 is undefined
 * in TFLite's RoundingDivideByPOT; the value shifted is an int32, so the rounded quotient is 0
 * and the output the zero point. (Capped at 31 it came out 1 LSB off that: a dividend next to
 * its zero point over a large divisor, found by a differential fuzz campaign.)
 */
export function divInt8(m: QuantizedMultiplier, v1: number, v2: number, outZp: number, lo: number, hi: number): number {
  if (v2 < 0) {
    v1 = -v1;
    v2 = -v2;
  }
  const { inverse, shift } = divReciprocal(v2);
  const headroom = countLeadingSignBits(v1);
  const unscaled = multiplyByQuantizedMultiplierGreaterThanOne(v1, inverse, headroom);
  const total = m.shift - shift - headroom;
  const quotient = total < -31 ? 0 : multiplyByQuantizedMultiplier(unscaled, m.multiplier, total);
  return Math.min(Math.max(outZp + quotient, lo), hi);
}
