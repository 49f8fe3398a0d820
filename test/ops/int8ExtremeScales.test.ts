/**
 * int8 operators at extreme scale ratios, against values computed with TensorFlow Lite
 * Micro's reference kernels (transcribed in the differential harness of the int8 campaign:
 * each expected vector is what TFLM's Prepare and reference kernel give for these bytes).
 * Each case also runs through the TIR evaluator and, batched, through gcc: byte for byte.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { q } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, opCase, OpCase } from './opCases';

const i8 = (n: number, scale: number, zp: number) => tensorType([n], 'int8', q(scale, zp));
const bytes = (values: readonly number[]) => new Uint8Array(Int8Array.from(values).buffer);
const values = (b: Uint8Array) => Array.from(new Int8Array(b.buffer, b.byteOffset, b.length));

describe('HARD_SWISH int8 with an output multiplier exponent of -16 or less', () => {
  // reference/hard_swish.h: gemmlowp::RoundingDivideByPOT(preshift_output_value, -exponent)
  // on int16_t: (1ll << exponent) - 1 narrowed to int16 is -1 from exponent 16 on, so every
  // value >= 0 rounds to 1 and every value < 0 to -1.
  const input = [-128, -3, -1, 0, 1, 3, 64, 127];
  const cases: [string, OpCase, number[]][] = [
    // (1/128) / 1024 = 2^-17 = 0.5 * 2^-16: exponent -16
    ['input 1, output 1024', opCase('hs1024', 'hard_swish', i8(8, 1, 0), i8(8, 1024, 0), {}, { data: bytes(input) }), [1, 1, -1, 1, 1, 1, 1, 1]],
    // exponent -17, output zero point 5: 5 + 1 where TFLM's preshift value is 0 or more
    ['input 14.614739, output 18756.516 (zero points -50, -46)', opCase('hs18756', 'hard_swish', i8(8, 14.614739418029785, -50), i8(8, 18756.515625, -46), {}, { data: bytes(input) }), [-45, -45, -45, -45, -45, -45, -45, -45]],
  ];
  it.each(cases)('%s: as TFLite Micro', (_label, c, want) => {
    expect(values(interpretCase(c))).toEqual(want);
    expectTirMatches(c);
  });
  it('the generated C agrees', () => {
    expectCRunsByteExact(cases.map(([, c]) => c));
  });
});

describe('fused activations whose bounds TFLite Micro cannot quantize to int32', () => {
  // kernel_util.cc CalculateActivationRangeQuantized -> Quantize: round(f / scale) in float
  // must lie within int32 (TF_LITE_ENSURE); TFLite Micro's Prepare fails otherwise.
  const q = (scale: number, zeroPoint = 0) => ({ scale: [scale], zeroPoint: [zeroPoint] });
  function mul(activation: 'RELU' | 'RELU6' | 'RELU_N1_TO_1', outScale: number): Uint8Array {
    const w = new TfliteWriter();
    const a = w.addInput({ name: 'a', shape: [4], dtype: 'int8', quant: q(0.00031976890750229359, -116) });
    const b = w.addInput({ name: 'b', shape: [4], dtype: 'int8', quant: q(0.000021090183508931659, -121) });
    const y = w.addTensor({ name: 'y', shape: [4], dtype: 'int8', quant: q(outScale, 65) });
    w.addOperator({ op: 'MUL', inputs: [a, b], outputs: [y], options: tfliteOptions.mul(activation) });
    w.markOutput(y);
    return w.finish();
  }
  function conv(outScale: number): Uint8Array {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 2, 2, 1], dtype: 'int8', quant: q(0.016, -128) });
    const f = w.addConstant({ name: 'f', shape: [1, 1, 1, 1], dtype: 'int8', quant: q(0.0000193), data: new Uint8Array([3]) });
    const y = w.addTensor({ name: 'y', shape: [1, 2, 2, 1], dtype: 'int8', quant: q(outScale, 13) });
    w.addOperator({ op: 'CONV_2D', inputs: [x, f, -1], outputs: [y], options: tfliteOptions.conv2d({ activation: 'RELU6' }) });
    w.markOutput(y);
    return w.finish();
  }

  it.each([
    ['RELU_N1_TO_1', 2.1087988993917506e-11],
    ['RELU6', 1e-9],
  ] as const)('MUL with fused %s into scale %f: an unsupported parameter naming the operator', (act, outScale) => {
    expect(() => importTflite(mul(act, outScale), 'm.tflite')).toThrow(/fused RELU.* quantizes past int32 \(TFLite Micro's CalculateActivationRangeQuantized refuses it\) on MUL at operator #0/);
  });
  it('CONV_2D with fused RELU6 into scale 8.7e-10: refused', () => {
    expect(() => importTflite(conv(8.7265877857234386e-10), 'm.tflite')).toThrow(/fused RELU6 .* on CONV_2D at operator #0/);
  });
  it.each([
    ['RELU', 1e-12],
    ['RELU6', 3e-9],
    ['RELU_N1_TO_1', 5e-10],
  ] as const)('MUL with fused %s into scale %f (bounds within int32): imported', (act, outScale) => {
    expect(() => importTflite(mul(act, outScale), 'm.tflite')).not.toThrow();
  });
});

describe('int8 SOFTMAX and LOG_SOFTMAX whose beta x input scale is at most 2^-26', () => {
  // quantization_util.cc PreprocessSoftmaxScaling: QuantizeMultiplierGreaterThanOne(
  // min(beta * scale * 2^26, 2^31 - 1)) TFLITE_CHECK_GTs 1: TFLite Micro aborts at or below it.
  function model(op: 'SOFTMAX' | 'LOG_SOFTMAX', scale: number, beta = 1): Uint8Array {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'int8', quant: { scale: [scale], zeroPoint: [0] } });
    const out = op === 'SOFTMAX' ? { scale: [1 / 256], zeroPoint: [-128] } : { scale: [16 / 256], zeroPoint: [127] };
    const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'int8', quant: out });
    w.addOperator({ op, inputs: [x], outputs: [y], options: op === 'SOFTMAX' ? tfliteOptions.softmax(beta) : undefined });
    w.markOutput(y);
    return w.finish();
  }
  it.each([
    // a campaign case: 0.19 * 5.79e-8 * 2^26 = 0.74 (uma-ts ran it with a left shift of 0)
    ['SOFTMAX', 0.19001208245754242, 5.787569179460661e-8],
    ['SOFTMAX', 2 ** -26, 1],
    // uma-ts gave -128 for every element (log(1/4) is 105 on this output scale)
    ['LOG_SOFTMAX', 1e-9, 1],
    ['LOG_SOFTMAX', 2 ** -26, 1],
  ] as const)('%s with input scale %f and beta %f: refused naming the operator', (op, scale, beta) => {
    expect(() => importTflite(model(op, scale, beta), 'm.tflite')).toThrow(
      new RegExp(`input scale x beta .* is not above 2\\^-26 \\(TFLite Micro's PreprocessSoftmaxScaling aborts in QuantizeMultiplierGreaterThanOne\\) on ${op} at operator #0`),
    );
  });
  it.each([
    ['SOFTMAX', 2 ** -26, 1.0000001],
    ['LOG_SOFTMAX', 1.5e-8, 1],
  ] as const)('%s with input scale %f and beta %f: imported', (op, scale, beta) => {
    expect(() => importTflite(model(op, scale, beta), 'm.tflite')).not.toThrow();
  });
});

describe('int8 SVDF whose state and weights_time differ in width', () => {
  // svdf.cc Eval dispatches on weights_time's dtype and EvalIntegerSvdfReference<T> reads the
  // state as T: uma-ts refused such a model only when interpreting it; now at import.
  function model(stateDtype: 'int8' | 'int16', wtDtype: 'int8' | 'int16'): Uint8Array {
    const w = new TfliteWriter();
    const q = (scale: number, zeroPoint = 0) => ({ scale: [scale], zeroPoint: [zeroPoint] });
    const x = w.addInput({ name: 'x', shape: [1, 3], dtype: 'int8', quant: q(0.05, -3) });
    const wf = w.addConstant({ name: 'wf', shape: [2, 3], dtype: 'int8', quant: q(0.004), data: new Uint8Array(6).fill(7) });
    const wtData = wtDtype === 'int8' ? new Uint8Array(8).fill(3) : new Uint8Array(new Int16Array(8).fill(300).buffer);
    const wt = w.addConstant({ name: 'wt', shape: [2, 4], dtype: wtDtype, quant: q(0.0005), data: wtData });
    const b = w.addConstant({ name: 'b', shape: [2], dtype: 'int32', quant: q(Math.fround(0.01 * 0.0005)), data: new Uint8Array(new Int32Array([100, -100]).buffer) });
    const st = w.addTensor({ name: 'state', shape: [1, 8], dtype: stateDtype, quant: q(0.01), isVariable: true });
    const y = w.addTensor({ name: 'y', shape: [1, 2], dtype: 'int8', quant: q(0.1, 5) });
    w.addOperator({ op: 'SVDF', inputs: [x, wf, wt, b, st], outputs: [y], options: tfliteOptions.svdf({ rank: 1 }) });
    w.markOutput(y);
    return w.finish();
  }
  it.each([
    ['int8', 'int16'],
    ['int16', 'int8'],
  ] as const)('a %s state with %s weights_time: refused at import naming the operator', (st, wt) => {
    expect(() => importTflite(model(st, wt), 'm.tflite')).toThrow(new RegExp(`int8 SVDF with state ${st} and weights_time ${wt} \\(TFLite Micro reads the state as the weights_time type\\) on SVDF at operator #0`));
  });
  it.each([
    ['int8', 'int8'],
    ['int16', 'int16'],
  ] as const)('a %s state with %s weights_time: imported', (st, wt) => {
    expect(() => importTflite(model(st, wt), 'm.tflite')).not.toThrow();
  });
});
