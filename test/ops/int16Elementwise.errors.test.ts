/**
 * int16 PRELU and SQUARED_DIFFERENCE accept only what TFLite Micro's Prepare accepts: PRELU's
 * int16 input takes an int8 alpha, SQUARED_DIFFERENCE's int16 tensors have zero points 0. Anything
 * else is a one-line import error naming the operator, its index and the parameter.
 */
import { importTflite } from '../../src/frontend/tflite';
import { importErrorOf, SingleOp, singleOpTflite, t } from './tfliteModels';

const i16 = (shape: number[], zeroPoint = 0) => ({ shape, dtype: 'int16' as const, quant: { scale: [0.001], zeroPoint: [zeroPoint] } });

describe('int16 PRELU / SQUARED_DIFFERENCE: what TFLite Micro rejects is a one-line import error', () => {
  it('accepts int16 PRELU with an int8 alpha and int16 SQUARED_DIFFERENCE with zero points 0', () => {
    const prelu = importTflite(singleOpTflite({ name: 'p', op: 'PRELU', inputs: [i16([2, 4]), t([4], 'int8')], outputs: [i16([2, 4])] }), 'm.tflite');
    expect(prelu.functions.get('main')!.nodes.some((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'prelu')).toBe(true);
    const sqd = importTflite(singleOpTflite({ name: 's', op: 'SQUARED_DIFFERENCE', inputs: [i16([2, 4]), i16([4])], outputs: [i16([2, 4])] }), 'm.tflite');
    expect(sqd.functions.get('main')!.nodes.some((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'squared_difference')).toBe(true);
  });

  it.each([
    ['PRELU int16 with an int16 alpha', { name: 'p', op: 'PRELU', inputs: [i16([2, 4]), i16([4])], outputs: [i16([2, 4])] }, /alpha type int16 with int16 input \(needs int8\).*PRELU at operator #0 in m\.tflite/],
    ['PRELU int8 with an int16 alpha', { name: 'p', op: 'PRELU', inputs: [t([2, 4], 'int8'), i16([4])], outputs: [t([2, 4], 'int8')] }, /alpha type int16 with int8 input \(needs int8\).*PRELU/],
    ['SQUARED_DIFFERENCE int16 output zero point 3', { name: 's', op: 'SQUARED_DIFFERENCE', inputs: [i16([2, 4]), i16([4])], outputs: [i16([2, 4], 3)] }, /int16 output zero point 3 \(must be 0\).*SQUARED_DIFFERENCE at operator #0/],
    ['SQUARED_DIFFERENCE int16 input 1 zero point -2', { name: 's', op: 'SQUARED_DIFFERENCE', inputs: [i16([2, 4]), i16([4], -2)], outputs: [i16([2, 4])] }, /int16 input 1 zero point -2 \(must be 0\)/],
  ] as [string, SingleOp, RegExp][])('%s', (_name, c, message) => {
    const e = importErrorOf(c);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });
});

describe('int16 MUL / ABS / RELU: nonzero zero points are a one-line import error, as TFLite Micro Prepare rejects them', () => {
  // mul_common.cc CalculateOpDataMul: TF_LITE_ENSURE_EQ(input1/input2/output zero point, 0) for int16;
  // elementwise.cc PrepareAbsRsqrt and activations_common.cc ReluPrepare: input and output zero point 0 for int16.
  it.each([
    ['MUL input 0 zero point 2', { name: 'm', op: 'MUL', inputs: [i16([2, 4], 2), i16([4])], outputs: [i16([2, 4])] }, /int16 input 0 zero point 2 \(must be 0\).*MUL at operator #0/],
    ['MUL output zero point 4', { name: 'm', op: 'MUL', inputs: [i16([2, 4]), i16([4])], outputs: [i16([2, 4], 4)] }, /int16 output zero point 4 \(must be 0\).*MUL/],
    ['ABS input zero point 5', { name: 'a', op: 'ABS', inputs: [i16([4], 5)], outputs: [i16([4])] }, /int16 abs needs zero points 0, got 5 and 0.*ABS at operator #0/],
    ['RELU output zero point -3', { name: 'r', op: 'RELU', inputs: [i16([4])], outputs: [i16([4], -3)] }, /int16 relu needs zero points 0, got 0 and -3.*RELU at operator #0/],
  ] as [string, SingleOp, RegExp][])('%s', (_name, c, message) => {
    const e = importErrorOf(c);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });

  it('still accepts them with zero points 0', () => {
    for (const c of [
      { name: 'm', op: 'MUL', inputs: [i16([2, 4]), i16([4])], outputs: [i16([2, 4])] },
      { name: 'a', op: 'ABS', inputs: [i16([4])], outputs: [i16([4])] },
      { name: 'r', op: 'RELU', inputs: [i16([4])], outputs: [i16([4])] },
    ]) {
      expect(() => importTflite(singleOpTflite(c), 'm.tflite')).not.toThrow();
    }
  });
});
