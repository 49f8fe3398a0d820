/**
 * REVERSE_V2, ZEROS_LIKE, FILL, SHAPE, GATHER_ND, EMBEDDING_LOOKUP, L2_POOL_2D and CUMSUM as
 * TFLite files (built with the writer) through the importer, against LiteRT (the real
 * TensorFlow Lite runtime): float within a small relative tolerance, quantized within ±1 LSB,
 * integers exact; the imported models also lower to TIR byte-exact with the interpreter.
 * Then the one-line errors for what TFLite Micro's kernels do not take.
 */
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { TfliteWriter, tfliteOptions, WriterDType, WriterOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';
import { describeAgainstLiteRt, LiteRtCase } from './liteRtComparison';

interface Spec {
  readonly shape: number[];
  readonly dtype: WriterDType;
  readonly quant?: WriterQuantization;
}
/** An operator input: a model input (`input: true`, optional fixed values) or a constant. */
type Operand = (Spec & { input: true; values?: number[] }) | (Spec & { data: number[] });

const qi8 = (scale: number, zp = 0): WriterQuantization => ({ scale: [scale], zeroPoint: [zp] });

function ints(seed: number, n: number, lo: number, hi: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}

function inputBytes(spec: Spec, seed: number, values?: number[]): Uint8Array {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const v = (lo: number, hi: number) => values ?? ints(seed, n, lo, hi);
  if (spec.dtype === 'float32') return new Uint8Array(Float32Array.from(values ?? ints(seed, n, -2000, 2000).map((x) => x / 1000)).buffer);
  if (spec.dtype === 'int8') return new Uint8Array(Int8Array.from(v(-128, 127)).buffer);
  if (spec.dtype === 'int16') return new Uint8Array(Int16Array.from(v(-32768, 32767)).buffer);
  if (spec.dtype === 'int32') return new Uint8Array(Int32Array.from(v(-1000, 1000)).buffer);
  throw new Error(`no input data for ${spec.dtype}`);
}

function model(name: string, op: string, operands: Operand[], output: Spec, options: WriterOptions | undefined, seed: number): LiteRtCase {
  const w = new TfliteWriter();
  const inputs: Uint8Array[] = [];
  const indices = operands.map((o, i) => {
    if ('input' in o) {
      inputs.push(inputBytes(o, seed + i, o.values));
      return w.addInput({ name: `x${i}`, shape: o.shape, dtype: o.dtype, ...(o.quant ? { quant: o.quant } : {}) });
    }
    return w.addConstant({ name: `c${i}`, shape: o.shape, dtype: o.dtype, data: o.data, ...(o.quant ? { quant: o.quant } : {}) });
  });
  const y = w.addTensor({ name: 'y', ...output });
  w.addOperator({ op, inputs: indices, outputs: [y], ...(options ? { options } : {}) });
  w.markOutput(y);
  return { name, model: w.finish(), inputs, outDtype: output.dtype };
}

const x = (shape: number[], dtype: WriterDType, quant?: WriterQuantization, values?: number[]): Operand => ({
  input: true,
  shape,
  dtype,
  ...(quant ? { quant } : {}),
  ...(values ? { values } : {}),
});
const c32 = (shape: number[], data: number[]): Operand => ({ shape, dtype: 'int32', data });
const out = (shape: number[], dtype: WriterDType, quant?: WriterQuantization): Spec => ({ shape, dtype, ...(quant ? { quant } : {}) });
const pool = (size: number, stride: number, padding: 'SAME' | 'VALID', activation?: 'RELU') =>
  tfliteOptions.pool2d({ filterH: size, filterW: size, strideH: stride, strideW: stride, padding, ...(activation ? { activation } : {}) });

function cases(): LiteRtCase[] {
  return [
    model('REVERSE_V2 float axis 1', 'REVERSE_V2', [x([2, 3, 4], 'float32'), c32([1], [1])], out([2, 3, 4], 'float32'), undefined, 1),
    model('REVERSE_V2 int8 axis -1', 'REVERSE_V2', [x([3, 5], 'int8', qi8(0.1, 3)), c32([1], [-1])], out([3, 5], 'int8', qi8(0.1, 3)), undefined, 2),
    model('REVERSE_V2 int16 axis 0', 'REVERSE_V2', [x([4, 2, 2], 'int16', qi8(0.001)), c32([1], [0])], out([4, 2, 2], 'int16', qi8(0.001)), undefined, 3),
    model('ZEROS_LIKE float', 'ZEROS_LIKE', [x([2, 5], 'float32')], out([2, 5], 'float32'), undefined, 4),
    model('ZEROS_LIKE int32', 'ZEROS_LIKE', [x([7], 'int32')], out([7], 'int32'), undefined, 5),
    model('FILL float constant value', 'FILL', [c32([2], [2, 3]), { shape: [], dtype: 'float32', data: [1.25] }], out([2, 3], 'float32'), undefined, 6),
    model('FILL int32 run-time value', 'FILL', [c32([3], [2, 1, 4]), x([], 'int32')], out([2, 1, 4], 'int32'), undefined, 7),
    model('GATHER_ND float elements', 'GATHER_ND', [x([3, 4], 'float32'), c32([3, 2], [2, 3, 0, 0, 1, 2])], out([3], 'float32'), undefined, 9),
    model('GATHER_ND int8 rows, run-time indices', 'GATHER_ND', [x([3, 4, 2], 'int8', qi8(0.1, -2)), x([2, 1], 'int32', undefined, [2, 0])], out([2, 4, 2], 'int8', qi8(0.1, -2)), undefined, 10),
    model(
      'EMBEDDING_LOOKUP float, run-time ids',
      'EMBEDDING_LOOKUP',
      [x([4], 'int32', undefined, [3, 0, 3, 1]), { shape: [5, 3], dtype: 'float32', data: ints(11, 15, -1000, 1000).map((v) => v / 100) }],
      out([4, 3], 'float32'),
      undefined,
      11,
    ),
    model(
      'EMBEDDING_LOOKUP int8 rows',
      'EMBEDDING_LOOKUP',
      [c32([3], [2, 2, 0]), x([4, 2, 3], 'int8', qi8(0.1, 4))],
      out([3, 2, 3], 'int8', qi8(0.1, 4)),
      undefined,
      12,
    ),
    model('L2_POOL_2D float 2x2 stride 2 SAME', 'L2_POOL_2D', [x([1, 5, 5, 3], 'float32')], out([1, 3, 3, 3], 'float32'), pool(2, 2, 'SAME'), 13),
    model('L2_POOL_2D float 3x3 stride 1 VALID RELU', 'L2_POOL_2D', [x([2, 4, 5, 2], 'float32')], out([2, 2, 3, 2], 'float32'), pool(3, 1, 'VALID', 'RELU'), 14),
    model('CUMSUM float axis 1', 'CUMSUM', [x([2, 5, 3], 'float32'), c32([], [1])], out([2, 5, 3], 'float32'), tfliteOptions.cumsum(), 15),
    model('EMBEDDING_LOOKUP hybrid int8 -> float32', 'EMBEDDING_LOOKUP', [x([3], 'int32', undefined, [2, 0, 2]), { shape: [3, 4], dtype: 'int8', quant: qi8(0.0371), data: ints(19, 12, -128, 127) }], out([3, 4], 'float32'), undefined, 19),
    model('CUMSUM float exclusive reverse axis -1', 'CUMSUM', [x([3, 6], 'float32'), c32([], [-1])], out([3, 6], 'float32'), tfliteOptions.cumsum({ exclusive: true, reverse: true }), 16),
  ];
}

describeAgainstLiteRt('REVERSE_V2 ... CUMSUM against LiteRT', cases, { tolerance: { lsb: 1, rel: 1e-5, abs: 1e-5 }, varied: false });

// Not against LiteRT: its SHAPE output is computed at prepare time into a tensor of its own,
// which the oracle's bound output buffer never receives; and this LiteRT build returns
// garbage for an int8 CUMSUM (its output buffer is never written), so TFLite Micro's own
// figures cover int8 CUMSUM (test/ops/misc.test.ts).
describe('SHAPE through the importer', () => {
  it('gives the input dimensions as int32, interpreted and lowered', () => {
    const c = model('', 'SHAPE', [x([2, 3, 4], 'float32')], out([3], 'int32'), tfliteOptions.shape('int32'), 8);
    const graph = importTflite(c.model, 'm.tflite');
    const mine = interpret(graph, c.inputs)[0];
    expect(Array.from(new Int32Array(mine.slice().buffer))).toEqual([2, 3, 4]);
    const lowered = runMain(lowerForCpu(graph), c.inputs, { externs: LOWERING_EXTERN_SIMULATIONS })[0];
    expect(Buffer.from(lowered).equals(Buffer.from(mine))).toBe(true);
  });
});

describe('SHAPE of a scalar through the importer', () => {
  it('gives an empty int32 output, as TFLite Micro (it was refused as an unsupported scalar input; found by the fuzz campaign)', () => {
    const c = model('', 'SHAPE', [x([], 'float32')], out([0], 'int32'), tfliteOptions.shape('int32'), 8);
    const graph = importTflite(c.model, 'm.tflite');
    expect(interpret(graph, c.inputs)[0].length).toBe(0);
    expect(runMain(lowerForCpu(graph), c.inputs, { externs: LOWERING_EXTERN_SIMULATIONS })[0].length).toBe(0);
  });
});

describe('REVERSE_V2 axes through the importer', () => {
  it('are resolved and sorted as TFLite Micro does: [-1, 1] of a rank-3 input is [1, 2]', () => {
    const c = model('', 'REVERSE_V2', [x([2, 3, 4], 'float32'), c32([2], [-1, 1])], out([2, 3, 4], 'float32'), undefined, 1);
    const call = importTflite(c.model, 'm.tflite').functions.get('main')!.nodes.find((n) => n.kind === 'call');
    expect(call?.kind === 'call' && call.attrs.axes).toEqual([1, 2]);
  });
});

describe('EMBEDDING_LOOKUP hybrid (int8 values, float32 output)', () => {
  it('dequantizes the looked-up rows as float(v) * scale', () => {
    const values = ints(17, 12, -128, 127);
    const c = model('', 'EMBEDDING_LOOKUP', [c32([2], [2, 0]), { shape: [3, 4], dtype: 'int8', quant: qi8(0.0371), data: values }], out([2, 4], 'float32'), undefined, 17);
    const graph = importTflite(c.model, 'm.tflite');
    const got = Array.from(new Float32Array(interpret(graph, c.inputs)[0].slice().buffer));
    const scale = Math.fround(0.0371);
    expect(got).toEqual([...values.slice(8, 12), ...values.slice(0, 4)].map((v) => Math.fround(v * scale)));
  });
});

describe('inspect sees them as supported', () => {
  it('each of the eight operators reports nothing unsupported', () => {
    const shape = model('', 'SHAPE', [x([2, 3], 'float32')], out([2], 'int32'), tfliteOptions.shape('int32'), 1);
    for (const c of [...cases(), shape]) expect(checkTflite(c.model, c.name).unsupported).toEqual([]);
  });
});

describe('what TFLite Micro does not take is a one-line error naming operator, index and parameter', () => {
  const rejects = (c: LiteRtCase, message: RegExp) => expect(() => importTflite(c.model, 'm.tflite')).toThrow(message);
  it('REVERSE_V2 with non-contiguous axes', () => {
    rejects(model('', 'REVERSE_V2', [x([2, 3, 4], 'float32'), c32([2], [0, 2])], out([2, 3, 4], 'float32'), undefined, 1), /^unsupported non-contiguous axes \[0,2\] on REVERSE_V2 at operator #0 in m\.tflite$/);
  });
  it('REVERSE_V2 with a run-time axis', () => {
    rejects(model('', 'REVERSE_V2', [x([2, 3], 'float32'), x([1], 'int32')], out([2, 3], 'float32'), undefined, 1), /^unsupported non-constant axis \(input 1\) on REVERSE_V2 at operator #0 in m\.tflite$/);
  });
  it('REVERSE_V2 with a scalar axis', () => {
    rejects(model('', 'REVERSE_V2', [x([2, 3], 'float32'), c32([], [1])], out([2, 3], 'float32'), undefined, 1), /^unsupported axis of shape \[\] \(TFLite Micro takes a 1-d list\) on REVERSE_V2 at operator #0 in m\.tflite$/);
  });
  it('ZEROS_LIKE int16', () => {
    rejects(model('', 'ZEROS_LIKE', [x([3], 'int16', qi8(0.1))], out([3], 'int16', qi8(0.1)), undefined, 1), /^unsupported input dtype int16 \(supported: float32, int8, int32, int64\) on ZEROS_LIKE at operator #0 in m\.tflite$/);
  });
  it('FILL with run-time dims', () => {
    rejects(model('', 'FILL', [x([2], 'int32'), { shape: [], dtype: 'float32', data: [1] }], out([2, 3], 'float32'), undefined, 1), /^unsupported non-constant dims \(input 0\) on FILL at operator #0 in m\.tflite$/);
  });
  it('FILL int16', () => {
    rejects(model('', 'FILL', [c32([1], [3]), { shape: [], dtype: 'int16', data: [1] }], out([3], 'int16'), undefined, 1), /^unsupported value dtype int16 \(supported: float32, int8, int32\) on FILL at operator #0 in m\.tflite$/);
  });
  it('SHAPE with an int64 output', () => {
    rejects(model('', 'SHAPE', [x([2, 3], 'float32')], out([2], 'int64'), tfliteOptions.shape('int64'), 1), /^unsupported output dtype int64 \(supported: int32\) on SHAPE at operator #0 in m\.tflite$/);
  });
  it('GATHER_ND int16 params', () => {
    rejects(model('', 'GATHER_ND', [x([3, 2], 'int16', qi8(0.1)), c32([1, 1], [0])], out([1, 2], 'int16', qi8(0.1)), undefined, 1), /^unsupported params dtype int16 \(supported: float32, int8\) on GATHER_ND at operator #0 in m\.tflite$/);
  });
  it('EMBEDDING_LOOKUP hybrid with a non-zero zero point', () => {
    rejects(
      model('', 'EMBEDDING_LOOKUP', [c32([1], [0]), { shape: [2, 2], dtype: 'int8', quant: qi8(0.1, 3), data: [1, 2, 3, 4] }], out([1, 2], 'float32'), undefined, 1),
      /^unsupported hybrid value zero point 3 \(must be 0\) on EMBEDDING_LOOKUP at operator #0 in m\.tflite$/,
    );
  });
  it('L2_POOL_2D int8', () => {
    rejects(model('', 'L2_POOL_2D', [x([1, 2, 2, 1], 'int8', qi8(0.1))], out([1, 1, 1, 1], 'int8', qi8(0.1)), pool(2, 2, 'VALID'), 1), /^unsupported input dtype int8 \(supported: float32\) on L2_POOL_2D at operator #0 in m\.tflite$/);
  });
  it('CUMSUM int16', () => {
    rejects(model('', 'CUMSUM', [x([4], 'int16', qi8(0.1)), c32([], [0])], out([4], 'int16', qi8(0.1)), tfliteOptions.cumsum(), 1), /^unsupported input dtype int16 \(supported: float32, int8\) on CUMSUM at operator #0 in m\.tflite: TFLite Micro's CUMSUM kernel \(cumsum\.cc\) does not support int16 inputs$/);
  });
  it('CUMSUM int8 whose output rescale is not below 1', () => {
    rejects(
      model('', 'CUMSUM', [x([4], 'int8', qi8(1)), c32([], [0])], out([4], 'int8', qi8(1e-7)), tfliteOptions.cumsum(), 1),
      /^unsupported output scale .* for input scale 1 \(TFLite Micro needs a rescale below 1\) on CUMSUM at operator #0 in m\.tflite$/,
    );
  });
});
