/**
 * MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL, REDUCE_ANY, ARG_MAX, ARG_MIN, TRANSPOSE_CONV, BATCH_MATMUL and the
 * layout operators (DEPTH_TO_SPACE ... RESIZE_NEAREST_NEIGHBOR) as
 * TFLite files (built with the writer) through the importer, against LiteRT (the real
 * TensorFlow Lite runtime): float within a small relative tolerance, quantized within ±1 LSB.
 * The imported models also lower to TIR that runs byte-exact with the interpreter.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterDType, WriterOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';
import { describeAgainstLiteRt } from './liteRtComparison';

interface Spec {
  readonly shape: number[];
  readonly dtype: WriterDType;
  readonly quant?: WriterQuantization;
}
/** An operator input: a model input (`input: true`) or a constant. */
type Operand = (Spec & { input: true }) | (Spec & { data: number[] | bigint[] });

interface Case {
  readonly name: string;
  readonly model: Uint8Array;
  readonly inputs: Uint8Array[];
  readonly outDtype: string;
}

const qi8 = (scale: number, zp = 0): WriterQuantization => ({ scale: [scale], zeroPoint: [zp] });

function ints(seed: number, n: number, lo: number, hi: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}

function inputBytes(spec: Spec, seed: number): Uint8Array {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  if (spec.dtype === 'float32') return new Uint8Array(Float32Array.from(ints(seed, n, -2000, 2000).map((v) => v / 1000)).buffer);
  if (spec.dtype === 'int8') return new Uint8Array(Int8Array.from(ints(seed, n, -128, 127)).buffer);
  if (spec.dtype === 'int16') return new Uint8Array(Int16Array.from(ints(seed, n, -32768, 32767)).buffer);
  if (spec.dtype === 'uint8') return Uint8Array.from(ints(seed, n, 0, 255));
  if (spec.dtype === 'int32') return new Uint8Array(Int32Array.from(ints(seed, n, 0, 1)).buffer);
  // Mostly true (5 in 6), so that REDUCE_ALL meets rows of both answers.
  if (spec.dtype === 'bool') return Uint8Array.from(ints(seed, n, 0, 5), (v) => (v > 0 ? 1 : 0));
  throw new Error(`no input data for ${spec.dtype}`);
}

function model(name: string, op: string, operands: Operand[], output: Spec, options: WriterOptions | undefined, seed: number, version?: number): Case {
  const w = new TfliteWriter();
  const inputs: Uint8Array[] = [];
  const indices = operands.map((o, i) => {
    if ('input' in o) {
      inputs.push(inputBytes(o, seed + i));
      return w.addInput({ name: `x${i}`, shape: o.shape, dtype: o.dtype, ...(o.quant ? { quant: o.quant } : {}) });
    }
    return w.addConstant({ name: `c${i}`, shape: o.shape, dtype: o.dtype, data: o.data, ...(o.quant ? { quant: o.quant } : {}) });
  });
  const y = w.addTensor({ name: 'y', ...output });
  w.addOperator({ op, inputs: indices, outputs: [y], ...(options ? { options } : {}), ...(version ? { version } : {}) });
  w.markOutput(y);
  return { name, model: w.finish(), inputs, outDtype: output.dtype };
}

const axis = (values: number[]): Operand => ({ shape: [values.length], dtype: 'int32', data: values });
const x = (shape: number[], dtype: WriterDType, quant?: WriterQuantization): Operand => ({ input: true, shape, dtype, ...(quant ? { quant } : {}) });

function cases(): Case[] {
  const out: Case[] = [];
  const reducer = (keep: boolean) => tfliteOptions.reducer(keep);
  out.push(model('MEAN float spatial keep_dims', 'MEAN', [x([1, 5, 6, 3], 'float32'), axis([1, 2])], { shape: [1, 1, 1, 3], dtype: 'float32' }, reducer(true), 1));
  out.push(model('MEAN float negative axis', 'MEAN', [x([2, 3, 4], 'float32'), axis([-1])], { shape: [2, 3], dtype: 'float32' }, reducer(false), 2));
  out.push(model('MEAN int8 same quantization', 'MEAN', [x([1, 4, 4, 8], 'int8', qi8(0.05, -3)), axis([1, 2])], { shape: [1, 1, 1, 8], dtype: 'int8', quant: qi8(0.05, -3) }, reducer(true), 3));
  out.push(model('MEAN int8 requantized', 'MEAN', [x([1, 5, 5, 4], 'int8', qi8(0.05, 6)), axis([1, 2])], { shape: [1, 4], dtype: 'int8', quant: qi8(0.02, -2) }, reducer(false), 4));
  out.push(model('MEAN int16 requantized', 'MEAN', [x([1, 4, 5, 6], 'int16', qi8(0.0005)), axis([1, 2])], { shape: [1, 1, 1, 6], dtype: 'int16', quant: qi8(0.0002) }, reducer(true), 49));
  out.push(model('MEAN int8 over the last axis, requantized', 'MEAN', [x([3, 4, 9], 'int8', qi8(0.04, -7)), axis([-1])], { shape: [3, 4], dtype: 'int8', quant: qi8(0.01, 3) }, reducer(false), 50));
  out.push(model('SUM float', 'SUM', [x([3, 4, 5], 'float32'), axis([0, 2])], { shape: [4], dtype: 'float32' }, reducer(false), 5));
  out.push(model('SUM int8', 'SUM', [x([2, 3, 4], 'int8', qi8(0.01, 2)), axis([2])], { shape: [2, 3], dtype: 'int8', quant: qi8(0.05, -1) }, reducer(false), 6));
  out.push(model('REDUCE_MAX float', 'REDUCE_MAX', [x([2, 3, 4], 'float32'), axis([1])], { shape: [2, 1, 4], dtype: 'float32' }, reducer(true), 7));
  out.push(model('REDUCE_MAX int8', 'REDUCE_MAX', [x([4, 6], 'int8', qi8(0.1, 3)), axis([0])], { shape: [6], dtype: 'int8', quant: qi8(0.1, 3) }, reducer(false), 8));
  out.push(model('REDUCE_MIN float', 'REDUCE_MIN', [x([2, 3, 4], 'float32'), axis([0, -1])], { shape: [3], dtype: 'float32' }, reducer(false), 9));
  out.push(model('ARG_MAX float -> int32', 'ARG_MAX', [x([2, 7], 'float32'), axis([1])], { shape: [2], dtype: 'int32' }, tfliteOptions.argMax('int32'), 10));
  out.push(model('ARG_MAX int8 -> int64', 'ARG_MAX', [x([3, 5, 2], 'int8', qi8(0.1)), axis([1])], { shape: [3, 2], dtype: 'int64' }, tfliteOptions.argMax('int64'), 11));
  out.push(model('ARG_MIN float -> int32', 'ARG_MIN', [x([4, 3], 'float32'), axis([0])], { shape: [3], dtype: 'int32' }, tfliteOptions.argMin('int32'), 12));
  const shape4 = (s: number[]): Operand => ({ shape: [4], dtype: 'int32', data: s });
  out.push(
    model(
      'TRANSPOSE_CONV float SAME stride 2 bias',
      'TRANSPOSE_CONV',
      [shape4([1, 6, 6, 3]), { shape: [3, 3, 3, 2], dtype: 'float32', data: ints(13, 54, -1000, 1000).map((v) => v / 1000) }, x([1, 3, 3, 2], 'float32'), { shape: [3], dtype: 'float32', data: [0.1, -0.2, 0.3] }],
      { shape: [1, 6, 6, 3], dtype: 'float32' },
      tfliteOptions.transposeConv({ padding: 'SAME', strideW: 2, strideH: 2 }),
      14,
    ),
  );
  const wScales = [0.01, 0.014, 0.018, 0.022];
  out.push(
    model(
      'TRANSPOSE_CONV int8 per-channel VALID',
      'TRANSPOSE_CONV',
      [
        shape4([1, 7, 7, 4]),
        { shape: [4, 3, 3, 2], dtype: 'int8', quant: { scale: wScales, zeroPoint: [0, 0, 0, 0] }, data: ints(15, 72, -127, 127) },
        x([1, 3, 3, 2], 'int8', qi8(0.05, -4)),
        { shape: [4], dtype: 'int32', quant: { scale: wScales.map((s) => s * 0.05), zeroPoint: [0, 0, 0, 0] }, data: ints(16, 4, -2000, 2000) },
      ],
      { shape: [1, 7, 7, 4], dtype: 'int8', quant: qi8(0.1, 2) },
      tfliteOptions.transposeConv({ padding: 'VALID', strideW: 2, strideH: 2 }),
      17,
    ),
  );
  out.push(
    model(
      'TRANSPOSE_CONV 16x8 int64 bias SAME',
      'TRANSPOSE_CONV',
      [
        shape4([1, 6, 6, 4]),
        { shape: [4, 3, 3, 2], dtype: 'int8', quant: { scale: wScales, zeroPoint: [0, 0, 0, 0] }, data: ints(22, 72, -127, 127) },
        x([1, 3, 3, 2], 'int16', qi8(0.0005)),
        { shape: [4], dtype: 'int64', quant: { scale: wScales.map((s) => s * 0.0005), zeroPoint: [0, 0, 0, 0] }, data: ints(23, 4, -200000, 200000).map(BigInt) },
      ],
      { shape: [1, 6, 6, 4], dtype: 'int16', quant: qi8(0.004) },
      tfliteOptions.transposeConv({ padding: 'SAME', strideW: 2, strideH: 2 }),
      24,
    ),
  );
  out.push(model('BATCH_MATMUL float adj_y', 'BATCH_MATMUL', [x([2, 3, 4], 'float32'), { shape: [2, 5, 4], dtype: 'float32', data: ints(18, 40, -1000, 1000).map((v) => v / 1000) }], { shape: [2, 3, 5], dtype: 'float32' }, tfliteOptions.batchMatMul({ adjY: true }), 19));
  out.push(model('BATCH_MATMUL float broadcast', 'BATCH_MATMUL', [x([2, 1, 3, 4], 'float32'), x([3, 4, 2], 'float32')], { shape: [2, 3, 3, 2], dtype: 'float32' }, tfliteOptions.batchMatMul(), 20));
  out.push(model('BATCH_MATMUL int16', 'BATCH_MATMUL', [x([2, 3, 4], 'int16', qi8(0.0005)), x([2, 4, 5], 'int16', qi8(0.0004))], { shape: [2, 3, 5], dtype: 'int16', quant: qi8(0.02) }, tfliteOptions.batchMatMul(), 46));
  out.push(model('BATCH_MATMUL int8', 'BATCH_MATMUL', [x([2, 3, 4], 'int8', qi8(0.05, -3)), x([2, 4, 5], 'int8', qi8(0.04, 0))], { shape: [2, 3, 5], dtype: 'int8', quant: qi8(0.1, 1) }, tfliteOptions.batchMatMul(), 21));
  const c32 = (shape: number[], data: number[]): Operand => ({ shape, dtype: 'int32', data });
  out.push(model('DEPTH_TO_SPACE int8', 'DEPTH_TO_SPACE', [x([1, 2, 3, 8], 'int8', qi8(0.1, 2))], { shape: [1, 4, 6, 2], dtype: 'int8', quant: qi8(0.1, 2) }, tfliteOptions.depthToSpace(2), 30));
  out.push(model('SPACE_TO_DEPTH float', 'SPACE_TO_DEPTH', [x([1, 4, 6, 3], 'float32')], { shape: [1, 2, 3, 12], dtype: 'float32' }, tfliteOptions.spaceToDepth(2), 31));
  out.push(model('BATCH_TO_SPACE_ND float crops', 'BATCH_TO_SPACE_ND', [x([4, 3, 3, 2], 'float32'), c32([2], [2, 2]), c32([2, 2], [0, 1, 1, 1])], { shape: [1, 5, 4, 2], dtype: 'float32' }, undefined, 32));
  out.push(model('SPACE_TO_BATCH_ND int8 paddings', 'SPACE_TO_BATCH_ND', [x([2, 4, 3, 1], 'int8', qi8(0.1, 9)), c32([2], [2, 3]), c32([2, 2], [0, 0, 1, 2])], { shape: [12, 2, 2, 1], dtype: 'int8', quant: qi8(0.1, 9) }, undefined, 33));
  out.push(model('SPACE_TO_BATCH_ND float 3-d', 'SPACE_TO_BATCH_ND', [x([1, 10, 3], 'float32'), c32([1], [2]), c32([1, 2], [1, 1])], { shape: [2, 6, 3], dtype: 'float32' }, undefined, 47));
  out.push(model('BATCH_TO_SPACE_ND int8 3-d', 'BATCH_TO_SPACE_ND', [x([4, 5, 2], 'int8', qi8(0.1, 1)), c32([1], [4]), c32([1, 2], [1, 1])], { shape: [1, 18, 2], dtype: 'int8', quant: qi8(0.1, 1) }, undefined, 48));
  out.push(model('BROADCAST_TO float', 'BROADCAST_TO', [x([3, 1], 'float32'), c32([3], [2, 3, 4])], { shape: [2, 3, 4], dtype: 'float32' }, undefined, 34, 2));
  out.push(model('GATHER float axis 1', 'GATHER', [x([2, 5, 3], 'float32'), c32([2, 2], [4, 0, 2, 2])], { shape: [2, 2, 2, 3], dtype: 'float32' }, tfliteOptions.gather(1), 35));
  out.push(model('RESIZE_NEAREST_NEIGHBOR int8 half_pixel', 'RESIZE_NEAREST_NEIGHBOR', [x([1, 3, 5, 2], 'int8', qi8(0.1)), c32([2], [7, 4])], { shape: [1, 7, 4, 2], dtype: 'int8', quant: qi8(0.1) }, tfliteOptions.resizeNearestNeighbor({ halfPixelCenters: true }), 36));
  out.push(model('RESIZE_NEAREST_NEIGHBOR float align_corners', 'RESIZE_NEAREST_NEIGHBOR', [x([1, 3, 3, 1], 'float32'), c32([2], [5, 7])], { shape: [1, 5, 7, 1], dtype: 'float32' }, tfliteOptions.resizeNearestNeighbor({ alignCorners: true }), 37));
  out.push(model('RESIZE_BILINEAR float', 'RESIZE_BILINEAR', [x([1, 3, 4, 2], 'float32'), c32([2], [5, 7])], { shape: [1, 5, 7, 2], dtype: 'float32' }, tfliteOptions.resizeBilinear(), 38));
  out.push(model('RESIZE_BILINEAR float half_pixel_centers', 'RESIZE_BILINEAR', [x([1, 4, 4, 1], 'float32'), c32([2], [8, 6])], { shape: [1, 8, 6, 1], dtype: 'float32' }, tfliteOptions.resizeBilinear({ halfPixelCenters: true }), 39));
  out.push(model('RESIZE_BILINEAR int8 align_corners', 'RESIZE_BILINEAR', [x([1, 3, 3, 2], 'int8', qi8(0.1, 1)), c32([2], [6, 5])], { shape: [1, 6, 5, 2], dtype: 'int8', quant: qi8(0.1, 1) }, tfliteOptions.resizeBilinear({ alignCorners: true }), 40));
  out.push(model('RESIZE_BILINEAR int8 half_pixel_centers', 'RESIZE_BILINEAR', [x([1, 4, 3, 2], 'int8', qi8(0.1, 1)), c32([2], [8, 6])], { shape: [1, 8, 6, 2], dtype: 'int8', quant: qi8(0.1, 1) }, tfliteOptions.resizeBilinear({ halfPixelCenters: true }), 41));
  out.push(model('L2_NORMALIZATION float', 'L2_NORMALIZATION', [x([2, 3, 6], 'float32')], { shape: [2, 3, 6], dtype: 'float32' }, undefined, 42));
  out.push(model('L2_NORMALIZATION int8', 'L2_NORMALIZATION', [x([4, 10], 'int8', qi8(0.05, 2))], { shape: [4, 10], dtype: 'int8', quant: qi8(1 / 128, 0) }, undefined, 43));
  out.push(model('LOG_SOFTMAX float', 'LOG_SOFTMAX', [x([3, 7], 'float32')], { shape: [3, 7], dtype: 'float32' }, undefined, 45));
  out.push(model('LOG_SOFTMAX int8', 'LOG_SOFTMAX', [x([3, 10], 'int8', qi8(0.08, 4))], { shape: [3, 10], dtype: 'int8', quant: qi8(16 / 256, 127) }, undefined, 44));
  return out;
}

describeAgainstLiteRt('reductions, TRANSPOSE_CONV and BATCH_MATMUL against LiteRT', cases, { tolerance: { lsb: 1, rel: 1e-5, abs: 1e-5 }, varied: false });

/** REDUCE_ALL / REDUCE_ANY: bool, so compared exactly (one LSB would let any answer pass). */
function logicalCases(): Case[] {
  const reducer = (keep: boolean) => tfliteOptions.reducer(keep);
  const bools = (shape: number[], data: number[]): Operand => ({ shape, dtype: 'bool', data });
  return [
    model('REDUCE_ALL bool last axis', 'REDUCE_ALL', [x([6, 3], 'bool'), axis([1])], { shape: [6], dtype: 'bool' }, reducer(false), 60),
    model('REDUCE_ALL bool axes [0, -1] keep_dims', 'REDUCE_ALL', [x([2, 3, 2], 'bool'), axis([0, -1])], { shape: [1, 3, 1], dtype: 'bool' }, reducer(true), 61),
    model('REDUCE_ALL bool every axis', 'REDUCE_ALL', [x([2, 2], 'bool'), axis([0, 1])], { shape: [], dtype: 'bool' }, reducer(false), 62),
    model('REDUCE_ANY bool axis 0', 'REDUCE_ANY', [bools([3, 4], [0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0]), axis([0])], { shape: [4], dtype: 'bool' }, reducer(false), 63),
    model('REDUCE_ANY bool input, middle axis keep_dims', 'REDUCE_ANY', [x([2, 4, 3], 'bool'), axis([1])], { shape: [2, 1, 3], dtype: 'bool' }, reducer(true), 64),
  ];
}

describeAgainstLiteRt('REDUCE_ALL and REDUCE_ANY against LiteRT', logicalCases, { tolerance: { lsb: 0, rel: 0, abs: 0 }, varied: false });

describe('unsupported parameters are one-line errors naming operator, index and parameter', () => {
  it('MEAN with a runtime axis tensor', () => {
    const c = model('', 'MEAN', [x([2, 3], 'float32'), { input: true, shape: [1], dtype: 'int32' }], { shape: [2], dtype: 'float32' }, tfliteOptions.reducer(false), 1);
    expect(() => importTflite(c.model, 'm.tflite')).toThrow(/^unsupported non-constant axis \(input 1\) on MEAN at operator #0 in m\.tflite$/);
  });
  it('REDUCE_MAX int8 with another output quantization', () => {
    const c = model('', 'REDUCE_MAX', [x([2, 3], 'int8', qi8(0.1)), axis([1])], { shape: [2], dtype: 'int8', quant: qi8(0.2) }, tfliteOptions.reducer(false), 1);
    expect(() => importTflite(c.model, 'm.tflite')).toThrow(/^unsupported input and output quantization that differ on REDUCE_MAX at operator #0 in m\.tflite$/);
  });
  it('REDUCE_ALL of an int8 tensor (TFLite takes bool only)', () => {
    const c = model('', 'REDUCE_ALL', [x([2, 3], 'int8', qi8(0.1)), axis([1])], { shape: [2], dtype: 'int8', quant: qi8(0.1) }, tfliteOptions.reducer(false), 1);
    expect(() => importTflite(c.model, 'm.tflite')).toThrow(/^unsupported input dtype int8 \(supported: bool\) on REDUCE_ALL at operator #0 in m\.tflite$/);
  });
  it('REDUCE_ANY writing an int32 output from bool', () => {
    const c = model('', 'REDUCE_ANY', [x([2, 3], 'bool'), axis([1])], { shape: [2], dtype: 'int32' }, tfliteOptions.reducer(false), 1);
    expect(() => importTflite(c.model, 'm.tflite')).toThrow(/^unsupported output dtype int32 for a bool input on REDUCE_ANY at operator #0 in m\.tflite$/);
  });
  it('TRANSPOSE_CONV with a uint8 input', () => {
    const c = model(
      '',
      'TRANSPOSE_CONV',
      [{ shape: [4], dtype: 'int32', data: [1, 4, 4, 1] }, { shape: [1, 3, 3, 1], dtype: 'int8', quant: qi8(0.1), data: ints(1, 9, -5, 5) }, x([1, 2, 2, 1], 'uint8', qi8(0.1))],
      { shape: [1, 4, 4, 1], dtype: 'uint8', quant: qi8(0.1) },
      tfliteOptions.transposeConv({ padding: 'SAME', strideW: 2, strideH: 2 }),
      1,
    );
    expect(() => importTflite(c.model, 'm.tflite')).toThrow(/^unsupported input dtype uint8 \(supported: float32, int8, int16\) on TRANSPOSE_CONV at operator #0 in m\.tflite$/);
  });
});
