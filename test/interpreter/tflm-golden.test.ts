/**
 * Outputs of TFLite Micro's own C++ reference kernels (reference_ops::Softmax and
 * reference_integer_ops::Add from tensorflow/tflite-micro with gemmlowp's fixedpoint.h,
 * parameters prepared by PreprocessSoftmaxScaling / CalculateInputRadius and
 * CalculateOpDataAdd, built with g++ and run on the inputs generated below). The
 * interpreter must reproduce them bit for bit.
 */
import { runOp, q, t } from './helpers';

describe('bit-exact against TFLite Micro reference kernels', () => {
  it('int8 softmax', () => {
    const golden: Record<string, number[]> = {
      '0.02': [-127, -125, -119, -102, -53, -127, -124, -117, -97, -39, -126, -124],
      '0.0390625': [-128, -128, -127, -116, -36, -128, -128, -126, -111, 3, -128, -128],
    };
    [0.02, 0.0390625].forEach((scale, s) => {
      const x = Array.from({ length: 12 }, (_, i) => ((i * 53 + s * 7) % 256) - 128);
      const out = runOp('softmax', [{ type: t([1, 12], 'int8', q(scale, 0)), values: x }], t([1, 12], 'int8', q(1 / 256, -128)), {
        beta: 1,
      });
      expect(out).toEqual(golden[String(scale)]);
    });
  });

  it('int8 add', () => {
    const a = Array.from({ length: 16 }, (_, i) => i * 16 - 128);
    const b = Array.from({ length: 16 }, (_, i) => 127 - i * 15);
    const out = runOp(
      'add',
      [
        { type: t([16], 'int8', q(0.05, -3)), values: a },
        { type: t([16], 'int8', q(0.02, 7)), values: b },
      ],
      t([16], 'int8', q(0.06, 2)),
      { activation: 'NONE' },
    );
    expect(out).toEqual([-62, -54, -46, -37, -29, -21, -12, -4, 5, 13, 21, 30, 38, 46, 55, 63]);
  });
});
