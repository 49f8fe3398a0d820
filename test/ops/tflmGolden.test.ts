/**
 * Operators against TensorFlow Lite Micro's own kernel-test vectors
 * (tensorflow/lite/micro/kernels/<op>_test.cc): the same float inputs, quantized as TFLM's
 * test helpers quantize them (round half away from zero, + zero point, saturate), the same
 * quantization parameters, and TFLM's golden outputs quantized the same way, compared with
 * the tolerance TFLM's test itself uses. Each case runs through the reference interpreter
 * and the TIR evaluator, which must agree byte for byte.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { DType, TensorType, tensorElements } from '../../src/ir/graph/types';
import { roundHalfAwayFromZero } from '../../src/arith/fixedpoint';
import { resolvePadding } from '../../src/frontend/tflite/padding';
import { f32, q } from '../lower/helpers';
import { caseInputs, caseModule, expectCRunsByteExact, OpCase } from './opCases';
import { runBoth } from '../lower/helpers';
import { bytesOf } from '../interpreter/helpers';

const qt = (shape: number[], dtype: DType, scale: number, zp = 0): TensorType => tensorType(shape, dtype, q(scale, zp));

const RANGES: Partial<Record<DType, [number, number]>> = { int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647] };

/** tflite::testing's Quantize: float division, round half away from zero, saturate. */
function quantize(values: readonly number[], type: TensorType): number[] {
  const [lo, hi] = RANGES[type.dtype]!;
  const scale = type.quant!.scale[0];
  const zp = type.quant!.zeroPoint[0];
  return values.map((v) => Math.min(hi, Math.max(lo, roundHalfAwayFromZero(Math.fround(Math.fround(v) / scale)) + zp)));
}

function elementsOf(bytes: Uint8Array, dtype: DType): number[] {
  const b = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  switch (dtype) {
    case 'int8':
      return Array.from(new Int8Array(b));
    case 'int16':
      return Array.from(new Int16Array(b));
    case 'int32':
      return Array.from(new Int32Array(b));
    case 'float32':
      return Array.from(new Float32Array(b));
    default:
      throw new Error(`no elements for ${dtype}`);
  }
}

interface GoldenCase {
  readonly op: string;
  readonly input: TensorType;
  /** Real-valued input (quantized to `input` when it is an integer type). */
  readonly values: readonly number[];
  /** Further runtime inputs, real-valued. */
  readonly more?: readonly { type: TensorType; values: readonly number[] }[];
  /** Constant arguments after the inputs (weights, biases), as stored bytes. */
  readonly constants?: OpCase['constants'];
  readonly out: TensorType;
  readonly attrs: Record<string, unknown>;
  /** TFLM's golden output, real-valued (quantized to `out` for integer outputs). */
  readonly golden: readonly number[];
  /** TFLM's tolerance, on stored values (integers) or real values (float). */
  readonly tolerance: number;
}

function stored(type: TensorType, values: readonly number[]): number[] {
  if (type.dtype === 'float32') return values.map(Math.fround);
  return type.quant ? quantize(values, type) : [...values];
}

function runGolden(c: GoldenCase): number[] {
  expect(c.values.length).toBe(tensorElements(c.input));
  const opCase: OpCase = {
    label: c.op,
    op: c.op,
    input: c.input,
    moreInputs: c.more?.map((m) => m.type),
    constants: c.constants,
    out: c.out,
    attrs: c.attrs as OpCase['attrs'],
    data: bytesOf(c.input.dtype, stored(c.input, c.values)),
    moreData: c.more?.map((m) => bytesOf(m.type.dtype, stored(m.type, m.values))),
  };
  const { lowered, reference } = runBoth(caseModule([opCase]), caseInputs(opCase, 1));
  expect(Buffer.from(lowered[0]).toString('hex')).toBe(Buffer.from(reference[0]).toString('hex'));
  return elementsOf(reference[0], c.out.dtype);
}

function expectGolden(c: GoldenCase): void {
  const got = runGolden(c);
  const want = stored(c.out, c.golden);
  expect(got.length).toBe(want.length);
  const off = got.map((g, i) => Math.abs(g - want[i]));
  const worst = Math.max(0, ...off);
  if (worst > c.tolerance) {
    throw new Error(`off by ${worst} (tolerance ${c.tolerance})\n got  ${got.join(' ')}\n want ${want.join(' ')}`);
  }
}

// ------------------------------------------------------------------ reduce_test.cc
const IN_2D = [1, 2, 3, 4, 5, 6, 7, 8];
const IN_4D = Array.from({ length: 24 }, (_, i) => i + 1);
const PRECISION_4D = [1, 24, 13, 3, 9, 17, 11, 36, 14, 19, 17, 22];
const reduce = (op: string, dtype: DType, inShape: number[], values: number[], axes: number[], keep: boolean, outShape: number[], golden: number[], sIn = 0.5, sOut = 0.5): GoldenCase => ({
  op,
  input: dtype === 'float32' ? f32(inShape) : qt(inShape, dtype, sIn),
  values,
  out: dtype === 'float32' ? f32(outShape) : qt(outShape, dtype, sOut),
  attrs: { axes, keep_dims: keep },
  golden,
  tolerance: dtype === 'float32' ? 1e-5 : 1,
});

const REDUCE: Record<string, GoldenCase> = {
  MeanFloat2DKeepDims: reduce('mean', 'float32', [2, 4], IN_2D, [1], true, [2, 1], [2.5, 6.5]),
  MeanInt82DKeepDims: reduce('mean', 'int8', [2, 4], IN_2D, [1], true, [2, 1], [2.5, 6.5]),
  MeanInt162DKeepDims: reduce('mean', 'int16', [2, 4], IN_2D, [1], true, [2, 1], [2.5, 6.5]),
  MeanInt83DKeepDims: reduce('mean', 'int8', [2, 2, 2], IN_2D, [1, 2], true, [2, 1, 1], [2.5, 6.5]),
  MeanInt84DKeepDims: reduce('mean', 'int8', [2, 2, 3, 2], IN_4D, [1, 2], true, [2, 1, 1, 2], [6, 7, 18, 19]),
  MeanInt164DKeepDims: reduce('mean', 'int16', [2, 2, 3, 2], IN_4D, [1, 2], true, [2, 1, 1, 2], [6, 7, 18, 19]),
  MeanInt84DWithoutKeepDims: reduce('mean', 'int8', [2, 2, 3, 2], IN_4D, [1, 2], false, [2, 2], [6, 7, 18, 19]),
  MeanInt164DWithoutKeepDimsDifferentScaleAndZeroPoint: reduce('mean', 'int16', [2, 2, 3, 2], IN_4D, [1, 2], false, [2, 2], [6, 7, 18, 19], 0.5, 0.7),
  MeanFloat4DWithoutKeepDimsWithPrecision: reduce('mean', 'float32', [2, 2, 3, 1], PRECISION_4D, [1, 2], false, [2, 1], [11.166667, 19.833334]),
  MeanInt84DWithoutKeepDimsWithPrecision: reduce('mean', 'int8', [2, 2, 3, 1], PRECISION_4D, [1, 2], false, [2, 1], [11.166667, 19.833334]),
  SumFloat2DKeepDims: reduce('sum', 'float32', [2, 4], IN_2D, [1], true, [2, 1], [10, 26]),
  SumFloat4DKeepDims: reduce('sum', 'float32', [2, 2, 3, 2], IN_4D, [1, 2], true, [2, 1, 1, 2], [36, 42, 108, 114]),
  SumInt82DKeepDims: reduce('sum', 'int8', [2, 4], IN_2D, [1], true, [2, 1], [10, 26]),
  SumInt162DKeepDims: reduce('sum', 'int16', [2, 4], IN_2D, [1], true, [2, 1], [10, 26]),
  SumInt83DKeepDims: reduce('sum', 'int8', [2, 2, 2], IN_2D, [1, 2], true, [2, 1, 1], [10, 26]),
  SumInt84DKeepDims: reduce('sum', 'int8', [2, 2, 3, 2], IN_4D, [1, 2], true, [2, 1, 1, 2], [36, 42, 108, 114], 1, 1),
  SumInt164DKeepDims: reduce('sum', 'int16', [2, 2, 3, 2], IN_4D, [1, 2], true, [2, 1, 1, 2], [36, 42, 108, 114]),
  SumInt84DWithoutKeepDims: reduce('sum', 'int8', [2, 2, 3, 2], IN_4D, [1, 2], false, [2, 2], [36, 42, 108, 114], 1, 1),
  SumInt164DWithoutKeepDimsDifferentScaleAndZeroPoint: reduce('sum', 'int16', [2, 2, 3, 2], IN_4D, [1, 2], false, [2, 2], [36, 42, 108, 114], 0.5, 0.7),
  SumFloatFlatten2ReduceDims: reduce('sum', 'float32', [4, 3, 2], IN_4D, [2, 1], false, [4], [21, 57, 93, 129]),
  SumFloat2DRedundantDims: reduce('sum', 'float32', [1, 2, 4], IN_2D, [1], false, [1, 4], [6, 8, 10, 12]),
  Int8MaxOpTestKeepDims: reduce('reduce_max', 'int8', [1, 3, 2], [0.4, 0.2, 0.3, 0.4, 0.5, 0.6], [1], true, [1, 1, 2], [0.5, 0.6], 2 / 255, 2 / 255),
};

describe("reductions on TensorFlow Lite Micro's reduce_test.cc vectors", () => {
  it.each(Object.entries(REDUCE))('%s', (_name, c) => expectGolden(c));
});

// ---------------------------------------------------------------- logistic_test.cc
const SIGMOID = (x: number) => 1 / (1 + Math.exp(-x));
const LOGISTIC_BASIC = [1, 2, 3, 4, 5, -1, -2, -3, -4, -5];
const LOGISTIC_WIDE = [1, 2, 3, 4, 93, -1, -2, -3, -4, -93];
// logistic_test.cc's int16 vector: 177 points from -20 to 20 in steps of 40/176, golden = sigmoid.
const INT16_VEC = Array.from({ length: 177 }, (_, i) => -20 + (40 * i) / 176);

const LOGISTIC: Record<string, GoldenCase> = {
  LogisticFloatBasicShouldMatchGolden: { op: 'logistic', input: f32([2, 5]), values: LOGISTIC_BASIC, out: f32([2, 5]), attrs: {}, golden: LOGISTIC_BASIC.map(SIGMOID), tolerance: 1e-5 },
  LogisticQuantizedInt8BasicShouldMatchGolden: {
    op: 'logistic', input: qt([2, 5], 'int8', 0.1), values: LOGISTIC_BASIC, out: qt([2, 5], 'int8', 1 / 255, -128), attrs: {}, golden: LOGISTIC_BASIC.map(SIGMOID), tolerance: 1,
  },
  LogisticQuantizedInt8WideRangeShouldMatchGolden: {
    op: 'logistic', input: qt([1, 10], 'int8', 1), values: LOGISTIC_WIDE, out: qt([1, 10], 'int8', 1 / 255, -128), attrs: {}, golden: LOGISTIC_WIDE.map(SIGMOID), tolerance: 1,
  },
  LogisticQuantizedInt16ShouldMatchGolden: {
    op: 'logistic', input: qt([1, 177], 'int16', 32 / 65536), values: INT16_VEC, out: qt([1, 177], 'int16', 2 / 65536), attrs: {}, golden: INT16_VEC.map(SIGMOID), tolerance: 16,
  },
};

describe("LOGISTIC on TensorFlow Lite Micro's logistic_test.cc vectors", () => {
  it.each(Object.entries(LOGISTIC))('%s', (_name, c) => expectGolden(c));
});

// -------------------------------------------------------------------- tanh_test.cc
// tanh_test.cc's vectors: 90 points from -8 to 8 in steps of 16/88, and the int16 vector of
// 177 points from -20 to 20; golden = tanh.
const TANH_VEC = Array.from({ length: 90 }, (_, i) => -8 + (16 * i) / 88);
const TANH: Record<string, GoldenCase> = {
  SimpleTestTanhFloat: { op: 'tanh', input: f32([1, 90]), values: TANH_VEC, out: f32([1, 90]), attrs: {}, golden: TANH_VEC.map(Math.tanh), tolerance: 1e-7 },
  // TFLM names it "UInt8" but runs int8 with an output scale a hair under 1/128.
  SimpleTestTanhUInt8: {
    op: 'tanh', input: qt([1, 90], 'int8', 16 / 256), values: TANH_VEC, out: qt([1, 90], 'int8', Math.fround(1.99999955) / 256), attrs: {}, golden: TANH_VEC.map(Math.tanh), tolerance: 2,
  },
  TestTanhInt16WideRange: {
    op: 'tanh', input: qt([1, 177], 'int16', 32 / 65536), values: INT16_VEC, out: qt([1, 177], 'int16', 2 / 65536), attrs: {}, golden: INT16_VEC.map(Math.tanh), tolerance: 16,
  },
};

describe("TANH on TensorFlow Lite Micro's tanh_test.cc vectors", () => {
  it.each(Object.entries(TANH))('%s', (_name, c) => expectGolden(c));
});

describe('int8 LOGISTIC / TANH at the output scales of TFLM\'s tests: generated C vs interpreter (gcc)', () => {
  it('compiles and runs byte for byte', () => {
    const asOpCase = (c: GoldenCase): OpCase => ({ label: c.op, op: c.op, input: c.input, out: c.out, attrs: {} });
    expectCRunsByteExact([asOpCase(LOGISTIC.LogisticQuantizedInt8BasicShouldMatchGolden), asOpCase(TANH.SimpleTestTanhUInt8)], 5);
  });
});

// -------------------------------------------------------------- hard_swish_test.cc
/** std::minstd_rand with its default seed, as hard_swish_test.cc draws its inputs. */
function minstdRand(): () => number {
  let state = 1;
  return () => {
    state = (state * 48271) % 2147483647;
    return state;
  };
}

const scaleFromMinMax = (min: number, max: number) => Math.fround(Math.fround(max - min) / 255);
const zeroPointFromMinMax = (min: number, max: number) => -128 + Math.trunc(Math.fround(Math.fround(-min / scaleFromMinMax(min, max)) + 0.5));
const hardSwishRef = (x: number) => Math.fround(Math.fround(x * Math.min(6, Math.max(0, Math.fround(x + 3)))) * Math.fround(1 / 6));

function dequantizedHardSwish(values: number[], inMin: number, inMax: number, outMin: number, outMax: number): number[] {
  const sIn = scaleFromMinMax(inMin, inMax);
  const sOut = scaleFromMinMax(outMin, outMax);
  const zOut = zeroPointFromMinMax(outMin, outMax);
  const out = runGolden({
    op: 'hard_swish',
    input: qt([1, values.length], 'int8', sIn, zeroPointFromMinMax(inMin, inMax)),
    values,
    out: qt([1, values.length], 'int8', sOut, zOut),
    attrs: {},
    golden: [],
    tolerance: 0,
  });
  return out.map((v) => Math.fround(sOut * (v - zOut)));
}

describe("HARD_SWISH on TensorFlow Lite Micro's hard_swish_test.cc vectors", () => {
  it('SimpleHardSwishTestInt8: 16 input/output ranges, 101 minstd_rand inputs each, within 1.5 steps', () => {
    const random = minstdRand();
    const pairs: [number, number][] = [[0, 1], [-2, 1], [-5, 10], [-40, 60]];
    for (const [inMin, inMax] of pairs) {
      for (const [outMin, outMax] of pairs) {
        const values = Array.from({ length: 101 }, () => Math.fround(inMin + Math.fround((inMax - inMin) * Math.fround(random() * Math.fround(1 / 2147483647)))));
        const want = values.map((v) => Math.min(outMax, Math.max(outMin, hardSwishRef(v))));
        const got = dequantizedHardSwish(values, inMin, inMax, outMin, outMax);
        const tolerance = Math.max(inMax - inMin, outMax - outMin) * (1.5 / 256);
        got.forEach((g, i) => {
          if (Math.abs(g - want[i]) > tolerance) throw new Error(`ranges [${inMin}, ${inMax}] -> [${outMin}, ${outMax}] input ${values[i]}: got ${g}, want ${want[i]}`);
        });
      }
    }
  });

  it('SimpleHardSwishTestQuantizedBias (uint8 in TFLM, the same real values in int8): no bias', () => {
    const [inMin, inMax, outMin, outMax] = [-11.654928, 25.036512, -0.3905796, 24.50887].map(Math.fround);
    const values = new Array(43).fill(0);
    const got = dequantizedHardSwish(values, inMin, inMax, outMin, outMax);
    const maxScale = Math.max(scaleFromMinMax(outMin, outMax), scaleFromMinMax(inMin, inMax));
    const bias = got.reduce((a, g) => a + g, 0) / (43 * maxScale);
    expect(Math.abs(bias)).toBeLessThanOrEqual(0.035);
  });
});

/** TFLM tests that dequantize the output and compare real values within a real tolerance. */
function expectGoldenReal(c: GoldenCase): void {
  const got = runGolden(c);
  const scale = c.out.quant!.scale[0];
  const zp = c.out.quant!.zeroPoint[0];
  got.forEach((g, i) => {
    const real = Math.fround(scale * (g - zp));
    if (!(Math.abs(real - c.golden[i]) <= c.tolerance)) throw new Error(`element ${i}: got ${real} (${g}), want ${c.golden[i]} within ${c.tolerance}\n got ${got.join(' ')}`);
  });
}

/** ScaleFromMinMax / ZeroPointFromMinMax of tflite::testing for int8 or int16. */
function minMaxType(shape: number[], dtype: 'int8' | 'int16', min: number, max: number): TensorType {
  const [lo, hi] = RANGES[dtype]!;
  const scale = Math.fround(Math.fround(max - min) / (hi - lo));
  return qt(shape, dtype, scale, lo + Math.trunc(Math.fround(Math.fround(-min / scale) + 0.5)));
}

// -------------------------------------------------------------- leaky_relu_test.cc
const LEAKY_IN_1 = [0, 1, 3, 1, -1, -2];
const LEAKY_OUT_1 = [0, 1, 3, 1, -0.5, -1];
const LEAKY_IN_2 = [-5, -4.6, -4.2, -3.8, -3.4, -3, -2.6, -2.2, -1.8, -1.4, -1, -0.6, -0.2, 0.2, 0.6, 1, 1.4, 1.8, 2.2, 2.6, 3, 3.4, 3.8, 4.2, 4.6];
const LEAKY_OUT_2 = LEAKY_IN_2.map((x) => (x < 0 ? x / 10 : x));
const QUANTIZED_TOLERANCE = 2 / 256;
const leaky2 = (dtype: 'int8' | 'int16'): GoldenCase => {
  const hi = dtype === 'int8' ? 127 / 128 : 32767 / 32768;
  const t = minMaxType([5, 5], dtype, -5, 5 * Math.fround(hi));
  return { op: 'leaky_relu', input: t, values: LEAKY_IN_2, out: t, attrs: { alpha: Math.fround(0.1) }, golden: LEAKY_OUT_2, tolerance: QUANTIZED_TOLERANCE * 5 };
};
const LEAKY: Record<string, GoldenCase> = {
  QuantizedActivationsOpTestLeakyReluInt8_1: { op: 'leaky_relu', input: qt([2, 3], 'int8', 0.1), values: LEAKY_IN_1, out: qt([2, 3], 'int8', 0.1), attrs: { alpha: 0.5 }, golden: LEAKY_OUT_1, tolerance: QUANTIZED_TOLERANCE },
  QuantizedActivationsOpTestLeakyReluInt8_2: leaky2('int8'),
  QuantizedActivationsOpTestLeakyReluInt16_1: { op: 'leaky_relu', input: qt([2, 3], 'int16', 0.01), values: LEAKY_IN_1, out: qt([2, 3], 'int16', 0.01), attrs: { alpha: 0.5 }, golden: LEAKY_OUT_1, tolerance: QUANTIZED_TOLERANCE },
  QuantizedActivationsOpTestLeakyReluInt16_2: leaky2('int16'),
};

describe("LEAKY_RELU on TensorFlow Lite Micro's leaky_relu_test.cc vectors", () => {
  it.each(Object.entries(LEAKY))('%s', (_name, c) => expectGoldenReal(c));
  it('FloatActivationsOpTestLeakyRelu', () =>
    expectGolden({ op: 'leaky_relu', input: f32([2, 3]), values: LEAKY_IN_1, out: f32([2, 3]), attrs: { alpha: 0.5 }, golden: LEAKY_OUT_1, tolerance: 1e-5 }));
});

// ------------------------------------------------------------------- prelu_test.cc
const PRELU_IN = [0, 0, 0, 0.5, 0.5, 0.5, -1, -1, -1, -0.25, -0.25, -0.25];
const PRELU_ALPHA = [0, 0.5, -0.5];
const PRELU_OUT = [0, 0, 0, 0.5, 0.5, 0.5, 0, -0.5, 0.5, 0, -0.125, 0.125];

describe("PRELU on TensorFlow Lite Micro's prelu_test.cc vectors", () => {
  it('FloatPreluActivationsOpTest', () =>
    expectGolden({
      op: 'prelu', input: f32([2, 2, 3]), values: [0, 0, 0, 1, 1, 1, -1, -1, -1, -2, -2, -2],
      more: [{ type: f32([1, 1, 3]), values: [0, 1, 2] }], out: f32([2, 2, 3]), attrs: {},
      golden: [0, 0, 0, 1, 1, 1, 0, -1, -2, 0, -2, -4], tolerance: 0,
    }));
  it('QuantizedInt8PreluActivationsOpTest', () =>
    expectGoldenReal({
      op: 'prelu', input: qt([2, 2, 3], 'int8', 2 / 255), values: PRELU_IN,
      more: [{ type: qt([1, 1, 3], 'int8', 2 / 255), values: PRELU_ALPHA }], out: qt([2, 2, 3], 'int8', 2 / 255), attrs: {},
      golden: PRELU_OUT, tolerance: QUANTIZED_TOLERANCE,
    }));
  it('QuantizedInt16PreluActivationsOpTest (int16 input/output at 2/65535, int8 alpha at 2/255)', () =>
    expectGoldenReal({
      op: 'prelu', input: qt([2, 2, 3], 'int16', 2 / 65535), values: PRELU_IN,
      more: [{ type: qt([1, 1, 3], 'int8', 2 / 255), values: PRELU_ALPHA }], out: qt([2, 2, 3], 'int16', 2 / 65535), attrs: {},
      golden: PRELU_OUT, tolerance: QUANTIZED_TOLERANCE,
    }));
});

// --------------------------------------------------------------------- mul_test.cc
const binary = (op: string, a: TensorType, av: number[], b: TensorType, bv: number[], out: TensorType, golden: number[], tolerance: number, activation = 'NONE'): GoldenCase => ({
  op, input: a, values: av, more: [{ type: b, values: bv }], out, attrs: { activation }, golden, tolerance,
});
const MUL_A = [-0.8, 0.2, 0.9, 0.7];
const MUL_B = [0.6, 0.4, 0.9, 0.8];
const MUL_GOLDEN = [-0.48, 0.08, 0.81, 0.56];
const MUL_BCAST = [-2.0, 0.2, 0.7, 0.8, 1.1, 2.0];
const MUL_BCAST_GOLDEN = [-0.2, 0.02, 0.07, 0.08, 0.11, 0.2];
const S4 = [1, 2, 2, 1];
const B4 = [1, 3, 1, 2];
const MUL: Record<string, GoldenCase> = {
  SimpleFloatNoAcativationShouldMatchGolden: binary('mul', f32(S4), MUL_A, f32(S4), MUL_B, f32(S4), MUL_GOLDEN, 1e-5),
  SimpleFloatReluShouldMatchGolden: binary('mul', f32(S4), MUL_A, f32(S4), MUL_B, f32(S4), [0, 0.08, 0.81, 0.56], 1e-5, 'RELU'),
  SimpleInt8NoAcativationShouldMatchGolden: binary('mul', qt(S4, 'int8', 0.01), MUL_A, qt(S4, 'int8', 0.01), MUL_B, qt(S4, 'int8', 0.01), MUL_GOLDEN, 1),
  BroadcastFloatNoActivationShouldMatchGolden: binary('mul', f32(B4), MUL_BCAST, f32([1]), [0.1], f32(B4), MUL_BCAST_GOLDEN, 1e-5),
  BroadcastFloatReluShouldMatchGolden: binary('mul', f32(B4), MUL_BCAST, f32([1]), [0.1], f32(B4), [0, 0.02, 0.07, 0.08, 0.11, 0.2], 1e-5, 'RELU'),
  BroadcastInt8NoAcativationShouldMatchGolden: binary('mul', qt(B4, 'int8', 0.05), MUL_BCAST, qt([1], 'int8', 0.05), [0.1], qt(B4, 'int8', 0.01), MUL_BCAST_GOLDEN, 1),
  SimpleInt16NoActivationShouldMatchGolden: binary('mul', qt(S4, 'int16', 0.01), MUL_A, qt(S4, 'int16', 0.01), MUL_B, qt(S4, 'int16', 0.01), MUL_GOLDEN, 1),
  BroadcastInt16NoActivationShouldMatchGolden: binary('mul', qt(B4, 'int16', 0.05), MUL_BCAST, qt([1], 'int16', 0.05), [0.1], qt(B4, 'int16', 0.01), MUL_BCAST_GOLDEN, 1),
  // int32 MUL ignores quantization: inputs are the floats at 0.01, the golden at 0.0001.
  SimpleInt32NoAcativationShouldMatchGolden: binary('mul', qt(S4, 'int32', 0.01), MUL_A, qt(S4, 'int32', 0.01), MUL_B, qt(S4, 'int32', 0.0001), MUL_GOLDEN, 1),
};

describe("MUL on TensorFlow Lite Micro's mul_test.cc vectors", () => {
  it.each(Object.entries(MUL))('%s', (_name, c) => expectGolden(c));
});

// --------------------------------------------------------------------- sub_test.cc
// TFLM compares SUB's quantized outputs with tolerance 1e-5: exactly.
const SUB_SHAPES = [[6], [2, 3], [2, 1, 3], [1, 3, 1, 2]];
const SUB_Q1 = [-2.01, -1.01, -0.01, 0.98];
const SUB_Q2 = [-1.01, -1.99, -2.99, -4.02];
const SUB_V1 = [-2.0, 0.2, 0.7, 0.8, 1.1, 2.0];
const SUB_V2 = [-0.1, -0.2, -0.3, -0.5, -1.1, -0.1];
const SUB_BCAST_1 = [-0.3, 2.3, 0.9, 0.5, 0.8, -1.1, 1.2, 2.8, -1.6, 0.0, 0.7, -2.2];
const SUB_BCAST_2 = [-0.2, -0.3, 0.4, -0.5, -1.0, -0.9];
const SUB_BCAST: [number[], number[], number[]][] = [
  [[1, 1, 3, 2], [2, 3, 3, 2], [-0.1, 2.6, -0.7, 2.8, 0.7, 3.2, 1.1, 0.8, 0.5, 1.0, 1.9, 1.4, 1.0, -0.8, 0.4, -0.6, 1.8, -0.2, 1.4, 3.1, 0.8, 3.3, 2.2, 3.7, -1.4, 0.3, -2.0, 0.5, -0.6, 0.9, 0.9, -1.9, 0.3, -1.7, 1.7, -1.3]],
  [[1, 3, 1, 2], [2, 3, 1, 2], [-0.1, 2.6, 0.5, 1.0, 1.8, -0.2, 1.4, 3.1, -2.0, 0.5, 1.7, -1.3]],
  [[2, 1, 3, 1], [2, 3, 3, 2], [-0.1, 2.5, 0.0, 2.6, -0.7, 1.9, 1.1, 0.7, 1.2, 0.8, 0.5, 0.1, 1.0, -0.9, 1.1, -0.8, 0.4, -1.5, 1.7, 3.3, 2.2, 3.8, 2.1, 3.7, -1.1, 0.5, -0.6, 1.0, -0.7, 0.9, 1.2, -1.7, 1.7, -1.2, 1.6, -1.3]],
  [[2, 3, 1, 1], [2, 3, 1, 2], [-0.1, 2.5, 1.2, 0.8, 0.4, -1.5, 1.7, 3.3, -0.6, 1.0, 1.6, -1.3]],
];
const SUB: Record<string, GoldenCase> = {
  FloatSubNoActivation: binary('sub', f32(S4), [-2.0, 0.2, 0.7, 0.8], f32(S4), [0.1, 0.2, 0.3, 0.5], f32(S4), [-2.1, 0.0, 0.4, 0.3], 1e-5),
  FloatSubActivationRelu1: binary('sub', f32(S4), [-2.0, 0.2, 2.0, 0.8], f32(S4), [2.0, 0.2, 0.3, 0.5], f32(S4), [-1.0, 0.0, 1.0, 0.3], 1e-5, 'RELU_N1_TO_1'),
  QuantizedSubNoActivationInt8: binary('sub', qt(S4, 'int8', 0.25, -10), SUB_Q1, qt(S4, 'int8', 0.5, 4), SUB_Q2, qt(S4, 'int8', 1, 13), [-1, 1, 3, 5], 0),
  QuantizedSubActivationRelu1Int8: binary('sub', qt(S4, 'int8', 0.25, -10), SUB_Q1, qt(S4, 'int8', 0.5, 4), SUB_Q2, qt(S4, 'int8', 1, 13), [-1, 1, 1, 1], 0, 'RELU_N1_TO_1'),
  QuantizedSubActivationRelu1Int16: binary('sub', qt(S4, 'int16', 0.25), SUB_Q1, qt(S4, 'int16', 0.5), SUB_Q2, qt(S4, 'int16', 1), [-1, 1, 1, 1], 0, 'RELU_N1_TO_1'),
};
SUB_SHAPES.forEach((s) => {
  SUB[`FloatSubWithScalarBroadcast [${s}]`] = binary('sub', f32(s), SUB_V1, f32([]), [0.1], f32(s), [-2.1, 0.1, 0.6, 0.7, 1.0, 1.9], 1e-5);
  SUB[`QuantizedSubVariousInputShapesInt8 [${s}]`] = binary('sub', qt(s, 'int8', 0.1, -9), SUB_V1, qt(s, 'int8', 0.05, 5), SUB_V2, qt(s, 'int8', 0.1, 14), [-1.9, 0.4, 1.0, 1.3, 2.2, 2.1], 0);
  SUB[`QuantizedSubVariousInputShapesInt16 [${s}]`] = binary('sub', qt(s, 'int16', 0.1), SUB_V1, qt(s, 'int16', 0.05), SUB_V2, qt(s, 'int16', 0.1), [-1.9, 0.4, 1.0, 1.3, 2.2, 2.1], 0);
  SUB[`QuantizedSubWithScalarBroadcastInt8 [${s}]`] = binary('sub', qt(s, 'int8', 0.1, -8), SUB_V1, qt([], 'int8', 0.05, 4), [-0.1], qt(s, 'int8', 0.05, 12), [-1.9, 0.3, 0.8, 0.9, 1.2, 2.1], 0);
  SUB[`QuantizedSubWithScalarBroadcastInt16 [${s}]`] = binary('sub', qt(s, 'int16', 0.1), SUB_V1, qt([], 'int16', 0.05), [-0.1], qt(s, 'int16', 0.05), [-1.9, 0.3, 0.8, 0.9, 1.2, 2.1], 0);
});
SUB_BCAST.forEach(([s2, so, golden]) => {
  SUB[`QuantizedSubWithScalarBroadcastFloat [${s2}]`] = binary('sub', f32([2, 3, 1, 2]), SUB_BCAST_1, f32(s2), SUB_BCAST_2, f32(so), golden, 1e-5);
});

describe("SUB on TensorFlow Lite Micro's sub_test.cc vectors", () => {
  it.each(Object.entries(SUB))('%s', (_name, c) => expectGolden(c));
});

// ------------------------------------------------------------ transpose_conv_test.cc
/** CreateSymmetricPerChannelQuantizedTensor: per output channel, scale max|w| / 127. */
function perChannelWeights(shape: number[], values: number[]): { type: TensorType; data: Uint8Array } {
  const per = values.length / shape[0];
  const scales = Array.from({ length: shape[0] }, (_, c) => Math.fround(Math.max(...values.slice(c * per, (c + 1) * per).map(Math.abs)) / 127));
  const q8 = values.map((v, i) => Math.max(-127, Math.min(127, roundHalfAwayFromZero(Math.fround(v / scales[Math.floor(i / per)])))));
  return { type: tensorType(shape, 'int8', q(scales, 0, 0)), data: bytesOf('int8', q8) };
}

function transposeConv(
  input: TensorType, values: number[], weightShape: number[], weights: number[], bias: number[] | undefined,
  out: TensorType, strides: [number, number], mode: 'SAME' | 'VALID', activation: string, golden: number[], tolerance: number,
): GoldenCase {
  const float = input.dtype === 'float32';
  const w = float ? { type: f32(weightShape), data: bytesOf('float32', weights) } : perChannelWeights(weightShape, weights);
  const constants = [w];
  if (bias) constants.push(float ? { type: f32([bias.length]), data: bytesOf('float32', bias) } : { type: tensorType([bias.length], 'int32'), data: bytesOf('int32', bias) });
  const [top, left] = resolvePadding(mode, { input: [out.shape[1], out.shape[2]], filter: [weightShape[1], weightShape[2]], strides, dilation: [1, 1] });
  return { op: 'transpose_conv2d', input, values, constants, out, attrs: { strides, pad_before: [top, left], output_shape: out.shape, activation }, golden, tolerance };
}

const TC_IN = Array.from({ length: 32 }, (_, i) => i + 1);
const TC_W = Array.from({ length: 18 }, (_, i) => i + 1);
const TC_GOLDEN = [184, 412, 568, 528, 678, 1347, 1689, 1434, 1494, 2715, 3057, 2442, 1968, 3352, 3652, 2760];
const TRANSPOSE_CONV: Record<string, GoldenCase> = {
  SimpleTestFloat: transposeConv(f32([1, 4, 4, 2]), TC_IN, [1, 3, 3, 2], TC_W, [0], f32([1, 4, 4, 1]), [1, 1], 'SAME', 'NONE', TC_GOLDEN, 0.001),
  fusedRELUTest: transposeConv(
    f32([1, 4, 4, 1]), [1, 2, -3, -4, 5, 6, -7, -8, 9, 10, -11, -12, 13, 14, 15, 16], [1, 3, 3, 1], [1, 2, 3, 4, 5, 6, 7, 8, 9], [0],
    f32([1, 4, 4, 1]), [1, 1], 'SAME', 'RELU', [29, 24, 0, 0, 99, 72, 0, 0, 207, 186, 0, 0, 263, 292, 141, 0], 0.001,
  ),
  AccuracyWithFusedActivationTest: transposeConv(
    f32([1, 1, 2, 1]), [323, -521], [1, 3, 3, 1], [9, 5, 6, 9, 8, 5, 3, 1, 4], [0],
    f32([1, 3, 4, 1]), [3, 3], 'SAME', 'RELU', [1615, 1938, 0, 0, 2584, 1615, 0, 0, 323, 1292, 0, 0], 0.001,
  ),
  MultiChannelBiasWithFusedActivationTest: transposeConv(
    f32([1, 2, 2, 1]), [1, 2, -3, 4], [2, 3, 3, 1], [1, 3, 5, 7, 9, 11, 13, 15, 17, 2, 4, 6, 8, 10, 12, 14, 16, 18], [3, 4],
    f32([1, 5, 5, 2]), [2, 2], 'VALID', 'RELU',
    [4, 6, 6, 8, 10, 14, 9, 12, 13, 16, 10, 12, 12, 14, 28, 32, 21, 24, 25, 28, 13, 12, 9, 8, 35, 40, 45, 52, 57, 64, 0, 0, 0, 0, 0, 0, 39, 44, 47, 52, 0, 0, 0, 0, 4, 6, 63, 68, 71, 76],
    0.001,
  ),
  SimpleTestQuantizedPerChannel: transposeConv(qt([1, 4, 4, 2], 'int8', 0.5), TC_IN, [1, 3, 3, 2], TC_W, [0], qt([1, 4, 4, 1], 'int8', 30), [1, 1], 'SAME', 'NONE', TC_GOLDEN, 1),
};

describe("TRANSPOSE_CONV on TensorFlow Lite Micro's transpose_conv_test.cc vectors", () => {
  it.each(Object.entries(TRANSPOSE_CONV))('%s', (_name, c) => expectGolden(c));
});

// ------------------------------------------------------------ resize_bilinear_test.cc
// TFLM's int8 tensors here are created from min/max -128..127: scale 1, zero point 0.
const resize = (op: string, dtype: 'float32' | 'int8' | 'int16', inShape: number[], values: number[], outShape: number[], golden: number[], tolerance = 0, attrs = { align_corners: false, half_pixel_centers: false }): GoldenCase => ({
  op,
  input: dtype === 'float32' ? f32(inShape) : qt(inShape, dtype, 1),
  values,
  out: dtype === 'float32' ? f32(outShape) : qt(outShape, dtype, 1),
  attrs,
  golden,
  tolerance: dtype === 'float32' ? Math.max(tolerance, 1e-5) : tolerance,
});
const BILINEAR: Record<string, GoldenCase> = {};
for (const dtype of ['float32', 'int8'] as const) {
  const sfx = dtype === 'int8' ? 'Int8' : '';
  Object.assign(BILINEAR, {
    [`HorizontalResize${sfx}`]: resize('resize_bilinear', dtype, [1, 1, 2, 1], [3, 6], [1, 1, 3, 1], [3, 5, 6]),
    [`VerticalResize${sfx}`]: resize('resize_bilinear', dtype, [1, 2, 1, 1], [3, 9], [1, 3, 1, 1], [3, 7, 9]),
    [`TwoDimensionalResize${sfx}`]: resize('resize_bilinear', dtype, [1, 2, 2, 1], [3, 6, 9, 12], [1, 3, 3, 1], [3, 5, 6, 7, 9, 10, 9, 11, 12]),
  });
}
Object.assign(BILINEAR, {
  TwoDimensionalResizeWithTwoBatches: resize('resize_bilinear', 'float32', [2, 2, 2, 1], [3, 6, 9, 12, 4, 10, 10, 16], [2, 3, 3, 1], [3, 5, 6, 7, 9, 10, 9, 11, 12, 4, 8, 10, 8, 12, 14, 10, 14, 16]),
  TwoDimensionalResizeWithTwoBatchesInt8: resize('resize_bilinear', 'int8', [2, 2, 2, 1], [3, 6, 9, 12, 4, 10, 12, 16], [2, 3, 3, 1], [3, 5, 6, 7, 9, 10, 9, 11, 12, 4, 8, 10, 9, 12, 13, 12, 14, 16], 1),
  ThreeDimensionalResize: resize('resize_bilinear', 'float32', [1, 2, 2, 2], [3, 4, 6, 10, 9, 10, 12, 16], [1, 3, 3, 2], [3, 4, 5, 8, 6, 10, 7, 8, 9, 12, 10, 14, 9, 10, 11, 14, 12, 16]),
  ThreeDimensionalResizeInt8: resize('resize_bilinear', 'int8', [1, 2, 2, 2], [3, 4, 6, 10, 10, 12, 14, 16], [1, 3, 3, 2], [3, 4, 5, 8, 6, 10, 7, 9, 10, 12, 11, 13, 10, 12, 12, 14, 14, 16], 1),
});

describe("RESIZE_BILINEAR on TensorFlow Lite Micro's resize_bilinear_test.cc vectors", () => {
  it.each(Object.entries(BILINEAR))('%s', (_name, c) => expectGolden(c));
});

// ---------------------------------------------------- resize_nearest_neighbor_test.cc
const NEAREST: Record<string, GoldenCase> = {
  HorizontalResize: resize('resize_nearest_neighbor', 'float32', [1, 1, 2, 1], [3, 6], [1, 1, 3, 1], [3, 3, 6]),
  VerticalResize: resize('resize_nearest_neighbor', 'float32', [1, 2, 1, 1], [3, 9], [1, 3, 1, 1], [3, 3, 9]),
  TwoDimensionalResize: resize('resize_nearest_neighbor', 'float32', [1, 2, 2, 1], [3, 6, 9, 12], [1, 3, 3, 1], [3, 3, 6, 3, 3, 6, 9, 9, 12]),
  TwoDimensionalResizeWithTwoBatches: resize('resize_nearest_neighbor', 'float32', [2, 2, 2, 1], [3, 6, 9, 12, 4, 10, 10, 16], [2, 3, 3, 1], [3, 3, 6, 3, 3, 6, 9, 9, 12, 4, 4, 10, 4, 4, 10, 10, 10, 16]),
  ThreeDimensionalResize: resize('resize_nearest_neighbor', 'float32', [1, 2, 2, 2], [3, 4, 6, 10, 9, 10, 12, 16], [1, 3, 3, 2], [3, 4, 3, 4, 6, 10, 3, 4, 3, 4, 6, 10, 9, 10, 9, 10, 12, 16]),
};
for (const dtype of ['int8', 'int16'] as const) {
  const sfx = dtype === 'int8' ? 'Int8' : 'Int16';
  Object.assign(NEAREST, {
    [`HorizontalResize${sfx}`]: resize('resize_nearest_neighbor', dtype, [1, 1, 2, 1], [-3, 6], [1, 1, 3, 1], [-3, -3, 6]),
    [`VerticalResize${sfx}`]: resize('resize_nearest_neighbor', dtype, [1, 2, 1, 1], [3, -9], [1, 3, 1, 1], [3, 3, -9]),
    [`TwoDimensionalResize${sfx}`]: resize('resize_nearest_neighbor', dtype, [1, 2, 2, 1], [3, -6, 9, 12], [1, 3, 3, 1], [3, 3, -6, 3, 3, -6, 9, 9, 12]),
    [`TwoDimensionalResizeWithTwoBatches${sfx}`]: resize('resize_nearest_neighbor', dtype, [2, 2, 2, 1], [3, 6, 9, -12, -4, 10, 10, 16], [2, 3, 3, 1], [3, 3, 6, 3, 3, 6, 9, 9, -12, -4, -4, 10, -4, -4, 10, 10, 10, 16]),
    [`ThreeDimensionalResize${sfx}`]: resize('resize_nearest_neighbor', dtype, [1, 2, 2, 2], [3, 4, -6, 10, 10, 12, -14, 16], [1, 3, 3, 2], [3, 4, 3, 4, -6, 10, 3, 4, 3, 4, -6, 10, 10, 12, 10, 12, -14, 16]),
  });
}

describe("RESIZE_NEAREST_NEIGHBOR on TensorFlow Lite Micro's resize_nearest_neighbor_test.cc vectors", () => {
  it.each(Object.entries(NEAREST))('%s', (_name, c) => expectGolden(c));
});

// ---------------------------------------------------------------- l2norm_test.cc
// Input quantized from [-2, 2] (zero point -1 after TFLM's float rounding), output from
// [-1, 127/128] (1/128, 0); int8 outputs compared exactly.
const L2_IN = (shape: number[]) => minMaxType(shape, 'int8', -2, 2);
const L2_OUT = (shape: number[]) => minMaxType(shape, 'int8', -1, Math.fround(127 / 128));
/** A case whose input and golden are TFLM's stored int8 values. */
const storedCase = (c: GoldenCase): GoldenCase => {
  const real = (t: TensorType, v: readonly number[]) => v.map((x) => (x - t.quant!.zeroPoint[0]) * t.quant!.scale[0]);
  return { ...c, values: real(c.input, c.values), golden: real(c.out, c.golden) };
};
const L2_FLOAT_IN = [-1.1, 0.6, 0.7, 1.2, -0.7, 0.1];
const L2_FLOAT_OUT = [-0.55, 0.3, 0.35, 0.6, -0.35, 0.05];
const L2_INT8_IN = [-71, 37, 44, 76, -46, 5];
const L2_INT8_OUT = [-70, 38, 45, 77, -45, 6];
const L2: Record<string, GoldenCase> = {
  SimpleFloatTest: { op: 'l2_normalization', input: f32([1, 1, 1, 6]), values: L2_FLOAT_IN, out: f32([1, 1, 1, 6]), attrs: {}, golden: L2_FLOAT_OUT, tolerance: 1e-5 },
  ZerosVectorFloatTest: { op: 'l2_normalization', input: f32([1, 1, 1, 6]), values: [0, 0, 0, 0, 0, 0], out: f32([1, 1, 1, 6]), attrs: {}, golden: [0, 0, 0, 0, 0, 0], tolerance: 1e-5 },
  MultipleBatchFloatTest: { op: 'l2_normalization', input: f32([3, 1, 1, 6]), values: [...L2_FLOAT_IN, ...L2_FLOAT_IN, ...L2_FLOAT_IN], out: f32([3, 1, 1, 6]), attrs: {}, golden: [...L2_FLOAT_OUT, ...L2_FLOAT_OUT, ...L2_FLOAT_OUT], tolerance: 1e-5 },
  SimpleInt8Test: storedCase({ op: 'l2_normalization', input: L2_IN([1, 1, 1, 6]), values: L2_INT8_IN, out: L2_OUT([1, 1, 1, 6]), attrs: {}, golden: L2_INT8_OUT, tolerance: 0 }),
  ZerosVectorInt8Test: storedCase({ op: 'l2_normalization', input: L2_IN([1, 1, 1, 6]), values: [-1, -1, -1, -1, -1, -1], out: L2_OUT([1, 1, 1, 6]), attrs: {}, golden: [0, 0, 0, 0, 0, 0], tolerance: 0 }),
  MultipleBatchInt8Test: storedCase({ op: 'l2_normalization', input: L2_IN([3, 6]), values: [...L2_INT8_IN, ...L2_INT8_IN, ...L2_INT8_IN], out: L2_OUT([3, 6]), attrs: {}, golden: [...L2_INT8_OUT, ...L2_INT8_OUT, ...L2_INT8_OUT], tolerance: 0 }),
};

describe("L2_NORMALIZATION on TensorFlow Lite Micro's l2norm_test.cc vectors", () => {
  it('the int8 input zero point is -1, as TFLM derives it in float', () => expect(L2_IN([6]).quant!.zeroPoint[0]).toBe(-1));
  it.each(Object.entries(L2))('%s', (_name, c) => expectGolden(c));
});

// ------------------------------------------------------------- log_softmax_test.cc
const LSM_IN = [0, -6, 2, 4, 3, -2, 10, 1];
describe("LOG_SOFTMAX on TensorFlow Lite Micro's log_softmax_test.cc vectors", () => {
  it('FloatActivationsOpTestLogSoftmax (two shapes)', () => {
    expectGolden({ op: 'log_softmax', input: f32([2, 4]), values: LSM_IN, out: f32([2, 4]), attrs: {}, golden: [-4.14297, -10.14297, -2.14297, -0.142971, -7.00104, -12.00104, -0.00104087, -9.00104], tolerance: 1e-5 });
    expectGolden({ op: 'log_softmax', input: f32([4, 2]), values: LSM_IN, out: f32([4, 2]), attrs: {}, golden: [-0.00247565, -6.00247, -2.12692, -0.126928, -0.00671534, -5.00671, -0.000123374, -9.00012], tolerance: 1e-5 });
  });
  it('LogSoftmaxOpTestSimpleTest', () =>
    expectGolden({
      op: 'log_softmax', input: f32([2, 5]), values: [1, 2, 3, 4, 5, -1, -2, -3, -4, -5], out: f32([2, 5]), attrs: {},
      golden: [-4.45191431, -3.45191431, -2.45191431, -1.45191443, -0.4519144, -0.4519144, -1.45191443, -2.45191431, -3.45191431, -4.45191431], tolerance: 1e-6,
    }));
  // TFLM checks these int8 outputs exactly.
  it.each([
    ['QuantizedActivationsOpTestLogSoftmaxInt8', [2, 4], LSM_IN, -10, 10, [61, -36, 93, 125, 15, -65, 127, -16]],
    ['ExtraTestLogSoftmaxInt8', [3, 1], [0, -1, 1], -1, 1, [127, 127, 127]],
  ] as const)('%s', (_name, shape, values, min, max, expected) => {
    const got = runGolden({
      op: 'log_softmax', input: minMaxType([...shape], 'int8', min, max), values: [...values], out: qt([...shape], 'int8', 16 / 256, 127), attrs: {}, golden: [], tolerance: 0,
    });
    expect(got).toEqual([...expected]);
  });
});

// -------------------------------------------------------- squared_difference_test.cc
/** tflite::ChooseQuantizationParams<int8_t>(min, max) (in double), as the test quantizes. */
function chooseInt8(shape: number[], min: number, max: number): TensorType {
  const [qmin, qmax] = [-128, 127];
  const rmin = Math.min(Math.fround(min), 0);
  const rmax = Math.max(Math.fround(max), 0);
  const scale = (rmax - rmin) / (qmax - qmin);
  const fromMin = qmin - rmin / scale;
  const fromMax = qmax - rmax / scale;
  const zp = Math.abs(qmin) + Math.abs(rmin / scale) < Math.abs(qmax) + Math.abs(rmax / scale) ? fromMin : fromMax;
  return qt(shape, 'int8', scale, zp < qmin ? qmin : zp > qmax ? qmax : roundHalfAwayFromZero(zp));
}
const sqd = (a: number[], av: number[], amin: number, amax: number, b: number[], bv: number[], bmin: number, bmax: number, omin: number, omax: number, golden: number[], tolerance: number): GoldenCase => ({
  op: 'squared_difference', input: chooseInt8(a, amin, amax), values: av, more: [{ type: chooseInt8(b, bmin, bmax), values: bv }], out: chooseInt8(a, omin, omax), attrs: {}, golden, tolerance,
});
const sqd16 = (a: number[], av: number[], b: number[], bv: number[], golden: number[]): GoldenCase => ({
  op: 'squared_difference', input: qt(a, 'int16', 0.0025), values: av, more: [{ type: qt(b, 'int16', 0.005), values: bv }], out: qt(a, 'int16', 0.001), attrs: {}, golden, tolerance: 0,
});
const SQD: Record<string, GoldenCase> = {
  FloatSquaredDifferenceSameShape: { op: 'squared_difference', input: f32(S4), values: [-0.2, 0.2, -1.2, 0.8], more: [{ type: f32(S4), values: [0.5, 0.2, -1.5, 0.5] }], out: f32(S4), attrs: {}, golden: [0.49, 0.0, 0.09, 0.09], tolerance: 1e-5 },
  IntegerSquaredDifferenceSameShape: { op: 'squared_difference', input: tensorType(S4, 'int32'), values: [-2, 2, -15, 8], more: [{ type: tensorType(S4, 'int32'), values: [5, -2, -3, 5] }], out: tensorType(S4, 'int32'), attrs: {}, golden: [49, 16, 144, 9], tolerance: 0 },
  // int16: scales 0.0025, 0.005, 0.001, zero points 0; TFLM compares stored values within 1e-5 (exactly).
  QuantizedSquaredDifferenceSameShapeInt16: sqd16(S4, [-0.2, 0.2, -1.2, 0.8], S4, [0.5, 0.2, -1.5, 0.5], [0.49, 0.0, 0.09, 0.09]),
  QuantizedSquaredDifferenceSameShape: sqd(S4, [-0.2, 0.2, -1.2, 0.8], -1.2, 0.8, S4, [0.5, 0.2, -1.5, 0.5], -1.5, 0.5, 0, 0.5, [0.49, 0.0, 0.09, 0.09], 2 / 255),
};
SUB_SHAPES.forEach((s) => {
  SQD[`QuantizedSquaredDifferenceVariousShapes [${s}]`] = sqd(s, [-2.0, 0.2, 0.3, 0.8, 1.1, -2.0], -2, 1.7, s, [1.0, 0.2, 0.6, 0.4, -1.0, -0.0], -1, 1, 0, 9, [9.0, 0.0, 0.09, 0.16, 4.41, 4.0], 18 / 255);
  SQD[`QuantizedSquaredDifferenceVariousShapesInt16 [${s}]`] = sqd16(s, [-2.0, 0.2, 0.3, 0.8, 1.1, -2.0], s, [1.0, 0.2, 0.6, 0.4, -1.0, -0.0], [9.0, 0.0, 0.09, 0.16, 4.41, 4.0]);
  SQD[`QuantizedSquaredDifferenceWithBroadcastInt16 [${s}]`] = sqd16(s, [-0.2, 0.2, 0.5, 0.8, 0.11, 1.1], [1], [0.1], [0.09, 0.01, 0.16, 0.49, 0.0001, 1.0]);
  SQD[`QuantizedSquaredDifferenceWithBroadcast [${s}]`] = sqd(s, [-0.2, 0.2, 0.5, 0.8, 0.11, 1.1], -0.2, 1.1, [1], [0.1], 0, 1, 0, 1, [0.09, 0.01, 0.16, 0.49, 0.0001, 1.0], 2 / 255);
  SQD[`IntegerSquaredDifferenceWithBroadcast [${s}]`] = {
    op: 'squared_difference', input: tensorType(s, 'int32'), values: [-20, 10, 7, 3, 1, 13], more: [{ type: tensorType([1], 'int32'), values: [3] }], out: tensorType(s, 'int32'), attrs: {}, golden: [529, 49, 16, 0, 4, 100], tolerance: 0,
  };
});

describe("SQUARED_DIFFERENCE on TensorFlow Lite Micro's squared_difference_test.cc vectors", () => {
  it.each(Object.entries(SQD))('%s', (_name, c) => (c.input.dtype === 'int8' ? expectGoldenReal(c) : expectGolden(c)));
});

// ---------------------------------------------------------------- quantize_test.cc
const QV64 = [-64, -62, -60, -58, -56, 54, 56, 58, 60, 62];
const QV32 = [-32, -31, -30, -29, -28, 27, 28, 29, 30, 31];
const requantize = (inType: 'int8' | 'int16', sIn: number, outType: 'int8' | 'int16', sOut: number, zOut: number, values: number[]): GoldenCase => ({
  op: 'quantize', input: qt([2, 5], inType, sIn), values, out: qt([2, 5], outType, sOut, zOut), attrs: {}, golden: values, tolerance: 0,
});
const QUANTIZE: Record<string, GoldenCase> = {
  QuantizeOpTestInt16: { op: 'quantize', input: f32([2, 5]), values: [-63.5, -63, -62.5, -62, -61.5, 62, 62.5, 63, 63.5, 64], out: qt([2, 5], 'int16', 0.5, -1), attrs: {}, golden: [-63.5, -63, -62.5, -62, -61.5, 62, 62.5, 63, 63.5, 64], tolerance: 0 },
  QuantizeOpTestInt16NoScale: { op: 'quantize', input: f32([2, 5]), values: [-128, -127, -126, -125, -124, 123, 124, 125, 126, 127], out: qt([2, 5], 'int16', 1), attrs: {}, golden: [-128, -127, -126, -125, -124, 123, 124, 125, 126, 127], tolerance: 0 },
  QuantizeOpTestInt16toInt16: requantize('int16', 2, 'int16', 0.5, 32, QV64),
  QuantizeOpTestInt16toInt16NoZeroPoint: requantize('int16', 1, 'int16', 0.5, 0, QV32),
  QuantizeOpTestInt8toInt8: requantize('int8', 2, 'int8', 0.5, 32, QV64),
  QuantizeOpTestInt8toInt8NoZeroPoint: requantize('int8', 1, 'int8', 0.5, 0, QV32),
  QuantizeOpTestInt8toInt16: requantize('int8', 2, 'int16', 0.5, 32, QV64),
  'QuantizeOpTestInt16toInt8 (scale 2 -> 0.5)': requantize('int16', 2, 'int8', 0.5, 0, QV64),
  'QuantizeOpTestInt16toInt8 (scale 0.4 -> 1)': requantize('int16', 0.4, 'int8', 1, 0, QV32),
};

describe("QUANTIZE on TensorFlow Lite Micro's quantize_test.cc vectors", () => {
  it.each(Object.entries(QUANTIZE))('%s', (_name, c) => expectGolden(c));
});

// ------------------------------------------------------------- batch_matmul_test.cc
const iota = (n: number, from: number) => Array.from({ length: n }, (_, i) => i + from);
const bmm = (lt: TensorType, lv: number[], rt: TensorType, rv: number[], out: TensorType, golden: number[], adjX = false, adjY = false): GoldenCase => ({
  op: 'batch_matmul', input: lt, values: lv, more: [{ type: rt, values: rv }], out, attrs: { adj_x: adjX, adj_y: adjY }, golden, tolerance: out.dtype === 'float32' ? 1e-5 : 0,
});
const BMM_LHS_Q = [1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10];
const BMM_RHS_Q = Array.from({ length: 30 }, (_, i) => Math.floor(i / 3) + 1);
const BATCH_MATMUL: Record<string, GoldenCase> = {
  BatchMatMulOpTestFloat32Test_Ones: bmm(f32([3, 2, 1, 4]), iota(24, 1), f32([3, 1, 4, 1]), iota(12, 1), f32([3, 2, 1, 1]), [30, 70, 278, 382, 782, 950]),
  BatchMatMulOpTestFloat32Test_Flatten: bmm(f32([3, 2, 2, 4]), iota(48, 1), f32([3, 1, 4, 1]), iota(12, 1), f32([3, 2, 2, 1]), [30, 70, 110, 150, 486, 590, 694, 798, 1454, 1622, 1790, 1958]),
  BatchMatMulOpTestFloat32Test_Simple: bmm(f32([1, 2, 3]), iota(6, 1), f32([1, 3, 4]), iota(12, 7), f32([1, 2, 4]), [74, 80, 86, 92, 173, 188, 203, 218]),
  BatchMatMulOpTestFloat32Test_SimpleRHSAdjoint: bmm(f32([1, 2, 3]), iota(6, 1), f32([1, 4, 3]), [7, 11, 15, 8, 12, 16, 9, 13, 17, 10, 14, 18], f32([1, 2, 4]), [74, 80, 86, 92, 173, 188, 203, 218], false, true),
  BatchMatMulOpTestFloat32Test_SimpleLHSAdjoint: bmm(f32([1, 3, 2]), [1, 4, 2, 5, 3, 6], f32([1, 3, 4]), iota(12, 7), f32([1, 2, 4]), [74, 80, 86, 92, 173, 188, 203, 218], true, false),
  BatchMatMulOpTestFloat32Test_BatchSizeTwo: bmm(f32([2, 2, 3]), iota(12, 1), f32([2, 3, 4]), iota(24, 7), f32([2, 2, 4]), [74, 80, 86, 92, 173, 188, 203, 218, 560, 584, 608, 632, 767, 800, 833, 866]),
  BatchMatMulOpTestFloat32Test_Broadcast: bmm(f32([2, 2, 3]), iota(12, 1), f32([3, 4]), iota(12, 7), f32([2, 2, 4]), [74, 80, 86, 92, 173, 188, 203, 218, 272, 296, 320, 344, 371, 404, 437, 470]),
  ConstRHSBatchMatMulOpModelRHSNotAdjoint: bmm(f32([1, 6, 2]), [6, 3, 7, 4, 6, 9, 2, 6, 7, 4, 3, 7], f32([2, 3]), [6, 3, 7, 4, 6, 9], f32([1, 6, 3]), [48, 36, 69, 58, 45, 85, 72, 72, 123, 36, 42, 68, 58, 45, 85, 46, 51, 84]),
};

describe("BATCH_MATMUL on TensorFlow Lite Micro's batch_matmul_test.cc vectors", () => {
  it.each(Object.entries(BATCH_MATMUL))('%s', (_name, c) => expectGolden(c));
  // TFLM checks the quantized outputs exactly.
  it('QuantizedBatchMatMulOpTestSimpleTestQuantizedInt8', () => {
    const got = runGolden(bmm(minMaxType([2, 10], 'int8', -63.5, 64), BMM_LHS_Q, minMaxType([10, 3], 'int8', -63.5, 64), BMM_RHS_Q, minMaxType([2, 3], 'int8', -127, 128), []));
    expect(got).toEqual([22, 22, 22, 56, 56, 56]);
  });
  it('QuantizedBatchMatMulOpTestSimpleTestQuantizedInt16', () => {
    const s = Math.fround(10 / 32767);
    const got = runGolden(bmm(qt([2, 10], 'int16', s), BMM_LHS_Q, qt([10, 3], 'int16', s), BMM_RHS_Q, qt([2, 3], 'int16', 1), []));
    expect(got).toEqual([23, 23, 23, 57, 57, 57]);
  });
});

// ------------------------------------------------------------- arg_min_max_test.cc
const argCase = (op: string, input: TensorType, values: number[], axis: number, outShape: number[], golden: number[]): GoldenCase => ({
  op, input, values, out: tensorType(outShape, 'int32'), attrs: { axis }, golden, tolerance: 0,
});
const ARG_Q = (shape: number[]) => qt(shape, 'int8', 0.5, -9);
const ARG: Record<string, GoldenCase> = {
  GetMaxArgFloat: argCase('arg_max', f32([1, 1, 1, 4]), [0.1, 0.9, 0.7, 0.3], 3, [1, 1, 1], [1]),
  GetMinArgFloat: argCase('arg_min', f32([1, 1, 1, 4]), [0.1, 0.9, 0.7, 0.3], 3, [1, 1, 1], [0]),
  GetMaxArgInt8: argCase('arg_max', ARG_Q([1, 1, 1, 4]), [1, 9, 7, 3], 3, [1, 1, 1], [1]),
  GetMinArgInt8: argCase('arg_min', ARG_Q([1, 1, 1, 4]), [1, 9, 7, 3], 3, [1, 1, 1], [0]),
  GetMaxArgMulDimensions: argCase('arg_max', ARG_Q([1, 1, 2, 4]), [1, 2, 7, 8, 1, 9, 7, 3], 3, [1, 1, 2], [3, 1]),
  GetMinArgMulDimensions: argCase('arg_min', ARG_Q([1, 1, 2, 4]), [1, 2, 7, 8, 1, 9, 7, 3], 3, [1, 1, 2], [0, 0]),
  // axis -2, resolved to 2 by the importer; ties keep the first index.
  GetMaxArgNegativeAxis: argCase('arg_max', ARG_Q([1, 1, 2, 4]), [1, 2, 7, 8, 1, 9, 7, 3], 2, [1, 1, 4], [0, 1, 0, 0]),
};

describe("ARG_MAX / ARG_MIN on TensorFlow Lite Micro's arg_min_max_test.cc vectors", () => {
  it.each(Object.entries(ARG))('%s', (_name, c) => expectGolden(c));
});

// ---------------------------------------------------------------------- pad_test.cc
// The graph op takes the border's stored value; the importer derives it as TFLM does
// (PADV2's constant, else the output zero point: 0 here).
const PAD_2D = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const PAD_2D_V2 = PAD_2D.map((v) => (v === 0 ? 42 : v));
const padCase = (dtype: 'float32' | 'int8' | 'int16' | 'int32', padValue: number, golden: number[]): GoldenCase => {
  const t = (shape: number[]) => (dtype === 'float32' ? f32(shape) : dtype === 'int32' ? tensorType(shape, 'int32') : qt(shape, dtype, 1));
  return { op: 'pad', input: t([1, 2, 2, 1]), values: [1, 2, 3, 4], out: t([3, 2, 4, 1]), attrs: { paddings: [1, 1, 0, 0, 1, 1, 0, 0], pad_value: padValue }, golden, tolerance: 0 };
};
const PAD: Record<string, GoldenCase> = {
  Test2DFloat: padCase('float32', 0, PAD_2D),
  Test4DFloat: { op: 'pad', input: f32([1, 1, 1, 1]), values: [42], out: f32([3, 3, 3, 3]), attrs: { paddings: [1, 1, 1, 1, 1, 1, 1, 1], pad_value: 0 }, golden: Array.from({ length: 81 }, (_, i) => (i === 40 ? 42 : 0)), tolerance: 0 },
  Test2DFloatV2: padCase('float32', 42, PAD_2D_V2),
  Test2DInt8: padCase('int8', 0, PAD_2D),
  Test2DInt16: padCase('int16', 0, PAD_2D),
  Test2DInt32: padCase('int32', 0, PAD_2D),
  Test2DInt8V2: padCase('int8', 42, PAD_2D_V2),
  Test2DInt16V2: padCase('int16', 42, PAD_2D_V2),
  Test2DInt32V2: padCase('int32', 42, PAD_2D_V2),
};

describe("PAD / PADV2 on TensorFlow Lite Micro's pad_test.cc vectors", () => {
  it.each(Object.entries(PAD))('%s', (_name, c) => expectGolden(c));
});

// ------------------------------------------------------------ concatenation_test.cc
const concat = (t: (s: number[]) => TensorType, s1: number[], v1: number[], s2: number[], v2: number[], axis: number, so: number[], golden: number[]): GoldenCase => ({
  op: 'concatenate', input: t(s1), values: v1, more: [{ type: t(s2), values: v2 }], out: t(so), attrs: { axis }, golden, tolerance: 0,
});
const CI1 = [1, 2, 3, 4, 5, 6];
const CI2 = [7, 8, 9, 10, 11, 12];
const C5_1 = iota(12, 1);
const C5_2 = iota(12, 13);
const C5_AXIS4 = [1, 2, 3, 13, 14, 15, 4, 5, 6, 16, 17, 18, 7, 8, 9, 19, 20, 21, 10, 11, 12, 22, 23, 24];
const q01 = (dtype: 'int8' | 'int16') => (s: number[]) => qt(s, dtype, 0.1);
const CONCAT: Record<string, GoldenCase> = {
  'TwoInputsAllAxesCombinations axis 0': concat(f32, [2, 3], CI1, [2, 3], CI2, 0, [4, 3], [...CI1, ...CI2]),
  'TwoInputsAllAxesCombinations axis 1': concat(f32, [2, 3], CI1, [2, 3], CI2, 1, [2, 6], [1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12]),
  // Stored int8/int16 values at scale 0.1: the reals are value / 10.
  TwoInputsQuantizedInt8: concat(q01('int8'), [2, 1, 2], [0.1, 0.2, 0.3, 0.4], [2, 1, 2], [0.5, 0.6, 0.7, 0.8], 2, [2, 1, 4], [0.1, 0.2, 0.5, 0.6, 0.3, 0.4, 0.7, 0.8]),
  TwoInputsQuantizedInt16: concat(q01('int16'), [2, 1, 2], [0.1, 0.2, 0.3, 0.4], [2, 1, 2], [0.5, 0.6, 0.7, 0.8], 2, [2, 1, 4], [0.1, 0.2, 0.5, 0.6, 0.3, 0.4, 0.7, 0.8]),
  ThreeDimensionalTwoInputsDifferentShapes: concat(f32, [2, 1, 2], [1, 3, 4, 7], [2, 3, 2], iota(12, 1), 1, [2, 4, 2], [1, 3, 1, 2, 3, 4, 5, 6, 4, 7, 7, 8, 9, 10, 11, 12]),
  'TwoInputsFiveDimensionsAllAxesCombinations axis 0': concat(f32, [2, 1, 2, 1, 3], C5_1, [2, 1, 2, 1, 3], C5_2, 0, [4, 1, 2, 1, 3], [...C5_1, ...C5_2]),
  'TwoInputsFiveDimensionsAllAxesCombinations axis 4': concat(f32, [2, 1, 2, 1, 3], C5_1, [2, 1, 2, 1, 3], C5_2, 4, [2, 1, 2, 1, 6], C5_AXIS4),
  'TwoInputsFiveDimensionsAllAxesCombinations axis -2': concat(f32, [2, 1, 2, 1, 3], C5_1, [2, 1, 2, 1, 3], C5_2, 3, [2, 1, 2, 2, 3], C5_AXIS4),
  TwoInputsQuantizedInt8FiveDimensions: concat(
    q01('int8'), [2, 1, 2, 1, 3], C5_1.map((v) => v / 10), [2, 1, 2, 1, 3], C5_2.map((v) => v / 10), 2, [2, 1, 4, 1, 3],
    [1, 2, 3, 4, 5, 6, 13, 14, 15, 16, 17, 18, 7, 8, 9, 10, 11, 12, 19, 20, 21, 22, 23, 24].map((v) => v / 10),
  ),
};

describe("CONCATENATION on TensorFlow Lite Micro's concatenation_test.cc vectors", () => {
  it.each(Object.entries(CONCAT))('%s', (_name, c) => expectGolden(c));
});

// -------------------------------------------------------------- dequantize_test.cc
const DQ_VALUES = [-63.5, -63, -62.5, -62, -61.5, 62, 62.5, 63, 63.5, 64];
describe("DEQUANTIZE on TensorFlow Lite Micro's dequantize_test.cc vectors", () => {
  it.each(['int8', 'int16'] as const)('DequantizeOpTest %s', (dtype) =>
    expectGolden({ op: 'dequantize', input: qt([5, 2], dtype, 0.5, -1), values: DQ_VALUES, out: f32([5, 2]), attrs: {}, golden: DQ_VALUES, tolerance: 0 }));
});
