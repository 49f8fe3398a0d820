/**
 * TFLite's int16 softmax (reference_ops::SoftmaxInt16 with TFLite Micro's SoftmaxPrepare):
 * two 513-entry Q0.15 lookup tables with linear interpolation, exp(x) on [-10, 0] and
 * 1/(1+x) on [0, 1], built at prepare time in float arithmetic (gen_lut), so the interpreter
 * and the C runtime kernel share the tables the compiler bakes in. Integer steps are exact.
 */
import { multiplyByQuantizedMultiplier, quantizeMultiplier, roundHalfAwayFromZero } from './fixedpoint';

const f32 = Math.fround;

/** 512 intervals plus the end point used for the last slope. */
export const INT16_LUT_SIZE = 513;

/**
 * TFLite `gen_lut<float, int16_t, int16_t>(func, min, max, -1, 1, lut)`: samples biased so
 * the interpolated midpoint error is halved, in float32 operations as the C does.
 */
export function genLutInt16(func: (x: number) => number, inputMin: number, inputMax: number): Int16Array {
  const steps = INT16_LUT_SIZE - 1;
  const min = f32(inputMin);
  const max = f32(inputMax);
  const step = f32(f32(max - min) / steps);
  const halfStep = f32(step / 2);
  const scale = 32768; // (32767 - (-32768) + 1) / (1 - (-1)), exact in float
  const round = (x: number): number => roundHalfAwayFromZero(f32(x));
  const clampTable = (v: number): number => Math.min(Math.max(v, -32768), 32767);
  const lut = new Int16Array(INT16_LUT_SIZE);
  for (let i = 0; i < steps; i++) {
    const x = f32(min + f32(i * step));
    const val = f32(func(x));
    const valMid = f32(func(f32(x + halfStep)));
    const valNext = f32(func(f32(min + f32((i + 1) * step))));
    const sample = round(f32(val * scale));
    const midInterp = round(f32(f32(f32(valNext * scale) + sample) / 2));
    const midVal = round(f32(valMid * scale));
    const bias = round(f32(f32(midInterp - midVal) / 2));
    lut[i] = clampTable(f32(sample - bias));
  }
  lut[steps] = clampTable(round(f32(f32(func(max)) * scale)));
  return lut;
}

/** TFLite `lut_lookup` (int16 in, int16 out): base + rounded slope * (value & 0x7f) / 128. */
export function lutLookupInt16(value: number, lut: ArrayLike<number>): number {
  const index = 256 + (value >> 7);
  const offset = value & 0x7f;
  const base = lut[index];
  const slope = ((lut[index + 1] - base) << 16) >> 16;
  const delta = (slope * offset + 64) >> 7;
  return ((base + delta) << 16) >> 16;
}

export interface SoftmaxInt16Params {
  readonly inputMultiplier: number;
  readonly inputLeftShift: number;
  readonly expLut: Int16Array;
  readonly oneOverOnePlusXLut: Int16Array;
}

/** exp on [-10, 0] and 1/(1+x) on [0, 1], with float functions as TFLite Micro's lambdas. */
let cachedLuts: { exp: Int16Array; recip: Int16Array } | undefined;
function luts(): { exp: Int16Array; recip: Int16Array } {
  cachedLuts ??= {
    exp: genLutInt16((x) => f32(Math.exp(x)), -10, 0),
    recip: genLutInt16((x) => f32(1 / f32(1 + x)), 0, 1),
  };
  return cachedLuts;
}

/**
 * TFLite Micro `CalculateSoftmaxParams` for int16 input: input differences rescaled so
 * [-65535, 0] covers [-10, 0] (double(input_scale) * double(beta) / (10 / 65535)).
 */
export function softmaxInt16Params(beta: number, inputScale: number): SoftmaxInt16Params {
  const q = quantizeMultiplier((f32(inputScale) * f32(beta)) / (10.0 / 65535.0));
  const { exp, recip } = luts();
  return { inputMultiplier: q.multiplier, inputLeftShift: q.shift, expLut: exp, oneOverOnePlusXLut: recip };
}

/**
 * TFLite Micro's int16 softmax output requirement (zero point 0, scale 1/32768 within
 * 0.001/32768) and input zero point 0; the reason when not met.
 */
export function softmaxInt16QuantProblem(inputZeroPoint: number, outputScale: number, outputZeroPoint: number): string | undefined {
  if (inputZeroPoint !== 0) return `int16 input must have zero point 0, got ${inputZeroPoint}`;
  const target = f32(1 / 32768);
  if (outputZeroPoint !== 0 || Math.abs(f32(outputScale) - target) > f32(0.001 * target)) {
    return `int16 output must have zero point 0 and scale 1/32768, got ${outputZeroPoint} and ${outputScale}`;
  }
  return undefined;
}

function countLeadingZeros32(x: number): number {
  return Math.clz32(x >>> 0);
}

/** reference_ops::SoftmaxInt16 over rows of `depth`: `x` and `y` are int16 views. */
export function softmaxInt16Rows(
  x: ArrayLike<number>,
  y: { [i: number]: number },
  outer: number,
  depth: number,
  p: Pick<SoftmaxInt16Params, 'inputMultiplier' | 'inputLeftShift'>,
  expLut: ArrayLike<number>,
  recipLut: ArrayLike<number>,
): void {
  for (let r = 0; r < outer; r++) {
    const base = r * depth;
    let maxInRow = -32768;
    for (let c = 0; c < depth; c++) maxInRow = Math.max(maxInRow, x[base + c]);
    let sumOfExps = 0;
    for (let c = 0; c < depth; c++) {
      const scaled = multiplyByQuantizedMultiplier(x[base + c] - maxInRow, p.inputMultiplier, p.inputLeftShift);
      const sym = Math.min(Math.max((scaled + 32767) | 0, -32768), 32767);
      const e = lutLookupInt16(sym, expLut);
      y[base + c] = e;
      sumOfExps = (sumOfExps + e) | 0;
    }
    const headroomPlusOne = countLeadingZeros32(sumOfExps);
    // ((int64)sum << (headroom - 1) + 2^13) >> 14: the shifted sum stays below 2^32.
    const shiftedSum = Math.floor((sumOfExps * 2 ** (headroomPlusOne - 1) + 8192) / 16384);
    const symShifted = Math.min(Math.max(shiftedSum - (32768 + 65536), -32768), 32767);
    const reciprocal = lutLookupInt16(symShifted, recipLut);
    const rightShift = 31 - headroomPlusOne;
    const round = 2 ** (rightShift - 1);
    for (let c = 0; c < depth; c++) {
      // |exp * reciprocal| < 2^30: exact in a double, floor = arithmetic shift.
      const result = Math.floor((y[base + c] * reciprocal + round) / 2 ** rightShift) | 0;
      y[base + c] = Math.min(Math.max(result, 0), 32767);
    }
  }
}
