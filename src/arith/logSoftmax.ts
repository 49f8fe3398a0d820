/**
 * TFLite Micro's int8 LOG_SOFTMAX (reference_integer_ops::LogSoftmax with the parameters of
 * its Prepare: PreprocessLogSoftmaxScalingExp with 5 integer bits, beta 1): exp of the
 * row differences summed in Q12.19, gemmlowp's log_x_for_x_greater_than_or_equal_to_1 into
 * Q5.26, output in Q4.27 rescaled to int8 with scale 16/256 and zero point 127. Shared by
 * the interpreter kernel and the evaluator twin of `uma_ref_log_softmax_int8`.
 */
import {
  INT32_MAX,
  INT32_MIN,
  multiplyByQuantizedMultiplier,
  quantizeMultiplierSmallerThanOneExp,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMul,
} from './fixedpoint';
import { countLeadingZeros32, expOnNegativeValues, oneOverOnePlusXForXIn01, rescale, roundingHalfSum, saturatingRoundingMultiplyByPOT } from './gemmlowp';
import { logSoftmaxReverseScaling, softmaxQuantParams } from './quant-params';

const mul = saturatingRoundingDoublingHighMul;
const INPUT_INTEGER_BITS = 5;
const ACCUMULATION_INTEGER_BITS = 12;
const OUTPUT_INTEGER_BITS = 4;
const OUTPUT_ZERO_POINT = 127;

export interface LogSoftmaxParams {
  readonly inputMultiplier: number;
  readonly inputLeftShift: number;
  /** QuantizeMultiplierSmallerThanOneExp of 2^(31 - left shift) / multiplier. */
  readonly reverseScalingDivisor: number;
  /** Its (non-positive) MultiplyByQuantizedMultiplier shift. */
  readonly reverseScalingLeftShift: number;
  readonly diffMin: number;
}

/** LOG_SOFTMAX's Prepare for an int8 input of scale `inputScale`. */
export function logSoftmaxQuantParams(inputScale: number): LogSoftmaxParams {
  const p = softmaxQuantParams(1, inputScale);
  const reverse = quantizeMultiplierSmallerThanOneExp(logSoftmaxReverseScaling(p.inputMultiplier, p.inputLeftShift));
  return {
    inputMultiplier: p.inputMultiplier,
    inputLeftShift: p.inputLeftShift,
    reverseScalingDivisor: reverse.multiplier,
    reverseScalingLeftShift: reverse.shift,
    diffMin: p.diffMin,
  };
}

const saturatingAdd = (a: number, b: number): number => Math.min(INT32_MAX, Math.max(INT32_MIN, a + b));
const saturatingSub = (a: number, b: number): number => Math.min(INT32_MAX, Math.max(INT32_MIN, a - b));

/** gemmlowp-style log(x) for a Q(inputBits) raw x >= 1, as a Q(outputBits) raw. */
export function logXForXGreaterThanOrEqualTo1(x: number, outputBits: number, inputBits: number): number {
  const accumBits = outputBits + 1;
  const log2 = 1488522236;
  const sqrtSqrtHalf = 1805811301;
  const sqrtHalf = 1518500250;
  const oneQuarter = 536870912;
  const alphaN = 117049297;
  const alphaD = 127690142;
  const alphaI = 1057819769;
  const alphaF = 638450708;
  const shiftedQuarter = rescale(oneQuarter, 0, accumBits);

  const zA = x;
  const zAHeadroomPlus1 = countLeadingZeros32(zA);
  const rATmp = saturatingRoundingMultiplyByPOT(zA, zAHeadroomPlus1 - 1);
  const rARaw = saturatingRoundingMultiplyByPOT(mul(rATmp, sqrtHalf), 1);
  const zAPow2Adj = saturatingAdd(saturatingRoundingMultiplyByPOT(inputBits - zAHeadroomPlus1, 31 - accumBits), shiftedQuarter);

  const zB = mul(zA, sqrtHalf);
  const zBHeadroom = countLeadingZeros32(zB) - 1;
  const rBRaw = saturatingRoundingMultiplyByPOT(zA, zBHeadroom);
  const zBPow2Adj = saturatingSub(saturatingRoundingMultiplyByPOT(inputBits - zBHeadroom, 31 - accumBits), shiftedQuarter);

  const r = Math.min(rARaw, rBRaw);
  const zPow2Adj = Math.max(zAPow2Adj, zBPow2Adj);

  const p = roundingHalfSum(r, sqrtSqrtHalf);
  let q = (r - sqrtSqrtHalf) | 0;
  q = (q + q) | 0;
  const commonSq = mul(q, q);
  const num = (mul(q, r) + mul(mul(q, commonSq), alphaN)) | 0;
  const denomMinusOne = (mul(p, (((alphaI + q) | 0) + mul(alphaD, commonSq)) | 0) + mul(alphaF, q)) | 0;
  const recipDenom = oneOverOnePlusXForXIn01(denomMinusOne);
  const numScaled = rescale(num, 0, accumBits);
  return rescale((mul(zPow2Adj, log2) + mul(numScaled, recipDenom)) | 0, accumBits, outputBits);
}

export function logSoftmaxInt8Rows(x: ArrayLike<number>, y: Int8Array, outer: number, depth: number, p: LogSoftmaxParams): void {
  for (let o = 0; o < outer; o++) {
    const base = o * depth;
    let maxInRow = -128;
    for (let c = 0; c < depth; c++) maxInRow = Math.max(maxInRow, x[base + c]);
    let sumOfExps = 0; // Q12.19
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff >= p.diffMin) {
        const diffQ5 = multiplyByQuantizedMultiplier(diff, p.inputMultiplier, p.inputLeftShift);
        sumOfExps = (sumOfExps + rescale(expOnNegativeValues(diffQ5, INPUT_INTEGER_BITS), 0, ACCUMULATION_INTEGER_BITS)) | 0;
      }
    }
    const logSumQ5 = logXForXGreaterThanOrEqualTo1(sumOfExps, INPUT_INTEGER_BITS, ACCUMULATION_INTEGER_BITS);
    const shiftedLogSum = (logSumQ5 + INT32_MIN) | 0;
    const adjustedDiffMin = Math.max(p.diffMin - 1, multiplyByQuantizedMultiplier(shiftedLogSum, p.reverseScalingDivisor, p.reverseScalingLeftShift));
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff > adjustedDiffMin) {
        const diffQ5 = multiplyByQuantizedMultiplier(diff, p.inputMultiplier, p.inputLeftShift);
        const v = roundingDivideByPOT((diffQ5 - logSumQ5) | 0, 31 - INPUT_INTEGER_BITS - OUTPUT_INTEGER_BITS) + OUTPUT_ZERO_POINT;
        y[base + c] = Math.max(Math.min(v, 127), -128);
      } else {
        y[base + c] = -128;
      }
    }
  }
}
