/**
 * Elementwise operators against LiteRT (the real TensorFlow Lite runtime): writer-built
 * single-operator .tflite models, imported by uma-ts and run by its interpreter; quantized
 * outputs within ±1 LSB, float within a small relative tolerance. The imported models also
 * go through the CPU lowering (TIR evaluator) byte-exact with the interpreter.
 */
import { TfliteWriter, tfliteOptions, WriterDType, WriterOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';
import { describeAgainstLiteRt } from './liteRtComparison';

interface TensorSpec {
  readonly shape: number[];
  readonly dtype: WriterDType;
  readonly quant?: WriterQuantization;
  /** Float inputs are drawn from this range (default [-6, 6)). */
  readonly range?: readonly [number, number];
  /** A constant input with these values instead of a model input. */
  readonly constant?: readonly number[];
}

interface Case {
  readonly name: string;
  readonly model: Uint8Array;
  readonly inputs: Uint8Array[];
  readonly outDtype: WriterDType;
}

const qq = (scale: number, zeroPoint = 0): WriterQuantization => ({ scale: [scale], zeroPoint: [zeroPoint] });

function data(seed: number, t: TensorSpec): Uint8Array {
  const r = seededRandom(seed);
  const n = t.shape.reduce((a, b) => a * b, 1);
  const int = (lo: number, hi: number): number[] => Array.from({ length: n }, (_, i) => (i === 0 ? lo : i === 1 ? hi : lo + Math.floor(r() * (hi - lo + 1))));
  switch (t.dtype) {
    case 'int8':
      return new Uint8Array(Int8Array.from(int(-128, 127)).buffer);
    case 'int16':
      return new Uint8Array(Int16Array.from(int(-32768, 32767)).buffer);
    case 'int32':
      return new Uint8Array(Int32Array.from(int(-40000, 40000)).buffer);
    case 'float32': {
      const [lo, hi] = t.range ?? [-6, 6];
      return new Uint8Array(Float32Array.from({ length: n }, () => lo + r() * (hi - lo)).buffer);
    }
    default:
      throw new Error(`no data for ${t.dtype}`);
  }
}

let seed = 100;

function model(name: string, op: string, inputs: TensorSpec[], output: TensorSpec, options?: WriterOptions): Case {
  const w = new TfliteWriter();
  const feeds: Uint8Array[] = [];
  const ids = inputs.map((t, i) => {
    const { range: _r, constant, ...tensor } = t;
    if (constant) return w.addConstant({ name: `c${i}`, ...tensor, data: constant });
    feeds.push(data(seed++, t));
    return w.addInput({ name: `x${i}`, ...tensor });
  });
  const y = w.addTensor({ name: 'y', shape: output.shape, dtype: output.dtype, ...(output.quant ? { quant: output.quant } : {}) });
  w.addOperator({ op, inputs: ids, outputs: [y], ...(options ? { options } : {}) });
  w.markOutput(y);
  return { name, model: w.finish(), inputs: feeds, outDtype: output.dtype };
}

function cases(): Case[] {
  const out: Case[] = [];
  const f = (shape: number[], range?: readonly [number, number]): TensorSpec => ({ shape, dtype: 'float32', ...(range ? { range } : {}) });
  const i8 = (shape: number[], scale: number, zp: number): TensorSpec => ({ shape, dtype: 'int8', quant: qq(scale, zp) });
  const i16 = (shape: number[], scale: number): TensorSpec => ({ shape, dtype: 'int16', quant: qq(scale) });

  // Binary operators with broadcasting and fused activations.
  out.push(model('SUB float32 broadcast RELU', 'SUB', [f([2, 3, 4]), f([4])], f([2, 3, 4]), tfliteOptions.sub('RELU')));
  out.push(model('SUB int8 broadcast', 'SUB', [i8([1, 4, 4, 3], 0.05, -7), i8([3], 0.08, 12)], i8([1, 4, 4, 3], 0.1, 2), tfliteOptions.sub()));
  out.push(model('SUB int16', 'SUB', [i16([2, 16], 0.0007), i16([2, 16], 0.0011)], i16([2, 16], 0.0015), tfliteOptions.sub('NONE', false)));
  out.push(model('ADD int16 broadcast', 'ADD', [i16([2, 3, 8], 0.0007), i16([8], 0.0011)], i16([2, 3, 8], 0.0016), tfliteOptions.add('NONE', false)));
  out.push(model('MUL float32 broadcast RELU6', 'MUL', [f([3, 5]), f([3, 1])], f([3, 5]), tfliteOptions.mul('RELU6')));
  out.push(model('MUL int8 broadcast', 'MUL', [i8([2, 6, 4], 0.04, 3), i8([6, 1], 0.06, -9)], i8([2, 6, 4], 0.05, -1), tfliteOptions.mul()));
  out.push(model('MUL int16', 'MUL', [i16([40], 0.001), i16([40], 0.002)], i16([40], 0.03), tfliteOptions.mul()));
  out.push(model('MUL int32', 'MUL', [{ shape: [12], dtype: 'int32' }, { shape: [12], dtype: 'int32' }], { shape: [12], dtype: 'int32' }, tfliteOptions.mul()));
  out.push(model('DIV float32 broadcast', 'DIV', [f([2, 8]), f([8], [0.5, 4])], f([2, 8]), tfliteOptions.div()));
  out.push(model('MAXIMUM float32 broadcast', 'MAXIMUM', [f([4, 6]), f([6])], f([4, 6])));
  out.push(model('MAXIMUM int8', 'MAXIMUM', [i8([30], 0.05, 4), i8([30], 0.05, 4)], i8([30], 0.05, 4)));
  out.push(model('MINIMUM float32 scalar', 'MINIMUM', [f([5, 5]), f([1])], f([5, 5])));
  out.push(model('MINIMUM int16', 'MINIMUM', [i16([30], 0.001), i16([30], 0.001)], i16([30], 0.001)));
  out.push(model('SQUARED_DIFFERENCE float32', 'SQUARED_DIFFERENCE', [f([3, 7]), f([7])], f([3, 7])));
  out.push(model('SQUARED_DIFFERENCE int8', 'SQUARED_DIFFERENCE', [i8([3, 8], 0.05, -3), i8([8], 0.07, 10)], i8([3, 8], 0.3, -128)));
  const alpha = Array.from({ length: 4 }, (_, c) => 0.1 + 0.1 * c);
  out.push(model('PRELU float32 channel alpha', 'PRELU', [f([1, 3, 3, 4]), { shape: [4], dtype: 'float32', constant: alpha }], f([1, 3, 3, 4])));
  out.push(
    model('PRELU int8 channel alpha', 'PRELU', [i8([1, 3, 3, 4], 0.05, -10), { shape: [1, 1, 4], dtype: 'int8', quant: qq(0.01, 5), constant: [10, 40, -30, 90] }], i8([1, 3, 3, 4], 0.04, -20)),
  );
  // No int16 SQUARED_DIFFERENCE here: LiteRT's int16 results differ from TFLite Micro's left-shift-0 kernel
  // (e.g. 16120 where TFLM's arithmetic saturates to 32767); tflmGolden.test.ts checks TFLM's own int16 vectors.
  out.push(
    model('PRELU int16 with int8 channel alpha', 'PRELU', [i16([1, 3, 3, 4], 0.0005), { shape: [1, 1, 4], dtype: 'int8', quant: qq(0.01, 5), constant: [10, 40, -30, 90] }], i16([1, 3, 3, 4], 0.0004)),
  );
  // Alpha wider than the input: the output takes the broadcast shape (float32 against LiteRT).
  const wideAlpha = Array.from({ length: 24 }, (_, k) => 0.05 * (k + 1));
  out.push(model('PRELU float32 alpha wider than the input', 'PRELU', [f([1, 6]), { shape: [4, 6], dtype: 'float32', constant: wideAlpha }], f([4, 6])));
  // (int8 with the input broadcast: LiteRT's int8 PRELU gave 0 for an element below the zero
  // point, where TFLite Micro's formula, the channel-alpha cases' above, gives -27;
  // elementwiseCases.ts checks the interpreter, the lowering and gcc on it.)

  // Activations and unary math, float32.
  const floatUnary: [string, readonly [number, number]][] = [
    ['RELU', [-4, 4]],
    ['RELU6', [-3, 9]],
    ['RELU_N1_TO_1', [-2, 2]],
    ['HARD_SWISH', [-5, 5]],
    ['LOGISTIC', [-12, 12]],
    ['TANH', [-5, 5]],
    ['ELU', [-6, 3]],
    ['ABS', [-5, 5]],
    ['NEG', [-5, 5]],
    ['SQRT', [0, 100]],
    ['RSQRT', [0.01, 100]],
    ['EXP', [-10, 10]],
    ['LOG', [0.001, 1000]],
  ];
  for (const [op, range] of floatUnary) out.push(model(`${op} float32`, op, [f([4, 25], range)], f([4, 25])));
  out.push(model('LEAKY_RELU float32', 'LEAKY_RELU', [f([50])], f([50]), tfliteOptions.leakyRelu(0.2)));

  // Quantized activations.
  out.push(model('RELU int8', 'RELU', [i8([64], 0.05, -20)], i8([64], 0.03, -128)));
  out.push(model('RELU6 int8', 'RELU6', [i8([64], 0.05, 10)], i8([64], 0.05, 10)));
  out.push(model('LEAKY_RELU int8', 'LEAKY_RELU', [i8([64], 0.05, 3)], i8([64], 0.04, -30), tfliteOptions.leakyRelu(0.1)));
  out.push(model('LEAKY_RELU int16', 'LEAKY_RELU', [i16([64], 0.001)], i16([64], 0.0009), tfliteOptions.leakyRelu(0.3)));
  out.push(model('HARD_SWISH int8', 'HARD_SWISH', [i8([64], 0.05, -3)], i8([64], 0.03, -60)));
  out.push(model('LOGISTIC int8', 'LOGISTIC', [i8([64], 0.07, -5)], i8([64], 1 / 256, -128)));
  out.push(model('TANH int8', 'TANH', [i8([64], 0.04, 2)], i8([64], 1 / 128, 0)));
  out.push(model('LOGISTIC int16', 'LOGISTIC', [i16([64], 0.0007)], i16([64], 1 / 32768)));
  out.push(model('TANH int16', 'TANH', [i16([64], 0.0003)], i16([64], 1 / 32768)));
  // Not compared here: with a power-of-two input scale LiteRT's optimized int16 LOGISTIC
  // leaves the table interpolation TFLite Micro runs and lands up to 5 LSB from the exact
  // sigmoid; uma-ts, as TFLite Micro, stays within 1 LSB of it (test/arith/sigmoidInt16.test.ts).
  out.push(model('ELU int8', 'ELU', [i8([64], 0.05, 30)], i8([64], 0.03, 40)));
  out.push({ ...model('RSQRT int8', 'RSQRT', [i8([64], 0.05, -128)], i8([64], 0.02, -128)) });
  out.push(model('ABS int8', 'ABS', [i8([64], 0.05, 30)], i8([64], 0.04, -128)));

  // CAST.
  out.push(model('CAST float32 -> int32', 'CAST', [f([20], [-300, 300])], { shape: [20], dtype: 'int32' }, tfliteOptions.cast('float32', 'int32')));
  out.push(model('CAST int8 -> float32', 'CAST', [{ shape: [20], dtype: 'int8' }], f([20]), tfliteOptions.cast('int8', 'float32')));
  out.push(model('CAST int32 -> float32', 'CAST', [{ shape: [20], dtype: 'int32' }], f([20]), tfliteOptions.cast('int32', 'float32')));
  return out;
}

describeAgainstLiteRt('elementwise operators against LiteRT', cases, { tolerance: { rel: 1e-5, abs: 1e-6 }, varied: true });
