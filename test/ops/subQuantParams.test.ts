/**
 * Quantized SUB takes TFLite Micro's SUB Prepare, not ADD's: sub_common.cc
 * (CalculateOpDataSub) forms `input1 scale / twice_max_input_scale`, `input2 scale /
 * twice_max_input_scale` and `twice_max_input_scale / ((1 << left_shift) * output scale)` in
 * float and only then widens them to double, where add_common.cc divides in double. The
 * quantized multipliers differ in their low bits, which moves a result by one step now and
 * then (4 of 3000 random int16 SUB models against a TFLite Micro transcription). The figures
 * below are such cases, checked against the kernel compiled from TFLite Micro's formulas.
 */
import { addQuantParams } from '../../src/arith/quant-params';
import { importTflite } from '../../src/frontend/tflite';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { singleOpTflite } from './tfliteModels';

const f32 = Math.fround;

function subOne(dtype: 'int8' | 'int16', scales: [number, number, number], a: number, b: number): number {
  const spec = (scale: number) => ({ shape: [1], dtype, quant: { scale: [scale], zeroPoint: [0] } });
  const model = singleOpTflite({ name: 's', op: 'SUB', inputs: [spec(scales[0]), spec(scales[1])], outputs: [spec(scales[2])], options: tfliteOptions.sub('NONE') });
  const bytes = (v: number) => (dtype === 'int8' ? new Uint8Array(Int8Array.of(v).buffer) : new Uint8Array(Int16Array.of(v).buffer));
  const out = interpret(importTflite(model, 'm.tflite'), [bytes(a), bytes(b)])[0];
  return dtype === 'int8' ? new Int8Array(out.buffer, out.byteOffset, 1)[0] : new Int16Array(out.slice().buffer)[0];
}

describe('quantized SUB multipliers as TFLite Micro SUB Prepare (float quotients)', () => {
  it('int16: -852 - (-1548) at scales 9.50e-5, 2.30e-5 -> 1.46e-6 is -31070 (-31069 with double quotients)', () => {
    expect(subOne('int16', [f32(9.498259169049561e-5), f32(2.2962552975513972e-5), f32(1.4605687965740799e-6)], -852, -1548)).toBe(-31070);
  });

  it('int8: -106 - 122 at scales 0.0549, 0.158 -> 0.217 is -116 (-115 with double quotients)', () => {
    expect(subOne('int8', [f32(0.05485242232680321), f32(0.15803711116313934), f32(0.21727173030376434)], -106, 122)).toBe(-116);
  });

  it('ADD keeps double quotients; SUB rounds each quotient to float first', () => {
    const [s1, s2, so] = [f32(9.498259169049561e-5), f32(2.2962552975513972e-5), f32(1.4605687965740799e-6)];
    const add = addQuantParams(s1, s2, so, 'int16', 'add');
    const sub = addQuantParams(s1, s2, so, 'int16', 'sub');
    expect(add.input2Multiplier).toBe(2076662940);
    expect(sub.input2Multiplier).toBe(2076662912);
    expect(add.outputMultiplier).toBe(1091043065);
    expect(sub.outputMultiplier).toBe(1091043072);
    expect(sub.input1Multiplier).toBe(add.input1Multiplier);
  });
});
