/**
 * DYNAMIC_UPDATE_SLICE on TFLite Micro's kernel test cases (kernels/dynamic_update_slice_test.cc,
 * operand, update and start indices all read at run time): the interpreter equals the goldens
 * and the generated C, compiled by gcc, equals the interpreter byte for byte, clamped start
 * indices (negative, past the end, int64 beyond 32 bits) included; the same operator on random
 * shapes and start indices (in range and clamped) against LiteRT; then the refusals.
 */
import { ModelFormatError, UmaError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, WriterDType } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import { hostOnlyRegistry } from '../helpers/hostOnlyRegistry';
import { importRefusal } from '../helpers/importRefusal';
import { seededRandom } from '../../src/util/random';
import { describeAgainstLiteRt, LiteRtCase } from './liteRtComparison';

type DataType = 'float32' | 'int8' | 'int16' | 'int32';

function model(dtype: WriterDType, shape: number[], updateShape: number[], indexType: WriterDType = 'int32', indexCount = shape.length, outShape = shape): Uint8Array {
  const w = new TfliteWriter();
  const operand = w.addInput({ name: 'operand', shape, dtype });
  const update = w.addInput({ name: 'update', shape: updateShape, dtype });
  const start = w.addInput({ name: 'start', shape: [indexCount], dtype: indexType });
  const out = w.addTensor({ name: 'out', shape: outShape, dtype });
  w.addOperator({ op: 'DYNAMIC_UPDATE_SLICE', inputs: [operand, update, start], outputs: [out] });
  w.markOutput(out);
  return w.finish();
}

function bytes(dtype: DataType | 'int64', v: readonly number[]): Uint8Array {
  const typed =
    dtype === 'float32' ? Float32Array.from(v) : dtype === 'int8' ? Int8Array.from(v) : dtype === 'int16' ? Int16Array.from(v) : dtype === 'int32' ? Int32Array.from(v) : BigInt64Array.from(v.map(BigInt));
  return new Uint8Array(typed.buffer);
}

function values(dtype: DataType, b: Uint8Array): number[] {
  const buf = b.slice().buffer;
  const typed = dtype === 'float32' ? new Float32Array(buf) : dtype === 'int8' ? new Int8Array(buf) : dtype === 'int16' ? new Int16Array(buf) : new Int32Array(buf);
  return Array.from(typed);
}

/** C = interpreter over every given input set, byte for byte. */
function expectCMatches(graph: ReturnType<typeof importTflite>, invocations: Uint8Array[][]): void {
  const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), invocations });
  expect(report.failure).toBeUndefined();
  expect(report.comparisons).toHaveLength(invocations.length);
  expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
}

const OPERAND = [1, 2, 3, 4, 5, 6, 7, 8, 9];

describe('DYNAMIC_UPDATE_SLICE on TFLite Micro goldens', () => {
  const simple: [string, DataType, 'int32' | 'int64'][] = [
    ['SimpleFloat', 'float32', 'int32'],
    ['SimpleInt8', 'int8', 'int32'],
    ['SimpleInt16', 'int16', 'int32'],
    ['SimpleInt32', 'int32', 'int32'],
    ['SimpleInt8IndicesI64', 'int8', 'int64'],
  ];
  it.each(simple)('%s: [3, 3] with [2, 1] at [1, 1]; the interpreter equals the golden, the C the interpreter', (_name, dtype, indexType) => {
    const graph = importTflite(model(dtype, [3, 3], [2, 1], indexType), 'dus.tflite');
    const inputs = [bytes(dtype, OPERAND), bytes(dtype, [-1, -2]), bytes(indexType, [1, 1])];
    expect(values(dtype, interpret(graph, inputs)[0])).toEqual([1, 2, 3, 4, -1, 6, 7, -2, 9]);
    // Start indices clamped: negative to 0, past the end to operand dim - update dim.
    const clamped = [bytes(dtype, OPERAND), bytes(dtype, [-1, -2]), bytes(indexType, [-4, 7])];
    expect(values(dtype, interpret(graph, clamped)[0])).toEqual([1, 2, -1, 4, 5, -2, 7, 8, 9]);
    expectCMatches(graph, [inputs, clamped]);
  });

  it('BoundaryTest: a [2, 2] update at [2, 2] is clamped to [1, 1]', () => {
    const graph = importTflite(model('float32', [3, 3], [2, 2]), 'dus_boundary.tflite');
    const inputs = [bytes('float32', OPERAND), bytes('float32', [-1, -2, -3, -4]), bytes('int32', [2, 2])];
    expect(values('float32', interpret(graph, inputs)[0])).toEqual([1, 2, 3, 4, -1, -2, 7, -3, -4]);
    expectCMatches(graph, [inputs]);
  });

  it('int64 start indices beyond 32 bits clamp in 64 bits (2^32 is past the end, not 0), 3-D, and an empty update: C = interpreter', () => {
    const graph = importTflite(model('int16', [2, 3, 4], [1, 2, 3], 'int64'), 'dus3.tflite');
    const operand = bytes('int16', Array.from({ length: 24 }, (_, i) => i * 100 - 1000));
    const update = bytes('int16', [-32768, 32767, 1, 2, 3, 4]);
    const runs = [
      [operand, update, bytes('int64', [2 ** 32, 0, 1])],
      [operand, update, bytes('int64', [-(2 ** 40) + 1, 2 ** 33, 1])],
    ];
    // Narrowed to 32 bits first, these would start at [0, 0, 1] and [1, 0, 1].
    const first = values('int16', interpret(graph, runs[0])[0]);
    expect(first.slice(12, 24)).toEqual([200, -32768, 32767, 1, 600, 2, 3, 4, 1000, 1100, 1200, 1300]);
    const second = values('int16', interpret(graph, runs[1])[0]);
    expect(second.slice(0, 12)).toEqual([-1000, -900, -800, -700, -600, -32768, 32767, 1, -200, 2, 3, 4]);
    expectCMatches(graph, runs);
    const empty = importTflite(model('int8', [2, 3], [2, 0]), 'dus_empty.tflite');
    const emptyInputs = [bytes('int8', [1, 2, 3, 4, 5, 6]), new Uint8Array(0), bytes('int32', [0, 1])];
    expect(values('int8', interpret(empty, emptyInputs)[0])).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

/**
 * Random operands, updates and start indices (a third of them outside the operand, so clamped)
 * in every type and rank 1-4, as LiteRT (TensorFlow Lite's kernel, which clamps as TFLite
 * Micro's) runs them: exact, the values are copied.
 */
function liteRtCases(): LiteRtCase[] {
  const r = seededRandom(2026);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const dtypes: DataType[] = ['float32', 'int8', 'int16', 'int32'];
  return Array.from({ length: 12 }, (_, k) => {
    const dtype = dtypes[k % dtypes.length];
    const indexType = k % 3 === 2 ? 'int64' : 'int32';
    const rank = 1 + (k % 4);
    const shape = Array.from({ length: rank }, () => int(1, 5));
    // No empty update: LiteRT cannot make a buffer of no bytes (the C = interpreter test has one).
    const updateShape = shape.map((d) => int(1, d));
    const starts = shape.map((d) => (r() < 1 / 3 ? int(-4, -1) * (r() < 0.5 ? 1 : -1) * d : int(0, d)));
    const count = (dims: number[]) => dims.reduce((a, b) => a * b, 1);
    const data = (n: number) => Array.from({ length: n }, () => (dtype === 'float32' ? int(-500, 500) / 8 : int(-100, 100)));
    return {
      name: `${dtype} [${shape}] <- [${updateShape}] at [${starts}] (${indexType})`,
      model: model(dtype, shape, updateShape, indexType),
      inputs: [bytes(dtype, data(count(shape))), bytes(dtype, data(count(updateShape))), bytes(indexType, starts)],
      outDtype: dtype,
    };
  });
}

describeAgainstLiteRt('DYNAMIC_UPDATE_SLICE against LiteRT', liteRtCases, { tolerance: { lsb: 0, rel: 0, abs: 0 }, varied: false });

describe('DYNAMIC_UPDATE_SLICE refusals', () => {
  const refusal = (m: Uint8Array): UmaError => importRefusal(m);

  it('types, ranks and shapes its Prepare refuses, and ranks past 6, are typed one-line errors naming the operator', () => {
    const cases: [Uint8Array, typeof UmaError, RegExp][] = [
      [model('bool', [3], [1]), UnsupportedOperatorError, /^unsupported type bool \(TFLite Micro's DYNAMIC_UPDATE_SLICE takes float32, int8, int16, int32\) on DYNAMIC_UPDATE_SLICE at operator #0/],
      [model('int8', [3, 3], [4, 1]), ModelFormatError, /update \[4,1\] must have the operand's rank and fit in its \[3,3\] \(DYNAMIC_UPDATE_SLICE at operator #0\)/],
      [model('int8', [3, 3], [3]), ModelFormatError, /must have the operand's rank/],
      [model('int8', [3, 3], [1, 1], 'int32', 3), ModelFormatError, /start_indices of shape \[3\], expected \[2\]/],
      [model('int8', [3, 3], [1, 1], 'int16'), ModelFormatError, /start_indices type int16, expected int32 or int64/],
      [model('int8', [3, 3], [1, 1], 'int32', 2, [3, 4]), ModelFormatError, /output \[3,4\], expected the operand's \[3,3\]/],
      [model('int8', [1, 1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 1, 1]), UnsupportedOperatorError, /^unsupported rank 7 \(TFLite Micro's kernel takes at most 6\)/],
    ];
    for (const [m, type, message] of cases) {
      const e = refusal(m);
      expect([e.constructor.name, e.message]).toEqual([type.name, expect.stringMatching(message)]);
    }
  });
});
