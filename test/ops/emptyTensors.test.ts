/**
 * Tensors with an axis of length 0 (fuzzed; docs/operators.md). An operator with nothing to
 * write lowers to nothing; one with elements to write and none to read is refused at import,
 * naming it; the few that define such outputs (SUM of nothing, REDUCE_MAX, PAD) compute what
 * TFLite's reference kernels do, in the interpreter and the generated C alike.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterDType } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import { errorOf } from '../helpers/errorOf';

type Build = (w: TfliteWriter) => number;

function model(build: Build): Uint8Array {
  const w = new TfliteWriter();
  w.markOutput(build(w));
  return w.finish();
}

const q = { scale: [0.5], zeroPoint: [3] };
const axis1 = (w: TfliteWriter) => w.addConstant({ name: 'axes', shape: [1], dtype: 'int32', data: [1] });

function unary(op: string, inShape: number[], outShape: number[], dtype: WriterDType, options?: ReturnType<typeof tfliteOptions.softmax>, extra?: (w: TfliteWriter) => number): Build {
  return (w) => {
    const quant = dtype === 'int8' ? { quant: q } : {};
    const x = w.addInput({ name: 'x', shape: inShape, dtype, ...quant });
    const y = w.addTensor({ name: 'y', shape: outShape, dtype: op === 'ARG_MAX' ? 'int32' : dtype, ...(op === 'ARG_MAX' ? {} : quant) });
    w.addOperator({ op, inputs: extra ? [x, extra(w)] : [x], outputs: [y], ...(options ? { options } : {}) });
    return y;
  };
}

function run(build: Build): void {
  const report = verifyModel(importTflite(model(build)), { backend: 'vanilla' });
  expect(report.failure).toBeUndefined();
  expect(report.comparisons.every((c) => c.equal)).toBe(true);
}

/** The output, int8, after checking that the generated C computes what the interpreter does. */
function outputOf(build: Build): number[] {
  const m = importTflite(model(build));
  const report = verifyModel(m, { backend: 'vanilla' });
  expect(report.ok).toBe(true);
  return Array.from(new Int8Array(interpret(m, [new Uint8Array(0)])[0].slice().buffer));
}

describe('tensors without elements', () => {
  it('SOFTMAX of shape [3, 0], float32 and int8, lowers to nothing (was `i < NaN` in the C)', () => {
    run(unary('SOFTMAX', [3, 0], [3, 0], 'float32', tfliteOptions.softmax(1)));
    run((w) => {
      const x = w.addInput({ name: 'x', shape: [2, 0], dtype: 'int8', quant: q });
      const y = w.addTensor({ name: 'y', shape: [2, 0], dtype: 'int8', quant: { scale: [1 / 256], zeroPoint: [-128] } });
      w.addOperator({ op: 'SOFTMAX', inputs: [x], outputs: [y], options: tfliteOptions.softmax(1) });
      return y;
    });
  }, 60000);

  it('SUM of int8 over an axis of length 0 is raw 0 in the C too (QuantizedMeanOrSum leaves the reset output)', () => {
    expect(outputOf(unary('SUM', [3, 0], [3], 'int8', tfliteOptions.reducer(false), axis1))).toEqual([0, 0, 0]);
  }, 60000);

  it('REDUCE_MAX of int8 over an axis of length 0 is the lowest value', () => {
    expect(outputOf(unary('REDUCE_MAX', [3, 0], [3], 'int8', tfliteOptions.reducer(false), axis1))).toEqual([-128, -128, -128]);
  }, 60000);

  it('PAD of an empty tensor is all padding', () => {
    const pads = (w: TfliteWriter) => w.addConstant({ name: 'pads', shape: [2, 2], dtype: 'int32', data: [1, 1, 0, 0] });
    expect(outputOf(unary('PAD', [0, 2], [2, 2], 'int8', undefined, pads))).toEqual([3, 3, 3, 3]);
  }, 60000);

  it.each([
    ['ARG_MAX', unary('ARG_MAX', [3, 0], [3], 'float32', tfliteOptions.argMax('int32'), axis1), /arg_max: computes \[3\] int32 from input \[3, 0\] float32, which has no elements to read/],
    [
      'GATHER',
      (w: TfliteWriter) => {
        // Indices read at run time: any of them is out of range.
        const x = w.addInput({ name: 'x', shape: [0, 3], dtype: 'float32' });
        const i = w.addInput({ name: 'i', shape: [2], dtype: 'int32' });
        const y = w.addTensor({ name: 'y', shape: [2, 3], dtype: 'float32' });
        w.addOperator({ op: 'GATHER', inputs: [x, i], outputs: [y], options: tfliteOptions.gather(0) });
        return y;
      },
      /gather: computes \[2, 3\] float32 from input \[0, 3\] float32, which has no elements to read/,
    ],
    [
      'RESIZE_BILINEAR',
      unary('RESIZE_BILINEAR', [1, 0, 2, 1], [1, 3, 3, 1], 'float32', tfliteOptions.resizeBilinear(), (w) => w.addConstant({ name: 's', shape: [2], dtype: 'int32', data: [3, 3] })),
      /resize_bilinear: computes \[1, 3, 3, 1\] float32 from input \[1, 0, 2, 1\] float32, which has no elements to read/,
    ],
  ])('%s from an empty tensor to a non-empty one is refused at import', (_, build, message) => {
    const e = errorOf(() => importTflite(model(build as Build), 'empty.tflite'));
    expect(e.message).toMatch(message as RegExp);
    expect(e.message).not.toContain('\n');
  });
});
