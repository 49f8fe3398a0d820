/**
 * An int8 RESIZE_BILINEAR whose integer kernel (TFLite's, Q10 scales) would read a source
 * column past the input is refused at import (fuzzed: 1x1 to 1x2000 read past the input in the
 * C, and 0 in the interpreter); sizes where the rounding stays inside compile and match.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { verifyModel } from '../../src/verify/verifyModel';
import { errorOf } from '../helpers/errorOf';

function resize(outW: number): Uint8Array {
  const w = new TfliteWriter();
  const q = { scale: [0.1], zeroPoint: [2] };
  const x = w.addInput({ name: 'x', shape: [1, 1, 1, 1], dtype: 'int8', quant: q });
  const size = w.addConstant({ name: 'size', shape: [2], dtype: 'int32', data: [1, outW] });
  const y = w.addTensor({ name: 'y', shape: [1, 1, outW, 1], dtype: 'int8', quant: q });
  w.addOperator({ op: 'RESIZE_BILINEAR', inputs: [x, size], outputs: [y], options: tfliteOptions.resizeBilinear() });
  w.markOutput(y);
  return w.finish();
}

describe('integer RESIZE_BILINEAR source bounds', () => {
  it('refuses a size whose rounded Q10 scale reads past the input', () => {
    const e = errorOf(() => importTflite(resize(2000), 'r.tflite'));
    expect(e.message).toMatch(/resize_bilinear: TFLite's integer kernel reads source column 1 for output column 1024, past the input's 1 columns/);
  });

  it('compiles a size that stays inside and matches the interpreter', () => {
    const report = verifyModel(importTflite(resize(2049)), { backend: 'vanilla' });
    expect(report.ok).toBe(true);
  }, 60000);
});
