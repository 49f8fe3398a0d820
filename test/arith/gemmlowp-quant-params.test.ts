import { expOnNegativeValues, getReciprocal, oneOverOnePlusXForXIn01, roundingHalfSum, saturatingRoundingMultiplyByPOT } from '../../src/arith/gemmlowp';
import {
  addQuantParams,
  calculateInputRadius,
  denseOutputMultiplier,
  perChannelMultipliers,
  quantizedActivationRange,
  softmaxQuantParams,
} from '../../src/arith/quant-params';
import { quantizeMultiplier } from '../../src/arith/fixedpoint';

const Q31 = 2 ** 31;

describe('gemmlowp helpers', () => {
  it('saturating multiply by a power of two saturates and rounds', () => {
    expect(saturatingRoundingMultiplyByPOT(1 << 29, 2)).toBe(2147483647);
    expect(saturatingRoundingMultiplyByPOT(-(1 << 29), 2)).toBe(-2147483648);
    expect(saturatingRoundingMultiplyByPOT(3, 2)).toBe(12);
    expect(saturatingRoundingMultiplyByPOT(-6, -2)).toBe(-2); // -1.5 -> -2
  });

  it('roundingHalfSum rounds half away from zero', () => {
    expect(roundingHalfSum(1, 2)).toBe(2);
    expect(roundingHalfSum(-1, -2)).toBe(-2);
    expect(roundingHalfSum(2147483647, 2147483647)).toBe(2147483647);
  });

  it('exp on Q5.26 inputs tracks Math.exp', () => {
    expect(expOnNegativeValues(0, 5)).toBe(2147483647);
    for (const x of [-0.01, -0.25, -0.3, -1, -2.5, -7, -15.9]) {
      const raw = Math.round(x * 2 ** 26);
      expect(Math.abs(expOnNegativeValues(raw, 5) / Q31 - Math.exp(x))).toBeLessThan(1e-6);
    }
  });

  it('1 / (1 + x) and the reciprocal of a Q12.19 sum', () => {
    for (const x of [0, 0.1, 0.5, 0.99]) {
      expect(Math.abs(oneOverOnePlusXForXIn01(Math.round(x * Q31)) / Q31 - 1 / (1 + x))).toBeLessThan(1e-6);
    }
    // sum = 3.0 in Q12.19 is 1.5 * 2^1: scale = 1 / 1.5 ~ 0.6667 with one bit over unit.
    const { scale, numBitsOverUnit } = getReciprocal(3 * 2 ** 19, 12);
    expect(numBitsOverUnit).toBe(1);
    expect(Math.abs((scale / Q31) * 2 ** -numBitsOverUnit - 1 / 3)).toBeLessThan(1e-6);
  });
});

describe('quant params', () => {
  it('quantized activation ranges follow CalculateActivationRangeQuantized', () => {
    expect(quantizedActivationRange('RELU6', 'int8', 0.05, -10)).toEqual({ min: -10, max: 110 });
    expect(quantizedActivationRange('RELU', 'int8', 0.05, -128)).toEqual({ min: -128, max: 127 });
    expect(quantizedActivationRange('RELU_N1_TO_1', 'int8', 0.01, 0)).toEqual({ min: -100, max: 100 });
    expect(quantizedActivationRange('RELU6', 'int8', 0.01, 0)).toEqual({ min: 0, max: 127 });
    expect(quantizedActivationRange('NONE', 'int8', 0.01, 0)).toEqual({ min: -128, max: 127 });
  });

  it('per-channel multipliers broadcast a per-tensor filter scale', () => {
    const { multipliers, shifts } = perChannelMultipliers(0.5, [0.25], 1, 3);
    expect(Array.from(multipliers)).toEqual([2 ** 30, 2 ** 30, 2 ** 30]);
    expect(Array.from(shifts)).toEqual([-2, -2, -2]);
  });

  it('dense forms the input*filter scale product in float', () => {
    const [si, sf, so] = [0.1, 0.3, 0.7].map(Math.fround);
    expect(denseOutputMultiplier(si, sf, so)).toEqual(quantizeMultiplier(Math.fround(si * sf) / so));
  });

  it('add rescales both inputs to twice the larger scale', () => {
    const p = addQuantParams(0.5, 0.25, 1);
    expect(p.leftShift).toBe(20);
    expect(p.input1Multiplier * 2 ** (p.input1Shift - 31)).toBeCloseTo(0.5, 9);
    expect(p.input2Multiplier * 2 ** (p.input2Shift - 31)).toBeCloseTo(0.25, 9);
    expect(p.outputMultiplier * 2 ** (p.outputShift - 31)).toBeCloseTo(1 / 2 ** 20, 15);
  });

  it('softmax scaling follows PreprocessSoftmaxScaling and CalculateInputRadius', () => {
    // beta * scale * 2^26 = 2^-4 * 2^26 = 2^22 -> multiplier 2^30, left shift 23
    const p = softmaxQuantParams(1, 1 / 16);
    expect(p.inputMultiplier).toBe(2 ** 30);
    expect(p.inputLeftShift).toBe(23);
    // 31 * 2^26 / 2^23 = 248
    expect(calculateInputRadius(5, 23)).toBe(248);
    expect(p.diffMin).toBe(-248);
  });
});
