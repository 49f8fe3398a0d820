/**
 * Quantized MEAN and SUM requantize as TFLite Micro's current QuantizedMeanOrSum: in integers
 * (MultiplyByQuantizedMultiplier of the sum less n input zero points, 1/n folded into MEAN's
 * multiplier), not the float rounding older TFLite versions used. The two differ on ties of
 * negative means: float rounds -1.5 away from zero, the fixed-point multiply toward +inf.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify';

function reduce(op: 'MEAN' | 'SUM', outScale: number, outZp: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 2], dtype: 'int8', quant: { scale: [1], zeroPoint: [0] } });
  const axes = w.addConstant({ name: 'axes', shape: [1], dtype: 'int32', data: [1] });
  const y = w.addTensor({ name: 'y', shape: [1, 1], dtype: 'int8', quant: { scale: [outScale], zeroPoint: [outZp] } });
  w.addOperator({ op, inputs: [x, axes], outputs: [y], options: tfliteOptions.reducer(true) });
  w.markOutput(y);
  return w.finish();
}

const run = (model: Uint8Array, xs: number[]): number => new Int8Array(interpret(importTflite(model, 'm.tflite'), [Uint8Array.from(xs.map((v) => v & 0xff))])[0].buffer)[0];

describe('quantized MEAN and SUM requantization', () => {
  it('MEAN of [-1, -2] with the output zero point 1 is 0 (the float path gave -1)', () => {
    expect(run(reduce('MEAN', 1, 1), [-1, -2])).toBe(0);
    expect(run(reduce('MEAN', 1, 1), [1, 2])).toBe(3);
  });

  it('SUM halves with the output scale 2 the same way, and clamps', () => {
    expect(run(reduce('SUM', 2, 0), [-1, -2])).toBe(-1);
    expect(run(reduce('SUM', 2, 0), [1, 2])).toBe(2);
    expect(run(reduce('SUM', 0.5, 0), [100, 27])).toBe(127);
  });

  it('the generated C computes the same', () => {
    for (const model of [reduce('MEAN', 1, 1), reduce('SUM', 2, 0), reduce('MEAN', 0.37, -5)]) {
      const report = verifyModel(importTflite(model, 'm.tflite'), { backend: 'vanilla', seed: 3, runs: 3 });
      expect(report.ok).toBe(true);
    }
  }, 60000);
});
