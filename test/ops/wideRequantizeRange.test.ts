/**
 * 16x8 operators that accumulate in int64 requantize with TFLite's int64
 * MultiplyByQuantizedMultiplier, which rounds with `1 << (14 - shift)` and shifts right by
 * `15 - shift`: a requantization multiplier (input scale * weight scale / output scale) of about
 * 2^14 or more makes both undefined. Such a model used to import, then the interpreter threw a
 * RangeError with a stack trace ("multiplyByQuantizedMultiplier64: shift 16 is out of range")
 * and the generated C shifted by a negative amount. It is now a one-line import error naming the
 * operator; just below the limit still imports and runs.
 */
import { importTflite } from '../../src/frontend/tflite';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { importErrorOf, SingleOp, singleOpTflite } from './tfliteModels';

const i16 = (shape: number[], scale: number) => ({ shape, dtype: 'int16' as const, quant: { scale: [scale], zeroPoint: [0] } });
const w8 = (shape: number[], scale: number, axis = 0) => ({ shape, dtype: 'int8' as const, quant: { scale: [scale], zeroPoint: [0], axis }, data: new Array<number>(shape.reduce((a, b) => a * b, 1)).fill(3) });
const i64 = (n: number) => ({ shape: [n], dtype: 'int64' as const, data: new Array<number>(n).fill(0) });

// input scale 0.01 * weight scale 0.5 / output scale => multiplier 2^15 (refused) or 2^13 (kept)
const tooSmall = 0.005 / 2 ** 15;
const fine = 0.005 / 2 ** 13;

const cases: [string, (outScale: number) => SingleOp][] = [
  ['CONV_2D with an int64 bias', (o) => ({ name: 'c', op: 'CONV_2D', inputs: [i16([1, 2, 2, 1], 0.01), w8([1, 1, 1, 1], 0.5), i64(1)], outputs: [i16([1, 2, 2, 1], o)], options: tfliteOptions.conv2d({ padding: 'VALID' }) })],
  ['DEPTHWISE_CONV_2D', (o) => ({ name: 'd', op: 'DEPTHWISE_CONV_2D', inputs: [i16([1, 2, 2, 1], 0.01), w8([1, 1, 1, 1], 0.5, 3), null], outputs: [i16([1, 2, 2, 1], o)], options: tfliteOptions.depthwiseConv2d({ padding: 'VALID' }) })],
  ['FULLY_CONNECTED with an int64 bias', (o) => ({ name: 'f', op: 'FULLY_CONNECTED', inputs: [i16([1, 2], 0.01), w8([1, 2], 0.5), i64(1)], outputs: [i16([1, 1], o)], options: tfliteOptions.fullyConnected() })],
  ['BATCH_MATMUL int16', (o) => ({ name: 'b', op: 'BATCH_MATMUL', inputs: [i16([1, 1, 2], 0.01), i16([1, 2, 1], 0.5)], outputs: [i16([1, 1, 1], o)], options: tfliteOptions.batchMatMul() })],
  [
    'TRANSPOSE_CONV 16x8',
    (o) => ({
      name: 't',
      op: 'TRANSPOSE_CONV',
      inputs: [{ shape: [4], dtype: 'int32' as const, data: [1, 2, 2, 1] }, w8([1, 1, 1, 1], 0.5), i16([1, 2, 2, 1], 0.01)],
      outputs: [i16([1, 2, 2, 1], o)],
      options: tfliteOptions.transposeConv({ padding: 'VALID' }),
    }),
  ],
];

describe('16x8 int64 requantize: multipliers of 2^14 or more are an import error', () => {
  it.each(cases)('%s', (_label, make) => {
    const e = importErrorOf(make(tooSmall));
    expect(e.constructor.name).toBe('UnsupportedOperatorError');
    expect(e.message).toMatch(/too small .*2\^14 or more.* on [A-Z_0-9]+ at operator #0 in m\.tflite/);
    expect(e.message).not.toContain('\n');
    // Just inside the range the model imports and interprets.
    const c = make(fine);
    const module = importTflite(singleOpTflite(c), 'm.tflite');
    const inputs = c.inputs.filter((t) => t && !t.data).map((t) => new Uint8Array(2 * t!.shape.reduce((a, b) => a * b, 1)).fill(1));
    expect(() => interpret(module, inputs)).not.toThrow();
  });
});
