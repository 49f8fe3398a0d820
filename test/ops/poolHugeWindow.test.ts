/**
 * Pooling windows longer than the input (fuzzed: a MAX_POOL_2D of 2^31-1 x 2^31-1 with SAME
 * padding, whose generated C looped over every tap and never finished): the C visits at most
 * the input's extent of taps per axis, in the same order, and computes what the interpreter
 * does. AVERAGE_POOL_2D counts the taps inside as before.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { verifyModel } from '../../src/verify/verifyModel';

function pool(op: 'MAX_POOL_2D' | 'AVERAGE_POOL_2D', filter: number, dtype: 'float32' | 'int8'): Uint8Array {
  const w = new TfliteWriter();
  const quant = dtype === 'int8' ? { quant: { scale: [0.1], zeroPoint: [2] } } : {};
  const x = w.addInput({ name: 'x', shape: [1, 4, 5, 2], dtype, ...quant });
  const y = w.addTensor({ name: 'y', shape: [1, 2, 3, 2], dtype, ...quant });
  w.addOperator({ op, inputs: [x], outputs: [y], options: tfliteOptions.pool2d({ padding: 'SAME', strideH: 2, strideW: 2, filterH: filter, filterW: filter }) });
  w.markOutput(y);
  return w.finish();
}

describe('pooling windows longer than the input', () => {
  it.each([
    ['MAX_POOL_2D', 'float32'],
    ['MAX_POOL_2D', 'int8'],
    ['AVERAGE_POOL_2D', 'float32'],
    ['AVERAGE_POOL_2D', 'int8'],
  ] as const)('%s %s with a 2^31-1 filter runs and matches the interpreter', (op, dtype) => {
    const report = verifyModel(importTflite(pool(op, 2 ** 31 - 1, dtype)), { backend: 'vanilla', runs: 2, timeoutSeconds: 30 });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
  }, 60000);

  it('a 7-tap window on a 4x5 input (longer on both axes) matches too', () => {
    const report = verifyModel(importTflite(pool('AVERAGE_POOL_2D', 7, 'int8')), { backend: 'vanilla', runs: 2 });
    expect(report.ok).toBe(true);
  }, 60000);
});
