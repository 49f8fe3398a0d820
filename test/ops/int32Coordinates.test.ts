/**
 * Window coordinates the generated C computes in int32 (as TFLite Micro's kernels do): a
 * convolution whose padded extent and dilated window pass 2^31-1, or a TRANSPOSE_CONV whose
 * stride scatters rows past it, is refused at import naming the operator. Fuzzed: a dilation of
 * 2^31-1 made the C read elsewhere than the interpreter, and a TRANSPOSE_CONV stride of 2^31-2
 * wrote outside its output (SIGSEGV). Strides up to 2^30 still compile and match.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { verifyModel } from '../../src/verify/verifyModel';
import { errorOf } from '../helpers/errorOf';

function dilatedConv(dilation: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 3, 2, 2], dtype: 'float32' });
  const weight = w.addConstant({ name: 'w', shape: [2, 9, 1, 2], dtype: 'float32', data: Array.from({ length: 36 }, (_, i) => (i % 5) - 2) });
  const y = w.addTensor({ name: 'y', shape: [1, 3, 2, 2], dtype: 'float32' });
  w.addOperator({ op: 'CONV_2D', inputs: [x, weight, -1], outputs: [y], options: tfliteOptions.conv2d({ padding: 'SAME', dilationH: dilation }) });
  w.markOutput(y);
  return w.finish();
}

function stridedTransposeConv(stride: number, out: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 2, 2, 1], dtype: 'float32' });
  const weight = w.addConstant({ name: 'w', shape: [1, 3, 3, 1], dtype: 'float32', data: [1, -2, 3, 0, 1, 2, -1, 1, 1] });
  const shape = w.addConstant({ name: 'os', shape: [4], dtype: 'int32', data: [1, out, out, 1] });
  const y = w.addTensor({ name: 'y', shape: [1, out, out, 1], dtype: 'float32' });
  w.addOperator({ op: 'TRANSPOSE_CONV', inputs: [shape, weight, x], outputs: [y], options: tfliteOptions.transposeConv({ padding: 'VALID', strideH: stride, strideW: stride }) });
  w.markOutput(y);
  return w.finish();
}

describe('window coordinates past int32', () => {
  it('a CONV_2D dilation reaching past 2^31-1 is refused naming the operator', () => {
    const e = errorOf(() => importTflite(dilatedConv(2 ** 31 - 1), 'dilated.tflite'));
    expect(e.message).toMatch(/^unsupported conv2d: the padded height and the dilated window reach \d+, past 2\^31-1: coordinates are 32-bit integers in the generated C .* on CONV_2D at operator #0 in dilated\.tflite$/);
  });

  it('a TRANSPOSE_CONV stride scattering past 2^31-1 is refused; 2^30 runs and matches', () => {
    const e = errorOf(() => importTflite(stridedTransposeConv(2 ** 31 - 2, 5), 'tconv.tflite'));
    expect(e.message).toMatch(/^unsupported transpose_conv2d: input rows scatter up to 2147483648 \(stride 2147483646\), past 2\^31-1/);
    const report = verifyModel(importTflite(stridedTransposeConv(2 ** 30, 5)), { backend: 'vanilla' });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
  }, 60000);
});
